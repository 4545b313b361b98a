"""Шаги карт в игре (517, глоссарий): отряд, контроль и владелец, эффекты и способности карты.

Там же: карта вошла в игру в этот ход, карты рубашкой вверх, термин перемещения карты в журнале.
"""

from __future__ import annotations

from typing import Any

from berserk_rules.steps.checks import expect, record_names
from berserk_rules.steps.context import ScenarioGame, copy_of, same_text, text_forms
from berserk_rules.steps.registry import then

# --- Тогда: отряд, контроль, владелец (517, глоссарий) ------------------------------------------


@then("«{name:N}» в отряде игрока {p:P}", example="Тогда «Пиранья» в отряде игрока А")
def in_squad(game: ScenarioGame, name: str, p: str) -> None:
    """Карта в игровой зоне под контролем игрока (Отряд; Взять карту в отряд)."""
    card, path = game.locate(name)
    expect(card["controller"], p, f"кто контролирует «{name}»")
    game.record(None, [*path, "controller"], p)


@then(
    "отряд игрока {p:P}: {cards:L}",
    example="Тогда отряд игрока А: «Герой А» и «Гном»",
)
def squad(game: ScenarioGame, p: str, cards: list[str]) -> None:
    """Отряд — ровно эти карты под контролем игрока в игровой зоне (герой — тоже карта отряда)."""
    names = sorted(c["name"] for c in game.view(p)["play"] if c.get("controller") == p)
    expect(names, sorted(cards), f"отряд игрока {p}")
    record_names(game, p, ["play"], {"controller": p}, cards)


@then("владелец «{name:N}» — игрок {p:P}", example="Тогда владелец «Нимерт» — игрок Б")
def owner(game: ScenarioGame, name: str, p: str) -> None:
    """Владелец карты в игровой зоне — тот, в чьей колоде она была до начала игры."""
    card, path = game.locate(name)
    expect(card["owner"], p, f"владелец «{name}»")
    game.record(None, [*path, "owner"], p)


@then("«{name:N}» вошла в игру в этот ход", example="Тогда «Нимерт» вошла в игру в этот ход")
def entered_this_turn(game: ScenarioGame, name: str) -> None:
    """Карта попала в игровую зону в этот ход — это другая карта, чем была (203.4, 204.4)."""
    card, path = game.locate(name)
    expect(card["entered_this_turn"], True, f"«{name}» вошла в игру в этот ход")
    game.record(None, [*path, "entered_this_turn"], True)


@then("на «{name:N}» нет длящихся эффектов", example="Тогда на «Гном» нет длящихся эффектов")
def no_effects(game: ScenarioGame, name: str) -> None:
    """На карте в игровой зоне не действует ни одного длящегося эффекта."""
    card, path = game.locate(name)
    expect(card.get("effects", []), [], f"эффекты на «{name}»")
    _record_in_play(game, path)
    game.record(None, [*path, "effects", {"$copy": 1}], exists=False)  # none, or no list


def _record_in_play(game: ScenarioGame, path: list[Any]) -> None:
    """Record that the card at ``path`` (from :meth:`ScenarioGame.locate`) is there."""
    game.record(None, [*path, "name"], path[-1]["name"])


@then(
    "на «{name:N}» действует эффект «{text:N}»",
    example="Тогда на «Гном» действует эффект «+2 к удару»",
)
def has_effect(game: ScenarioGame, name: str, text: str) -> None:
    """На карте в игровой зоне действует длящийся эффект (его описание)."""
    card, path = game.locate(name)
    effects = [e["text"] for e in card.get("effects", [])]
    if text not in effects:
        raise AssertionError(f"на «{name}» нет эффекта «{text}»; есть: {effects}")
    game.record(None, [*path, "effects", {"text": text}], exists=True)


@then(
    "у «{name:N}» есть способность «{ability:N}»",
    example="Тогда у «Герой А» есть способность «В конце хода: ранить на 2 своего героя.»",
)
def has_ability(game: ScenarioGame, name: str, ability: str) -> None:
    """Способность карты в игровой зоне сейчас (напечатанная или полученная)."""
    card, path = game.locate(name)
    abilities = card.get("abilities", [])
    if not any(same_text(a, ability) for a in abilities):
        raise AssertionError(f"у «{name}» нет способности «{ability}»; есть: {abilities}")
    text = next(a for a in abilities if same_text(a, ability))
    game.record(None, [*path, "abilities", {"$value": text}], exists=True)


@then(
    "у «{name:N}» нет способности «{ability:N}»",
    example="Тогда у «Герой А» нет способности «В конце хода: ранить на 2 своего героя.»",
)
def lacks_ability(game: ScenarioGame, name: str, ability: str) -> None:
    """Этой способности у карты в игровой зоне нет."""
    card, path = game.locate(name)
    abilities = card.get("abilities", [])
    if any(same_text(a, ability) for a in abilities):
        raise AssertionError(f"у «{name}» есть способность «{ability}»")
    _record_in_play(game, path)
    for text in text_forms(ability):
        game.record(None, [*path, "abilities", {"$value": text}], exists=False)


@then(
    "игрок {viewer:P} видит карту игрока {owner:P} рубашкой вверх, но не знает, какая это карта",
    example="Тогда игрок Б видит карту игрока А рубашкой вверх, но не знает, какая это карта",
)
def sees_only_back(game: ScenarioGame, viewer: str, owner: str) -> None:
    """В игровой зоне у противника есть карта рубашкой вверх: игрок видит, что она есть, но не её
    название."""
    hidden = [c for c in game.view(viewer)["play"] if c.get("face_down") and c.get("controller") == owner]
    if not hidden:
        raise AssertionError(f"игрок {viewer} не видит карт игрока {owner} рубашкой вверх")
    expect([c["name"] for c in hidden], [None] * len(hidden), "названия карт рубашкой вверх")
    face_down = {"face_down": True, "controller": owner}
    game.record_count(viewer, ["play"], face_down, len(hidden))
    game.record_count(viewer, ["play"], {**face_down, "name": None}, len(hidden))


@then("«{name:N}» лежит лицом вверх", example="Тогда «Лазутчик» лежит лицом вверх")
def is_face_up(game: ScenarioGame, name: str) -> None:
    """Карта в игровой зоне лежит лицом вверх."""
    # The observation schema lets a face-up card leave «face_down» out: absent means face up.
    card, path = game.locate(name)
    expect(bool(card.get("face_down", False)), False, f"«{name}» рубашкой вверх")
    if copy_of(name)[1] is None:  # recorded so that an engine that leaves the field out passes too
        game.record(None, path, exists=True)
        game.record(None, ["play", {"name": name, "face_down": True}], exists=False)


@then(
    "перемещение «{name:N}» записано в журнал по термину «{term:N}»",
    example="Тогда перемещение «Гном» записано в журнал по термину «убрать-положить-поместить-на-кладбище»",
)
def move_logged_as(game: ScenarioGame, name: str, term: str) -> None:
    """Каким правилом или термином журнал называет последнее перемещение карты (например, «убрать на
    кладбище» — не «уничтожить»)."""
    moves = [
        e for e in game.log(None) if e["event"] == "move" and game.names(name, e.get("card"), e.get("name"))
    ]
    if not moves:
        raise AssertionError(f"«{name}» не перемещалась")
    expect(moves[-1].get("rule"), term, f"термин перемещения «{name}»")
    pattern = (
        {"event": "move", "name": name}
        if copy_of(name)[1] is None
        else {"event": "move", "card": moves[-1]["card"]}
    )
    game.record(None, [{**pattern, "$copy": -1}, "rule"], term, log=True)
