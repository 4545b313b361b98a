"""The second-generation core of the reference engine: grammar, snapshots, legal ⇔ listed, and the
fuzzer — seeded random games from the standard starting position with real decks, checked for
invariants at every step."""

from __future__ import annotations

import copy
import json
import random
from pathlib import Path
from typing import Any

import pytest
from berserk_engine import actions
from berserk_engine import characteristics as ch
from berserk_engine.errors import CardTextError, IllegalAction
from berserk_engine.game import Game
from berserk_engine.grammar import frame_phrases, parse_ability, parse_card_text
from berserk_engine.keywords import KEYWORDS
from berserk_engine.selfplay import POOL, random_action, standard_position
from berserk_engine.setup import new_game
from berserk_engine.state import MAX_COINS, PLAYERS, Attack, Pending, TurnRecord
from berserk_engine.victory import DrawOffer

# --- the grammar -----------------------------------------------------------------------------------


_FORMS = [ph for c in ("keyword", "trigger", "cost") for ph in frame_phrases(c)]


@pytest.mark.parametrize("phrase", _FORMS, ids=lambda p: f"{p.category}:{p.format}:{p.example}")
def test_every_example_of_the_card_languages_forms_reads(phrase) -> None:
    """The example of every form of the grammar's catalogue (keywords, trigger conditions, payments) reads
    as one ability through the public entry point — a keyword as its own term."""
    example = phrase.example.rstrip(".")
    sentence = f"{example}: возьмите карту." if phrase.category == "cost" else phrase.example
    if phrase.category == "keyword":
        sentence = sentence if sentence.endswith(".") else sentence + "."
    ability = parse_ability(sentence)
    assert ability.text == sentence
    if phrase.category == "keyword":
        assert ability.keyword == phrase.term
    if phrase.category == "trigger":
        assert ability.trigger is not None


def test_every_pool_card_parses() -> None:
    for name, props in POOL.items():
        parse_card_text(name, props["text"], spell=props["type"] == "заклинание")


def test_unknown_text_names_card_sentence_position_and_nearest_phrases() -> None:
    with pytest.raises(CardTextError) as info:
        parse_card_text("Тролль", "Броня 1. Найм: ранить на 2 выбраное существо.")
    error = info.value
    assert error.card == "Тролль"
    assert error.text == "Найм: ранить на 2 выбраное существо."
    assert error.position == (2, 9)
    assert "неизвестная цель «выбраное существо»" in error.message
    assert "предложение 2 (символ 10)" in str(error)
    with pytest.raises(CardTextError) as info:
        parse_card_text("Тролль", "Регенерацыя 2.")
    assert "Регенерация 1." in info.value.nearest


def test_keyword_rules_are_data() -> None:
    armour = KEYWORDS["броня-х"]
    assert armour.regain == "replace" and armour.module.endswith(".armour")
    assert KEYWORDS["регенерация-х"].zero_declarable is False
    regeneration = parse_ability("Регенерация 2.")
    assert (regeneration.kind, regeneration.keyword, regeneration.value) == ("triggered", "регенерация-х", 2)
    assert regeneration.trigger is not None and regeneration.trigger.own_turn_only


# --- random games ----------------------------------------------------------------------------------


def frozen(game: Game) -> Any:
    """The state without its log (compared separately by length): cheap enough to take at every step."""
    s = game.state
    log, s.log = s.log, []
    try:
        return copy.deepcopy(s), len(log)
    finally:
        s.log = log


def play(game: Game, rng: random.Random, steps: int) -> None:
    for _ in range(steps):
        d = game.decision()
        if d is None:
            return
        game.act(d.player, random_action(d.options, rng))


def test_listing_afresh_gives_the_pending_options() -> None:
    for seed in range(6):
        game = new_game(standard_position(seed))
        rng = random.Random(seed)
        for _ in range(120):
            d = game.decision()
            if d is None:
                break
            assert game.fresh_legal_actions() == d.options
            game.act(d.player, random_action(d.options, rng))


# --- snapshots -------------------------------------------------------------------------------------


@pytest.mark.parametrize("seed", range(8))
def test_any_state_is_a_position_that_plays_on_identically(seed: int) -> None:
    game = new_game(standard_position(seed))
    rng = random.Random(seed)
    play(game, rng, rng.randint(0, 150))
    position = json.loads(json.dumps(game.position(), ensure_ascii=False))
    copy_ = new_game(position)
    assert copy_.state == game.state
    assert copy_.position() == position
    play_on_together(game, copy_, random.Random(seed + 1000), 150)
    assert copy_.observe(None) == game.observe(None)


@pytest.mark.parametrize("annotation", ["tuple[str, ...]", "Tuple[int, int]", tuple, tuple[str, ...]])
def test_a_tuple_field_comes_back_from_json_as_a_tuple(annotation: Any) -> None:
    """A snapshot's JSON gives a list for a tuple field; the field is known as a tuple however its type
    is seen — as text (interpreted, postponed annotations) or as the class itself (compiled by mypyc,
    where a list in a tuple field is a TypeError: a position taken at a decision with ``deciding``
    could not be restored by the compiled engine)."""
    import dataclasses

    from berserk_engine import data

    cls = dataclasses.make_dataclass("Probe", [("kept", annotation), ("other", "list[int]")])
    data.serializable(cls)
    try:
        back = data.from_data(json.loads(json.dumps(data.to_data(cls(("a", "b"), [1])))))
        assert back.kept == ("a", "b") and type(back.kept) is tuple and back.other == [1]
    finally:
        del data.REGISTRY["Probe"], data._TUPLE_FIELDS[cls]


def play_on_together(game: Game, twin: Game, answers: random.Random, steps: int) -> None:
    """Both games ask the same decisions and take the same answers to the same log."""
    for _ in range(steps):
        d = game.decision()
        assert (d.to_json() if d else None) == (twin.decision().to_json() if twin.decision() else None)
        if d is None:
            break
        action = random_action(d.options, answers)
        game.act(d.player, action)
        twin.act(d.player, action)
    assert twin.state.log == game.state.log


def test_a_damaged_snapshot_is_a_setup_error() -> None:
    from berserk_engine.errors import SetupError

    game = new_game(standard_position(1))
    position = game.position()
    del position["engine"]["counter"]
    with pytest.raises(SetupError, match="снимок позиции повреждён"):
        new_game(position)


FIRST_FORMAT = Path(__file__).parent / "data" / "first_format_snapshot.json"


def test_a_snapshot_of_the_first_format_still_loads_and_plays_on_as_it_did() -> None:
    """A snapshot written before the engine's state was typed (string-keyed ``attack``, ``pending`` and
    per-turn records, a draw offer holding the decision it interrupted) loads into typed state, shows
    the same observation and plays on to the same log as the engine that wrote it."""
    recorded = json.loads(FIRST_FORMAT.read_text(encoding="utf-8"))
    game = new_game(recorded["position"])
    s = game.state
    assert isinstance(s.attack, Attack) and s.attack.attacker == "c106" and s.attack.reflecting
    assert isinstance(s.pending, Pending) and s.pending.kind == "answer_draw"
    offer = s.stack[-1]
    assert isinstance(offer, DrawOffer) and isinstance(offer.interrupted, Pending)
    assert offer.interrupted.kind == "assign_defender"
    records = {c.name: c.this_turn for c in s.cards.values() if c.this_turn is not None}
    assert records == {
        "Рыцарь": TurnRecord(attacks=1, acted=True, targets=[7]),
        "Гном-латник": TurnRecord(wounded=1, prevented={"броня-х": 1}),
    }
    assert game.observe(None) == recorded["observation"]
    again = json.loads(json.dumps(game.position(), ensure_ascii=False))
    assert new_game(again).state == s  # and it is written in today's form
    game.act("А", {"type": "decline_draw"})
    answers = random.Random(1)
    for _ in range(12):
        d = game.decision()
        assert d is not None
        game.act(d.player, random_action(d.options, answers))
    assert [[e["event"], e["text"]] for e in game.log_for(None)] == recorded["log"]


def first_format(value: Any, key: str = "") -> Any:
    """A position as the engine wrote it before typed state: attacks and decisions as plain dicts,
    per-turn records as counts under string keys in two languages."""
    if isinstance(value, list):
        return [first_format(v) for v in value]
    if not isinstance(value, dict):
        return value
    if key == "this_turn" or value.get("$") == "TurnRecord":
        old: dict[str, int] = {}
        if value.get("attacks"):
            old["attacks"] = value["attacks"]
        if value.get("acted"):
            old["acted"] = 1
        if value.get("wounded"):
            old["wounded"] = value["wounded"]
        if value.get("prevented", {}).get("броня-х"):
            old["броня"] = value["prevented"]["броня-х"]
        old.update({f"цель:{serial}": 1 for serial in value.get("targets", [])})
        if value.get("wounded_by") is not None:  # newer than the first format (I-60): kept as it is
            old["wounded_by"] = value["wounded_by"]
        return old
    out = {k: first_format(v, k) for k, v in value.items()}
    if out.get("$") == "Card" and out.get("this_turn") is None:
        out["this_turn"] = {}
    if out.get("$") in ("Attack", "Pending"):
        del out["$"]
        out.pop("shot", None)
    return out


@pytest.mark.parametrize("seed", range(8))
def test_any_state_written_in_the_first_format_loads_as_the_same_state(seed: int) -> None:
    game = new_game(standard_position(seed))
    rng = random.Random(seed)
    play(game, rng, rng.randint(0, 150))
    position = json.loads(json.dumps(game.position(), ensure_ascii=False))
    old = first_format(position)
    assert old != position or all(c.this_turn is None for c in game.state.cards.values())
    assert new_game(old).state == game.state


@pytest.mark.parametrize(
    "record",
    [
        {"броня": 0},
        {"acted": 2},
        {"attacks": True},
        {"цель:x": 1},
        {"targets": [0]},
        {"wounded_by": "c1"},
        {"how": 1},
        [1],
    ],
)
def test_a_wrong_record_of_the_turn_is_a_setup_error(record: Any) -> None:
    from berserk_engine.errors import SetupError

    position = standard_position(1)
    position["players"]["А"]["play"] = [{"card": "Рыцарь", "this_turn": record}]
    with pytest.raises(SetupError, match="this_turn"):
        new_game(position)


# --- legal ⇔ listed ----------------------------------------------------------------------------------


def near_actions(
    game: Game, option: dict[str, Any], rng: random.Random, per_field: int = 6, targets: bool = True
) -> list[dict[str, Any]]:
    """Actions near a listed one: other card ids in each field, an extra field and (with ``targets``)
    wrong or missing targets."""
    ids = sorted(game.state.cards)
    base = actions.expand(option)[0]
    out = []
    for key, value in base.items():
        if key == "type":
            continue
        if isinstance(value, str):
            out.extend({**base, key: other} for other in rng.sample(ids, min(per_field, len(ids))))
        if targets and key == "targets":
            out.append({**base, "targets": []})
            others = rng.sample(ids, min(per_field, len(ids)))
            out.extend({**base, "targets": [t] * max(1, len(value))} for t in others)
    out.append({**base, "extra": 1})
    if targets and "targets" not in base:
        out.append({**base, "targets": [ids[0]]})
    return out


def check_legal_iff_listed(game: Game, d: Any, tried: list[dict[str, Any]], own_check: bool = True) -> None:
    """Each tried action is accepted exactly when the decision lists it; a rejection names a rule;
    with ``own_check``, the action kind's own check (which names the rule) agrees with the listing."""
    listed = [a for o in d.options for a in actions.expand(o)]
    allowed = actions.DECISIONS[d.kind][0]
    for action in tried:
        kind = actions.ACTIONS.get(action["type"])
        check: Any = "n/a"
        if own_check and kind and action["type"] in allowed:
            check = kind.check(game, d.player, action)
        try:
            actions.validate(game, d.player, action)
            legal = True
        except IllegalAction as exc:
            legal = False
            assert exc.rule
        assert legal == (action in listed), (d.kind, action)
        if check != "n/a":
            assert (check is None) == (action in listed), (d.kind, action, check)


@pytest.mark.parametrize("seed", range(8))
def test_legal_if_and_only_if_listed(seed: int) -> None:
    game = new_game(standard_position(seed))
    rng = random.Random(seed)
    for _ in range(120):
        d = game.decision()
        if d is None:
            break
        for option in rng.sample(d.options, min(3, len(d.options))):
            check_legal_iff_listed(game, d, [*actions.expand(option)[:4], *near_actions(game, option, rng)])
        game.act(d.player, random_action(d.options, rng))


# --- the fuzzer --------------------------------------------------------------------------------------


def _check_invariants(game: Game, serials: set[int]) -> None:
    s = game.state
    # Cards are conserved: every physical card is in exactly one zone, once.
    places = [*s.play, *s.resolving, *(c for p in s.players.values() for z in p.zones.values() for c in z)]
    assert len(places) == len(set(places)) == len(s.cards)
    assert {s.cards[c].serial for c in places} == serials
    for card_id in places:
        card = s.cards[card_id]
        assert card.id == card_id
        in_zone = card.zone == "play" and card_id in s.play
        in_zone = in_zone or (card.zone == "resolving" and card_id in s.resolving)
        in_zone = in_zone or card_id in s.players[card.owner].zones.get(card.zone, ())
        assert in_zone, card
        if card.zone not in ("play", "resolving"):
            assert card.controller == card.owner
    for p in s.players.values():
        assert p.coins_open >= 0 and p.coins_closed >= 0 and p.coins <= MAX_COINS
        assert s.cards[p.hero].zone == "play"
    assert s.active in PLAYERS
    d = game.decision()
    if s.result is None:
        assert d is not None and d.options, "a game that is not over always waits for a decision"
        _no_dead_character_in_play(game)


def _no_dead_character_in_play(game: Game) -> None:
    """Interpretation I-9: at a decision no character in the game zone has wounds ≥ lives — a creature
    with wounds ≥ its level of lives has died, a hero with wounds ≥ his initial lives has lost (602.1)."""
    s = game.state
    for card_id in s.play:
        card = s.cards[card_id]
        kind = game.defs[card.name].type
        if kind == "creature":
            assert card.wounds < ch.life(game, card), (
                f"«{card.name}» в игре с ранами {card.wounds} при жизнях {ch.life(game, card)}: "
                f"решение {s.pending and s.pending.kind}, ход {s.turn}"
            )
        elif kind == "hero":
            assert card.wounds < game.defs[card.name].life, (
                f"герой «{card.name}» в игре с ранами {card.wounds}"
            )


def _fifo(log: list[dict[str, Any]]) -> None:
    """Declared abilities leave the Queue first in, first out (401.3)."""
    waiting: list[str] = []
    for entry in log:
        if entry["event"] == "declare":
            waiting.append(entry["item"])
        elif entry["event"] == "resolve" and entry["item"] in waiting:
            assert entry["item"] == waiting[0], "an ability left the Queue before an earlier one"
            waiting.remove(entry["item"])


# seed 0 in the fast tier, the others in the whole suite (-m slow)
@pytest.mark.parametrize("seed", [0, *(pytest.param(s, marks=pytest.mark.slow) for s in range(1, 8))])
def test_fuzz_random_games_keep_the_invariants(seed: int) -> None:
    game = new_game(standard_position(seed))
    serials = {c.serial for c in game.state.cards.values()}
    rng = random.Random(seed)
    illegal = random.Random(seed + 7)
    for _ in range(3000):
        _check_invariants(game, serials)
        d = game.decision()
        if d is None:
            break
        # A rejected action changes nothing.
        other = "Б" if d.player == "А" else "А"
        for player, action in (
            (other, random_action(d.options, illegal)),
            (d.player, {"type": "fly"}),
            (d.player, {**random_action(d.options, illegal), "targets": ["c999"]}),
        ):
            before = frozen(game)
            with pytest.raises(IllegalAction):
                game.act(player, action)
            assert frozen(game) == before
        game.act(d.player, random_action(d.options, rng))
    assert game.state.result is not None, "a random game from the standard start ends"
    _fifo(game.log_for(None))
    # Nothing happens after the result.
    log = list(game.state.log)
    with pytest.raises(IllegalAction) as info:
        game.act("А", {"type": "end_turn"})
    assert info.value.rule == "604.1" and game.state.log == log
    # The same seed gives the same game.
    again = new_game(standard_position(seed))
    play(again, random.Random(seed), 3000)
    assert again.state.log == game.state.log


# --- card types ------------------------------------------------------------------------------------


def test_every_card_type_and_subtype_is_accepted_and_observed() -> None:
    cards = {
        "Гном": {"type": "существо", "cost": 1, "strike": 1, "life": 1},
        "Огневой залп": {"type": "заклинание", "cost": 1, "text": "Ранить на 1 выбранное существо."},
        "Кольцо": {"type": "экипировка", "subtype": "амулет", "cost": 1},
        "Кираса": {"type": "экипировка", "subtype": "броня", "cost": 1},
        "Меч": {"type": "экипировка", "subtype": "оружие", "cost": 1},
        "Праздник": {"type": "событие", "cost": 1},
    }
    game = new_game(
        {
            "turn": 3,
            "start": "choice",
            "cards": cards,
            "players": {
                "А": {"play": ["Гном", "Кольцо", "Кираса", "Меч", "Праздник"], "hand": ["Огневой залп"]}
            },
        }
    )
    seen = {c["name"]: (c["type"], c.get("subtype")) for c in game.observe("Б")["play"]}
    assert seen["Гном"] == ("creature", None)
    assert seen["Кольцо"] == ("equipment", "amulet")
    assert seen["Кираса"] == ("equipment", "armour")
    assert seen["Меч"] == ("equipment", "weapon")
    assert seen["Праздник"] == ("event", None)
    assert seen["Герой А"] == ("hero", None)
    assert game.observe("А")["players"]["А"]["zones"]["hand"]["cards"][0]["type"] == "spell"


@pytest.mark.parametrize(
    ("props", "fragment"),
    [
        ({"type": "экипировка", "subtype": "шлем"}, "неизвестный подтип"),
        ({"type": "существо", "subtype": "амулет"}, "неизвестный подтип"),
        ({"type": "артефакт"}, "неизвестный тип"),
    ],
)
def test_unknown_types_and_subtypes_are_errors(props: dict[str, Any], fragment: str) -> None:
    with pytest.raises(CardTextError, match=fragment):
        new_game({"cards": {"Штука": props}})


def test_equipment_and_events_are_played_into_the_game_zone() -> None:
    cards = {
        "Меч": {"type": "экипировка", "subtype": "оружие", "cost": 1, "text": "[Закрыть]: возьмите карту."},
        "Праздник": {"type": "событие", "cost": 1},
    }
    game = new_game(
        {
            "turn": 3,
            "start": "choice",
            "cards": cards,
            "players": {"А": {"hand": ["Меч", "Праздник"], "coins": {"open": 2}}},
        }
    )
    for _ in range(2):
        option = next(o for o in game.legal_actions() if o["type"] == "play")
        game.act("А", option)
    assert {c["name"] for c in game.observe("А")["play"]} >= {"Меч", "Праздник"}
    # Equipment is not a creature: its activated ability has no first-turn weakness.
    assert any(o["type"] == "activate" for o in game.legal_actions())


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_a_deck_entry_by_name_is_the_entry_with_the_name_alone(seed: int) -> None:
    """``setup``'s short way for a card given by its name («Гном») makes the card its general way makes
    for ``{"card": "Гном"}``: the same ids, serials and zones, and the same game from there on."""
    by_name = standard_position(seed)
    as_entries = copy.deepcopy(by_name)
    for player in as_entries["players"].values():
        for zone in ("hand", "deck"):
            player[zone] = [{"card": name} for name in player[zone]]
    games = [new_game(by_name), new_game(as_entries)]
    assert games[0].position() == games[1].position()
    rngs = [random.Random(seed), random.Random(seed)]
    for _ in range(300):
        decisions = [g.decision() for g in games]
        assert [d and d.to_json() for d in decisions] == [decisions[0] and decisions[0].to_json()] * 2
        if decisions[0] is None:
            break
        for game, rng, d in zip(games, rngs, decisions, strict=True):
            game.act(d.player, random_action(d.options, rng))
    assert games[0].log_for(None) == games[1].log_for(None)
