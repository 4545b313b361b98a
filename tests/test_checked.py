"""The checked drivers ask the engine about each state of the game once (berserk_rules/harness/checked.py):
a repeated query between two ``start``/``act`` is answered from the first answer, every ``act`` —
refused or not — forgets the answers, and no caller can change what another one gets."""

from __future__ import annotations

import sys
from collections import Counter
from typing import Any, ClassVar

import pytest

from berserk_rules.harness.checked import InProcessDriver, ProcessDriver
from berserk_rules.harness.driver import DEFAULT_DRIVER, EngineFailure, Rejected
from berserk_rules.harness.protocol import EngineProcess
from berserk_rules.reference.driver import ReferenceDriver

POSITION: dict[str, Any] = {
    "turn": 1,
    "start": "choice",
    "cards": {"Гном": {"type": "существо", "strike": 2, "life": 3}},
    "players": {"А": {"play": ["Гном"]}, "Б": {}},
}


class Counting(ReferenceDriver):
    """The reference engine, counting the requests that reach it."""

    seen: ClassVar[Counter[str]] = Counter()

    def decision(self) -> dict[str, Any] | None:
        self.seen["decision"] += 1
        return super().decision()

    def observe(self, player: str | None) -> dict[str, Any]:
        self.seen[f"observe {player}"] += 1
        return super().observe(player)

    def log(self, player: str | None = None) -> list[dict[str, Any]]:
        self.seen[f"log {player}"] += 1
        return super().log(player)


@pytest.fixture
def driver() -> InProcessDriver:
    Counting.seen = Counter()
    d = InProcessDriver(Counting())
    d.start(POSITION)
    return d


def test_a_repeated_query_is_answered_once_per_state(driver: InProcessDriver) -> None:
    first = driver.observe(None)
    assert driver.observe(None) == first
    driver.observe("А")  # another viewer is another question
    driver.observe("А")
    driver.decision()
    driver.decision()
    driver.log(None)
    driver.log(None)
    assert Counting.seen == Counter({"observe None": 1, "observe А": 1, "decision": 1, "log None": 1})


def test_every_caller_gets_values_of_its_own(driver: InProcessDriver) -> None:
    one = driver.observe(None)
    one["turn"] = 99
    one["players"].clear()
    two = driver.observe(None)
    assert two["turn"] == 1 and two["players"]
    two["turn"] = 98
    assert driver.observe(None)["turn"] == 1


def test_an_action_forgets_the_answers(driver: InProcessDriver) -> None:
    before = driver.observe(None)
    decision = driver.decision()
    assert decision is not None
    end_turn = next(o for o in decision["options"] if o["type"] == "end_turn")
    driver.act(decision["player"], {"type": end_turn["type"]})
    after = driver.observe(None)
    assert after != before
    assert Counting.seen["observe None"] == 2


def test_a_refused_action_forgets_the_answers_too(driver: InProcessDriver) -> None:
    """A step that checks that a refused action changed nothing must see the engine's own answer
    after it, never the one remembered from before."""
    driver.observe(None)
    with pytest.raises(Rejected):
        driver.act("Б", {"type": "end_turn"})  # А decides now
    driver.observe(None)
    assert Counting.seen["observe None"] == 2


def test_a_failed_engine_is_not_answered_from_memory() -> None:
    class Breaking(Counting):
        def observe(self, player: str | None) -> dict[str, Any]:
            if self.seen["observe None"]:
                raise RuntimeError("сломался")
            return super().observe(player)

    Counting.seen = Counter()
    d = InProcessDriver(Breaking())
    d.start(POSITION)
    d.observe(None)
    with pytest.raises(EngineFailure):
        d.observe("А")  # another query reaches the engine, which fails
    with pytest.raises(EngineFailure, match="уже отказал"):
        d.observe(None)  # remembered, but the engine failed in this scenario: no answer


def test_over_the_protocol_too() -> None:
    engine = EngineProcess(
        [sys.executable, "-m", "berserk_rules.harness.host", DEFAULT_DRIVER],
        timeout=30,
    )
    try:
        d = ProcessDriver(engine)
        d.start(POSITION)
        sent = engine.next_id
        one = d.observe(None)
        one["turn"] = 99
        assert d.observe(None)["turn"] == 1
        assert d.decision() == d.decision()
        assert engine.next_id == sent + 2  # one observe, one decision
        with pytest.raises(Rejected):
            d.act("Б", {"type": "end_turn"})
        d.observe(None)
        assert engine.next_id == sent + 4
    finally:
        engine.close()
