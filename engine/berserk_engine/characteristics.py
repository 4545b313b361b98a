"""Characteristics of a card computed in one documented order, and continuous effects as data.

The order (the same for every query — strike, life, abilities, keywords, cost):

1. **printed** properties and text (the card's definition);
2. **text**: «Теряет особенности» removes the printed text (acquired abilities stay); «Получает
   [текст]» adds abilities in the order they were gained; gaining a keyword the card already has
   follows that keyword's rule, as data (``Keyword.regain``: «replace» — the new value replaces the
   old, as for Броня Х → Броня Y; «single» — several do not add up; «none» — no value);
3. **numbers**: the printed value plus every modifier in the order they were gained («+X к удару»,
   дополнительные / отрицательные жизни; «Удар становится равным Х» is a modifier of the needed size,
   computed when it is applied); a strike is never below 0;
4. in an attack, the **attack strength** (``combat.attack_strength``): strike value, then the attack
   modifiers (``hooks.ATTACK_STRENGTH``), then a replacement of the strike (``hooks.STRIKE_REPLACEMENT``).

Durations of continuous effects (``ContinuousEffect.until``): "end_of_turn" ends at 310.2,
"leaves_play" with the object (a card that changes zone is a new object), "source_leaves" when the
source leaves the game zone, "player_turns" after the given number of that player's turns.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from berserk_engine.abilities import Ability, class_lemma, same_class
from berserk_engine.grammar import parse_ability
from berserk_engine.keywords import KEYWORDS, term

if TYPE_CHECKING:
    from berserk_engine.cards import CardDef
    from berserk_engine.game import Game
    from berserk_engine.state import Card, ContinuousEffect

term(__name__, "на-один-на-х-ходов-игрока")


def effects_on(game: Game, card_id: str) -> list[ContinuousEffect]:
    return game.by_card.get(card_id, _NONE)


_NONE: list[ContinuousEffect] = []


def _active(game: Game, effect: ContinuousEffect) -> bool:
    if effect.until == "player_turns":
        return effect.started and game.state.active == effect.player
    return True


def abilities(game: Game, card: Card) -> tuple[Ability, ...]:
    """The card's abilities now: printed (unless lost) and acquired — by an effect, or from a constant ability
    of a card in the game zone («Ваши гномы имеют Броню 1») — keywords combined by their rule."""
    printed = card.definition.abilities
    effects = game.by_card.get(card.id)
    statics = game.handlers.STATIC_GRANTS
    if not effects and not statics:
        return _face_down(printed) if card.face_down else printed
    lost = text_lost(game, card)
    result: list[Ability] = [] if lost else list(printed)
    for e in effects or ():
        if e.kind == "grant" and _active(game, e):
            gained = _GRANTED.get(e.text)
            if gained is None:
                gained = _granted(e.text)
            result = _gain(result, gained)
    for h in statics:
        for text in h(game, card):
            gained = _GRANTED.get(text)
            result = _gain(result, gained if gained is not None else _granted(text))
    return _face_down(tuple(result)) if card.face_down else tuple(result)


def text_lost(game: Game, card: Card) -> bool:
    """Has the card lost its abilities now («теряет особенности»)?"""
    effects = game.by_card.get(card.id)
    if not effects:
        return False
    for e in effects:  # a loop, not any(): asked wherever a card with effects shows its abilities
        if e.kind == "lose_text" and _active(game, e):
            return True
    return False


# Granted texts as abilities, by text: parse_ability's answer (the same words always mean the same
# ability) without a call into the card reader's module, which the compiled build leaves interpreted.
_GRANTED: dict[str, Ability] = {}


def _granted(text: str) -> Ability:
    if len(_GRANTED) >= 4096:
        _GRANTED.clear()
    found = _GRANTED[text] = parse_ability(text)
    return found


def ability(text: str) -> Ability:
    """The ability these words are (``parse_ability``'s answer, kept here: the card reader is not compiled,
    and the hot paths ask for the abilities of granted texts and of last known information again and
    again)."""
    found = _GRANTED.get(text)
    return found if found is not None else _granted(text)


def abilities_of(game: Game, card: Card | dict) -> tuple[Ability, ...]:
    """The abilities of a card, or of a card that left the game zone by its last known information."""
    if isinstance(card, dict):
        return tuple(ability(text) for text in card.get("abilities", ()))
    return abilities(game, card)


def _face_down(abilities: tuple[Ability, ...]) -> tuple[Ability, ...]:
    """A card lying face down: only the abilities that work face down («Скрытность»: «иные особенности
    существа не работают»)."""
    return tuple(a for a in abilities if a.keyword is not None and KEYWORDS[a.keyword].face_down)


def _gain(current: list[Ability], gained: Ability) -> list[Ability]:
    if gained.keyword is None:
        return [*current, gained]
    same = [a for a in current if a.keyword == gained.keyword]
    if not same:
        return [*current, gained]
    rule = KEYWORDS[gained.keyword].regain
    if rule == "replace":
        return [*(a for a in current if a.keyword != gained.keyword), gained]
    if rule == "stack" or (rule == "distinct" and all(a.value != gained.value for a in same)):
        return [*current, gained]
    return current  # "single", "none": several such abilities do not add up


def keyword(game: Game, card: Card, term: str) -> int | str | bool:
    """The value of the keyword on the card (True for a keyword without a value), or False."""
    if not card.face_down and card.id not in game.by_card and not game.handlers.STATIC_GRANTS:
        keywords = card.definition.keywords
        if term not in keywords:
            return False
        value = keywords[term]
        return True if value is None else value
    for a in abilities(game, card):
        if a.keyword == term:
            return True if a.value is None else a.value
    return False


def keyword_values(game: Game, card: Card, term: str) -> list[int | str | None]:
    """Every value of the keyword on the card (a keyword that stacks or takes distinct values may
    be there several times: «+Х к атаке», «Игнорирует защиту от …»)."""
    if (
        not card.face_down
        and card.id not in game.by_card
        and term not in card.definition.keywords
        and not game.handlers.STATIC_GRANTS
    ):
        return []
    return [a.value for a in abilities(game, card) if a.keyword == term]


def has(game: Game, card: Card, term: str) -> bool:
    """Does the card have the keyword now? Cheap when nobody in the game zone has it (``Game.present``)."""
    return game.present(term) and bool(keyword(game, card, term))


def strike(game: Game, card: Card, *, floor: bool = True) -> int:
    """Значение удара: the printed strike with every modifier (never below 0 — ``floor=False`` gives
    the sum itself, which «Удар становится равным Х» needs)."""
    base = card.definition.strike
    effects = game.by_card.get(card.id)
    if effects:
        base += sum(e.amount for e in effects if e.kind == "strike" and _active(game, e))
    for handler in game.handlers.CHARACTERISTIC:  # constant abilities of other cards
        base += handler(game, card, "strike")
    return base if base > 0 or not floor else 0


def life(game: Game, card: Card) -> int:
    """The level of lives: initial lives plus additional and minus negative lives (Жизни карты —
    wounds are counted separately)."""
    base = card.definition.life
    effects = game.by_card.get(card.id)
    if effects:
        base += sum(e.amount for e in effects if e.kind == "life" and _active(game, e))
    for handler in game.handlers.CHARACTERISTIC:  # constant abilities of other cards
        base += handler(game, card, "life")
    return base


# --- classes of creatures («Ваши гномы …») ----------------------------------------------------------

# Plurals that do not follow the endings below.
_IRREGULAR_PLURALS = {"человек": "люди", "ребёнок": "дети"}
_HUSHING = "гкхжшчщ"


def plural(word: str) -> str:
    """The nominative plural of a class as printed on cards: гном → гномы, орк → орки, нежить → нежити."""
    word = word.lower()
    if word in _IRREGULAR_PLURALS:
        return _IRREGULAR_PLURALS[word]
    if word.endswith(("ь", "й", "я")):
        return word[:-1] + "и"
    if word.endswith("а"):
        return word[:-1] + ("и" if word[-2:-1] in _HUSHING else "ы")
    return word + ("и" if word[-1:] in _HUSHING else "ы")


def classes_of(d: CardDef) -> tuple[str, ...]:
    """The classes of a card (races, factions printed on the card, a creature's subtype among them), as
    lemmas (``CardDef.classes``, :func:`berserk_engine.abilities.class_lemma`)."""
    return d.classes


_SINGULAR = {many: one for one, many in _IRREGULAR_PLURALS.items()}


def in_group(d: CardDef, group: str) -> bool:
    """Is the card one of the group a text names in the plural («гномы»; «существа»: every creature)?"""
    if d.type != "creature":  # a class printed on a spell or an event makes no creature (I-70)
        return False
    if group == "существа":
        return True
    word = group.lower()
    stems = {class_lemma(word), class_lemma(_SINGULAR.get(word, word))}
    return any(c in stems or plural(c) == word or any(same_class(c, s) for s in stems) for c in classes_of(d))


def add_effect(game: Game, effect: ContinuousEffect) -> None:
    game.state.effects.append(effect)
    game.effects_changed()


def end_of_turn(game: Game) -> list[ContinuousEffect]:
    """310.2: effects «до конца хода» end; returns them."""
    s = game.state
    ending = [e for e in s.effects if e.until == "end_of_turn"]
    if not ending:
        return ending
    s.effects = [e for e in s.effects if e.until != "end_of_turn"]
    game.effects_changed()
    for e in ending:
        card = s.cards.get(e.target)
        if card is not None:
            game.log(
                "effect_ends",
                f"Заканчивает действовать эффект «до конца хода» на «{game.name(card)}»: {describe(e)}",
                card=card.id,
                rule="310.2",
                deciding=["310.2"],
            )
    return ending


def turn_begins(game: Game) -> None:
    """«На один (на Х) ходов игрока»: a waiting effect starts with that player's next turn."""
    s = game.state
    started = False
    for e in s.effects:
        if e.until == "player_turns" and e.player == s.active and not e.started:
            e.started = started = True
    if started:
        game.effects_changed()  # what the card has now changed (a granted ability starts to work)


def turn_ends(game: Game) -> list[ContinuousEffect]:
    """A «на Х ходов игрока» effect counts down at the end of each of that player's turns; returns the
    effects that ended."""
    s = game.state
    changed = False
    for e in s.effects:
        if e.until == "player_turns" and e.started and e.player == s.active:
            e.turns -= 1
            changed = True
    if not changed:
        return []
    ended = [e for e in s.effects if e.until == "player_turns" and e.turns <= 0]
    s.effects = [e for e in s.effects if not (e.until == "player_turns" and e.turns <= 0)]
    game.effects_changed()
    return ended


def describe(e: ContinuousEffect) -> str:
    if e.kind == "strike":
        return f"{e.amount:+d} к удару"
    if e.kind == "life":
        return f"{e.amount:+d} к жизням"
    if e.kind == "grant":
        return f"получает «{e.text}»"
    if e.kind == "lose_text":
        return "теряет особенности"
    if e.kind == "control":
        return f"под контролем игрока {e.player}"
    if e.kind == "prevent":
        return f"предотвращает первые раны: ещё {e.amount}"
    return e.kind


UNTIL_WORDS = {
    "end_of_turn": "до конца хода",
    "leaves_play": "до конца боя",
    "source_leaves": "пока источник в игре",
    "player_turns": "на ходы игрока",
}
