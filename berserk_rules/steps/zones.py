"""Шаги зон и колоды (201, 202, 204): зоны игрока, общая игровая зона, колода и её перемешивание.

Колоду не подсматривают: о её перемешивании и о картах, которые игрок смотрел или показал, говорит
журнал того, кто смотрит.
"""

from __future__ import annotations

from berserk_rules.steps.checks import expect
from berserk_rules.steps.context import ScenarioGame
from berserk_rules.steps.registry import then

# --- Тогда: зоны (201, 202) ----------------------------------------------------------------------

ZONE_NAMES = {"игровая зона": "play", "рука": "hand", "колода": "deck", "кладбище": "graveyard"}
ZONE_NAMES |= {"запас": "reserve", "сайдборд": "sideboard"}


@then(
    "игроку {p:P} известны зоны: {names}",
    example="Тогда игроку А известны зоны: игровая зона, рука, колода, кладбище, запас, сайдборд",
)
def zones_known(game: ScenarioGame, p: str, names: str) -> None:
    """Зоны игры, как их видит игрок: общая игровая зона и частные зоны каждого игрока (201.1)."""
    wanted = [n.strip() for n in names.split(",")]
    unknown = [n for n in wanted if n not in ZONE_NAMES]
    if unknown:
        raise AssertionError(f"неизвестные зоны {unknown}; известны: {list(ZONE_NAMES)}")
    view = game.view(p)
    for name in wanted:
        key = ZONE_NAMES[name]
        if key == "play":
            if not isinstance(view.get("play"), list):
                raise AssertionError("игрок не видит игровую зону")
            game.record(p, ["play"], exists=True)  # a list: the observation schema says so
            continue
        for owner in ("А", "Б"):
            if key not in view["players"][owner]["zones"]:
                raise AssertionError(f"у игрока {owner} нет зоны «{name}»")
            game.record(p, ["players", owner, "zones", key], exists=True)


@then(
    "оба игрока видят одну и ту же игровую зону",
    example="Тогда оба игрока видят одну и ту же игровую зону",
)
def one_game_zone(game: ScenarioGame) -> None:
    """Игровая зона общая (201.2): обоим игрокам видны одни и те же карты в одном порядке."""
    expect(
        [c["id"] for c in game.view("А")["play"]], [c["id"] for c in game.view("Б")["play"]], "игровая зона"
    )


# --- Тогда: колода (204) ---------------------------------------------------------------------


def _shuffles(game: ScenarioGame, p: str) -> int:
    return sum(1 for e in game.log(p) if e["event"] == "shuffle" and e.get("player") == p)


@then(
    "колода игрока {p:P} перемешана раз: {n:d}",
    example="Тогда колода игрока А перемешана раз: 1",
)
def shuffled(game: ScenarioGame, p: str, n: int) -> None:
    """Сколько раз с начала сценария колоду игрока перемешивали (Перемешивание колоды; по журналу,
    который видит сам игрок)."""
    game.start()
    expect(_shuffles(game, p), n, f"перемешиваний колоды игрока {p}")
    game.record_count(p, [], {"event": "shuffle", "player": p}, n, log=True)


@then("колода игрока {p:P} не перемешивалась", example="Тогда колода игрока А не перемешивалась")
def not_shuffled(game: ScenarioGame, p: str) -> None:
    """Колоду игрока ни разу не перемешивали (204.3: карту брали или клали в названное место)."""
    game.start()
    expect(_shuffles(game, p), 0, f"перемешиваний колоды игрока {p}")
    game.record_count(p, [], {"event": "shuffle", "player": p}, 0, log=True)


@then(
    "игрок {p:P} видел в своей колоде «{name:N}»",
    example="Тогда игрок А видел в своей колоде «Гоблин»",
)
def saw_own_card(game: ScenarioGame, p: str, name: str) -> None:
    """Игрок смотрел карту своей колоды (например, верхнюю — пример Дейлы, 204.3): это есть в его
    журнале."""
    seen = [e.get("name") for e in game.log(p) if e["event"] == "look"]
    if name not in seen:
        raise AssertionError(f"игрок {p} не видел «{name}»; видел: {seen}")
    game.record(p, [{"event": "look", "name": name}], exists=True, log=True)


@then(
    "игрок {viewer:P} не знает, какую карту своей колоды видел игрок {p:P}",
    example="Тогда игрок Б не знает, какую карту своей колоды видел игрок А",
)
def did_not_see_other(game: ScenarioGame, viewer: str, p: str) -> None:
    """Колода закрыта (204.2): противник знает, что игрок смотрел карту, но не знает какую."""
    looks = [e for e in game.log(viewer) if e["event"] == "look" and e.get("player") == p]
    if not looks:
        raise AssertionError(f"в журнале игрока {viewer} нет записи о том, что игрок {p} смотрел карту")
    named = [e for e in looks if "name" in e or "card" in e]
    if named:
        raise AssertionError(f"игрок {viewer} знает, какую карту видел игрок {p}: {named}")


@then(
    "игрок {viewer:P} видел показанные карты колоды игрока {p:P}: {cards:L}",
    example="Тогда игрок Б видел показанные карты колоды игрока А: «Гоблин»",
)
def saw_revealed(game: ScenarioGame, viewer: str, p: str, cards: list[str]) -> None:
    """Карты колоды, которые игрок показал (518.3) — по журналу того, кто смотрит."""
    shown = [
        n for e in game.log(viewer) if e["event"] == "reveal" and e.get("player") == p for n in e["names"]
    ]
    expect(shown, cards, f"карты, показанные игроком {p}")
