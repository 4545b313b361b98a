"""Шаги «Когда»: начало хода, заявки и пасы, атака, розыгрыш карты, передача хода.

Каждое действие есть в двух видах: «игрок А заявляет …» (действие должно быть законным, иначе
сценарий падает с причиной) и «игрок А пытается заявить …» (ожидается, что движок отклонит
действие; проверяется шагом «Тогда действие отклонено по правилу …»).
"""

from __future__ import annotations

from typing import Any

from berserk_rules.steps.context import ScenarioGame, bare
from berserk_rules.steps.registry import when


@when("начинается ход игрока {p:P}", example="Когда начинается ход игрока А")
def turn_begins(game: ScenarioGame, p: str) -> None:
    """Начинается ход игрока с фазы восстановления (303); игра идёт сама, пока кому-то из игроков
    не нужно принять решение."""
    game.setup["start"] = "turn"
    game.setup["active"] = p
    game.start()


# --- declaring and passing (Part 4) ------------------------------------------------------------


def _declare(game: ScenarioGame, p: str, ability: str, source: str, target: str | None) -> dict[str, Any]:
    option = game.declare_option(p, ability, source, target)
    if option is None:
        d = game.decision()
        offered = [o.get("label", o) for o in d["options"]] if d else []
        raise AssertionError(
            f"игрок {p} не может заявить «{ability}» карты «{source}»"
            + (f" с целью «{target}»" if target else "")
            + f"; решение: {d and d['kind']} игрока {d and d['player']}; варианты: {offered}"
        )
    return bare(option, option.get("targets"))


@when(
    "игрок {p:P} заявляет «{ability:N}» карты «{source:N}»",
    example="Когда игрок Б заявляет «Гибель: возьмите карту.» карты «Гоблин»",
)
def declare(game: ScenarioGame, p: str, ability: str, source: str) -> None:
    """Игрок заявляет срабатывающую способность карты: она заносится в конец Очереди (401.3)."""
    game.act(p, _declare(game, p, ability, source, None))


@when(
    "игрок {p:P} заявляет «{ability:N}» карты «{source:N}» с целью «{target:N}»",
    example="Когда игрок А заявляет «Найм: ранить на 1 выбранное существо.» карты «Лучник» с целью «Гоблин»",
)
def declare_target(game: ScenarioGame, p: str, ability: str, source: str, target: str) -> None:
    """Заявка с указанием цели (501.1)."""
    game.act(p, _declare(game, p, ability, source, target))


@when("игрок {p:P} пасует", example="Когда игрок Б пасует")
def pass_(game: ScenarioGame, p: str) -> None:
    """Игрок не заявляет (больше) срабатывающих способностей — пасует (401.7)."""
    game.act(p, {"type": "pass"})


@when(
    "игрок {p:P} пытается заявить «{ability:N}» карты «{source:N}»",
    example="Когда игрок А пытается заявить «Найм: возьмите карту.» карты «Гоблин»",
)
def try_declare(game: ScenarioGame, p: str, ability: str, source: str) -> None:
    """Попытка заявить способность — например, утраченную после паса (401.7)."""
    option = game.declare_option(p, ability, source, None)
    if option is not None:
        action = bare(option, option.get("targets"))
    else:
        trigger = game.remembered_trigger(p, ability, source)
        action = {"type": "declare", "trigger": trigger or f"«{ability}» «{source}»", "targets": []}
    game.attempt(p, action)


@when("игрок {p:P} пытается пасовать", example="Когда игрок А пытается пасовать")
def try_pass(game: ScenarioGame, p: str) -> None:
    """Попытка спасовать, когда пас не разрешён."""
    game.attempt(p, {"type": "pass"})


# --- the choice phase (306–309) --------------------------------------------------------------


def _card_id(game: ScenarioGame, name: str, p: str) -> str:
    card_id = game.any_card_id(name, p)
    if card_id is None:
        raise AssertionError(f"«{name}» нет ни в игровой зоне, ни в руке игрока {p}")
    return card_id


def _attack(game: ScenarioGame, p: str, attacker: str, target: str) -> dict[str, Any]:
    return {"type": "attack", "attacker": _card_id(game, attacker, p), "targets": [_card_id(game, target, p)]}


@when(
    "игрок {p:P} атакует существом «{attacker:N}» персонажа «{target:N}»",
    example="Когда игрок А атакует существом «Гном» персонажа «Герой Б»",
)
def attack(game: ScenarioGame, p: str, attacker: str, target: str) -> None:
    """Атака ударом (307.1): активный игрок заявляет, каким существом атакует и какого персонажа."""
    game.act(p, _attack(game, p, attacker, target))


@when(
    "игрок {p:P} пытается атаковать существом «{attacker:N}» персонажа «{target:N}»",
    example="Когда игрок А пытается атаковать существом «Гном» персонажа «Герой Б»",
)
def try_attack(game: ScenarioGame, p: str, attacker: str, target: str) -> None:
    """Попытка атаки, которую правила запрещают."""
    game.attempt(p, _attack(game, p, attacker, target))


@when("игрок {p:P} назначает защитником «{name:N}»", example="Когда игрок Б назначает защитником «Страж»")
def defend(game: ScenarioGame, p: str, name: str) -> None:
    """Неактивный игрок назначает защитника от атаки ударом (307.1)."""
    game.act(p, {"type": "defend", "defender": _card_id(game, name, p)})


@when(
    "игрок {p:P} пытается назначить защитником «{name:N}»",
    example="Когда игрок Б пытается назначить защитником «Страж»",
)
def try_defend(game: ScenarioGame, p: str, name: str) -> None:
    """Попытка назначить защитником карту, которая не может им быть."""
    game.attempt(p, {"type": "defend", "defender": _card_id(game, name, p)})


@when("игрок {p:P} не назначает защитника", example="Когда игрок Б не назначает защитника")
def no_defender(game: ScenarioGame, p: str) -> None:
    """Неактивный игрок не пользуется правом назначить защитника."""
    game.act(p, {"type": "no_defender"})


def _activation(game: ScenarioGame, p: str, ability: str, source: str, target: str | None) -> dict[str, Any]:
    found = game.matching_options(p, "activate", ability, source, target)
    if found:
        return bare(found[0], found[0].get("targets"))
    # Not a legal option: build the action anyway, so that the engine says why it is illegal.
    text = ability if ability.endswith(".") else ability + "."
    targets = [_card_id(game, target, p)] if target else []
    return {"type": "activate", "card": _card_id(game, source, p), "ability": text, "targets": targets}


@when(
    "игрок {p:P} объявляет «{ability:N}» карты «{source:N}»",
    example="Когда игрок А объявляет «[Закрыть]: возьмите карту.» карты «Писарь»",
)
def activate(game: ScenarioGame, p: str, ability: str, source: str) -> None:
    """Игрок объявляет активируемую способность своей карты и оплачивает её (308.1, 501.2)."""
    game.act(p, _activation(game, p, ability, source, None))


@when(
    "игрок {p:P} объявляет «{ability:N}» карты «{source:N}» с целью «{target:N}»",
    example="Когда игрок А объявляет «[Закрыть]: ранить на 1 выбранное существо.» карты «Лучник» "
    "с целью «Гоблин»",
)
def activate_target(game: ScenarioGame, p: str, ability: str, source: str, target: str) -> None:
    """Активируемая способность с целью."""
    game.act(p, _activation(game, p, ability, source, target))


@when(
    "игрок {p:P} пытается объявить «{ability:N}» карты «{source:N}»",
    example="Когда игрок А пытается объявить «[Закрыть]: возьмите карту.» карты «Писарь»",
)
def try_activate(game: ScenarioGame, p: str, ability: str, source: str) -> None:
    """Попытка объявить способность, которую нельзя оплатить или уже нельзя использовать."""
    game.attempt(p, _activation(game, p, ability, source, None))


def _play(game: ScenarioGame, p: str, name: str, targets: list[str]) -> dict[str, Any]:
    return {
        "type": "play",
        "card": game.card(name, "hand", p)["id"]
        if game.has_card(name, "hand", p)
        else _card_id(game, name, p),
        "targets": [_card_id(game, t, p) for t in targets],
    }


@when("игрок {p:P} разыгрывает «{name:N}»", example="Когда игрок А разыгрывает «Гоблин»")
def play(game: ScenarioGame, p: str, name: str) -> None:
    """Розыгрыш карты из руки (309.1): карта оплачивается маркерами монет (501.2)."""
    game.act(p, _play(game, p, name, []))


@when(
    "игрок {p:P} разыгрывает «{name:N}» с целью «{target:N}»",
    example="Когда игрок А разыгрывает «Огневой залп» с целью «Гоблин»",
)
def play_target(game: ScenarioGame, p: str, name: str, target: str) -> None:
    """Розыгрыш заклинания с указанием цели."""
    game.act(p, _play(game, p, name, [target]))


@when("игрок {p:P} пытается разыграть «{name:N}»", example="Когда игрок А пытается разыграть «Дракон»")
def try_play(game: ScenarioGame, p: str, name: str) -> None:
    """Попытка разыграть карту, которую нельзя разыграть сейчас."""
    game.attempt(p, _play(game, p, name, []))


@when("игрок {p:P} передаёт ход противнику", example="Когда игрок А передаёт ход противнику")
def end_turn(game: ScenarioGame, p: str) -> None:
    """Активный игрок передаёт ход: начинается этап конца хода (306.1, 310)."""
    game.act(p, {"type": "end_turn"})


@when(
    "игрок {p:P} пытается передать ход противнику", example="Когда игрок Б пытается передать ход противнику"
)
def try_end_turn(game: ScenarioGame, p: str) -> None:
    """Попытка передать ход не в свой черёд."""
    game.attempt(p, {"type": "end_turn"})
