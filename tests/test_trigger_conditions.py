"""The trigger conditions the old phrase registry spelled out one by one (69 phrases, issue 25), frozen with
what each meant (``tests/data/trigger_conditions.json``, taken from the registry before it was deleted):
the grammar reads every one of them — in its example sentence and as «Каждый раз, когда …» — as the very
trigger the registry built, and the conditions with a noun group as subject also alone
(:func:`~berserk_engine.language.tree.read_trigger`)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from berserk_engine.abilities import Trigger
from berserk_engine.grammar import parse_ability
from berserk_engine.language.tree import ReadError, read_trigger
from berserk_engine.triggers import KINDS

DATA = json.loads((Path(__file__).parent / "data" / "trigger_conditions.json").read_text(encoding="utf-8"))[
    "conditions"
]


def _trigger(fields: dict[str, Any]) -> Trigger:
    return Trigger(**{k: tuple(v) if isinstance(v, list) else v for k, v in fields.items()})


def test_the_frozen_conditions_cover_every_kind_of_the_registry_they_came_from() -> None:
    assert len(DATA) == 69
    kinds = {row["trigger"]["event"] for row in DATA}
    assert kinds <= set(KINDS), sorted(kinds - set(KINDS))


@pytest.mark.parametrize("row", DATA, ids=[row["condition"] for row in DATA])
def test_every_condition_of_the_old_registry_reads_as_the_trigger_it_built(row: dict[str, Any]) -> None:
    want = _trigger(row["trigger"])
    assert parse_ability(row["example"]).trigger == want
    if row["condition"].startswith("Когда "):  # the same condition printed «Каждый раз, когда …» (401.4)
        every = "Каждый раз, когда " + row["example"][len("Когда ") :]
        assert parse_ability(every).trigger == want, every


def test_conditions_with_a_noun_group_as_subject_read_alone_as_the_same_trigger() -> None:
    """The grammar reads «Когда [группа] [событие]» from one rule per event (no copy per subject)."""
    compared = 0
    for row in DATA:
        if not row["condition"].startswith("Когда "):
            continue
        try:
            got = read_trigger(row["condition"])
        except ReadError:
            continue  # a player or the card itself is the subject: read with the whole sentence (above)
        assert got == _trigger(row["trigger"]), row["condition"]
        every = "Каждый раз, когда " + row["condition"][len("Когда ") :]
        assert read_trigger(every) == got
        compared += 1
    assert compared == 36
