"""Constant abilities in printed wording (Постоянная способность; issue 16, family 6).

* **A group of your creatures** — «Ваши гномы имеют +1 к удару и жизням.», «Другие ваши эльфы имеют
  +1 к жизням.», «Ваши существа имеют +1 к удару.»: while its card is in the game zone, every creature
  under the same player's control whose class is named (``characteristics.in_group``: the card's
  classes, the plural as printed) has the bonus — «другие» not the card itself. The bonus is a step of
  the numbers of ``characteristics`` (``hooks.CHARACTERISTIC``), after the card's own effects.
* **A keyword for a group** — «Ваши гномы имеют Броню 1.», «Другие ваши эльфы имеют Рывок.»: while its card
  is in the game zone (face up, its abilities not lost), every such creature of the same player has the
  keyword (``characteristics.abilities`` through ``hooks.STATIC_GRANTS``), combined with its own by the
  keyword's rule.
* **A cost for a group** — «Ваши гномы стоят на 1 дешевле.» (:class:`berserk_engine.costs.GroupCost`,
  203.3: it works from the game zone, for its controller's hand).
* **«Не получает ран, пока атакует.»** — the card takes no wounds of the counter-blow of the attack it
  makes (a strike attack or a fight; interpretation I-62).
* **«–1 от атак существ.»** — the strength of an attack by a creature on this card is lower (a shot of
  a creature too; an attack of a hero is not); like «–Х от атаки», after the attacker's modifiers.
* **«+N к жизням»** given by an effect — «Выбранное существо получает +2 к жизням до конца хода.»: the
  same as «получает 2 дополнительные жизни» (``keywords.extra_lives``; by default until the end of the
  battle, I-22).
* **Attack only this creature** — «Существа противника могут атаковать ударом только это существо.» and
  «Атакуя ударом, существа противника должны выбирать целью это существо.»: the printed forms of the
  ability that obliges to attack (``keywords.ignore_obligation``, I-34).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from berserk_engine import characteristics as ch
from berserk_engine import hooks
from berserk_engine.data import serializable
from berserk_engine.keywords import term

if TYPE_CHECKING:
    from berserk_engine.game import Game
    from berserk_engine.state import Attack, Card

STATIC = term(__name__, "постоянная-способность")


@dataclass(frozen=True, slots=True)
class GroupBonus:
    """«(Другие) ваши [группа] имеют +X к удару и +Y к жизням» while the card is in the game zone."""

    group: str  # the printed plural: «гномы», «существа»
    strike: int = 0
    life: int = 0
    other: bool = False


@dataclass(frozen=True, slots=True)
class GroupGrant:
    """«(Другие) ваши [группа] имеют [ключевое слово]» while the card is in the game zone: ``text`` — the
    keyword as its term writes it («Броня 1.», «Рывок.»)."""

    group: str  # the printed plural: «гномы», «существа»
    text: str
    other: bool = False


@dataclass(frozen=True, slots=True)
class NoWoundsAttacking:
    """«Не получает ран, пока атакует» (I-62)."""

    words: str = "Не получает ран, пока атакует"


@dataclass(frozen=True, slots=True)
class CreatureAttacksReduced:
    """«–X от атак существ»: attacks of creatures on this card are X weaker."""

    amount: int


# --- «Ваши гномы имеют +1 к удару и жизням» ------------------------------------------------------


def _has_group_bonus(d: Any) -> bool:
    return any(type(a.effect) is GroupBonus for a in d.abilities)


def _group_sources(game: Game) -> frozenset[str]:
    """Names of the cards of this game printed with a group bonus, found once per game."""
    return game.defs_with("group-bonus", _has_group_bonus)


def group_bonus(game: Game, card: Card, prop: str) -> int:
    """The bonus to ``prop`` («strike» | «life») of a creature from the group abilities in play."""
    names = _group_sources(game)
    d = card.definition
    if not names or d.type != "creature":
        return 0
    s = game.state
    total = 0
    for source_id in s.play:
        source = s.cards.get(source_id)  # None: the card is leaving the game zone right now
        if source is None or source.name not in names or source.controller != card.controller:
            continue
        for a in ch.abilities(game, source):
            bonus = a.effect
            if type(bonus) is not GroupBonus or (bonus.other and source_id == card.id):
                continue
            if ch.in_group(d, bonus.group):
                total += bonus.strike if prop == "strike" else bonus.life
    return total


hooks.set_relevant(group_bonus, lambda game: bool(_group_sources(game)))
hooks.CHARACTERISTIC.append(group_bonus)


# --- «Ваши гномы имеют Броню 1» ------------------------------------------------------------------


def _has_group_grant(d: Any) -> bool:
    return any(type(a.effect) is GroupGrant for a in d.abilities)


def group_grants(game: Game, card: Card) -> list[str]:
    """The keywords a creature has from the group abilities of cards in the game zone under the same
    player's control: the abilities printed on the source, unless it has lost them («теряет особенности»)."""
    names = game.defs_with("group-grant", _has_group_grant)
    d = card.definition
    if d.type != "creature" or card.zone != "play":
        return []
    s = game.state
    found: list[str] = []
    for source_id in s.play:
        source = s.cards.get(source_id)  # None: the card is leaving the game zone right now
        if source is None or source.controller != card.controller or source.name not in names:
            continue
        if source.face_down or ch.text_lost(game, source):
            continue
        for a in source.definition.abilities:
            grant = a.effect
            if type(grant) is not GroupGrant or (grant.other and source_id == card.id):
                continue
            if ch.in_group(d, grant.group):
                found.append(grant.text)
    return found


hooks.set_relevant(group_grants, lambda game: bool(game.defs_with("group-grant", _has_group_grant)))
hooks.STATIC_GRANTS.append(group_grants)


# --- «Не получает ран, пока атакует» (I-62) ------------------------------------------------------


def _has_no_wounds_attacking(d: Any) -> bool:
    return any(type(a.effect) is NoWoundsAttacking for a in d.abilities)


def _no_wounds_attacking(game: Game, event: Any) -> tuple[str, str] | None:
    if event.blow != "ответный удар":
        return None
    card = game.state.cards[event.target]
    if card.name not in game.defs_with("no-wounds-attacking", _has_no_wounds_attacking):
        return None
    if any(type(a.effect) is NoWoundsAttacking for a in ch.abilities(game, card)):
        return STATIC, "Не получает ран, пока атакует"
    return None


hooks.NO_WOUNDS.append(_no_wounds_attacking)
# the ability is read from the printed cards only (above): a game without one never asks
hooks.set_relevant(
    _no_wounds_attacking, lambda game: bool(game.defs_with("no-wounds-attacking", _has_no_wounds_attacking))
)


# --- «–1 от атак существ» ------------------------------------------------------------------------


def _has_reduction(d: Any) -> bool:
    return any(type(a.effect) is CreatureAttacksReduced for a in d.abilities)


def _creature_attacks(game: Game, attack: Attack, strength: int) -> int:
    s = game.state
    target = s.cards.get(attack.target)
    if target is None or target.name not in game.defs_with("creature-attacks-reduced", _has_reduction):
        return strength
    attacker = s.cards.get(attack.attacker)
    kind = attacker.definition.type if attacker is not None else s.lki.get(attack.attacker, {}).get("type")
    if kind != "creature":
        return strength
    for a in ch.abilities(game, target):
        if type(a.effect) is CreatureAttacksReduced:
            strength -= a.effect.amount
    return strength


hooks.ATTACK_STRENGTH.append(_creature_attacks)
# the ability is read from the printed cards only (above): a game without one never asks
hooks.set_relevant(
    _creature_attacks, lambda game: bool(game.defs_with("creature-attacks-reduced", _has_reduction))
)


serializable(GroupBonus, GroupGrant, NoWoundsAttacking, CreatureAttacksReduced)
