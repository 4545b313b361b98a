"""Named extension points of the core, where keyword modules plug in their behaviour.

The core never asks «does this card have Броня?»: it runs the handlers registered at a named point,
and each keyword module (``berserk_engine.keywords.*``) registers its handlers when imported. A new
keyword is a new module, not a new branch in the core.

Every point is a list of callables; the signature is documented beside each list.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

Handler = Callable[..., Any]

# (game, event: WoundEvent) -> int: wounds added before prevention («Уязвимость»).
WOUND_AMOUNT: list[Handler] = []
# (game, event: WoundEvent, remaining: int) -> int: wounds prevented («Броня Х», Предотвращение).
WOUND_PREVENTION: list[Handler] = []
# (game, event) -> list[Replacement]: replacement effects that could apply to the event (Эффект замещения).
REPLACEMENTS: list[Handler] = []
# (game, event: HealEvent) -> bool: True when the card cannot be healed («Незаживающие раны»).
HEAL_BLOCKED: list[Handler] = []

# (game, attack: dict, strength: int) -> int: the strength of an attack (+X к атаке, Гнев, −X от атаки).
ATTACK_STRENGTH: list[Handler] = []
# (game, striker: str, target: Card, strength: int) -> int | None: replaces the strength of a blow of a
# strike attack or a fight dealt to ``target`` — the attacker's strike or the counter-blow («Сведение
# удара к Х»); not of a shot.
STRIKE_REPLACEMENT: list[Handler] = []
# (game, card) -> bool: the creature may act on the turn it was played («Рывок»).
NO_FIRST_TURN_WEAKNESS: list[Handler] = []
# (game, card) -> int: how many strike attacks the creature may make this turn («Один (Х) раз за ход»).
ATTACKS_PER_TURN: list[Handler] = []
# (game, card, role: "attack" | "defend") -> bool: the card does not close («Опыт в атаке», …).
STAYS_OPEN: list[Handler] = []
# (game, attack: dict) -> bool: no defender may be assigned against this attack («Направленный удар»).
NO_DEFENDER: list[Handler] = []
# (game, attacker, target) -> bool: the two deal their blows one after another («Первый удар»):
# returns True when ``attacker`` strikes first.
STRIKES_FIRST: list[Handler] = []
# (game, card, chooser: str, kind: str, source: str, ability: Ability | None) -> bool: the card cannot
# be chosen as a target of ``ability`` of ``source`` (kind: "spell" | "ability") («Защита от
# заклинаний», «Игнорировать [срабатывающую особенность]»).
UNTARGETABLE: list[Handler] = []
# (game, attacker: Card, targets: list[str]) -> list[str]: the characters the attacker may attack among
# ``targets`` («особенность, обязывающая атаковать»).
ATTACK_TARGETS: list[Handler] = []
# (game, card) -> bool: the card is never the target of attacks.
CANNOT_BE_ATTACKED: list[Handler] = []
# (game, card: CardDef, player: str) -> int: change to the cost of playing the card from hand.
COST: list[Handler] = []
# (game, player, card_def) -> str | None: why the card cannot be played now (one event per player …).
PLAY_RESTRICTIONS: list[Handler] = []
# (game, events: list) -> list: events that happen because cards entered a squad («Уникальность»);
# called once after every batch of events that moved a card into the game zone.
ENTERED_SQUAD: list[Handler] = []
# (game, event: WoundEvent) -> (rule, words) | None: the card takes no wounds from this source at all,
# and why («Не получает ран от [текст]»). Checked before prevention.
NO_WOUNDS: list[Handler] = []
# (game) -> list[Task]: what the active player may do at the end of his restoration phase («Скрытность»:
# «в свою фазу восстановления вы можете перевернуть его»).
RESTORATION: list[Handler] = []
# (game, effect: ContinuousEffect, from_zone: str, to_zone: str) -> bool: the effect stays on the card
# when it changes zone («Инкарнация»: the effect does not disappear between graveyard and game zone).
EFFECT_KEPT: list[Handler] = []
# (game, source: Card | dict, category: str, detail: str) -> bool: the source ignores this ability of
# the cards it targets (category: "protection" | "trigger" | "prevention" | "replacement" |
# "obligation"; detail: which one) — the «Игнорировать …» terms.
IGNORES: list[Handler] = []


def needs(*terms: str, when: Callable[[Any], bool] | None = None) -> Callable[[Handler], Handler]:
    """Mark a handler as useful only in a game where a card may have one of these keywords (or
    ``when(game)`` holds); :func:`active` leaves it out otherwise — a keyword no card of the game has
    costs the hot paths nothing."""

    def mark(handler: Handler) -> Handler:
        handler.needs = (terms, when)  # type: ignore[attr-defined]
        return handler

    return mark


def _possible(game: Any) -> frozenset[str]:
    """Keywords some card of this game may have now: printed on a card of the game's library, or
    granted by a continuous effect («получает …»)."""
    granted = set()
    for e in game.state.effects:
        if e.kind == "grant":
            from berserk_engine.grammar import parse_ability

            keyword = parse_ability(e.text).keyword
            if keyword:
                granted.add(keyword)
    return game.printed_keywords | granted if granted else game.printed_keywords


def active(game: Any, handlers: list[Handler]) -> list[Handler]:
    """The handlers of a point that can matter in this game (see :func:`needs`), found again only when
    a continuous effect changes."""
    if not handlers:
        return handlers
    token = game.by_card  # a new object whenever the effects change
    hit = game.active_handlers.get(id(handlers))
    if hit is not None and hit[0] is token:
        return hit[1]
    possible = _possible(game)
    found = []
    for h in handlers:
        need = getattr(h, "needs", None)
        if need is None or any(t in possible for t in need[0]) or (need[1] is not None and need[1](game)):
            found.append(h)
    game.active_handlers[id(handlers)] = (token, found)
    return found


def for_types(*types: str) -> Callable[[Handler], Handler]:
    """Mark a ``PLAY_RESTRICTIONS`` handler as concerning only cards of these types (the listing of
    plays then asks it only about them)."""

    def mark(handler: Handler) -> Handler:
        handler.types = types  # type: ignore[attr-defined]
        return handler

    return mark


def ignores(game: Any, source: str | None, category: str, detail: str) -> bool:
    """Does the card ``source`` (an object id; its last known information if it left play) ignore
    this ability of the cards it targets?"""
    if not IGNORES or source is None:
        return False
    card: Any = game.state.cards.get(source) or game.state.lki.get(source)
    if card is None:
        return False
    return any(h(game, card, category, detail) for h in IGNORES)
