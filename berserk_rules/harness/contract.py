"""The driver contract as data: the JSON Schemas of ``berserk_rules/harness/schemas/`` and their checks.

The schemas (JSON Schema draft 2020-12) are the single source of truth for what crosses the
driver boundary — the position, decisions and their options, actions, observations, log entries
and the process protocol's messages. Everything a driver is given or returns is checked here,
in process and over the wire alike:

* :func:`check_json` — the value is JSON at all: dicts with string keys, lists, strings, finite
  numbers, booleans, null, nested at most :data:`MAX_DEPTH` levels (NaN, ``1: …`` keys, tuples,
  sets and absurd nesting are named with their field);
* :func:`violations` — the value against a schema, each violation in Russian with the field path
  (``players.А.coins.open``) and the schema path (``observation#/properties/players/…``).

:class:`ContractError` carries the method (``observe("А")``), the field and the message, so a
scenario's error says exactly what the driver got wrong.
"""

from __future__ import annotations

import functools
import json
import math
import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

SCHEMA_DIR = Path(__file__).resolve().parent / "schemas"
SCHEMA_BASE = "urn:berserk-rules:schema:1:"
# name -> file; the name is the last part of the schema's $id
SCHEMAS = ("common", "position", "decision", "action", "observation", "log", "protocol", "vector")
MAX_DEPTH = 64


class ContractError(Exception):
    """A value that breaks the driver contract: which method, which field, what is wrong."""

    def __init__(self, method: str, problems: Iterable[str]) -> None:
        self.method = method
        self.problems = list(problems)
        first = self.problems[0] if self.problems else "нарушен контракт драйвера"
        more = f" (и ещё {len(self.problems) - 1})" if len(self.problems) > 1 else ""
        super().__init__(f"{method}: {first}{more}")


# --- JSON itself ---------------------------------------------------------------------------------


def field_path(parts: Iterable[Any]) -> str:
    """``["players", "А", "zones", 0]`` -> ``players.А.zones[0]``; the root is «(весь ответ)»."""
    text = ""
    for part in parts:
        text += f"[{part}]" if isinstance(part, int) else (f".{part}" if text else str(part))
    return text or "(всё значение)"


def json_problems(value: Any, path: tuple[Any, ...] = (), depth: int = 0) -> list[str]:
    """Why ``value`` is not plain JSON (empty when it is): the first problem of each branch."""
    if depth > MAX_DEPTH:
        return [f"поле {field_path(path)}: вложенность глубже {MAX_DEPTH} уровней"]
    if value is None or isinstance(value, bool | str):
        return []
    if isinstance(value, int):
        return []
    if isinstance(value, float):
        if math.isfinite(value):
            return []
        return [f"поле {field_path(path)}: {value!r} — не число JSON (NaN и бесконечность запрещены)"]
    if isinstance(value, list):
        problems: list[str] = []
        for index, item in enumerate(value):
            problems += json_problems(item, (*path, index), depth + 1)
        return problems
    if isinstance(value, dict):
        problems = []
        for key, item in value.items():
            if not isinstance(key, str):
                where = field_path(path)
                problems.append(f"поле {where}: ключ {key!r} — не строка (в JSON ключи только строки)")
                continue
            problems += json_problems(item, (*path, key), depth + 1)
        return problems
    return [f"поле {field_path(path)}: значение типа {type(value).__name__} — не JSON ({value!r:.60})"]


def is_plain(value: Any, depth: int = 0) -> bool:
    """True when ``value`` is plain JSON made of exactly dict, list, str, int, finite float, bool and
    None (the quick test; :func:`json_problems` says what is wrong, and accepts their subclasses)."""
    kind = type(value)
    if kind is str or kind is int or kind is bool or value is None:
        return True
    if kind is float:
        return math.isfinite(value)
    if depth >= MAX_DEPTH:
        return False
    if kind is list:
        for item in value:
            if not is_plain(item, depth + 1):
                return False
        return True
    if kind is dict:
        for key, item in value.items():
            if type(key) is not str or not is_plain(item, depth + 1):
                return False
        return True
    return False


def check_json(value: Any, method: str) -> None:
    """Raise :class:`ContractError` when ``value`` is not plain JSON."""
    if is_plain(value):
        return
    problems = json_problems(value)
    if problems:
        raise ContractError(method, problems)


def _reject_constant(name: str) -> Any:
    raise ValueError(f"{name} — не число JSON")


def loads(text: str) -> Any:
    """Strict JSON: NaN and Infinity are errors (Python's json accepts them by default)."""
    return json.loads(text, parse_constant=_reject_constant)


# --- schemas -------------------------------------------------------------------------------------


@functools.cache
def schema(name: str) -> dict[str, Any]:
    """The schema ``berserk_rules/harness/schemas/<name>.schema.json`` as a dict."""
    return json.loads((SCHEMA_DIR / f"{name}.schema.json").read_text(encoding="utf-8"))


@functools.cache
def _registry() -> Any:
    from referencing import Registry, Resource

    resources = [(SCHEMA_BASE + name, Resource.from_contents(schema(name))) for name in SCHEMAS]
    return Registry().with_resources(resources)


@functools.cache
def validator(ref: str) -> Any:
    """A compiled validator for ``ref``: a schema name (``observation``) or a name with a
    fragment (``protocol#/$defs/request``)."""
    from jsonschema import Draft202012Validator

    name, _, fragment = ref.partition("#")
    target: dict[str, Any] = {"$ref": SCHEMA_BASE + name + (f"#{fragment}" if fragment else "")}
    return Draft202012Validator(target, registry=_registry())


def _describe(error: Any) -> str:
    """One jsonschema error in Russian."""
    keyword = error.validator
    value = error.validator_value
    instance = error.instance
    shown = json.dumps(instance, ensure_ascii=False, default=repr)
    shown = shown if len(shown) <= 80 else shown[:77] + "…"
    type_names = {
        "object": "объект",
        "array": "список",
        "string": "строка",
        "integer": "целое число",
        "number": "число",
        "boolean": "true или false",
        "null": "null",
    }
    if keyword == "type":
        wanted = value if isinstance(value, list) else [value]
        return f"ожидается {' или '.join(str(type_names.get(v, v)) for v in wanted)}, получено {shown}"
    if keyword == "required":
        missing = [name for name in value if isinstance(instance, dict) and name not in instance]
        return "нет обязательного поля " + ", ".join(f"«{name}»" for name in missing)
    if keyword in ("enum", "const"):
        allowed = value if keyword == "enum" else [value]
        return f"недопустимое значение {shown}; допустимы: " + ", ".join(
            json.dumps(v, ensure_ascii=False) for v in allowed
        )
    if keyword == "minimum":
        return f"значение {shown} меньше {value}"
    if keyword == "maximum":
        return f"значение {shown} больше {value}"
    if keyword == "minLength":
        return "пустая строка"
    if keyword == "pattern":
        return f"значение {shown} не в формате {value}"
    if keyword in ("oneOf", "anyOf"):
        return f"значение {shown} не подходит ни под один из допустимых видов"
    if keyword == "not":
        return f"значение {shown} здесь недопустимо"
    return error.message


def _walk(errors: Iterable[Any]) -> list[Any]:
    """The most specific errors: for «fits none of the forms» (oneOf/anyOf), the errors of the
    forms whose type did fit (a decision missing «options» rather than «is not null»)."""
    out = []
    for error in errors:
        if error.validator not in ("oneOf", "anyOf") or not error.context:
            out.append(error)
            continue
        fitting = [e for e in error.context if not (e.validator == "type" and not e.relative_path)]
        out.extend(_walk(fitting) if fitting else [error])
    return out


def _named(ref: str) -> str:
    """``ref``, or the schema it only refers to: a reply of the protocol (``protocol#/$defs/
    observe_result``) is named by the schema an engine author reads (``observation``)."""
    name, _, fragment = ref.partition("#")
    target: Any = schema(name)
    for part in (p for p in fragment.split("/") if p):
        target = target[part]
    inner = target.get("$ref") if isinstance(target, dict) and len(target) == 1 else None
    if isinstance(inner, str) and inner.startswith(SCHEMA_BASE) and "#" not in inner:
        return inner.removeprefix(SCHEMA_BASE)
    return ref


def violations(ref: str, value: Any, limit: int = 5) -> list[str]:
    """Violations of schema ``ref`` by ``value``: «поле X: what is wrong (схема …)»."""
    ref = _named(ref)
    found = sorted(
        validator(ref).iter_errors(value),
        # the most specific first: a wrong field before «fits none of the forms» about its object
        key=lambda e: (e.validator in ("anyOf", "oneOf"), -len(e.absolute_path), [str(p) for p in e.path]),
    )
    messages: list[str] = []
    for error in _walk(found) if found else []:
        where = field_path(error.absolute_path)
        schema_at = "/".join(str(p) for p in error.absolute_schema_path)
        message = f"поле {where}: {_describe(error)} (схема {ref.partition('#')[0]}: {schema_at})"
        if message not in messages:  # the same error reached by several branches is said once
            messages.append(message)
        if len(messages) == limit:
            break
    return messages


# --- the verdict, compiled -----------------------------------------------------------------------
#
# jsonschema walks a schema anew for every value, building a validator object per node: most of a
# scenario run's time went there. The verdict (valid or not) is computed instead by Python functions
# generated once per schema from the keywords our schemas use — one function per object or array node
# and per ``$ref``, with the checks of scalar nodes (a type, an enum, a bound) written into them as
# expressions — and compiled with ``compile``; a schema with any other keyword is checked by
# jsonschema itself. A failure is always explained by jsonschema (:func:`violations`), and
# tests/test_contract.py holds the two verdicts equal on real messages and on broken ones.

Check = Callable[[Any], bool]
_ANNOTATIONS = frozenset(
    ("$id", "$schema", "$defs", "$comment", "title", "description", "examples", "default", "deprecated")
)
# keywords whose check is an expression of the value alone (no loop over its members)
_SCALAR_KEYS = frozenset(
    ("type", "enum", "const", "minLength", "maxLength", "minimum", "maximum", "pattern", "$ref")
)


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


_MISSING = object()  # a property the object does not have (``v.get(name, _MISSING)``)


class _Compiler:
    """Generates the checking functions of schema nodes (Python source, compiled on :meth:`ref` or
    :meth:`node`): ``def c3(v): ... return True`` — False at the first keyword the value breaks."""

    def __init__(self) -> None:
        self.done: dict[tuple[str, str], str] = {}  # (schema, fragment) of a $ref -> its function
        self.lines: list[str] = []  # the source of the functions generated, not yet compiled
        self.space: dict[str, Any] = {
            "_is_integer": _is_integer,
            "_is_number": _is_number,
            "json_equal": json_equal,
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

    def _target(self, ref: str, base: str) -> tuple[Any, str]:
        """The node a ``$ref`` names and the schema it is in."""
        name, _, fragment = (base + ref if ref.startswith("#") else ref).partition("#")
        target: Any = schema(name.removeprefix(SCHEMA_BASE))
        for part in (p for p in fragment.split("/") if p):
            target = target[part]
        return target, name

    def _ref(self, ref: str, base: str) -> str:
        name, _, fragment = (base + ref if ref.startswith("#") else ref).partition("#")
        key = (name, fragment)
        found = self.done.get(key)
        if found is None:
            found = self.done[key] = self._name("r")  # named before it is made: a ref may recur
            self._define(found, *self._target(ref, base))
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
            target, at = self._target(value, base)
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
                    out += [
                        "if isinstance(v, dict):",
                        "    for k, x in v.items():",
                        f"        if k not in {known} and not ({test}): return False",
                    ]
            elif key == "propertyNames":
                test = check(value, base, "k")
                if test != "True":
                    out += [
                        "if isinstance(v, dict):",
                        "    for k in v:",
                        f"        if not ({test}): return False",
                    ]
            elif key == "items" and not isinstance(value, list):
                test = check(value, base, "x")
                if test != "True":
                    out += [
                        "if isinstance(v, list):",
                        "    for x in v:",
                        f"        if not ({test}): return False",
                    ]
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


@functools.cache
def fast_validator(ref: str) -> Any:
    """The verdict of :func:`validator` for ``ref`` (``.is_valid(value)``), compiled; jsonschema's
    own validator when the schema uses a keyword the compiled check does not know."""
    name, _, fragment = ref.partition("#")
    try:
        check = _Compiler().ref(f"#{fragment}", SCHEMA_BASE + name)
    except (Unsupported, KeyError):
        return validator(ref)
    return _Compiled(check)


@dataclass(frozen=True)
class _Compiled:
    is_valid: Check


# (schema, hash of the JSON text) of every value found valid in this process: validity depends on
# nothing else, so one check per distinct message is enough for the whole session, whichever
# driver or scenario sends it again.
_VALID: set[tuple[str, int]] = set()
REMEMBER = 1 << 17  # at most this many (forgotten all at once beyond)


class Checker:
    """Checks values against the schemas, remembering for the session the JSON texts already found
    valid (an engine answers the same observation many times between two actions, and scenarios
    start from the same positions and send the same actions)."""

    def __init__(self, remember: int = REMEMBER) -> None:
        self.valid = _VALID
        self.remember = remember

    def check(
        self, ref: str, value: Any, method: str, text: str | None = None, *, plain: bool = False
    ) -> None:
        """Raise :class:`ContractError` when ``value`` is not plain JSON or breaks schema ``ref``.

        ``text``: the JSON text ``value`` was parsed from (it is JSON then; only the schema is
        checked, unless ``plain``); without it the value is first checked to be plain JSON.
        ``plain``: with ``text``, a value not found valid before is checked to be plain JSON too
        (a number too large for a float parses as infinity) — the text keys the memory, so the
        value is not serialised again.
        """
        if text is None:
            check_json(value, method)
            text = json.dumps(value, ensure_ascii=False, sort_keys=True)
        key = (ref, hash(text))
        if key in self.valid:
            return
        if plain:
            check_json(value, method)
        if not fast_validator(ref).is_valid(value):
            raise ContractError(method, violations(ref, value) or ["значение не проходит схему"])
        if len(self.valid) >= self.remember:
            self.valid.clear()
        self.valid.add(key)


_CHECKER = Checker()


def check(ref: str, value: Any, method: str) -> None:
    """Raise :class:`ContractError` when ``value`` is not plain JSON or breaks schema ``ref``
    (each distinct value is checked against the schema once per session)."""
    _CHECKER.check(ref, value, method)


# --- positions -----------------------------------------------------------------------------------

MAX_COINS = 10  # 304.1: a player gets a coin marker only while he has fewer than 10
CREATURE_TYPES = ("существо", "creature")


def position_problems(position: Any) -> list[str]:
    """Why a position cannot be a game at all (empty when it can): the schema, then what the
    schema cannot say — more than 10 coin markers, a card in a zone that is not described, a
    creature in play without life, wounds that would already have killed a card."""
    try:
        check_json(position, "позиция")
    except ContractError as exc:
        return exc.problems
    problems = [] if fast_validator("position").is_valid(position) else violations("position", position)
    if problems:
        return problems
    cards = position.get("cards", {})
    for player, desc in position.get("players", {}).items():
        coins = desc.get("coins", {})
        total = coins.get("open", 0) + coins.get("closed", 0)
        if total > MAX_COINS:
            problems.append(
                f"поле players.{player}.coins: маркеров монет {total} — больше {MAX_COINS} не бывает (304.1)"
            )
        hero = desc.get("hero", {})
        if hero.get("wounds", 0) >= hero.get("life", 20):
            problems.append(
                f"поле players.{player}.hero: ран ({hero.get('wounds', 0)}) не меньше жизней "
                f"({hero.get('life', 20)}) — игра уже окончена (602.1)"
            )
        for zone in ("hand", "deck", "graveyard", "reserve", "sideboard", "play"):
            for index, entry in enumerate(desc.get(zone, [])):
                name = entry if isinstance(entry, str) else entry["card"]
                where = f"поле players.{player}.{zone}[{index}]"
                if name not in cards:
                    problems.append(f"{where}: карта «{name}» не описана в cards")
                    continue
                card = cards[name]
                if zone != "play" or str(card.get("type", "")).strip().lower() not in CREATURE_TYPES:
                    continue
                life = card.get("life", 0)
                wounds = 0 if isinstance(entry, str) else entry.get("wounds", 0)
                if life < 1:
                    problems.append(f"{where}: существо «{name}» без жизней не может быть в игровой зоне")
                elif wounds >= life:
                    problems.append(
                        f"{where}: у «{name}» ран ({wounds}) не меньше жизней ({life}) — существо уже погибло"
                    )
    return problems


# --- declared fields only --------------------------------------------------------------------------
#
