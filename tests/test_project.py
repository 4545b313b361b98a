"""The project as a whole: the real scenarios lint clean, the reference driver speaks JSON."""

from __future__ import annotations

import json

import pytest

from berserk_rules.cli import main
from berserk_rules.harness.driver import Rejected, SetupRejected
from berserk_rules.reference.driver import ReferenceDriver


def test_real_features_lint_clean(capsys: pytest.CaptureFixture[str]) -> None:
    code = main(["lint"])
    out = capsys.readouterr().out
    assert code == 0, out
    assert "ошибок: 0" in out


def test_every_step_is_documented() -> None:
    import berserk_rules.steps.all  # noqa: F401
    from berserk_rules.steps.registry import STEPS

    assert len(STEPS) > 40
    for step in STEPS:
        assert step.doc, f"шаг «{step.pattern}» без описания ({step.module}:{step.line})"
        assert step.example, f"шаг «{step.pattern}» без примера"


def test_reference_driver_round_trips_through_json() -> None:
    """Everything a driver says must survive a process boundary unchanged."""
    driver = ReferenceDriver()
    driver.start(
        {
            "turn": 3,
            "cards": {
                "Часовой": {
                    "type": "существо",
                    "strike": 1,
                    "life": 3,
                    "text": "В начале хода: ранить на 1 героя противника.",
                }
            },
            "players": {"А": {"play": ["Часовой"]}},
        }
    )
    for value in (
        driver.decision(),
        driver.observe("А"),
        driver.observe("Б"),
        driver.observe(None),
        driver.log(),
    ):
        assert json.loads(json.dumps(value, ensure_ascii=False)) == value
    decision = driver.decision()
    assert decision is not None and decision["kind"] == "declare_trigger"
    with pytest.raises(Rejected) as info:
        driver.act("А", {"type": "pass"})
    assert info.value.rule == "401.7"
    option = {k: v for k, v in decision["options"][0].items() if k not in ("label", "about")}
    driver.act("А", json.loads(json.dumps(option)))
    assert driver.observe("Б")["players"]["Б"]["hero"]["wounds"] == 1


def test_reference_driver_rejects_unknown_card_text() -> None:
    driver = ReferenceDriver()
    with pytest.raises(SetupRejected, match="Лягушатник"):
        driver.start({"cards": {"Лягушатник": {"type": "существо", "text": "Квакает громко."}}})


def test_code_is_ruff_clean() -> None:
    """The code style gate runs with the tests, so CI enforces it."""
    import subprocess
    import sys
    from pathlib import Path

    root = Path(__file__).resolve().parents[1]
    for args in (["check", "."], ["format", "--check", "."]):
        result = subprocess.run(
            [sys.executable, "-m", "ruff", *args], cwd=root, capture_output=True, text=True, check=False
        )
        assert result.returncode == 0, result.stdout + result.stderr
