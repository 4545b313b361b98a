"""Parity of the card reader (issue 25): every card text of the project compiles to exactly the nodes the
old reader (the catalogue of phrases) compiled — the snapshot tests/data/reader_parity.json, written by
tools/reader_parity.py before the reader's parts moved to the grammar of berserk_engine.language.

Each entry of the snapshot holds its own text, card name, kind and cost, so the test reads the snapshot's
texts, not today's feature files: a card text added later (a new scenario) is new, not a parity question."""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path
from types import ModuleType

import pytest

ROOT = Path(__file__).resolve().parent.parent
SNAPSHOT = ROOT / "tests" / "data" / "reader_parity.json"


def _tool() -> ModuleType:
    spec = importlib.util.spec_from_file_location("reader_parity", ROOT / "tools" / "reader_parity.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


CARDS = json.loads(SNAPSHOT.read_text(encoding="utf-8"))["cards"]


def test_the_snapshot_holds_every_kind_of_ability_the_reader_compiles() -> None:
    kinds = {a["kind"] for c in CARDS if c["reading"] != "refused" for a in c["reading"]}
    assert kinds >= {"static", "triggered", "activated", "spell", "combined"}
    assert any(a["keyword"] for c in CARDS for a in c["reading"])  # keyword abilities too
    assert len(CARDS) >= 400


def test_every_card_text_compiles_to_the_nodes_of_the_snapshot() -> None:
    tool = _tool()
    changed = []
    for card in CARDS:
        now = tool.reading(card)
        if now != card["reading"]:
            changed.append(f"{card['where']}: «{card['text']}»")
    assert not changed, "другой узел (python tools/reader_parity.py --check):\n" + "\n".join(changed[:20])


def test_a_changed_node_is_noticed() -> None:
    """The comparison can fail: a snapshot with one field changed differs."""
    tool = _tool()
    card = next(c for c in CARDS if c["reading"] != "refused" and c["reading"])
    altered = json.loads(json.dumps(card))
    altered["reading"][0]["optional"] = not altered["reading"][0]["optional"]
    assert tool.reading(card) != altered["reading"]
    assert tool.differences({"cards": [altered]}, {"cards": [card]})


@pytest.mark.parametrize("value", [frozenset({"b", "a"}), {"a", "b"}])
def test_the_stable_form_orders_sets(value: object) -> None:
    assert _tool().stable(value) == ["a", "b"]
