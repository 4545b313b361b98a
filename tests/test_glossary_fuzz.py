"""The glossary mechanics under random play: seeded random games with a pool of cards that carry the
keywords and effects of Part 7 (not the benchmark's standard pool), checked at every step for the
invariants of the core (tests/test_engine_core.py), for legal ⇔ listed, and for snapshots that play on
identically."""

from __future__ import annotations

import json
import os
import random
from typing import Any

import pytest
from berserk_engine import actions
from berserk_engine.errors import IllegalAction
from berserk_engine.game import Game
from berserk_engine.grammar import parse_card_text
from berserk_engine.selfplay import random_action
from berserk_engine.setup import new_game
from test_engine_core import (
    _check_invariants,
    _fifo,
    check_legal_iff_listed,
    frozen,
    near_actions,
    play_on_together,
)

_TABLE: list[tuple[str, str, str | None, int | str, int, int, str]] = [
    # name, type, subtype, cost, strike, life, text
    ("Латник", "существо", None, 2, 1, 4, "Броня 1. Гнев."),
    ("Берсерк", "существо", None, 2, 2, 2, "+1 к атаке. Первый удар."),
    ("Ловкач", "существо", None, 2, 1, 3, "–1 от атаки. Сведение удара к 2."),
    ("Хрупкий", "существо", None, 1, 2, 2, "Уязвимость. Незаживающие раны."),
    ("Щитоносец", "существо", None, 2, 1, 3, "Защита от выстрелов. Не получает ран от заклинаний."),
    ("Маг-хранитель", "существо", None, 3, 1, 3, "Защита от заклинаний. Медитация 1."),
    ("Мастер", "существо", None, 3, 2, 3, "Игнорирует особенности. Не закрывается после атаки."),
    ("Бронебойщик", "существо", None, 2, 2, 2, "Игнорирует Броню. Игнорирует Гибель."),
    ("Провокатор", "существо", None, 2, 0, 4, "Существа противника атакуют ударом только это существо."),
    ("Лазутчик", "существо", None, 2, 2, 2, "Скрытность. Рывок."),
    ("Король", "существо", None, 3, 2, 3, "Уникальность. При гибели: ранить на 1 героя противника."),
    ("Вампир", "существо", None, 1, 2, 2, "Жажда 1. Регенерация 1."),
    ("Феникс", "существо", None, 2, 1, 1, "Инкарнация 1."),
    ("Знаменосец", "существо", None, 2, 1, 2, "Авангард 1."),
    ("Волк", "существо", None, 1, 1, 1, "Гибель: ранить на 1 выбранное существо."),
    ("Арбалетчик", "существо", None, "1+Х", 1, 2, "[Закрыть]: выстрел на 1. При атаке: излечиться на 1."),
    (
        "Неутомимый",
        "существо",
        None,
        3,
        1,
        3,
        "Может атаковать ударом 2 раза за ход. Не закрывается после атаки.",
    ),
    ("Яд", "заклинание", None, 1, 0, 0, "Выбранное существо получает Отравление на 1."),
    ("Чума", "заклинание", None, 1, 0, 0, "Усилить отравление выбранного существа на 1."),
    ("Благословение", "заклинание", None, 1, 0, 0, "Выбранное существо получает 2 дополнительные жизни."),
    ("Увядание", "заклинание", None, 1, 0, 0, "Жизни выбранного существа сокращаются до 1."),
    (
        "Окаменение",
        "заклинание",
        None,
        1,
        0,
        0,
        "Удар выбранного существа становится равным 1 до конца хода.",
    ),
    ("Немота", "заклинание", None, 1, 0, 0, "Выбранное существо теряет особенности до конца хода."),
    ("Предвкушение", "заклинание", None, 1, 0, 0, "Выбранное существо получает +2 к удару на один ваш ход."),
    ("Землетрясение", "заклинание", None, 2, 0, 0, "Ранить на 1 каждое существо."),
    (
        "Разящее копьё",
        "заклинание",
        None,
        1,
        0,
        0,
        "Игнорирует защиту от заклинаний. Ранить на 2 выбранное существо.",
    ),
    ("Амулет силы", "экипировка", "амулет", 1, 0, 0, ""),
    ("Амулет жизни", "экипировка", "амулет", 1, 0, 0, "В начале вашего хода: излечить на 1 своего героя."),
    ("Праздник", "событие", None, 1, 0, 0, ""),
    ("Ярмарка", "событие", None, 1, 0, 0, ""),
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
DECK = [name for name in POOL][:30]


def position(seed: int) -> dict[str, Any]:
    rng = random.Random(seed)
    players: dict[str, Any] = {}
    for name in ("А", "Б"):
        deck = list(DECK)
        rng.shuffle(deck)
        players[name] = {"hand": deck[:5], "deck": deck[5:], "coins": {"open": 2, "closed": 0}}
    return {"seed": seed, "turn": 1, "start": "turn", "cards": POOL, "players": players}


def test_every_pool_card_reads() -> None:
    for name, props in POOL.items():
        parse_card_text(name, props["text"], spell=props["type"] == "заклинание")


def _play(game: Game, rng: random.Random, steps: int) -> None:
    for _ in range(steps):
        d = game.decision()
        if d is None:
            return
        game.act(d.player, random_action(d.options, rng))


@pytest.mark.parametrize("seed", range(16))
def test_glossary_games_keep_the_invariants(seed: int) -> None:
    game = new_game(position(seed))
    serials = {c.serial for c in game.state.cards.values()}
    rng = random.Random(seed)
    illegal = random.Random(seed + 7)
    kinds: set[str] = set()
    for step in range(4000):
        _check_invariants(game, serials)
        d = game.decision()
        if d is None:
            break
        kinds.add(d.kind)
        assert game.fresh_legal_actions() == d.options
        if step % 7 == 0:  # a rejected action changes nothing
            other = "Б" if d.player == "А" else "А"
            before = frozen(game)
            with pytest.raises(IllegalAction):
                game.act(other, random_action(d.options, illegal))
            assert frozen(game) == before
        game.act(d.player, random_action(d.options, rng))
    assert game.state.result is not None, "a random game with the glossary pool ends"
    _fifo(game.log_for(None))
    again = new_game(position(seed))
    _play(again, random.Random(seed), 4000)
    assert again.state.log == game.state.log


def test_the_glossary_pool_reaches_its_mechanics() -> None:
    """The random games do exercise the new mechanics (not a pool that never plays them)."""
    seen: set[str] = set()
    for seed in range(6):
        game = new_game(position(seed))
        _play(game, random.Random(seed), 4000)
        seen |= {e["event"] for e in game.log_for(None)}
        seen |= {e.get("rule", "") for e in game.log_for(None)}
    for wanted in ("face_down", "blow", "prevented", "replaced", "lives", "effect", "triggered", "no_wounds"):
        assert wanted in seen, f"в случайных партиях не встретилось «{wanted}»"


@pytest.mark.parametrize("seed", range(4))
def test_glossary_snapshots_play_on_identically(seed: int) -> None:
    game = new_game(position(seed))
    rng = random.Random(seed)
    _play(game, rng, rng.randint(20, 250))
    snapshot = json.loads(json.dumps(game.position(), ensure_ascii=False))
    copy_ = new_game(snapshot)
    assert copy_.state == game.state
    play_on_together(game, copy_, random.Random(seed + 1000), 300)


@pytest.mark.parametrize("seed", range(4))
def test_glossary_legal_if_and_only_if_listed(seed: int) -> None:
    game = new_game(position(seed))
    rng = random.Random(seed)
    for _ in range(300):
        d = game.decision()
        if d is None:
            break
        for option in rng.sample(d.options, min(3, len(d.options))):
            tried = [actions.expand(option)[0], *near_actions(game, option, rng, per_field=4, targets=False)]
            check_legal_iff_listed(game, d, tried, own_check=False)
        game.act(d.player, random_action(d.options, rng))


# --- lives that fall outside an ability (interpretation I-9) ------------------------------------------
# The glossary pool with the durations of «Дополнительные жизни» in place of the cards that never touch
# lives: an effect «до конца хода» (310.2), «на один ваш ход» and «на 2 ваших хода» (the effect applies
# only while its player is active, I-40), one «на один ход противника», and a unique creature whose
# extra lives last «пока это существо в игре» (its second copy puts the first into the graveyard).
_LIVES_TABLE: list[tuple[str, str, str | None, int | str, int, int, str]] = [
    (
        "Стойкость",
        "заклинание",
        None,
        1,
        0,
        0,
        "Выбранное существо получает 2 дополнительные жизни до конца хода.",
    ),
    (
        "Надежда",
        "заклинание",
        None,
        1,
        0,
        0,
        "Выбранное существо получает 2 дополнительные жизни на один ваш ход.",
    ),
    (
        "Долгая надежда",
        "заклинание",
        None,
        1,
        0,
        0,
        "Выбранное существо получает 2 дополнительные жизни на 2 ваших хода.",
    ),
    (
        "Чужая надежда",
        "заклинание",
        None,
        1,
        0,
        0,
        "Выбранное существо получает 3 дополнительные жизни на один ход противника.",
    ),
    (
        "Хранитель",
        "существо",
        None,
        2,
        1,
        2,
        "Уникальность. Найм: выбранное существо получает 2 дополнительные жизни пока это существо в игре.",
    ),
]
LIVES_POOL: dict[str, dict[str, Any]] = {
    **{n: p for n, p in POOL.items() if n not in ("Праздник", "Ярмарка", "Амулет силы", "Окаменение")},
    **{
        name: {
            "type": kind,
            "cost": cost,
            **({"strike": strike, "life": life} if kind == "существо" else {}),
            "text": text,
        }
        for name, kind, _subtype, cost, strike, life, text in _LIVES_TABLE
    },
}
# Two of each lives card (and of «Хранитель», so that its Уникальность puts the first copy away).
LIVES_DECK = [n for n in LIVES_POOL if n not in dict.fromkeys(r[0] for r in _LIVES_TABLE)][:20] + [
    r[0] for r in _LIVES_TABLE for _ in range(2)
]


def lives_position(seed: int) -> dict[str, Any]:
    rng = random.Random(seed)
    players: dict[str, Any] = {}
    for name in ("А", "Б"):
        deck = list(LIVES_DECK)
        rng.shuffle(deck)
        players[name] = {"hand": deck[:5], "deck": deck[5:], "coins": {"open": 3, "closed": 0}}
    return {"seed": seed, "turn": 1, "start": "turn", "cards": LIVES_POOL, "players": players}


def lives_fuzz(first_seed: int, actions_wanted: int, steps_per_game: int = 4000) -> tuple[int, int]:
    """Random games of the lives pool from ``first_seed`` on, checked at every decision for the core's
    invariants — no character in play with wounds ≥ lives among them — until ``actions_wanted``
    actions were answered. Returns (actions, games)."""
    done = games = 0
    seed = first_seed
    while done < actions_wanted:
        game = new_game(lives_position(seed))
        serials = {c.serial for c in game.state.cards.values()}
        rng = random.Random(seed)
        for _ in range(steps_per_game):
            _check_invariants(game, serials)
            d = game.decision()
            if d is None:
                break
            game.act(d.player, random_action(d.options, rng))
            done += 1
        games += 1
        seed += 1
    return done, games


def test_lives_pool_cards_read() -> None:
    assert len(LIVES_DECK) == 30
    for name, props in LIVES_POOL.items():
        parse_card_text(name, props["text"], spell=props["type"] == "заклинание")


def test_no_dead_character_in_play_at_any_decision() -> None:
    """I-9: at every decision no character in the game zone has wounds ≥ lives, whatever made the lives
    fall. ``BERSERK_LIVES_FUZZ_ACTIONS`` sets the budget (a measurement run: 100000); the normal run is
    short."""
    wanted = int(os.environ.get("BERSERK_LIVES_FUZZ_ACTIONS", "6000"))
    done, games = lives_fuzz(0, wanted)
    assert done >= wanted and games >= 1


def test_the_lives_pool_needs_the_state_check(monkeypatch: pytest.MonkeyPatch) -> None:
    """The lives pool does reach the deaths this check is for: without the state check that follows a
    change of lives outside an ability (``Game._state_check``), the invariant breaks in these games."""
    monkeypatch.setattr(Game, "_state_check", lambda self, stack: None)
    with pytest.raises(AssertionError, match="в игре с ранами"):
        lives_fuzz(0, 6000)
