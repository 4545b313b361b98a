"""Targets and «each» through one composable description (:class:`~berserk_engine.abilities.Selector`),
used both to list the legal targets of a declaration (501.1, Выбранное существо) and to find the cards
an effect applies to on resolution.

Legal targets are in the game zone (202.2; Кладбище: «нельзя выбирать целью карты на кладбище»),
face up, and not protected from being chosen (``hooks.UNTARGETABLE``: «Скрытность», «Защита от
заклинаний»). On resolution a chosen target that is no longer the same object in the game zone is
skipped — the ability resolves as far as possible (518.1, interpretation I-4).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from berserk_engine.abilities import Ability, Selector, same_class

if TYPE_CHECKING:
    from berserk_engine.game import Game
    from berserk_engine.state import QueueItem


def _matches(game: Game, card_id: str, sel: Selector, controller: str, source: str) -> bool:
    card = game.state.cards[card_id]
    if card.definition.type not in sel.types:
        return False
    if sel.side == "own" and card.controller != controller:
        return False
    if sel.side == "enemy" and card.controller == controller:
        return False
    if sel.other and card_id == source:
        return False
    return not (sel.classes or sel.condition) or _fits(game, card, sel)


def _fits(game: Game, card: Any, sel: Selector) -> bool:
    """The class and the condition a selector asks of a card («ваш эльф», «отравленное существо»,
    «существо стоимостью 2 или меньше»)."""
    if sel.classes and not of_class(card.definition.classes, sel.classes):
        return False
    condition = sel.condition
    if not condition:
        return True
    if condition == "poisoned":
        from berserk_engine import characteristics as ch
        from berserk_engine.keywords.poison import POISON

        return bool(ch.keyword(game, card, POISON.term))
    if condition == "wounded":
        return card.wounds > 0
    if condition == "unwounded":
        return card.wounds == 0
    if condition == "closed":
        return card.closed
    if condition == "open":
        return not card.closed
    if condition.startswith("name:"):  # «существо с именем «Волчонок»»
        return card.name == condition[5:]
    if condition.startswith("cost<="):
        return card.definition.cost <= int(condition[6:])
    if condition.startswith("strike>="):  # «существо в игре с ударом 6 или более» (issue 29, I-104)
        from berserk_engine import characteristics as ch

        return ch.strike(game, card) >= int(condition[8:])
    if condition.startswith("strike<="):  # «существо с ударом 2 или менее»
        from berserk_engine import characteristics as ch

        return ch.strike(game, card) <= int(condition[8:])
    raise AssertionError(f"unknown selector condition {condition!r}")


def of_class(classes: tuple[str, ...], wanted: tuple[str, ...]) -> bool:
    """Is a creature of these classes of one of the classes a text names («ваши феи»: a creature whose
    card says «фея»)? The words are compared whatever their case and number (:func:`same_class`)."""
    return any(same_class(c, w) for c in classes for w in wanted)


def candidates(
    game: Game,
    sel: Selector,
    controller: str,
    source: str,
    kind: str = "ability",
    ability: Ability | None = None,
) -> list[str]:
    """Cards that may be chosen for a chosen-target slot of ``ability`` (``kind``: "spell" |
    "ability"). The opponent's card lying face down is not a target (he does not know what it is);
    a card hidden by «Скрытность» is nobody's target (``hooks.UNTARGETABLE``)."""
    s = game.state
    cards = s.cards
    types, side, other = sel.types, sel.side, sel.other
    only = types[0] if len(types) == 1 else ""  # one type, the common case: compared, not searched
    own, enemy = side == "own", side == "enemy"
    fits = bool(sel.classes or sel.condition)
    untargetable = game.handlers.UNTARGETABLE
    found = []
    # «существо», the common case: the creatures of the game zone (``Game.in_play``), not all of it —
    # «ваше существо»: those of the controller's squad
    typed = only == "creature"
    if typed:
        index = game.in_play()
        pool = index.squads[controller].creatures if own else index.creatures
    else:
        pool = s.play
    for card_id in pool:
        card = cards[card_id]
        if not typed:
            kind_of = card.definition.type
            if (kind_of != only) if only else (kind_of not in types):
                continue
        mine = card.controller == controller
        if (enemy and mine) or (own and not mine):
            continue
        if other and card_id == source:
            continue
        if fits and not _fits(game, card, sel):
            continue
        if card.face_down and not mine:
            continue
        if untargetable and _untargetable(untargetable, game, card, controller, kind, source, ability):
            continue
        found.append(card_id)
    return found


def _untargetable(
    handlers: Any, game: Game, card: Any, controller: str, kind: str, source: str, ability: Any
) -> bool:
    for h in handlers:
        if h(game, card, controller, kind, source, ability):
            return True
    return False


def resolve(game: Game, sel: Selector, item: QueueItem) -> list[str]:
    """The cards an effect applies to now (518.1: as far as possible)."""
    s = game.state
    mode = sel.mode
    if mode in ("chosen", "ref") and sel.count > 1:  # «двух разных существ», «каждое из них» (I-91)
        found = []
        for target in item.targets[sel.slot : sel.slot + sel.count] if sel.slot >= 0 else ():
            card = s.cards.get(target)
            if card is not None and card.zone == "play":
                found.append(target)
        return found
    if mode == "chosen" or mode == "ref":
        if not 0 <= sel.slot < len(item.targets):
            return []
        target = item.targets[sel.slot]
        card = s.cards.get(target)
        return [target] if card is not None and card.zone == "play" else []
    if mode == "own_hero":
        return [s.players[item.controller].hero]
    if mode == "enemy_hero":
        return [s.players[game.opponent(item.controller)].hero]
    if mode == "self":
        card = s.cards.get(item.source)
        return [item.source] if card is not None and card.zone == "play" else []
    if mode == "event":  # the card the event was about, if it is such a card («атакованное существо»)
        target = item.event.get("card", "")
        card = s.cards.get(target)
        if card is None or card.zone != "play":
            return []
        return [target] if _matches(game, target, sel, item.controller, item.source) else []
    if mode == "each":  # not a target: a card lying face down is not affected («Скрытность»)
        return [
            c
            for c in s.play
            if _matches(game, c, sel, item.controller, item.source) and not s.cards[c].face_down
        ]
    raise AssertionError(f"unknown selector mode {mode!r}")
