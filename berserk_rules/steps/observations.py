"""Шаги «Тогда»: что видит игрок — раны, маркеры монет, зоны, Очередь, чьё решение, итог игры.

Наблюдения идут через ``observe(игрок)``: сценарий видит только то, что правила позволяют видеть
этому игроку (рука и запас — владельцу, колода — никому, только число карт).
"""

from __future__ import annotations

from typing import Any

from berserk_rules.steps.context import ACTION_KINDS, PHASES, ScenarioGame, copy_of, same_text, text_forms
from berserk_rules.steps.registry import then


def _expect(actual: Any, expected: Any, what: str) -> None:
    if actual != expected:
        raise AssertionError(f"{what}: ожидалось {expected!r}, на деле {actual!r}")


@then("у героя игрока {p:P} ран: {n:d}", example="Тогда у героя игрока Б ран: 2")
def hero_wounds(game: ScenarioGame, p: str, n: int) -> None:
    """Число ран на герое игрока."""
    game.expect(p, ["players", p, "hero", "wounds"], n, f"раны героя игрока {p}")


@then("у «{name:N}» ран: {n:d}", example="Тогда у «Гоблин» ран: 1")
def card_wounds(game: ScenarioGame, name: str, n: int) -> None:
    """Число ран на карте в игровой зоне."""
    game.expect(None, [*game.card_path(name), "wounds"], n, f"раны «{name}»")


@then("удар «{name:N}» равен {n:d}", example="Тогда удар «Гном» равен 3")
def strike(game: ScenarioGame, name: str, n: int) -> None:
    """Текущая сила удара существа в игровой зоне (с учётом эффектов)."""
    game.expect(None, [*game.card_path(name), "strike"], n, f"удар «{name}»")


@then(
    "у игрока {p:P} маркеров монет: {opened:d} открытых, {closed:d} закрытых",
    example="Тогда у игрока А маркеров монет: 3 открытых, 0 закрытых",
)
def coins(game: ScenarioGame, p: str, opened: int, closed: int) -> None:
    """Маркеры монет игрока."""
    coins = {"open": opened, "closed": closed}
    game.expect(p, ["players", p, "coins"], coins, f"маркеры монет игрока {p}")


@then("карта «{name:N}» открыта", example="Тогда карта «Гном» открыта")
def card_open(game: ScenarioGame, name: str) -> None:
    """Карта в игровой зоне открыта."""
    game.expect(None, [*game.card_path(name), "closed"], False, f"«{name}» закрыта")


@then("карта «{name:N}» закрыта", example="Тогда карта «Гном» закрыта")
def card_closed(game: ScenarioGame, name: str) -> None:
    """Карта в игровой зоне закрыта."""
    game.expect(None, [*game.card_path(name), "closed"], True, f"«{name}» закрыта")


@then("герой игрока {p:P} открыт", example="Тогда герой игрока А открыт")
def hero_open(game: ScenarioGame, p: str) -> None:
    """Герой игрока открыт."""
    game.expect(p, ["players", p, "hero", "closed"], False, f"герой игрока {p} закрыт")


@then("герой игрока {p:P} закрыт", example="Тогда герой игрока Б закрыт")
def hero_closed(game: ScenarioGame, p: str) -> None:
    """Герой игрока закрыт."""
    game.expect(p, ["players", p, "hero", "closed"], True, f"герой игрока {p} закрыт")


@then("в руке у игрока {p:P} карт: {n:d}", example="Тогда в руке у игрока А карт: 2")
def hand_count(game: ScenarioGame, p: str, n: int) -> None:
    """Число карт в руке — открытая информация (203.1)."""
    game.expect(p, ["players", p, "zones", "hand", "count"], n, f"карт в руке игрока {p}")


@then("в руке у игрока {p:P} есть «{name:N}»", example="Тогда в руке у игрока А есть «Гоблин»")
def in_hand(game: ScenarioGame, p: str, name: str) -> None:
    """Игрок видит карту в своей руке."""
    path = game.card_path(name, "hand", p, viewer=p)
    game.expect(p, [*path, "name"], path[-1]["name"], f"в руке у игрока {p}")


@then("в колоде у игрока {p:P} карт: {n:d}", example="Тогда в колоде у игрока А карт: 4")
def deck_count(game: ScenarioGame, p: str, n: int) -> None:
    """Число карт в колоде — открытая информация (204.1)."""
    game.expect(p, ["players", p, "zones", "deck", "count"], n, f"карт в колоде игрока {p}")


@then("«{name:N}» лежит на кладбище игрока {p:P}", example="Тогда «Гоблин» лежит на кладбище игрока Б")
def in_graveyard(game: ScenarioGame, name: str, p: str) -> None:
    """Карта на кладбище игрока (открытая зона)."""
    path = game.card_path(name, "graveyard", p, viewer=p)
    game.expect(p, [*path, "name"], path[-1]["name"], f"на кладбище игрока {p}")


@then("«{name:N}» в игровой зоне", example="Тогда «Гоблин» в игровой зоне")
def in_play(game: ScenarioGame, name: str) -> None:
    """Карта находится в игровой зоне."""
    path = game.card_path(name)
    game.expect(None, [*path, "name"], path[-1]["name"], "игровая зона")


@then("в Очереди по порядку:", example="Тогда в Очереди по порядку:\n  | способность | карта |")
def queue_order(game: ScenarioGame, datatable: list[list[str]]) -> None:
    """Способности в Очереди от первой к последней (столбцы: способность, карта)."""
    header = [h.strip() for h in datatable[0]]
    if header != ["способность", "карта"]:
        raise AssertionError(f"таблица Очереди: столбцы должны быть «способность | карта», получено {header}")
    expected = [(row[0].strip(), row[1].strip()) for row in datatable[1:]]
    queue = game.view(None)["queue"]
    ok = len(queue) == len(expected) and all(
        same_text(q["text"], text) and game.names(source, q.get("source"), q["source_name"])
        for q, (text, source) in zip(queue, expected, strict=True)
    )
    if not ok:
        actual = [(q["text"], q["source_name"]) for q in queue]
        raise AssertionError(f"Очередь: ожидалось {expected}, на деле {actual}")
    game.record_count(None, ["queue"], {}, len(queue))
    for number, (q, (_, source)) in enumerate(zip(queue, expected, strict=True)):
        game.record(None, ["queue", number, "text"], q["text"])
        if copy_of(source)[1] is None:
            game.record(None, ["queue", number, "source_name"], source)
        else:
            game.record(None, ["queue", number, "source"], q["source"])


@then("Очередь пуста", example="Тогда Очередь пуста")
def queue_empty(game: ScenarioGame) -> None:
    """В Очереди нет ни одной способности."""
    game.expect(None, ["queue"], [], "Очередь")


def _decision(game: ScenarioGame) -> dict[str, Any]:
    d = game.decision()
    if d is None:
        raise AssertionError("решений нет: игра окончена")
    return d


@then(
    "игрок {p:P} должен заявить срабатывающую способность или пасовать",
    example="Тогда игрок Б должен заявить срабатывающую способность или пасовать",
)
def must_declare(game: ScenarioGame, p: str) -> None:
    """Сейчас решение за игроком: заявить срабатывающую способность (или пасовать, если можно)."""
    _decision(game)
    game.expect(None, ["decision", "player"], p, "чьё решение")
    game.expect(None, ["decision", "kind"], "declare_trigger", "решение")


@then("игрок {p:P} может назначить защитника", example="Тогда игрок Б может назначить защитника")
def may_defend(game: ScenarioGame, p: str) -> None:
    """Решение за неактивным игроком: назначить защитника от атаки ударом или отказаться (307.1)."""
    _decision(game)
    game.expect(None, ["decision", "player"], p, "чьё решение")
    game.expect(None, ["decision", "kind"], "assign_defender", "решение")


@then(
    "игрок {p:P} может заявить «{ability:N}» карты «{source:N}»",
    example="Тогда игрок А может заявить «Гибель: возьмите карту.» карты «Гоблин»",
)
def may_declare(game: ScenarioGame, p: str, ability: str, source: str) -> None:
    """Среди законных решений игрока есть заявка этой способности (с любой целью)."""
    if not game.matching_options(p, "declare", ability, source):
        raise AssertionError(
            f"игрок {p} не может заявить «{ability}» карты «{source}»; решение: {game.decision()}"
        )
    game.record_ability_option(p, "declare", ability, source, present=True)


@then(
    "игрок {p:P} может заявить «{ability:N}» карты «{source:N}» по точкам срабатывания: {n:d}",
    example="Тогда игрок А может заявить «Когда погибает существо: возьмите карту.» карты «Плакальщица» "
    "по точкам срабатывания: 2",
)
def trigger_points(game: ScenarioGame, p: str, ability: str, source: str, n: int) -> None:
    """Способность сработала несколько раз: игрок может заявить её по любой из n точек
    срабатывания (402.2) — столько разных вариантов заявки у него есть."""
    options = game.matching_options(p, "declare", ability, source)
    triggers = {o["trigger"] for o in options}
    _expect(len(triggers), n, f"точек срабатывания «{ability}» карты «{source}»")
    # trigger ids are the engine's own: the vector counts the options, one per trigger (the protocol
    # has no cartesian products) — recorded only when that is so here, and the text is one
    texts = {o["about"]["ability"] for o in options}
    if game.recorder is not None and len(options) == n and len(texts) <= 1:
        for text in texts or text_forms(ability):
            pattern = game.ability_pattern("declare", text, source)
            game.record_count(p, ["decision", "options"], pattern, n)


@then(
    "игрок {p:P} не может заявить «{ability:N}» карты «{source:N}»",
    example="Тогда игрок А не может заявить «Гибель: возьмите карту.» карты «Гоблин»",
)
def may_not_declare(game: ScenarioGame, p: str, ability: str, source: str) -> None:
    """Заявки этой способности нет среди законных решений игрока. Шаг требует, чтобы сейчас игрок
    решал, заявлять ли срабатывающие способности, а карта была в игре (в игровой зоне, на кладбище,
    в руке)."""
    game.pending(p, "declare_trigger")
    game.seen_card_id(source, p, record=True)
    if game.matching_options(p, "declare", ability, source):
        raise AssertionError(f"игрок {p} всё ещё может заявить «{ability}» карты «{source}»")
    game.record_ability_option(p, "declare", ability, source, present=False)


@then("игрок {p:P} может пасовать", example="Тогда игрок Б может пасовать")
def may_pass(game: ScenarioGame, p: str) -> None:
    """Пас — одно из законных решений игрока."""
    game.needs(actions=("pass",))
    d = _decision(game)
    if d["player"] != p or not any(o["type"] == "pass" for o in d["options"]):
        raise AssertionError(f"игрок {p} не может пасовать; решение: {d['kind']} игрока {d['player']}")
    game.record_option(p, {"type": "pass"}, present=True)


@then("игрок {p:P} не может пасовать", example="Тогда игрок А не может пасовать")
def may_not_pass(game: ScenarioGame, p: str) -> None:
    """Паса нет среди законных решений игрока."""
    game.needs(actions=("pass",))
    d = _decision(game)
    _expect(d["player"], p, "чьё решение")
    if any(o["type"] == "pass" for o in d["options"]):
        raise AssertionError(f"игрок {p} может пасовать")
    game.record(None, ["decision", "player"], p)
    game.record_option(p, {"type": "pass"}, present=False)


@then("идёт фаза выбора игрока {p:P}", example="Тогда идёт фаза выбора игрока А")
def in_choice_phase(game: ScenarioGame, p: str) -> None:
    """Фаза выбора хода игрока: Очередь пуста, решение за активным игроком (306.1)."""
    game.expect(p, ["phase"], "choice", "фаза")
    game.expect(p, ["active"], p, "активный игрок")
    _decision(game)
    game.expect(None, ["decision", "player"], p, "чьё решение")
    game.expect(None, ["decision", "kind"], "choose_action", "решение")


@then("сейчас {phase}", example="Тогда сейчас фаза накопления")
def phase_is(game: ScenarioGame, phase: str) -> None:
    """Текущая фаза или этап хода: фаза восстановления, фаза накопления, фаза выбора, фаза атаки
    ударом, фаза активируемых способностей, фаза розыгрыша карты, этап конца хода."""
    if phase not in PHASES.values():
        raise AssertionError(f"неизвестная фаза «{phase}»; известны: {list(PHASES.values())}")
    key = next(k for k, v in PHASES.items() if v == phase)
    game.expect(None, ["phase"], key, "фаза")


@then("ходит игрок {p:P}", example="Тогда ходит игрок Б")
def active_player(game: ScenarioGame, p: str) -> None:
    """Активный игрок — тот, чей сейчас ход."""
    game.expect(p, ["active"], p, "активный игрок")


@then("идёт ход {n:d}", example="Тогда идёт ход 2")
def turn_is(game: ScenarioGame, n: int) -> None:
    """Номер хода партии."""
    game.expect(None, ["turn"], n, "ход")


@then(
    "игроку {p:P} доступны действия: {kinds}",
    example="Тогда игроку А доступны действия: розыгрыш карты, передача хода",
)
def available_kinds(game: ScenarioGame, p: str, kinds: str) -> None:
    """Виды действий фазы выбора, доступные игроку (атака ударом, активируемая способность,
    розыгрыш карты, передача хода) — ровно этот набор. Если движок не заявил какой-то из этих видов
    (capabilities), сценарий к нему не применим."""
    expected = {k.strip() for k in kinds.split(",")}
    unknown = expected - set(ACTION_KINDS.values())
    if unknown:
        raise AssertionError(
            f"неизвестные виды действий {sorted(unknown)}; известны {list(ACTION_KINDS.values())}"
        )
    for kind, words in ACTION_KINDS.items():
        if words in expected:
            game.needs(actions=(kind,))
    d = _decision(game)
    _expect(d["player"], p, "чьё решение")
    actual = {ACTION_KINDS.get(o["type"], o["type"]) for o in d["options"]}
    _expect(sorted(actual), sorted(expected), "доступные действия")


@then("игрок {p:P} побеждает по правилу {rule}", example="Тогда игрок Б побеждает по правилу 602.1")
def wins(game: ScenarioGame, p: str, rule: str) -> None:
    """Игра окончена победой игрока; движок указывает правило."""
    game.expect(p, ["result"], {"winner": p, "draw": False, "rule": rule}, "итог игры")


@then("игрок {p:P} проигрывает по правилу {rule}", example="Тогда игрок А проигрывает по правилу 304.2")
def loses(game: ScenarioGame, p: str, rule: str) -> None:
    """Игра окончена поражением игрока (победой его противника); движок указывает правило."""
    other = "Б" if p == "А" else "А"
    game.expect(p, ["result"], {"winner": other, "draw": False, "rule": rule}, "итог игры")


@then("игра продолжается", example="Тогда игра продолжается")
def not_over(game: ScenarioGame) -> None:
    """Игра не окончена."""
    game.expect(None, ["result"], None, "итог игры")


@then(
    "у игрока {p:P} неудачных попыток взять карту: {n:d}",
    example="Тогда у игрока А неудачных попыток взять карту: 1",
)
def draw_failures(game: ScenarioGame, p: str, n: int) -> None:
    """Сколько раз за игру игрок не смог взять карту в фазу накопления (304.2)."""
    game.expect(p, ["players", p, "draw_failures"], n, f"неудачные попытки игрока {p}")


@then("действие отклонено по правилу {rule}", example="Тогда действие отклонено по правилу 401.7")
def rejected(game: ScenarioGame, rule: str) -> None:
    """Движок отклонил последнюю попытку, сославшись на правило, и состояние игры не изменилось."""
    game.expect_rejected(rule)
    if game.unchanged is None:
        raise AssertionError("перед этим шагом нужна попытка действия («Когда игрок … пытается …»)")
    if game.rejection is None:
        raise AssertionError("движок принял действие, которое должен был отклонить")
    _expect(game.rejection.rule, rule, f"правило в отказе «{game.rejection.message}»")
    if not game.unchanged:
        raise AssertionError("отклонённое действие изменило состояние игры")


def _private_zone(game: ScenarioGame, viewer: str, zone: str, owner: str) -> dict[str, Any]:
    from berserk_rules.steps.position import ZONE_KEYS

    if zone not in ZONE_KEYS:
        raise AssertionError(f"неизвестная зона «{zone}»; частные зоны: {', '.join(ZONE_KEYS)}")
    return game.view(viewer)["players"][owner]["zones"][ZONE_KEYS[zone]]


@then(
    "игрок {viewer:P} видит карты в зоне «{zone:N}» игрока {owner:P}",
    example="Тогда игрок Б видит карты в зоне «кладбище» игрока А",
)
def sees_zone(game: ScenarioGame, viewer: str, zone: str, owner: str) -> None:
    """Игрок может просматривать карты этой зоны (201.3, 201.4)."""
    data = _private_zone(game, viewer, zone, owner)
    if data["cards"] is None:
        raise AssertionError(f"игрок {viewer} не видит карт в зоне «{zone}» игрока {owner}")
    _expect(len(data["cards"]), data["count"], "видимые карты")


@then(
    "игрок {viewer:P} не видит карт в зоне «{zone:N}» игрока {owner:P}",
    example="Тогда игрок Б не видит карт в зоне «рука» игрока А",
)
def does_not_see_zone(game: ScenarioGame, viewer: str, zone: str, owner: str) -> None:
    """Карты зоны скрыты от игрока (201.4, 201.5): он не знает, какие это карты."""
    _private_zone(game, viewer, zone, owner)  # a known zone
    from berserk_rules.steps.position import ZONE_KEYS

    path = ["players", owner, "zones", ZONE_KEYS[zone], "cards"]
    game.expect(viewer, path, None, f"карты зоны «{zone}» игрока {owner} глазами игрока {viewer}")


@then(
    "игрок {viewer:P} знает, что в зоне «{zone:N}» игрока {owner:P} карт: {n:d}",
    example="Тогда игрок Б знает, что в зоне «рука» игрока А карт: 2",
)
def knows_count(game: ScenarioGame, viewer: str, zone: str, owner: str, n: int) -> None:
    """Число карт в зоне — информация, доступная игроку (203.1, 204.1)."""
    _private_zone(game, viewer, zone, owner)  # a known zone
    from berserk_rules.steps.position import ZONE_KEYS

    path = ["players", owner, "zones", ZONE_KEYS[zone], "count"]
    game.expect(viewer, path, n, f"число карт в зоне «{zone}» игрока {owner}")


@then(
    "игрок {viewer:P} видит в игровой зоне «{name:N}»",
    example="Тогда игрок Б видит в игровой зоне «Гном»",
)
def sees_in_play(game: ScenarioGame, viewer: str, name: str) -> None:
    """Игровая зона открыта: карты в ней видят оба игрока (201.3, 202.1)."""
    path = game.card_path(name, viewer=viewer)
    game.expect(viewer, [*path, "name"], path[-1]["name"], f"игровая зона глазами игрока {viewer}")


# --- combat and actions (Часть 3, глоссарий: Атака, Назначить защитника, Действие карты) ----------


def _option_cards(game: ScenarioGame, p: str, kind: str, field: str) -> list[str]:
    """The cards (ids) in ``field`` of ``p``'s options of type ``kind`` (none if the decision is not his)."""
    d = game.decision()
    if not d or d["player"] != p:
        return []
    return [o[field] for o in d["options"] if o["type"] == kind]


def _names_of(game: ScenarioGame, ids: list[str]) -> list[str]:
    """The names of these cards in the game zone (for messages)."""
    names = {c["id"]: c.get("name") or "?" for c in game.view(None)["play"]}
    return [names.get(i, i) for i in ids]


def _card_option(game: ScenarioGame, p: str, kind: str, field: str, name: str, *, present: bool) -> None:
    """Has ``p`` (not) an option of type ``kind`` whose ``field`` is the named card (a copy by its
    number)? The negative form first needs the decision it talks about (:data:`DECIDED_IN`) to be
    ``p``'s and the card to be in the game zone: with nothing to ask about it fails, never passes."""
    game.needs(actions=(kind,))
    if not present:
        game.pending(p, DECIDED_IN[kind])
    card_id = (game.card(name) if present else game.require(name))["id"]
    offered = _option_cards(game, p, kind, field)
    if present and card_id not in offered:
        raise AssertionError(
            f"игрок {p} не может {KIND_WORDS[kind]} «{name}»; может: {_names_of(game, offered)}"
        )
    if not present and card_id in offered:
        raise AssertionError(f"игрок {p} может {KIND_WORDS[kind]} «{name}»")
    game.record_option(p, {"type": kind, field: card_id}, present=present)


DECIDED_IN = {"attack": "choose_action", "defend": "assign_defender"}
KIND_WORDS = {"attack": "атаковать существом", "defend": "назначить защитником"}


@then(
    "игрок {p:P} может атаковать существом «{name:N}»",
    example="Тогда игрок А может атаковать существом «Гном»",
)
def may_attack(game: ScenarioGame, p: str, name: str) -> None:
    """Среди законных действий игрока есть атака ударом этим существом (307.1)."""
    _card_option(game, p, "attack", "attacker", name, present=True)


@then(
    "игрок {p:P} не может атаковать существом «{name:N}»",
    example="Тогда игрок А не может атаковать существом «Гном»",
)
def may_not_attack(game: ScenarioGame, p: str, name: str) -> None:
    """Атаки ударом этим существом нет среди законных действий игрока. Шаг требует, чтобы сейчас
    игрок выбирал действие фазы выбора и существо было в игровой зоне, — иначе он падает, а не
    проходит «потому что ничего не нашлось»."""
    _card_option(game, p, "attack", "attacker", name, present=False)


@then(
    "игрок {p:P} может назначить защитником «{name:N}»",
    example="Тогда игрок Б может назначить защитником «Страж»",
)
def may_defend_with(game: ScenarioGame, p: str, name: str) -> None:
    """Среди законных решений неактивного игрока есть назначение этого существа защитником."""
    _card_option(game, p, "defend", "defender", name, present=True)


@then(
    "игрок {p:P} не может назначить защитником «{name:N}»",
    example="Тогда игрок Б не может назначить защитником «Страж»",
)
def may_not_defend_with(game: ScenarioGame, p: str, name: str) -> None:
    """Назначения этого существа защитником нет среди законных решений. Шаг требует, чтобы сейчас
    игрок решал, назначать ли защитника, и существо было в игровой зоне."""
    _card_option(game, p, "defend", "defender", name, present=False)


@then(
    "атакованная карта — «{name:N}»",
    example="Тогда атакованная карта — «Герой Б»",
)
def attacked_card(game: ScenarioGame, name: str) -> None:
    """Объявленная атака ударом сейчас направлена на эту карту (Цель атаки, Атакованная карта)."""
    attack = game.view(None).get("attack")
    if not attack:
        raise AssertionError("сейчас нет объявленной атаки ударом")
    card_id = game.card(name)["id"]
    if attack["target"] != card_id:
        raise AssertionError(
            f"цель атаки: ожидалась «{name}», на деле «{_names_of(game, [attack['target']])[0]}»"
        )
    game.record(None, ["attack", "target"], card_id)


@then(
    "игрок {p:P} может объявить «{ability:N}» карты «{source:N}»",
    example="Тогда игрок А может объявить «[Закрыть]: возьмите карту.» карты «Писарь»",
)
def may_activate(game: ScenarioGame, p: str, ability: str, source: str) -> None:
    """Среди законных действий игрока есть объявление этой активируемой способности (с любой целью)."""
    if not game.matching_options(p, "activate", ability, source):
        raise AssertionError(f"игрок {p} не может объявить «{ability}» карты «{source}»")
    game.record_ability_option(p, "activate", ability, source, present=True)


@then(
    "игрок {p:P} не может объявить «{ability:N}» карты «{source:N}»",
    example="Тогда игрок А не может объявить «[Закрыть]: возьмите карту.» карты «Писарь»",
)
def may_not_activate(game: ScenarioGame, p: str, ability: str, source: str) -> None:
    """Объявления этой активируемой способности нет среди законных действий игрока. Шаг требует,
    чтобы сейчас игрок выбирал действие фазы выбора, а карта была в игре (в игровой зоне, на
    кладбище, в руке)."""
    game.pending(p, "choose_action")
    game.seen_card_id(source, p, record=True)
    if game.matching_options(p, "activate", ability, source):
        raise AssertionError(f"игрок {p} может объявить «{ability}» карты «{source}»")
    game.record_ability_option(p, "activate", ability, source, present=False)
