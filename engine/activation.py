"""The activated-abilities phase (308) and payment (501.2): everything before the colon is paid
when the ability is declared — closing the card, coin markers, the «Х раз за ход» limit."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from berserk_engine.errors import IllegalAction
from berserk_engine.queue import target_choices
from berserk_engine.state import QueueItem

if TYPE_CHECKING:
    from berserk_engine.abilities import Ability
    from berserk_engine.game import Game
    from berserk_engine.state import Card


def marker_key(ability: Ability) -> str:
    return f"раз за ход:{ability.index}"


def _payable(game: Game, card: Card, ability: Ability) -> str | None:
    """None when the cost can be paid now, else the reason (501.2)."""
    s = game.state
    cost = ability.cost
    assert cost is not None
    if cost.close and card.closed:
        return f"«{card.name}» закрыто, а оплата требует закрыть карту"
    if cost.coins > s.players[s.active].coins_open:
        return f"нужно открытых маркеров монет: {cost.coins}, есть {s.players[s.active].coins_open}"
    if cost.per_turn is not None and card.markers.get(marker_key(ability), 0) >= cost.per_turn:
        return f"способность уже использована {cost.per_turn} раз(а) за этот ход"
    return None


def just_played(game: Game, card: Card) -> bool:
    """Interpretation I-6 (glossary «Рывок»): a creature does not use activated abilities on the turn
    it was played."""
    return card.type == "creature" and card.entered_turn == game.state.turn


def _activated(game: Game) -> list[tuple[Card, Ability]]:
    s = game.state
    return [
        (s.cards[c], a)
        for c in s.play
        if s.cards[c].controller == s.active
        for a in s.cards[c].abilities
        if a.kind == "activated"
    ]


def activate_options(game: Game) -> list[dict[str, Any]]:
    options = []
    for card, ability in _activated(game):
        if just_played(game, card) or _payable(game, card, ability) is not None:
            continue
        for targets in target_choices(game, ability, game.state.active):
            names = ", ".join(f"«{game.state.cards[t].name}»" for t in targets)
            options.append(
                {
                    "type": "activate",
                    "card": card.id,
                    "ability": ability.text,
                    "targets": targets,
                    "about": {"ability": ability.text, "source_name": card.name},
                    "label": f"«{card.name}»: {ability.text}" + (f" → {names}" if names else ""),
                }
            )
    return options


def explain(game: Game, action: dict[str, Any]) -> IllegalAction:
    s = game.state
    card = s.cards.get(str(action.get("card")))
    if card is None or card.zone != "play" or card.controller != s.active:
        return IllegalAction(
            "308.1", "активный игрок объявляет способность только своей карты в игровой зоне"
        )
    text = action.get("ability")
    ability = find_ability(card, str(text))
    if ability is None:
        return IllegalAction("308.1", f"у «{card.name}» нет активируемой способности «{text}»")
    if just_played(game, card):
        return IllegalAction(
            "308.1",
            f"«{card.name}» разыграно в этот ход: без «Рывка» оно не использует активируемые способности",
        )
    reason = _payable(game, card, ability)
    if reason is not None:
        return IllegalAction("501.2", f"нельзя оплатить «{ability.text}»: {reason}")
    return IllegalAction("501.1", f"недопустимая цель для «{ability.text}»: {action.get('targets')}")


def find_ability(card: Card, text: str) -> Ability | None:
    """An activated ability by its printed sentence (the final full stop may be left out)."""
    wanted = text.strip().rstrip(".")
    return next((a for a in card.abilities if a.kind == "activated" and a.text.rstrip(".") == wanted), None)


def activate(game: Game, card_id: str, text: str, targets: list[str]) -> None:
    s = game.state
    card = s.cards[card_id]
    ability = find_ability(card, text)
    assert ability is not None
    cost = ability.cost
    assert cost is not None
    s.phase = "activation"
    # 501.2: payment happens together with the declaration.
    if cost.close:
        card.closed = True
    if cost.coins:
        player = s.players[s.active]
        player.coins_open -= cost.coins
        player.coins_closed += cost.coins
    if cost.per_turn is not None:
        card.markers[marker_key(ability)] = card.markers.get(marker_key(ability), 0) + 1
    item = QueueItem(
        id=s.next_id("q"),
        kind="activated",
        controller=s.active,
        source=card_id,
        source_incarnation=card.incarnation,
        text=ability.text,
        ability=ability,
        targets=targets,
        lki=card.snapshot(),
    )
    s.queue.append(item)
    game.log(
        "activate",
        f"Игрок {s.active} объявляет «{ability.text}» («{card.name}»)",
        item=item.id,
        card=card_id,
        rule="308.1",
    )
    game.resolve_immediately(after="choice")  # 308.1, then 308.2 triggers, 308.3 back to choice
