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
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from berserk_rules.harness.verdict import Check, Compiler, Unsupported

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
    if keyword == "minItems":
        return "пустой список" if value == 1 else f"в списке меньше {value} элементов: {shown}"
    if keyword == "maxItems":
        return f"в списке больше {value} элементов: {shown}"
    if keyword == "uniqueItems":
        return f"в списке есть повторы: {shown}"
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


# --- the verdict, compiled (berserk_rules.harness.verdict) ---------------------------------------


class _Compiler(Compiler):
    """The generator of checks over our schemas (:func:`schema` looked up at each use)."""

    def __init__(self) -> None:
        super().__init__(lambda name: schema(name), SCHEMA_BASE)


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
