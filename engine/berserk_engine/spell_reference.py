"""«Это существо» in a spell's text: the creature chosen earlier in it (issue 29, interpretation I-100).

A creature's text says «это существо» of the card itself (the source, ``Selector.mode`` "self"). A spell is
no creature: printed spells write «Выберите существо. … положите это существо под низ колоды» or «Противник
может заплатить стоимость выбранного существа; иначе положите это существо …» of the creature the spell
chose. The engine reads it as a reference to the target named last before it (like «его», «оно», I-56).
A spell that prints «это существо» with no target chosen before it is an error of its text (the reference
names nothing), never the spell itself. A verb that acts on the card itself with no word for it
(«раниться») keeps its meaning.
"""

from __future__ import annotations

import dataclasses
from typing import Any

from berserk_engine.abilities import Selector


def on_a_spell(kind: str, effect: Any, text: str) -> Any:
    """The spell's effect with each «это существо» (a creature of the source) turned into a reference to
    the target named before it; another ability's effect as it is."""
    if kind != "spell":
        return effect
    return _refer(effect) if _prints_this(text) else effect


def _prints_this(text: str) -> bool:
    """Does the text name a card with «этот» («это существо», «этого существа»)?"""
    from berserk_engine.language.morphology import analyses

    return any(a.category == "this" for w in text.split() for a in analyses(w.strip(",.:;()«»")))


def _refer(node: Any) -> Any:
    if isinstance(node, Selector):
        if node.mode == "self" and "creature" in node.types:
            return dataclasses.replace(node, mode="ref", slot=-1)  # its slot: the target named before it
        return node
    if isinstance(node, tuple):
        return tuple(_refer(v) for v in node)
    if dataclasses.is_dataclass(node) and not isinstance(node, type):
        return dataclasses.replace(
            node, **{f.name: _refer(getattr(node, f.name)) for f in dataclasses.fields(node)}
        )
    return node
