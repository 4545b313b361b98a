"""Шаги итога игры (Часть 6): сдача, предложение ничьей и ответ на него, ничья."""

from __future__ import annotations

from berserk_rules.steps.checks import decision_of, expect, record_decision
from berserk_rules.steps.context import ScenarioGame
from berserk_rules.steps.registry import then, when

# --- Когда: сдача и ничья (602.1, 603) ------------------------------------------------------------


@when("игрок {p:P} сдаётся", example="Когда игрок Б сдаётся")
def concede(game: ScenarioGame, p: str) -> None:
    """Игрок признаёт себя побеждённым (602.1) — это можно сделать в любой момент игры."""
    game.act(p, {"type": "concede"})


@when("игрок {p:P} пытается сдаться", example="Когда игрок Б пытается сдаться")
def try_concede(game: ScenarioGame, p: str) -> None:
    """Попытка сдаться, когда это уже ничего не может изменить."""
    game.attempt(p, {"type": "concede"})


@when("игрок {p:P} предлагает ничью", example="Когда игрок А предлагает ничью")
def offer_draw(game: ScenarioGame, p: str) -> None:
    """Игрок предлагает ничью, пока игра не закончилась (603.2) — в любой момент."""
    game.act(p, {"type": "offer_draw"})


@when("игрок {p:P} пытается предложить ничью", example="Когда игрок А пытается предложить ничью")
def try_offer_draw(game: ScenarioGame, p: str) -> None:
    """Попытка предложить ничью, когда этого сделать нельзя."""
    game.attempt(p, {"type": "offer_draw"})


@when("игрок {p:P} принимает ничью", example="Когда игрок Б принимает ничью")
def accept_draw(game: ScenarioGame, p: str) -> None:
    """Противник принимает предложение ничьей (603.2)."""
    decision_of(game, p, "answer_draw")
    game.act(p, {"type": "accept_draw"})


@when("игрок {p:P} отклоняет ничью", example="Когда игрок Б отклоняет ничью")
def decline_draw(game: ScenarioGame, p: str) -> None:
    """Противник отклоняет предложение ничьей: игра продолжается (603.2)."""
    decision_of(game, p, "answer_draw")
    game.act(p, {"type": "decline_draw"})


# --- Тогда: итог игры (Часть 6) -----------------------------------------------------------------


@then("игра окончена вничью по правилу {rule}", example="Тогда игра окончена вничью по правилу 603.1")
def draw(game: ScenarioGame, rule: str) -> None:
    """Игра окончена ничьей; движок указывает правило."""
    for p in ("А", "Б"):
        game.expect(p, ["result"], {"winner": None, "draw": True, "rule": rule}, f"итог игры для игрока {p}")


@then("игрок {p:P} может сдаться", example="Тогда игрок Б может сдаться")
def may_concede(game: ScenarioGame, p: str) -> None:
    """Сдаться игрок может в любой момент — даже когда решение сейчас за противником (602.1)."""
    kinds = [o["type"] for o in game.view(p)["players"][p].get("anytime", [])]
    if "concede" not in kinds:
        raise AssertionError(f"игрок {p} не может сдаться; может в любой момент: {kinds}")
    game.record(p, ["players", p, "anytime", {"type": "concede"}], exists=True)


@then("игрок {p:P} может предложить ничью", example="Тогда игрок А может предложить ничью")
def may_offer(game: ScenarioGame, p: str) -> None:
    """Предложить ничью игрок может в любой момент, пока игра не закончилась (603.2)."""
    kinds = [o["type"] for o in game.view(p)["players"][p].get("anytime", [])]
    if "offer_draw" not in kinds:
        raise AssertionError(f"игрок {p} не может предложить ничью; может в любой момент: {kinds}")
    game.record(p, ["players", p, "anytime", {"type": "offer_draw"}], exists=True)


@then("игрок {p:P} не может предложить ничью", example="Тогда игрок А не может предложить ничью")
def may_not_offer(game: ScenarioGame, p: str) -> None:
    """Предложения ничьей нет среди действий игрока."""
    kinds = [o["type"] for o in game.view(p)["players"][p].get("anytime", [])]
    if "offer_draw" in kinds:
        raise AssertionError(f"игрок {p} может предложить ничью")
    game.record(p, ["players", p, "anytime", {"type": "offer_draw"}], exists=False)


@then(
    "игрок {p:P} должен ответить на предложение ничьей",
    example="Тогда игрок Б должен ответить на предложение ничьей",
)
def must_answer_draw(game: ScenarioGame, p: str) -> None:
    """Решение за игроком: принять ничью или отклонить её (603.2)."""
    d = decision_of(game, p, "answer_draw")
    expect(sorted(o["type"] for o in d["options"]), ["accept_draw", "decline_draw"], "ответы на ничью")
    record_decision(game, p, "answer_draw")
    game.record_count(None, ["decision", "options"], {}, 2)
    for answer in ("accept_draw", "decline_draw"):
        game.record_count(None, ["decision", "options"], {"type": answer}, 1)


@then("решение снова за игроком {p:P}", example="Тогда решение снова за игроком А")
def decision_back(game: ScenarioGame, p: str) -> None:
    """Игра продолжается с того решения, которое было до предложения ничьей."""
    d = game.decision()
    if d is None:
        raise AssertionError("решений нет: игра окончена")
    expect(d["player"], p, "чьё решение")
    game.record(None, ["decision", "player"], p)
