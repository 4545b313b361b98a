"""A scenario's game on its site page: the starting position as a board, the log turn by turn.

Both come from the results file (``position`` — the position the scenario's steps built and gave
to ``driver.start``; ``log`` — ``driver.log(None)``), see :mod:`berserk_rules.pytest_plugin`.
Unknown fields are shown as they are, so new position or log fields of the engine never break
the page. ``rule_uri(id)`` gives the address of a rule or glossary term (None: no link).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from docutils import nodes

RuleUri = Callable[[str], str | None]

ZONES = (
    ("hand", "Рука"),
    ("deck", "Колода (сверху вниз)"),
    ("graveyard", "Кладбище"),
    ("reserve", "Запас"),
    ("sideboard", "Сайдборд"),
)
KNOWN_PLAYER_KEYS = {"hero", "coins", "draw_failures", "play", *(key for key, _ in ZONES)}
STARTS = {"turn": "с начала хода (фаза восстановления)", "choice": "с фазы выбора активного игрока"}
KNOWN_TOP_KEYS = {"seed", "first_player", "active", "turn", "start", "cards", "players"}


def _text(value: Any) -> str:
    if isinstance(value, dict):
        return ", ".join(f"{k}: {_text(v)}" for k, v in value.items())
    if isinstance(value, list):
        return ", ".join(_text(v) for v in value)
    if value is True:
        return "да"
    if value is False:
        return "нет"
    return str(value)


def _card_in_play(card: Any, library: dict[str, Any]) -> str:
    if not isinstance(card, dict):
        return f"«{card}»"
    name = card.get("card", "?")
    words = [f"«{name}»"]
    definition = library.get(name) if isinstance(library.get(name), dict) else {}
    for key, label in (("strike", "удар"), ("life", "жизней")):
        if key in definition:
            words.append(f"{label} {definition[key]}")
    if card.get("closed"):
        words.append("закрыта")
    if card.get("wounds"):
        words.append(f"ран: {card['wounds']}")
    if card.get("owner"):
        words.append(f"владелец {card['owner']}")
    if card.get("new"):
        words.append("вошла в игру в этом ходу")
    for key, value in card.items():
        if key not in ("card", "closed", "wounds", "owner", "new"):
            words.append(f"{key}: {_text(value)}")
    return words[0] + (f" ({', '.join(words[1:])})" if len(words) > 1 else "")


def board(position: dict[str, Any]) -> nodes.Element:
    """The position as a two-column board (one column per player) with the game's header."""
    box = nodes.container(classes=["berserk-board"])
    head = []
    if position.get("turn"):
        head.append(f"ход {position['turn']}")
    if position.get("active"):
        head.append(f"ходит игрок {position['active']}")
    if position.get("first_player"):
        head.append(f"первый игрок {position['first_player']}")
    start = position.get("start")
    if start:
        head.append("игра идёт " + STARTS.get(str(start), str(start)))
    for key, value in position.items():
        if key not in KNOWN_TOP_KEYS:
            head.append(f"{key}: {_text(value)}")
    if head:
        box += nodes.paragraph(text="Позиция: " + "; ".join(head) + ".", classes=["berserk-board-head"])
    players = position.get("players") or {}
    library = position.get("cards") if isinstance(position.get("cards"), dict) else {}
    grid = nodes.container(classes=["berserk-board-players"])
    for player in sorted(players):
        grid += _player(player, players[player] or {}, library)
    box += grid
    return box


def _player(name: str, data: dict[str, Any], library: dict[str, Any]) -> nodes.Element:
    column = nodes.container(classes=["berserk-board-player"])
    column += nodes.paragraph("", "", nodes.strong(f"Игрок {name}", f"Игрок {name}"))
    items = nodes.bullet_list(classes=["berserk-board-zones"])

    def row(label: str, value: str) -> None:
        para = nodes.paragraph()
        para += nodes.strong(label + ": ", label + ": ")
        para += nodes.Text(value)
        items.append(nodes.list_item("", para))

    hero = data.get("hero")
    if isinstance(hero, dict):
        words = [f"«{hero.get('name', 'герой')}»"]
        if "life" in hero:
            words.append(f"жизней {hero['life']}")
        words.append(f"ран: {hero.get('wounds', 0)}")
        if hero.get("closed"):
            words.append("закрыт")
        row("Герой", ", ".join(words))
    coins = data.get("coins")
    if isinstance(coins, dict):
        row("Монеты", f"открытых {coins.get('open', 0)}, закрытых {coins.get('closed', 0)}")
    if data.get("draw_failures"):
        row("Неудачных взятий карты", str(data["draw_failures"]))
    play = data.get("play") or []
    row("Игровая зона", ", ".join(_card_in_play(c, library) for c in play) if play else "пусто")
    for key, label in ZONES:
        cards = data.get(key)
        if cards:
            row(label, ", ".join(f"«{c}»" if isinstance(c, str) else _text(c) for c in cards))
    for key, value in data.items():
        if key not in KNOWN_PLAYER_KEYS:
            row(key, _text(value))
    column += items
    return column


def log_account(log: list[Any], rule_uri: RuleUri) -> nodes.Element:
    """The log as a turn-by-turn account: «Ход N», then each event with its rule linked."""
    box = nodes.container(classes=["berserk-log"])
    turn: Any = object()
    items: nodes.enumerated_list | None = None
    for entry in log:
        if not isinstance(entry, dict):
            continue
        if entry.get("turn") != turn:
            turn = entry.get("turn")
            title = f"Ход {turn}" if turn is not None else "Вне хода"
            box += nodes.paragraph("", "", nodes.strong(title, title), classes=["berserk-log-turn"])
            items = nodes.enumerated_list(classes=["berserk-log-events"])
            box += items
        assert items is not None
        para = nodes.paragraph()
        text = str(entry.get("text") or entry.get("event") or "")
        para += nodes.Text(text)
        rule = entry.get("rule")
        if rule:
            para += nodes.Text(" ")
            label = f"({rule})"
            uri = rule_uri(str(rule))
            if uri:
                para += nodes.reference(label, label, refuri=uri, internal=True, classes=["berserk-log-rule"])
            else:
                para += nodes.inline(label, label, classes=["berserk-log-rule"])
        items += nodes.list_item("", para, classes=[f"berserk-log-{entry.get('event', 'event')}"])
    return box
