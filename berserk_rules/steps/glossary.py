"""Шаги терминов глоссария (Часть 7): эффекты на карте и их сроки, жизни, излеченные и
предотвращённые раны, сила ударов, карты рубашкой вверх и Скрытность, законные цели, пересдача,
проверка колоды (выбор карт игроком, способности карты и карты рубашкой вверх в позиции — шаги
``process``).

Две копии одной карты в игровой зоне различаются так: «Гном, копия 1», «Гном, копия 2» — в порядке,
в котором они попали в игровую зону (глоссарий: «Копия карты»); так их можно называть в любом шаге.
"""

from __future__ import annotations

from typing import Any

from berserk_rules.harness.driver import SetupRejected
from berserk_rules.rulebook import decks
from berserk_rules.steps.context import ScenarioGame, bare, copy_of, same_text
from berserk_rules.steps.registry import given, then, when

UNTIL = {
    "до конца хода": "end_of_turn",
    "до конца боя": "leaves_play",
    "пока источник в игре": "source_leaves",
    "на ходы игрока": "player_turns",
}


def _expect(actual: Any, expected: Any, what: str) -> None:
    if actual != expected:
        raise AssertionError(f"{what}: ожидалось {expected!r}, на деле {actual!r}")


def _until(words: str) -> str:
    if words not in UNTIL:
        raise AssertionError(f"неизвестный срок «{words}»; известны: {', '.join(UNTIL)}")
    return UNTIL[words]


def _decision_of(game: ScenarioGame, player: str, kind: str) -> dict[str, Any]:
    d = game.decision()
    if d is None:
        raise AssertionError("решений нет: игра окончена")
    if (d["player"], d["kind"]) != (player, kind):
        raise AssertionError(f"сейчас решение {d['kind']} игрока {d['player']}, а не {kind} игрока {player}")
    return d


# --- abilities, effects, properties --------------------------------------------------------------------


@then(
    "«{name:N}» получило «{text:N}» {until}",
    example="Тогда «Гном» получило «Рывок» до конца хода",
)
def gained(game: ScenarioGame, name: str, text: str, until: str) -> None:
    """На карте действует эффект «получает [текст]» с этим сроком: до конца хода, до конца боя, пока
    источник в игре, на ходы игрока (глоссарий: «Получает [текст]»). [Текст] — полученная способность
    («Рывок») или модификатор («+2 к удару», «+1 к жизням»)."""
    wanted = _until(until)
    card, path = game.locate(name)
    effects = card.get("effects", [])
    if not any(same_text(e.get("ability", e["text"]), text) and e["until"] == wanted for e in effects):
        raise AssertionError(f"«{name}» не получало «{text}» {until}; эффекты: {effects}")
    found = next(e for e in effects if same_text(e.get("ability", e["text"]), text) and e["until"] == wanted)
    key = "ability" if "ability" in found else "text"
    game.record(None, [*path, "effects", {key: found[key], "until": wanted}], exists=True)


@then("«{name:N}» потеряло особенности {until}", example="Тогда «Гном» потеряло особенности до конца хода")
def lost_text(game: ScenarioGame, name: str, until: str) -> None:
    """На карте действует эффект «теряет особенности» с этим сроком."""
    wanted = _until(until)
    card, path = game.locate(name)
    effects = card.get("effects", [])
    if not any(e["kind"] == "lose_text" and e["until"] == wanted for e in effects):
        raise AssertionError(f"«{name}» не теряло особенности {until}; эффекты: {effects}")
    pattern = {"kind": "lose_text", "until": wanted}
    game.record(None, [*path, "effects", pattern], exists=True)


@then("у «{name:N}» жизней: {n:d}", example="Тогда у «Гном» жизней: 4")
def lives(game: ScenarioGame, name: str, n: int) -> None:
    """Уровень жизней карты: начальное число жизней с дополнительными и отрицательными жизнями (раны
    здесь не вычитаются)."""
    game.expect(None, [*game.card_path(name), "life"], n, f"жизни «{name}»")


@then("текущее число жизней «{name:N}»: {n:d}", example="Тогда текущее число жизней «Гном»: 2")
def current_lives(game: ScenarioGame, name: str, n: int) -> None:
    """Жизни карты (текущее число жизней): к начальному числу жизней добавлены дополнительные жизни,
    вычтены отрицательные жизни и раны."""
    game.expect(None, [*game.card_path(name), "current_life"], n, f"текущее число жизней «{name}»")


@then(
    "у «{name:N}» на кладбище игрока {p:P} маркеров «раз за ход»: {n:d}",
    example="Тогда у «Писарь» на кладбище игрока А маркеров «раз за ход»: 1",
)
def per_turn_markers_in_graveyard(game: ScenarioGame, name: str, p: str, n: int) -> None:
    """Специальные маркеры «раз за ход» на карте, лежащей на кладбище (открытая зона)."""
    card = game.card(name, "graveyard", p, viewer=p)
    _expect(sum(card.get("uses", {}).values()), n, f"маркеры «раз за ход» на «{name}»")


# --- what the log says: wounds healed and prevented, blows ------------------------------------------


def _log(game: ScenarioGame) -> list[dict[str, Any]]:
    return game.log(None)


@then("излечение сняло с «{name:N}» ран: {n:d}", example="Тогда излечение сняло с «Гном» ран: 1")
def healed(game: ScenarioGame, name: str, n: int) -> None:
    """Последнее излечение этой карты сняло столько ран: излечение считается выполненным по количеству
    снятых ран."""
    card_id = game.card(name)["id"]
    heals = [e for e in _log(game) if e["event"] == "heal" and e.get("card") == card_id]
    if not heals:
        raise AssertionError(f"«{name}» не излечивали")
    _expect(heals[-1]["amount"], n, f"снято ран с «{name}»")
    game.record(None, [{"event": "heal", "card": card_id, "$copy": -1}, "amount"], n, log=True)


@then("у «{name:N}» предотвращено ран: {n:d}", example="Тогда у «Латник» предотвращено ран: 1")
def prevented(game: ScenarioGame, name: str, n: int) -> None:
    """Сколько ран, нанесённых этой карте, предотвращено за всё время, что она в игре (Предотвращение)."""
    card_id = game.card(name)["id"]
    found = [e["amount"] for e in _log(game) if e["event"] == "prevented" and e.get("card") == card_id]
    _expect(sum(found), n, f"предотвращено ран у «{name}»")
    if len(found) <= 1:  # a sum of several entries is no single check: not recorded
        pattern = {"event": "prevented", "card": card_id}
        game.record_count(None, [], pattern, len(found), log=True)
        if found:
            game.record(None, [pattern, "amount"], n, log=True)


BLOWS = {"удар": "attack", "ответный удар": "counter", "выстрел": "shot"}


@then(
    "«{striker:N}» нанесло {kind} по «{target:N}» силой {n:d}",
    example="Тогда «Гном» нанесло удар по «Латник» силой 3",
)
def blow(game: ScenarioGame, striker: str, kind: str, target: str, n: int) -> None:
    """Сила последнего удара (ответного удара, выстрела) карты по карте: сила атаки, а не число
    нанесённых ран (предотвращение меняет только раны)."""
    if kind not in BLOWS:
        raise AssertionError(f"неизвестный вид удара «{kind}»; известны: {', '.join(BLOWS)}")
    found = [
        e
        for e in _log(game)
        if e["event"] == "blow"
        and e.get("kind") == BLOWS[kind]
        and game.names(striker, e.get("card"), e.get("name"))
        and game.names(target, e.get("target"), e.get("target_name"))
    ]
    if not found:
        raise AssertionError(f"«{striker}» не наносило {kind} по «{target}»")
    _expect(found[-1]["strength"], n, f"сила: {kind} «{striker}» по «{target}»")
    pattern: dict[str, Any] = {"event": "blow", "kind": BLOWS[kind]}
    for name, id_key, name_key in ((striker, "card", "name"), (target, "target", "target_name")):
        if copy_of(name)[1] is None:
            pattern[name_key] = name
        else:  # a copy is its very card
            pattern[id_key] = found[-1][id_key]
    game.record(None, [{**pattern, "$copy": -1}, "strength"], n, log=True)


# --- cards face down («Скрытность») ------------------------------------------------------------------


@then("«{name:N}» лежит рубашкой вверх", example="Тогда «Лазутчик» лежит рубашкой вверх")
def is_face_down(game: ScenarioGame, name: str) -> None:
    """Карта в игровой зоне лежит рубашкой вверх."""
    game.expect(None, [*game.card_path(name), "face_down"], True, f"«{name}» рубашкой вверх")


def _flip_option(game: ScenarioGame, p: str, name: str, choice: str) -> dict[str, Any]:
    d = _decision_of(game, p, "choose")
    found = [
        o
        for o in d["options"]
        if o.get("choice") == choice and (name in o.get("label", "") or name in d.get("prompt", ""))
    ]
    if not found:
        raise AssertionError(f"игрок {p} сейчас не решает, переворачивать ли «{name}»: {d}")
    return bare(found[0])


@when(
    "игрок {p:P} переворачивает «{name:N}» лицом вверх",
    example="Когда игрок А переворачивает «Лазутчик» лицом вверх",
)
def turn_face_up(game: ScenarioGame, p: str, name: str) -> None:
    """В свою фазу восстановления игрок переворачивает карту со Скрытностью лицом вверх."""
    game.act(p, _flip_option(game, p, name, "перевернуть"))


@when(
    "игрок {p:P} оставляет «{name:N}» рубашкой вверх",
    example="Когда игрок А оставляет «Лазутчик» рубашкой вверх",
)
def keep_face_down(game: ScenarioGame, p: str, name: str) -> None:
    """Игрок не пользуется правом перевернуть карту со Скрытностью."""
    game.act(p, _flip_option(game, p, name, "оставить"))


# --- legal targets -------------------------------------------------------------------------------------


def _play_options(game: ScenarioGame, p: str, name: str) -> list[dict[str, Any]]:
    game.needs(actions=("play",))
    d = game.decision()
    if not d or d["player"] != p:
        return []
    card_id = game.any_card_id(name, p)
    return [o for o in d["options"] if o["type"] == "play" and o["card"] == card_id]


def _first_slot(option: dict[str, Any]) -> list[str]:
    slots = option.get("slots") or []
    return list(slots[0]["candidates"]) if slots else []


def _asked(game: ScenarioGame, p: str, kind: str, source: str, target: str, zone: str = "play") -> str:
    """What a negative target step needs before it can say «not»: ``p``'s decision of this ``kind``
    pending, the source (the spell in his hand, the creature or the card in the game zone, the
    source of a trigger wherever it is) and the target card where he can name it. The target's id."""
    game.pending(p, kind)
    if zone == "anywhere":
        game.seen_card_id(source, p, record=True)
    else:
        game.require(source, zone, p if zone != "play" else None)
    return game.seen_card_id(target, p, record=True)


@then(
    "игрок {p:P} может разыграть «{name:N}» с целью «{target:N}»",
    example="Тогда игрок А может разыграть «Огневой залп» с целью «Гном»",
)
def may_play_target(game: ScenarioGame, p: str, name: str, target: str) -> None:
    """Эту карту можно выбрать целью заклинания."""
    target_id = game.card(target)["id"]
    if not any(target_id in _first_slot(o) for o in _play_options(game, p, name)):
        raise AssertionError(f"игрок {p} не может разыграть «{name}» с целью «{target}»")
    _record_play_target(game, p, name, target_id, present=True)


def _record_play_target(game: ScenarioGame, p: str, name: str, target_id: str, *, present: bool) -> None:
    card_id = game.any_card_id(name, p) if game.recorder is not None else None
    if card_id is not None:
        tail = ["slots", 0, "candidates", {"$value": target_id}]
        game.record_option(p, {"type": "play", "card": card_id}, tail, present=present)


@then(
    "игрок {p:P} не может разыграть «{name:N}» с целью «{target:N}»",
    example="Тогда игрок А не может разыграть «Огневой залп» с целью «Гном»",
)
def may_not_play_target(game: ScenarioGame, p: str, name: str, target: str) -> None:
    """Эту карту нельзя выбрать целью заклинания (заклинание при этом может быть разыграно с другой
    целью или не быть разыграно вовсе); карту можно назвать и на кладбище. Шаг требует, чтобы
    заклинание было в руке игрока, а сам он выбирал действие фазы выбора."""
    target_id = _asked(game, p, "choose_action", name, target, zone="hand")
    if any(target_id in _first_slot(o) for o in _play_options(game, p, name)):
        raise AssertionError(f"игрок {p} может разыграть «{name}» с целью «{target}»")
    _record_play_target(game, p, name, target_id, present=False)


@when(
    "игрок {p:P} пытается разыграть «{name:N}» с целью «{target:N}»",
    example="Когда игрок А пытается разыграть «Огневой залп» с целью «Гном»",
)
def try_play_target(game: ScenarioGame, p: str, name: str, target: str) -> None:
    """Попытка разыграть заклинание с целью, которую выбрать нельзя (в том числе с картой на кладбище)."""
    card_id = game.any_card_id(name, p)
    target_id = game.seen_card_id(target, p)
    game.attempt(p, {"type": "play", "card": card_id, "targets": [target_id]})


def _attack_targets(game: ScenarioGame, p: str, attacker: str) -> list[str]:
    game.needs(actions=("attack",))
    d = game.decision()
    attacker_id = game.card(attacker)["id"]
    if not d or d["player"] != p:
        return []
    return [
        t
        for o in d["options"]
        if o["type"] == "attack" and o["attacker"] == attacker_id
        for t in _first_slot(o)
    ]


@then(
    "игрок {p:P} может атаковать существом «{attacker:N}» персонажа «{target:N}»",
    example="Тогда игрок А может атаковать существом «Гном» персонажа «Герой Б»",
)
def may_attack_target(game: ScenarioGame, p: str, attacker: str, target: str) -> None:
    """Атака ударом этим существом на этого персонажа — законное действие."""
    if game.card(target)["id"] not in _attack_targets(game, p, attacker):
        raise AssertionError(f"игрок {p} не может атаковать существом «{attacker}» персонажа «{target}»")
    _record_attack_target(game, p, attacker, game.card(target)["id"], present=True)


def _record_attack_target(
    game: ScenarioGame, p: str, attacker: str, target_id: str, *, present: bool
) -> None:
    pattern = {"type": "attack", "attacker": game.card(attacker)["id"]}
    game.record_option(p, pattern, ["slots", 0, "candidates", {"$value": target_id}], present=present)


@then(
    "игрок {p:P} не может атаковать существом «{attacker:N}» персонажа «{target:N}»",
    example="Тогда игрок А не может атаковать существом «Гном» персонажа «Герой Б»",
)
def may_not_attack_target(game: ScenarioGame, p: str, attacker: str, target: str) -> None:
    """Атаки ударом этим существом на этого персонажа нет среди законных действий. Шаг требует,
    чтобы игрок выбирал действие фазы выбора, а оба персонажа были в игровой зоне."""
    game.pending(p, "choose_action")
    game.require(attacker)
    target_id = game.require(target)["id"]
    if target_id in _attack_targets(game, p, attacker):
        raise AssertionError(f"игрок {p} может атаковать существом «{attacker}» персонажа «{target}»")
    _record_attack_target(game, p, attacker, target_id, present=False)


def _declare_targets(game: ScenarioGame, p: str, ability: str, source: str) -> list[str]:
    return [t for o in game.matching_options(p, "declare", ability, source) for t in _first_slot(o)]


@then(
    "игрок {p:P} может заявить «{ability:N}» карты «{source:N}» с целью «{target:N}»",
    example="Тогда игрок Б может заявить «Гибель: ранить на 2 выбранное существо.» карты «Мститель» "
    "с целью «Гном»",
)
def may_declare_target(game: ScenarioGame, p: str, ability: str, source: str, target: str) -> None:
    """Эту карту можно выбрать целью заявляемой срабатывающей способности."""
    if game.seen_card_id(target, p) not in _declare_targets(game, p, ability, source):
        raise AssertionError(f"игрок {p} не может заявить «{ability}» карты «{source}» с целью «{target}»")
    game.record_ability_option(p, "declare", ability, source, target, present=True)


@then(
    "игрок {p:P} не может заявить «{ability:N}» карты «{source:N}» с целью «{target:N}»",
    example="Тогда игрок Б не может заявить «Гибель: ранить на 2 выбранное существо.» карты «Мститель» "
    "с целью «Гном»",
)
def may_not_declare_target(game: ScenarioGame, p: str, ability: str, source: str, target: str) -> None:
    """Эту карту нельзя выбрать целью заявляемой срабатывающей способности. Шаг требует, чтобы
    игрок решал, заявлять ли срабатывающие способности, а обе карты были в игре."""
    target_id = _asked(game, p, "declare_trigger", source, target, zone="anywhere")
    if target_id in _declare_targets(game, p, ability, source):
        raise AssertionError(f"игрок {p} может заявить «{ability}» карты «{source}» с целью «{target}»")
    game.record_ability_option(p, "declare", ability, source, target, present=False)


@then(
    "в игровой зоне у игрока {p:P} копий «{name:N}»: {n:d}",
    example="Тогда в игровой зоне у игрока А копий «Гном»: 1",
)
def copies_in_play(game: ScenarioGame, p: str, name: str, n: int) -> None:
    """Сколько карт с этим названием (копий — глоссарий: «Копия карты») под контролем игрока в игровой
    зоне. Название — без номера копии."""
    if copy_of(name)[1] is not None:
        raise AssertionError(f"«{name}»: копии считаются по названию карты — «{copy_of(name)[0]}»")
    found = [c for c in game.view(p)["play"] if c.get("name") == name and c.get("controller") == p]
    _expect(len(found), n, f"копии «{name}» у игрока {p}")
    game.record_count(p, ["play"], {"name": name, "controller": p}, n)


def _activate_targets(game: ScenarioGame, p: str, ability: str, source: str) -> list[str]:
    return [t for o in game.matching_options(p, "activate", ability, source) for t in _first_slot(o)]


@then(
    "игрок {p:P} может объявить «{ability:N}» карты «{source:N}» с целью «{target:N}»",
    example="Тогда игрок А может объявить «[Закрыть]: выстрел на 2.» карты «Арбалетчик» с целью «Герой Б»",
)
def may_activate_target(game: ScenarioGame, p: str, ability: str, source: str, target: str) -> None:
    """Эту карту можно выбрать целью объявляемой активируемой способности."""
    if game.seen_card_id(target, p) not in _activate_targets(game, p, ability, source):
        raise AssertionError(f"игрок {p} не может объявить «{ability}» карты «{source}» с целью «{target}»")
    game.record_ability_option(p, "activate", ability, source, target, present=True)


@then(
    "игрок {p:P} не может объявить «{ability:N}» карты «{source:N}» с целью «{target:N}»",
    example="Тогда игрок А не может объявить «[Закрыть]: выстрел на 2.» карты «Арбалетчик» с целью «Гном»",
)
def may_not_activate_target(game: ScenarioGame, p: str, ability: str, source: str, target: str) -> None:
    """Эту карту нельзя выбрать целью объявляемой активируемой способности. Шаг требует, чтобы игрок
    выбирал действие фазы выбора, а обе карты были в игре."""
    target_id = _asked(game, p, "choose_action", source, target, zone="anywhere")
    if target_id in _activate_targets(game, p, ability, source):
        raise AssertionError(f"игрок {p} может объявить «{ability}» карты «{source}» с целью «{target}»")
    game.record_ability_option(p, "activate", ability, source, target, present=False)


# --- deck construction («Название карты», «Копия карты», «Орда») ------------------------------------


@given(
    "колода для турнира «{fmt:N}»:",
    example="Дано колода для турнира «констрактед»:\n  | количество | название | тип | текст |",
)
def deck_list(game: ScenarioGame, fmt: str, datatable: list[list[str]]) -> None:
    """Список колоды для турнира («констрактед» или «драфт»): по строке на карту — количество копий и
    свойства карты, как в таблице карт (название, тип, подтип, стоимость, стихия, удар, жизни, текст);
    те же столбцы, что в файле колоды команды «berserk-rules deck»."""
    header = [h.strip().lower() for h in datatable[0]]
    unknown = [h for h in header if h not in decks.COLUMNS]
    if unknown:
        raise AssertionError(
            f"таблица колоды: неизвестные столбцы {unknown}; допустимы: {list(decks.COLUMNS)}"
        )
    cards = []
    for row in datatable[1:]:
        try:
            cards.append(decks.card_of(dict(zip(header, (c.strip() for c in row), strict=True))))
        except ValueError as exc:
            raise AssertionError(f"таблица колоды: {exc}") from None
    game.deck = {"format": fmt, "cards": cards}  # type: ignore[attr-defined]


def _deck_problems(game: ScenarioGame) -> list[dict[str, Any]]:
    """The engine's answer to the protocol's ``deck`` request (an optional request: an engine that does
    not name it in ``capabilities.requests`` leaves the scenario not applicable). Asked once per
    scenario: every deck step reads the same answer."""
    deck = getattr(game, "deck", None)
    if deck is None:
        raise AssertionError("перед этим шагом опишите колоду: «Дано колода для турнира «…»:»")
    known = getattr(game, "deck_problems", None)
    if known is None:
        try:
            known = game.driver.deck(deck)
        except SetupRejected as exc:
            raise AssertionError(f"движок не смог прочитать колоду: {exc}") from exc
        game.deck_problems = known  # type: ignore[attr-defined]
    return list(known)


@then("колода соответствует правилам составления", example="Тогда колода соответствует правилам составления")
def deck_ok(game: ScenarioGame) -> None:
    """В колоде нет нарушений правил составления колоды: движок отвечает на запрос ``deck`` пустым
    списком (правила турнира, а не партии; запрос — необязательный, его заявляют в
    ``capabilities.requests``)."""
    _expect(_deck_problems(game), [], "нарушения в колоде")


@then(
    "в колоде нарушено правило «{rule:N}» для «{name:N}»",
    example="Тогда в колоде нарушено правило «название-карты» для «Гном»",
)
def deck_breaks(game: ScenarioGame, rule: str, name: str) -> None:
    """Среди нарушений колоды есть нарушение этого правила (id термина глоссария) этой картой."""
    problems = _deck_problems(game)
    if not any(p["rule"] == rule and p["name"] == name for p in problems):
        raise AssertionError(f"в колоде нет нарушения «{rule}» для «{name}»; нарушения: {problems}")


@then("в колоде нарушений: {n:d}", example="Тогда в колоде нарушений: 1")
def deck_problem_count(game: ScenarioGame, n: int) -> None:
    """Сколько нарушений правил составления колоды находит движок."""
    _expect(len(_deck_problems(game)), n, "число нарушений в колоде")


@when(
    "игрок {p:P} объявляет единственную активируемую способность карты «{source:N}»",
    example="Когда игрок А объявляет единственную активируемую способность карты «Смертник, копия 2»",
)
def activate_only(game: ScenarioGame, p: str, source: str) -> None:
    """Игрок объявляет активируемую способность карты без цели, когда у карты она одна (так удобно,
    если в тексте способности есть кавычки — например, название самой карты)."""
    game.needs(actions=("activate",))
    d = game.decision()
    source_id = game.card(source)["id"]
    found = [
        o
        for o in (d["options"] if d and d["player"] == p else [])
        if o["type"] == "activate" and o["card"] == source_id
    ]
    if len(found) != 1:
        raise AssertionError(
            f"у «{source}» не одна активируемая способность, которую игрок {p} может объявить: {found}"
        )
    game.act(p, bare(found[0]))


# --- the preparation stage (Раздача, Пересдача) ------------------------------------------------------


@given(
    "партия начинается с пересдачи: раздача игроков у них в руке",
    example="Дано партия начинается с пересдачи: раздача игроков у них в руке",
)
def starts_with_mulligan(game: ScenarioGame) -> None:
    """Партия начинается с пересдачи подготовительного этапа: карты руки каждого игрока — его
    раздача; после пересдачи начинается первый ход."""
    game.setup["start"] = "preparation"


@then(
    "колода игрока {p:P} сверху вниз: {cards:L}",
    example="Тогда колода игрока А сверху вниз: «Лис», «Волк»",
)
def deck_order(game: ScenarioGame, p: str, cards: list[str]) -> None:
    """Порядок карт в колоде игрока, от верхней к нижней (колода закрыта от игроков: это взгляд
    судьи)."""
    deck = game.view(None)["players"][p]["zones"]["deck"]["cards"]
    names = [c["name"] for c in deck or []]
    _expect(names, cards, f"колода игрока {p} сверху вниз")
    if deck is not None:  # a deck the judge does not see is no list to check
        path = ["players", p, "zones", "deck", "cards"]
        game.record_count(None, path, {}, len(cards))
        for number, name in enumerate(cards):
            game.record(None, [*path, number, "name"], name)


@then(
    "колода игрока {p:P} сверху вниз уже не: {cards:L}",
    example="Тогда колода игрока А сверху вниз уже не: «Лис», «Волк»",
)
def deck_order_changed(game: ScenarioGame, p: str, cards: list[str]) -> None:
    """Карты колоды игрока лежат уже не в этом порядке (Перемешивание колоды; взгляд судьи): это те же
    карты, но в другом порядке — иначе шаг падает (другие карты — не другой порядок)."""
    deck = game.view(None)["players"][p]["zones"]["deck"]["cards"]
    if deck is None:
        raise AssertionError(f"судья не видит колоду игрока {p}: порядок не проверить")
    names = [c["name"] for c in deck]
    if sorted(names) != sorted(cards):
        raise AssertionError(f"в колоде игрока {p} другие карты, а не эти в другом порядке: {names}")
    if names == cards:
        raise AssertionError(f"колода игрока {p} сверху вниз по-прежнему: {', '.join(map(repr, names))}")
