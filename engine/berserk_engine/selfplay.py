"""Seeded random players, for the benchmark (``berserk-rules bench``) and the fuzzer in the tests.

:func:`random_action` answers a decision with a uniformly chosen option whose slots are filled with
uniformly chosen candidates — a legal action by construction, so a random game is a walk through
legal play only. The generator is the caller's (``random.Random(seed)``): the same seed gives the same
game.
"""

from __future__ import annotations

import random
from typing import Any


def choice(rng: random.Random, seq: list[Any]) -> Any:
    """``rng.choice(seq)`` — the same draw from the same generator, done here: ``random.Random.choice``
    is Python code of the standard library (``_randbelow``: the fewest bits that hold ``len(seq)``, drawn
    again until below it), interpreted even in the compiled engine, and the random player draws at
    every decision. Another kind of generator (a subclass) draws its own way."""
    if type(rng) is not random.Random:
        return rng.choice(seq)
    n = len(seq)
    if not n:
        raise IndexError("Cannot choose from an empty sequence")
    k = n.bit_length()
    r = rng.getrandbits(k)
    while r >= n:
        r = rng.getrandbits(k)
    return seq[r]


def random_action(options: list[dict[str, Any]], rng: random.Random) -> dict[str, Any]:
    option = choice(rng, options)
    if option["type"] == "choose_cards":
        n = rng.randint(option["min"], option["max"])
        return {"type": "choose_cards", "cards": rng.sample(option["candidates"], n)}
    action = option.copy()  # the option without its words for people and its slots, in its order
    action.pop("label", None)
    action.pop("about", None)
    slots = action.pop("slots", None)
    if slots:
        action["targets"] = _fill(slots, rng)
    return action


def _fill(slots: list[dict[str, Any]], rng: random.Random) -> list[str | None]:
    """A card per slot: different cards in the slots of one ``distinct`` group, an optional slot
    («до N существ») sometimes left empty (null). The slots that must be filled come before the
    optional ones of their group, and a group has candidates for each of them (``slot_options``)."""
    used: set[tuple[Any, str]] = set()
    targets: list[str | None] = []
    for slot in slots:
        group = slot.get("distinct")
        free = [c for c in slot["candidates"] if group is None or (group, c) not in used]
        if not free or (slot.get("optional") and rng.random() < 0.25):
            targets.append(None)
            continue
        card = choice(rng, free)
        if group is not None:
            used.add((group, card))
        targets.append(card)
    return targets


# --- real decks for the benchmark and the fuzzer ------------------------------------------------
# Test cards with the glossary's own wording: creatures with keywords, spells, equipment.

_TABLE: list[tuple[str, str, str | None, int, int, int, str]] = [
    # name, type, subtype, cost, strike, life, text
    ("Гном-латник", "существо", None, 2, 2, 3, "Броня 1."),
    ("Лучник", "существо", None, 2, 1, 2, "[Закрыть]: ранить на 1 выбранное существо."),
    ("Берсерк", "существо", None, 3, 3, 2, "Первый удар."),
    ("Волк", "существо", None, 1, 2, 1, "Рывок."),
    ("Страж", "существо", None, 3, 1, 5, "Опыт в защите."),
    ("Ветеран", "существо", None, 3, 2, 3, "Опыт в атаке."),
    ("Копейщик", "существо", None, 2, 2, 2, "Направленный удар."),
    ("Тролль", "существо", None, 4, 3, 4, "Регенерация 1."),
    ("Знахарь", "существо", None, 2, 1, 2, "Найм: излечить на 2 своего героя."),
    ("Гоблин", "существо", None, 1, 1, 1, "Гибель: ранить на 1 героя противника."),
    ("Писарь", "существо", None, 2, 0, 2, "Один раз за ход, 1 [Монета]: возьмите карту."),
    ("Рыцарь", "существо", None, 4, 2, 3, "В начале вашего хода: вы можете сразиться с выбранным существом."),
    ("Огневой залп", "заклинание", None, 2, 0, 0, "Ранить на 3 выбранное существо."),
    ("Молния", "заклинание", None, 2, 0, 0, "Ранить на 2 героя противника."),
    ("Исцеление", "заклинание", None, 1, 0, 0, "Излечить на 3 своего героя."),
    ("Вдохновение", "заклинание", None, 1, 0, 0, "Выбранное существо получает +2 к удару до конца хода."),
    ("Раздумье", "заклинание", None, 2, 0, 0, "Возьмите 2 карты. Сбросьте карту."),
    (
        "Меч",
        "экипировка",
        "оружие",
        2,
        0,
        0,
        "[Закрыть]: выбранное ваше существо получает +1 к удару до конца хода.",
    ),
    ("Амулет жизни", "экипировка", "амулет", 2, 0, 0, "В начале вашего хода: излечить на 1 своего героя."),
    (
        "Кольчуга",
        "экипировка",
        "броня",
        1,
        0,
        0,
        "[Закрыть]: выбранное ваше существо получает Броня 1 до конца хода.",
    ),
]
POOL: dict[str, dict[str, Any]] = {
    name: {
        "type": kind,
        **({"subtype": subtype} if subtype else {}),
        "cost": cost,
        **({"strike": strike, "life": life} if kind == "существо" else {}),
        "text": text,
    }
    for name, kind, subtype, cost, strike, life, text in _TABLE
}
# A deck of 30: 19 creatures, 7 spells, 4 equipment.
DECK_COUNTS: dict[str, int] = {
    "Гном-латник": 2,
    "Лучник": 2,
    "Берсерк": 2,
    "Волк": 2,
    "Страж": 1,
    "Ветеран": 2,
    "Копейщик": 2,
    "Тролль": 1,
    "Знахарь": 1,
    "Гоблин": 2,
    "Писарь": 1,
    "Рыцарь": 1,
    "Огневой залп": 2,
    "Молния": 2,
    "Исцеление": 1,
    "Вдохновение": 1,
    "Раздумье": 1,
    "Меч": 2,
    "Амулет жизни": 1,
    "Кольчуга": 1,
}
DECK: list[str] = [name for name, count in DECK_COUNTS.items() for _ in range(count)]
HAND_SIZE = 5


def standard_position(seed: int) -> dict[str, Any]:
    """The benchmark's standard start (the project's choice, not a rule: the sources hold no rules of
    the preparation stage): both players' decks of :data:`DECK` shuffled by the seed, the top
    :data:`HAND_SIZE` cards in hand, heroes of 20 lives, no coins, the first turn of player А."""
    rng = random.Random(seed)
    players: dict[str, Any] = {}
    for name in ("А", "Б"):
        deck = list(DECK)
        rng.shuffle(deck)
        players[name] = {"hand": deck[:HAND_SIZE], "deck": deck[HAND_SIZE:]}
    return {"seed": seed, "turn": 1, "start": "turn", "cards": POOL, "players": players}
