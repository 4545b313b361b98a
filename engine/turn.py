"""Part 3 — the structure of a turn.

Начало хода: фаза восстановления (303) → фаза накопления (304) → основной этап (305) с фазой
выбора (306) и фазами атаки ударом (307), активируемых способностей (308), розыгрыша карты (309)
→ этап конца хода (310, «315» in the other edition).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from berserk_engine import queue
from berserk_engine.state import MAX_COINS

if TYPE_CHECKING:
    from berserk_engine.game import Game

DRAW_FAILURES_TO_LOSE = 3  # 304.2


def restoration(game: Game) -> None:
    """303: open the active player's cards (hero included) and coin markers; reset «Х раз за ход»."""
    s = game.state
    game.log("phase", "Фаза восстановления", phase="restoration", rule="303")
    player = s.players[s.active]
    for card_id in s.play:
        card = s.cards[card_id]
        if card.controller == s.active and card.closed:
            card.closed = False
            game.log("open", f"Открывается «{card.name}»", card=card_id, rule="303.1")
    if player.coins_closed:
        game.log("coins_open", f"Открываются маркеры монет: {player.coins_closed}", rule="303.1")
        player.coins_open += player.coins_closed
        player.coins_closed = 0
    for card in s.cards.values():  # 303.2; «Перед началом хода карта теряет эти маркеры»
        if card.markers:
            card.markers.clear()
            game.log(
                "markers_reset", f"«{card.name}» теряет маркеры «раз за ход»", card=card.id, rule="303.2"
            )
    s.phase = "accumulation"  # 303.3


def accumulation(game: Game) -> None:
    """304: a coin marker, a card, then «В начале хода» triggers into the Queue."""
    s = game.state
    game.log("phase", "Фаза накопления", phase="accumulation", rule="304")
    player = s.players[s.active]
    if player.coins < MAX_COINS:  # 304.1
        player.coins_open += 1
        game.log("coin", f"Игрок {s.active} получает открытый маркер монеты", player=s.active, rule="304.1")
    if not (s.turn == 1 and s.active == s.first_player):  # 304.2
        if player.zones["deck"]:
            game.draw(s.active, 1, reason="фаза накопления")
        else:
            player.draw_failures += 1
            game.log(
                "draw_failed",
                f"Игрок {s.active} не может взять карту ({player.draw_failures}-й раз за игру)",
                player=s.active,
                failures=player.draw_failures,
                rule="304.2",
            )
            if player.draw_failures >= DRAW_FAILURES_TO_LOSE:
                game.end_game(winner=game.opponent(s.active), rule="304.2")
                return
    queue.fire(game, "turn_start", point=f"начало хода {s.turn}")  # 304.3
    queue.open_round(game, after="main")  # 304.4 when empty


def main_stage(game: Game) -> None:
    """305.2: the main stage begins with the choice phase."""
    game.log("phase", "Основной этап: фаза выбора", phase="choice", rule="305.2")
    game.state.phase = "choice"


def back_to_choice(game: Game) -> None:
    """307.3, 308.3, 309.3: the Queue is empty — back to the choice phase."""
    game.log("phase", "Фаза выбора", phase="choice", rule="306")
    game.state.phase = "choice"


def end_turn(game: Game) -> None:
    """306.1 «передать ход противнику» → 310.1: «в конце хода» triggers enter the Queue."""
    s = game.state
    s.phase = "end"
    game.log("phase", "Этап конца хода", phase="end", rule="310")
    queue.fire(game, "turn_end", point=f"конец хода {s.turn}")
    queue.open_round(game, after="end_cleanup")


def end_cleanup(game: Game) -> None:
    """310.2: «до конца хода» effects end; 310.3: the players swap and the next turn begins."""
    s = game.state
    for card_id in s.play:
        card = s.cards[card_id]
        lasting = [m for m in card.modifiers if not m.until_end_of_turn]
        if len(lasting) != len(card.modifiers):
            card.modifiers = lasting
            game.log(
                "effect_ends",
                f"Заканчивает действовать эффект «до конца хода» на «{card.name}»",
                card=card_id,
                rule="310.2",
            )
    previous = s.active
    s.active = game.opponent(previous)
    s.turn += 1
    game.log("turn", f"Ход переходит к игроку {s.active} (ход {s.turn})", player=s.active, rule="310.3")
    s.phase = "restoration"


__all__ = ["accumulation", "back_to_choice", "end_cleanup", "end_turn", "main_stage", "restoration"]
