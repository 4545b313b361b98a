"""A position described declaratively (like a Forge puzzle or a chess FEN), as JSON-ready data.

::

    {"seed": 1, "first_player": "А", "active": "А", "turn": 3, "start": "turn" | "choice",
     "cards": {"Гном": {"type": "существо", "cost": 3, "element": "горы", "strike": 2, "life": 3,
                        "text": "Найм: ранить на 1 выбранное существо."},
               "Кольцо": {"type": "экипировка", "subtype": "амулет", "cost": 1, "text": "…"}},
     "players": {"А": {"hero": {"name": "Герой А", "life": 20, "wounds": 0, "closed": false,
                                "text": ""},
                       "coins": {"open": 3, "closed": 0}, "draw_failures": 0,
                       "hand": ["Гном"], "deck": ["Гном"], "graveyard": [], "reserve": [],
                       "sideboard": [],
                       "play": [{"card": "Гном", "closed": true, "wounds": 1, "owner": "Б",
                                 "new": false, "face_down": false, "markers": {"раны": 1},
                                 "used": {"Один раз за ход, 1 [Монета]: возьмите карту.": 1}}]},
                 "Б": {...}}}

``start: "turn"`` begins the active player's turn at its restoration phase (303);
``start: "choice"`` puts the game in the active player's choice phase (306);
``start: "preparation"`` begins with the mulligans of the preparation stage (Раздача, Пересдача —
:mod:`berserk_engine.preparation`), then the first turn.
Decks list their cards from the top. Card ids are given in a fixed order, so a seed and a setup
always give the same game.

A **snapshot** (:func:`snapshot_position`, ``Game.position()``) is the same format written out in full
— every card with its ``id``, markers, per-turn marks and the turn it entered; continuous effects, the
Queue, the waiting triggers, the result, the log — plus ``"engine"``: this engine's continuation (the
resolution stack, the pending decision, counters, the generator's state). ``new_game`` accepts it and
the game plays on identically.
"""

from __future__ import annotations

import math
from typing import Any

from berserk_engine import card_store, grammar
from berserk_engine.cards import CardDef
from berserk_engine.data import from_data
from berserk_engine.errors import CardTextError, SetupError
from berserk_engine.game import Game
from berserk_engine.position import FORMAT, snapshot_position  # noqa: F401 — re-exported
from berserk_engine.state import (
    MAX_COINS,
    PLAYERS,
    WOUNDS,
    Attack,
    Card,
    GameState,
    Pending,
    Player,
    TurnRecord,
    kept_entry,
)
from berserk_engine.turn import DRAW_FAILURES_TO_LOSE, ChoicePhase, Restoration
from berserk_engine.zones import PRIVATE_ZONES

DEFAULT_HERO_LIFE = 20
_PLAYER_KEYS = {
    "hero",
    "coins",
    "draw_failures",
    "drawn_this_turn",
    "played_this_turn",
    "play",
    *PRIVATE_ZONES,
}
_ENTRY_KEYS = {
    "card",
    "closed",
    "wounds",
    "owner",
    "new",
    "used",
    "face_down",
    "markers",
    "id",
    "serial",
    "uses",
    "this_turn",
    "entered_turn",
    "controller",
}
_HERO_KEYS = {"name", "life", "wounds", "closed", "text", *_ENTRY_KEYS}
_CARD_KEYS = {"type", "subtype", "classes", "cost", "element", "strike", "life", "text"}
_CARD_KEY_ORDER = tuple(sorted(_CARD_KEYS))  # a definition's key (build_library)
_TOP_KEYS = {
    "format",
    "seed",
    "first_player",
    "active",
    "turn",
    "start",
    "cards",
    "players",
    "phase",
    "effects",
    "queue",
    "waiting",
    "result",
    "log",
    "engine",
}


def _int(value: Any, what: str, minimum: int = 0, maximum: int | None = None) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < minimum:
        raise SetupError(f"{what}: ожидается целое число ≥ {minimum}, получено {value!r}")
    if maximum is not None and value > maximum:
        raise SetupError(f"{what}: не больше {maximum}, получено {value!r}")
    return value


def _bool(value: Any, what: str) -> bool:
    if not isinstance(value, bool):
        raise SetupError(f"{what}: ожидается true или false, получено {value!r}")
    return value


def _dict(value: Any, what: str) -> dict[str, Any]:
    if not isinstance(value, dict) or not all(isinstance(k, str) for k in value):
        raise SetupError(f"{what}: ожидается словарь, получено {value!r}")
    return value


def _list(value: Any, what: str) -> list[Any]:
    if not isinstance(value, list):
        raise SetupError(f"{what}: ожидается список, получено {value!r}")
    return value


def _counts(value: Any, what: str) -> dict[str, int]:
    return {k: _int(v, f"{what} «{k}»", 1) for k, v in _dict(value, what).items()}


def _turn_record(value: Any, what: str) -> TurnRecord | None:
    try:
        return TurnRecord.load(value)
    except ValueError as exc:
        raise SetupError(f"{what}: {exc}") from exc


def build_library(cards: Any) -> dict[str, CardDef]:
    library: dict[str, CardDef] = {}
    for name, props in _dict(cards, "cards").items():
        props = _dict(props, f"карта «{name}»")
        unknown = set(props) - _CARD_KEYS
        if unknown:
            raise SetupError(f"карта «{name}»: неизвестные свойства {sorted(unknown)}")
        if "type" not in props:
            raise SetupError(f"карта «{name}»: не указан тип")
        text = props.get("text", "") or ""
        if not isinstance(text, str):
            raise SetupError(f"карта «{name}»: текст должен быть строкой, получено {text!r}")
        for key in ("type", "subtype", "element", "classes"):
            if props.get(key) is not None and not isinstance(props[key], str):
                raise SetupError(f"карта «{name}»: {key} должен быть строкой, получено {props[key]!r}")
        def_key = (name, *(props.get(k) for k in _CARD_KEY_ORDER))
        known = _DEFINITIONS.get(def_key)
        stored = card_store.store() if known is None else None
        if known is None and stored is not None:
            known = stored.get(("card", *def_key))  # read by an earlier process of this engine
            if known is not None and len(_DEFINITIONS) < 4096:
                _DEFINITIONS[def_key] = known
        if known is None:
            known = CardDef.build(
                name,
                props["type"],
                subtype=props.get("subtype"),
                classes=props.get("classes"),
                cost=props["cost"]
                if isinstance(props.get("cost"), str)
                else _int(props.get("cost", 0), f"«{name}»: стоимость"),
                element=props.get("element"),
                strike=_int(props.get("strike", 0), f"«{name}»: удар"),
                life=_int(props.get("life", 0), f"«{name}»: жизни"),
                text=text,
            )
            if len(_DEFINITIONS) < 4096:
                _DEFINITIONS[def_key] = known
            if stored is not None:
                stored.put(("card", *def_key), known)
        library[name] = known
    return library


# The same printed card always means the same definition: built once.
_DEFINITIONS: dict[tuple[Any, ...], CardDef] = {}


def _check_json(value: Any, path: str = "позиция") -> None:
    """SetupError naming the place (``позиция.players.А.deck[2]``) of the first value that is not JSON:
    a key that is not a string, a number that is not finite. The place is spelt out only for an error
    (every game's position passes through here: its paths are not built for nothing)."""
    try:
        _walk_json(value)
    except _NotJson as bad:
        raise SetupError(f"{path}{''.join(reversed(bad.path))}: {bad.message}") from None


class _NotJson(Exception):
    """What is wrong, and the path to it from the value walked, innermost step first."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message
        self.path: list[str] = []


def _walk_json(value: Any) -> None:
    if isinstance(value, float) and not math.isfinite(value):
        raise _NotJson(f"недопустимое число {value!r}")
    # only an object, a list or a number with a fraction can be wrong: only those are walked
    if isinstance(value, dict):
        for k, v in value.items():
            if not isinstance(k, str):
                raise _NotJson(f"ключ должен быть строкой, получено {k!r}")
            if isinstance(v, _CHECKED):
                try:
                    _walk_json(v)
                except _NotJson as bad:
                    bad.path.append(f".{k}")
                    raise
    elif isinstance(value, list):
        for i, v in enumerate(value):
            if isinstance(v, _CHECKED):
                try:
                    _walk_json(v)
                except _NotJson as bad:
                    bad.path.append(f"[{i}]")
                    raise


_CHECKED = (dict, list, float)


def check_shape(setup: dict[str, Any]) -> None:
    """Wrong types the builder below would trip over, as SetupError naming the field: a player's
    description that is not an object, a card property that is a list or an object. (Found by the
    setup fuzzer of berserk-rules, ``tests/test_setup_fuzz.py``.)"""
    players = setup.get("players", {})
    for name, desc in players.items() if isinstance(players, dict) else ():
        _dict(desc, f"игрок {name}")
    cards = setup.get("cards", {})
    for name, props in cards.items() if isinstance(cards, dict) else ():
        for key, value in props.items() if isinstance(props, dict) else ():
            if isinstance(value, list | dict):
                raise SetupError(f"карта «{name}»: {key} — ожидается строка или число, получено {value!r}")


def new_game(setup: Any) -> Game:
    """Build a game from a position (or a snapshot). Raises SetupError / CardTextError on bad input
    (``Any``: whatever a caller sends is checked here, a position that is not a dict included)."""
    grammar.load()  # the grammar and the keyword modules are loaded before any card is read
    setup = _dict(setup, "позиция")
    _check_json(setup)
    check_shape(setup)
    unknown = set(setup) - _TOP_KEYS
    if unknown:
        raise SetupError(f"неизвестные поля позиции: {sorted(unknown)}")
    raw_cards = dict(_dict(setup.get("cards", {}), "cards"))
    first = setup.get("first_player", PLAYERS[0])
    active = setup.get("active", first)
    for label, value in (("first_player", first), ("active", active)):
        if value not in PLAYERS:
            raise SetupError(f"{label}: игрок должен быть одним из {PLAYERS}, получено {value!r}")
    turn = _int(setup.get("turn", 1), "turn", 1)
    start = setup.get("start", "turn")
    if start not in ("turn", "choice", "preparation"):
        raise SetupError(f"start: ожидается 'turn' или 'choice', получено {start!r}")
    described = _dict(setup.get("players", {}), "players")
    for name in described:
        if name not in PLAYERS:
            raise SetupError(f"неизвестный игрок {name!r}: игроки {PLAYERS}")
    # Heroes of the scenario format are described inline: their definitions join the library.
    for name in PLAYERS:
        hero = _dict(dict(described.get(name, {})).get("hero", {}), f"игрок {name}: hero")
        if "card" not in hero:
            hero_name = hero.get("name", f"Герой {name}")
            if not isinstance(hero_name, str) or not hero_name:
                raise SetupError(f"игрок {name}: имя героя должно быть непустой строкой")
            raw_cards[hero_name] = {
                "type": "герой",
                "life": _int(hero.get("life", DEFAULT_HERO_LIFE), f"герой {name}: жизни", 1),
                "text": hero.get("text", ""),
            }
    library = build_library(raw_cards)
    state = GameState(
        library=raw_cards,
        cards={},
        players={},
        play=[],
        first_player=first,
        active=active,
        turn=turn,
        phase={"turn": "restoration", "choice": "choice"}.get(start, "preparation"),
    )
    builder = _Builder(state, library)
    for name in PLAYERS:
        desc = dict(_dict(described.get(name, {}), f"игрок {name}"))
        unknown = set(desc) - _PLAYER_KEYS
        if unknown:
            raise SetupError(f"игрок {name}: неизвестные поля {sorted(unknown)}")
        coins = _dict(desc.get("coins", {}), f"игрок {name}: coins")
        player = Player(
            name=name,
            hero="",
            coins_open=_int(coins.get("open", 0), f"игрок {name}: открытые монеты"),
            coins_closed=_int(coins.get("closed", 0), f"игрок {name}: закрытые монеты"),
            draw_failures=_int(desc.get("draw_failures", 0), f"игрок {name}: draw_failures"),
            drawn_this_turn=_int(desc.get("drawn_this_turn", 0), f"игрок {name}: drawn_this_turn"),
            played_this_turn=_int(desc.get("played_this_turn", 0), f"игрок {name}: played_this_turn"),
            zones={z: [] for z in PRIVATE_ZONES},
        )
        if player.coins > MAX_COINS:
            raise SetupError(
                f"игрок {name}: маркеров монет {player.coins}, а больше {MAX_COINS} не бывает (304.1)"
            )
        state.players[name] = player
        hero = dict(desc.get("hero", {}))
        if "card" not in hero:
            hero = {
                **{k: v for k, v in hero.items() if k in _ENTRY_KEYS},
                "card": hero.get("name", f"Герой {name}"),
            }
        hero_card = builder.entry(hero, name, "play", f"игрок {name}: герой")
        if library[hero_card.name].type != "hero":
            raise SetupError(f"игрок {name}: «{hero_card.name}» — не герой")
        player.hero = hero_card.id
        state.play.append(hero_card.id)
        for zone in PRIVATE_ZONES:
            for i, entry in enumerate(_list(desc.get(zone, []), f"игрок {name}: {zone}")):
                card = builder.entry(entry, name, zone, f"игрок {name}, {zone}[{i}]")
                player.zones[zone].append(card.id)
    for name in PLAYERS:
        for i, entry in enumerate(
            _list(dict(described.get(name, {})).get("play", []), f"игрок {name}: play")
        ):
            card = builder.entry(entry, name, "play", f"игрок {name}, игровая зона[{i}]")
            state.play.append(card.id)
    state.rng = _int(setup.get("seed", 0), "seed")
    engine = setup.get("engine")
    if engine is not None:
        _restore(state, setup, _dict(engine, "engine"))
    else:
        if start == "preparation":  # Раздача и Пересдача: the hands are the deals
            from berserk_engine.preparation import Preparation

            state.stack = [Preparation()]
        else:
            state.stack = [Restoration() if start == "turn" else ChoicePhase(back=False)]
        _check_possible(state, library)
    return Game(state, library)


class _Builder:
    def __init__(self, state: GameState, library: dict[str, CardDef]) -> None:
        self.state = state
        self.library = library

    def entry(self, entry: Any, player: str, zone: str, what: str) -> Card:
        s = self.state
        # a deck's usual entry, a known card by its name alone (an unknown name: the message below), as
        # the general way below makes it
        if type(entry) is str and zone != "play" and entry in self.library:
            s.counter += 1
            s.serials += 1
            card = Card(
                id=f"c{s.counter}", name=entry, owner=player, controller=player, zone=zone, serial=s.serials
            )
            s.cards[card.id] = card
            return card
        entry = {"card": entry} if isinstance(entry, str) else _dict(entry, what)
        unknown = set(entry) - _ENTRY_KEYS
        if unknown or "card" not in entry:
            raise SetupError(
                f"{what}: неизвестные поля {sorted(unknown)} или нет поля 'card' "
                f"(допустимы: {sorted(_ENTRY_KEYS)})"
            )
        name = entry["card"]
        if not isinstance(name, str) or name not in self.library:
            known = ", ".join(sorted(n for n, d in self.library.items() if d.type != "hero")) or "нет"
            raise SetupError(f"{what}: карта «{name}» не описана (известны: {known})")
        d = self.library[name]
        owner = entry.get("owner", player)
        if owner not in PLAYERS:
            raise SetupError(f"{what}: «{name}»: неизвестный владелец {owner!r}")
        if zone == "play" and d.type == "spell":
            raise SetupError(f"{what}: «{name}»: заклинание не может лежать в игровой зоне")
        if zone == "play" and d.type in ("creature", "hero") and d.life <= 0:
            raise SetupError(f"{what}: «{name}»: у персонажа без жизней (жизни {d.life}) нет места в игре")
        card_id = entry.get("id")
        if card_id is None:
            s.counter += 1
            card_id = f"c{s.counter}"
        elif not isinstance(card_id, str) or card_id in s.cards:
            raise SetupError(f"{what}: id {card_id!r} не строка или уже занят")
        serial = entry.get("serial")
        if serial is None:
            s.serials += 1
            serial = s.serials
        if len(entry) == 1:  # the card by its name alone (a deck's usual entry): the rest by default
            card = Card(id=card_id, name=name, owner=owner, controller=owner, zone=zone, serial=serial)
            s.cards[card.id] = card
            return card
        markers = _counts(entry.get("markers", {}), f"{what}: markers")
        if "wounds" in entry:
            wounds = _int(entry["wounds"], f"{what}: «{name}»: раны")
            if wounds:
                markers[WOUNDS] = wounds
        uses = _counts(entry.get("uses", {}), f"{what}: uses")
        for text, times in _dict(entry.get("used", {}), f"{what}: used").items():
            ability = next((a for a in d.abilities if a.text == text and a.kind == "activated"), None)
            if ability is None:
                raise SetupError(f"«{name}»: нет активируемой способности «{text}»")
            uses[ability.text] = _int(times, f"«{name}»: использована")
        entered = entry.get("entered_turn")
        if entered is None and entry.get("new") is not None:
            entered = s.turn if _bool(entry["new"], f"{what}: new") else None
        card = Card(
            id=card_id,
            name=name,
            owner=owner,
            controller=entry.get("controller", player) if zone == "play" else owner,
            zone=zone,
            serial=_int(serial, f"{what}: serial", 1),
            closed=_bool(entry.get("closed", False), f"{what}: closed") if zone == "play" else False,
            face_down=_bool(entry.get("face_down", False), f"{what}: face_down"),
            markers=markers,
            uses=uses,
            this_turn=_turn_record(entry.get("this_turn"), f"{what}: this_turn"),
            entered_turn=_int(entered, f"{what}: entered_turn", 1) if entered is not None else None,
        )
        s.cards[card.id] = card
        return card


def _restore(state: GameState, setup: dict[str, Any], engine: dict[str, Any]) -> None:
    """A snapshot: the rest of the state, as ``snapshot_position`` wrote it."""
    try:
        order = list(engine["play"])
        if sorted(order) != sorted(state.play):
            raise ValueError("порядок игровой зоны не совпадает с её картами")
        state.play = order
        state.phase = setup.get("phase", state.phase)
        state.effects = from_data(setup.get("effects", []))
        state.queue = from_data(setup.get("queue", []))
        state.waiting = from_data(setup.get("waiting", []))
        state.result = setup.get("result")
        state.log = [kept_entry(e) if type(e) is dict else e for e in setup.get("log", [])]
        state.resolving = list(engine.get("resolving", []))
        for card in from_data(engine.get("resolving_cards", [])):
            state.cards[card.id] = card
        state.stack = from_data(engine["stack"])
        state.pending = Pending.load(from_data(engine.get("pending")))
        state.round = engine.get("round")
        state.attack = Attack.load(from_data(engine.get("attack")))
        state.lki = engine.get("lki", {})
        state.draw_declined = dict(engine.get("draw_declined", {}))
        state.counter = _int(engine["counter"], "engine.counter")
        state.serials = _int(engine["serials"], "engine.serials")
        state.answered = _int(engine["answered"], "engine.answered")
        state.rng = _int(engine["rng"], "engine.rng")
    except (KeyError, TypeError, ValueError) as exc:
        raise SetupError(f"снимок позиции повреждён: {exc}") from exc


def _check_possible(state: GameState, library: dict[str, CardDef]) -> None:
    """A position the rules could not have reached is an error, not a game (602.1, 304.2, Гибель)."""
    for card_id in state.play:
        card = state.cards[card_id]
        d = library[card.name]
        if d.type == "hero" and card.wounds >= d.life:
            raise SetupError(
                f"у героя «{card.name}» ран ({card.wounds}) не меньше жизней ({d.life}): игра уже окончена"
            )
        if d.type == "creature" and card.wounds >= d.life:
            raise SetupError(
                f"у «{card.name}» ран ({card.wounds}) не меньше жизней ({d.life}): существо уже погибло"
            )
    for player in state.players.values():
        if player.draw_failures >= DRAW_FAILURES_TO_LOSE:
            raise SetupError(
                f"игрок {player.name} уже {player.draw_failures} раза не смог взять карту: он проиграл"
            )
    serials = [c.serial for c in state.cards.values()]
    if len(serials) != len(set(serials)):
        raise SetupError("две карты позиции названы одним и тем же serial")


__all__ = ["CardTextError", "SetupError", "build_library", "new_game", "snapshot_position"]
