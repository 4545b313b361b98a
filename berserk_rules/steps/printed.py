"""Шаги печатного языка карт: необязательная часть эффекта («…, затем вы можете …»), которую игрок
выполняет или нет, когда способность выполняется (толкование I-55).

Решение — вид ``choose`` с двумя вариантами: ``да`` (выполнить часть) и ``нет``.
"""

from __future__ import annotations

from berserk_rules.steps.checks import decision_of, expect, record_decision
from berserk_rules.steps.context import ScenarioGame
from berserk_rules.steps.registry import then, when

MAY_CHOICES = ["да", "нет"]


def _may_decision(game: ScenarioGame, p: str, words: str) -> None:
    d = decision_of(game, p, "choose")
    expect(sorted(o.get("choice", "") for o in d["options"]), MAY_CHOICES, f"варианты решения игрока {p}")
    if words not in d.get("prompt", "") and not any(words in o.get("label", "") for o in d["options"]):
        raise AssertionError(f"игрок {p} решает не о «{words}»: {d.get('prompt', '')}")


@then(
    "игрок {p:P} решает, выполнить ли «{words}»",
    example="Тогда игрок А решает, выполнить ли «ранить на 1 выбранное существо»",
)
def may_decide(game: ScenarioGame, p: str, words: str) -> None:
    """Решение за игроком: выполнять ли необязательную часть эффекта («вы можете …» после союза) —
    варианты «да» и «нет»."""
    _may_decision(game, p, words)
    record_decision(game, p, "choose")
    game.record_count(None, ["decision", "options"], {}, 2)
    for key in MAY_CHOICES:
        game.record_count(None, ["decision", "options"], {"choice": key}, 1)


@when(
    "игрок {p:P} выполняет «{words}»",
    example="Когда игрок А выполняет «ранить на 1 выбранное существо»",
)
def may_do(game: ScenarioGame, p: str, words: str) -> None:
    """Игрок решает выполнить необязательную часть эффекта."""
    _may_decision(game, p, words)
    game.act(p, {"type": "choose", "choice": "да"})


@when(
    "игрок {p:P} не выполняет «{words}»",
    example="Когда игрок А не выполняет «ранить на 1 выбранное существо»",
)
def may_not_do(game: ScenarioGame, p: str, words: str) -> None:
    """Игрок отказывается от необязательной части эффекта; остальные части выполняются."""
    _may_decision(game, p, words)
    game.act(p, {"type": "choose", "choice": "нет"})


# --- несколько разных целей («двух разных существ») ------------------------------------------------


@when(
    "игрок {p:P} разыгрывает «{name:N}» с целями {targets:L}",
    example="Когда игрок А разыгрывает «Двойной укол» с целями «Волк» и «Страж»",
)
def play_targets(game: ScenarioGame, p: str, name: str, targets: list[str]) -> None:
    """Игрок разыгрывает заклинание, называя цели по порядку слотов («двух разных существ» — два слота);
    слоты «до N …», для которых цели не названы, остаются пустыми (толкование I-67)."""
    from berserk_rules.steps.targets import play_with

    play_with(game, p, name, targets, legal=True)


@when(
    "игрок {p:P} пытается разыграть «{name:N}» с целями {targets:L}",
    example="Когда игрок А пытается разыграть «Двойной укол» с целями «Волк» и «Волк»",
)
def try_play_targets(game: ScenarioGame, p: str, name: str, targets: list[str]) -> None:
    """Попытка разыграть заклинание с такими целями (например, одной картой дважды там, где цели должны
    быть разными)."""
    from berserk_rules.steps.targets import play_with

    play_with(game, p, name, targets, legal=False)


# --- a choice among named options: the Х of a cost, a class, an effect to take off (I-65, I-66) ---------


def _labels(game: ScenarioGame, p: str) -> list[str]:
    d = decision_of(game, p, "choose")
    return [o.get("label", "") for o in d["options"]]


@then(
    "игрок {p:P} выбирает вариант среди {labels:L}",
    example="Тогда игрок А выбирает вариант среди «Х = 0», «Х = 1» и «Х = 2»",
)
def options_are(game: ScenarioGame, p: str, labels: list[str]) -> None:
    """Решение за игроком: выбрать один из вариантов — ровно из этих (Х стоимости, класс, снимаемый
    эффект …), по их словам."""
    expect(sorted(_labels(game, p)), sorted(labels), f"варианты решения игрока {p}")
    record_decision(game, p, "choose")
    game.record_count(None, ["decision", "options"], {}, len(labels))
    for label in sorted(set(labels)):
        game.record_count(None, ["decision", "options"], {"label": label}, labels.count(label))


@when(
    "игрок {p:P} выбирает вариант «{label:N}»",
    example="Когда игрок А выбирает вариант «Х = 2»",
)
def choose_option(game: ScenarioGame, p: str, label: str) -> None:
    """Игрок выбирает один из предложенных вариантов по его словам."""
    d = decision_of(game, p, "choose")
    option = next((o for o in d["options"] if o.get("label") == label), None)
    if option is None:
        raise AssertionError(f"варианта «{label}» нет; есть: {[o.get('label') for o in d['options']]}")
    game.act(p, {"type": "choose", "choice": option["choice"]})
