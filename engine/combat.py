"""The strike attack (атака ударом, 307) — the minimum Part 3 needs; full combat is a later issue.

Interpretation I-5 (see rules/interpretations.md): the attacker closes when the attack is declared,
the inactive player may name an open creature of his as defender (it closes), the attack enters the
Queue and resolves at once: the attacker deals wounds equal to its strike to the final target, and
a creature that was open when it became the final target strikes back (ответный удар) at the same
time. Heroes do not strike back.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from berserk_engine.errors import IllegalAction
from berserk_engine.state import QueueItem

if TYPE_CHECKING:
    from berserk_engine.game import Game


def can_attack(game: Game, card_id: str) -> bool:
    s = game.state
    card = s.cards[card_id]
    return (
        card.zone == "play"
        and card.type == "creature"
        and card.controller == s.active
        and not card.closed
        and card.entered_turn != s.turn  # Рывок: otherwise not on the turn it was played
    )


def attack_targets(game: Game) -> list[str]:
    s = game.state
    enemy = game.inactive()
    return [c for c in s.play if s.cards[c].controller == enemy and s.cards[c].type in ("hero", "creature")]


def attack_options(game: Game) -> list[dict[str, Any]]:
    s = game.state
    options = []
    for attacker in s.play:
        if not can_attack(game, attacker):
            continue
        for target in attack_targets(game):
            options.append(
                {
                    "type": "attack",
                    "attacker": attacker,
                    "target": target,
                    "label": f"атаковать «{s.cards[attacker].name}» → «{s.cards[target].name}»",
                }
            )
    return options


def explain_attack(game: Game, action: dict[str, Any]) -> IllegalAction:
    s = game.state
    attacker = s.cards.get(str(action.get("attacker")))
    target = s.cards.get(str(action.get("target")))
    if attacker is None or attacker.zone != "play" or attacker.type != "creature":
        return IllegalAction("307.1", "атаковать ударом может только существо в игровой зоне")
    if attacker.controller != s.active:
        return IllegalAction("307.1", "активный игрок атакует только своим существом")
    if attacker.closed:
        return IllegalAction("307.1", f"«{attacker.name}» закрыто: закрытая карта не может действовать")
    if attacker.entered_turn == s.turn:
        return IllegalAction(
            "307.1", f"«{attacker.name}» разыграно в этот ход и не может атаковать (без «Рывка»)"
        )
    if target is None or target.id not in attack_targets(game):
        return IllegalAction(
            "307.1", "целью атаки ударом может быть только персонаж противника в игровой зоне"
        )
    return IllegalAction("307.1", "такая атака невозможна")


def declare_attack(game: Game, attacker: str, target: str) -> None:
    s = game.state
    card = s.cards[attacker]
    card.closed = True  # an action: the attacker closes
    target_card = s.cards[target]
    s.pending_attack = {"attacker": attacker, "target": target, "target_open": not target_card.closed}
    s.phase = "attack"
    game.log(
        "attack", f"«{card.name}» атакует «{target_card.name}»", card=attacker, target=target, rule="307.1"
    )


def defender_options(game: Game) -> list[dict[str, Any]]:
    s = game.state
    assert s.pending_attack is not None
    enemy = game.inactive()
    options: list[dict[str, Any]] = [{"type": "no_defender", "label": "не назначать защитника"}]
    for c in s.play:
        card = s.cards[c]
        if (
            card.controller == enemy
            and card.type == "creature"
            and not card.closed
            and c != s.pending_attack["target"]
        ):
            options.append({"type": "defend", "defender": c, "label": f"назначить защитником «{card.name}»"})
    return options


def explain_defender(game: Game, action: dict[str, Any]) -> IllegalAction:
    return IllegalAction(
        "307.1", "защитником можно назначить только своё открытое существо, не являющееся целью атаки"
    )


def assign_defender(game: Game, defender: str | None) -> None:
    s = game.state
    attack = s.pending_attack
    assert attack is not None
    s.pending_attack = None
    if defender is not None:
        card = s.cards[defender]
        card.closed = True
        attack = {**attack, "target": defender, "target_open": True, "defender": defender}
        game.log(
            "defend",
            f"Игрок {game.inactive()} назначает защитником «{card.name}»",
            card=defender,
            rule="307.1",
        )
    item = QueueItem(
        id=s.next_id("q"),
        kind="attack",
        controller=s.active,
        source=attack["attacker"],
        source_incarnation=s.cards[attack["attacker"]].incarnation,
        text=f"атака ударом «{s.cards[attack['attacker']].name}»",
        attack=attack,
        lki=s.cards[attack["attacker"]].snapshot(),
    )
    # 307.1: the attack enters the Queue and resolves at once.
    s.queue.append(item)
    game.resolve_immediately(after="choice")


def resolve_attack(game: Game, item: QueueItem) -> None:
    s = game.state
    assert item.attack is not None
    attacker = s.cards[item.attack["attacker"]]
    target = s.cards[item.attack["target"]]
    if attacker.zone != "play" or target.zone != "play":
        game.log("attack_fizzles", "Атака не состоялась: участник покинул игровую зону", rule="518.1")
        return
    strike_back = target.type == "creature" and item.attack["target_open"]
    dealt = attacker.strike
    back = target.strike if strike_back else 0
    game.wound(target.id, dealt, item)
    if strike_back:
        game.wound(attacker.id, back, item, text="ответный удар")
