"""Unit and property tests of the reference engine (berserk_engine), below the scenarios."""

from __future__ import annotations

import copy
import random
from typing import Any

import pytest
from berserk_engine.actions import expand
from berserk_engine.cards import CardDef
from berserk_engine.errors import CardTextError, IllegalAction, SetupError
from berserk_engine.game import Game
from berserk_engine.grammar import parse_card_text
from berserk_engine.selfplay import random_action
from berserk_engine.setup import new_game
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

POOL: dict[str, dict[str, Any]] = {
    "Гном": {"type": "существо", "cost": 2, "strike": 2, "life": 3},
    "Гоблин": {
        "type": "существо",
        "cost": 1,
        "strike": 1,
        "life": 1,
        "text": "Гибель: ранить на 1 героя противника.",
    },
    "Часовой": {
        "type": "существо",
        "cost": 2,
        "strike": 1,
        "life": 3,
        "text": "В начале хода: ранить на 1 героя противника.",
    },
    "Трубач": {
        "type": "существо",
        "cost": 2,
        "strike": 1,
        "life": 2,
        "text": "В начале хода: вы можете ранить на 1 выбранное существо.",
    },
    "Сова": {
        "type": "существо",
        "cost": 2,
        "strike": 1,
        "life": 2,
        "text": "В конце хода: излечить на 1 своего героя.",
    },
    "Вербовщик": {"type": "существо", "cost": 2, "strike": 1, "life": 2, "text": "Найм: возьмите карту."},
    "Лучник": {
        "type": "существо",
        "cost": 2,
        "strike": 1,
        "life": 2,
        "text": "[Закрыть]: ранить на 1 выбранное существо.",
    },
    "Писарь": {
        "type": "существо",
        "cost": 1,
        "strike": 0,
        "life": 2,
        "text": "Один раз за ход, 1 [Монета]: возьмите карту.",
    },
    "Плакальщица": {
        "type": "существо",
        "cost": 2,
        "strike": 0,
        "life": 3,
        "text": "Когда погибает существо: возьмите карту.",
    },
    "Огневой залп": {"type": "заклинание", "cost": 1, "text": "Ранить на 2 выбранное существо."},
    "Берсерк": {
        "type": "существо",
        "cost": 3,
        "strike": 2,
        "life": 3,
        "text": "В конце хода: ранить героя противника на значение удара этого существа.",
    },
}
NAMES = sorted(POOL)


def setup_of(a_play: list[str], b_play: list[str], a_hand: list[str], deck: list[str], seed: int = 0) -> dict:
    return {
        "seed": seed,
        "turn": 3,
        "cards": POOL,
        "players": {
            "А": {
                "play": a_play,
                "hand": a_hand,
                "deck": deck,
                "coins": {"open": 3, "closed": 0},
                "hero": {"life": 8},
            },
            "Б": {"play": b_play, "hand": list(a_hand), "deck": list(deck), "hero": {"life": 8}},
        },
    }


# --- card text through the registry ------------------------------------------------------------


def test_card_text_parses_every_supported_shape() -> None:
    kinds = [
        a.kind
        for name in NAMES
        for a in CardDef.build(
            name, **{k: v for k, v in POOL[name].items() if k != "type"}, type=POOL[name]["type"]
        ).abilities
    ]
    assert set(kinds) == {"triggered", "activated", "spell"}


def test_optional_trigger_is_marked() -> None:
    (ability,) = parse_card_text("Трубач", "В начале хода: вы можете ранить на 1 выбранное существо.")
    assert ability.optional and len(ability.slots) == 1


@pytest.mark.parametrize(
    ("text", "fragment"),
    [
        ("Найм: превратить врага в лягушку.", "эффект не распознан"),
        ("Найм: ранить на 1 соседа.", "неизвестная цель"),
        ("Полёт.", "способность не распознана"),
        ("Два раза в день: возьмите карту.", "ни оплата активируемой способности"),
    ],
)
def test_unknown_card_text_names_card_and_text(text: str, fragment: str) -> None:
    with pytest.raises(CardTextError) as info:
        parse_card_text("Лягушатник", text)
    message = str(info.value)
    assert "Лягушатник" in message and fragment in message


def test_unknown_card_type_is_an_error() -> None:
    with pytest.raises(CardTextError, match="неизвестный тип"):
        CardDef.build("Стена", "постройка")


# --- setups ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("change", "fragment"),
    [
        (lambda s: s["players"]["А"]["hand"].append("Дракон"), "«Дракон» не описана"),
        (lambda s: s.update(active="В"), "active"),
        (lambda s: s["players"]["А"].update(coins={"open": -1}), "открытые монеты"),
        (lambda s: s.update(colour="red"), "неизвестные поля позиции"),
        (lambda s: s["players"]["А"].update(play=[{"card": "Огневой залп"}]), "заклинание не может"),
        (
            lambda s: s["players"]["А"].update(play=[{"card": "Гном", "closd": True}]),
            "неизвестные поля ['closd']",
        ),
    ],
)
def test_bad_setup_is_rejected(change, fragment: str) -> None:
    setup = setup_of(["Гном"], [], [], [])
    change(setup)
    with pytest.raises((SetupError, CardTextError)) as info:
        new_game(setup)
    assert fragment in str(info.value)


# --- observation: hidden zones ----------------------------------------------------------------


def test_players_see_only_what_the_rules_allow() -> None:
    game = new_game(setup_of(["Гном"], [], ["Гоблин", "Сова"], ["Гном", "Гоблин"]))
    mine, theirs = game.observe("А"), game.observe("Б")
    assert [c["name"] for c in mine["players"]["А"]["zones"]["hand"]["cards"]] == ["Гоблин", "Сова", "Гном"]
    assert theirs["players"]["А"]["zones"]["hand"] == {"count": 3, "cards": None}  # 203.1
    for view in (mine, theirs):  # 201.5, 204.1: the deck is closed to everybody, its size is open
        assert view["players"]["А"]["zones"]["deck"] == {"count": 1, "cards": None}
    assert theirs["decision"] == {"seq": 0, "player": "А", "kind": "choose_action"}  # no peeking at options


# --- the engine never chooses; illegal actions change nothing ------------------------------------


def random_play(game: Game, rng: random.Random, steps: int) -> list[dict[str, Any]]:
    taken = []
    for _ in range(steps):
        d = game.decision()
        if d is None:
            break
        assert d.options, "a pending decision always lists its legal options"
        action = random_action(d.options, rng)
        game.act(d.player, action)
        taken.append(action)
    return taken


def test_same_seed_and_answers_give_the_same_game() -> None:
    logs = []
    for _ in range(2):
        game = new_game(
            setup_of(["Часовой", "Лучник"], ["Гоблин", "Сова"], ["Вербовщик"], ["Гном"] * 5, seed=7)
        )
        random_play(game, random.Random(42), 200)
        logs.append(game.state.log)
    assert logs[0] == logs[1]
    assert len(logs[0]) > 50


def illegal_variants(game: Game, player: str, other: str) -> list[tuple[str, dict[str, Any]]]:
    s = game.state
    ids = sorted(s.cards)
    return [
        (other, {"type": "end_turn"}),
        (player, {"type": "fly"}),
        (player, {"type": "pass"}),
        (player, {"type": "declare", "trigger": "t999", "targets": []}),
        (player, {"type": "play", "card": ids[0], "targets": []}),
        (player, {"type": "attack", "attacker": ids[-1], "targets": [ids[0]]}),
        (player, {"type": "activate", "card": ids[-1], "ability": "Полёт.", "targets": []}),
        (player, {"type": "defend", "defender": ids[0]}),
    ]


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    a_play=st.lists(st.sampled_from(NAMES), max_size=4),
    b_play=st.lists(st.sampled_from(NAMES), max_size=4),
    hand=st.lists(st.sampled_from(NAMES), max_size=3),
    deck=st.lists(st.sampled_from(NAMES), max_size=4),
    seed=st.integers(0, 10_000),
    steps=st.integers(0, 40),
)
def test_illegal_actions_are_rejected_with_a_rule_and_change_nothing(
    a_play, b_play, hand, deck, seed, steps
) -> None:
    a_play = [n for n in a_play if POOL[n]["type"] == "существо"]
    b_play = [n for n in b_play if POOL[n]["type"] == "существо"]
    game = new_game(setup_of(a_play, b_play, hand, deck, seed))
    rng = random.Random(seed)
    random_play(game, rng, steps)
    d = game.decision()
    if d is None:
        with pytest.raises(IllegalAction) as info:
            game.act("А", {"type": "end_turn"})
        assert info.value.rule == "604.1"
        return
    legal = [a for o in d.options for a in expand(o)]
    other = "Б" if d.player == "А" else "А"
    for player, action in illegal_variants(game, d.player, other):
        if player == d.player and action in legal:
            continue
        before = copy.deepcopy(game.state)
        with pytest.raises(IllegalAction) as info:
            game.act(player, action)
        assert info.value.rule, "every rejection cites a rule"
        assert game.state == before, f"{action} changed the state"


def test_forfeited_trigger_is_rejected_citing_401_7() -> None:
    game = new_game(setup_of(["Трубач"], ["Гном"], [], ["Гном"] * 3))
    d = game.decision()
    assert d is not None and d.kind == "declare_trigger"
    trigger = d.options[0]["trigger"]
    game.act("А", {"type": "pass"})
    before = copy.deepcopy(game.state)
    with pytest.raises(IllegalAction) as info:
        game.act("А", {"type": "declare", "trigger": trigger, "targets": []})
    assert info.value.rule == "401.7"
    assert game.state == before


def test_a_creature_played_earlier_is_not_new_on_a_later_turn() -> None:
    game = new_game(setup_of([], [], ["Гном"], ["Гоблин"] * 4))
    game.act("А", next(o for o in game.legal_actions() if o["type"] == "play"))
    assert game.observe("А")["play"][-1]["entered_this_turn"] is True
    game.act("А", {"type": "end_turn"})
    game.act("Б", {"type": "end_turn"})
    gnome = next(c for c in game.observe("А")["play"] if c["name"] == "Гном")
    assert gnome["entered_this_turn"] is False
    assert any(o["type"] == "attack" and o["attacker"] == gnome["id"] for o in game.legal_actions())


@pytest.mark.parametrize(
    "action", [None, ["end_turn"], {"kind": "end_turn"}, {"type": 7}, {"type": "end_turn", "x": [{}]}]
)
def test_malformed_actions_are_rejected_not_crashes(action: Any) -> None:
    game = new_game(setup_of(["Гном"], [], ["Гоблин"], []))
    before = copy.deepcopy(game.state)
    with pytest.raises(IllegalAction) as info:
        game.act("А", action)
    assert info.value.rule == "306.1"
    assert game.state == before


def test_targets_may_be_left_out_when_there_are_none() -> None:
    game = new_game(setup_of([], [], ["Гоблин"], []))
    game.act(
        "А", {"type": "play", "card": next(o["card"] for o in game.legal_actions() if o["type"] == "play")}
    )
    assert [c["name"] for c in game.observe("А")["play"] if c["type"] == "creature"] == ["Гоблин"]


def test_a_player_does_not_learn_which_card_the_other_drew() -> None:
    game = new_game(setup_of([], [], [], ["Гном", "Гоблин"]))
    draws = {viewer: [e for e in game.log_for(viewer) if e["event"] == "draw"] for viewer in ("А", "Б", None)}
    assert draws["А"][0]["card"] == draws[None][0]["card"]
    assert "card" not in draws["Б"][0]
    assert draws["Б"][0]["text"] == draws["А"][0]["text"]


def test_a_move_through_a_hidden_zone_hides_the_card_from_the_other_player() -> None:
    """201.3–201.5: a card moved from or into a zone the other player cannot see (a hand, a deck) is «Карта»
    in his log, with no id or name; a move between open zones names it for both. Random games of the
    bench's pool (discards, returns to the deck, deaths) hold moves of both kinds."""
    from berserk_engine.selfplay import standard_position

    open_zones = {"play", "resolving", "graveyard"}
    hidden = shown = 0
    for seed in range(1, 9):
        game = new_game(standard_position(seed))
        rng = random.Random(seed)
        while (d := game.decision()) is not None:
            game.act(d.player, random_action(d.options, rng))
        judge = game.log_for(None)
        for viewer in ("А", "Б"):
            for full, seen in zip(judge, game.log_for(viewer), strict=True):
                if full["event"] != "move" or full["player"] == viewer:
                    continue
                if full["from_zone"] in open_zones and full["to_zone"] in open_zones:
                    shown += 1
                    assert seen == full
                else:
                    hidden += 1
                    assert "card" not in seen and "name" not in seen and seen["text"].startswith("Карта ")
    assert hidden and shown  # both kinds were seen


def test_decisions_are_numbered() -> None:
    game = new_game(setup_of(["Часовой"], [], [], ["Гном"] * 3))
    first = game.decision()
    assert first is not None
    game.act(first.player, first.options[0])
    second = game.decision()
    assert second is not None and second.seq == first.seq + 1


@pytest.mark.parametrize("seed", range(20))
def test_the_random_player_draws_as_random_choice_does(seed: int) -> None:
    """``selfplay.choice`` is ``random.Random.choice`` done in the engine's own (compilable) code: the same
    generator gives the same draws, so a seed still gives the same random game."""
    from berserk_engine.selfplay import choice

    ours, theirs = random.Random(seed), random.Random(seed)
    for n in (1, 2, 3, 5, 8, 13, 64, 65, 1000):
        seq = list(range(n))
        assert [choice(ours, seq) for _ in range(30)] == [theirs.choice(seq) for _ in range(30)]
    assert ours.random() == theirs.random()  # the generators are in the same state after
    with pytest.raises(IndexError):
        choice(ours, [])
