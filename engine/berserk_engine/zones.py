"""Part 2 — zones, and the one way a card changes zone.

Zone tables (201.1–201.5): the game zone is shared; hand, deck, graveyard, reserve and sideboard are
private, one of each per player. Open zones (the game zone, the graveyards, and «resolving» — the
public place where a played spell waits while its abilities resolve) are seen by both players;
half-closed zones (hand, reserve, sideboard) by their owner only; the deck by nobody (its size is
open, 204.1).

:func:`move` is the only function that moves a card. It applies 203.4 / 204.4 (a card that goes to a
hand, a deck or a graveyard goes to its owner's; it loses all effects and markers and comes back as
another card), keeps the last known information of a card that leaves the game zone (403.1), gives
the card a new object id (so a card that leaves a hidden zone cannot be followed back to its place in
the deck) and logs one entry.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from berserk_engine import characteristics as ch
from berserk_engine import rng
from berserk_engine.cards import CHARACTER_TYPES
from berserk_engine.event_types import MoveEvent
from berserk_engine.state import Card, ContinuousEffect

if TYPE_CHECKING:
    from berserk_engine.game import Game

PRIVATE_ZONES = ("hand", "deck", "graveyard", "reserve", "sideboard")
SHARED_ZONES = ("play", "resolving")
ZONES = (*SHARED_ZONES, *PRIVATE_ZONES)
OPEN_ZONES = frozenset({"play", "resolving", "graveyard"})  # 201.3
OWNER_ONLY_ZONES = frozenset({"hand", "reserve", "sideboard"})  # 201.4
CLOSED_ZONES = frozenset({"deck"})  # 201.5
OWNERS_ZONES = frozenset({"hand", "deck", "graveyard"})  # 203.4, 204.4, «Владелец карты»

ZONE_WORDS = {
    "play": "игровая зона",
    "resolving": "разыгрывается",
    "hand": "рука",
    "deck": "колода",
    "graveyard": "кладбище",
    "reserve": "запас",
    "sideboard": "сайдборд",
}


def visible(zone: str, owner: str, viewer: str | None) -> bool:
    """May ``viewer`` (None: the judge) see the cards of this zone of ``owner``?"""
    return viewer is None or zone in OPEN_ZONES or (zone in OWNER_ONLY_ZONES and viewer == owner)


def zone_list(game: Game, zone: str, owner: str) -> list[str]:
    s = game.state
    if zone == "play":
        return s.play
    if zone == "resolving":
        return s.resolving
    return s.players[owner].zones[zone]


class Squad:
    """Отряд: the cards a player controls in the game zone (his hero included), in order of arrival —
    all of them and by role."""

    __slots__ = ("activatable", "cards", "characters", "creatures", "equipment")

    # written out, not generated: compiled, a generated __init__ runs interpreted (architecture.md)
    def __init__(self) -> None:
        self.cards: list[str] = []  # every card of the squad (``squad.squad``)
        self.creatures: list[str] = []  # type «creature»: the attackers' candidates (307.1)
        self.characters: list[str] = []  # creatures and heroes: the attacked candidates (I-15)
        self.equipment: list[str] = []  # one of each subtype per player («Экипировка»)
        # a printed activated ability, or one an effect may grant it (308.1): an effect that grants an
        # activated ability, or any effect on the card while a constant ability grants texts in this
        # game (``activation._activated`` then asks for all its abilities)
        self.activatable: list[str] = []


class PlayIndex:
    """The game zone by role and by controller, in order of arrival: what the listing of legal actions
    walks instead of the whole zone (:meth:`berserk_engine.game.Game.in_play`). A move updates it
    (:func:`moved_in_index`); a change of control or of face, or an effect granting an activated
    ability that begins or ends, makes it again (``Game.zones_changed``, ``Game.effects_changed``).
    Whether a card is closed or face down is read from the card itself: that changes without the index."""

    __slots__ = ("creatures", "squads")

    # written out, not generated: compiled, a generated __init__ runs interpreted (architecture.md)
    def __init__(self, creatures: list[str], squads: dict[str, Squad]) -> None:
        self.creatures = creatures  # every creature of the game zone
        self.squads = squads  # player -> his squad (every player has one, empty or not)


def grants_activated(effect: ContinuousEffect) -> bool:
    """Does the effect grant an activated ability («получает «[Закрыть]: …»»)?"""
    return effect.kind == "grant" and ch.ability(effect.text).kind == "activated"


def index_play(game: Game) -> PlayIndex:
    """The game zone by role and controller, computed afresh (:class:`PlayIndex`)."""
    s = game.state
    index = PlayIndex([], {player: Squad() for player in s.players})
    for card_id in s.play:
        _enter(game, index, s.cards[card_id])
    return index


def _enter(game: Game, index: PlayIndex, card: Card) -> None:
    """The card, last in the game zone's order, into the index."""
    d = card.definition
    card_id = card.id
    squad = index.squads[card.controller]
    squad.cards.append(card_id)
    if d.type in CHARACTER_TYPES:
        squad.characters.append(card_id)
        if d.type == "creature":
            index.creatures.append(card_id)
            squad.creatures.append(card_id)
    elif d.type == "equipment":
        squad.equipment.append(card_id)
    if d.activated:
        squad.activatable.append(card_id)
    else:
        effects = game.by_card.get(card_id)
        # with a constant ability granting texts in this game, any effect makes the abilities be computed
        if effects and (game.handlers.STATIC_GRANTS or any(grants_activated(e) for e in effects)):
            squad.activatable.append(card_id)


def moved_in_index(game: Game, index: PlayIndex, left: Card | None, entered: Card | None) -> None:
    """A card left the game zone and/or one entered it (last in its order): the index follows, as
    :func:`index_play` would find it."""
    if left is not None:
        old = left.id
        squad = index.squads[left.controller]
        squad.cards.remove(old)
        for found in (index.creatures, squad.creatures, squad.characters, squad.equipment, squad.activatable):
            if old in found:
                found.remove(old)
    if entered is not None:
        _enter(game, index, entered)


def holding_list(game: Game, card: Card) -> list[str]:
    """The list that holds the card now: its owner's private zone — or, for a card placed into another
    player's deck (204.5), that player's deck."""
    found = zone_list(game, card.zone, card.owner)
    if card.zone in SHARED_ZONES or card.id in found:
        return found
    for player in game.state.players:
        other = zone_list(game, card.zone, player)
        if card.id in other:
            return other
    return found


def snapshot(game: Game, card: Card) -> dict[str, Any]:
    """Information about the card as it is now: kept as last known information (403.1)."""
    return {
        "id": card.id,
        "serial": card.serial,
        "name": card.name,
        "owner": card.owner,
        "controller": card.controller,
        "zone": card.zone,
        "type": card.definition.type,
        "strike": ch.strike(game, card),
        "life": ch.life(game, card),
        "wounds": card.wounds,
        "closed": card.closed,
        "markers": card.marker_counts(),
        "abilities": [a.text for a in ch.abilities(game, card)],
        "wounded_by": card.this_turn.wounded_by if card.this_turn is not None else None,  # I-60
    }


def move(
    game: Game,
    card_id: str,
    to_zone: str,
    *,
    cause: str = "",
    position: str = "top",
    controller: str | None = None,
    closed: bool = False,
    face_down: bool = False,
) -> str:
    """Move a card (by its current object id) to ``to_zone``; returns the new object id."""
    ev = MoveEvent(card_id, to_zone, cause, position, controller, closed, face_down)
    move_event(game, ev)
    return ev.new_id


def move_event(game: Game, ev: MoveEvent) -> None:
    s = game.state
    card = s.cards.pop(ev.card)
    from_zone = card.zone
    ev.from_zone = from_zone
    ev.name, ev.owner = card.name, card.owner
    ev.card_type = card.definition.type
    if from_zone == "play" and ev.cause != "game_over":
        ev.lki = snapshot(game, card)
        s.lki[card.id] = ev.lki
    try:
        zone_list(game, from_zone, card.owner).remove(card.id)
    except ValueError:  # a card placed into another player's deck (204.5)
        holding_list(game, card).remove(card.id)
    shared = ev.to_zone in SHARED_ZONES
    # 203.4, 204.4: outside the game zone a card is its owner's — a hand, a deck, a graveyard.
    controller = (ev.controller or card.owner) if shared else card.owner
    new = Card(
        id=s.next_id("c"),
        name=card.name,
        owner=card.owner,
        controller=controller,
        zone=ev.to_zone,
        serial=card.serial,
        closed=ev.closed,
        face_down=ev.face_down,
    )
    new.definition = card.definition
    # «Один (Х) раз за ход»: the special markers stay while the card is in the game zone or the
    # graveyard (interpretation I-16); every other marker and effect is lost (203.4, 204.4, Гибель).
    if ev.to_zone == "graveyard" and card.uses:
        new.uses = dict(card.uses)
    if ev.to_zone == "play":
        new.entered_turn = s.turn
    s.cards[new.id] = new
    ev.new_id = new.id
    if from_zone == "play" or ev.to_zone == "play":
        # indexes of the game zone (listeners, keywords present; the index by role follows the move)
        game.zones_changed(card if from_zone == "play" else None, new if ev.to_zone == "play" else None)
    elif "hand" in (from_zone, ev.to_zone):
        for h in game.handlers.HAND_CHANGED:
            h(game)
    # 204.5: a placed card goes to the deck of the player named, not necessarily its owner's.
    zone_owner = ev.deck_of if ev.to_zone == "deck" and ev.deck_of else card.owner
    target = zone_list(game, ev.to_zone, zone_owner)
    if ev.to_zone == "deck":
        if ev.position == "bottom":
            target.append(new.id)
        else:
            target.insert(0, new.id)
            if ev.position == "shuffle":
                shuffle(game, zone_owner)
    else:
        target.append(new.id)
    _drop_effects(game, card.id, new.id, from_zone, ev.to_zone)
    _log_move(game, ev, card, new)


def _drop_effects(game: Game, old_id: str, new_id: str, from_zone: str, to_zone: str) -> None:
    """Effects on the old object end — unless a rule keeps them on the card (``hooks.EFFECT_KEPT``:
    «Инкарнация»); effects that last while their source is in play end too."""
    s = game.state
    for e in s.effects:  # most moves touch no effect: found without a generator
        if e.target == old_id or (e.until == "source_leaves" and e.source == old_id):
            break
    else:
        return
    kept = []
    for e in s.effects:
        if e.until == "source_leaves" and e.source == old_id:
            continue
        if e.target == old_id:
            if not any(h(game, e, from_zone, to_zone) for h in game.handlers.EFFECT_KEPT):
                continue
            e.target = new_id
        kept.append(e)
    s.effects = kept
    game.effects_changed()


CAUSE_WORDS = {
    "mulligan": ("уходит под низ колоды", "пересдача"),
    "dies": ("погибает", "гибель-существа-карты"),
    "destroy": ("уничтожается", "уничтожить-карту"),
    "put": ("кладётся на кладбище", "убрать-положить-поместить-на-кладбище"),
    "discard": ("сбрасывается", "сбросьте-карту"),
    "return": ("возвращается", "вернуть-убрать-в-колоду"),
    "play": ("разыгрывается", "309.1"),
    "summon": ("вызывается", "вызов-вызвать"),
    "resurrect": ("возрождается", "возрождение-возродить"),
    "search": ("находится поиском", "поиск-карта-карты"),
    "uniqueness": ("уходит на кладбище", "уникальность"),
    "resolved": ("уходит на кладбище", "заклинание"),
    "place": ("помещается", "204.5"),
}


def _log_move(game: Game, ev: MoveEvent, old: Card, new: Card) -> None:
    if ev.cause in ("draw", "game_over"):
        return  # the draw event logs it, privately; the end of the game logs its tidy-up once
    verb, rule = CAUSE_WORDS.get(ev.cause, ("перемещается", "покинуть-игровую-зону"))
    owner = f" игрока {new.owner}" if ev.to_zone in OWNERS_ZONES else ""
    if ev.deck_of and ev.to_zone == "deck":
        owner = f" игрока {ev.deck_of}"
    # both players see the card on both sides of the move (``visible``): only open zones are seen by both
    seen_by_both = ev.from_zone in OPEN_ZONES and ev.to_zone in OPEN_ZONES
    what = f"«{old.name}»" if seen_by_both else "Карта"
    game.log(
        "move",
        f"{what} {verb}: {ZONE_WORDS[ev.from_zone]} → {ZONE_WORDS[ev.to_zone]}{owner}",
        card=new.id,
        was=old.id,
        name=old.name,
        from_zone=ev.from_zone,
        to_zone=ev.to_zone,
        cause=ev.cause,
        player=new.owner,
        rule=rule,
        private_to=None if seen_by_both else new.owner,
        # a death is found by the death check (I-9, «Гибель»): wounds not fewer than lives
        deciding=["гибель-существа-карты", "I-9"] if ev.cause == "dies" else None,
    )


def shuffle(game: Game, player: str, rule: str = "перемешивание-колоды") -> None:
    """Перемешивание колоды: the order becomes random and unknown to both players (204.2, 204.3)."""
    s = game.state
    deck = s.players[player].zones["deck"]
    s.rng = rng.shuffle(s.rng, deck)
    # New ids: nobody can follow a card through a shuffle.
    for i, old_id in enumerate(deck):
        card = s.cards.pop(old_id)
        card.id = s.next_id("c")
        s.cards[card.id] = card
        deck[i] = card.id
    game.log("shuffle", f"Колода игрока {player} перемешивается", player=player, rule=rule)
