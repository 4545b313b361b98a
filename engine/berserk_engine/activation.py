"""The activated-abilities phase (308) and payment (501.2): everything before the colon is paid
when the ability is declared — closing the card, coin markers, wounds, the «Х раз за ход» limit.
A card cannot declare an ability it cannot pay for."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from berserk_engine import actions
from berserk_engine import characteristics as ch
from berserk_engine.actions import ActionKind
from berserk_engine.combat import first_turn_weak
from berserk_engine.cost_x import x_named, x_slots
from berserk_engine.errors import IllegalAction
from berserk_engine.events import CloseEvent, Perform, WoundEvent
from berserk_engine.queue import QueueRound, ResolveAll, note_targets, slot_options
from berserk_engine.state import QueueItem
from berserk_engine.zones import snapshot

if TYPE_CHECKING:
    from berserk_engine.abilities import Ability
    from berserk_engine.game import Game
    from berserk_engine.state import Card


def payable(game: Game, card: Card, ability: Ability, payer: str) -> bool:
    """Can ``payer`` pay the cost now (501.2)? :func:`unpayable` says why not; the listing asks only
    this (no reason written out for every card it passes over)."""
    cost = ability.cost
    assert cost is not None
    if cost.close and card.closed:
        return False
    if cost.coins > game.state.players[payer].coins_open:
        return False
    return cost.per_turn is None or card.uses.get(ability.text, 0) < cost.per_turn


def unpayable(game: Game, card: Card, ability: Ability, payer: str) -> str | None:
    """None when ``payer`` can pay the cost now, else the reason (501.2)."""
    if payable(game, card, ability, payer):
        return None
    cost = ability.cost
    assert cost is not None
    player = game.state.players[payer]
    if cost.close and card.closed:
        return f"«{card.name}» закрыто, а оплата требует закрыть карту"
    if cost.coins > player.coins_open:
        return f"нужно открытых маркеров монет: {cost.coins}, есть {player.coins_open}"
    return f"способность уже использована {cost.per_turn} раз(а) за этот ход"


def _activated(game: Game, card: Card) -> tuple[Ability, ...]:
    if card.id not in game.by_card:
        return card.definition.activated
    return tuple(a for a in ch.abilities(game, card) if a.kind == "activated")


# (card name, ability text) -> the words of its option (the same words every listing: built once)
_LABELS: dict[tuple[str, str], str] = {}


def _label(name: str, text: str) -> str:
    label = _LABELS.get((name, text))
    if label is None:
        if len(_LABELS) >= 4096:
            _LABELS.clear()
        label = _LABELS[(name, text)] = f"«{name}»: {text}"
    return label


def _options(game: Game, player: str) -> list[dict[str, Any]]:
    activatable = game.in_play().squads[player].activatable
    if not activatable:
        return []
    s = game.state
    options = []
    by_card, turn = game.by_card, s.turn
    for card_id in activatable:
        card = s.cards[card_id]
        if card.face_down:
            continue
        d = card.definition
        abilities = _activated(game, card) if card_id in by_card else d.activated
        if not abilities:
            continue
        if d.type == "creature" and card.entered_turn == turn and first_turn_weak(game, card):
            continue
        for ability in abilities:
            if not payable(game, card, ability, player):
                continue
            if not ability.slots:
                slots: Any = []
            else:
                slots = slot_options(game, ability, player, card_id)
                if slots is None:
                    continue
                if ability.cost is not None and ability.cost.x:  # I-115: the Х slots
                    slots = x_slots(game, ability, player, slots)
                    if slots is None:
                        continue
            option: dict[str, Any] = {
                "type": "activate",
                "card": card_id,
                "ability": ability.text,
                "about": {"ability": ability.text, "source": card_id, "source_name": card.name},
                "label": _label(card.name, ability.text),
            }
            if slots:
                option["slots"] = slots
            options.append(option)
    return options


def find_ability(game: Game, card: Card, text: str) -> Ability | None:
    """An activated ability by its printed sentence (the final full stop may be left out)."""
    wanted = str(text).strip().rstrip(".")
    return next((a for a in _activated(game, card) if a.text.rstrip(".") == wanted), None)


def _check(game: Game, player: str, action: dict[str, Any]) -> IllegalAction | None:
    s = game.state
    card = s.cards.get(str(action.get("card")))
    if card is None or card.zone != "play" or card.controller != player:
        return IllegalAction(
            "308.1", "активный игрок объявляет способность только своей карты в игровой зоне"
        )
    text = action.get("ability")
    ability = find_ability(game, card, str(text))
    if ability is None or card.face_down:
        return IllegalAction("308.1", f"у «{card.name}» нет активируемой способности «{text}»")
    if ability.text != text:
        return IllegalAction("308.1", f"способность называется её текстом: «{ability.text}»")
    if card.definition.type == "creature" and first_turn_weak(game, card):
        return IllegalAction(
            "308.1",
            f"«{card.name}» разыграно в этот ход: без «Рывка» оно не использует активируемые способности",
        )
    reason = unpayable(game, card, ability, player)
    if reason is not None:
        return IllegalAction("501.2", f"нельзя оплатить «{ability.text}»: {reason}")
    slots = x_slots(game, ability, player, slot_options(game, ability, player, card.id))  # I-115
    return actions.target_problem(action, {"card", "ability"}, slots, f"«{ability.text}»")


def _activate(game: Game, player: str, action: dict[str, Any]) -> None:
    s = game.state
    card = s.cards[action["card"]]
    ability = find_ability(game, card, action["ability"])
    assert ability is not None and ability.cost is not None
    if actions.declaration_step(game, "activate", player, action, (ability,)):
        return  # 517.3.1: the declaration looks through the deck first
    cost = ability.cost
    s.phase = "activation"
    item = QueueItem(
        id=s.next_id("q"),
        kind="activated",
        controller=player,
        source=card.id,
        source_name=card.name,
        text=ability.text,
        targets=actions.slot_targets(action),
        lki=snapshot(game, card),
    )
    if "summon" in action:
        item.event["summon"] = action["summon"]
    game.log(
        "activate",
        f"Игрок {player} объявляет «{ability.text}» («{card.name}»)",
        item=item.id,
        card=card.id,
        rule="308.1",
    )
    # 501.2: payment happens together with the declaration.
    payment: list[Any] = []
    if cost.close:
        card.record().acted = True
        payment.append(CloseEvent(card.id, payment="ability", paying=item.id))
    coins = cost.coins + (x_named(ability, item.targets) if cost.x else 0)  # «Х [Монета]» (I-115)
    if coins:
        p = s.players[player]
        p.coins_open -= coins
        p.coins_closed += coins
        game.log("pay", f"Игрок {player} закрывает маркеры монет: {coins}", player=player, rule="501.2")
    if cost.per_turn is not None:
        card.uses[ability.text] = card.uses.get(ability.text, 0) + 1
    if cost.wounds:
        payment.append(
            WoundEvent(
                card.id, cost.wounds, card.id, card.name, ability=ability.text, cost=True, paying=item.id
            )
        )
    s.queue.append(item)
    note_targets(game, card.id, item.targets)
    game.push(
        *([Perform(payment)] if payment else []), ResolveAll(), QueueRound()
    )  # 308.1, then 308.2 triggers, 308.3 back to choice


actions.register(ActionKind("activate", "активируемая способность", _options, _check, _activate))
