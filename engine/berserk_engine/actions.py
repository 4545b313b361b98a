"""Action kinds as a registry: each kind lists its options, checks an action with the rule that
forbids it, and applies it.

A decision (``Game.ask``) offers options built by the kinds it allows. An option is an action
template: its fixed fields, and ``slots`` — per target slot, the candidates (one option per card and
ability, no cartesian products). An action fills the slots: ``"targets": [one id per slot]``; a slot
marked ``optional`` («до N существ», I-67) may be left empty — null in its place.

:func:`validate` checks an action before anything changes: the decision's player, the shape of the
action, the kind's own legality check (``check`` — it names the rule), and that the action is one of
the listed options. A property test proves that the kinds' checks and the listed options agree
(legal ⇔ listed).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from berserk_engine.errors import IllegalAction

if TYPE_CHECKING:
    from berserk_engine.game import Game

WORDS = ("label", "about", "slots")  # option fields that are not part of the action


@dataclass(frozen=True)
class ActionKind:
    type: str
    words: str  # what the action is, in Russian
    options: Callable[[Game, str], list[dict[str, Any]]]
    check: Callable[[Game, str, dict[str, Any]], IllegalAction | None]
    apply: Callable[[Game, str, dict[str, Any]], None]


ACTIONS: dict[str, ActionKind] = {}
# Actions a player may take at any time, whoever must decide now, outside the pending decision
# (602.1 «признаёт себя побеждённым (сдаётся)», 603.2 «Пока игра не закончилась, игрок может предложить
# ничью»). They are listed per player in the observation (``players[p]["anytime"]``).
ANYTIME: dict[str, ActionKind] = {}

# Which kinds of action answer which kind of decision, and the rule that says so.
DECISIONS: dict[str, tuple[tuple[str, ...], str, str]] = {
    "choose_action": (
        ("attack", "activate", "play", "end_turn"),
        "306.1",
        "в фазе выбора можно атаковать ударом, объявить активируемую способность, "
        "разыграть карту или передать ход",
    ),
    "declare_trigger": (
        ("declare", "pass"),
        "401.7",
        "пока Очередь выполняется, игрок может только заявить срабатывающую способность или пасовать",
    ),
    "assign_defender": (
        ("defend", "no_defender"),
        "307.1",
        "неактивный игрок сейчас может только назначить защитника",
    ),
    "choose_cards": (("choose_cards",), "518.1", "игрок сейчас выбирает карты"),
    "choose": (("choose",), "эффект-замещения", "игрок сейчас выбирает один из вариантов"),
    "answer_draw": (
        ("accept_draw", "decline_draw"),
        "603.2",
        "игрок сейчас отвечает на предложение ничьей: принять или отклонить",
    ),
}


def register(kind: ActionKind) -> ActionKind:
    ACTIONS[kind.type] = kind
    _LISTERS.clear()
    return kind


# decision kind -> the option builders of the action kinds that answer it, in their order (found once;
# a kind registered later clears them)
_LISTERS: dict[str, tuple[Callable[[Game, str], list[dict[str, Any]]], ...]] = {}


def options_for(game: Game, decision: str, player: str) -> list[dict[str, Any]]:
    """The options of every action kind that answers ``decision`` (:data:`DECISIONS`), in its order."""
    listers = _LISTERS.get(decision)
    if listers is None:
        listers = _LISTERS[decision] = tuple(ACTIONS[k].options for k in DECISIONS[decision][0])
    options: list[dict[str, Any]] = []
    for listed in listers:
        found = listed(game, player)
        if found:
            options += found
    return options


def declaration_step(game: Game, kind: str, player: str, action: dict[str, Any], abilities: Any) -> bool:
    """Push the step a declaration takes before it is complete (``hooks.DECLARATION``: looking through
    the deck for the card to summon, 517.3.1) and return True — the declaring code then stops; the step
    applies the action again with what it found (``action["summon"]``)."""
    steps = game.handlers.DECLARATION
    if "summon" in action or not steps:
        return False
    for ability in abilities:
        for handler in steps:
            step = handler(game, kind, player, action, ability)
            if step is not None:
                game.push(step)
                return True
    return False


def register_anytime(kind: ActionKind) -> ActionKind:
    ANYTIME[kind.type] = kind
    return kind


def no_check(game: Game, player: str, action: dict[str, Any]) -> IllegalAction | None:
    return None


def target_problem(
    action: dict[str, Any], fields: set[str], slots: list[dict[str, Any]] | None, what: str
) -> IllegalAction | None:
    """501.1: a declaration names its targets — one legal candidate per slot (null in an optional
    slot: it stays empty), nothing else."""
    extra = set(action) - fields - {"type", "targets"}
    if extra:
        return IllegalAction("501.1", f"лишние поля в заявке {what}: {sorted(extra)}")
    if slots is None:
        return IllegalAction("501.1", f"у {what} нет законной цели")
    targets = action.get("targets", [])
    if (
        not isinstance(targets, list)
        or len(targets) != len(slots)
        or any(not _fills(t, slot) for t, slot in zip(targets, slots, strict=False))
    ):
        return IllegalAction("501.1", f"недопустимая цель для {what}: {targets!r}")
    if not distinct_targets(targets, slots):
        return IllegalAction(
            "501.1", f"цели «{_group_words(slots)}» для {what} должны быть разными: {targets!r}"
        )
    return None


def _fills(target: Any, slot: dict[str, Any]) -> bool:
    """Is ``target`` a legal answer for the slot: one of its candidates, or null in an optional slot?"""
    if target is None:
        return bool(slot.get("optional"))
    return target in slot["candidates"]


def slot_targets(action: dict[str, Any]) -> list[str]:
    """The targets of a checked action as the state keeps them: an empty optional slot (null) is "" —
    no card has that id, so the effect skips it like a target that has left play."""
    return [t if t is not None else "" for t in action.get("targets", [])]


def distinct_targets(targets: list[Any], slots: list[dict[str, Any]]) -> bool:
    """Slots of one group («двух разных существ»: the same ``distinct`` key) take different cards (an
    empty optional slot takes none)."""
    seen: set[tuple[Any, Any]] = set()
    for t, slot in zip(targets, slots, strict=False):
        group = slot.get("distinct")
        if group is None or t is None:
            continue
        if (group, t) in seen:
            return False
        seen.add((group, t))
    return True


def _group_words(slots: list[dict[str, Any]]) -> str:
    return next((str(s["name"]) for s in slots if s.get("distinct") is not None), "")


def _json_like(value: Any, depth: int = 0) -> bool:
    if depth > 8:
        return False
    if value is None or isinstance(value, (bool, int, str)):
        return True
    if isinstance(value, list):
        return all(_json_like(v, depth + 1) for v in value)
    if isinstance(value, dict):
        return all(isinstance(k, str) and _json_like(v, depth + 1) for k, v in value.items())
    return False


def matches(option: dict[str, Any], action: dict[str, Any]) -> bool:
    """Is ``action`` one of the actions the option stands for?"""
    if option["type"] != action["type"]:
        return False
    if option["type"] == "choose_cards":
        cards = action.get("cards")
        if set(action) != {"type", "cards"} or not isinstance(cards, list):
            return False
        return (
            len(set(cards)) == len(cards)
            and option["min"] <= len(cards) <= option["max"]
            and all(c in option["candidates"] for c in cards)
        )
    fixed = 1
    for key, value in option.items():
        if key == "type" or key == "label" or key == "about" or key == "slots":  # the type, and WORDS
            continue
        if action.get(key) != value:
            return False
        fixed += 1
    targets = action.get("targets")
    slots = option.get("slots")
    if targets is None:
        return not slots and len(action) == fixed
    if len(action) != fixed + 1 or type(targets) is not list or len(targets) != len(slots or ()):
        return False
    for t, slot in zip(targets, slots or (), strict=True):
        if t not in slot["candidates"] and not (t is None and slot.get("optional")):
            return False
    return distinct_targets(targets, slots or [])


def validate(game: Game, player: str, action: Any) -> dict[str, Any]:
    """Raise IllegalAction (citing the rule) unless ``action`` answers the pending decision legally;
    return the action without the words for people (``label``, ``about``) it may carry."""
    s = game.state
    d = s.pending
    assert d is not None
    allowed, rule, words = DECISIONS[d.kind]
    if player != d.player:
        raise IllegalAction(
            "402.1" if d.kind == "declare_trigger" else d.rule,
            f"сейчас решение принимает игрок {d.player}, а не {player}: {d.prompt}",
        )
    if not isinstance(action, dict) or not isinstance(action.get("type"), str):
        raise IllegalAction(d.rule, f"действие должно быть словарём с полем type, получено {action!r}")
    if "label" in action or "about" in action:
        action = {k: v for k, v in action.items() if k not in ("label", "about")}
    kind = action["type"]
    if kind in allowed:
        for option in d.options:
            if option["type"] == kind and matches(option, action):  # the type first: no call for others
                return action  # listed: legal (a property test proves the kinds' own checks agree)
    if not _json_like(action):
        raise IllegalAction(d.rule, f"действие должно быть данными JSON, получено {action!r}")
    if kind not in allowed:
        if kind == "declare" and "declare" in ACTIONS:  # a forfeited ability stays forfeited (401.7)
            problem = ACTIONS["declare"].check(game, player, action)
            if problem is not None:
                raise problem
        raise IllegalAction(rule, f"{words}; {kind!r} сейчас нельзя")
    problem = ACTIONS[kind].check(game, player, action)
    if problem is not None:
        raise problem
    raise IllegalAction(d.rule, f"такого варианта нет среди законных: {action!r}")


def expand(option: dict[str, Any]) -> list[dict[str, Any]]:
    """Every action an option stands for (for tests: slots filled in every way)."""
    base = {k: v for k, v in option.items() if k not in WORDS}
    if option["type"] == "choose_cards":
        from itertools import combinations

        return [
            {"type": "choose_cards", "cards": list(c)}
            for n in range(option["min"], option["max"] + 1)
            for c in combinations(option["candidates"], n)
        ]
    slots = option.get("slots") or []
    combos: list[list[str | None]] = [[]]
    for slot in slots:
        choices = [*slot["candidates"], *([None] if slot.get("optional") else [])]
        combos = [[*c, t] for c in combos for t in choices]
    combos = [c for c in combos if distinct_targets(c, slots)]
    return [{**base, "targets": c} if slots else dict(base) for c in combos]
