"""Шаги Частей 1, 2, 5, 6: выбор карт игроком, колода и её перемешивание, отряд и контроль,
стоимость, эффекты замещения, итог игры — победа, ничья, сдача, предложение ничьей.

Как и все шаги, они видят игру только через драйвер и только то, что видит игрок: колоду не
подсматривают — о её перемешивании и о показанных картах говорит журнал игрока, о том, какие карты
игрок выбирает из своей колоды, — варианты его решения (их видит только он).
"""

from __future__ import annotations

from typing import Any

from berserk_rules.steps.context import ScenarioGame, copy_of, same_text, text_forms
from berserk_rules.steps.registry import given, then, when


def _expect(actual: Any, expected: Any, what: str) -> None:
    if actual != expected:
        raise AssertionError(f"{what}: ожидалось {expected!r}, на деле {actual!r}")


def _decision(game: ScenarioGame, p: str, kind: str) -> dict[str, Any]:
    d = game.decision()
    if d is None:
        raise AssertionError("решений нет: игра окончена")
    if (d["player"], d["kind"]) != (p, kind):
        raise AssertionError(
            f"ожидалось решение {kind!r} игрока {p}, а сейчас {d['kind']!r} игрока {d['player']}"
        )
    return d


def _choice(game: ScenarioGame, p: str) -> dict[str, Any]:
    """The one option of the player's pending choice of cards."""
    d = _decision(game, p, "choose_cards")
    return d["options"][0]


def _candidate_names(option: dict[str, Any]) -> dict[str, str]:
    """id -> name of the candidates, as the choosing player sees them (``about.cards``)."""
    return {c["id"]: c["name"] for c in option.get("about", {}).get("cards", [])}


# --- Дано ----------------------------------------------------------------------------------------


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
    d = _decision(game, p, "choose")
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
    _decision(game, p, "answer_draw")
    game.act(p, {"type": "accept_draw"})


@when("игрок {p:P} отклоняет ничью", example="Когда игрок Б отклоняет ничью")
def decline_draw(game: ScenarioGame, p: str) -> None:
    """Противник отклоняет предложение ничьей: игра продолжается (603.2)."""
    _decision(game, p, "answer_draw")
    game.act(p, {"type": "decline_draw"})


# --- Тогда: выбор карт -------------------------------------------------------------------------


@then("игрок {p:P} выбирает карты среди {cards:L}", example="Тогда игрок А выбирает карты среди «Пиранья»")
def chooses_among(game: ScenarioGame, p: str, cards: list[str]) -> None:
    """Решение за игроком: выбрать карты — ровно из этих (одинаковые названия — по экземпляру)."""
    _expect(sorted(_candidate_names(_choice(game, p)).values()), sorted(cards), f"карты на выбор игрока {p}")
    _record_decision(game, p, "choose_cards")
    candidates = ["decision", "options", 0, "about", "cards"]
    _record_names(game, p, candidates, {}, cards)


def _record_decision(game: ScenarioGame, p: str, kind: str) -> None:
    game.record(None, ["decision", "player"], p)
    game.record(None, ["decision", "kind"], kind)


def _record_names(
    game: ScenarioGame, viewer: str | None, path: list[Any], pattern: dict[str, Any], names: list[str]
) -> None:
    """Record that the list at ``path`` holds, among its elements fitting ``pattern``, exactly these
    names (in any order, each as many times as it is named)."""
    game.record_count(viewer, path, pattern, len(names))
    for name in sorted(set(names)):
        game.record_count(viewer, path, {**pattern, "name": name}, names.count(name))


@then(
    "игрок {p:P} выбирает от {least:d} до {most:d} карт",
    example="Тогда игрок А выбирает от 0 до 1 карт",
)
def choice_bounds(game: ScenarioGame, p: str, least: int, most: int) -> None:
    """Сколько карт игрок может выбрать: не меньше и не больше (0 — можно не выбирать ни одной)."""
    option = _choice(game, p)
    _expect((option["min"], option["max"]), (least, most), f"сколько карт выбирает игрок {p}")
    _record_decision(game, p, "choose_cards")
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
    _expect(
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
    _expect(_shuffles(game, p), n, f"перемешиваний колоды игрока {p}")
    game.record_count(p, [], {"event": "shuffle", "player": p}, n, log=True)


@then("колода игрока {p:P} не перемешивалась", example="Тогда колода игрока А не перемешивалась")
def not_shuffled(game: ScenarioGame, p: str) -> None:
    """Колоду игрока ни разу не перемешивали (204.3: карту брали или клали в названное место)."""
    game.start()
    _expect(_shuffles(game, p), 0, f"перемешиваний колоды игрока {p}")
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
    _expect(shown, cards, f"карты, показанные игроком {p}")


# --- Тогда: отряд, контроль, владелец (517, глоссарий) ------------------------------------------


@then("«{name:N}» в отряде игрока {p:P}", example="Тогда «Пиранья» в отряде игрока А")
def in_squad(game: ScenarioGame, name: str, p: str) -> None:
    """Карта в игровой зоне под контролем игрока (Отряд; Взять карту в отряд)."""
    card, path = game.locate(name)
    _expect(card["controller"], p, f"кто контролирует «{name}»")
    game.record(None, [*path, "controller"], p)


@then(
    "отряд игрока {p:P}: {cards:L}",
    example="Тогда отряд игрока А: «Герой А» и «Гном»",
)
def squad(game: ScenarioGame, p: str, cards: list[str]) -> None:
    """Отряд — ровно эти карты под контролем игрока в игровой зоне (герой — тоже карта отряда)."""
    names = sorted(c["name"] for c in game.view(p)["play"] if c.get("controller") == p)
    _expect(names, sorted(cards), f"отряд игрока {p}")
    _record_names(game, p, ["play"], {"controller": p}, cards)


@then("владелец «{name:N}» — игрок {p:P}", example="Тогда владелец «Нимерт» — игрок Б")
def owner(game: ScenarioGame, name: str, p: str) -> None:
    """Владелец карты в игровой зоне — тот, в чьей колоде она была до начала игры."""
    card, path = game.locate(name)
    _expect(card["owner"], p, f"владелец «{name}»")
    game.record(None, [*path, "owner"], p)


@then("«{name:N}» вошла в игру в этот ход", example="Тогда «Нимерт» вошла в игру в этот ход")
def entered_this_turn(game: ScenarioGame, name: str) -> None:
    """Карта попала в игровую зону в этот ход — это другая карта, чем была (203.4, 204.4)."""
    card, path = game.locate(name)
    _expect(card["entered_this_turn"], True, f"«{name}» вошла в игру в этот ход")
    game.record(None, [*path, "entered_this_turn"], True)


@then("на «{name:N}» нет длящихся эффектов", example="Тогда на «Гном» нет длящихся эффектов")
def no_effects(game: ScenarioGame, name: str) -> None:
    """На карте в игровой зоне не действует ни одного длящегося эффекта."""
    card, path = game.locate(name)
    _expect(card.get("effects", []), [], f"эффекты на «{name}»")
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
    _expect([c["name"] for c in hidden], [None] * len(hidden), "названия карт рубашкой вверх")
    face_down = {"face_down": True, "controller": owner}
    game.record_count(viewer, ["play"], face_down, len(hidden))
    game.record_count(viewer, ["play"], {**face_down, "name": None}, len(hidden))


@then("«{name:N}» лежит лицом вверх", example="Тогда «Лазутчик» лежит лицом вверх")
def is_face_up(game: ScenarioGame, name: str) -> None:
    """Карта в игровой зоне лежит лицом вверх."""
    # The observation schema lets a face-up card leave «face_down» out: absent means face up.
    card, path = game.locate(name)
    _expect(bool(card.get("face_down", False)), False, f"«{name}» рубашкой вверх")
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
    _expect(moves[-1].get("rule"), term, f"термин перемещения «{name}»")
    pattern = (
        {"event": "move", "name": name}
        if copy_of(name)[1] is None
        else {"event": "move", "card": moves[-1]["card"]}
    )
    game.record(None, [{**pattern, "$copy": -1}, "rule"], term, log=True)


# --- Тогда: стоимость (203.2–203.3), оплата (501.2), заявка (501.1) ----------------------------------


@then(
    "стоимость «{name:N}» в руке игрока {p:P}: {n:d}",
    example="Тогда стоимость «Кутила» в руке игрока А: 6",
)
def cost_in_hand(game: ScenarioGame, name: str, p: str, n: int) -> None:
    """Сколько стоит карта в руке игрока сейчас — за столько он её разыграет (видит только он)."""
    card, path = game.locate(name, "hand", p, viewer=p)
    _expect(card.get("cost"), n, f"стоимость «{name}» в руке")
    game.record(p, [*path, "cost"], n)


@then("стоимость «{name:N}» в игровой зоне: {n:d}", example="Тогда стоимость «Кутила» в игровой зоне: 10")
def cost_in_play(game: ScenarioGame, name: str, n: int) -> None:
    """Стоимость карты, находящейся в игровой зоне."""
    card, path = game.locate(name)
    _expect(card.get("cost"), n, f"стоимость «{name}» в игровой зоне")
    game.record(None, [*path, "cost"], n)


def _playable(game: ScenarioGame, p: str) -> list[str]:
    """The cards (ids) ``p`` may play now (none if the decision is not his)."""
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
    example="Тогда целью «Огненный шар» игрок А может выбрать только «Гном»",
)
def spell_targets(game: ScenarioGame, spell: str, p: str, cards: list[str]) -> None:
    """Законные цели заклинания при розыгрыше — ровно эти карты (202.2: только карты в игровой зоне,
    если не сказано иного)."""
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
        _expect(sorted(names.get(c, c) for c in candidates), sorted(cards), f"цели «{spell}»")
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
    _expect(sum(game.card(name).get("uses", {}).values()), n, f"маркеры «раз за ход» на «{name}»")


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


# --- Тогда: эффекты замещения -------------------------------------------------------------------


@then(
    "игрок {p:P} выбирает эффект замещения из карт {cards:L}",
    example="Тогда игрок А выбирает эффект замещения из карт «Телохранитель» и «Оруженосец»",
)
def replacement_choice(game: ScenarioGame, p: str, cards: list[str]) -> None:
    """Решение за игроком: какой из эффектов замещения этих карт применить (по одному на карту)."""
    d = _decision(game, p, "choose")
    offered = sorted(o.get("about", {}).get("source_name", "") for o in d["options"])
    _expect(offered, sorted(cards), f"эффекты замещения на выбор игрока {p}")
    _record_decision(game, p, "choose")
    game.record_count(None, ["decision", "options"], {}, len(cards))
    for name in sorted(set(cards)):
        pattern = {"about": {"source_name": name}}
        game.record_count(None, ["decision", "options"], pattern, cards.count(name))


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
    d = _decision(game, p, "answer_draw")
    _expect(sorted(o["type"] for o in d["options"]), ["accept_draw", "decline_draw"], "ответы на ничью")
    _record_decision(game, p, "answer_draw")
    game.record_count(None, ["decision", "options"], {}, 2)
    for answer in ("accept_draw", "decline_draw"):
        game.record_count(None, ["decision", "options"], {"type": answer}, 1)


@then("решение снова за игроком {p:P}", example="Тогда решение снова за игроком А")
def decision_back(game: ScenarioGame, p: str) -> None:
    """Игра продолжается с того решения, которое было до предложения ничьей."""
    d = game.decision()
    if d is None:
        raise AssertionError("решений нет: игра окончена")
    _expect(d["player"], p, "чьё решение")
    game.record(None, ["decision", "player"], p)
