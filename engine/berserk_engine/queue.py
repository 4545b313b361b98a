"""Part 4 — the Queue (Очередь): first in, first out.

* A triggered ability whose condition happened waits (401.4) until the current ability has finished
  (401.6) and is then declared by its controller into the Queue (401.3), wherever its source is now
  (401.5).
* Declaring goes in rounds (:class:`QueueRound`): the inactive player declares his waiting abilities
  in the order he chooses, then the active player (402.1); a player with nothing to declare — or who
  does not want to declare a not mandatory one — passes (401.7), and passing on a not mandatory
  ability forfeits it until its condition happens again.
* When both players have passed, the first ability leaves the Queue and resolves (401.7); triggers
  during that resolution go into the current Queue (401.2). The Queue is empty when it holds nothing
  and both players have passed (401.8): the game goes on to the next task.
* After every resolved ability the state is checked (:class:`StateCheck`, interpretation I-9):
  creatures with wounds ≥ lives die, a hero with wounds ≥ initial lives loses (602.1); and the
  resolution itself is an event (119.8).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from berserk_engine import actions, effects, selectors
from berserk_engine import characteristics as ch
from berserk_engine.actions import ActionKind
from berserk_engine.errors import IllegalAction
from berserk_engine.events import MoveEvent, ResolvedEvent, perform
from berserk_engine.grammar import parse_ability
from berserk_engine.state import PLAYERS, QueueItem
from berserk_engine.tasks import Task, task
from berserk_engine.zones import snapshot

if TYPE_CHECKING:
    from berserk_engine.abilities import Ability
    from berserk_engine.game import Game
    from berserk_engine.state import Card, PendingTrigger


def next_item(game: Game) -> QueueItem:
    """401.3: first in, first out — the first ability leaves the Queue."""
    return game.state.queue.pop(0)


def ability_of(item: QueueItem | PendingTrigger, spell: bool = False) -> Ability:
    cost_x = spell and "x" in item.event  # a spell whose cost's Х was named when it was played (I-66)
    key = (item.text, spell, cost_x)
    found = _ABILITIES.get(key)
    if found is None:
        if len(_ABILITIES) >= 4096:
            _ABILITIES.clear()
        found = _ABILITIES[key] = parse_ability(item.text, spell, cost_x=cost_x)
    return found


# (text, spell, cost Х) -> the ability: parse_ability keeps its answers too, but it is the card reader's
# (interpreted in the compiled engine), and the Queue asks for an ability each time one is declared or
# resolves — here a compiled lookup answers (the same words always mean the same ability)
_ABILITIES: dict[tuple[str, bool, bool], Ability] = {}


# --- rounds of declaring ---------------------------------------------------------------------


# Why this player declares now: the inactive player first, then by turns until both pass (402.1, 401.7).
DECLARING_ORDER = ("402.1", "401.7")


@dataclass(slots=True)
class QueueRound(Task):
    """Work the Queue through: rounds of declaring (inactive player first, 402.1), then the first
    ability resolves (401.7), until the Queue is empty (401.8)."""

    def options(self, game: Game) -> list[dict[str, Any]]:
        return declare_options(game, game.state.round[0])  # type: ignore[index]

    def run(self, game: Game) -> None:
        s = game.state
        if s.round is None:
            if not s.waiting and not s.queue:
                # Nothing waits and nothing is in the Queue: both players pass at once (401.7, I-1).
                game.log("queue_empty", "Очередь пуста", rule="401.8")
                s.lki.clear()
                return
            s.round = [game.inactive(), s.active]
        while s.round:
            player = s.round[0]
            options = declare_options(game, player)
            if options:
                game.ask(
                    self,
                    player,
                    "declare_trigger",
                    "401.7",
                    f"Игрок {player}: заявите срабатывающую способность или пасуйте",
                    options,
                    DECLARING_ORDER,
                )
                return
            auto_pass(game, player)
        s.round = None
        if s.queue:
            game.then(ResolveItem(next_item(game)), self)
            return
        game.log("queue_empty", "Очередь пуста", rule="401.8")
        if not s.waiting:
            s.lki.clear()  # nothing can refer to a card that left play any more

    def answer(self, game: Game, player: str, action: dict[str, Any]) -> None:
        game.push(self)  # the round goes on after whatever the declaration itself needs (517.3.1)
        actions.ACTIONS[action["type"]].apply(game, player, action)


@dataclass(slots=True)
class ResolveAll(Task):
    """307.1, 308.1, 309.1: what was just put into the Queue resolves at once, without declaring."""

    def run(self, game: Game) -> None:
        s = game.state
        if s.queue:
            game.then(ResolveItem(next_item(game)), self)


@dataclass(slots=True)
class ResolveItem(Task):
    """401.7: the first ability leaves the Queue and resolves."""

    item: QueueItem

    # written out, not generated: compiled, a generated __init__ runs interpreted (architecture.md)
    def __init__(self, item: QueueItem) -> None:
        self.item = item

    def run(self, game: Game) -> None:
        item = self.item
        source = game.state.cards.get(item.source)
        game.log(
            "resolve",
            f"Выполняется «{item.text}»",
            item=item.id,
            player=item.controller,
            rule="401.7",
            # an ability whose source has left play knows it by its last known information (403.1)
            deciding=["403.1", "401.5"]
            if item.kind == "triggered" and (source is None or source.zone != "play")
            else None,
        )
        after = (StateCheck(), Resolved(item))
        if item.kind in RESOLVERS:
            game.then(RESOLVERS[item.kind](item), *after)
        elif not item.paid:
            game.log(
                "not_resolved",
                f"«{item.text}» не выполняется: оплата прошла не полностью или была замещена",
                item=item.id,
                rule="501.2.1",
            )
        else:
            ability = ability_of(item, item.kind == "spell")
            game.then(effects.Resolve(ability.effect, item), *after)


@dataclass(slots=True)
class Resolved(Task):
    """119.8: a (partially) resolved ability counts as resolved; abilities that trigger on it fire."""

    item: QueueItem

    # written out, not generated: compiled, a generated __init__ runs interpreted (architecture.md)
    def __init__(self, item: QueueItem) -> None:
        self.item = item

    def run(self, game: Game) -> None:
        i = self.item
        perform(game, ResolvedEvent(i.id, i.text, i.controller, i.source, i.kind))


@dataclass(slots=True)
class StateCheck(Task):
    """Deaths and defeat (interpretation I-9): creatures with wounds ≥ lives die (Гибель — to the
    owner's graveyard); a hero with wounds ≥ initial lives loses (602.1); both at once — a draw (603.1)."""

    def run(self, game: Game) -> None:
        s = game.state
        game.state_check_due = False  # this check sees every change so far (Game.advance, I-9)
        dying = []
        effects = bool(s.effects)
        # lives other than the printed ones come from effects on the card or from constant abilities
        # of other cards (hooks.CHARACTERISTIC): with neither, a card without wounds keeps its printed
        # lives — its life is not recomputed
        lasting = effects and bool(game.handlers.CHARACTERISTIC)
        by_card, cards = game.by_card, s.cards
        # the creatures of the game zone in its order (the index the listing of actions keeps: made
        # afresh when it is not known)
        for card_id in game.in_play().creatures:
            card = cards[card_id]
            if not card.wounds and (
                not effects or (not lasting and card_id not in by_card and card.definition.life > 0)
            ):
                continue  # no wounds and no effect on its lives: a printed creature has at least 1 life
            if card.wounds >= ch.life(game, card):
                dying.append(card_id)
        players = s.players
        losers = []
        for p in PLAYERS:
            hero = cards[players[p].hero]
            if hero.wounds >= hero.definition.life:  # 602.1: «начальных жизней»
                losers.append(p)
        if losers:
            game.end_game(
                winner=None if len(losers) == 2 else game.opponent(losers[0]),
                rule="603.1" if len(losers) == 2 else "602.1",
            )
            return
        if dying:
            game.then(_Deaths(dying), StateCheck())


@dataclass(slots=True)
class _Deaths(Task):
    dying: list[str]

    # written out, not generated: compiled, a generated __init__ runs interpreted (architecture.md)
    def __init__(self, dying: list[str]) -> None:
        self.dying = dying

    def run(self, game: Game) -> None:
        perform(game, *(MoveEvent(c, "graveyard", "dies") for c in self.dying))


# Queue items of a kind that does not resolve as an ability, by kind -> the task that resolves it
# ("attack": a strike attack, berserk_engine.combat registers it).
RESOLVERS: dict[str, Any] = {}


def note_targets(game: Game, source: str, targets: list[str]) -> None:
    """Remember for the turn which cards the source has targeted — attacked or chosen as a target of
    its ability: its «целевые карты» (Игнорировать … целевой карты)."""
    s = game.state
    card = s.cards.get(source)
    if card is None:
        return
    for target_id in targets:
        target = s.cards.get(target_id)
        if target is not None:
            record = card.record()
            if target.serial not in record.targets:
                record.targets.append(target.serial)


# --- declaring and passing -------------------------------------------------------------------


def slot_options(
    game: Game, ability: Ability, controller: str, source: str, kind: str = "ability"
) -> list[dict[str, Any]] | None:
    """The slots of a declaration with their candidates; None when a slot has no legal target, or a
    group of slots that take different cards («двух разных существ») has fewer candidates than slots
    that must be filled (501.1: every target named is a legal one). A slot of «до N …» is ``optional``:
    it may stay empty (its place in ``targets`` holds null), so it may have no candidate at all (I-67)."""
    slots = []
    needed: dict[int, int] | None = None  # group -> slots of it that must be filled
    for sel in ability.slots:
        found = selectors.candidates(game, sel, controller, source, kind, ability)
        if not found and not sel.up_to:
            return None
        slot: dict[str, Any] = {"name": sel.words, "candidates": found, "ability": ability.text}
        if sel.group >= 0:
            slot["distinct"] = sel.group  # «двух разных существ»: slots of one group take different cards
            if not sel.up_to:
                needed = needed if needed is not None else {}
                needed[sel.group] = needed.get(sel.group, 0) + 1
                if len(found) < needed[sel.group]:
                    return None  # fewer different legal targets than the ability names
        if sel.up_to:
            slot["optional"] = True
        slots.append(slot)
    return slots


def limit_holder(game: Game, pending: PendingTrigger) -> Card | None:
    """The card that carries the «Х раз за ход» markers of a triggered ability (501.2): its source — the
    same object, or the same physical card in the game zone or the graveyard (interpretation I-16)."""
    s = game.state
    card = s.cards.get(pending.source)
    if card is not None:
        return card
    serial = pending.lki.get("serial")
    for card_id in (*s.play, *s.players[pending.lki.get("owner", pending.controller)].zones["graveyard"]):
        if s.cards[card_id].serial == serial:
            return s.cards[card_id]
    return None


def limit_reached(game: Game, pending: PendingTrigger, ability: Ability) -> bool:
    """501.2: the «Х раз за ход» limit is the payment of a triggered ability — a used-up limit means no
    declaration (the same markers as an activated ability's, interpretation I-16)."""
    if ability.cost is None or ability.cost.per_turn is None:
        return False
    card = limit_holder(game, pending)
    return card is not None and card.uses.get(ability.text, 0) >= ability.cost.per_turn


def declare_options(game: Game, player: str) -> list[dict[str, Any]]:
    s = game.state
    options: list[dict[str, Any]] = []
    mandatory = False
    for pending in s.waiting:
        if pending.controller != player:
            continue
        ability = ability_of(pending)
        if ability.cost is not None and limit_reached(game, pending, ability):
            continue
        slots = slot_options(game, ability, player, pending.source)
        if slots is None:
            continue
        option: dict[str, Any] = {
            "type": "declare",
            "trigger": pending.id,
            "about": {
                "ability": pending.text,
                "source": pending.source,
                "source_name": pending.source_name,
                "point": pending.point,
                "optional": ability.optional,
            },
            "label": f"заявить «{pending.text}» («{pending.source_name}», {pending.point})",
        }
        if slots:
            option["slots"] = slots
        options.append(option)
        mandatory = mandatory or not ability.optional
    if options and not mandatory:
        options.append({"type": "pass", "label": "пас"})
    return options


def auto_pass(game: Game, player: str) -> None:
    """401.7: a player who has no possibility to declare passes."""
    _drop_waiting(game, player, reason="не может заявить")
    game.state.round.pop(0)  # type: ignore[union-attr]
    game.log(
        "pass",
        f"Игрок {player} пасует (нечего заявить)",
        player=player,
        rule="401.7",
        auto=True,
        deciding=["401.7", "I-1"],
    )


def _drop_waiting(game: Game, player: str, *, reason: str) -> None:
    s = game.state
    mine = [p for p in s.waiting if p.controller == player]
    if not mine:
        return
    s.waiting = [p for p in s.waiting if p.controller != player]
    for pending in mine:
        game.log(
            "forfeit",
            f"Игрок {player} {reason} «{pending.text}» ({pending.point})",
            trigger=pending.id,
            player=player,
            rule="401.7",
        )


def _pass(game: Game, player: str, action: dict[str, Any]) -> None:
    """401.7: passing forfeits the not mandatory abilities he did not declare."""
    _drop_waiting(game, player, reason="утрачивает право заявить")
    game.state.round.pop(0)  # type: ignore[union-attr]
    game.log("pass", f"Игрок {player} пасует", player=player, rule="401.7")


def _declare(game: Game, player: str, action: dict[str, Any]) -> None:
    s = game.state
    pending = next(p for p in s.waiting if p.id == action["trigger"])
    ability = ability_of(pending)
    if actions.declaration_step(game, "declare", player, action, (ability,)):
        return  # 517.3.1: the declaration looks through the deck first
    s.waiting.remove(pending)
    if ability.cost is not None and ability.cost.per_turn is not None:
        holder = limit_holder(game, pending)
        if holder is not None:  # 501.2: the payment of a triggered ability is its per-turn limit
            holder.uses[ability.text] = holder.uses.get(ability.text, 0) + 1
    card = s.cards.get(pending.source)
    item = QueueItem(
        id=s.next_id("q"),
        kind="triggered",
        controller=player,
        source=pending.source,
        source_name=pending.source_name,
        text=pending.text,
        targets=actions.slot_targets(action),
        point=pending.point,
        lki=snapshot(game, card) if card is not None and card.zone == "play" else pending.lki,
        event=dict(pending.event),
    )
    if "summon" in action:
        item.event["summon"] = action["summon"]
    s.queue.append(item)  # 401.3: first in, first out
    note_targets(game, item.source, item.targets)
    game.log(
        "declare",
        f"Игрок {player} заявляет «{item.text}» («{item.source_name}») — в Очереди {len(s.queue)}-й",
        item=item.id,
        player=player,
        rule="401.3",
    )


def _check_declare(game: Game, player: str, action: dict[str, Any]) -> IllegalAction | None:
    s = game.state
    trigger_id = action.get("trigger")
    pending = next((p for p in s.waiting if p.id == trigger_id), None)
    if pending is None:
        return IllegalAction(
            "401.7",
            f"способности {trigger_id!r} нет среди ожидающих заявления: "
            "игрок, спасовавший на её заявление, утратил право заявлять её, "
            "пока ещё раз не выполнится условие срабатывания",
        )
    if pending.controller != player:
        return IllegalAction("402.1", f"способность «{pending.text}» заявляет игрок {pending.controller}")
    ability = ability_of(pending)
    if ability.cost is not None and limit_reached(game, pending, ability):
        return IllegalAction("501.2", f"«{pending.text}» уже заявлена {ability.cost.per_turn} раз(а) за ход")
    slots = slot_options(game, ability, player, pending.source)
    return actions.target_problem(action, {"trigger"}, slots, f"«{pending.text}»")


def _check_pass(game: Game, player: str, action: dict[str, Any]) -> IllegalAction | None:
    if set(action) - {"type"}:
        return IllegalAction("401.7", f"у паса нет других полей, кроме type: {action!r}")
    options = declare_options(game, player)
    if any(o["type"] == "declare" and not o["about"]["optional"] for o in options):
        return IllegalAction(
            "401.7",
            "нельзя пасовать, пока есть обязательная срабатывающая способность, которую игрок может заявить",
        )
    return None


def _declare_only(game: Game, player: str) -> list[dict[str, Any]]:
    return [o for o in declare_options(game, player) if o["type"] == "declare"]


def _pass_only(game: Game, player: str) -> list[dict[str, Any]]:
    return [o for o in declare_options(game, player) if o["type"] == "pass"]


actions.register(
    ActionKind("declare", "заявка срабатывающей способности", _declare_only, _check_declare, _declare)
)
actions.register(ActionKind("pass", "пас", _pass_only, _check_pass, _pass))

task(QueueRound, ResolveAll, ResolveItem, Resolved, StateCheck, _Deaths)
