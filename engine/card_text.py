"""Card text → abilities, through a registry of phrases in the rulebook's own wording.

Each phrase the engine understands is registered once (:func:`trigger_phrase`, :func:`effect_phrase`,
:func:`cost_phrase`, :data:`TARGET_WORDS`). Text that matches no registered phrase is an error
naming the card and the text (:class:`~berserk_engine.errors.CardTextError`), never ignored.

Supported shapes (one ability per sentence):

* triggered: ``Найм: <эффект>.``, ``Гибель: <эффект>.``, ``В начале хода: <эффект>.``,
  ``В начале вашего хода: …``, ``В конце хода: …``, ``В конце вашего хода: …``,
  ``Когда погибает существо: …``; ``вы можете`` before the effect makes it not mandatory;
* activated: ``<оплата>: <эффект>.`` where the payment lists ``[Закрыть]``, ``N [Монета]`` and
  ``Один раз за ход`` / ``N раза за ход`` separated by commas (501.2);
* spell abilities: every sentence of a spell (Заклинание) is one ability.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass

from berserk_engine.abilities import Ability, Cost, Trigger
from berserk_engine.effects import Amount, Draw, Effect, Fight, Heal, StrikeBonus, TargetSpec, Wound
from berserk_engine.errors import CardTextError

# --- targets ---------------------------------------------------------------------------------

TARGET_WORDS: dict[str, str] = {
    "героя противника": "opponent_hero",
    "своего героя": "own_hero",
    "вашего героя": "own_hero",
    "выбранное существо": "chosen_creature",
    "выбранного персонажа": "chosen_character",
    "это существо": "self",
    "эту карту": "self",
}
SUBJECT_WORDS: dict[str, str] = {
    "выбранное существо": "chosen_creature",
    "выбранный персонаж": "chosen_character",
    "это существо": "self",
    "ваш герой": "own_hero",
}

_AMOUNT = r"(?P<amount>\d+|значение удара этого существа)"


def _target(words: str, table: dict[str, str] = TARGET_WORDS) -> TargetSpec | None:
    kind = table.get(words.strip().lower())
    return TargetSpec(kind, words.strip()) if kind else None


def _amount(words: str) -> Amount:
    if words.isdigit():
        return Amount(value=int(words), words=words)
    return Amount(source_property="strike", words=words)


# --- registries ------------------------------------------------------------------------------


@dataclass(frozen=True)
class Phrase:
    pattern: re.Pattern[str]
    build: Callable[[re.Match[str]], object]
    example: str


TRIGGERS: list[Phrase] = []
EFFECTS: list[Phrase] = []
COSTS: list[Phrase] = []


def _register(registry: list[Phrase], pattern: str, example: str):
    def wrap(func: Callable[[re.Match[str]], object]) -> Callable[[re.Match[str]], object]:
        registry.append(Phrase(re.compile(pattern, re.IGNORECASE), func, example))
        return func

    return wrap


def trigger_phrase(pattern: str, example: str):
    """Register the opening words of a triggered ability; the rest of the sentence is the effect."""
    return _register(TRIGGERS, pattern + r"\s*(?P<rest>.+)$", example)


def effect_phrase(pattern: str, example: str):
    return _register(EFFECTS, "^" + pattern + "$", example)


def cost_phrase(pattern: str, example: str):
    return _register(COSTS, "^" + pattern + "$", example)


@trigger_phrase(r"^Найм:", "Найм: возьмите карту.")
def _hire(m: re.Match[str]) -> Trigger:
    return Trigger("enters_play")


@trigger_phrase(r"^Гибель:", "Гибель: ранить на 1 героя противника.")
def _death(m: re.Match[str]) -> Trigger:
    return Trigger("dies")


@trigger_phrase(
    r"^В начале (?P<own>вашего |своего )?хода[:,]", "В начале хода: ранить на 1 героя противника."
)
def _turn_start(m: re.Match[str]) -> Trigger:
    return Trigger("turn_start", own_turn_only=bool(m.group("own")))


@trigger_phrase(r"^В конце (?P<own>вашего |своего )?хода[:,]", "В конце хода: излечить на 1 своего героя.")
def _turn_end(m: re.Match[str]) -> Trigger:
    return Trigger("turn_end", own_turn_only=bool(m.group("own")))


@trigger_phrase(r"^Когда погибает существо[:,]", "Когда погибает существо: возьмите карту.")
def _creature_dies(m: re.Match[str]) -> Trigger:
    return Trigger("creature_dies")


@cost_phrase(r"\[Закрыть\]", "[Закрыть]")
def _cost_close(m: re.Match[str]) -> Cost:
    return Cost(close=True)


@cost_phrase(r"(?P<n>\d+) \[Монета\]", "1 [Монета]")
def _cost_coins(m: re.Match[str]) -> Cost:
    return Cost(coins=int(m.group("n")))


@cost_phrase(r"(?:(?P<one>один)|(?P<n>\d+)) раза? за ход", "Один раз за ход")
def _cost_per_turn(m: re.Match[str]) -> Cost:
    return Cost(per_turn=1 if m.group("one") else int(m.group("n")))


@effect_phrase(r"ранить на " + _AMOUNT + r" (?P<target>.+)", "ранить на 1 выбранное существо")
def _wound(m: re.Match[str]) -> Effect | None:
    target = _target(m.group("target"))
    return Wound(_amount(m.group("amount")), target) if target else None


@effect_phrase(
    r"ранить (?P<target>.+?) на " + _AMOUNT, "ранить героя противника на значение удара этого существа"
)
def _wound_reordered(m: re.Match[str]) -> Effect | None:
    target = _target(m.group("target"))
    return Wound(_amount(m.group("amount")), target) if target else None


@effect_phrase(r"раниться на " + _AMOUNT, "раниться на 1")
def _wound_self(m: re.Match[str]) -> Effect:
    return Wound(_amount(m.group("amount")), TargetSpec("self", "себя"))


@effect_phrase(r"излечить на " + _AMOUNT + r" (?P<target>.+)", "излечить на 2 своего героя")
def _heal(m: re.Match[str]) -> Effect | None:
    target = _target(m.group("target"))
    return Heal(_amount(m.group("amount")), target) if target else None


@effect_phrase(r"излечиться на " + _AMOUNT, "излечиться на 1")
def _heal_self(m: re.Match[str]) -> Effect:
    return Heal(_amount(m.group("amount")), TargetSpec("self", "себя"))


@effect_phrase(r"возьмите карту", "возьмите карту")
def _draw_one(m: re.Match[str]) -> Effect:
    return Draw(Amount(value=1, words="1"), TargetSpec("controller", "вы"))


@effect_phrase(r"возьмите (?P<n>\d+) карт[ыу]?", "возьмите 2 карты")
def _draw_n(m: re.Match[str]) -> Effect:
    return Draw(Amount(value=int(m.group("n")), words=m.group("n")), TargetSpec("controller", "вы"))


@effect_phrase(r"сразиться с выбранным существом", "сразиться с выбранным существом")
def _fight(m: re.Match[str]) -> Effect:
    return Fight(TargetSpec("chosen_creature", "выбранное существо"))


@effect_phrase(
    r"(?P<subject>.+?) получает \+(?P<n>\d+) к удару до конца хода",
    "выбранное существо получает +1 к удару до конца хода",
)
def _strike_bonus(m: re.Match[str]) -> Effect | None:
    target = _target(m.group("subject"), SUBJECT_WORDS)
    n = m.group("n")
    return StrikeBonus(Amount(value=int(n), words=n), target) if target else None


# --- parsing ---------------------------------------------------------------------------------

_SENTENCE_END = re.compile(r"(?<=\.)\s+")
_OPTIONAL = re.compile(r"^вы можете\s+", re.IGNORECASE)


def split_sentences(text: str) -> list[str]:
    return [s.strip() for s in _SENTENCE_END.split(text.strip()) if s.strip()]


def parse_effect(card: str, words: str) -> tuple[Effect, bool]:
    """Parse an effect clause; returns the effect and whether it is optional («вы можете»)."""
    clause = words.strip().rstrip(".").strip()
    optional = bool(_OPTIONAL.match(clause))
    clause = _OPTIONAL.sub("", clause)
    for phrase in EFFECTS:
        m = phrase.pattern.match(clause)
        if m:
            effect = phrase.build(m)
            if effect is not None:
                return effect, optional  # type: ignore[return-value]
            raise CardTextError(card, words, f"неизвестная цель (известны: {', '.join(TARGET_WORDS)})")
    known = "; ".join(p.example for p in EFFECTS)
    raise CardTextError(card, words, f"эффект не распознан (движок понимает: {known})")


def _parse_costs(card: str, words: str) -> Cost | None:
    close, coins, per_turn = False, 0, None
    for part in (p.strip() for p in words.split(",")):
        for phrase in COSTS:
            m = phrase.pattern.match(part)
            if m:
                cost: Cost = phrase.build(m)  # type: ignore[assignment]
                close = close or cost.close
                coins += cost.coins
                per_turn = cost.per_turn if cost.per_turn is not None else per_turn
                break
        else:
            return None
    return Cost(close=close, coins=coins, per_turn=per_turn)


def parse_ability(card: str, sentence: str, index: int, *, spell: bool) -> Ability:
    for phrase in TRIGGERS:
        m = phrase.pattern.match(sentence)
        if m:
            trigger: Trigger = phrase.build(m)  # type: ignore[assignment]
            effect, optional = parse_effect(card, m.group("rest"))
            return Ability("triggered", sentence, effect, index, trigger=trigger, optional=optional)
    if ":" in sentence and not spell:
        head, _, rest = sentence.partition(":")
        cost = _parse_costs(card, head)
        if cost is None:
            raise CardTextError(card, sentence, "оплата активируемой способности не распознана")
        effect, _optional = parse_effect(card, rest)
        return Ability("activated", sentence, effect, index, cost=cost)
    if spell:
        effect, optional = parse_effect(card, sentence)
        return Ability("spell", sentence, effect, index, optional=optional)
    raise CardTextError(
        card,
        sentence,
        "способность не распознана: ожидается «Найм:», «Гибель:», «В начале хода» … или оплата",
    )


def parse_card_text(card: str, text: str, *, spell: bool = False) -> tuple[Ability, ...]:
    """Parse the whole text of a card into its abilities (one per sentence)."""
    return tuple(parse_ability(card, s, i, spell=spell) for i, s in enumerate(split_sentences(text)))
