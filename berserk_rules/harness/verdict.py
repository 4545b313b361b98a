"""The schema verdict, compiled: valid or not, as Python functions generated once per schema.

jsonschema walks a schema anew for every value, building a validator object per node: most of a
scenario run's time went there. The verdict is computed instead by Python functions generated from the
keywords our schemas use — one function per object or array node and per ``$ref``, with the checks of
scalar nodes (a type, an enum, a bound) written into them as expressions — and compiled with
``compile``; a schema with any other keyword raises :class:`Unsupported`, and the caller checks it with
jsonschema itself (:func:`berserk_rules.harness.contract.fast_validator`). A failure is always
explained by jsonschema (``contract.violations``), and tests/test_contract.py holds the two verdicts
equal on real messages, on broken ones and on every form of check written here.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

Check = Callable[[Any], bool]
_ANNOTATIONS = frozenset(
    ("$id", "$schema", "$defs", "$comment", "title", "description", "examples", "default", "deprecated")
)
# keywords whose check is an expression of the value alone (no loop over its members)
_SCALAR_KEYS = frozenset(
    (
        "type", "enum", "const", "minLength", "maxLength", "minimum", "maximum", "pattern", "$ref",
        "minItems", "maxItems", "uniqueItems",
    )
)  # fmt: skip


class Unsupported(Exception):
    """A schema keyword the compiled check does not know: jsonschema checks that schema."""


def _is_integer(v: Any) -> bool:
    return (isinstance(v, int) and not isinstance(v, bool)) or (isinstance(v, float) and v.is_integer())


def _is_number(v: Any) -> bool:
    return isinstance(v, int | float) and not isinstance(v, bool)


# type -> its test of the variable ``{0}`` (JSON Schema's: true is not an integer, 1.0 is)
_TYPES: dict[str, str] = {
    "object": "isinstance({0}, dict)",
    "array": "isinstance({0}, list)",
    "string": "isinstance({0}, str)",
    "integer": "_is_integer({0})",
    "number": "_is_number({0})",
    "boolean": "isinstance({0}, bool)",
    "null": "{0} is None",
}


def json_equal(one: Any, two: Any) -> bool:
    """Equality as JSON Schema means it (``const``, ``enum``): true is not 1, 1 is 1.0."""
    if isinstance(one, bool) or isinstance(two, bool):
        return type(one) is type(two) and one == two
    if isinstance(one, list) and isinstance(two, list):
        return len(one) == len(two) and all(json_equal(a, b) for a, b in zip(one, two, strict=True))
    if isinstance(one, dict) and isinstance(two, dict):
        return one.keys() == two.keys() and all(json_equal(one[k], two[k]) for k in one)
    if isinstance(one, list | dict) or isinstance(two, list | dict):
        return False
    return bool(one == two)


def _unique(items: list[Any]) -> bool:
    """``uniqueItems``: no two members equal as JSON (true is not 1, 1 is 1.0)."""
    for index, one in enumerate(items):
        for two in items[index + 1 :]:
            if json_equal(one, two):
                return False
    return True


_MISSING = object()  # a property the object does not have (``v.get(name, _MISSING)``)


class Compiler:
    """Generates the checking functions of schema nodes (Python source, compiled on :meth:`ref` or
    :meth:`node`): ``def c3(v): ... return True`` — False at the first keyword the value breaks.
    ``load(name)`` gives the schema of that name; ``prefix`` is the start of our schemas' ids
    (``$ref`` to ``<prefix><name>#<pointer>``)."""

    def __init__(self, load: Callable[[str], Any], prefix: str) -> None:
        self.load = load
        self.prefix = prefix
        self.done: dict[tuple[str, str], str] = {}  # (schema, fragment) of a $ref -> its function
        self.lines: list[str] = []  # the source of the functions generated, not yet compiled
        self.space: dict[str, Any] = {
            "_is_integer": _is_integer,
            "_is_number": _is_number,
            "json_equal": json_equal,
            "_unique": _unique,
            "_MISSING": _MISSING,
        }
        self.count = 0

    # -- the API: a check of a $ref or of a node --------------------------------------------------

    def ref(self, ref: str, base: str) -> Check:
        return self._compiled(self._ref(ref, base))

    def node(self, node: Any, base: str) -> Check:
        return self._compiled(self._function(node, base))

    def _compiled(self, name: str) -> Check:
        if self.lines:
            source = "\n".join(self.lines) + "\n"
            self.lines = []
            exec(compile(source, "<schema check>", "exec"), self.space)  # our own source, from our schemas
        check: Check = self.space[name]
        return check

    # -- generation -------------------------------------------------------------------------------

    def _name(self, prefix: str) -> str:
        self.count += 1
        return f"{prefix}{self.count}"

    def _constant(self, value: Any) -> str:
        name = self._name("k")
        self.space[name] = value
        return name

    def _target(self, ref: str, base: str) -> tuple[Any, str, tuple[str, str]]:
        """The node a ``$ref`` names, the schema it is in, and (schema, fragment) — the ref's key."""
        name, _, fragment = (base + ref if ref.startswith("#") else ref).partition("#")
        target: Any = self.load(name.removeprefix(self.prefix))
        for part in (p for p in fragment.split("/") if p):
            target = target[part]
        return target, name, (name, fragment)

    def _ref(self, ref: str, base: str) -> str:
        target, name, key = self._target(ref, base)
        found = self.done.get(key)
        if found is None:
            found = self.done[key] = self._name("r")  # named before it is made: a ref may recur
            self._define(found, target, name)
        return found

    def _function(self, node: Any, base: str) -> str:
        name = self._name("c")
        self._define(name, node, base)
        return name

    def _define(self, name: str, node: Any, base: str) -> None:
        body = self._statements(node, base)
        self.lines += [f"def {name}(v):", *(f"    {line}" for line in body), "    return True"]

    def _check(self, node: Any, base: str, var: str) -> str:
        """An expression: does ``var`` fit ``node``? Written out for a scalar node, else a call of
        the node's function."""
        if node is True:
            return "True"
        if node is False:
            return "False"
        if not isinstance(node, dict):
            raise Unsupported(repr(node))
        keys = node.keys() - _ANNOTATIONS
        if keys <= _SCALAR_KEYS:
            parts = [self._scalar(key, node[key], base, var) for key in node if key in keys]
            return " and ".join(f"({p})" for p in parts) if parts else "True"
        return f"{self._function(node, base)}({var})"

    def _scalar(self, key: str, value: Any, base: str, var: str) -> str:
        if key == "$ref":
            target, at, _ = self._target(value, base)
            if isinstance(target, dict) and target.keys() - _ANNOTATIONS <= _SCALAR_KEYS - {"$ref"}:
                return self._check(target, at, var)  # a named scalar («player»): written out here
            return f"{self._ref(value, base)}({var})"
        if key == "type":
            tests = [_TYPES[t].format(var) for t in (value if isinstance(value, list) else [value])]
            return " or ".join(tests)
        if key == "const":
            if value is None or isinstance(value, bool):  # JSON's true is only true, not 1
                return f"{var} is {value!r}"
            if isinstance(value, str):
                return f"isinstance({var}, str) and {var} == {self._constant(value)}"
            return f"json_equal({var}, {self._constant(value)})"
        if key == "enum":
            if all(isinstance(e, str) or e is None for e in value):
                words = self._constant(frozenset(e for e in value if e is not None))
                test = f"isinstance({var}, str) and {var} in {words}"
                return f"{var} is None or ({test})" if None in value else test
            return f"any(json_equal({var}, e) for e in {self._constant(list(value))})"
        if key in ("minLength", "maxLength"):
            op = ">=" if key == "minLength" else "<="
            return f"not isinstance({var}, str) or len({var}) {op} {self._constant(value)}"
        if key in ("minItems", "maxItems"):
            op = ">=" if key == "minItems" else "<="
            return f"not isinstance({var}, list) or len({var}) {op} {self._constant(value)}"
        if key == "uniqueItems":
            return f"not isinstance({var}, list) or _unique({var})" if value is True else "True"
        if key in ("minimum", "maximum"):
            op = ">=" if key == "minimum" else "<="
            return f"not _is_number({var}) or {var} {op} {self._constant(value)}"
        search = self._constant(re.compile(value).search)  # "pattern"
        return f"not isinstance({var}, str) or {search}({var}) is not None"

    def _statements(self, node: Any, base: str) -> list[str]:
        """The body of a node's function over the value ``v``: one guard per keyword."""
        if node is True or node is False:
            return [] if node is True else ["return False"]
        if not isinstance(node, dict):
            raise Unsupported(repr(node))
        out: list[str] = []
        check = self._check
        for key, value in node.items():
            if key in _ANNOTATIONS or key in ("then", "else"):  # then / else: with "if"
                continue
            if key in _SCALAR_KEYS:
                out.append(f"if not ({self._scalar(key, value, base, 'v')}): return False")
            elif key == "properties":
                inner = []
                for name, sub in value.items():
                    test = check(sub, base, "x")
                    if test != "True":
                        inner += [f"x = v.get({name!r}, _MISSING)", f"if x is not _MISSING and not ({test}):"]
                        inner.append("    return False")
                if inner:
                    out += ["if isinstance(v, dict):", *(f"    {line}" for line in inner)]
            elif key == "required":
                if value:
                    names = " and ".join(f"{name!r} in v" for name in value)
                    out.append(f"if isinstance(v, dict) and not ({names}): return False")
            elif key == "additionalProperties":
                if "patternProperties" in node:
                    raise Unsupported(key)
                test = check(value, base, "x")
                if test != "True":
                    known = self._constant(frozenset(node.get("properties", {})))
                    out += _each("dict", "for k, x in v.items()", f"k in {known} or ({test})")
            elif key == "propertyNames":
                test = check(value, base, "k")
                if test != "True":
                    out += _each("dict", "for k in v", test)
            elif key == "items" and not isinstance(value, list):
                test = check(value, base, "x")
                if test != "True":
                    out += _each("list", "for x in v", test)
            elif key in ("anyOf", "allOf", "oneOf"):
                tests = [check(sub, base, "v") for sub in value]
                if key == "anyOf":
                    out.append(f"if not ({' or '.join(f'({t})' for t in tests) or 'False'}): return False")
                elif key == "allOf":
                    out += [f"if not ({t}): return False" for t in tests]
                else:
                    count = " + ".join(f"(1 if ({t}) else 0)" for t in tests) or "0"
                    out.append(f"if {count} != 1: return False")
            elif key == "not":
                out.append(f"if {check(value, base, 'v')}: return False")
            elif key == "if":
                test = check(value, base, "v")
                then = check(node.get("then", True), base, "v")
                otherwise = check(node.get("else", True), base, "v")
                out.append(f"if not (({then}) if ({test}) else ({otherwise})): return False")
            else:
                raise Unsupported(key)
        return out


def _each(kind: str, loop: str, test: str) -> list[str]:
    """The lines of a check of every member: for a value of type ``kind``, each one the ``loop`` gives
    passes ``test``."""
    return [f"if isinstance(v, {kind}):", f"    {loop}:", f"        if not ({test}): return False"]
