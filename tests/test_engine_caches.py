"""The engine's caches can never be stale: random games played with every cache of the hot paths and
again with the cache bypassed (the uncached answer computed afresh at every call) ask the same
decisions, in the same order, and write the same log.

Each cache is bypassed by replacing the function that reads it with one that computes the answer from
scratch; the pools include cards whose abilities are *granted* during the game (delayed effects,
«Авангард»), the case where a per-game answer must be recomputed.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

import pytest
from berserk_engine import hooks, selfplay, triggers, zones
from berserk_engine.errors import IllegalAction
from berserk_engine.game import Game
from berserk_engine.selfplay import random_action
from berserk_engine.setup import new_game
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from test_glossary_fuzz import POOL as GLOSSARY_POOL

# Cards whose triggered abilities are granted by an effect, in a pool where no printed card waits
# for the end or the start of a turn: the trigger kinds «в конце хода», «в начале хода» become
# possible only when the effect begins.
GRANTS_POOL: dict[str, dict[str, Any]] = {
    "Гном": {"type": "существо", "cost": 1, "strike": 2, "life": 2},
    "Знаменосец": {"type": "существо", "cost": 2, "strike": 1, "life": 2, "text": "Авангард 1."},
    "Гоблин": {"type": "существо", "cost": 1, "strike": 1, "life": 1, "text": "Гибель: возьмите карту."},
    "Проклятие": {"type": "заклинание", "cost": 1, "text": "В конце хода ранить на 2 героя противника."},
    "Предчувствие": {
        "type": "заклинание",
        "cost": 1,
        "text": "В начале вашего следующего хода возьмите карту.",
    },
    # activated abilities granted for a turn and for good: the game zone's index by role must follow
    "Наука": {
        "type": "заклинание",
        "cost": 1,
        "text": "Выбранное ваше существо получает «[Закрыть]: ранить на 1 героя противника.» до конца хода.",
    },
    "Свиток": {
        "type": "заклинание",
        "cost": 1,
        "text": "Выбранное существо получает «[Закрыть]: возьмите карту.»",
    },
}


def _position(pool: dict[str, dict[str, Any]], seed: int) -> dict[str, Any]:
    rng = random.Random(seed)
    names = sorted(pool)
    players: dict[str, Any] = {}
    for player in ("А", "Б"):
        deck = [rng.choice(names) for _ in range(24)]
        players[player] = {"hand": deck[:5], "deck": deck[5:], "coins": {"open": 2, "closed": 0}}
    return {"seed": seed, "turn": 1, "start": "turn", "cards": pool, "players": players}


POOLS = {"bench": selfplay.POOL, "glossary": GLOSSARY_POOL, "grants": GRANTS_POOL}


def _uncached_kinds(game: Game, event_type: type) -> list[triggers.TriggerKind]:
    """Every kind registered for the event type, as if any ability could wait for any kind."""
    return list(triggers._BY_TYPE.get(event_type, ()))


def _every_handler(handlers: list[Any], game: Game) -> list[Any]:
    """Every handler of the point, as if each could matter in any game (no ``relevant`` check)."""
    return list(handlers)


def _every_handler_table(game: Game) -> hooks.Handlers:
    """A table of every handler of every point, made for the game itself (no table of its library)."""
    return hooks.Handlers(game)


def _uncached_play_index(game: Game) -> zones.PlayIndex:
    """The game zone by role computed afresh at every call."""
    return zones.index_play(game)


def _uncached_defs_with(game: Game, key: str, predicate: Callable[[Any], bool]) -> frozenset[str]:
    """The names of the game's definitions that satisfy the predicate, computed afresh at every call
    (neither the game's answers nor its library's, nor the answers kept per definition)."""
    return frozenset(n for n, d in game.defs.items() if predicate(d))


Patch = tuple[Any, str, Callable[..., Any]]  # (module or class, function, its uncached replacement)

# name -> the patches that bypass that cache
BYPASSES: dict[str, tuple[Patch, ...]] = {
    "trigger kinds": ((triggers, "kinds_for", _uncached_kinds),),
    # the relevance check and the library's tables: a table kept for the library would hide the check
    "hook relevance": ((hooks, "_active", _every_handler), (hooks, "handlers_for", _every_handler_table)),
    "game zone by role": ((Game, "in_play", _uncached_play_index),),
    "library answers": ((Game, "defs_with", _uncached_defs_with),),
}


def test_the_games_table_holds_every_hook_point() -> None:
    """``Game.handlers`` has a field for each point of ``hooks`` (a point left out could not be read), and
    each field is that point's handlers less those marked as needless for this game's cards: «Броня» is
    asked in a game with an armoured card, not in one without."""
    points = sorted(n for n, v in vars(hooks).items() if n.isupper() and isinstance(v, list))
    plain = new_game(_position(GRANTS_POOL, 1))
    assert sorted(vars(plain.handlers)) == points
    for name in points:
        assert set(getattr(plain.handlers, name)) <= set(getattr(hooks, name))
        assert [h for h in getattr(hooks, name) if h not in hooks.RELEVANT] == [
            h for h in getattr(plain.handlers, name) if h not in hooks.RELEVANT
        ]
    armour = next(h for h in hooks.WOUND_PREVENTION if h.__module__.endswith("keywords.armour"))
    assert armour not in plain.handlers.WOUND_PREVENTION
    armoured = {
        **GRANTS_POOL,
        "Латник": {"type": "существо", "cost": 2, "strike": 1, "life": 3, "text": "Броня 1."},
    }
    assert armour in new_game(_position(armoured, 1)).handlers.WOUND_PREVENTION


def _record(position: dict[str, Any], seed: int, steps: int) -> tuple[list[Any], list[dict[str, Any]]]:
    game = new_game(position)
    rng = random.Random(seed)
    asked = []
    for _ in range(steps):
        d = game.decision()
        asked.append(d.to_json() if d else None)
        if d is None:
            break
        game.act(d.player, random_action(d.options, rng))
    return asked, game.log_for(None)


@pytest.mark.parametrize("cache", sorted(BYPASSES))
@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(pool=st.sampled_from(sorted(POOLS)), seed=st.integers(0, 10**6))
def test_cached_and_uncached_games_are_the_same(cache: str, pool: str, seed: int) -> None:
    position = _position(POOLS[pool], seed)
    cached = _record(position, seed, 600)
    with pytest.MonkeyPatch.context() as patch:
        for module, name, uncached in BYPASSES[cache]:
            patch.setattr(module, name, uncached)
        fresh = _record(position, seed, 600)
    assert cached[0] == fresh[0]
    assert cached[1] == fresh[1]


def test_a_granted_trigger_fires_where_no_printed_card_waits_for_it() -> None:
    """The grants pool reaches the case the trigger-kind cache must follow: an effect grants an
    ability waiting for a kind that no card of the game had waited for, and it triggers."""
    fired: set[str] = set()
    for seed in range(40):
        _, log = _record(_position(GRANTS_POOL, seed), seed, 600)
        fired.update(e["text"] for e in log if e["event"] == "triggered")
        if any("В конце хода" in t for t in fired) and any("В начале" in t for t in fired):
            break
    assert any("В конце хода" in t for t in fired), fired
    assert any("В начале" in t for t in fired), fired


def test_a_granted_activated_ability_is_declared() -> None:
    """The grants pool reaches the case the index of the game zone by role must follow: an effect
    grants an activated ability to a creature, and its controller declares it."""
    declared: set[str] = set()
    for seed in range(40):
        _, log = _record(_position(GRANTS_POOL, seed), seed, 600)
        declared.update(e["text"] for e in log if e["event"] == "activate" and "[Закрыть]" in e["text"])
        if len(declared) >= 2:
            break
    assert any("ранить на 1 героя" in t for t in declared), declared
    assert any("возьмите карту" in t for t in declared), declared


# --- the listing of legal actions, cached under the game's change counter ---------------------------


def _listings_agree(position: dict[str, Any], seed: int, steps: int) -> int:
    """Play a random game; at every decision the cached listing, the listing afresh and the decision's
    options are the same, listed once or twice, after a draw offer declined (the interrupted decision
    comes back without being asked again) and after an illegal action. Returns the declines seen."""
    game = new_game(position)
    rng = random.Random(seed)
    declined = 0
    for _ in range(steps):
        d = game.decision()
        if d is None:
            break
        assert game.list_legal_actions() == game.fresh_legal_actions() == d.options
        assert game.list_legal_actions() == d.options  # the second listing comes from the cache
        other = game.opponent(d.player)
        if d.kind != "answer_draw" and game.state.draw_declined.get(d.player) != game.state.turn:
            if rng.random() < 0.1:
                game.act(d.player, {"type": "offer_draw"})
                offer = game.decision()
                assert offer is not None and offer.kind == "answer_draw"
                assert game.list_legal_actions() == game.fresh_legal_actions() == offer.options
                game.act(other, {"type": "decline_draw"})
                declined += 1
                again = game.decision()
                assert again is not None and {**again.to_json(), "seq": d.seq} == d.to_json()
                assert game.list_legal_actions() == game.fresh_legal_actions() == d.options
        if rng.random() < 0.05:
            with pytest.raises(IllegalAction):
                game.act(other, random_action(d.options, rng))
            assert game.list_legal_actions() == game.fresh_legal_actions() == d.options
        game.act(d.player, random_action(d.options, rng))
    return declined


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(pool=st.sampled_from(sorted(POOLS)), seed=st.integers(0, 10**6))
def test_the_cached_listing_is_the_listing_afresh(pool: str, seed: int) -> None:
    _listings_agree(_position(POOLS[pool], seed), seed, 400)


def test_a_forgotten_invalidation_is_caught() -> None:
    """The mutant of the cache: a game that forgets to bump its change counter lists, after a declined
    draw offer, the options of the offer instead of the decision it interrupted — the check above
    fails on it (and passes on the same game with the counter)."""
    position = _position(selfplay.POOL, 3)
    assert _listings_agree(position, 3, 200) > 0
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(Game, "_changing", lambda self: None)
        with pytest.raises(AssertionError):
            _listings_agree(position, 3, 200)


def test_games_of_one_library_share_its_answers_and_another_library_has_its_own() -> None:
    """``Game.library``: the games of the same cards share the answers that depend on the cards only
    (the table of handlers, ``defs_with``); a card of the same name with another text is another
    library, with answers of its own — the armoured «Гном» brings «Броня»'s handler, the plain one not."""
    first, second = new_game(_position(GRANTS_POOL, 1)), new_game(_position(GRANTS_POOL, 2))
    assert first.library is second.library and first.handlers is second.handlers
    armoured_pool = {**GRANTS_POOL, "Гном": {**GRANTS_POOL["Гном"], "text": "Броня 1."}}
    armoured = new_game(_position(armoured_pool, 1))
    assert armoured.library is not first.library
    armour = next(h for h in hooks.WOUND_PREVENTION if h.__module__.endswith("keywords.armour"))
    assert armour in armoured.handlers.WOUND_PREVENTION
    assert armour not in first.handlers.WOUND_PREVENTION
    with_keywords = lambda d: bool(d.keywords)  # noqa: E731 — the same predicate under one key
    assert armoured.defs_with("test-keywords", with_keywords) == {"Гном", "Знаменосец"}
    assert first.defs_with("test-keywords", with_keywords) == {"Знаменосец"}
    assert second.defs_with("test-keywords", with_keywords) == {"Знаменосец"}


def test_a_handler_registered_later_is_in_the_next_games_table(monkeypatch: pytest.MonkeyPatch) -> None:
    """The handlers registered at each point are part of a library's table key: a handler added after a
    game of the library was made (a module imported later, a test's own) is in the next game's table,
    and after it is taken away the table is the first one again."""
    position = _position(GRANTS_POOL, 3)
    before = new_game(position).handlers

    def count_nothing(game: Game, event: Any, remaining: int) -> int:
        return 0

    with monkeypatch.context() as patch:
        patch.setattr(hooks, "WOUND_PREVENTION", [*hooks.WOUND_PREVENTION, count_nothing])
        during = new_game(position).handlers
        assert count_nothing in during.WOUND_PREVENTION and during is not before
    after = new_game(position).handlers
    assert count_nothing not in after.WOUND_PREVENTION and after is before
