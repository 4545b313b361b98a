"""Шаги выбора игрока: какие карты он выбирает и какой эффект замещения применяет.

Выбор карт — сбросить, найти в колоде, вызвать, возродить …; какие карты игрок выбирает из своей
колоды, говорят варианты его решения, а их видит только он.
"""

from __future__ import annotations

from typing import Any

from berserk_rules.steps.checks import decision_of, expect, record_decision, record_names
from berserk_rules.steps.context import ScenarioGame
from berserk_rules.steps.registry import then, when


def _choice(game: ScenarioGame, p: str) -> dict[str, Any]:
    """The one option of the player's pending choice of cards."""
    d = decision_of(game, p, "choose_cards")
    return d["options"][0]


def _candidate_names(option: dict[str, Any]) -> dict[str, str]:
    """id -> name of the candidates, as the choosing player sees them (``about.cards``)."""
    return {c["id"]: c["name"] for c in option.get("about", {}).get("cards", [])}


# --- Когда: выбор карт ----------------------------------------------------------------------------


@when("игрок {p:P} выбирает {cards:L}", example="Когда игрок А выбирает «Пиранья»")
def choose_cards(game: ScenarioGame, p: str, cards: list[str]) -> None:
    """Игрок отвечает на выбор карт (сбросить, найти в колоде, вызвать, возродить …): называет карты
    из тех, что ему предложены; одинаковые названия — разные экземпляры."""
    option = _choice(game, p)
    names = _candidate_names(option)
    chosen: list[str] = []
    for name in cards:
        card = next((i for i, n in names.items() if n == name and i not in chosen), None)
        if card is None:
            raise AssertionError(f"игрок {p} не может выбрать «{name}»; выбор из: {sorted(names.values())}")
        chosen.append(card)
    game.act(p, {"type": "choose_cards", "cards": chosen})


@when("игрок {p:P} ничего не выбирает", example="Когда игрок А ничего не выбирает")
def choose_nothing(game: ScenarioGame, p: str) -> None:
    """Игрок не выбирает ни одной карты (например, не хочет найти вызываемую карту — 517.3.1)."""
    _choice(game, p)
    game.act(p, {"type": "choose_cards", "cards": []})


@when(
    "игрок {p:P} применяет эффект замещения карты «{name:N}»",
    example="Когда игрок А применяет эффект замещения карты «Телохранитель»",
)
def apply_replacement(game: ScenarioGame, p: str, name: str) -> None:
    """Игрок выбирает, какой из эффектов замещения применить (эффект замещения карты с этим
    названием)."""
    d = decision_of(game, p, "choose")
    option = next(
        (
            o
            for o in d["options"]
            if game.names(name, o.get("about", {}).get("source"), o.get("about", {}).get("source_name"))
        ),
        None,
    )
    if option is None:
        offered = [o.get("about", {}).get("source_name") for o in d["options"]]
        raise AssertionError(f"эффекта замещения карты «{name}» среди вариантов нет; есть: {offered}")
    game.act(p, {"type": "choose", "choice": option["choice"]})


# --- Тогда: выбор карт -------------------------------------------------------------------------


@then("игрок {p:P} выбирает карты среди {cards:L}", example="Тогда игрок А выбирает карты среди «Пиранья»")
def chooses_among(game: ScenarioGame, p: str, cards: list[str]) -> None:
    """Решение за игроком: выбрать карты — ровно из этих (одинаковые названия — по экземпляру)."""
    expect(sorted(_candidate_names(_choice(game, p)).values()), sorted(cards), f"карты на выбор игрока {p}")
    record_decision(game, p, "choose_cards")
    candidates = ["decision", "options", 0, "about", "cards"]
    record_names(game, p, candidates, {}, cards)


@then(
    "игрок {p:P} выбирает от {least:d} до {most:d} карт",
    example="Тогда игрок А выбирает от 0 до 1 карт",
)
def choice_bounds(game: ScenarioGame, p: str, least: int, most: int) -> None:
    """Сколько карт игрок может выбрать: не меньше и не больше (0 — можно не выбирать ни одной)."""
    option = _choice(game, p)
    expect((option["min"], option["max"]), (least, most), f"сколько карт выбирает игрок {p}")
    record_decision(game, p, "choose_cards")
    game.record(None, ["decision", "options", 0, "min"], least)
    game.record(None, ["decision", "options", 0, "max"], most)


@then(
    "игрок {viewer:P} не видит, из каких карт выбирает игрок {p:P}",
    example="Тогда игрок Б не видит, из каких карт выбирает игрок А",
)
def choice_hidden(game: ScenarioGame, viewer: str, p: str) -> None:
    """Чужое решение игрок видит без вариантов: он знает, что противник выбирает, но не из чего."""
    decision = game.view(viewer)["decision"]
    if decision is None or decision["player"] != p:
        raise AssertionError(f"сейчас не решение игрока {p}: {decision}")
    if "options" in decision:
        raise AssertionError(f"игрок {viewer} видит варианты игрока {p}: {decision['options']}")
    game.record(viewer, ["decision", "player"], p)
    game.record(viewer, ["decision", "options"], exists=False)


# --- Тогда: эффекты замещения -------------------------------------------------------------------


@then(
    "игрок {p:P} выбирает эффект замещения из карт {cards:L}",
    example="Тогда игрок А выбирает эффект замещения из карт «Телохранитель» и «Оруженосец»",
)
def replacement_choice(game: ScenarioGame, p: str, cards: list[str]) -> None:
    """Решение за игроком: какой из эффектов замещения этих карт применить (по одному на карту)."""
    d = decision_of(game, p, "choose")
    offered = sorted(o.get("about", {}).get("source_name", "") for o in d["options"])
    expect(offered, sorted(cards), f"эффекты замещения на выбор игрока {p}")
    record_decision(game, p, "choose")
    game.record_count(None, ["decision", "options"], {}, len(cards))
    for name in sorted(set(cards)):
        pattern = {"about": {"source_name": name}}
        game.record_count(None, ["decision", "options"], pattern, cards.count(name))
