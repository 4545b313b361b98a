"""The value Х a card defines in its own text: «[эффект с Х], где Х – [что]» (issue 29, interpretation I-88).

The glossary writes Х for a number («Ранить на Х», «Выстрел на Х»); printed cards define it after the
effect with «, где Х – …» (any dash: «–», «—», «-»). What Х is, is read on resolution
(:func:`berserk_engine.effects.amount`), as every number of an effect (518.1):

* a count — «число ваших гномов», «количество существ противника»: how many cards the group finds
  (``Amount.prop`` "count");
* the cards in the controller's hand — «количество карт в вашей руке» ("hand");
* a characteristic of this card — «сила удара этого существа», «значение удара этого механизма», «жизни
  этого существа» ("strike", "life"): as it is then, or its last known information (403.1); on a spell (which
  has neither) the card chosen before it in the spell's text, a reference — the creature the sentence before
  destroyed has the strike it had when it left play (I-113, :func:`berserk_engine.effects.named_card`);
* the cards the controller took (drew) this turn — «количество карт, которые вы взяли в этот ход»
  ("drawn"): the engine counts each card a player takes from his deck in the turn
  (``Player.drawn_this_turn``, zero before each turn); a failed draw takes nothing and does not count.

Without «где Х – …» an «Х» of an effect is the Х of the card's variable cost, only on a spell whose cost
holds Х (I-66, :mod:`berserk_engine.cost_x`).
"""

from __future__ import annotations

import dataclasses
from typing import Any

from berserk_engine.abilities import Amount, Selector

FORM = ("{body}, где Х – {what}", "ранить выбранное существо на Х, где Х – число ваших гномов", "I-88")
WORD = "Х"  # how the reading writes an «Х» (a Latin «X» on a card reads the same)
THIS_CARD = Selector("self", "эта карта")  # whose characteristic «где Х – сила удара этого …» reads
# trigger conditions that define Х themselves — «Каждый раз, когда наносит Х ран ударом герою» (I-111) —: the
# kind (berserk_engine.hero_strike) → what «Х» of the effect is (the wounds that strike dealt)
STRIKE_WOUNDS = "strike_wounds"
EVENT_X = {"hero_struck": Amount(prop=STRIKE_WOUNDS, words=WORD)}


def bind(node: Any, value: Amount) -> Any:
    """The effect with every «Х» (``Amount.prop`` "X") replaced by the value «где Х – …» defines."""
    if isinstance(node, Amount):
        return value if node.prop == "X" else node
    if isinstance(node, tuple):
        return tuple(bind(v, value) for v in node)
    if dataclasses.is_dataclass(node) and not isinstance(node, type) and not isinstance(node, Selector):
        return dataclasses.replace(
            node, **{f.name: bind(getattr(node, f.name), value) for f in dataclasses.fields(node)}
        )
    return node


def uses_x(node: Any) -> bool:
    """Does the effect hold an «Х» still to be defined?"""
    return bind(node, Amount(value=-1)) != node


def trait_on_a_spell(kind: str, effect: Any) -> str | None:
    """Why an effect cannot use a characteristic of «this card», or None. A spell has no Удар nor Жизни: on a
    spell «сила удара этого механизма» names the card chosen before it in the spell's text
    (:mod:`berserk_engine.spell_reference` makes it a reference, I-113) — an error only when the spell
    chooses no card at all. On any other card «этого механизма» is the card itself, so it must be of that
    class (the reader keeps a class the card does not have in the selector)."""
    from berserk_engine.abilities import effect_nodes, selectors_of

    chooses = any(sel.chosen for sel in selectors_of(effect))
    for node in effect_nodes(effect):
        for f in dataclasses.fields(node):
            value = getattr(node, f.name)
            if not (
                isinstance(value, Amount)
                and value.prop in ("strike", "life", "wounds")
                and value.selector is not None
                and value.selector.mode == "self"
                and value.selector.words == THIS_CARD.words
            ):
                continue
            if kind != "spell" and value.selector.classes:
                missing = ", ".join(f"«{c}»" for c in value.selector.classes)
                return f"«{value.words}»: «этого …» — класс этой карты, а у неё нет класса {missing}"
            if kind == "spell" and not chooses:
                return (
                    f"«{value.words}»: у заклинания нет ни удара, ни жизней — «этого …» в тексте заклинания "
                    "говорит о карте, выбранной раньше в нём, а заклинание не выбирает ни одной"
                )
    return None


# The effect nodes whose targets name the Х of «Х [Монета]» (I-115): each module adds its own — a class
# constant on a compiled (mypyc) dataclass would be an attribute its __init__ cannot set.
X_TARGET_NODES: list[type] = []


def x_mismatch(ability: Any) -> str | None:
    """Why the ability's «Х [Монета]» and its «Х персонажей» do not go together (one without the other), or
    None: the Х of the payment is named by the Х targets of the effect (I-115, :mod:`berserk_engine.cost_x`;
    an effect node that takes those targets is one of :data:`X_TARGET_NODES`)."""
    from berserk_engine.abilities import effect_nodes

    effect = ability.effect
    kinds = tuple(X_TARGET_NODES)
    targets = effect is not None and any(isinstance(n, kinds) for n in effect_nodes(effect))
    paid = ability.cost is not None and ability.cost.x
    if targets and not paid:
        return "«Х персонажей»: Х называют при оплате «Х [Монета]» активируемой способности, а её нет"
    if paid and not targets:
        return "«Х [Монета]»: Х оплаты — число целей «Х персонажей …» эффекта, а эффект их не называет"
    return None
