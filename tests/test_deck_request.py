"""The deck list scenarios ask the engine (issue 27, item 2): through the protocol's optional ``deck``
request, declared in ``capabilities.requests``. No scenario passes that the engine did not earn."""

from __future__ import annotations

import json
import re
import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

from berserk_rules.harness import contract
from berserk_rules.harness.driver import Unsupported
from berserk_rules.report.matrix import Run, build
from berserk_rules.runner.capabilities import NOT_APPLICABLE, Capabilities, CapabilityGuard
from tests.test_messages import Tiny

ROOT = Path(__file__).resolve().parent.parent
DECKS = "features/part-7/karty-i-kolody.feature"
TURN = "features/part-3/304-faza-nakopleniya.feature"
FAILING_ENGINE = f"{sys.executable} {ROOT / 'tests' / 'engines' / 'failing_engine.py'}"
SERVE = str(Path(sys.executable).parent / "berserk-engine") + " serve"
DECK = {
    "format": "констрактед",
    "cards": [
        {"count": 4, "name": "Гном", "type": "существо", "cost": 2, "strike": 1, "life": 2},
        {"count": 2, "name": "Гном", "type": "существо", "cost": 3, "strike": 2, "life": 3},
    ],
}


def check(*args: str, tmp: Path) -> tuple[subprocess.CompletedProcess[str], dict]:
    results = tmp / "results.json"
    done = subprocess.run(
        [sys.executable, "-m", "berserk_rules.cli", "check", "--results", str(results), *args],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=600,
    )
    return done, json.loads(results.read_text(encoding="utf-8"))


def deck_lines() -> set[int]:
    """The lines of the scenarios of ``DECKS`` that describe a deck list (and so ask ``deck``)."""
    found, current = set(), 0
    for number, line in enumerate((ROOT / DECKS).read_text(encoding="utf-8").splitlines(), start=1):
        if line.strip().startswith(("Сценарий:", "Структура сценария:")):
            current = number
        elif "колода для турнира" in line:
            found.add(current)
    return found


def deck_scenarios(data: dict) -> list[dict]:
    lines = deck_lines()
    return [s for s in data["scenarios"] if s["file"] == DECKS and int(s["id"].rpartition(":")[2]) in lines]


def test_the_reference_engine_answers_deck_by_its_rules() -> None:
    from berserk_engine.serve import Session

    from berserk_rules.reference.driver import ReferenceDriver

    over_wire = Session().handle({"id": 3, "op": "deck", "deck": DECK})
    in_process = ReferenceDriver().deck(DECK)
    assert over_wire == {"id": 3, "result": in_process}
    assert contract.violations("protocol#/$defs/deck_result", in_process) == []
    assert contract.violations("protocol#/$defs/deck", {"op": "deck", "deck": DECK}) == []
    assert in_process and {p["name"] for p in in_process} == {"Гном"}  # two cards, one name


def test_a_driver_without_the_request_is_not_asked() -> None:
    """Undeclared: the guard never sends it; not overridden: the driver says unsupported."""
    guard = CapabilityGuard(Tiny(), Capabilities.from_handshake({"parts": [3]}))
    try:
        guard.deck(DECK)
    except Unsupported as exc:
        assert "capabilities.requests" in str(exc)
    else:  # pragma: no cover - the assertion below says what went wrong
        raise AssertionError("deck() of an engine that did not declare it was sent")
    try:
        Tiny().deck(DECK)
    except Unsupported:
        pass
    else:  # pragma: no cover
        raise AssertionError("Driver.deck() must raise Unsupported unless overridden")


def test_an_engine_failing_every_request_gets_no_pass(tmp_path: Path) -> None:
    """The false pass of 1.1.0: the deck list scenarios never asked the engine and passed on any.
    An engine that fails every request gets 0 passed — in check, the results, JUnit and the matrix."""
    junit = tmp_path / "junit.xml"
    done, data = check("--engine", FAILING_ENGINE, "--junit", str(junit), "--", DECKS, TURN, tmp=tmp_path)
    assert done.returncode == 1, done.stdout[-2000:] + done.stderr[-2000:]
    counts = data["summary"]
    assert counts["passed"] == 0, [s["id"] for s in data["scenarios"] if s["status"] == "passed"]
    assert deck_scenarios(data) and all(s["status"] == "error" for s in deck_scenarios(data))
    assert "deck: нарочно отказываю" in deck_scenarios(data)[0]["message"]
    root = ET.parse(junit).getroot()
    cases = root.iter("testcase")
    assert all(len(case) > 0 for case in cases)  # every test case failed, errored or was skipped
    matrix = build([Run("failing", "r.json", data)])
    assert all(cell["passed"] == 0 for row in matrix["parts"] for cell in row["cells"])


def test_an_engine_that_does_not_declare_deck_gets_not_applicable(tmp_path: Path) -> None:
    done, data = check(
        "--driver", "tests.wrong_drivers:NoDeckRequest", "--isolation", "none", "--", DECKS, tmp=tmp_path
    )
    assert done.returncode == 0, done.stdout[-2000:] + done.stderr[-2000:]
    decks = deck_scenarios(data)
    assert decks and all(s["status"] == NOT_APPLICABLE for s in decks)
    assert all("capabilities.requests" in s["message"] for s in decks)
    others = [s for s in data["scenarios"] if s["file"] == DECKS and s not in decks]
    assert others and all(s["status"] == "passed" for s in others)  # the games still play
    # one vocabulary: pytest's summary line says what check's table and the results say
    summary = rf"{len(others)} passed, (\d+ deselected, )?{len(decks)} not applicable in "
    assert re.search(summary, done.stdout)
    assert "skipped in" not in done.stdout
    table = done.stdout.split("Покрытие правил", 1)[1]
    assert "\nГлоссарий " in table and "Часть 7" not in table  # Part 7 as the matrix names it


def test_the_reference_engine_over_the_protocol_passes_the_deck_scenarios(tmp_path: Path) -> None:
    done, data = check("--engine", SERVE, "--", DECKS, tmp=tmp_path)
    assert done.returncode == 0, done.stdout[-2000:] + done.stderr[-2000:]
    assert len(deck_scenarios(data)) == len(deck_lines()) >= 8
    assert all(s["status"] == "passed" for s in deck_scenarios(data))
