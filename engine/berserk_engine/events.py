"""Typed events and the one pipeline every change of state goes through.

An event says what is about to happen (a card takes wounds, is healed, draws, moves to another zone,
closes …). :func:`perform` takes a batch of simultaneous events through the same stages, in this order:

1. **replacement** (``hooks.REPLACEMENTS``, Эффект замещения; the :class:`Perform` task): an event may
   be replaced by others; when a player can apply several replacements he chooses which (the active
   player when both can), and the result may be replaced again by another replacement (never by the
   same one twice) — this is the one place a change of state may stop for a player's choice;
2. **the change** itself, event by event (``APPLY``, :func:`perform_now`), with a log entry; for a
   wound first whether the card takes wounds at all (``hooks.NO_WOUNDS``), then **modification and
   prevention** (``hooks.WOUND_AMOUNT``, ``hooks.WOUND_PREVENTION``): «Уязвимость» adds a wound,
   «Броня Х» prevents the first X wounds of attacks (Предотвращение);
3. **trigger collection** (:mod:`berserk_engine.triggers`) over the events that happened: triggered
   abilities whose condition is the event start waiting to be declared (401.4);
4. **entering a squad** (``hooks.ENTERED_SQUAD``): cards that came into a squad may bring further
   events, which go through the pipeline in their turn.

Triggers match events, not strings: a wound knows its source, its amount and whether it comes from an
attack; a heal knows how many wounds it actually removed; a draw knows whether it failed.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from berserk_engine import zones
from berserk_engine.event_types import (
    AttackEvent,
    BlowEvent,
    CloseEvent,
    DrawEvent,
    HealEvent,
    LivesEvent,
    MoveEvent,
    PlayEvent,
    ResolvedEvent,
    TurnEvent,
    WoundEvent,
)
from berserk_engine.tasks import Task, task

if TYPE_CHECKING:
    from berserk_engine.game import Game


# --- replacement effects ------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Replacement:
    """A replacement effect that could apply to an event: ``key`` identifies it (an event is never
    replaced twice by the same one), ``controller`` chooses it, ``replace(game, event)`` returns the
    events that happen instead (possibly none)."""

    key: str
    controller: str
    label: str
    replace: Any  # Callable[[Game, event], list[event]]
    source: str = ""  # the card whose ability it is (for the player's choice: «about»)
    source_name: str = ""
    ability: str = ""


def replacing(game: Game) -> bool:
    """Can a replacement effect apply to anything in this game (``Game.handlers``: known once per game)?"""
    return bool(game.handlers.REPLACEMENTS)


def replacements(game: Game, event: Any) -> list[Replacement]:
    found: list[Replacement] = []
    for handler in game.handlers.REPLACEMENTS:
        offered = handler(game, event)
        if offered:
            found.extend(r for r in offered if r.key not in event.applied)
    return found


# --- the pipeline -------------------------------------------------------------------------------


@dataclass(slots=True)
class Perform(Task):
    """Take simultaneous events through replacement, then (:func:`perform_now`) the change with its
    prevention, the log and trigger collection.

    ``index`` is the next event to pass through replacement; ``ready`` holds the events that came
    through it. A choice among replacements stops the task here and resumes at the same event.
    """

    events: list[Any]
    index: int = 0
    ready: list[Any] = field(default_factory=list)
    choice: list[str] = field(default_factory=list)  # replacement keys offered in the pending decision

    # written out, not generated: compiled, a generated __init__ runs interpreted (architecture.md)
    def __init__(
        self,
        events: list[Any],
        index: int = 0,
        ready: list[Any] | None = None,
        choice: list[str] | None = None,
    ) -> None:
        self.events = events
        self.index = index
        self.ready = [] if ready is None else ready
        self.choice = [] if choice is None else choice

    def run(self, game: Game) -> None:
        if not replacing(game):
            perform_now(game, self.events)
            return
        while self.index < len(self.events):
            event = self.events[self.index]
            found = replacements(game, event)
            if not found:
                self.ready.append(event)
                self.index += 1
                continue
            chooser = _chooser(game, found)
            if len(found) == 1:
                self._replace(game, event, found[0])
                continue
            self.choice = [r.key for r in found]
            game.ask(
                self,
                chooser,
                "choose",
                "эффект-замещения",
                f"Игрок {chooser}: выберите, какой эффект замещения применить",
                self.options(game),
                ("эффект-замещения", "I-44"),
            )
            return
        perform_now(game, self.ready)

    def choice_keys(self, game: Game) -> list[str]:
        return list(self.choice)

    def options(self, game: Game) -> list[dict[str, Any]]:
        found = {r.key: r for r in replacements(game, self.events[self.index])}
        return [
            {
                "type": "choose",
                "choice": k,
                "label": found[k].label,
                "about": {
                    "source": found[k].source,
                    "source_name": found[k].source_name,
                    "ability": found[k].ability,
                    "controller": found[k].controller,
                },
            }
            for k in self.choice
        ]

    def answer(self, game: Game, player: str, action: dict[str, Any]) -> None:
        event = self.events[self.index]
        chosen = next(r for r in replacements(game, event) if r.key == action["choice"])
        self.choice = []
        self._replace(game, event, chosen)
        self.run(game)

    def _replace(self, game: Game, event: Any, replacement: Replacement) -> None:
        instead = replacement.replace(game, event)
        game.log(
            "replaced",
            f"Эффект замещения: {replacement.label}",
            rule="эффект-замещения",
            player=replacement.controller,
            card=replacement.source,
        )
        if getattr(event, "paying", ""):
            unpaid(game, event.paying, "к оплате применён эффект замещения")
        for new in instead:
            new.applied = (*event.applied, replacement.key)
        self.events[self.index : self.index + 1] = instead


def unpaid(game: Game, item_id: str, why: str) -> None:
    """501.2.1: the payment of a declared ability was incomplete or replaced — it will not resolve."""
    item = next((q for q in game.state.queue if q.id == item_id), None)
    if item is not None and item.paid:
        item.paid = False
        game.log("unpaid", f"Оплата «{item.text}» не полная: {why}", item=item.id, rule="501.2.1")


def _chooser(game: Game, found: list[Replacement]) -> str:
    """Эффект замещения: the player who can apply them; when both can, the active player chooses
    which one is applied — his own or his opponent's (5.замещение.3)."""
    controllers = {r.controller for r in found}
    if len(controllers) > 1:
        return game.state.active
    return next(iter(controllers))


def perform(game: Game, *events: Any) -> None:
    """The events happen (simultaneously). When a replacement effect could apply to one of them, they
    go through a :class:`Perform` task, which may stop for a player's choice — so a task calls this
    as the last thing it does, and nothing it wants to happen afterwards is pushed after it."""
    if game.handlers.REPLACEMENTS and any(replacements(game, e) for e in events):  # replacing(game)
        game.push(Perform(list(events)))
    else:
        perform_now(game, list(events))


def perform_now(game: Game, events: list[Any]) -> None:
    """Apply events that have come through replacement: prevention, the change, the log, triggers."""
    s = game.state
    before = None
    for e in events:
        if type(e) is MoveEvent:
            before = list(s.play)  # who was in the game zone when cards left it (I-11)
            break
    done = []
    for event in events:
        if APPLY[type(event)](game, event):
            done.append(event)
    if s.result is None and done:
        for collect in AFTER_EVENTS:
            collect(game, done, before)
        squad = game.handlers.ENTERED_SQUAD
        if squad and any(_enters_squad(e) for e in done):
            extra = [e for handler in squad for e in handler(game, done)]
            if extra:
                perform(game, *extra)


# (game, done: list of events that happened, before: the game zone before them or None) -> None: what
# follows every batch of events — trigger collection (401.4), registered by berserk_engine.triggers.
AFTER_EVENTS: list[Any] = []

# Events other than a move into the game zone that take a card into a squad (a change of control).
SQUAD_EVENTS: set[type] = set()


def _enters_squad(event: Any) -> bool:
    """Взять карту в отряд: the card comes into a player's squad — it enters the game zone, or
    another player takes control of it (``SQUAD_EVENTS``)."""
    return (type(event) is MoveEvent and event.to_zone == "play") or type(event) in SQUAD_EVENTS


# --- the changes --------------------------------------------------------------------------------


def _in_play(game: Game, card_id: str):
    card = game.state.cards.get(card_id)
    return card if card is not None and card.zone == "play" else None


def apply_wound(game: Game, ev: WoundEvent) -> bool:
    card = _in_play(game, ev.target)
    if card is None or ev.amount <= 0:  # 518.1: as far as possible
        if card is None and ev.paying:
            unpaid(game, ev.paying, "карты, которая платит ранами, нет в игровой зоне")
        return ev.amount == 0 and card is not None
    for handler in game.handlers.NO_WOUNDS:
        why = handler(game, ev)
        if why:
            rule, words = why
            game.log("no_wounds", f"«{game.name(card)}» не получает ран: {words}", card=card.id, rule=rule)
            if ev.paying:
                unpaid(game, ev.paying, words)
            return False
    amount = ev.amount
    for handler in game.handlers.WOUND_AMOUNT:
        amount += handler(game, ev)
    for handler in game.handlers.WOUND_PREVENTION:
        if amount <= 0:
            break
        prevented = handler(game, ev, amount)
        if prevented:
            ev.prevented += prevented
            amount -= prevented
    ev.dealt = max(amount, 0)
    if ev.paying and ev.dealt < ev.amount:
        unpaid(game, ev.paying, f"нанесено ран {ev.dealt} из {ev.amount}")
    if ev.prevented:
        game.log(
            "prevented",
            f"Предотвращено ран на «{game.name(card)}»: {ev.prevented}",
            card=card.id,
            amount=ev.prevented,
            rule="предотвращение",
        )
    if ev.dealt <= 0:
        return False
    card.wounds += ev.dealt
    card.record().wounded += ev.dealt
    _note_wounder(game, card, ev.source)
    label = f" ({ev.blow})" if ev.blow else (" (оплата)" if ev.cost else "")
    game.log(
        "wound",
        f"«{game.name(card)}» получает ран: {ev.dealt}{label}",
        card=card.id,
        amount=ev.dealt,
        source=ev.source,
        attack=ev.attack,
        rule="раны",
    )
    return True


def _note_wounder(game: Game, card: Any, source: str | None) -> None:
    s = game.state
    found = s.cards.get(source) if source else None
    serial = (
        found.serial if found is not None else (s.lki.get(source) or {}).get("serial") if source else None
    )
    # The physical card whose wounds were the last dealt to it this turn: the one that kills it if it
    # dies of them («убивает», interpretation I-60).
    card.record().wounded_by = serial


def apply_heal(game: Game, ev: HealEvent) -> bool:
    card = _in_play(game, ev.target)
    if card is None:
        return False
    for handler in game.handlers.HEAL_BLOCKED:
        if handler(game, ev):
            game.log("heal_blocked", f"«{game.name(card)}» не может быть излечено", card=card.id)
            return False
    wounds = card.wounds
    ev.removed = wounds if ev.full else min(ev.amount, wounds)  # 518.2
    card.wounds = wounds - ev.removed
    game.log(
        "heal",
        f"С «{game.name(card)}» снято ран: {ev.removed}",
        card=card.id,
        amount=ev.removed,
        rule="518.2",
    )
    return True


def apply_draw(game: Game, ev: DrawEvent) -> bool:
    s = game.state
    deck = s.players[ev.player].zones["deck"]
    if not deck:
        ev.failed = True
        game.log(
            "draw_failed" if ev.accumulation else "deck_empty",
            f"Игрок {ev.player} не может взять карту: в колоде нет карт",
            player=ev.player,
            rule="304.2" if ev.accumulation else "518.3",
        )
        if ev.accumulation:
            for handler in game.handlers.DRAW_FAILED:  # 304.2 (berserk_engine.turn)
                handler(game, ev.player)
        return True
    ev.card = zones.move(game, deck[0], "hand", cause="draw")
    s.players[ev.player].drawn_this_turn += 1  # «где Х – количество карт, которые вы взяли в этот ход»
    game.log(
        "draw",
        f"Игрок {ev.player} берёт карту" + (f" ({ev.reason})" if ev.reason else ""),
        player=ev.player,
        card=ev.card,
        private_to=ev.player,
        rule="возьмите-карту",
    )
    return True


def apply_move(game: Game, ev: MoveEvent) -> bool:
    card = game.state.cards.get(ev.card)
    if card is None:  # the object is gone already (518.1)
        return False
    zones.move_event(game, ev)
    return True


def apply_close(game: Game, ev: CloseEvent) -> bool:
    card = game.state.cards.get(ev.card)
    if card is None or card.zone != "play" or card.closed != ev.open:
        if ev.paying:
            unpaid(game, ev.paying, "карта не закрылась")
        return False
    card.closed = not ev.open
    if ev.open:
        game.log("open", f"Открывается «{game.name(card)}»", card=card.id, rule=ev.rule or "открытие-карты")
    else:
        game.log(
            "close",
            f"«{game.name(card)}» закрывается",
            card=card.id,
            rule=ev.rule or "закрыть-существо-карту",
            # the attacker pays for its attack once the wounds are dealt (I-20)
            deciding=["действие-карты", "I-20"] if ev.payment == "attack" else None,
        )
    return True


def apply_lives(game: Game, ev: LivesEvent) -> bool:
    from berserk_engine import characteristics as ch
    from berserk_engine.state import ContinuousEffect

    card = _in_play(game, ev.target)
    if card is None:
        return False
    card.wounds = 0
    change = ev.value - ch.life(game, card)
    if change:
        ch.add_effect(
            game,
            ContinuousEffect(
                id=game.state.next_id("e"),
                kind="life",
                target=card.id,
                source=ev.source,
                source_name=ev.source_name,
                amount=change,
            ),
        )
    game.log(
        "lives",
        f"Жизни «{game.name(card)}» сокращаются до {ev.value}: раны сняты, жизней {change:+d}",
        card=card.id,
        value=ev.value,
        rule="жизни-сокращаются-до-х",
    )
    return True


def apply_blow(game: Game, ev: BlowEvent) -> bool:
    target = game.state.cards.get(ev.target)
    words = {"attack": "наносит удар", "counter": "наносит ответный удар", "shot": "стреляет"}[ev.kind]
    game.log(
        "blow",
        f"«{ev.name}» {words} по «{target.name if target else ev.target}» силой {ev.strength}",
        card=ev.card,
        name=ev.name,
        target=ev.target,
        target_name=target.name if target else "",
        strength=ev.strength,
        kind=ev.kind,
        rule="ответный-удар" if ev.kind == "counter" else "атака",
    )
    return True


def apply_quiet(game: Game, ev: Any) -> bool:
    """Events that change nothing by themselves: they are logged by their task and trigger abilities."""
    return True


APPLY: dict[type, Any] = {
    WoundEvent: apply_wound,
    HealEvent: apply_heal,
    DrawEvent: apply_draw,
    MoveEvent: apply_move,
    CloseEvent: apply_close,
    BlowEvent: apply_blow,
    LivesEvent: apply_lives,
    AttackEvent: apply_quiet,
    PlayEvent: apply_quiet,
    TurnEvent: apply_quiet,
    ResolvedEvent: apply_quiet,
}


def _choosing(game: Game) -> tuple[Any, list[str]]:
    """The task that asks a ``choose`` decision (a replacement effect to apply, or ``choices.Choose``)
    and the keys it offers: such a task has a ``choice_keys(game)`` method."""
    task_ = game.state.stack[-1] if game.state.stack else None
    keys = getattr(task_, "choice_keys", None)
    return (task_, keys(game)) if keys is not None else (None, [])


def _choose_options(game: Game, player: str) -> list[dict[str, Any]]:
    task_, keys = _choosing(game)
    return task_.options(game) if keys else []


def _check_choose(game: Game, player: str, action: dict[str, Any]) -> Any:
    from berserk_engine.errors import IllegalAction

    task_, keys = _choosing(game)
    if set(action) != {"type", "choice"} or action.get("choice") not in keys:
        rule = getattr(task_, "rule", "эффект-замещения")
        return IllegalAction(rule, f"выбрать можно один из вариантов: {keys}")
    return None


def _chosen(game: Game, player: str, action: dict[str, Any]) -> None:
    """The asking task (Perform, choices.Choose) applies the answer itself."""


from berserk_engine import actions  # noqa: E402 — it builds on the events defined above

actions.register(actions.ActionKind("choose", "выбор варианта", _choose_options, _check_choose, _chosen))

task(Perform)
