"""What the typed methods check before anything is sent.

Every keyword is one the method takes, and every value has its param's JSON type, one of its values and its pattern
(a date's shape), by the rules generated from Schemas/ (`types.PARAM_RULES`). Ranges, lengths and the rules between
params (exactly one of title and movie_code) stay with the worker, which answers them with -32602 itself. A refusal
is `InvalidParams`, the class of the worker's -32602, with `data["errors"]` shaped like the worker's.
"""

import difflib
import functools
import inspect
import math
import re
from typing import Any, Callable, Dict, List, Mapping, Optional, Sequence, TypeVar, cast

from .errors import InvalidParams
from .types import PARAM_RULES

F = TypeVar("F", bound=Callable[..., Any])

# The keywords of one call, taken beside the params by the typed methods.
CALL_OPTIONS = ("timeout", "on_progress")

_JSON_TYPES = ((bool, "boolean"), (int, "integer"), (float, "number"), (str, "string"), (type(None), "null"),
               (dict, "object"), (list, "array"), (tuple, "array"))


def json_type(value: Any) -> str:
    """The JSON type a value would be sent as ("integer" for a whole number), or its Python type's name when none."""
    if isinstance(value, float) and not math.isfinite(value):
        return "non-finite number"
    for kind, name in _JSON_TYPES:
        if isinstance(value, kind):
            return name
    kind = type(value)
    return kind.__qualname__ if kind.__module__ == "builtins" else "%s.%s" % (kind.__module__, kind.__qualname__)


def described(value: Any) -> str:
    """A value as a message names it: `the string "3"`, `the integer 20220105`, `an object`, `a datetime.date`."""
    kind = json_type(value)
    if kind == "null":
        return "None"
    if kind == "string":
        return 'the string "%s"' % value
    if kind in ("integer", "number", "boolean"):
        return "the %s %r" % (kind, value)
    return ("an %s" if kind[:1] in "aeiou" else "a %s") % kind


def _has_type(value: Any, kind: str) -> bool:
    actual = json_type(value)
    if kind == "integer" and actual == "number":
        return float(value).is_integer()  # 3.0 is sent as 3.0, which JSON Schema counts as an integer
    return actual == kind or (kind == "number" and actual == "integer")


def closest(word: str, candidates: Sequence[str]) -> Optional[str]:
    """The candidate `word` was most likely meant as: one that differs only in case, `_` or `-` (`multiMovie` for
    `multi_movie`), else the most similar by difflib's ratio (`date` for `data`); None when none is near."""
    def plain(text: str) -> str:
        return text.lower().replace("_", "").replace("-", "")

    for candidate in candidates:
        if plain(candidate) == plain(word):
            return candidate
    near = difflib.get_close_matches(word, list(candidates), n=1, cutoff=0.6)
    return near[0] if near else None


def _quoted(value: Any) -> str:
    return '"%s"' % value if isinstance(value, str) else repr(value)


_patterns: Dict[str, Any] = {}


def _compiled(pattern: str) -> Any:
    """The pattern compiled, or None when Python's `re` cannot read this ECMA-262 one (the worker still checks it)."""
    if pattern not in _patterns:
        try:
            _patterns[pattern] = re.compile(pattern)
        except re.error:
            _patterns[pattern] = None
    return _patterns[pattern]


def _problem(location: str, keyword_location: str, name: str, message: str) -> List[Dict[str, str]]:
    return [{"instanceLocation": location, "keywordLocation": keyword_location,
             "message": '"%s" must be %s' % (name, message)}]


def _value_problems(value: Any, rule: Mapping[str, Any], location: str, name: str,
                    keyword_location: str) -> List[Dict[str, str]]:
    """What is wrong with one value under `rule`, as error objects like the worker's."""
    kinds = rule.get("type")
    if kinds is not None:
        kinds = (kinds,) if isinstance(kinds, str) else kinds
        if not any(_has_type(value, kind) for kind in kinds):
            wanted = " or ".join(("an %s" if kind[:1] in "aeiou" else "a %s") % kind for kind in kinds)
            return _problem(location, keyword_location + "/type", name, "%s, not %s" % (wanted, described(value)))
    if "enum" in rule and not any(type(value) is type(allowed) and value == allowed for allowed in rule["enum"]):
        near = closest(value, [allowed for allowed in rule["enum"] if isinstance(allowed, str)]) \
            if isinstance(value, str) else None
        return _problem(location, keyword_location + "/enum", name, "one of %s, not %s%s" % (
            ", ".join(_quoted(allowed) for allowed in rule["enum"]), described(value),
            ' (did you mean "%s"?)' % near if near else ""))
    pattern = rule.get("pattern")
    if pattern and isinstance(value, str) and _compiled(pattern) and not _compiled(pattern).search(value):
        shape = "a date as YYYY-MM-DD" if rule.get("format") == "date" else "a string matching %s" % pattern
        return _problem(location, keyword_location + "/pattern", name, '%s, not "%s"' % (shape, value))
    if "items" in rule and isinstance(value, (list, tuple)):
        return [found for index, item in enumerate(value)
                for found in _value_problems(item, rule["items"], "%s/%d" % (location, index), "%s[%d]" % (name, index),
                                             keyword_location + "/items")]
    return []


def snake(key: str) -> str:
    """A wire key as a Python keyword: `multiMovie` is `multi_movie`."""
    return re.sub(r"(?<=[a-z0-9])([A-Z])", lambda match: "_" + match.group(1).lower(), key)


def param_problems(method: str, params: Mapping[str, Any]) -> List[Dict[str, str]]:
    """What is wrong with `params` (wire keys and values as they would be sent) for `method`, as error objects like
    the worker's `data["errors"]`; empty when nothing is, or when the method has no generated rules. Messages name
    the Python keyword (`multi_movie`), locations the wire key (`/multiMovie`)."""
    rules = PARAM_RULES.get(method)
    if rules is None:
        return []
    problems: List[Dict[str, str]] = []
    for key, value in params.items():
        rule = rules["properties"].get(key)
        if key == "_meta" or value is None or (rule is None and not rules["closed"]):
            continue
        if rule is None:
            problems.append({"instanceLocation": "/" + key, "keywordLocation": "/additionalProperties",
                             "message": 'unknown key "%s"' % key})
            continue
        problems += _value_problems(value, rule, "/" + key, snake(key), "/properties/" + key)
    return problems


def refused(method: str, problems: List[Dict[str, str]]) -> InvalidParams:
    """The InvalidParams for `problems`, as the worker would answer them (code -32602, reason invalid_params)."""
    message = "Invalid params for %s: %s" % (method, "; ".join(problem["message"] for problem in problems))
    return InvalidParams(-32602, message, {"reason": "invalid_params", "errors": problems[:20]})


def _camel(name: str) -> str:
    head, *rest = name.split("_")
    return head + "".join(part[:1].upper() + part[1:] for part in rest)


def _checker(method: str, function: Callable[..., Any]) -> Callable[[Sequence[Any], Mapping[str, Any]], None]:
    """Checks one call of `function` (a typed method of `method`, without its `self`): the keywords and arguments as
    its signature takes them, then the values by their wire names. Binds by hand: `Signature.bind` would cost more
    than the rest of a call."""
    parameters = [parameter for parameter in inspect.signature(function).parameters.values()
                  if parameter.name != "self"]
    names = [parameter.name for parameter in parameters]
    positional = [parameter.name for parameter in parameters
                  if parameter.kind in (parameter.POSITIONAL_ONLY, parameter.POSITIONAL_OR_KEYWORD)]
    required = [parameter.name for parameter in parameters if parameter.default is parameter.empty]
    properties = PARAM_RULES.get(method, {}).get("properties", {})
    rules = {name: (_camel(name), properties[_camel(name)]) for name in names if _camel(name) in properties}

    def check(args: Sequence[Any], kwargs: Mapping[str, Any]) -> None:
        problems: List[Dict[str, str]] = []

        def argument_problem(message: str) -> None:
            problems.append({"instanceLocation": "", "keywordLocation": "", "message": message})

        for key in kwargs:
            if key not in rules and key not in names:
                near = closest(key, names)
                takes = "; it takes %s" % ", ".join(names) if names else "; it takes none"
                problems.append({"instanceLocation": "/" + key, "keywordLocation": "/additionalProperties",
                                 "message": 'unknown keyword "%s"%s' % (
                                     key, ' (did you mean "%s"?)' % near if near else takes)})
        if len(args) > len(positional):
            argument_problem("it takes at most %d positional argument%s (%s), not %d" % (
                len(positional), "" if len(positional) == 1 else "s", ", ".join(positional) or "none", len(args)))
        given = dict(zip(positional, args))
        for key in kwargs:
            if key in given:
                argument_problem('"%s" is given twice' % key)
        given.update(kwargs)
        for name in required:
            if name not in given:
                argument_problem('the argument "%s" is missing' % name)
        for name, value in given.items():
            if value is not None and name in rules:
                wire, rule = rules[name]
                problems += _value_problems(value, rule, "/" + wire, name, "/properties/" + wire)
        if problems:
            raise refused(method, problems)

    return check


def checked(method: str) -> Callable[[F], F]:
    """Makes a typed method of `method` refuse, before anything is sent, a keyword it does not take (suggesting the
    near one: `data=` → `date=`) and a value of the wrong type, with `InvalidParams`; an async method raises when
    awaited. Type checkers still see the method's own signature."""
    def decorate(function: F) -> F:
        check = _checker(method, function)
        if inspect.iscoroutinefunction(function):
            @functools.wraps(function)
            async def checked_async(self: Any, *args: Any, **kwargs: Any) -> Any:
                check(args, kwargs)
                return await function(self, *args, **kwargs)

            return cast(F, checked_async)

        @functools.wraps(function)
        def checked_sync(self: Any, *args: Any, **kwargs: Any) -> Any:
            check(args, kwargs)
            return function(self, *args, **kwargs)

        return cast(F, checked_sync)

    return decorate
