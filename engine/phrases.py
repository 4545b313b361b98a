"""Phrases of triggered abilities (the words before the colon) and of payments (501.2).

Effects register their phrases beside their code (:mod:`berserk_engine.effects`), keywords in their
modules (:mod:`berserk_engine.keywords`).
"""

from __future__ import annotations

from typing import Any

from berserk_engine.abilities import Cost, Trigger
from berserk_engine.grammar import phrase
from berserk_engine.keywords import term

term(__name__, "при-атаке-при-ударе")
term(__name__, "при-гибели-при-уничтожении")

# --- triggered abilities --------------------------------------------------------------------------


@phrase("trigger", "Найм", "Найм: возьмите карту.", "найм-текст")
def _hire(f: dict[str, Any]) -> Trigger:
    return Trigger("enters_play")


@phrase("trigger", "Гибель", "Гибель: ранить на 1 героя противника.", "гибель-текст")
def _death(f: dict[str, Any]) -> Trigger:
    return Trigger("dies")


@phrase("trigger", "При гибели", "При гибели: возьмите карту.", "при-гибели-при-уничтожении")
def _on_death(f: dict[str, Any]) -> Trigger:
    return Trigger("dies")


@phrase("trigger", "При уничтожении", "При уничтожении: возьмите карту.", "при-гибели-при-уничтожении")
def _on_destruction(f: dict[str, Any]) -> Trigger:
    return Trigger("dies")


@phrase("trigger", "В начале хода", "В начале хода: ранить на 1 героя противника.", "в-начале-хода")
def _turn_start(f: dict[str, Any]) -> Trigger:
    return Trigger("turn_start")


@phrase(
    "trigger", "В начале вашего хода", "В начале вашего хода: излечить на 1 своего героя.", "в-начале-хода"
)
def _own_turn_start(f: dict[str, Any]) -> Trigger:
    return Trigger("turn_start", own_turn_only=True)


@phrase("trigger", "В начале своего хода", "В начале своего хода: возьмите карту.", "в-начале-хода")
def _own_turn_start_2(f: dict[str, Any]) -> Trigger:
    return Trigger("turn_start", own_turn_only=True)


@phrase("trigger", "В конце хода", "В конце хода: излечить на 1 своего героя.", "310.1")
def _turn_end(f: dict[str, Any]) -> Trigger:
    return Trigger("turn_end")


@phrase("trigger", "В конце вашего хода", "В конце вашего хода: излечить на 1 своего героя.", "310.1")
def _own_turn_end(f: dict[str, Any]) -> Trigger:
    return Trigger("turn_end", own_turn_only=True)


@phrase("trigger", "В конце своего хода", "В конце своего хода: излечиться на 1.", "310.1")
def _own_turn_end_2(f: dict[str, Any]) -> Trigger:
    return Trigger("turn_end", own_turn_only=True)


@phrase(
    "trigger", "Когда погибает существо", "Когда погибает существо: возьмите карту.", "погибнуть-погибает"
)
def _creature_dies(f: dict[str, Any]) -> Trigger:
    return Trigger("creature_dies")


@phrase("trigger", "При атаке", "При атаке: ранить на 1 героя противника.", "при-атаке-при-ударе")
def _on_attack(f: dict[str, Any]) -> Trigger:
    return Trigger("attacks")


@phrase("trigger", "При ударе", "При ударе: излечиться на 1.", "при-атаке-при-ударе")
def _on_blow(f: dict[str, Any]) -> Trigger:
    return Trigger("strikes")


@phrase(
    "trigger",
    "Когда вы разыгрываете эту карту",
    "Когда вы разыгрываете эту карту: возьмите карту.",
    "срабатывающая-способность",
)
def _on_play(f: dict[str, Any]) -> Trigger:
    return Trigger("played")


@phrase("trigger", "Когда эта карта получает раны", "Когда эта карта получает раны: возьмите карту.", "раны")
def _wounded(f: dict[str, Any]) -> Trigger:
    return Trigger("wounded")


@phrase(
    "trigger",
    "Когда эта карта открывается",
    "Когда эта карта открывается: возьмите карту.",
    "открытие-карты",
)
def _opens(f: dict[str, Any]) -> Trigger:
    return Trigger("opens")


@phrase(
    "trigger",
    "Когда с этой карты снимаются раны",
    "Когда с этой карты снимаются раны: возьмите карту.",
    "излечить-излечение-на-х",
)
def _healed(f: dict[str, Any]) -> Trigger:
    return Trigger("healed")


# --- payments -------------------------------------------------------------------------------------


@phrase("cost", "[Закрыть]", "[Закрыть]", "закрыть-существо-карту")
def _cost_close(f: dict[str, Any]) -> Cost:
    return Cost(close=True)


@phrase("cost", "{n:Num} [Монета]", "1 [Монета]", "оплата")
def _cost_coins(f: dict[str, Any]) -> Cost:
    return Cost(coins=f["n"])


@phrase("cost", "Один раз за ход", "Один раз за ход", "один-х-раз-за-ход")
def _cost_once(f: dict[str, Any]) -> Cost:
    return Cost(per_turn=1)


@phrase("cost", "{n:Num} раза за ход", "2 раза за ход", "один-х-раз-за-ход")
def _cost_times(f: dict[str, Any]) -> Cost:
    return Cost(per_turn=f["n"])


@phrase("cost", "{n:Num} раз за ход", "5 раз за ход", "один-х-раз-за-ход")
def _cost_times_many(f: dict[str, Any]) -> Cost:
    return Cost(per_turn=f["n"])


@phrase("cost", "раниться на {n:Num}", "раниться на 1", "501.2")
def _cost_wounds(f: dict[str, Any]) -> Cost:
    return Cost(wounds=f["n"])
