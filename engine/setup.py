"""A position described declaratively (like a Forge puzzle or a chess FEN), as JSON-ready data.

::

    {"seed": 1, "first_player": "А", "active": "А", "turn": 3, "start": "turn" | "choice",
     "cards": {"Гном": {"type": "существо", "cost": 3, "element": "горы", "strike": 2, "life": 3,
                        "text": "Найм: ранить на 1 выбранное существо."}},
     "players": {"А": {"hero": {"name": "Герой А", "life": 20, "wounds": 0, "closed": false},
                       "coins": {"open": 3, "closed": 0}, "draw_failures": 0,
                       "hand": ["Гном"], "deck": ["Гном"], "graveyard": [], "reserve": [],
                       "sideboard": [],
                       "play": [{"card": "Гном", "closed": true, "wounds": 1, "owner": "Б",
                                 "new": false,
                                 "used": {"Один раз за ход, 1 [Монета]: возьмите карту.": 1}}]},
                 "Б": {...}}}

``start: "turn"`` begins the active player's turn at its restoration phase (303);
``start: "choice"`` puts the game in the active player's choice phase (306).
Decks list their cards from the top. Card ids are given in a fixed order, so a seed and a setup
always give the same game.
"""

from __future__ import annotations

from typing import Any

from berserk_engine.cards import CardDef
from berserk_engine.errors import CardTextError, SetupError
from berserk_engine.game import Game
from berserk_engine.state import PLAYERS, PRIVATE_ZONES, Card, GameState, Player
from berserk_engine.turn import DRAW_FAILURES_TO_LOSE

DEFAULT_HERO_LIFE = 20
_PLAYER_KEYS = {"hero", "coins", "draw_failures", "play", *PRIVATE_ZONES}
_PLAY_KEYS = {"card", "closed", "wounds", "owner", "new", "used"}
_TOP_KEYS = {"seed", "first_player", "active", "turn", "start", "cards", "players"}


def _int(value: Any, what: str, minimum: int = 0) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < minimum:
        raise SetupError(f"{what}: ожидается целое число ≥ {minimum}, получено {value!r}")
    return value


def build_library(cards: dict[str, Any]) -> dict[str, CardDef]:
    library: dict[str, CardDef] = {}
    for name, props in cards.items():
        props = dict(props)
        unknown = set(props) - {"type", "cost", "element", "strike", "life", "text"}
        if unknown:
            raise SetupError(f"карта «{name}»: неизвестные свойства {sorted(unknown)}")
        if "type" not in props:
            raise SetupError(f"карта «{name}»: не указан тип")
        library[name] = CardDef.build(
            name,
            props["type"],
            cost=_int(props.get("cost", 0), f"«{name}»: стоимость"),
            element=props.get("element"),
            strike=_int(props.get("strike", 0), f"«{name}»: удар"),
            life=_int(props.get("life", 0), f"«{name}»: жизни"),
            text=props.get("text", "") or "",
        )
    return library


def new_game(setup: dict[str, Any]) -> Game:
    """Build a game from a position. Raises SetupError / CardTextError on bad input."""
    check_shape(setup)
    unknown = set(setup) - _TOP_KEYS
    if unknown:
        raise SetupError(f"неизвестные поля позиции: {sorted(unknown)}")
    library = build_library(setup.get("cards", {}))
    first = setup.get("first_player", PLAYERS[0])
    active = setup.get("active", first)
    for label, value in (("first_player", first), ("active", active)):
        if value not in PLAYERS:
            raise SetupError(f"{label}: игрок должен быть одним из {PLAYERS}, получено {value!r}")
    turn = _int(setup.get("turn", 1), "turn", 1)
    start = setup.get("start", "turn")
    if start not in ("turn", "choice"):
        raise SetupError(f"start: ожидается 'turn' или 'choice', получено {start!r}")

    cards: dict[str, Card] = {}
    players: dict[str, Player] = {}
    play: list[str] = []

    def make(name: str, owner: str, zone: str) -> Card:
        definition = library.get(name)
        if definition is None:
            raise SetupError(f"карта «{name}» не описана (известны: {', '.join(sorted(library)) or 'нет'})")
        card = Card(id=f"c{len(cards) + 1}", definition=definition, owner=owner, controller=owner, zone=zone)
        cards[card.id] = card
        return card

    described = setup.get("players", {})
    for name in described:
        if name not in PLAYERS:
            raise SetupError(f"неизвестный игрок {name!r}: игроки {PLAYERS}")
    for name in PLAYERS:
        desc = dict(described.get(name, {}))
        unknown = set(desc) - _PLAYER_KEYS
        if unknown:
            raise SetupError(f"игрок {name}: неизвестные поля {sorted(unknown)}")
        hero_desc = dict(desc.get("hero", {}))
        hero_name = hero_desc.get("name", f"Герой {name}")
        try:
            hero_def = CardDef.build(
                hero_name,
                "герой",
                life=_int(hero_desc.get("life", DEFAULT_HERO_LIFE), f"герой {name}: жизни", 1),
            )
        except CardTextError as exc:  # pragma: no cover - heroes have no text yet
            raise SetupError(str(exc)) from exc
        hero = Card(
            id=f"c{len(cards) + 1}",
            definition=hero_def,
            owner=name,
            controller=name,
            zone="play",
            closed=bool(hero_desc.get("closed", False)),
            wounds=_int(hero_desc.get("wounds", 0), f"герой {name}: раны"),
        )
        cards[hero.id] = hero
        play.append(hero.id)
        coins = desc.get("coins", {})
        player = Player(
            name=name,
            hero=hero.id,
            coins_open=_int(coins.get("open", 0), f"игрок {name}: открытые монеты"),
            coins_closed=_int(coins.get("closed", 0), f"игрок {name}: закрытые монеты"),
            draw_failures=_int(desc.get("draw_failures", 0), f"игрок {name}: draw_failures"),
        )
        players[name] = player
        for zone in PRIVATE_ZONES:
            for card_name in desc.get(zone, []):
                player.zones[zone].append(make(card_name, name, zone).id)
    for name in PLAYERS:
        for entry in dict(described.get(name, {})).get("play", []):
            entry = {"card": entry} if isinstance(entry, str) else dict(entry)
            unknown = set(entry) - _PLAY_KEYS
            if unknown or "card" not in entry:
                raise SetupError(
                    f"игрок {name}, игровая зона: неизвестные поля {sorted(unknown)} "
                    f"или нет поля 'card' (допустимы: {sorted(_PLAY_KEYS)})"
                )
            owner = entry.get("owner", name)
            if owner not in PLAYERS:
                raise SetupError(f"«{entry.get('card')}»: неизвестный владелец {owner!r}")
            card = make(entry["card"], owner, "play")
            if card.type == "spell":
                raise SetupError(f"«{card.name}»: заклинание не может лежать в игровой зоне")
            card.controller = name
            card.closed = bool(entry.get("closed", False))
            card.wounds = _int(entry.get("wounds", 0), f"«{card.name}»: раны")
            for text, times in dict(entry.get("used", {})).items():
                ability = next((a for a in card.abilities if a.text == text and a.kind == "activated"), None)
                if ability is None:
                    raise SetupError(f"«{card.name}»: нет активируемой способности «{text}»")
                card.markers[f"раз за ход:{ability.index}"] = _int(times, f"«{card.name}»: использована")
            card.entered_turn = turn if entry.get("new") else None
            play.append(card.id)
    state = GameState(
        cards=cards,
        players=players,
        play=play,
        first_player=first,
        active=active,
        turn=turn,
        phase="restoration" if start == "turn" else "choice",
    )
    state.seed = _int(setup.get("seed", 0), "seed")
    _check_possible(state)
    return Game(state)


def _check_possible(state: GameState) -> None:
    """A position the rules could not have reached is an error, not a game (602.1, 304.2, Гибель)."""
    for card_id in state.play:
        card = state.cards[card_id]
        if card.type == "hero" and card.wounds >= card.life:
            raise SetupError(
                f"у героя «{card.name}» ран ({card.wounds}) не меньше жизней ({card.life}): игра уже окончена"
            )
        if card.type == "creature" and card.wounds >= card.life:
            raise SetupError(
                f"у «{card.name}» ран ({card.wounds}) не меньше жизней ({card.life}): существо уже погибло"
            )
    for player in state.players.values():
        if player.draw_failures >= DRAW_FAILURES_TO_LOSE:
            raise SetupError(
                f"игрок {player.name} уже {player.draw_failures} раза не смог взять карту: он проиграл"
            )


# --- the shape of a position: wrong types and out-of-range values are SetupError, naming the field ---

MAX_COINS = 10  # 304.1: a player gets a coin marker only while he has fewer than 10
_CARD_FIELDS = {"type": str, "cost": int, "element": str, "strike": int, "life": int, "text": str}
_HERO_FIELDS = {"name": str, "life": int, "wounds": int, "closed": bool}
_PLAY_FIELDS = {"card": str, "closed": bool, "wounds": int, "owner": str, "new": bool, "used": dict}
_TYPE_NAMES = {str: "строка", int: "целое число", bool: "true или false", dict: "объект", list: "список"}


def _expect(value: Any, kind: type, field: str) -> None:
    ok = isinstance(value, kind) and not (kind is int and isinstance(value, bool))
    if not ok:
        raise SetupError(f"поле {field}: ожидается {_TYPE_NAMES[kind]}, получено {value!r:.60}")


def _fields(entry: Any, fields: dict[str, type], field: str) -> None:
    _expect(entry, dict, field)
    for key, kind in fields.items():
        if key in entry and not (key == "element" and entry[key] is None):
            _expect(entry[key], kind, f"{field}.{key}")


def check_shape(setup: Any) -> None:
    """Every field of a position has the type the format gives it, coin markers are at most 10 per
    player (304.1), and a creature in the game zone has life: a SetupError naming the field, before
    anything is built (the rest of the checks — unknown fields and cards, impossible wounds — follow
    in :func:`new_game`)."""
    _expect(setup, dict, "позиция")
    for key, kind in (("seed", int), ("turn", int), ("start", str), ("cards", dict), ("players", dict)):
        if key in setup:
            _expect(setup[key], kind, key)
    for name, props in setup.get("cards", {}).items():
        _fields(props, _CARD_FIELDS, f"cards.«{name}»")
    for player, desc in setup.get("players", {}).items():
        where = f"players.{player}"
        _expect(desc, dict, where)
        if "hero" in desc:
            _fields(desc["hero"], _HERO_FIELDS, f"{where}.hero")
        if "coins" in desc:
            _fields(desc["coins"], {"open": int, "closed": int}, f"{where}.coins")
            total = desc["coins"].get("open", 0) + desc["coins"].get("closed", 0)
            if total > MAX_COINS:
                raise SetupError(
                    f"поле {where}.coins: маркеров монет {total}, больше {MAX_COINS} не бывает (304.1)"
                )
        if "draw_failures" in desc:
            _expect(desc["draw_failures"], int, f"{where}.draw_failures")
        for zone in (*PRIVATE_ZONES, "play"):
            cards = desc.get(zone, [])
            _expect(cards, list, f"{where}.{zone}")
            for index, entry in enumerate(cards):
                field = f"{where}.{zone}[{index}]"
                if zone == "play" and isinstance(entry, dict):
                    _fields(entry, _PLAY_FIELDS, field)
                    for text, times in entry.get("used", {}).items():
                        _expect(times, int, f"{field}.used.«{text}»")
                    entry = entry.get("card")
                _expect(entry, str, field)
                props = setup.get("cards", {}).get(entry)
                if (
                    zone == "play"
                    and isinstance(props, dict)
                    and props.get("type") in ("существо", "creature")
                ):
                    if props.get("life", 0) < 1:
                        raise SetupError(
                            f"поле {field}: существо «{entry}» без жизней не может быть в игровой зоне"
                        )
