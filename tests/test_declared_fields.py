"""The schemas are the whole contract: every scenario passes on answers stripped of every field the
schemas do not declare (berserk_rules.harness.declared.declared_only, tests/declared_driver.py) — and
the filter really strips."""

from __future__ import annotations

import copy
import json
import subprocess
import sys
from pathlib import Path

import pytest

from berserk_rules.harness import declared, messages
from berserk_rules.reference.driver import ReferenceDriver
from berserk_rules.rulebook.features import load_scenarios

ROOT = Path(__file__).resolve().parents[1]

POSITION = {
    "turn": 2,
    "start": "choice",
    "cards": {
        "Гном": {"type": "существо", "cost": 2, "strike": 2, "life": 3},
        "Гоблин": {"type": "существо", "cost": 1, "strike": 1, "life": 2},
    },
    "players": {
        "А": {"play": ["Гном"], "hand": ["Гоблин"]},
        "Б": {"play": [{"card": "Гоблин", "wounds": 1}]},
    },
}


def game() -> ReferenceDriver:
    driver = ReferenceDriver()
    driver.start(copy.deepcopy(POSITION))
    return driver


def test_an_undeclared_field_disappears_and_a_declared_one_stays() -> None:
    view = game().observe("А")
    gnome = next(c for c in view["play"] if c["name"] == "Гном")
    gnome["secret"] = {"deep": 1}
    view["players"]["А"]["coins"]["borrowed"] = 3
    view["engine_only"] = True
    stripped = declared.declared_only(messages.OBSERVE.reply, view)
    kept = next(c for c in stripped["play"] if c["name"] == "Гном")
    assert "secret" not in kept and "borrowed" not in stripped["players"]["А"]["coins"]
    assert "engine_only" not in stripped
    # declared fields stay, at every depth: a card in play, a card in a hand, a zone, the markers' names
    for field in (
        "id",
        "wounds",
        "strike",
        "current_life",
        "abilities",
        "effects",
        "uses",
        "cost",
        "face_down",
    ):
        assert kept[field] == gnome[field], field
    hand = stripped["players"]["А"]["zones"]["hand"]["cards"]
    assert hand == [{k: v for k, v in c.items()} for c in view["players"]["А"]["zones"]["hand"]["cards"]]
    assert stripped["players"]["А"]["anytime"] == view["players"]["А"]["anytime"] != []
    gnome["markers"] = {"ярость": 2}  # additionalProperties: any marker's name is declared
    assert declared.declared_only("observation#/$defs/card_in_play", gnome)["markers"] == {"ярость": 2}


def test_the_fields_of_an_option_are_declared_by_their_type() -> None:
    decision = game().decision()
    assert decision is not None and decision["kind"] == "choose_action"
    decision["options"][0]["hint"] = "лучший ход"
    decision["mood"] = "спокойно"
    stripped = declared.declared_only(messages.DECISION.reply, decision)
    assert "mood" not in stripped and "hint" not in stripped["options"][0]
    attack = next(o for o in stripped["options"] if o["type"] == "attack")
    assert attack["attacker"] and attack["slots"][0]["candidates"]
    assert stripped["options"] == [{k: v for k, v in o.items() if k != "hint"} for o in decision["options"]]
    assert declared.declared_only(messages.DECISION.reply, None) is None


def test_a_log_entry_keeps_the_fields_of_its_own_event() -> None:
    entries = [
        {"seq": 1, "turn": 1, "event": "heal", "text": "…", "card": "c1", "amount": 2, "by": "c2"},
        {"seq": 2, "turn": 1, "event": "phase", "text": "…", "amount": 2, "phase": "choice", "rule": "306"},
        {"seq": 3, "turn": 1, "event": "blow", "text": "…", "kind": "shot", "strength": 3, "target": "c4"},
    ]
    heal, phase, blow = declared.declared_only(messages.LOG.reply, entries)
    assert heal == {"seq": 1, "turn": 1, "event": "heal", "text": "…", "card": "c1", "amount": 2}
    assert phase == {"seq": 2, "turn": 1, "event": "phase", "text": "…", "rule": "306"}  # amount: heal's only
    assert blow == entries[2]


def test_a_branch_the_value_does_not_fit_declares_nothing() -> None:
    """anyOf: the fields of a face-down card are those of the face_down form only."""
    hidden = {"id": "c9", "name": None, "type": None, "owner": "Б", "face_down": True, "controller": "Б"}
    hidden_with = {**hidden, "strike": 5, "closed": False}
    stripped = declared.declared_only("observation#/properties/play/items", hidden_with)
    assert stripped == {**hidden, "closed": False}


@pytest.mark.slow  # every scenario, through the filter
def test_every_scenario_passes_on_declared_fields_only(tmp_path: Path) -> None:
    results = tmp_path / "results.json"
    command = [
        sys.executable,
        "-m",
        "berserk_rules.cli",
        "check",
        "--driver",
        "tests.declared_driver:DeclaredFieldsDriver",
        "--results",
        str(results),
        "-n",
        "0",
        "--isolation",
        "none",  # the filter is what is tested here, not crash isolation
    ]
    # each check a test vector records is replayed on the spot (vectors.VectorRecorder.check_on): here on
    # the stripped answers, so the vectors an engine author replays rely on declared fields only too
    extra = ["--", "--berserk-export", str(tmp_path / "vectors")]
    known = ROOT / "known-failures" / "reference.toml"
    if known.is_file():  # the reference engine's own known failures stay known
        command += ["--known-failures", str(known)]
    done = subprocess.run([*command, *extra], cwd=ROOT, capture_output=True, text=True, check=False)
    output = done.stdout[-3000:] + done.stderr[-3000:]
    data = json.loads(results.read_text(encoding="utf-8"))
    assert data["engine"]["name"] == "эталонный движок: только объявленные поля"
    statuses = {s["id"]: s["status"] for s in data["scenarios"]}
    assert len(statuses) == len(load_scenarios(ROOT)), output
    wrong = {k: v for k, v in statuses.items() if v not in ("passed", "xfail")}
    assert not wrong, f"{len(wrong)} scenarios read what the schemas do not declare: {sorted(wrong)[:20]}"
    assert done.returncode == 0, output
    assert len(list((tmp_path / "vectors").rglob("*.json"))) > len(statuses) // 2  # the vectors were written


def test_a_position_keeps_what_its_schema_declares() -> None:
    position = copy.deepcopy(POSITION)
    position["players"]["Б"]["play"][0]["aura"] = "синяя"
    position["cards"]["Гном"]["rarity"] = "редкая"
    position["engine"] = {"snapshot": {"anything": [1, 2]}}  # opaque: the engine's own continuation
    stripped = declared.declared_only(messages.START.request + "/properties/position", position)
    assert "aura" not in stripped["players"]["Б"]["play"][0] and "rarity" not in stripped["cards"]["Гном"]
    assert stripped["players"]["Б"]["play"][0] == {"card": "Гоблин", "wounds": 1}
    assert stripped["engine"] == position["engine"]
    assert stripped["players"]["А"] == POSITION["players"]["А"] and stripped["turn"] == 2
