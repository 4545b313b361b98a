"""False claims must fail: for every «Тогда» step of the dictionary, a pair of scenarios on one
position — the true claim passes, the false one fails at that very step with an AssertionError (not
an error of the runner, the input or the engine). The pairs are in ``tests/step_pairs.py``; a
«Тогда» step with no pair must be on its exceptions list with the reason, or this module fails.

Scenarios run in process (``tests/step_runner.py``): the real steps on the reference engine behind
the contract checks, with a vector recorder, so the checks a step records for ``berserk-rules
export`` are replayed on the spot as well.
"""

from __future__ import annotations

import json
import sys

import pytest

from berserk_rules.commands.check import RULEBOOK_TESTS
from berserk_rules.errors import ScenarioInputError
from berserk_rules.harness import contract
from berserk_rules.reference.driver import ReferenceDriver
from berserk_rules.report.vectors import PathError, replay
from berserk_rules.steps.registry import STEPS
from tests.project_kit import feature, make_project
from tests.step_pairs import EXCEPTIONS, PAIRS, POSITIONS, Pair
from tests.step_runner import Outcome, Step, feature_scenarios, pickles, run, step_defs, steps_of

pytest_plugins = ["pytester"]

THEN_STEPS = sorted(s.function for s in STEPS if s.kind == "then")


def _parse(text: str) -> list[Step]:
    """The steps of a scenario body (Gherkin lines with keywords)."""
    feature = "# language: ru\nФункция: пары\n\n  Сценарий: пара\n" + text
    (pickle,) = pickles(feature)
    return steps_of(pickle)


def _claim(text: str) -> Step:
    lines = text.split("\n")
    body = "    Тогда " + lines[0] + "".join("\n    " + line for line in lines[1:]) + "\n"
    (step,) = _parse("    Дано идёт ход 1\n" + body)[1:]
    return step


def _position(key: str | None, at: str | None) -> list[Step]:
    if key is not None:
        return _parse(POSITIONS[key])
    assert at is not None
    for _ref, steps in feature_scenarios():
        for number, step in enumerate(steps):
            if step.kind == "then" and step.text == at:
                return steps[:number]
    raise AssertionError(f"ни в одном сценарии нет шага «Тогда {at}»")


def _replays(outcome: Outcome) -> None:
    """What the steps recorded for a test vector is a valid vector, and it holds on the reference
    engine replayed from the start — every check of the claim included (``expect`` records without
    replaying on the spot)."""
    assert outcome.recorder is not None
    if outcome.recorder.position is None:  # the game never started (deck lists): nothing to replay
        assert outcome.recorder.steps == []
        return
    meta = {"id": "пары.feature:1", "name": "пара", "file": "пары.feature", "line": 1}
    data = outcome.recorder.vector({**meta, "rules": [], "tags": [], "complete": True})
    assert contract.violations("vector", data) == []
    assert replay(data, ReferenceDriver()) == []


def _ids() -> list[str]:
    seen: dict[str, int] = {}
    ids = []
    for pair in PAIRS:
        seen[pair.step] = seen.get(pair.step, 0) + 1
        ids.append(f"{pair.step}-{seen[pair.step]}")
    return ids


def test_every_then_step_has_a_false_case_or_a_reason() -> None:
    assert len(THEN_STEPS) == len(set(THEN_STEPS)), "имена функций шагов «Тогда» должны различаться"
    with_false = {
        p.step for p in PAIRS if p.true is not None and (p.false is not None or p.wrong is not None)
    }
    with_false |= {p.step for p in PAIRS if p.true is not None and p.false_position is not None}
    unknown = {p.step for p in PAIRS} - set(THEN_STEPS)
    assert not unknown, f"пары для шагов, которых нет: {sorted(unknown)}"
    missing = [s for s in THEN_STEPS if s not in with_false and s not in EXCEPTIONS]
    assert not missing, f"шаги «Тогда» без пары «верно / неверно» и без причины в исключениях: {missing}"
    stale = sorted(set(EXCEPTIONS) & with_false)
    assert not stale, f"у шагов есть пара, а они всё ещё в исключениях: {stale}"
    assert set(EXCEPTIONS) <= set(THEN_STEPS)
    assert all(reason.strip() for reason in EXCEPTIONS.values())


@pytest.mark.parametrize("pair", PAIRS, ids=_ids())
def test_pair(pair: Pair) -> None:
    at = pair.at or pair.true
    position = _position(pair.position, at)
    if pair.true is not None:
        claim = _claim(pair.true)
        assert [s.function for s, _ in step_defs("then", claim.text)] == [pair.step], claim.text
        outcome = run([*position, claim])
        assert outcome.passed, f"верное утверждение не прошло: шаг {outcome.failed_at}: {outcome.error!r}"
        _replays(outcome)
    false_text = pair.false if pair.false is not None else pair.true
    if false_text is None or (pair.false is None and pair.wrong is None and pair.false_position is None):
        return
    claim = _claim(false_text)
    assert [s.function for s, _ in step_defs("then", claim.text)] == [pair.step], claim.text
    if pair.false_position is not None:
        position = _position(pair.false_position, None)
    driver = pair.wrong() if pair.wrong is not None else None
    outcome = run([*position, claim], driver)
    assert outcome.failed_at == len(position), (
        f"неверное утверждение прошло или упало не на нём: шаг {outcome.failed_at} из {len(position)}: "
        f"{outcome.error!r}"
    )
    error = outcome.error
    assert isinstance(error, AssertionError) and not isinstance(error, ScenarioInputError), repr(error)
    assert str(error).strip(), "падение без объяснения"
    if isinstance(error, PathError):  # a recorded path that leads nowhere says where it ends
        assert "нет" in str(error)


def test_the_negative_steps_are_the_ones_with_nothing_to_ask_about() -> None:
    """Each negative step has a pair where what it negates is not there at all: a card that is not
    in the game, a decision that is not the player's — and it fails there."""
    negatives = {s.function for s in STEPS if s.kind == "then" and " не может " in s.pattern}
    vacuous = {p.step for p in PAIRS if p.true is None}
    # «не может предложить ничью» asks about the actions a player has at any moment: always there
    assert negatives - {"may_not_offer"} <= vacuous, sorted(negatives - {"may_not_offer"} - vacuous)


def _claim_lines(text: str) -> str:
    first, *rest = text.split("\n")
    return "    Тогда " + first + "\n" + "".join("    " + line + "\n" for line in rest)


# the steps issue 15 found wrong with copies: negatives that passed for any copy, positives that failed
ISSUE_15 = {"may_not_attack", "may_not_defend_with", "card_open", "card_closed", "card_wounds", "in_play"}
ISSUE_15 |= {"sees_in_play", "may_attack", "may_defend_with"}


def test_pytest_bdd_runs_the_pairs_of_copies_and_of_nothing_to_ask_about_alike(
    pytester: pytest.Pytester, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The in-process runner is no stand-in that could differ: the pairs of copies of issue 15, and
    the negative steps with nothing to ask about, run as ``berserk-rules check`` runs them (pytest-bdd
    on the project's ``tests/test_rulebook.py``, the engine in its own process; pytest itself in this
    process — the command's own checks are tested in tests/test_commands.py) — each true claim
    passes, each false one fails (not an error)."""
    chosen = [
        p
        for p in PAIRS
        if p.position is not None and p.wrong is None and p.false_position is None
        if p.true is None or (p.step in ISSUE_15 and "копия" in p.true + (p.false or ""))
    ]
    blocks, expected = [], {}
    for number, pair in enumerate(chosen, start=1):
        for verdict, claim in (("верно", pair.true), ("неверно", pair.false)):
            if claim is None:
                continue
            name = f"пара {number} ({pair.step}): {verdict}"
            blocks.append(f"  Сценарий: {name}\n{POSITIONS[pair.position]}{_claim_lines(claim)}")
            expected[name] = "passed" if verdict == "верно" else "failed"
    root = make_project(pytester.path, {"pairs.feature": feature(*blocks)})
    # this process may have imported the real tests/test_rulebook.py under the same module name
    monkeypatch.delitem(sys.modules, "test_rulebook", raising=False)
    done = pytester.runpytest_inprocess(RULEBOOK_TESTS, "-p", "no:cacheprovider", "-q", "-n", "0")
    results = json.loads((root / "build" / "results.json").read_text(encoding="utf-8"))
    got = {s["name"]: s["status"] for s in results["scenarios"]}
    assert got == expected, done.stdout.str()[-3000:]
    assert results["engine"]["driver"] == "berserk_rules.drivers.reference:ReferenceDriver"  # in its process
    assert len(expected) >= 30


@pytest.mark.parametrize(
    "step",
    [
        "    Когда игрок А атакует существом «Гном» персонажа «Герой Б»\n",
        "    Тогда игрок А не может атаковать существом «Гном»\n",
        "    Тогда у «Гном» ран: 0\n",
    ],
)
def test_a_plain_name_of_several_cards_asks_for_the_copy(step: str) -> None:
    """Four «Гном» in the game zone: a step that says just «Гном» picks none of them, it says to
    name the copy — whatever else it could find (a card in the hand of that name)."""
    outcome = run(_parse(POSITIONS["копии"] + step))
    assert outcome.failed_at == len(_parse(POSITIONS["копии"]))
    assert "назовите копию — «Гном, копия 1»" in str(outcome.error)


def test_a_negative_step_records_what_it_asked_about() -> None:
    """The vector of «не может атаковать» says «not» about something that is there: the decision is
    that player's choice of action, the card is in the game zone — so on a replaying engine the
    «not» cannot pass by finding nothing either."""
    claim = _claim("игрок А не может атаковать существом «Гном, копия 1»")
    outcome = run([*_parse(POSITIONS["копии"]), claim])
    assert outcome.passed and outcome.recorder is not None
    checks = [s for s in outcome.recorder.steps if s["op"] == "check"]
    gnome = {"$card": {"name": "Гном", "zone": "play", "owner": "А", "index": 0}}  # the first of two
    assert {"op": "check", "viewer": None, "path": ["decision", "player"], "expected": "А"} in checks
    assert {
        "op": "check",
        "viewer": None,
        "path": ["decision", "kind"],
        "expected": "choose_action",
    } in checks
    assert {"op": "check", "viewer": None, "path": ["play", {"name": "Гном"}], "exists": True} in checks
    option = ["decision", "options", {"type": "attack", "attacker": gnome}]
    assert {"op": "check", "viewer": "А", "path": option, "exists": False} in checks
