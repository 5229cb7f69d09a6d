#!/usr/bin/env python3
"""Writes the seed corpora of the fuzz targets into DIR/<target>/ (scripts/fuzz calls it; files go under .build-fuzz).

- decoders: the recorded upstream bodies of Fixtures/upstream, and ../shared/data/kobis when it is there;
- schema:   each Schemas/*.schema.json on the first line with each of its examples after it, Fuzz/Seeds/schema (the
            inputs the target once found a fault with), and the cases of JSON-Schema-Test-Suite's draft 2020-12
            (../shared/testsuites) when present;
- lines:    Fuzz/Seeds/lines, Fixtures/demo.ndjson, and JSONTestSuite's documents (each as one line) when present;
- rpc:      the same as lines (the same server, over probe methods);
- mcp:      Fuzz/Seeds/mcp;
- mcp-probes: the same as mcp (the same MCP layer, over probe methods).
"""
import hashlib
import json
import pathlib
import sys

ROOT = pathlib.Path(__file__).resolve().parents[1]
SHARED = ROOT.parent / "shared"


def put(folder, data):
    folder.mkdir(parents=True, exist_ok=True)
    (folder / hashlib.sha1(data).hexdigest()).write_bytes(data)


def main():
    out = pathlib.Path(sys.argv[1])
    for path in sorted((ROOT / "Fixtures" / "upstream").rglob("*.json")):
        put(out / "decoders", path.read_bytes())
    for path in sorted((SHARED / "data" / "kobis").glob("*.json")) if (SHARED / "data" / "kobis").is_dir() else []:
        put(out / "decoders", path.read_bytes())

    for path in sorted((ROOT / "Schemas").glob("*.schema.json")):
        schema = json.loads(path.read_text())
        for example in schema.get("examples", [None]):
            put(out / "schema", (json.dumps(schema, ensure_ascii=False) + "\n" + json.dumps(example, ensure_ascii=False)).encode())
    for path in sorted((ROOT / "Fuzz" / "Seeds" / "schema").glob("*")):
        put(out / "schema", path.read_bytes())
    suite = SHARED / "testsuites" / "JSON-Schema-Test-Suite" / "tests" / "draft2020-12"
    for path in sorted(suite.glob("*.json")) if suite.is_dir() else []:
        for group in json.loads(path.read_text()):
            for case in group["tests"]:
                put(out / "schema", (json.dumps(group["schema"]) + "\n" + json.dumps(case["data"])).encode())

    for path in sorted((ROOT / "Fuzz" / "Seeds" / "lines").glob("*")) + [ROOT / "Fixtures" / "demo.ndjson"]:
        if path.is_file():
            put(out / "lines", path.read_bytes())
    parsing = SHARED / "testsuites" / "JSONTestSuite" / "test_parsing"
    for path in sorted(parsing.glob("*.json")) if parsing.is_dir() else []:
        put(out / "lines", path.read_bytes().replace(b"\n", b" ") + b"\n")
    for path in (out / "lines").glob("*"):
        put(out / "rpc", path.read_bytes())

    for path in sorted((ROOT / "Fuzz" / "Seeds" / "mcp").glob("*")):
        put(out / "mcp", path.read_bytes())
        put(out / "mcp-probes", path.read_bytes())
    for target in ("decoders", "schema", "rpc", "lines", "mcp-probes", "mcp"):
        print("%s: %d seeds" % (target, len(list((out / target).glob("*")))), file=sys.stderr)


if __name__ == "__main__":
    main()
