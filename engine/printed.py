"""The card language as the game prints it: imperatives («Закройте существо», «Верните существо в
руку»), the other word order («Ранить всех существ на 1», «ранить его на 2»), a shot at a fixed target
(«Выстрел на 1 по герою противника»), «Отравление 2» beside «Отравление на 2», «выберите …» naming a
target that «его», «оно» refer to later, and the infinitives of a payment inside an effect («вы можете
сбросить карту, чтобы …»).

The phrases build the same effect nodes as the rulebook's own wording (:mod:`berserk_engine.effects`):
a printed form and the glossary's form of one mechanic are one reading.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any

from berserk_engine.abilities import Amount, Selector
from berserk_engine.data import serializable
from berserk_engine.effects import Close, Discard, Draw, Heal, Move, Sequence
from berserk_engine.grammar import CHARACTER, CREATURE, phrase, read_effect, slot_type
from berserk_engine.keywords.shot import SHOT, Shot

if TYPE_CHECKING:
    from berserk_engine.game import Game
    from berserk_engine.state import QueueItem

# «Выберите …» names a target: Выбранное существо (карта).

# Targets in the dative («выстрел на 1 по герою противника»).
DATIVE: dict[str, Selector] = {
    "герою противника": Selector("enemy_hero", "героя противника", ("hero",)),
    "выбранному существу": Selector("chosen", "выбранное существо", CREATURE),
    "существу": Selector("chosen", "существо", CREATURE),
    "существу противника": Selector("chosen", "существо противника", CREATURE, "enemy"),
    "персонажу противника": Selector("chosen", "персонажа противника", CHARACTER, "enemy"),
    "выбранному персонажу противника": Selector(
        "chosen", "выбранного персонажа противника", CHARACTER, "enemy"
    ),
    "каждому существу противника": Selector("each", "каждое существо противника", CREATURE, "enemy"),
}
slot_type(
    "ToDat",
    DATIVE,
    "цель после «по»: " + ", ".join(f"«{w}»" for w in DATIVE),
)


@dataclass(frozen=True, slots=True)
class Pick:
    """«Выберите [цель]»: names a target at the declaration (501.1) and does nothing by itself; the
    parts after it act on it through «его», «оно»."""

    target: Selector

    def run(self, game: Game, item: QueueItem) -> None:
        return None


# --- imperatives ------------------------------------------------------------------------------------


@phrase("effect", "закройте {t:Acc}", "закройте существо", "закрыть-существо-карту")
def _close(f: dict[str, Any]) -> Close:
    return Close(f["t"])


@phrase("effect", "откройте {t:Acc}", "откройте его", "открытие-карты")
def _open(f: dict[str, Any]) -> Close:
    return Close(f["t"], open=True)


@phrase("effect", "верните {t:Acc} в руку", "верните существо в руку", "203.4")
def _return(f: dict[str, Any]) -> Move:
    return Move(f["t"], "hand", "return")


@phrase("effect", "уничтожьте {t:Acc}", "уничтожьте отравленное существо", "уничтожить-карту")
def _destroy(f: dict[str, Any]) -> Move:
    return Move(f["t"], "graveyard", "destroy")


@phrase("effect", "излечить {t:Acc} на {n:Amount}", "излечить вашего героя на 2", "излечить-излечение-на-х")
def _heal(f: dict[str, Any]) -> Heal:
    return Heal(f["n"], f["t"])


@phrase("effect", "излечите {t:Acc} на {n:Amount}", "излечите существо на 3", "излечить-излечение-на-х")
def _heal_imperative(f: dict[str, Any]) -> Heal:
    return Heal(f["n"], f["t"])


@phrase("effect", "выберите {t:Acc}", "выберите ваше существо", "выбранное-существо-карта")
def _pick(f: dict[str, Any]) -> Pick | None:
    target = f["t"]
    if not target.chosen:
        return None  # «выберите» names a target: «каждого …», «его» are not choices
    return Pick(target)


# --- a payment inside an effect: infinitives -------------------------------------------------------------


@phrase("effect", "сбросить карту", "сбросить карту", "сбросьте-карту")
def _discard(f: dict[str, Any]) -> Discard:
    return Discard(1)


@phrase("effect", "сбросить {n:Num} карты", "сбросить 2 карты", "сбросьте-карту")
def _discard_few(f: dict[str, Any]) -> Discard:
    return Discard(f["n"])


@phrase("effect", "взять карту", "взять карту", "возьмите-карту")
def _draw(f: dict[str, Any]) -> Draw:
    return Draw(Amount(value=1, words="1"))


@phrase("effect", "взять {n:Num} карты", "взять 2 карты", "возьмите-карту")
def _draw_few(f: dict[str, Any]) -> Draw:
    return Draw(Amount(value=f["n"], words=str(f["n"])))


@phrase("effect", "закрыть это существо", "закрыть это существо", "закрыть-существо-карту")
def _close_self(f: dict[str, Any]) -> Close:
    return Close(Selector("self", "это существо", CREATURE))


@dataclass(frozen=True, slots=True)
class InOrderTo:
    """«[оплата], чтобы [эффект]»: a payment inside an effect. The payment is made first; the effect
    after «чтобы» is done only when the payment can be made in full (a discard needs the cards in
    hand, closing this creature needs it open) — interpretation I-55. With «вы можете» before it the
    controller decides whether to pay."""

    cost: Any
    then: Any

    def run(self, game: Game, item: QueueItem) -> None:
        from berserk_engine.effects import Resolve

        if not can_pay(game, item, self.cost):
            game.log(
                "unpaid",
                f"«{item.source_name}»: оплату «{item.text}» внести нельзя — "
                "эффект после «чтобы» не выполняется",
                card=item.source,
                rule="501.2",
            )
            return
        game.push(Resolve(self.cost, item), Resolve(self.then, item))


def can_pay(game: Game, item: QueueItem, cost: Any) -> bool:
    """Can the payment inside an effect be made in full now?"""
    if isinstance(cost, Sequence):
        return all(can_pay(game, item, p) for p in cost.parts)
    if isinstance(cost, Discard):
        player = game.opponent(item.controller) if cost.opponent else item.controller
        return len(game.state.players[player].zones["hand"]) >= cost.count
    if isinstance(cost, Close) and cost.target.mode == "self":
        card = game.state.cards.get(item.source)
        return card is not None and card.zone == "play" and card.closed == cost.open
    return True


@phrase(
    "effect",
    "{cost}, чтобы {then}",
    "сбросить карту, чтобы взять 2 карты",
    "501.2",
)
def _in_order_to(f: dict[str, Any]) -> Any:
    """«[оплата], чтобы [эффект]» (with «вы можете» before it: the controller's decision)."""
    from berserk_engine.grammar import _Unreadable

    try:
        cost, cost_optional = read_effect(f["cost"])
        then, then_optional = read_effect(f["then"])
    except _Unreadable:
        return None
    if cost_optional or then_optional:
        return None
    return InOrderTo(cost, then)


# --- a shot at a fixed target ---------------------------------------------------------------------------


@phrase("effect", "выстрел на {n:Amount} по {t:ToDat}", "выстрел на 1 по герою противника", SHOT)
def _shot_at(f: dict[str, Any]) -> Shot:
    return Shot(f["n"], f["t"])


def register_printed_keywords(keywords: Any) -> None:
    """«Отравление 2» beside «Отравление на 2»: every keyword whose name is «… на Х» is printed without
    «на» too (the seeds use both forms)."""
    from berserk_engine.grammar import _register_keyword

    for kw in keywords:
        if " на {x:Num}" in kw.phrase:
            _register_keyword(
                replace(
                    kw,
                    phrase=kw.phrase.replace(" на {x:Num}", " {x:Num}"),
                    example=kw.example.replace(" на ", " "),
                )
            )


# Registered for snapshots (berserk_engine.data) by a call, not a decorator: a decorated class would
# not compile to a native class (berserk-rules compile).
serializable(Pick, InOrderTo)
