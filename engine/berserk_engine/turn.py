"""Part 3 — the structure of a turn, as tasks of the resolution stack.

Начало хода: фаза восстановления (303) → фаза накопления (304) → основной этап (305) с фазой
выбора (306) и фазами атаки ударом (307), активируемых способностей (308), розыгрыша карты (309)
→ этап конца хода (310, «315» in the other edition).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from berserk_engine import actions, hooks
from berserk_engine import characteristics as ch
from berserk_engine.actions import ActionKind
from berserk_engine.events import CloseEvent, DrawEvent, Perform, TurnEvent, perform
from berserk_engine.queue import QueueRound
from berserk_engine.state import MAX_COINS
from berserk_engine.tasks import Task, task

if TYPE_CHECKING:
    from berserk_engine.game import Game

DRAW_FAILURES_TO_LOSE = 3  # 304.2


@dataclass(slots=True)
class Restoration(Task):
    """303: the active player opens his cards (hero included) and coin markers; «Х раз за ход»
    abilities can be used again (303.2)."""

    def run(self, game: Game) -> None:
        s = game.state
        s.phase = "restoration"
        game.log("phase", "Фаза восстановления", phase="restoration", rule="303")
        closed = [c for c in s.play if s.cards[c].controller == s.active and s.cards[c].closed]
        if closed:  # an event each (Открытие карты): what triggers on it waits for 304.3
            game.then(Perform([CloseEvent(c, open=True, rule="303.1") for c in closed]), Restored())
        else:
            Restored().run(game)


@dataclass(slots=True)
class Restored(Task):
    """303.1 (the coin markers), 303.2 (the per-turn limits), then the accumulation phase."""

    def run(self, game: Game) -> None:
        s = game.state
        player = s.players[s.active]
        if player.coins_closed:
            game.log("coins_open", f"Открываются маркеры монет: {player.coins_closed}", rule="303.1")
            player.coins_open += player.coins_closed
            player.coins_closed = 0
        # 303.2 and «Один (Х) раз за ход»: «Перед началом хода карта теряет эти маркеры» (I-8) — only
        # the per-turn limits; other markers (wounds …) stay.
        for card in s.cards.values():
            if card.uses:
                card.uses.clear()
                game.log(
                    "markers_reset", f"«{card.name}» теряет маркеры «раз за ход»", card=card.id, rule="303.2"
                )
            if card.this_turn:
                card.this_turn = None
        for each in s.players.values():  # «карт, которые вы взяли в этот ход» counts from zero (I-88)
            each.drawn_this_turn = 0
            each.played_this_turn = 0  # «Первая карта … в его следующий ход» (I-105)
        ch.turn_begins(game)
        restoration = game.handlers.RESTORATION
        if restoration:
            game.then(*[t for h in restoration for t in h(game)], Accumulation())
        else:
            game.then(Accumulation())


@dataclass(slots=True)
class Accumulation(Task):
    """304: a coin marker, a card, then «В начале хода» triggers into the Queue."""

    def run(self, game: Game) -> None:
        s = game.state
        s.phase = "accumulation"
        game.log("phase", "Фаза накопления", phase="accumulation", rule="304")
        player = s.players[s.active]
        if player.coins < MAX_COINS:  # 304.1
            player.coins_open += 1
            game.log(
                "coin", f"Игрок {s.active} получает открытый маркер монеты", player=s.active, rule="304.1"
            )
        draw = []
        if not (s.turn == 1 and s.active == s.first_player):  # 304.2
            draw.append(Perform([DrawEvent(s.active, "фаза накопления", accumulation=True)]))
        game.then(*draw, TurnPoint(end=False), QueueRound(), MainStage())


def draw_failed(game: Game, player: str) -> None:
    """304.2: the third failure to draw in the accumulation phase loses the game."""
    p = game.state.players[player]
    p.draw_failures += 1
    game.log(
        "draw_failures",
        f"Игрок {player} не смог взять карту ({p.draw_failures}-й раз за игру)",
        player=player,
        failures=p.draw_failures,
        rule="304.2",
    )
    if p.draw_failures >= DRAW_FAILURES_TO_LOSE:
        game.end_game(winner=game.opponent(player), rule="304.2")


hooks.DRAW_FAILED.append(draw_failed)


@dataclass(slots=True)
class TurnPoint(Task):
    """The condition «в начале хода» (304.3) or «в конце хода» (310.1) happens."""

    end: bool = False

    # written out, not generated: compiled, a generated __init__ runs interpreted (architecture.md)
    def __init__(self, end: bool = False) -> None:
        self.end = end

    def run(self, game: Game) -> None:
        s = game.state
        perform(game, TurnEvent(s.active, s.turn, end=self.end))


@dataclass(slots=True)
class MainStage(Task):
    """305.2: the main stage begins with the choice phase."""

    def run(self, game: Game) -> None:
        game.log("phase", "Основной этап: фаза выбора", phase="choice", rule="305.2")
        game.then(ChoicePhase(back=False))


@dataclass(slots=True)
class ChoicePhase(Task):
    """306.1: the active player chooses an action. 307.3, 308.3, 309.3: when the Queue is empty after
    an action, the game comes back here."""

    back: bool = True

    # written out, not generated: compiled, a generated __init__ runs interpreted (architecture.md)
    def __init__(self, back: bool = True) -> None:
        self.back = back

    def run(self, game: Game) -> None:
        s = game.state
        if self.back:
            game.log("phase", "Фаза выбора", phase="choice", rule="306")
            self.back = False
        s.phase = "choice"
        game.ask(
            self,
            s.active,
            "choose_action",
            "306.1",
            f"Игрок {s.active}: выберите действие фазы выбора",
            self.options(game),
        )

    def options(self, game: Game) -> list[dict[str, Any]]:
        return actions.options_for(game, "choose_action", game.state.active)

    def answer(self, game: Game, player: str, action: dict[str, Any]) -> None:
        if action["type"] != "end_turn":
            game.push(ChoicePhase(back=True))
        actions.ACTIONS[action["type"]].apply(game, player, action)


@dataclass(slots=True)
class EndTurn(Task):
    """306.1 «передать ход противнику» → 310.1: «в конце хода» triggers enter the Queue."""

    def run(self, game: Game) -> None:
        s = game.state
        s.phase = "end"
        game.log("phase", "Этап конца хода", phase="end", rule="310")
        game.then(TurnPoint(end=True), QueueRound(), EndCleanup())


@dataclass(slots=True)
class EndCleanup(Task):
    """310.2: «до конца хода» effects end (and what their end brings about — a temporary control ends,
    517.5); 310.3: the players swap and the next turn begins. Between the two, deaths are checked
    (``Game.advance``, I-9): lives may have fallen with the effects that ended.

    ``again``: the end step goes on after a Queue that those deaths filled — effects «до конца хода»
    end again, but a «на Х ходов игрока» effect does not count this turn twice."""

    again: bool = False

    # written out, not generated: compiled, a generated __init__ runs interpreted (architecture.md)
    def __init__(self, again: bool = False) -> None:
        self.again = again

    def run(self, game: Game) -> None:
        ended = ch.end_of_turn(game) if self.again else ch.end_of_turn(game) + ch.turn_ends(game)
        events = [e for h in game.handlers.EFFECTS_ENDED for e in h(game, ended)] if ended else []
        if events:
            game.then(Perform(events), NextTurn())
        else:
            game.then(NextTurn())


@dataclass(slots=True)
class NextTurn(Task):
    """310.3: the players swap and the next turn begins — once the Queue is empty (310.2): abilities that
    triggered at the end of the effects (a creature died, I-9) are declared and resolved first."""

    def run(self, game: Game) -> None:
        s = game.state
        if s.waiting or s.queue:
            game.then(QueueRound(), EndCleanup(again=True))
            return
        s.active = game.opponent(s.active)
        game.state_check_due = True  # «на Х ходов игрока» effects apply only while that player is active
        s.turn += 1
        game.log("turn", f"Ход переходит к игроку {s.active} (ход {s.turn})", player=s.active, rule="310.3")
        game.then(Restoration())


def _end_turn_options(game: Game, player: str) -> list[dict[str, Any]]:
    return [{"type": "end_turn", "label": "передать ход противнику"}]


def _end_turn_check(game: Game, player: str, action: dict[str, Any]):
    from berserk_engine.errors import IllegalAction

    if set(action) - {"type"}:
        return IllegalAction("306.1", f"у действия 'end_turn' нет других полей, кроме type: {action!r}")
    return None


def _end_turn(game: Game, player: str, action: dict[str, Any]) -> None:
    game.push(EndTurn())


actions.register(ActionKind("end_turn", "передача хода", _end_turn_options, _end_turn_check, _end_turn))

task(Restoration, Restored, Accumulation, TurnPoint, MainStage, ChoicePhase, EndTurn, EndCleanup, NextTurn)
