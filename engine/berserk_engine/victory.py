"""Part 6 — victory, draw, defeat.

* **Чистая победа** (602.1): wounds on the enemy hero ≥ its initial lives and both players losing at
  once are checked after every resolved ability (``queue.StateCheck``); the third failure to draw in
  the accumulation phase in ``turn.draw_failed``; here — a **concession** and **card text** that says a
  player won or lost the game. A defeat by penalty (Турнирные Правила) is outside the game and outside
  the engine.
* **Ничья** (603.1, 603.2): both players lose (or win) at once; an **agreed draw** — a player offers a
  draw while the game is not over, the opponent accepts (the game ends in a draw) or declines (the game
  goes on, and the offering player may not insist: interpretation I-43). The tournament clock (603.1,
  case 3) is outside the engine.
* **Окончание игры** (604): once a result is given nothing changes it (``Game.act`` refuses every
  action, 604.1); all cards are freed of effects (``Game.end_game``, 604.2).

Conceding and offering a draw are actions a player may take **at any time**, whoever must decide now
(``actions.ANYTIME``, interpretation I-42); the observation lists them for each player.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from berserk_engine import actions, hooks, zones
from berserk_engine.actions import ActionKind
from berserk_engine.data import serializable, upgrade
from berserk_engine.errors import IllegalAction
from berserk_engine.state import PLAYERS, Pending
from berserk_engine.tasks import Task, task

if TYPE_CHECKING:
    from berserk_engine.game import Game
    from berserk_engine.state import QueueItem


# --- concession ------------------------------------------------------------------------------------


def _concede_options(game: Game, player: str) -> list[dict[str, Any]]:
    return [{"type": "concede", "label": "сдаться"}]


def _check_concede(game: Game, player: str, action: dict[str, Any]) -> IllegalAction | None:
    if player not in PLAYERS:
        return IllegalAction("602.1", f"сдаться может только игрок партии, а не {player!r}")
    if set(action) != {"type"}:
        return IllegalAction("602.1", f"у действия 'concede' нет других полей, кроме type: {action!r}")
    return None


def _concede(game: Game, player: str, action: dict[str, Any]) -> None:
    game.log("concede", f"Игрок {player} признаёт себя побеждённым (сдаётся)", player=player, rule="602.1")
    game.end_game(winner=game.opponent(player), rule="602.1")


actions.register_anytime(ActionKind("concede", "сдаться", _concede_options, _check_concede, _concede))


# --- a draw offer --------------------------------------------------------------------------------


def _offer_pending(game: Game) -> bool:
    p = game.state.pending
    return p is not None and p.kind == "answer_draw"


def _may_offer(game: Game, player: str) -> str | None:
    """Why the player may not offer a draw now (None: he may)."""
    if _offer_pending(game):
        return "предложение ничьей уже ждёт ответа"
    if game.state.draw_declined.get(player) == game.state.turn:
        return "его предложение ничьей в этот ход отклонено: настаивать на нём нельзя (толкование I-43)"
    return None


def _offer_options(game: Game, player: str) -> list[dict[str, Any]]:
    if _may_offer(game, player) is not None:
        return []
    return [{"type": "offer_draw", "label": "предложить ничью"}]


def _check_offer(game: Game, player: str, action: dict[str, Any]) -> IllegalAction | None:
    if player not in PLAYERS:
        return IllegalAction("603.2", f"предложить ничью может только игрок партии, а не {player!r}")
    if set(action) != {"type"}:
        return IllegalAction("603.2", f"у действия 'offer_draw' нет других полей, кроме type: {action!r}")
    reason = _may_offer(game, player)
    if reason is not None:
        return IllegalAction("603.2", f"игрок {player} не может предложить ничью: {reason}")
    return None


def _offer(game: Game, player: str, action: dict[str, Any]) -> None:
    s = game.state
    game.log("draw_offer", f"Игрок {player} предлагает ничью", player=player, rule="603.2")
    saved, s.pending = s.pending, None  # the decision the offer interrupted waits underneath
    game.push(DrawOffer(player, saved))


actions.register_anytime(ActionKind("offer_draw", "предложить ничью", _offer_options, _check_offer, _offer))


@dataclass(slots=True)
class DrawOffer(Task):
    """603.2: the opponent accepts (the game ends in a draw, 603.1) or declines (the game goes on from
    the decision the offer interrupted)."""

    player: str  # who offered
    interrupted: Pending | None

    def options(self, game: Game) -> list[dict[str, Any]]:
        return [
            {"type": "accept_draw", "label": "принять ничью"},
            {"type": "decline_draw", "label": "отклонить ничью"},
        ]

    def run(self, game: Game) -> None:
        other = game.opponent(self.player)
        game.ask(
            self,
            other,
            "answer_draw",
            "603.2",
            f"Игрок {other}: игрок {self.player} предлагает ничью — принять или отклонить",
            self.options(game),
        )

    def answer(self, game: Game, player: str, action: dict[str, Any]) -> None:
        s = game.state
        if action["type"] == "accept_draw":
            game.log("draw_accepted", f"Игрок {player} принимает ничью", player=player, rule="603.1")
            game.end_game(winner=None, rule="603.1")
            return
        game.log(
            "draw_declined", f"Игрок {player} отклоняет ничью: игра продолжается", player=player, rule="603.2"
        )
        s.draw_declined[self.player] = s.turn
        s.pending = self.interrupted


def _no_fields(rule: str, kind: str):
    def check(game: Game, player: str, action: dict[str, Any]) -> IllegalAction | None:
        if set(action) != {"type"}:
            return IllegalAction(rule, f"у действия {kind!r} нет других полей, кроме type: {action!r}")
        return None

    return check


def _answer_options(game: Game, player: str) -> list[dict[str, Any]]:
    return DrawOffer("", None).options(game)


def _answered_by_task(game: Game, player: str, action: dict[str, Any]) -> None:
    """The asking task (DrawOffer) applies the answer itself."""


for _kind, _words in (("accept_draw", "принять ничью"), ("decline_draw", "отклонить ничью")):
    actions.register(
        ActionKind(_kind, _words, _answer_options, _no_fields("603.2", _kind), _answered_by_task)
    )


# --- the end of the game (604.2, 204.5) ------------------------------------------------------------


def _tidy_up(game: Game) -> None:
    """604.2: «По окончании игры все карты освобождаются от эффектов и возвращаются в колоду»; a card
    placed into another player's deck goes back to its owner's reserve (204.5). The heroes stay (they
    are not cards of a deck); the log keeps the final position."""
    s = game.state
    if s.effects:
        s.effects = []
        game.effects_changed()
    heroes = {p.hero for p in s.players.values()}
    placed = [c for p in s.players.values() for c in p.zones["deck"] if s.cards[c].owner != p.name]  # 204.5
    for card_id in placed:
        zones.move(game, card_id, "reserve", cause="game_over")
    out = [
        *(c for c in s.play if c not in heroes),
        *s.resolving,
        *(c for p in s.players.values() for z in ("hand", "graveyard") for c in p.zones[z]),
    ]
    for card_id in out:
        zones.move(game, card_id, "deck", cause="game_over", position="bottom")
    game.log(
        "cards_returned",
        "Игра окончена: все карты освобождаются от эффектов и возвращаются в колоды владельцев"
        + (f"; помещённые карты ({len(placed)}) — владельцам в запас" if placed else ""),
        rule="604.2",
        returned=len(out),
        placed=len(placed),
    )


hooks.GAME_OVER.append(_tidy_up)


# --- card text: «вы выиграли игру», «противник проиграл игру» ---------------------------------------


@dataclass(frozen=True, slots=True)
class GameOutcome:
    """602.1: «выполнилась особенность, текст которой говорит о том, что игрок выиграл игру или
    противник проиграл игру»; both players losing (or winning) at once is a draw (603.1)."""

    side: str  # "own" | "enemy" | "each"
    wins: bool

    def run(self, game: Game, item: QueueItem) -> None:
        if self.side == "each":
            game.end_game(winner=None, rule="603.1")
            return
        own = item.controller
        winner = own if (self.side == "own") == self.wins else game.opponent(own)
        game.end_game(winner=winner, rule="602.1")


serializable(GameOutcome)
task(DrawOffer)
upgrade(DrawOffer, "interrupted", Pending.load)  # snapshots of the first format: a plain dict
