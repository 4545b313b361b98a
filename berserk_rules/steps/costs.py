"""Шаги стоимости и розыгрыша (203, 501): стоимость карты, её розыгрыш и цели, заявки способностей.

Стоимость карты в руке и в игровой зоне (203.2–203.3), может ли игрок разыграть карту, законные
цели заклинания, маркеры «раз за ход» (501.2), заявки в Очереди (501.1).
"""

from __future__ import annotations

from typing import Any

from berserk_rules.steps.checks import expect
from berserk_rules.steps.context import ScenarioGame, copy_of, same_text
from berserk_rules.steps.registry import then

# --- Тогда: стоимость (203.2–203.3), оплата (501.2), заявка (501.1) ----------------------------------


@then(
    "стоимость «{name:N}» в руке игрока {p:P}: {n:d}",
    example="Тогда стоимость «Кутила» в руке игрока А: 6",
)
def cost_in_hand(game: ScenarioGame, name: str, p: str, n: int) -> None:
    """Сколько стоит карта в руке игрока сейчас — за столько он её разыграет (видит только он)."""
    card, path = game.locate(name, "hand", p, viewer=p)
    expect(card.get("cost"), n, f"стоимость «{name}» в руке")
    game.record(p, [*path, "cost"], n)


@then("стоимость «{name:N}» в игровой зоне: {n:d}", example="Тогда стоимость «Кутила» в игровой зоне: 10")
def cost_in_play(game: ScenarioGame, name: str, n: int) -> None:
    """Стоимость карты, находящейся в игровой зоне."""
    card, path = game.locate(name)
    expect(card.get("cost"), n, f"стоимость «{name}» в игровой зоне")
    game.record(None, [*path, "cost"], n)


def _playable(game: ScenarioGame, p: str) -> list[str]:
    """The cards (ids) ``p`` may play now (none if the decision is not his)."""
    game.needs(actions=("play",))
    d = game.decision()
    if not d or d["player"] != p:
        return []
    return [o["card"] for o in d["options"] if o["type"] == "play"]


def _hand_ids(game: ScenarioGame, p: str, name: str) -> list[str]:
    """The cards in ``p``'s hand the name names: every card of a plain name, or that copy."""
    if copy_of(name)[1] is not None:
        return [game.card(name, "hand", p)["id"]]
    game.card(name, "hand", p)  # there is one at least
    return [
        c["id"] for c in game.view(None)["players"][p]["zones"]["hand"]["cards"] or [] if c["name"] == name
    ]


@then("игрок {p:P} может разыграть «{name:N}»", example="Тогда игрок А может разыграть «Кутила»")
def may_play(game: ScenarioGame, p: str, name: str) -> None:
    """Среди законных действий игрока есть розыгрыш этой карты из руки (копии — по номеру в руке)."""
    playable = [c for c in _hand_ids(game, p, name) if c in _playable(game, p)]
    if not playable:
        raise AssertionError(f"игрок {p} не может разыграть «{name}»")
    if len(_hand_ids(game, p, name)) == 1:  # several copies in hand: «any of them» is no single check
        game.record_option(p, {"type": "play", "card": playable[0]}, present=True)


@then("игрок {p:P} не может разыграть «{name:N}»", example="Тогда игрок А не может разыграть «Кутила»")
def may_not_play(game: ScenarioGame, p: str, name: str) -> None:
    """Розыгрыша этой карты нет среди законных действий игрока. Шаг требует, чтобы карта была в руке
    игрока, а сам он выбирал действие фазы выбора."""
    game.pending(p, "choose_action")
    game.require(name, "hand", p)
    cards = _hand_ids(game, p, name)
    if any(c in _playable(game, p) for c in cards):
        raise AssertionError(f"игрок {p} может разыграть «{name}»")
    for card in cards:
        game.record_option(p, {"type": "play", "card": card}, present=False)


def _same_cards(game: ScenarioGame, ids: list[str], names: list[str]) -> bool:
    """Are the cards ``ids`` exactly the ones ``names`` name (a plain name: any card of that name in
    the game zone, once per naming; a copy: that very card)?"""
    shown = {c["id"]: c.get("name") for c in game.view(None)["play"]}
    left = list(ids)
    for name in sorted(names, key=lambda n: copy_of(n)[1] is None):  # copies first: they are exact
        found = next((i for i in left if game.names(name, i, shown.get(i))), None)
        if found is None:
            return False
        left.remove(found)
    return not left


@then(
    "целью «{spell:N}» игрок {p:P} может выбрать только {cards:L}",
    example="Тогда целью «Огневой залп» игрок А может выбрать только «Гном»",
)
def spell_targets(game: ScenarioGame, spell: str, p: str, cards: list[str]) -> None:
    """Законные цели заклинания при розыгрыше — ровно эти карты (202.2: только карты в игровой зоне,
    если не сказано иного)."""
    game.needs(actions=("play",))
    d = game.decision()
    if d is None or d["player"] != p:
        raise AssertionError(f"решение сейчас не за игроком {p}: разыграть «{spell}» он не может")
    hand = _hand_ids(game, p, spell)
    options = [o for o in d.get("options", []) if o["type"] == "play" and o["card"] in hand]
    if not options:
        raise AssertionError(f"игрок {p} не может разыграть «{spell}» сейчас")
    candidates = [c for slot in options[0].get("slots", []) for c in slot["candidates"]]
    if not _same_cards(game, candidates, cards):
        names = {c["id"]: c.get("name") for c in game.view(p)["play"]}
        expect(sorted(names.get(c, c) for c in candidates), sorted(cards), f"цели «{spell}»")
        raise AssertionError(f"цели «{spell}»: ожидались {cards}, на деле другие карты тех же названий")
    _record_targets(game, p, spell, options[0], cards)


def _record_targets(game: ScenarioGame, p: str, spell: str, option: dict[str, Any], cards: list[str]) -> None:
    """Record the candidates of the option's one slot as cards: exactly these. Only when the option is
    that of the one card of this name in the hand, every candidate is in the game zone, and every
    card the step names is one card there — a copy, or the one card of its name: then the cards say
    just what the names say."""
    if game.recorder is None:
        return
    slots = option.get("slots") or []
    play_names = [c["name"] for c in game.view(None)["play"]]
    if (
        len(_hand_ids(game, p, spell)) != 1
        or len(slots) != 1
        or any(c not in {card["id"] for card in game.view(None)["play"]} for c in slots[0]["candidates"])
        or any(copy_of(name)[1] is None and play_names.count(name) != 1 for name in cards)
    ):
        return
    slot = ["decision", "options", {"type": "play", "card": option["card"]}, "slots"]
    game.record(None, [*slot, 0], exists=True)
    game.record(None, [*slot, 1], exists=False)
    candidates = slots[0]["candidates"]
    if candidates:
        game.record(None, [*slot, 0, "candidates", len(candidates) - 1], exists=True)
    game.record(None, [*slot, 0, "candidates", len(candidates)], exists=False)
    for card in candidates:
        game.record(None, [*slot, 0, "candidates", {"$value": card}], exists=True)


@then(
    "у «{name:N}» маркеров «раз за ход»: {n:d}",
    example="Тогда у «Писарь» маркеров «раз за ход»: 1",
)
def per_turn_markers(game: ScenarioGame, name: str, n: int) -> None:
    """Сколько специальных маркеров «Один (Х) раз за ход» на карте в игровой зоне (501.2: ограничение
    числа раз за ход — часть оплаты)."""
    expect(sum(game.card(name).get("uses", {}).values()), n, f"маркеры «раз за ход» на «{name}»")


@then(
    "в Очереди заявка «{ability:N}» карты «{source:N}» с целью «{target:N}»",
    example="Тогда в Очереди заявка «В начале хода: ранить на 1 выбранное существо.» карты «Лучник» "
    "с целью «Гоблин»",
)
def queued_with_target(game: ScenarioGame, ability: str, source: str, target: str) -> None:
    """Заявка в Очереди называет источник, способность и цель (501.1)."""
    _queued(game, ability, source, [target])


def _queued(game: ScenarioGame, ability: str, source: str, targets: list[str]) -> None:
    """Is there a declaration of this ability of this source in the Очередь with exactly these
    targets (cards named as every step names them)?"""
    view = game.view(None)
    item = next(
        (
            q
            for q in view["queue"]
            if same_text(q["text"], ability)
            and game.names(source, q.get("source"), q["source_name"])
            and _same_cards(game, q["targets"], targets)
        ),
        None,
    )
    if item is None:
        names = {c["id"]: c["name"] for c in view["play"]}
        found = [
            (q["text"], q["source_name"], [names.get(t, t) for t in q["targets"]]) for q in view["queue"]
        ]
        aim = f"с целью «{targets[0]}»" if targets else "без цели"
        raise AssertionError(f"в Очереди нет заявки «{ability}» карты «{source}» {aim}: {found}")
    pattern: dict[str, Any] = {"text": item["text"], "targets": item["targets"]}
    if copy_of(source)[1] is None:
        pattern["source_name"] = source
    else:
        pattern["source"] = item["source"]
    game.record(None, ["queue", pattern], exists=True)


@then(
    "в Очереди заявка «{ability:N}» карты «{source:N}» без цели",
    example="Тогда в Очереди заявка «В начале хода: возьмите карту.» карты «Писарь» без цели",
)
def queued_without_target(game: ScenarioGame, ability: str, source: str) -> None:
    """Заявка без цели называет только источник и способность (501.1)."""
    _queued(game, ability, source, [])
