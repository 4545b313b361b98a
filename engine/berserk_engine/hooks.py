"""Named extension points of the core, where keyword modules plug in their behaviour.

The core never asks «does this card have Броня?»: it runs the handlers registered at a named point, and
each keyword module (``berserk_engine.keywords.*``) registers its handlers when imported. A new keyword is
a new module, not a new branch in the core.

Every point is a list of callables; the signature is documented beside each list. A handler may have a
``relevant(game) -> bool`` (:func:`needs`, :func:`set_relevant`): False tells the core that it changes
nothing in this game (no card of the game has the mechanic). The core reads a point through the game's
table of the handlers that may matter (:class:`Handlers`, ``game.handlers.WOUND_PREVENTION``), made once
when the game is made, so a mechanic no card of the game has costs it nothing. What is known of a handler
is kept in tables here, not as attributes of the function: a compiled function (``berserk-rules compile``)
takes no attributes.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from typing import Any, cast

from berserk_engine.grammar import parse_ability

Handler = Callable[..., Any]

# (game, event: WoundEvent) -> int: wounds added before prevention («Уязвимость»).
WOUND_AMOUNT: list[Handler] = []
# (game, event: WoundEvent, remaining: int) -> int: wounds prevented («Броня Х», Предотвращение).
WOUND_PREVENTION: list[Handler] = []
# (game, event) -> list[Replacement]: replacement effects that could apply to the event (Эффект замещения).
REPLACEMENTS: list[Handler] = []
# (game, event: HealEvent) -> bool: True when the card cannot be healed («Незаживающие раны»).
HEAL_BLOCKED: list[Handler] = []

# (game, card, prop: "strike" | "life") -> int: a change to the card's strike or lives from a constant
# ability of a card in the game zone («Ваши гномы имеют +1 к удару и жизням», berserk_engine.statics).
CHARACTERISTIC: list[Handler] = []
# (game, card) -> list[str]: the abilities (their texts, «Броня 1.») a card has from a constant ability of a
# card in the game zone («Ваши гномы имеют Броню 1», berserk_engine.statics.GroupGrant).
STATIC_GRANTS: list[Handler] = []
# (game, attack: Attack, strength: int) -> int: the strength of an attack (+X к атаке, Гнев, −X от атаки).
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
# (game, attack: Attack) -> bool: no defender may be assigned against this attack («Направленный удар»).
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
# (game, card) -> str | None: why the card may make no attack at all, neither a strike attack nor a shot
# («Не может атаковать», berserk_engine.cannot_attack).
CANNOT_ATTACK: list[Handler] = []
# (game, card) -> bool: the creature may not be named a defender («Не может выступать защитником», I-90).
CANNOT_DEFEND: list[Handler] = []
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
# (game, kind: "activate" | "declare" | "play", player, action, ability) -> Task | None: a step the
# declaration itself takes before it is complete — looking through the deck for the card to summon
# (517.3.1). The declaring code pushes the task and stops; the task finishes (or cancels) the
# declaration by applying the action again with what it learned.
DECLARATION: list[Handler] = []
# (game, player, card) -> str | None: why the card cannot be taken into the player's squad (517.6:
# then a player who loses control of it keeps it).
SQUAD_RESTRICTIONS: list[Handler] = []
# (game, ended: list[ContinuousEffect]) -> list[event]: events that happen because effects ended (a
# temporary control ends: the opponent becomes the controller, 517.5).
EFFECTS_ENDED: list[Handler] = []
# (game, player) -> None: a draw of the accumulation phase failed (304.2: the third failure loses).
DRAW_FAILED: list[Handler] = []
# (game) -> None: a card entered or left a hand, the game zone untouched (lives that depend on the hands,
# berserk_engine.conditions, I-81: a state check is due).
HAND_CHANGED: list[Handler] = []
# (game) -> None: the game has just ended with a result (604.2: the cards are freed of effects and
# return to their decks; placed cards to their owners' reserves, 204.5). Nothing of it is a game action.
GAME_OVER: list[Handler] = []

# the names of the hook points above (every list of handlers of this module)
POINTS: tuple[str, ...] = tuple(n for n, v in list(globals().items()) if n.isupper() and isinstance(v, list))


# handler -> relevant(game): may it change anything in this game? (absent: always may)
RELEVANT: dict[Handler, Callable[[Any], bool]] = {}
# PLAY_RESTRICTIONS handler -> the card types it concerns (absent: every type)
TYPES: dict[Handler, tuple[str, ...]] = {}


def _relevant(handler: Handler, game: Any) -> bool:
    check = RELEVANT.get(handler)
    return check is None or check(game)


def set_relevant(handler: Handler, check: Callable[[Any], bool]) -> None:
    """Give a handler its ``relevant(game)`` check (see :class:`Handlers`)."""
    RELEVANT[handler] = check


def needs(*terms: str, when: Callable[[Any], bool] | None = None) -> Callable[[Handler], Handler]:
    """Mark a handler as useful only in a game where a card may have one of these keywords — printed
    on a card of the game, or granted by a card's «получает …» — or where ``when(game)`` holds: its
    ``relevant(game)`` (see :class:`Handlers`). A keyword no card of the game can have costs the hot
    paths nothing."""

    def mark(handler: Handler) -> Handler:
        def matters(game: Any) -> bool:
            possible = possible_keywords(game)
            return any(t in possible for t in terms) or (when is not None and bool(when(game)))

        RELEVANT[handler] = matters
        return handler

    return mark


def possible_keywords(game: Any) -> frozenset[str]:
    """Keywords some card of this game can have: printed on a card of the game's library, granted by an
    effect of one («Выбранное существо получает Броня 1»), or granted so far by an effect of a mechanic
    («Авангард»: «Рывок») — computed once per game and again when an effect grants a new text
    (``Game.effects_changed``)."""
    return game.once("possible-keywords", _possible_keywords)


def _possible_keywords(game: Any) -> frozenset[str]:
    found: set[str] = set()
    for d in game.defs.values():
        found.update(keywords_of(d))
    for text in game.granted:  # granted by a mechanic, not by a card's words («Авангард» gives «Рывок»)
        keyword = parse_ability(text).keyword
        if keyword:
            found.add(keyword)
    return frozenset(found)


def keywords_of(d: Any) -> frozenset[str]:
    """The keywords one card definition can bring into a game: printed, or granted by its effects —
    found once per definition (a definition never changes, and the same printed card is the same
    definition in every game: ``setup.build_library``)."""
    known = _KEYWORDS_OF.get(id(d))
    if known is not None and known[0] is d:
        return known[1]
    found: set[str] = set(d.keywords)
    for ability in d.abilities:
        for text in _granted_texts(ability.effect):
            keyword = parse_ability(text).keyword
            if keyword:
                found.add(keyword)
    if len(_KEYWORDS_OF) >= 4096:
        _KEYWORDS_OF.clear()
    _KEYWORDS_OF[id(d)] = (d, frozenset(found))  # the definition is kept: its id is not reused
    return _KEYWORDS_OF[id(d)][1]


# id(definition) -> (the definition, its keywords): see keywords_of
_KEYWORDS_OF: dict[int, tuple[Any, frozenset[str]]] = {}


def _granted_texts(node: Any) -> list[str]:
    """The texts an effect tree grants («получает [текст]»: the nodes with a ``text`` to gain)."""
    if node is None or not dataclasses.is_dataclass(node):
        return []
    found = [cast(Any, node).text] if type(node).__name__ in ("Grant", "GroupGrant", "WhileGrant") else []
    for f in dataclasses.fields(node):
        value = getattr(node, f.name)
        for part in value if isinstance(value, tuple) else (value,):
            found.extend(_granted_texts(part))
    return found


def _active(handlers: list[Handler], game: Any) -> list[Handler]:
    return [h for h in handlers if _relevant(h, game)] if handlers else []


def handlers_for(game: Any) -> Handlers:
    """The game's table of handlers (:class:`Handlers`): what matters depends on the library and on the
    texts granted so far, never on the state, so the table is made once for a library, the same granted
    texts and the same handlers registered at each point, and shared by the games of that library
    (``Game.library``). The handlers are part of the key: a handler registered later (a module imported
    after, a test's own) is in the next game's table, and one taken away is not. A table is never
    changed once made (the hot paths only read it)."""
    points = globals()
    key = ("handlers", frozenset(game.granted), tuple(tuple(points[name]) for name in POINTS))
    table = game.library.get(key)
    if table is None:
        table = game.library[key] = Handlers(game)
    return cast(Handlers, table)


class Handlers:
    """The handlers of every point that can matter in one game (their ``relevant``, see :func:`needs`),
    found when the game is made (``Game.handlers``): the hot paths read a point as an attribute —
    ``game.handlers.WOUND_PREVENTION`` — and a point nothing of this game can use is an empty list. What
    matters depends on the game's cards (``relevant`` reads the library, never the state) and on the texts
    effects have granted so far: the game makes the table again when an effect grants a text not granted
    before (``Game.effects_changed``). Every point of this module is in it (a test checks that, and a
    property test that games play the same with every handler asked)."""

    def __init__(self, game: Any) -> None:
        self.WOUND_AMOUNT = _active(WOUND_AMOUNT, game)
        self.WOUND_PREVENTION = _active(WOUND_PREVENTION, game)
        self.REPLACEMENTS = _active(REPLACEMENTS, game)
        self.HEAL_BLOCKED = _active(HEAL_BLOCKED, game)
        self.CHARACTERISTIC = _active(CHARACTERISTIC, game)
        self.STATIC_GRANTS = _active(STATIC_GRANTS, game)
        self.ATTACK_STRENGTH = _active(ATTACK_STRENGTH, game)
        self.STRIKE_REPLACEMENT = _active(STRIKE_REPLACEMENT, game)
        self.NO_FIRST_TURN_WEAKNESS = _active(NO_FIRST_TURN_WEAKNESS, game)
        self.ATTACKS_PER_TURN = _active(ATTACKS_PER_TURN, game)
        self.STAYS_OPEN = _active(STAYS_OPEN, game)
        self.NO_DEFENDER = _active(NO_DEFENDER, game)
        self.STRIKES_FIRST = _active(STRIKES_FIRST, game)
        self.UNTARGETABLE = _active(UNTARGETABLE, game)
        self.ATTACK_TARGETS = _active(ATTACK_TARGETS, game)
        self.CANNOT_ATTACK = _active(CANNOT_ATTACK, game)
        self.CANNOT_DEFEND = _active(CANNOT_DEFEND, game)
        self.CANNOT_BE_ATTACKED = _active(CANNOT_BE_ATTACKED, game)
        self.COST = _active(COST, game)
        self.PLAY_RESTRICTIONS = _active(PLAY_RESTRICTIONS, game)
        self.ENTERED_SQUAD = _active(ENTERED_SQUAD, game)
        self.NO_WOUNDS = _active(NO_WOUNDS, game)
        self.RESTORATION = _active(RESTORATION, game)
        self.EFFECT_KEPT = _active(EFFECT_KEPT, game)
        self.IGNORES = _active(IGNORES, game)
        self.DECLARATION = _active(DECLARATION, game)
        self.SQUAD_RESTRICTIONS = _active(SQUAD_RESTRICTIONS, game)
        self.EFFECTS_ENDED = _active(EFFECTS_ENDED, game)
        self.DRAW_FAILED = _active(DRAW_FAILED, game)
        self.HAND_CHANGED = _active(HAND_CHANGED, game)
        self.GAME_OVER = _active(GAME_OVER, game)


def for_types(*types: str) -> Callable[[Handler], Handler]:
    """Mark a ``PLAY_RESTRICTIONS`` handler as concerning only cards of these types (the listing of
    plays then asks it only about them)."""

    def mark(handler: Handler) -> Handler:
        TYPES[handler] = types
        return handler

    return mark


def ignores(game: Any, source: str | None, category: str, detail: str) -> bool:
    """Does the card ``source`` (an object id; its last known information if it left play) ignore
    this ability of the cards it targets?"""
    handlers = game.handlers.IGNORES
    if not handlers or source is None:
        return False
    card: Any = game.state.cards.get(source) or game.state.lki.get(source)
    if card is None:
        return False
    return any(h(game, card, category, detail) for h in handlers)
