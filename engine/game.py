"""The game: a state machine that stops only where a player must decide.

* :meth:`Game.decision` — who must decide now, what kind of decision, and every legal option;
* :meth:`Game.act` — the answer; an illegal one raises :class:`IllegalAction` citing the rule and
  leaves the state exactly as it was (the action is checked against the legal options before
  anything changes);
* :meth:`Game.observe` — what one player may see (hidden zones stay hidden).

The engine never chooses for a player. It only passes for a player who has nothing at all to
declare (401.7 «не имеет возможности»), which is interpretation I-1.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

from berserk_engine import combat, queue, turn
from berserk_engine.errors import IllegalAction
from berserk_engine.observation import observe
from berserk_engine.state import PLAYERS, GameState, QueueItem, StrikeModifier


@dataclass
class Decision:
    seq: int  # how many decisions were answered before this one: tells a stale answer from a fresh one
    player: str
    kind: str  # "choose_action" | "declare_trigger" | "assign_defender"
    rule: str
    prompt: str
    options: list[dict[str, Any]] = field(default_factory=list)

    def to_json(self) -> dict[str, Any]:
        return {
            "seq": self.seq,
            "player": self.player,
            "kind": self.kind,
            "rule": self.rule,
            "prompt": self.prompt,
            "options": self.options,
        }


TARGETED = ("declare", "activate", "play")


def _canonical(action: dict[str, Any]) -> str:
    """An action as comparable text: words for people (``label``, ``about``) left out, ``targets``
    defaulting to none."""
    core = {k: v for k, v in action.items() if k not in ("label", "about")}
    if core.get("type") in TARGETED:
        core.setdefault("targets", [])
    return json.dumps(core, sort_keys=True, ensure_ascii=False, default=repr)


class Game:
    def __init__(self, state: GameState) -> None:
        self.state = state
        self._advance()

    # --- helpers used by the mechanics --------------------------------------------------------

    def opponent(self, player: str) -> str:
        return PLAYERS[1] if player == PLAYERS[0] else PLAYERS[0]

    def inactive(self) -> str:
        return self.opponent(self.state.active)

    def log(self, event: str, text: str, *, private_to: str | None = None, **data: Any) -> None:
        """Record an event. With ``private_to``, the event's details (``data``) are for that player
        only: the other player's log shows the event and its text, not which card it was."""
        s = self.state
        entry = {"seq": len(s.log) + 1, "turn": s.turn, "event": event, "text": text, **data}
        if private_to is not None:
            entry["private_to"] = private_to
        s.log.append(entry)

    def log_for(self, viewer: str | None) -> list[dict[str, Any]]:
        """The log as ``viewer`` may see it (None: the judge's full log)."""
        shown = []
        for entry in self.state.log:
            owner = entry.get("private_to")
            if owner is None or viewer is None or viewer == owner:
                shown.append(dict(entry))
            else:
                public = ("seq", "turn", "event", "text", "player", "rule")
                shown.append({k: v for k, v in entry.items() if k in public})
        return shown

    def source_info(self, item: QueueItem) -> dict[str, Any]:
        """Information about an ability's source on resolution (403.1): the card as it is if it is
        still the same object in the game zone, otherwise its last known information."""
        card = self.state.cards[item.source]
        if card.zone == "play" and card.incarnation == item.source_incarnation:
            return card.snapshot()
        return self.state.left_play.get(f"{item.source}#{item.source_incarnation}", item.lki)

    def wound(self, card_id: str, amount: int, item: QueueItem, text: str = "") -> None:
        card = self.state.cards[card_id]
        if amount <= 0:
            return
        card.wounds += amount
        self.log(
            "wound",
            f"«{card.name}» получает ран: {amount}" + (f" ({text})" if text else ""),
            card=card_id,
            amount=amount,
            item=item.id,
        )

    def heal(self, card_id: str, amount: int, item: QueueItem) -> None:
        card = self.state.cards[card_id]
        removed = min(amount, card.wounds)  # 518.2
        card.wounds -= removed
        self.log("heal", f"С «{card.name}» снято ран: {removed}", card=card_id, amount=removed, rule="518.2")

    def draw(self, player: str, count: int, *, reason: str) -> None:
        p = self.state.players[player]
        for _ in range(count):
            if not p.zones["deck"]:
                self.log("deck_empty", f"У игрока {player} в колоде нет карт", player=player, rule="518.3")
                return
            card_id = p.zones["deck"].pop(0)
            p.zones["hand"].append(card_id)
            card = self.state.cards[card_id]
            card.zone = "hand"
            card.incarnation += 1
            self.log(
                "draw",
                f"Игрок {player} берёт карту ({reason})",
                player=player,
                card=card_id,
                private_to=player,
            )

    def add_strike_bonus(self, card_id: str, amount: int, item: QueueItem) -> None:
        card = self.state.cards[card_id]
        card.modifiers.append(StrikeModifier(amount, until_end_of_turn=True, source=item.text))
        self.log("strike_bonus", f"«{card.name}» получает +{amount} к удару до конца хода", card=card_id)

    def end_game(self, *, winner: str | None, rule: str) -> None:
        s = self.state
        s.result = {"winner": winner, "draw": winner is None, "rule": rule}
        s.phase = "over"
        s.round = None
        self.log(
            "game_over", "Ничья" if winner is None else f"Победа игрока {winner}", rule=rule, winner=winner
        )

    def check_deaths(self) -> None:
        """Creatures with wounds ≥ lives die (Гибель); a hero with wounds ≥ initial lives loses (602.1)."""
        s = self.state
        dying = [c for c in s.play if s.cards[c].type == "creature" and s.cards[c].wounds >= s.cards[c].life]
        witnesses = list(s.play)  # who was in the game zone when they died (I-11)
        last_known = {card_id: s.cards[card_id].snapshot() for card_id in dying}
        for card_id in dying:
            card = s.cards[card_id]
            s.left_play[f"{card_id}#{card.incarnation}"] = last_known[card_id]
            s.play.remove(card_id)
            card.zone = "graveyard"
            card.incarnation += 1
            card.wounds = 0
            card.closed = False
            card.markers.clear()
            card.modifiers.clear()
            card.controller = card.owner
            s.players[card.owner].zones["graveyard"].append(card_id)
            self.log("dies", f"«{card.name}» погибает", card=card_id, rule="Гибель")
        for card_id in dying:
            point = f"гибель «{s.cards[card_id].name}»"
            queue.fire(self, "dies", point=point, sources=[card_id], left_play=last_known)
            others = [w for w in witnesses if w != card_id]
            queue.fire(self, "creature_dies", point=point, sources=others, left_play=last_known)
        losers = [p for p in PLAYERS if s.cards[s.players[p].hero].wounds >= s.cards[s.players[p].hero].life]
        if len(losers) == 2:
            self.end_game(winner=None, rule="603.1")
        elif losers:
            self.end_game(winner=self.opponent(losers[0]), rule="602.1")

    def resolve_immediately(self, *, after: str) -> None:
        """307.1, 308.1, 309.1: what was just put into the Queue resolves at once."""
        s = self.state
        while s.queue and s.result is None:
            queue.resolve_first(self)
        if s.result is None:
            queue.open_round(self, after=after)

    def continue_after_queue(self, after: str | None) -> None:
        if after == "main":
            turn.main_stage(self)
        elif after == "choice":
            turn.back_to_choice(self)
        elif after == "end_cleanup":
            turn.end_cleanup(self)
        else:  # pragma: no cover - a programming error
            raise AssertionError(f"unknown continuation {after!r}")

    # --- the state machine ----------------------------------------------------------------

    def _advance(self) -> None:
        s = self.state
        while s.result is None:
            if s.round is not None:
                if not queue.step(self):
                    return
            elif s.pending_attack is not None or s.phase == "choice":
                return
            elif s.phase == "restoration":
                turn.restoration(self)
            elif s.phase == "accumulation":
                turn.accumulation(self)
            else:  # pragma: no cover - a programming error
                raise AssertionError(f"no step for phase {s.phase!r}")

    def decision(self) -> Decision | None:
        s = self.state
        if s.result is not None:
            return None
        if s.round:
            player = s.round[0]
            return Decision(
                s.answered,
                player,
                "declare_trigger",
                "401.7",
                f"Игрок {player}: заявите срабатывающую способность или пасуйте",
                queue.declare_options(self, player),
            )
        if s.pending_attack is not None:
            player = self.inactive()
            return Decision(
                s.answered,
                player,
                "assign_defender",
                "307.1",
                f"Игрок {player}: назначьте защитника или откажитесь",
                combat.defender_options(self),
            )
        if s.phase == "choice":
            return Decision(
                s.answered,
                s.active,
                "choose_action",
                "306.1",
                f"Игрок {s.active}: выберите действие фазы выбора",
                self._choice_options(),
            )
        return None  # pragma: no cover - _advance never stops elsewhere

    def legal_actions(self) -> list[dict[str, Any]]:
        d = self.decision()
        return d.options if d else []

    def act(self, player: str, action: dict[str, Any]) -> None:
        d = self.decision()
        if d is None:
            raise IllegalAction("604.1", "игра окончена: никакие действия не могут повлиять на неё")
        if player != d.player:
            rule = "402.1" if d.kind == "declare_trigger" else d.rule
            raise IllegalAction(rule, f"сейчас решение принимает игрок {d.player}, а не {player}: {d.prompt}")
        if not isinstance(action, dict) or not isinstance(action.get("type"), str):
            raise IllegalAction(d.rule, f"действие должно быть словарём с полем type, получено {action!r}")
        wanted = _canonical(action)
        if not any(_canonical(o) == wanted for o in d.options):
            raise self._explain(d, action)
        self._apply(player, d, {**action, "targets": list(action.get("targets") or [])})
        self.state.answered += 1
        self._advance()

    # --- the choice phase (306) -------------------------------------------------------------

    def _choice_options(self) -> list[dict[str, Any]]:
        from berserk_engine import activation, playing

        return [
            *combat.attack_options(self),
            *activation.activate_options(self),
            *playing.play_options(self),
            {"type": "end_turn", "label": "передать ход противнику"},
        ]

    def _apply(self, player: str, d: Decision, action: dict[str, Any]) -> None:
        from berserk_engine import activation, playing

        kind = action["type"]
        if kind == "declare":
            queue.declare(self, player, action["trigger"], list(action.get("targets", [])))
        elif kind == "pass":
            queue.pass_(self, player)
        elif kind == "no_defender":
            combat.assign_defender(self, None)
        elif kind == "defend":
            combat.assign_defender(self, action["defender"])
        elif kind == "attack":
            combat.declare_attack(self, action["attacker"], action["target"])
        elif kind == "activate":
            activation.activate(self, action["card"], str(action["ability"]), list(action.get("targets", [])))
        elif kind == "play":
            playing.play(self, action["card"], list(action.get("targets", [])))
        elif kind == "end_turn":
            turn.end_turn(self)
        else:  # pragma: no cover - options only hold the kinds above
            raise AssertionError(kind)

    def _explain(self, d: Decision, action: dict[str, Any]) -> IllegalAction:
        from berserk_engine import activation, playing

        kind = action.get("type")
        if kind == "declare":  # outside the Queue too: a forfeited ability stays forfeited (401.7)
            return queue.explain_declare(self, d.player, action)
        if d.kind == "declare_trigger":
            if kind == "pass":
                return queue.explain_declare(self, d.player, action)
            return IllegalAction(
                "401.7",
                "пока Очередь выполняется, игрок может только заявить срабатывающую способность или пасовать",
            )
        if d.kind == "assign_defender":
            if kind in ("defend", "no_defender"):
                return combat.explain_defender(self, action)
            return IllegalAction("307.1", "неактивный игрок сейчас может только назначить защитника")
        if kind in ("end_turn", "pass", "no_defender") and any(o["type"] == kind for o in d.options):
            return IllegalAction(d.rule, f"у действия {kind!r} нет других полей, кроме type: {action!r}")
        if kind == "attack":
            return combat.explain_attack(self, action)
        if kind == "activate":
            return activation.explain(self, action)
        if kind == "play":
            return playing.explain(self, action)
        return IllegalAction(
            "306.1",
            f"в фазе выбора нельзя {kind!r}: можно атаковать ударом, объявить "
            "активируемую способность, разыграть карту или передать ход",
        )

    # --- observation ------------------------------------------------------------------------

    def observe(self, player: str | None) -> dict[str, Any]:
        return observe(self, player)
