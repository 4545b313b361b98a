"""Checks of a test vector beyond «this value equals that»: whether a path leads somewhere
(``exists``), the log (``log``), card references in a check, the last matching element, patterns
inside patterns, plain values in a list — on the reference engine and on engines that are wrong
exactly where only these checks look."""

from __future__ import annotations

import json
from typing import Any

import pytest

from berserk_rules.harness import contract
from berserk_rules.reference.driver import ReferenceDriver
from berserk_rules.report.vectors import PathError, check_failure, replay, resolve_path
from tests.wrong_drivers import NoArmour, NoDefenders, SilentPrevention

CARDS = {
    "Гном": {"type": "существо", "strike": 2, "life": 3},
    "Латник": {"type": "существо", "strike": 1, "life": 4, "text": "Броня 1."},
    "Ёж": {"type": "существо", "strike": 1, "life": 2},
}
POSITION = {
    "turn": 3,
    "start": "choice",
    "cards": CARDS,
    "players": {"А": {"play": ["Гном"]}, "Б": {"play": ["Латник", "Ёж"]}},
}
GNOME = {"$card": {"name": "Гном", "zone": "play", "owner": "А"}}
ARMOURED = {"$card": {"name": "Латник", "zone": "play", "owner": "Б"}}
HEDGEHOG = {"$card": {"name": "Ёж", "zone": "play", "owner": "Б"}}


def vector(*steps: dict[str, Any]) -> dict[str, Any]:
    return {
        "format": "berserk-vector/2",
        "id": "features/x.feature:5",
        "name": "проверки",
        "file": "features/x.feature",
        "line": 5,
        "rules": ["307.1"],
        "tags": [],
        "complete": True,
        "needs": {"parts": [3], "rules": ["307.1"], "terms": [], "decisions": [], "actions": []},
        "position": POSITION,
        "steps": list(steps),
        "unexpressed": [],
    }


def check(path: list[Any], viewer: str | None = None, **form: Any) -> dict[str, Any]:
    return {"op": "check", "viewer": viewer, "path": path, **form}


ATTACK = {"type": "attack", "attacker": GNOME}
ATTACK_ARMOURED = [*["decision", "options", ATTACK], "slots", 0, "candidates", {"$value": ARMOURED}]
BLOW = [{"event": "blow", "kind": "attack", "name": "Гном", "$copy": -1}, "strength"]
CHECKS = [
    check(["decision", "options", ATTACK], "А", exists=True),  # his own decision: he sees it
    check(["decision", "options"], "Б", exists=False),  # not his: no options to see
    check(["decision", "options", {"type": "pass"}], "А", exists=False),
    check(ATTACK_ARMOURED, "А", exists=True),
    check(["play", {"name": "Латник"}, "abilities", {"$value": "Броня 1."}], exists=True),
    check(["play", {"name": "Латник"}, "abilities", {"$value": "Броня 2."}], exists=False),
    check(["play", {"name": "Гном", "$copy": -1}, "controller"], expected="А"),
    check(["play", {"controller": "А", "$copy": 3}], exists=False),  # the hero and «Гном»
]


def test_the_new_checks_hold_on_the_reference_engine_and_are_valid_vectors() -> None:
    steps = [
        *CHECKS,
        {"op": "act", "player": "А", "action": {"type": "attack", "attacker": GNOME, "targets": [ARMOURED]}},
        {"op": "act", "player": "Б", "action": {"type": "no_defender"}},
        check(BLOW, "Б", expected=2, log=True),
        check([{"event": "blow", "name": "Латник", "kind": "attack"}], "Б", exists=False, log=True),
    ]
    data = vector(*steps)
    assert contract.violations("vector", data) == []
    driver = ReferenceDriver()
    assert replay(data, driver) == []
    assert driver.decision() is not None  # the vector was played to the end
    log = driver.log("Б")
    assert [e for e in log if e["event"] == "prevented"], "«Броня 1.» prevented a wound: the test sees it"


def test_each_new_check_fails_when_it_should() -> None:
    """Turned round (exists ↔ not exists, another value), every check fails, saying where."""
    driver = ReferenceDriver()
    driver.start(POSITION)
    for step in CHECKS:
        wrong = dict(step)
        if "exists" in step:
            wrong["exists"] = not step["exists"]
        else:
            wrong["expected"] = "Б"
        failure = check_failure(wrong, driver)
        assert failure and "глазами" in failure, (step, failure)


def test_a_check_of_a_card_that_is_not_there() -> None:
    driver = ReferenceDriver()
    driver.start(POSITION)
    ghost = {"type": "attack", "attacker": {"$card": {"name": "Дракон", "zone": "play", "owner": "А"}}}
    assert check_failure(check(["decision", "options", ghost], "А", exists=False), driver) is None
    with pytest.raises(AssertionError, match="нет в наблюдении судьи"):
        check_failure(check(["decision", "options", ghost], "А", exists=True), driver)


def test_path_patterns() -> None:
    items = [
        {"n": 1, "about": {"a": "x", "b": 1}},
        {"n": 2, "about": {"a": "y"}},
        {"n": 3, "about": {"a": "x"}},
    ]
    assert resolve_path(items, [{"about": {"a": "x"}}, "n"]) == 1
    assert resolve_path(items, [{"about": {"a": "x"}, "$copy": -1}, "n"]) == 3
    assert resolve_path(items, [{"$copy": 3}, "n"]) == 3
    assert resolve_path(["a", "b", "a"], [{"$value": "a", "$copy": 2}]) == "a"
    for path in ([{"about": {"a": "z"}}], [{"$copy": -4}], [{"$copy": 0}], [{"$value": "c"}]):
        with pytest.raises(PathError, match="нет такого элемента"):
            resolve_path(items if "$value" not in path[0] else ["a"], path)


def test_schema_of_the_new_checks() -> None:
    assert contract.violations("vector", vector(check(["turn"], expected=3))) == []  # the old form
    assert contract.violations("vector", vector(check(["turn"], exists=True, log=False))) == []
    assert contract.violations("vector", vector(check(["turn"], expected=3, exists=True)))
    assert contract.violations("vector", vector(check(["turn"])))
    assert contract.violations("vector", vector(check(["turn"], exists="да")))


@pytest.mark.parametrize(
    ("wrong", "steps"),
    [
        (
            NoDefenders,
            [check(["decision", "options", {"type": "defend", "defender": HEDGEHOG}], "Б", exists=True)],
        ),
        (NoArmour, [CHECKS[4]]),
        (
            SilentPrevention,
            [check([{"event": "prevented", "card": ARMOURED}, "amount"], expected=1, log=True)],
        ),
    ],
)
def test_wrong_engines_fail_only_the_new_checks(
    wrong: type[ReferenceDriver], steps: list[dict[str, Any]]
) -> None:
    attack = {"type": "attack", "attacker": GNOME, "targets": [ARMOURED]}
    before = [{"op": "act", "player": "А", "action": attack}]
    after = [{"op": "act", "player": "Б", "action": {"type": "no_defender"}}]
    old = check(["play", {"name": "Латник"}, "wounds"], expected=1)  # the old form sees nothing wrong
    if wrong is SilentPrevention:
        data = vector(*before, *after, old, *steps)
    else:
        data = vector(*before, *steps, *after, old)
    assert replay(data, ReferenceDriver()) == []
    failures = replay(data, wrong())
    assert failures and all("(check)" in f for f in failures), failures
    assert replay(vector(*before, *after, old), wrong()) == []


class TerseViews(ReferenceDriver):
    """Right, and terse: its card views leave «face_down» out for a face-up card, as the
    observation schema allows."""

    def observe(self, player: str | None) -> dict[str, Any]:
        view = super().observe(player)
        for card in view["play"]:
            if card.get("face_down") is False:
                del card["face_down"]
        return view


def test_face_up_is_checked_so_that_a_terse_engine_passes() -> None:
    """«лежит лицом вверх» is recorded as: the card is there, and no card of its name lies face down
    — not as «face_down is false», which an engine may leave out."""
    recorded = [
        check(["play", {"name": "Гном"}], exists=True),
        check(["play", {"name": "Гном", "face_down": True}], exists=False),
    ]
    data = vector(*recorded)
    assert contract.violations("vector", data) == []
    assert replay(data, ReferenceDriver()) == [] and replay(data, TerseViews()) == []
    terse = TerseViews()
    terse.start(POSITION)
    assert contract.violations("observation", terse.observe(None)) == []
    gnome = {"name": "Гном"}
    assert "face_down" in resolve_path(ReferenceDriver.observe(terse, None), ["play", gnome])  # written
    assert "face_down" not in resolve_path(terse.observe(None), ["play", gnome])  # left out
    assert replay(vector(check(["play", {"name": "Гном"}, "face_down"], expected=False)), TerseViews())


def test_the_compiled_verdict_on_vectors_is_jsonschemas() -> None:
    """``export`` and the replay runners check every vector with the compiled verdict
    (contract.fast_validator, ``minItems`` included): it says what jsonschema says, on a vector and on
    its broken copies."""
    import random

    from tests.test_contract import broken

    require = {"op": "require", "decisions": ["choose_action"], "actions": ["attack"]}
    steps = [require, *CHECKS, {"op": "act", "player": "А", "action": {"type": "attack", "attacker": GNOME}}]
    data = vector(*steps)
    fast, reference = contract.fast_validator("vector"), contract.validator("vector")
    assert isinstance(fast, contract._Compiled)  # compiled, not jsonschema's own
    assert fast.is_valid(data) and reference.is_valid(data)
    invalid = 0
    empty = {**data, "steps": [{"op": "require", "decisions": []}, *steps[1:]]}  # «minItems»
    for twin in [*broken(data, random.Random(11), 300), empty]:
        expected = reference.is_valid(twin)
        assert fast.is_valid(twin) == expected, twin
        invalid += not expected
    assert invalid > 100


def test_collect_refuses_a_vector_the_schema_does_not_allow(tmp_path: Any) -> None:
    """The index of an export (commands.export.collect) names each vector that breaks the schema, with
    jsonschema's words — the compiled verdict only decides which ones to explain."""
    from berserk_rules.commands.export import collect
    from berserk_rules.errors import UserError

    good = vector(*CHECKS)
    (tmp_path / "a.json").write_text(json.dumps(good, ensure_ascii=False), encoding="utf-8")
    assert [v["id"] for v in collect(tmp_path)["vectors"]] == [good["id"]]
    bad = vector({"op": "require", "actions": []}, *CHECKS)  # «minItems»: an empty list is not allowed
    (tmp_path / "b.json").write_text(json.dumps(bad, ensure_ascii=False), encoding="utf-8")
    with pytest.raises(UserError) as error:
        collect(tmp_path)
    message = str(error.value)
    assert "\nb.json: поле steps[0].actions: пустой список (схема vector: " in message, message
    assert "\na.json" not in message
