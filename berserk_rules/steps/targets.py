"""Шаги целей заявки: несколько целей одной способности («двух разных существ») и цели «до N существ»,
из которых игрок называет сколько хочет — от нуля до N разных (толкование I-67).

Слот варианта с полем ``optional`` можно оставить пустым: на его месте в ``targets`` — null. Шаги
называют цели по порядку слотов, а слоты, для которых цели не названы, оставляют пустыми.
"""

from __future__ import annotations

from typing import Any

from berserk_rules.steps.checks import expect
from berserk_rules.steps.context import ScenarioGame, bare
from berserk_rules.steps.registry import then, when


def _names_in_play(game: ScenarioGame) -> dict[str, str]:
    return {c["id"]: c.get("name", "") for c in game.view(None)["play"]}


def fill(
    game: ScenarioGame, p: str, slots: list[dict[str, Any]], names: list[str], *, legal: bool
) -> list[str | None]:
    """Targets for the slots: the named cards in slot order, null in the slots left over (an action that
    must be accepted leaves only optional slots empty).
    ``legal`` (the action must be accepted): a name takes a candidate of its slot, and the slots of one
    group (``distinct``) take different copies of one name; otherwise (an attempt the engine should
    refuse) a name is the first card of that name, as the scenario wrote it."""
    if len(names) > len(slots):
        if legal:
            raise AssertionError(f"целей названо {len(names)}, а слотов у варианта {len(slots)}: {names}")
        slots = [*slots, *({"candidates": []} for _ in range(len(names) - len(slots)))]  # the engine refuses
    shown = _names_in_play(game)
    used: set[tuple[Any, str]] = set()
    targets: list[str | None] = []
    for i, slot in enumerate(slots):
        if i >= len(names):
            if legal and not slot.get("optional"):
                raise AssertionError(f"цель для слота «{slot.get('name')}» обязательна: названы {names}")
            targets.append(None)  # an attempt leaves a slot that must be filled empty: the engine refuses
            continue
        name = names[i]
        group = slot.get("distinct")
        found = None
        if legal:
            found = next(
                (
                    c
                    for c in slot["candidates"]
                    if game.names(name, c, shown.get(c)) and (group is None or (group, c) not in used)
                ),
                None,
            )
            if found is None:
                offered = sorted(shown.get(c, c) for c in slot["candidates"])
                raise AssertionError(
                    f"«{name}» нельзя назвать в слоте «{slot.get('name')}»; кандидаты: {offered}"
                )
        else:
            found = game.any_card_id(name, p)
            if found is None:
                raise AssertionError(f"«{name}» нет ни в игровой зоне, ни в руке игрока {p}")
        if group is not None:
            used.add((group, found))
        targets.append(found)
    return targets


def _play_option(game: ScenarioGame, p: str, name: str) -> dict[str, Any] | None:
    game.needs(actions=("play",))
    d = game.decision()
    if d is None or d["player"] != p or not game.has_card(name, "hand", p):
        return None
    card = game.card(name, "hand", p)["id"]
    return next((o for o in d["options"] if o["type"] == "play" and o["card"] == card), None)


def play_with(game: ScenarioGame, p: str, name: str, names: list[str], *, legal: bool) -> None:
    """Play a card naming these targets in slot order (the optional slots left over stay empty)."""
    option = _play_option(game, p, name)
    if option is None:
        if legal:
            raise AssertionError(f"игрок {p} не может разыграть «{name}»")
        from berserk_rules.steps.actions import _play

        game.attempt(p, _play(game, p, name, names))
        return
    targets = fill(game, p, option.get("slots") or [], names, legal=legal)
    action = bare(option, targets)  # type: ignore[arg-type]
    if legal:
        game.act(p, action)
    else:
        game.attempt(p, action)


@when(
    "игрок {p:P} разыгрывает «{name:N}» без целей",
    example="Когда игрок А разыгрывает «Град камней» без целей",
)
def play_no_targets(game: ScenarioGame, p: str, name: str) -> None:
    """Игрок разыгрывает заклинание, не называя ни одной цели: так можно, только если все его цели
    необязательны («до двух существ», толкование I-67)."""
    play_with(game, p, name, [], legal=True)


def _declare_with(
    game: ScenarioGame, p: str, ability: str, source: str, names: list[str], kind: str = "declare"
) -> None:
    found = game.matching_options(p, kind, ability, source)
    if not found:
        d = game.decision()
        verb = "заявить" if kind == "declare" else "объявить"
        raise AssertionError(
            f"игрок {p} не может {verb} «{ability}» карты «{source}»; решение: {d and d['kind']} "
            f"игрока {d and d['player']}"
        )
    option = found[0]
    game.act(p, bare(option, fill(game, p, option.get("slots") or [], names, legal=True)))  # type: ignore[arg-type]


@when(
    "игрок {p:P} объявляет «{ability:N}» карты «{source:N}» с целями {targets:L}",
    example="Когда игрок А объявляет «[Закрыть], Х [Монета]: Х персонажей не могут быть выбраны целью "
    "заклинаний и способностей до конца хода.» карты «Хранитель рощи» с целями «Волк» и «Медведь»",
)
def activate_targets(game: ScenarioGame, p: str, ability: str, source: str, targets: list[str]) -> None:
    """Активируемая способность с несколькими целями — по порядку слотов (501.1); слоты, для которых цели не
    названы («до N …», Х целей оплаты «Х [Монета]», толкование I-115), остаются пустыми."""
    _declare_with(game, p, ability, source, targets, "activate")


@then(
    "игрок {p:P} называет для способности «{ability:N}» карты «{source:N}» "
    "от {least:d} до {most:d} разных целей",
    example="Тогда игрок А называет для способности «[Закрыть], Х [Монета]: Х персонажей не могут быть "
    "выбраны "
    "целью заклинаний и способностей до конца хода.» карты «Хранитель рощи» от 0 до 2 разных целей",
)
def activation_target_bounds(
    game: ScenarioGame, p: str, ability: str, source: str, least: int, most: int
) -> None:
    """Сколько целей игрок называет, объявляя эту активируемую способность: столько слотов у варианта
    объявления, необязательных среди них — разница (у оплаты «Х [Монета]» — по одному на монету, которую игрок
    может заплатить, толкование I-115)."""
    found = game.matching_options(p, "activate", ability, source)
    if not found:
        raise AssertionError(f"игрок {p} не может объявить «{ability}» карты «{source}» сейчас")
    slots = found[0].get("slots") or []
    required = sum(1 for s in slots if not s.get("optional"))
    expect((required, len(slots)), (least, most), f"сколько целей называет игрок {p} для «{ability}»")
    path = ["decision", "options", {"type": "activate", "card": found[0]["card"]}, "slots"]
    game.record_count(p, path, {}, len(slots))
    game.record_count(p, path, {"optional": True}, len(slots) - required)


@when(
    "игрок {p:P} заявляет «{ability:N}» карты «{source:N}» с целями {targets:L}",
    example="Когда игрок А заявляет «Найм: ранить на 1 до двух существ противника.» карты «Пращница» "
    "с целями «Волк» и «Страж»",
)
def declare_targets(game: ScenarioGame, p: str, ability: str, source: str, targets: list[str]) -> None:
    """Заявка срабатывающей способности с несколькими целями — по порядку слотов (501.1); слоты «до N …»,
    для которых цели не названы, остаются пустыми."""
    _declare_with(game, p, ability, source, targets)


@when(
    "игрок {p:P} заявляет «{ability:N}» карты «{source:N}» без целей",
    example="Когда игрок А заявляет «Найм: ранить на 1 до двух существ противника.» карты «Пращница» "
    "без целей",
)
def declare_no_targets(game: ScenarioGame, p: str, ability: str, source: str) -> None:
    """Заявка способности, все цели которой необязательны («до N существ»), без единой цели."""
    _declare_with(game, p, ability, source, [])


@then(
    "игрок {p:P} называет для «{name:N}» от {least:d} до {most:d} разных целей",
    example="Тогда игрок А называет для «Град камней» от 0 до 2 разных целей",
)
def target_bounds(game: ScenarioGame, p: str, name: str, least: int, most: int) -> None:
    """Сколько целей игрок называет, разыгрывая эту карту из руки: не меньше и не больше — столько
    слотов у варианта розыгрыша, необязательных среди них (``optional``) — разница; все слоты — одной
    группы разных карт (``distinct``), если их больше одного."""
    option = _play_option(game, p, name)
    if option is None:
        raise AssertionError(f"игрок {p} не может разыграть «{name}» сейчас")
    slots = option.get("slots") or []
    required = sum(1 for s in slots if not s.get("optional"))
    expect((required, len(slots)), (least, most), f"сколько целей называет игрок {p} для «{name}»")
    groups = {s.get("distinct") for s in slots}
    if len(slots) > 1 and (len(groups) != 1 or None in groups):
        raise AssertionError(f"цели «{name}» не обязаны быть разными: {slots}")
    path = ["decision", "options", {"type": "play", "card": option["card"]}, "slots"]
    game.record_count(p, path, {}, len(slots))
    game.record_count(p, path, {"optional": True}, len(slots) - required)
