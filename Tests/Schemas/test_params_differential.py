"""Every method's params schema against the worker's verdicts (issue 38): a params value its bundled schema
(`Schemas/<method>.params.schema.json`, draft 2020-12) accepts is never answered -32602, and one it refuses always is.

For every params schema (found by glob, the diagnostics methods included: the worker runs with `--diagnostics`) a
seeded generator makes a few hundred values: the schema's examples; for each property every enum value and near
misses of them, values of each wrong JSON type, integers at and beyond the bounds, strings at and beyond the lengths
(in ASCII, Hangul, astral, combining and conjoining-jamo text, since lengths count code points), codes matching and
not matching the pattern (valid ones with a character changed, a newline added, ...), arrays with duplicates and
unknown items; unknown members, missing required ones, `_meta`, no params, null and non-object params; and random
combinations of 2-3 of those. Each value is judged by jsonschema-rs and by Python's jsonschema (both asserting
`format`, as the worker does: protocol.md, Schemas and validation), which must agree, and is sent to one offline
worker; its verdict is "refused" iff the answer is an error with code -32602 (offline, accepted params mostly get
`offline_unavailable` -31006; an accepted `diagnostics.sleep` is cancelled at once: -32800, or its result when it
had already finished).

Rules the worker checks at run time, after the schema (each answered -32602 where the schema accepts), found in
protocol.md, the schemas' descriptions and Sources/; what the generator does about each:
- boxoffice.daily: a `date` after yesterday in Seoul (BOXOFFICE_TODAY=2026-11-21, so 2026-11-21 and later) is
  refused (SeoulCalendar.checkDaily). AVOIDED: dates come only from a fixed set of ended days, the latest
  2026-11-20 (yesterday: accepted, the edge of the rule).
- boxoffice.daily: a `date` before 2003-11-11, the first day KOBIS has, is refused. AVOIDED: the earliest date sent
  is 2003-11-11 itself (accepted).
- boxoffice.weekly: a `date` whose period (`week` Mon-Sun, `weekend` Fri-Sun, the default, `weekdays` Mon-Thu) has
  not finished before today is refused (SeoulCalendar.checkWeekly). AVOIDED: the latest weekly date is 2026-11-15,
  a Sunday whose week, weekend and weekdays have all ended (2026-11-20 would be refused for week and weekend).
- boxoffice.weekly: a `date` before 2003-11-11 is refused. AVOIDED, as for the daily one.
  The generator checks itself: a date the schema accepts must be one of its method's fixed ended days.
- boxoffice.daily/weekly `area` is resolved by the worker's region table (Region.named) after the schema's enum:
  not a rule of its own any more; every enum member is SENT (and must be accepted), with near misses the schema
  refuses (every Korean name decomposed into jamo, NFD; two of: other case, spaces, a newline, a character less or
  more, full-width letters).
- `date` not a calendar day (Params.date), codes.list `kind` not a code list kind, movie.poster with neither title
  nor movieCode: unreachable behind the schema (`format`, `enum`, `oneOf`), all SENT.
Not run-time rules of a method but of the JSON-RPC layer before any schema, handled explicitly:
- `_meta` is taken out of params before validation and never validated (protocol.md): values with `_meta` are
  SENT and judged by the schema without it.
- params that are a scalar or null make an invalid Request (JSON-RPC 2.0 §4.2: params MUST be structured):
  -32600, not -32602 (protocol.md, Summary). SENT; for them the test asserts exactly -32600, not a verdict. An
  array is -32602 ("takes named params") and the schema refuses it (type object): judged like any value.
- What the parser refuses (-32700, answered with id null): NUL in an object key, numbers beyond 64 bits, duplicate
  keys. AVOIDED: such lines carry no params to judge.
Known difference between the two validators, handled explicitly: Python's jsonschema runs `pattern` with `re.search`,
whose `$` also matches before a final "\\n" ("20124079\\n" matches ^[0-9A-Za-z]{1,20}$); ECMA-262's `$`, which
draft 2020-12 specifies and jsonschema-rs and the worker follow, does not. Where the two disagree and Python's
jsonschema with an ECMA `$` agrees with jsonschema-rs, jsonschema-rs's verdict is the schema's; any other
disagreement between the validators fails the test.
"""
import collections
import copy
import itertools
import json
import os
import pathlib
import random
import re
import subprocess
import sys
import unicodedata

import jsonschema
import jsonschema_rs
import pytest

ROOT = pathlib.Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "clients" / "testing"))
from worker_binary import worker_binary  # noqa: E402

BINARY = worker_binary()
SUFFIX = ".params.schema.json"
SCHEMAS = sorted((ROOT / "Schemas").glob("*" + SUFFIX))
TODAY = "2026-11-21"
SEED = 38
COMBINATIONS = 200
AT_LEAST = 100
SHOWN = 20

# Ended days every date-taking method may be sent, and each method's own edge (see the docstring).
ENDED_DAYS = ("2023-04-26", "2022-01-05", "2012-01-01", "2023-04-23", "2024-02-29", "2003-11-11")
EDGE_DAYS = {"boxoffice.daily": ("2026-11-20",), "boxoffice.weekly": ("2026-11-15",)}
MALFORMED_DATES = (
    "2023-13-01", "today", "yesterday", "2023-02-29", "2023-04-31", "2023-00-10", "2023-01-00", "2023-4-26",
    "20230426", "2023/04/26", "2023-04-26T00:00:00", "2023-04-26T00:00:00+09:00", " 2023-04-26", "2023-04-26 ",
    "2023-04-26\n", "\uff12\uff10\uff12\uff13-04-26", "23-04-26", "",
)

# Every keyword the params schemas use; a new one fails the test until the generator knows what to make of it.
HANDLED_KEYWORDS = frozenset({
    "$schema", "$id", "title", "description", "default", "examples", "type", "properties", "required",
    "additionalProperties", "enum", "minimum", "maximum", "minLength", "maxLength", "pattern", "format", "items",
    "uniqueItems", "minItems", "maxItems", "oneOf", "anyOf",
})

# One value of every JSON type, for the wrong-type values of every property and for unknown members.
SAMPLES = (None, True, False, 0, 1, -1, 2.5, 1.0, "", "x", "1", "true", [], ["x"], [1], {}, {"x": 1})
# Text by code points: ASCII, a Hangul syllable, an astral character (two UTF-16 units), a letter with a combining
# accent, and conjoining jamo (three code points, one grapheme).
ALPHABETS = ("a", "\uac00", "\U0001f3ac", "e\u0301", "\u1100\u1161\u11a8")
ODD_TEXT = (" ", "\n", "\t", "a\u0000b", "\u200b", "\ufeff", "<b>x</b>", "%00", "' OR 1=1 --", "\u202e")
# What replaces one character of a valid code (or is added to it).
MUTANTS = ("-", " ", "_", ".", "/", "%", "\uac00", "\u00e9", "\uff21", "\u0663", "\u0000", "\t", "\n")
UNKNOWN_KEYS = (
    "x", "extra", "", " ", "Date", "LIMIT", "date ", "_meta2", "_Meta", "meta", "__proto__", "constructor", "id",
    "jsonrpc", "params", "\ub0a0\uc9dc", unicodedata.normalize("NFD", "\ub0a0\uc9dc"), "a.b", "$ref", "properties",
)
METAS = (
    {}, {"progressToken": 1}, {"progressToken": "t"}, {"progressToken": None}, {"progressToken": [1]}, None, 5,
    "x", [], {"anything": [1, {"deep": True}]}, {"date": "2999-01-01"}, {"_meta": {}},
)
NON_OBJECTS = ([], ["x"], [1, 2], [{}], "x", "", 0, 1.5, True, False, None)
OMIT = object()  # no params member at all


def method_of(path):
    return path.name[: -len(SUFFIX)]


def keywords(schema, found=None):
    """Every keyword used anywhere in a params schema (property names and example values are not keywords)."""
    found = set() if found is None else found
    if isinstance(schema, dict):
        for key, value in schema.items():
            found.add(key)
            if key == "properties":
                for sub in value.values():
                    keywords(sub, found)
            elif key in ("items", "additionalProperties"):
                keywords(value, found)
            elif key in ("oneOf", "anyOf"):
                for sub in value:
                    keywords(sub, found)
    return found


def text(length, alphabet):
    return "".join(alphabet[i % len(alphabet)] for i in range(length))


def fullwidth(value):
    return "".join(chr(ord(c) + 0xFEE0) if "!" <= c <= "~" else c for c in value)


def near_misses(value):
    """Strings a careless reader of an enum member might take for it."""
    misses = {
        value.upper(), value.lower(), value.swapcase(), value.capitalize(), value + " ", " " + value, value + "\n",
        value[:-1], value + "x", unicodedata.normalize("NFD", value), fullwidth(value),
    }
    misses.discard(value)
    return sorted(misses)


class Generator:
    """The values of one method, deterministic for a seed."""

    def __init__(self, method, schema, other_names, rng):
        self.method = method
        self.schema = schema
        self.rng = rng
        self.properties = schema.get("properties", {})
        self.examples = schema.get("examples") or [{}]
        self.unknown_keys = list(UNKNOWN_KEYS) + sorted(other_names - set(self.properties))
        self.days = ENDED_DAYS + EDGE_DAYS.get(method, ())
        self.atoms = {name: self.property_atoms(name, sub) for name, sub in self.properties.items()}

    def property_atoms(self, name, sub):
        rng = self.rng
        atoms = list(SAMPLES)
        kind = sub.get("type")
        if "enum" in sub:
            atoms += sub["enum"]
            for member in sub["enum"]:
                if isinstance(member, str):
                    misses = near_misses(member)
                    decomposed = unicodedata.normalize("NFD", member)
                    if decomposed in misses:  # Hangul: the same text to a reader, other code points to a schema
                        atoms.append(decomposed)
                        misses.remove(decomposed)
                    atoms += rng.sample(misses, 2)
        if kind == "boolean":
            atoms += [True, False]
        if kind == "integer":
            atoms += [0, -1, 1, 2**31, 2**53 + 1, 2**63 - 1, -(2**63), 1.5, 1e300, -0.0, 7.0]
            low, high = sub.get("minimum"), sub.get("maximum")
            for bound in (low, high):
                if bound is not None:
                    atoms += [bound - 1, bound, bound + 1, float(bound), bound + 0.5, bound - 0.5]
            if low is not None and high is not None:
                atoms += [rng.randint(low, high) for _ in range(4)]
        if kind == "string":
            atoms += ["", *ODD_TEXT]
            if sub.get("format") == "date":
                atoms += [*self.days, *MALFORMED_DATES]
            elif "pattern" in sub:
                atoms += self.pattern_atoms(name, sub)
            low, high = sub.get("minLength"), sub.get("maxLength")
            lengths = sorted({n for bound in (low, high) if bound is not None for n in (bound - 1, bound, bound + 1)
                              if n >= 0})
            atoms += [text(n, alphabet) for n in lengths for alphabet in ALPHABETS]
        if kind == "array":
            atoms += self.array_atoms(sub)
        return atoms

    def pattern_atoms(self, name, sub):
        rng = self.rng
        valid = [e[name] for e in self.examples if isinstance(e.get(name), str)]
        valid += ["0", "A", "z" * 20, "2023C625", "20124079", "".join(rng.choice("0123456789ABCxyz") for _ in range(8))]
        atoms = valid + ["9" * 21, "A" * 21]
        for base in valid[:4]:
            for mutant in MUTANTS:
                at = rng.randrange(len(base))
                atoms.append(base[:at] + mutant + base[at + 1:])
            atoms += [base + "\n", "\n" + base, base + "\r\n", base + "\u0301", " " + base, base + " ", fullwidth(base)]
        return atoms

    def array_atoms(self, sub):
        members = list(sub.get("items", {}).get("enum", [])) + ["x"]
        longest = sub.get("maxItems", 2) + 1
        atoms = [list(seq) for n in range(longest + 1) for seq in itertools.product(members, repeat=n)]
        atoms = atoms if len(atoms) <= 60 else self.rng.sample(atoms, 60)
        first = members[0]
        atoms += [[None], [1], [[first]], [{"x": 1}], [first.upper()], [first + " "], [first, first.upper()]]
        return atoms

    def base_for(self, name):
        """An example to change one property of: one that has it, so oneOf/anyOf stay satisfied, else the smallest."""
        having = [e for e in self.examples if name in e]
        return copy.deepcopy(self.rng.choice(having) if having else min(self.examples, key=len))

    def mutate(self, value):
        rng = self.rng
        kinds = ["unknown", "meta", "drop"] + ["set"] * (6 if self.properties else 0)
        kind = rng.choice(kinds)
        if kind == "set":
            name = rng.choice(list(self.properties))
            value[name] = copy.deepcopy(rng.choice(self.atoms[name]))
        elif kind == "drop" and value:
            del value[rng.choice(sorted(value))]
        elif kind == "unknown":
            value[rng.choice(self.unknown_keys)] = copy.deepcopy(rng.choice(SAMPLES))
        elif kind == "meta":
            value["_meta"] = copy.deepcopy(rng.choice(METAS))

    def values(self):
        rng = self.rng
        values = [copy.deepcopy(e) for e in self.examples] + [{}, OMIT]
        for required in self.schema.get("required", []):
            values += [{k: v for k, v in e.items() if k != required} for e in self.examples]
        for name, atoms in self.atoms.items():
            for atom in atoms:
                value = self.base_for(name)
                value[name] = copy.deepcopy(atom)
                values.append(value)
            values.append({k: v for k, v in self.base_for(name).items() if k != name})
        for key in self.unknown_keys:
            values.append({**copy.deepcopy(rng.choice(self.examples)), key: copy.deepcopy(rng.choice(SAMPLES))})
        for meta in METAS:
            values.append({**copy.deepcopy(rng.choice(self.examples)), "_meta": copy.deepcopy(meta)})
            values.append({"_meta": copy.deepcopy(meta), rng.choice(self.unknown_keys): 1})
        values += [copy.deepcopy(v) for v in NON_OBJECTS]
        values += [[copy.deepcopy(e)] for e in self.examples]
        for _ in range(COMBINATIONS):
            value = copy.deepcopy(rng.choice(self.examples + [{}]))
            for _ in range(rng.choice((2, 3))):
                self.mutate(value)
            values.append(value)
        unique, seen = [], set()
        for value in values:
            key = "<omitted>" if value is OMIT else json.dumps(value, sort_keys=True, ensure_ascii=False)
            if key not in seen:
                seen.add(key)
                unique.append(value)
        return unique


def ecma_pattern(validator, pattern, instance, schema):
    """`pattern` with ECMA-262's `$`: the end of the input only (the patterns here end with it)."""
    if pattern.endswith("$") and not pattern.endswith("\\$"):
        pattern = pattern[:-1] + r"\Z"
    if validator.is_type(instance, "string") and not re.search(pattern, instance):
        yield jsonschema.ValidationError(f"{instance!r} does not match {pattern!r}")


ECMAValidator = jsonschema.validators.extend(jsonschema.Draft202012Validator, {"pattern": ecma_pattern})


class Judge:
    """The schema's verdict on a params value, from two validators that must agree."""

    def __init__(self, schema):
        checker = jsonschema.Draft202012Validator.FORMAT_CHECKER
        self.rs = jsonschema_rs.Draft202012Validator(schema, validate_formats=True)
        self.py = jsonschema.Draft202012Validator(schema, format_checker=checker)
        self.ecma = ECMAValidator(schema, format_checker=checker)

    def __call__(self, instance):
        """(accepted, why) where why is None, "python-dollar" or a disagreement between the validators."""
        rs, py = self.rs.is_valid(instance), self.py.is_valid(instance)
        if rs == py:
            return rs, None
        if self.ecma.is_valid(instance) == rs:
            return rs, "python-dollar"
        return rs, "jsonschema-rs %s, jsonschema %s: %s" % (
            "accepts" if rs else "refuses", "accepts" if py else "refuses", self.first_error(instance))

    def first_error(self, instance):
        for error in self.rs.iter_errors(instance):
            return "%s: %s" % ("/" + "/".join(map(str, error.instance_path)), error.message)
        error = jsonschema.exceptions.best_match(self.py.iter_errors(instance))
        return "%s: %s" % (error.json_path, error.message) if error else "(no error)"


def judged(params):
    """What the schema is asked about: params without `_meta` (never validated), {} for no params."""
    if params is OMIT:
        return {}
    if isinstance(params, dict):
        return {k: v for k, v in params.items() if k != "_meta"}
    return params


def shown(params, limit=300):
    text_ = "<no params>" if params is OMIT else json.dumps(params, ensure_ascii=False)
    return text_ if len(text_) <= limit else text_[:limit] + "…"


def worker_environment(cache):
    environment = {k: v for k, v in os.environ.items() if not k.startswith("BOXOFFICE_")}
    environment.update(KOBIS_API_KEY="", KAKAO_REST_API_KEY="", BOXOFFICE_TODAY=TODAY,
                       BOXOFFICE_CACHE_DIR=str(cache))
    return environment


def differential(cache):
    """Generates, judges and sends every value; returns the counts and every disagreement found."""
    schemas = {method_of(path): json.loads(path.read_text()) for path in SCHEMAS}
    unhandled = {m: sorted(keywords(s) - HANDLED_KEYWORDS) for m, s in schemas.items()}
    unhandled = {m: found for m, found in unhandled.items() if found}
    assert not unhandled, "keywords the generator does not know yet: %s" % unhandled
    names = {name for schema in schemas.values() for name in schema.get("properties", {})}
    rng = random.Random(SEED)

    cases = []  # (id, method, params, accepted by the schema or None for an invalid Request, note)
    validators_disagree, dollar = [], 0
    for method, schema in schemas.items():
        judge = Judge(schema)
        generator = Generator(method, schema, names, rng)
        for params in generator.values():
            instance = judged(params)
            if params is not OMIT and not isinstance(params, (dict, list)):
                assert not judge(instance)[0], (method, params)
                cases.append((len(cases) + 1, method, params, None))
                continue
            accepted, why = judge(instance)
            if why == "python-dollar":
                dollar += 1
            elif why:
                validators_disagree.append("%s %s: %s" % (method, shown(params), why))
            if accepted and isinstance(instance, dict) and "date" in instance:
                assert instance["date"] in generator.days, (
                    "the generator sent a date a run-time rule may refuse: %s %s" % (method, shown(params)))
            cases.append((len(cases) + 1, method, params, accepted))

    lines = []
    for number, method, params, _ in cases:
        message = {"jsonrpc": "2.0", "id": number, "method": method}
        if params is not OMIT:
            message["params"] = params
        lines.append(json.dumps(message, ensure_ascii=number % 2 == 0, separators=(",", ":")))
        if method == "diagnostics.sleep":
            # Params are checked on the responder thread in reading order, so this arrives after the verdict:
            # a refused sleep is already answered (and the id unknown), an accepted one ends with -32800.
            lines.append(json.dumps({"jsonrpc": "2.0", "method": "$/cancelRequest", "params": {"id": number}}))
    process = subprocess.Popen(
        [BINARY, "--diagnostics", "--offline", "--max-in-flight", "64"], stdin=subprocess.PIPE,
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=worker_environment(cache))
    try:
        out, err = process.communicate(("\n".join(lines) + "\n").encode(), timeout=120)
    except subprocess.TimeoutExpired:
        process.kill()
        out, err = process.communicate()
        pytest.fail("the worker did not finish within 120 s; stderr ends: %s" % err.decode()[-2000:])
    assert process.returncode == 0, err.decode()[-2000:]

    answers, strays = {}, []
    for line in out.decode().splitlines():
        message = json.loads(line)
        if isinstance(message, dict) and "id" in message and ("result" in message or "error" in message):
            if message["id"] is None:
                strays.append(line)
            else:
                answers[message["id"]] = message

    disagreements, invalid_requests, unanswered = [], [], []
    sent = collections.Counter()
    verdicts = collections.Counter()
    for number, method, params, accepted in cases:
        sent[method] += 1
        answer = answers.get(number)
        if answer is None:
            unanswered.append("%s %s" % (method, shown(params)))
            continue
        code = answer.get("error", {}).get("code")
        if accepted is None:
            if code != -32600:
                invalid_requests.append("%s params %s: %s" % (method, shown(params), shown(answer)))
            continue
        verdicts[method, accepted] += 1
        if (code == -32602) == accepted:
            disagreements.append(
                "%s params %s\n    schema: %s\n    worker: %s" % (
                    method, shown(params),
                    "accepts" if accepted else "refuses (%s)" % Judge(schemas[method]).first_error(judged(params)),
                    shown(answer, 400)))
    return {
        "schemas": schemas, "sent": sent, "verdicts": verdicts, "disagreements": disagreements,
        "validators": validators_disagree, "dollar": dollar, "invalid_requests": invalid_requests,
        "unanswered": unanswered, "strays": strays,
    }


@pytest.fixture(scope="module")
def run(tmp_path_factory):
    return differential(tmp_path_factory.mktemp("cache"))


def listed(title, items):
    return "%d %s:\n  %s" % (len(items), title, "\n  ".join(items[:SHOWN])) if items else ""


def test_the_worker_refuses_exactly_what_each_schema_refuses(run):
    report = "\n".join(filter(None, [
        listed("disagreements between a schema and the worker", run["disagreements"]),
        listed("disagreements between jsonschema-rs and jsonschema", run["validators"]),
        listed("scalar or null params not answered -32600 (invalid Request)", run["invalid_requests"]),
        listed("values never answered", run["unanswered"]),
        listed("answers with id null", run["strays"]),
    ]))
    assert not report, report


def test_every_method_is_sent_enough_values(run):
    methods = set(run["schemas"])
    assert {"ping", "boxoffice.daily", "diagnostics.sleep", "diagnostics.fail"} <= methods, methods
    too_few = {m: run["sent"][m] for m in methods if run["sent"][m] < AT_LEAST}
    assert not too_few, "fewer than %d values sent: %s" % (AT_LEAST, too_few)
    one_sided = {m: (run["verdicts"][m, True], run["verdicts"][m, False]) for m in methods
                 if min(run["verdicts"][m, True], run["verdicts"][m, False]) < 5}
    assert not one_sided, "fewer than 5 values the schema accepts or refuses (accepted, refused): %s" % one_sided
