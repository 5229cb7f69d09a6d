"""Validation benchmark: the worker's validator against jsonschema-rs's compiled validator, same schema and instances.

Runs the Swift schema-bench (compiled in release) and, in the same run, jsonschema_rs.validator_for(schema,
validate_formats=True).is_valid(instance) in a Python loop (its compiled validator, with the cost of handing a
Python object to Rust on every call, which is how a Python host would use it). Prints ns per validation,
validations/s and the ratio.
"""
import argparse
import json
import subprocess
import time

import jsonschema_rs


def python_median_ns(validator, instance, iterations):
    batch = max(1, iterations // 15)
    samples = []
    for _ in range(15):
        start = time.perf_counter_ns()
        for _ in range(batch):
            validator.is_valid(instance)
        samples.append((time.perf_counter_ns() - start) / batch)
    samples.sort()
    return samples[len(samples) // 2]


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--bench", required=True)
    parser.add_argument("--schema", required=True)
    parser.add_argument("--instances", required=True)
    parser.add_argument("--iterations", type=int, default=300000)
    options = parser.parse_args()

    swift = [json.loads(line) for line in subprocess.run(
        [options.bench, options.schema, options.instances, str(options.iterations)], check=True, capture_output=True, text=True
    ).stdout.splitlines()]
    with open(options.schema) as handle:
        schema = json.load(handle)
    validator = jsonschema_rs.validator_for(schema, validate_formats=True)

    print("schema: %s (formats asserted in both)" % options.schema)
    print()
    print("%-72s %6s %12s %12s %14s %8s" % ("instance", "valid", "worker ns", "rs ns", "worker val/s", "rs/worker"))
    for row in swift:
        instance = row["instance"]
        rs_valid = validator.is_valid(instance)
        if rs_valid != row["valid"]:
            print("DISAGREEMENT on %s: worker %s, jsonschema-rs %s" % (instance, row["valid"], rs_valid))
        rs_ns = python_median_ns(validator, instance, options.iterations)
        ours = row["isValidNs"]
        print("%-72s %6s %12.1f %12.1f %14.0f %8.2f" % (
            json.dumps(instance, ensure_ascii=False)[:72], row["valid"], ours, rs_ns, 1e9 / ours, rs_ns / ours))
        if not row["valid"]:
            print("%-72s %6s %12.1f %12s %14.0f   (validate(): %d located errors)" % (
                "  … collecting errors", "", row["validateNs"], "", 1e9 / row["validateNs"], row["errors"]))
    valid_rows = [row for row in swift if row["valid"]]
    if valid_rows:
        median = sorted(row["isValidNs"] for row in valid_rows)[len(valid_rows) // 2]
        print()
        print("valid instances, median: %.1f ns per validation [target <= 1000 ns]" % median)


if __name__ == "__main__":
    main()
