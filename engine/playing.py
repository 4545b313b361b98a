"""The card-play phase (309): a card from hand is paid for with coin markers (501.2) and enters the
game zone under its player's control (517.2); a spell's abilities enter the Queue and resolve at once,
then the spell goes to its owner's graveyard."""

from __future__ import annotations

import itertools
from typing import TYPE_CHECKING, Any

from berserk_engine import queue
from berserk_engine.errors import IllegalAction
from berserk_engine.state import QueueItem

if TYPE_CHECKING:
    from berserk_engine.game import Game
    from berserk_engine.state import Card


def _spell_targets(game: Game, card: Card) -> list[list[str]]:
    per_ability = [queue.target_choices(game, a, game.state.active) for a in card.abilities]
    return [list(itertools.chain.from_iterable(combo)) for combo in itertools.product(*per_ability)]


def play_options(game: Game) -> list[dict[str, Any]]:
    s = game.state
    player = s.players[s.active]
    options = []
    for card_id in player.zones["hand"]:
        card = s.cards[card_id]
        if card.type not in ("creature", "spell") or card.definition.cost > player.coins_open:
            continue
        choices = _spell_targets(game, card) if card.type == "spell" else [[]]
        for targets in choices:
            names = ", ".join(f"«{s.cards[t].name}»" for t in targets)
            options.append(
                {
                    "type": "play",
                    "card": card_id,
                    "targets": targets,
                    "label": f"разыграть «{card.name}»" + (f" → {names}" if names else ""),
                }
            )
    return options


def explain(game: Game, action: dict[str, Any]) -> IllegalAction:
    s = game.state
    card = s.cards.get(str(action.get("card")))
    player = s.players[s.active]
    if card is None or card.id not in player.zones["hand"]:
        return IllegalAction("309.1", "разыграть можно только карту из своей руки")
    if card.definition.cost > player.coins_open:
        return IllegalAction(
            "501.2",
            f"«{card.name}» стоит {card.definition.cost}, открытых маркеров монет "
            f"{player.coins_open}: оплатить нельзя",
        )
    return IllegalAction("501.1", f"недопустимые цели для «{card.name}»: {action.get('targets')}")


def play(game: Game, card_id: str, targets: list[str]) -> None:
    s = game.state
    card = s.cards[card_id]
    player = s.players[s.active]
    s.phase = "play"
    player.coins_open -= card.definition.cost  # 501.2: prepayment with closed coin markers
    player.coins_closed += card.definition.cost
    player.zones["hand"].remove(card_id)
    card.incarnation += 1
    game.log("play", f"Игрок {s.active} разыгрывает «{card.name}»", card=card_id, rule="309.1")
    if card.type == "creature":
        card.zone = "play"
        card.controller = s.active  # 517.2
        card.entered_turn = s.turn
        s.play.append(card_id)
        game.log("enters_play", f"«{card.name}» входит в игру", card=card_id, rule="309.2")
        queue.fire(game, "enters_play", point=f"найм «{card.name}»", sources=[card_id])
        queue.open_round(game, after="choice")  # 309.2
        return
    # A spell: every ability enters the Queue and resolves at once (309.1).
    card.zone = "stack"
    remaining = list(targets)
    for ability in card.abilities:
        n = 1 if ability.effect.target.chosen else 0
        chosen, remaining = remaining[:n], remaining[n:]
        s.queue.append(
            QueueItem(
                id=s.next_id("q"),
                kind="spell",
                controller=s.active,
                source=card_id,
                source_incarnation=card.incarnation,
                text=ability.text,
                ability=ability,
                targets=chosen,
                lki=card.snapshot(),
            )
        )
    while s.queue and s.result is None:
        queue.resolve_first(game)
    card.zone = "graveyard"
    card.incarnation += 1
    s.players[card.owner].zones["graveyard"].append(card_id)
    game.log("to_graveyard", f"«{card.name}» уходит на кладбище", card=card_id)
    if s.result is None:
        queue.open_round(game, after="choice")  # 309.2: after all its abilities resolved
