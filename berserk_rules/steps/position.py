"""Шаги «Дано»: позиция, описанная декларативно (карты, зоны, маркеры монет, раны, чей ход)."""

from __future__ import annotations

from typing import Any

from berserk_rules.steps.context import ScenarioGame
from berserk_rules.steps.registry import given

CARD_COLUMNS = {
    "название": "name",
    "тип": "type",
    "подтип": "subtype",
    "класс": "classes",
    "стоимость": "cost",
    "стихия": "element",
    "удар": "strike",
    "жизни": "life",
    "текст": "text",
}
PLAY_COLUMNS = {"карта", "закрыта", "раны", "владелец", "разыграна в этот ход"}
YES = {"да": True, "нет": False, "": False}


def _rows(datatable: list[list[str]], allowed: set[str], what: str) -> list[dict[str, str]]:
    header = [h.strip().lower() for h in datatable[0]]
    unknown = [h for h in header if h not in allowed]
    if unknown:
        raise AssertionError(f"{what}: неизвестные столбцы {unknown}; допустимы: {sorted(allowed)}")
    return [dict(zip(header, (c.strip() for c in row), strict=True)) for row in datatable[1:]]


def _yes(value: str, column: str) -> bool:
    if value.lower() not in YES:
        raise AssertionError(f"столбец «{column}»: ожидается «да» или «нет», получено «{value}»")
    return YES[value.lower()]


def _number(value: str, column: str) -> int:
    if not value:
        return 0
    if not value.isdigit():
        raise AssertionError(f"столбец «{column}»: ожидается число, получено «{value}»")
    return int(value)


@given("карты:", example="Дано карты:\n  | название | тип | стоимость | удар | жизни | текст |")
def cards_table(game: ScenarioGame, datatable: list[list[str]]) -> None:
    """Описывает карты, которые участвуют в сценарии: название, тип (существо, заклинание, герой,
    экипировка, событие), подтип (у экипировки: амулет, броня, оружие), класс (у существа: расы и
    фракции через запятую — «эльф», «гном, воин»), стоимость, стихия, удар,
    жизни и текст карты — способности словами правил. Текст разбирает движок; текст, который
    движок не понимает, — ошибка с названием карты и местом в тексте."""
    for row in _rows(datatable, set(CARD_COLUMNS), "таблица карт"):
        name = row.get("название", "")
        if not name:
            raise AssertionError("таблица карт: у каждой карты должно быть название")
        props: dict[str, Any] = {"type": row.get("тип", "существо")}
        for column in ("стоимость", "удар", "жизни"):
            if row.get(column):
                props[CARD_COLUMNS[column]] = (
                    row[column] if "Х" in row[column] else _number(row[column], column)
                )
        if row.get("стихия"):
            props["element"] = row["стихия"]
        if row.get("подтип"):
            props["subtype"] = row["подтип"]
        if row.get("класс"):
            props["classes"] = row["класс"]
        if row.get("текст"):
            props["text"] = row["текст"]
        game.setup["cards"][name] = props


@given("первым ходит игрок {p:P}", example="Дано первым ходит игрок Б")
def first_player(game: ScenarioGame, p: str) -> None:
    """Первый игрок партии (Второй игрок — его противник). По умолчанию первым ходит игрок А."""
    game.setup["first_player"] = p


@given("идёт ход {n:d}", example="Дано идёт ход 3")
def turn_number(game: ScenarioGame, n: int) -> None:
    """Номер хода в партии: ход 1 — первый ход первого игрока. По умолчанию 1."""
    game.setup["turn"] = n


@given("идёт фаза выбора игрока {p:P}", example="Дано идёт фаза выбора игрока А")
def choice_phase(game: ScenarioGame, p: str) -> None:
    """Игра начинается в фазе выбора (306) хода игрока: он активный игрок, Очередь пуста."""
    game.setup["start"] = "choice"
    game.setup["active"] = p


@given(
    "в игровой зоне у игрока {p:P}:", example="Дано в игровой зоне у игрока А:\n  | карта | закрыта | раны |"
)
def play_table(game: ScenarioGame, p: str, datatable: list[list[str]]) -> None:
    """Карты в игровой зоне под контролем игрока. Столбцы: карта, закрыта (да/нет), раны,
    владелец (если не тот же игрок), разыграна в этот ход (да/нет)."""
    entries = game.player_setup(p).setdefault("play", [])
    for row in _rows(datatable, PLAY_COLUMNS, "таблица игровой зоны"):
        entry: dict[str, Any] = {"card": row["карта"]}
        if "закрыта" in row:
            entry["closed"] = _yes(row["закрыта"], "закрыта")
        if "раны" in row:
            entry["wounds"] = _number(row["раны"], "раны")
        if row.get("владелец"):
            entry["owner"] = row["владелец"]
        if "разыграна в этот ход" in row:
            entry["new"] = _yes(row["разыграна в этот ход"], "разыграна в этот ход")
        entries.append(entry)


@given("в игровой зоне у игрока {p:P} {cards:L}", example="Дано в игровой зоне у игрока Б «Гоблин»")
def play_list(game: ScenarioGame, p: str, cards: list[str]) -> None:
    """Открытые карты без ран в игровой зоне под контролем игрока."""
    game.player_setup(p).setdefault("play", []).extend({"card": c} for c in cards)


@given("в руке у игрока {p:P} {cards:L}", example="Дано в руке у игрока А «Гоблин» и «Огневой залп»")
def hand(game: ScenarioGame, p: str, cards: list[str]) -> None:
    """Карты в руке игрока."""
    game.player_setup(p).setdefault("hand", []).extend(cards)


@given(
    "в колоде у игрока {p:P} сверху вниз {cards:L}", example="Дано в колоде у игрока А сверху вниз «Гоблин»"
)
def deck(game: ScenarioGame, p: str, cards: list[str]) -> None:
    """Колода игрока, от верхней карты к нижней."""
    game.player_setup(p)["deck"] = list(cards)


@given("колода игрока {p:P} пуста", example="Дано колода игрока А пуста")
def empty_deck(game: ScenarioGame, p: str) -> None:
    """В колоде игрока нет карт."""
    game.player_setup(p)["deck"] = []


@given("на кладбище у игрока {p:P} {cards:L}", example="Дано на кладбище у игрока Б «Гоблин»")
def graveyard(game: ScenarioGame, p: str, cards: list[str]) -> None:
    """Карты на кладбище игрока."""
    game.player_setup(p).setdefault("graveyard", []).extend(cards)


@given(
    "у игрока {p:P} маркеров монет: {opened:d} открытых, {closed:d} закрытых",
    example="Дано у игрока А маркеров монет: 2 открытых, 1 закрытых",
)
def coins(game: ScenarioGame, p: str, opened: int, closed: int) -> None:
    """Маркеры монет игрока: открытые и закрытые."""
    game.player_setup(p)["coins"] = {"open": opened, "closed": closed}


@given("у героя игрока {p:P} жизней: {n:d}", example="Дано у героя игрока Б жизней: 5")
def hero_life(game: ScenarioGame, p: str, n: int) -> None:
    """Начальное число жизней героя игрока (по умолчанию 20)."""
    game.player_setup(p).setdefault("hero", {})["life"] = n


@given("у героя игрока {p:P} ран: {n:d}", example="Дано у героя игрока Б ран: 3")
def hero_wounds(game: ScenarioGame, p: str, n: int) -> None:
    """Раны на герое игрока."""
    game.player_setup(p).setdefault("hero", {})["wounds"] = n


@given("герой игрока {p:P} закрыт", example="Дано герой игрока А закрыт")
def hero_closed(game: ScenarioGame, p: str) -> None:
    """Герой игрока закрыт (повёрнут на 90º)."""
    game.player_setup(p).setdefault("hero", {})["closed"] = True


@given(
    "игрок {p:P} уже не смог взять карту в фазу накопления раз: {n:d}",
    example="Дано игрок А уже не смог взять карту в фазу накопления раз: 2",
)
def draw_failures(game: ScenarioGame, p: str, n: int) -> None:
    """Сколько раз за игру игрок уже не смог взять карту из колоды в фазу накопления (304.2)."""
    game.player_setup(p)["draw_failures"] = n


@given(
    "на карте «{name:N}» игрока {p:P} маркеров «раз за ход» способности «{ability:N}»: {n:d}",
    example="Дано на карте «Писарь» игрока А маркеров «раз за ход» способности "
    "«Один раз за ход, 1 [Монета]: возьмите карту.»: 1",
)
def per_turn_markers(game: ScenarioGame, name: str, p: str, ability: str, n: int) -> None:
    """Способность «Х раз за ход» карты в игровой зоне уже использована n раз: карта несёт n
    специальных маркеров (глоссарий: «Один (Х) раз за ход»)."""
    for entry in game.player_setup(p).get("play", []):
        if entry["card"] == name:
            text = ability if ability.endswith(".") else ability + "."
            entry.setdefault("used", {})[text] = n
            return
    raise AssertionError(f"«{name}» нет в игровой зоне игрока {p}: опишите её раньше")


ZONE_KEYS = {
    "рука": "hand",
    "колода": "deck",
    "кладбище": "graveyard",
    "запас": "reserve",
    "сайдборд": "sideboard",
}


@given(
    "в зоне «{zone:N}» у игрока {p:P} {cards:L}",
    example="Дано в зоне «запас» у игрока А «Гоблин»",
)
def zone_cards(game: ScenarioGame, zone: str, p: str, cards: list[str]) -> None:
    """Карты в частной зоне игрока: рука, колода (сверху вниз), кладбище, запас, сайдборд."""
    if zone not in ZONE_KEYS:
        raise AssertionError(f"неизвестная зона «{zone}»; частные зоны: {', '.join(ZONE_KEYS)}")
    game.player_setup(p).setdefault(ZONE_KEYS[zone], []).extend(cards)


@given(
    "карта «{name:N}» игрока {p:P} лежит рубашкой вверх",
    example="Дано карта «Лазутчик» игрока А лежит рубашкой вверх",
)
def face_down_given(game: ScenarioGame, name: str, p: str) -> None:
    """Карта игрока в игровой зоне лежит рубашкой вверх: противник видит только, что это карта.
    Опишите её в игровой зоне раньше этого шага."""
    for entry in game.player_setup(p).get("play", []):
        if entry["card"] == name and not entry.get("face_down"):
            entry["face_down"] = True
            return
    raise AssertionError(f"«{name}» нет в игровой зоне игрока {p}: опишите её раньше")
