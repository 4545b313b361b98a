"""The compiled schema verdict (contract.fast_validator) says what jsonschema says: on every message
of seeded random games of the reference engine, on those messages broken in many ways, and on every
form of check the generated code writes out; and the session's checker checks a distinct message once."""

from __future__ import annotations

import copy
import random
from typing import Any

import pytest
from berserk_engine.selfplay import random_action, standard_position

from berserk_rules.harness import contract, verdict
from berserk_rules.reference.driver import ReferenceDriver

REFS = ("position", "observation", "protocol#/$defs/decision_result", "log", "action")


def messages(games: int = 2, seed: int = 7) -> list[tuple[str, Any]]:
    """(schema, value) of what random games send and answer: positions, every decision, action,
    both players' and the judge's observations and logs (every few decisions)."""
    found: list[tuple[str, Any]] = []
    for n in range(games):
        position = standard_position(seed + n)
        found.append(("position", position))
        driver = ReferenceDriver()
        driver.start(position)
        rng = random.Random(seed + n)
        for step in range(400):
            decision = driver.decision()
            found.append(("protocol#/$defs/decision_result", decision))
            if decision is None:
                break
            if step % 11 == 0:
                for viewer in ("А", "Б", None):
                    found.append(("observation", driver.observe(viewer)))
                    found.append(("log", driver.log(viewer)))
            action = random_action(decision["options"], rng)
            found.append(("action", action))
            driver.act(decision["player"], action)
    return found


def leaves(value: Any, path: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    """The path of every node of ``value``."""
    out = [path]
    if isinstance(value, dict):
        for key, item in value.items():
            out += leaves(item, (*path, key))
    elif isinstance(value, list):
        for index, item in enumerate(value):
            out += leaves(item, (*path, index))
    return out


REPLACEMENTS = (None, True, 0, 1.5, -3, "", "x", [], {}, [1], {"x": 1}, 1.0, "А")


def broken(value: Any, rng: random.Random, count: int) -> list[Any]:
    """``count`` copies of ``value`` with one node replaced, removed or given an extra field."""
    paths = leaves(value)
    out = []
    for _ in range(count):
        twin = copy.deepcopy(value)
        path = rng.choice(paths)
        if not path:
            out.append(rng.choice(REPLACEMENTS))
            continue
        parent = twin
        for part in path[:-1]:
            parent = parent[part]
        how = rng.randrange(3)
        if how == 0:
            parent[path[-1]] = rng.choice(REPLACEMENTS)
        elif how == 1 and isinstance(parent, dict):
            del parent[path[-1]]
        elif isinstance(parent[path[-1]], dict):
            parent[path[-1]]["лишнее"] = 1
        else:
            parent[path[-1]] = rng.choice(REPLACEMENTS)
        out.append(twin)
    return out


@pytest.fixture(scope="module")
def sample() -> list[tuple[str, Any]]:
    return messages()


def test_the_verdicts_agree_on_real_messages(sample: list[tuple[str, Any]]) -> None:
    assert {ref for ref, _ in sample} == set(REFS)
    for ref, value in sample:
        assert contract.fast_validator(ref).is_valid(value), (ref, contract.violations(ref, value))
    for ref, value in random.Random(5).sample(sample, 60):
        assert contract.validator(ref).is_valid(value)


def test_the_verdicts_agree_on_broken_messages(sample: list[tuple[str, Any]]) -> None:
    rng = random.Random(3)
    invalid = 0
    for ref, value in rng.sample(sample, 60):
        for twin in broken(value, rng, 8):
            expected = contract.validator(ref).is_valid(twin)
            assert contract.fast_validator(ref).is_valid(twin) == expected, (ref, twin)
            invalid += not expected
    assert invalid > 120  # the breakage does break


def test_json_equality_is_the_schemas() -> None:
    assert verdict.json_equal(1, 1.0) and verdict.json_equal([1, {"a": 2}], [1.0, {"a": 2}])
    assert not verdict.json_equal(True, 1) and not verdict.json_equal(0, False)
    assert not verdict.json_equal([1], [1, 2]) and not verdict.json_equal({"a": 1}, {"b": 1})
    assert not verdict.json_equal("1", 1) and not verdict.json_equal([], {})


def test_a_schema_with_an_unknown_keyword_is_checked_by_jsonschema(monkeypatch: pytest.MonkeyPatch) -> None:
    original = contract.schema
    odd = {"$id": "x", "type": "number", "multipleOf": 2}
    monkeypatch.setattr(contract, "schema", lambda name: odd if name == "odd" else original(name))
    with pytest.raises(contract.Unsupported):
        contract._Compiler().ref("#", contract.SCHEMA_BASE + "odd")


def test_a_distinct_message_is_checked_once(monkeypatch: pytest.MonkeyPatch) -> None:
    calls: list[Any] = []
    real = contract.fast_validator("action")

    class Counting:
        def is_valid(self, value: Any) -> bool:
            calls.append(value)
            return real.is_valid(value)

    monkeypatch.setattr(contract, "fast_validator", lambda ref: Counting())
    action = {"type": "pass", "note": len(calls)}  # a value no other test checked
    for checker in (contract.Checker(), contract.Checker()):
        checker.check("action", dict(action), "act")
    contract.check("action", dict(action), "act")
    assert len(calls) == 1
    with pytest.raises(contract.ContractError):
        contract.check("action", {"type": 5}, "act")
    with pytest.raises(contract.ContractError):  # a failure is never remembered as valid
        contract.check("action", {"type": 5}, "act")


def test_a_broken_reply_names_the_schema_an_engine_author_reads_and_says_each_problem_once() -> None:
    """A reply of the protocol is checked against ``protocol#/$defs/observe_result``, which only
    refers to the observation schema: the message names ``observation`` (the file an engine author
    opens), and the same error reached through several branches of the schema is said once."""
    found = contract.violations("protocol#/$defs/observe_result", {"viewer": 5})
    assert found and all("(схема observation: " in line for line in found), found
    assert len(found) == len(set(found)) == 2, found
    assert contract.violations("action", {"type": 5})[0].endswith("(схема action: properties/type/enum)")


# Every form the generated check writes out, against jsonschema on values on both sides of each keyword.
_FORMS: dict[str, Any] = {
    "$id": "urn:berserk-rules:schema:1:forms",
    "type": "object",
    "required": ["flag"],
    "properties": {
        "flag": {"const": True},
        "nothing": {"const": None},
        "word": {"const": "да"},
        "number": {"const": 2},
        "who": {"enum": ["А", "Б", None]},
        "mixed": {"enum": [1, "один", False]},
        "name": {"type": "string", "minLength": 2, "maxLength": 4, "pattern": "^[а-я]+$"},
        "count": {"type": "integer", "minimum": 0, "maximum": 9},
        "few": {"type": "array", "minItems": 1, "maxItems": 3, "uniqueItems": True},
        "loose": {"uniqueItems": False, "minItems": 0},
        "ratio": {"type": ["number", "null"]},
        "one": {"oneOf": [{"type": "integer"}, {"minimum": 5}]},
        "never": {"not": {"type": "string"}},
        "tree": {"$ref": "#/$defs/tree"},
        "keys": {"type": "object", "propertyNames": {"pattern": "^[a-z]+$"}, "additionalProperties": False},
        "open": {"type": "object", "additionalProperties": {"$ref": "#/$defs/small"}},
        "shape": {
            "if": {"required": ["kind"], "properties": {"kind": {"const": "circle"}}},
            "then": {"required": ["radius"]},
            "else": {"required": ["side"]},
        },
        "any": True,
        "none": False,
    },
    "$defs": {
        "small": {"type": "integer", "maximum": 3},
        "tree": {
            "type": "object",
            "properties": {"children": {"type": "array", "items": {"$ref": "#/$defs/tree"}}},
            "additionalProperties": {"anyOf": [{"type": "string"}, {"type": "boolean"}]},
        },
    },
}
_VALUES: dict[str, list[Any]] = {
    "flag": [True, 1, False, "true"],
    "nothing": [None, 0, False],
    "word": ["да", "нет", 1],
    "number": [2, 2.0, True, "2"],
    "who": ["А", "Б", None, "В", 0],
    "mixed": [1, 1.0, True, "один", False, 0, None],
    "name": ["аб", "а", "абвгд", "ab", 12, "абвг"],
    "count": [0, 9, 10, -1, 3.0, 3.5, True, "3"],
    "few": [[1], [], [1, 2, 3], [1, 2, 3, 4], [1, 1], [1, 1.0], [1, True], [[1], [1]], [{"a": 1}, {"a": 2}]],
    "loose": [[], [1, 1], "x"],
    "ratio": [0.5, 1, None, "1", True],
    "one": [1, 6, 6.5, 4.5, "x"],
    "never": [1, "x", None],
    "tree": [{}, {"children": [{"children": []}, {"x": "y"}]}, {"children": [{"x": 1}]}, {"children": {}}],
    "keys": [{}, {"ab": 1}, {"Ab": 1}, []],
    "open": [{}, {"a": 3}, {"a": 4}, {"a": True}, {"a": 1, "b": "x"}],
    "shape": [{"kind": "circle", "radius": 1}, {"kind": "circle"}, {"side": 1}, {"kind": "square"}, 5],
    "any": [1, None, {"x": [1]}],
    "none": [1, None],
}


def test_every_form_of_the_generated_check_says_what_jsonschema_says(monkeypatch: pytest.MonkeyPatch) -> None:
    from jsonschema import Draft202012Validator

    original = contract.schema
    monkeypatch.setattr(contract, "schema", lambda name: _FORMS if name == "forms" else original(name))
    fast = contract._Compiler().ref("#", contract.SCHEMA_BASE + "forms")
    reference = Draft202012Validator(_FORMS)
    checked = 0
    for field, values in _VALUES.items():
        for value in values:
            message = {"flag": True, field: value}
            assert fast(message) == reference.is_valid(message), (field, value)
            checked += not reference.is_valid(message)
    for top in ({}, [], {"flag": False}, None):  # the object itself: its type, its required field
        assert fast(top) == reference.is_valid(top) is False
    assert set(_VALUES) == set(_FORMS["properties"])  # every form is tried
    assert checked > 30  # and broken
