"""A scenario's game on its site page: the starting position as a board, the log turn by turn.

Both come from the results file (``position`` — the position the scenario's steps built and gave
to ``driver.start``; ``log`` — ``driver.log(None)``), see :mod:`berserk_rules.pytest_plugin`.
Unknown fields are shown as they are, so new position or log fields of the engine never break
the page. ``rule_uri(id)`` gives the address of a rule or glossary term (None: no link).
"""

from __future__ import annotations

import html
import re
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
    found = library.get(name)
    definition: dict[str, Any] = found if isinstance(found, dict) else {}
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
    cards = position.get("cards")
    library: dict[str, Any] = cards if isinstance(cards, dict) else {}
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


# --- the game step by step (issue 19, item 2) ------------------------------------------------------
#
# A scenario's ``steps`` (:mod:`berserk_rules.report.trace`) become one HTML block, the same on the site's
# scenario pages and in ``berserk-rules ask --html``: an ordered list of the steps, each with the log
# entries it caused (linked to their rules) and the board after it — readable as it is, without
# JavaScript. ``berserk.js`` turns it into a stepper (buttons, ←/→, Home/End): the board after the
# current step on top, the current step's entries highlighted in the list.

# Failed draws from a deck the scenario never gave (folded — a display choice, docs/replay.md): the
# accumulation phase's attempt (304.2) and its count.
DRAW_EVENTS = frozenset({"draw_failed", "draw_failures"})
DRAW_TERMS = frozenset({"возьмите-карту"})
DECISIONS = {
    "choose_action": "выбрать действие",
    "declare_trigger": "заявить срабатывающую способность или пасовать",
    "assign_defender": "назначить защитника",
    "choose_cards": "выбрать карты",
    "choose": "сделать выбор",
    "answer_draw": "ответить на предложение ничьей",
}
BOARD_ZONES = (
    ("hand", "Рука"),
    ("deck", "Колода"),
    ("graveyard", "Кладбище"),
    ("reserve", "Запас"),
    ("sideboard", "Сайдборд"),
)
Label = Callable[[str], tuple[str, str | None, str | None]]  # rule id -> (label, uri, title)
Texts = Callable[[str], str | None]  # a rule, term or interpretation id -> its whole text


def about_draws(record: dict[str, Any]) -> bool:
    """Is the scenario about drawing cards (its rules or terms: the accumulation phase, 304; the deck,
    204; «Возьмите карту»)? Then no draw entry of its log is folded."""
    rules = [str(r) for r in record.get("rules") or []]
    terms = {str(t) for t in record.get("terms") or []}
    return any(r.split(".")[0] in ("204", "304") for r in rules) or bool(terms & DRAW_TERMS)


def folded_entries(record: dict[str, Any]) -> set[int]:
    """Indices of the log entries the replay folds away: failed draws (304.2) of a player the
    scenario gave no deck, unless the scenario is about draws (:func:`about_draws`). The engine
    makes those attempts as the rules say; they only have nothing to do with the scenario's rule."""
    log = record.get("log")
    if not isinstance(log, list) or about_draws(record):
        return set()
    players = (record.get("position") or {}).get("players") or {}
    no_deck = {name for name, data in players.items() if not isinstance(data, dict) or "deck" not in data}
    no_deck |= {"А", "Б"} - set(players)
    return {
        index
        for index, entry in enumerate(log)
        if isinstance(entry, dict) and entry.get("event") in DRAW_EVENTS and entry.get("player") in no_deck
    }


def _e(text: Any) -> str:
    return html.escape(str(text), quote=True)


def _card_words(card: dict[str, Any]) -> str:
    words = []
    if "strike" in card:
        words.append(f"удар {card['strike']}")
    if "life" in card:
        words.append(f"жизней {card['life']}")
    if card.get("wounds"):
        words.append(f"ран {card['wounds']}")
    if card.get("closed"):
        words.append("закрыта")
    if card.get("face_down"):
        words.append("рубашкой вверх")
    if card.get("new"):
        words.append("вошла в этом ходу")
    if card.get("owner") and card.get("controller"):
        words.append(f"владелец {card['owner']}")
    for name, value in (card.get("markers") or {}).items():
        words.append(f"маркеры «{name}»: {value}")
    for text in card.get("effects") or []:
        words.append(f"эффект «{text}»")
    name = f"«{_e(card.get('name', '?'))}»"
    return name + (f' <span class="berserk-card-state">({_e(", ".join(words))})</span>' if words else "")


def _queue_item(item: dict[str, Any]) -> str:
    whose = []
    if item.get("controller"):
        whose.append(f"игрок {item['controller']}")
    if item.get("source_name"):
        whose.append(f"«{item['source_name']}»")
    return f"«{_e(item.get('text', ''))}»" + (f" ({_e(', '.join(whose))})" if whose else "")


def board_header(board: dict[str, Any]) -> str:
    from berserk_rules.harness.phases import PHASES

    words = []
    if board.get("turn") is not None:
        words.append(f"ход {board['turn']}")
    if board.get("active"):
        words.append(f"ходит игрок {board['active']}")
    if board.get("phase"):
        words.append(PHASES.get(str(board["phase"]), str(board["phase"])))
    result = board.get("result")
    if result:
        words.append("игра окончена: " + _text(result))
    decision = board.get("decision")
    if isinstance(decision, dict):
        kind = str(decision.get("kind"))
        words.append(f"решение за игроком {decision.get('player')}: {DECISIONS.get(kind, kind)}")
    return "; ".join(words)


def board_html(board: dict[str, Any]) -> str:
    """A board of the trace (:func:`berserk_rules.report.trace.board_of`) as HTML: the game's header, one box
    per player (hero, coins, cards in the game zone, zones), the Очередь."""
    out = ['<div class="berserk-replay-board">']
    head = board_header(board)
    if head:
        out.append(f'<p class="berserk-board-head">{_e(head[0].upper() + head[1:])}.</p>')
    out.append('<div class="berserk-board-players">')
    play = [c for c in board.get("play") or [] if isinstance(c, dict)]
    for name, data in (board.get("players") or {}).items():
        out.append(f'<div class="berserk-board-player"><p><strong>Игрок {_e(name)}</strong></p><ul>')
        hero = data.get("hero")
        if isinstance(hero, dict):
            out.append(f"<li><strong>Герой:</strong> {_card_words(hero)}</li>")
        coins = data.get("coins")
        if isinstance(coins, dict):
            out.append(
                f"<li><strong>Монеты:</strong> открытых {_e(coins.get('open', 0))}, "
                f"закрытых {_e(coins.get('closed', 0))}</li>"
            )
        if data.get("draw_failures"):
            out.append(f"<li><strong>Неудачных взятий карты:</strong> {_e(data['draw_failures'])}</li>")
        mine = [c for c in play if (c.get("controller") or c.get("owner")) == name]
        cards = ", ".join(_card_words(c) for c in mine) if mine else "пусто"
        out.append(f"<li><strong>Игровая зона:</strong> {cards}</li>")
        for key, label in BOARD_ZONES:
            zone = data.get(key)
            if isinstance(zone, int):
                out.append(f"<li><strong>{label}:</strong> карт {zone}</li>")
            elif zone:
                out.append(f"<li><strong>{label}:</strong> {_e(', '.join(f'«{c}»' for c in zone))}</li>")
        out.append("</ul></div>")
    out.append("</div>")
    others = [c for c in play if (c.get("controller") or c.get("owner")) not in (board.get("players") or {})]
    if others:
        out.append(f"<p><strong>Игровая зона:</strong> {', '.join(_card_words(c) for c in others)}</p>")
    if board.get("resolving"):
        names = ", ".join(f"«{n}»" for n in board["resolving"])
        out.append(f"<p><strong>Разыгрывается:</strong> {_e(names)}</p>")
    queue = board.get("queue") or []
    if queue:
        items = "".join(f"<li>{_queue_item(q)}</li>" for q in queue)
        out.append(f'<div class="berserk-board-queue"><p><strong>Очередь:</strong></p><ol>{items}</ol></div>')
    else:
        out.append('<p class="berserk-board-queue"><strong>Очередь:</strong> пуста</p>')
    waiting, first = waiting_in_order(board)
    if waiting:
        items = "".join(f"<li>{_queue_item(q)}</li>" for q in waiting)
        who = f" (первым заявляет игрок {_e(first)}, 402.1)" if first else ""
        out.append(f"<div><p><strong>Сработали, ждут заявки{who}:</strong></p><ol>{items}</ol></div>")
    out.append("</div>")
    return "".join(out)


def waiting_in_order(board: dict[str, Any]) -> tuple[list[dict[str, Any]], str | None]:
    """The triggers waiting to be declared, in the order of declaring (402.1): the inactive player's
    first, then the active player's (each player's in the engine's order); and who declares first —
    the inactive player, or the active one when the inactive has nothing waiting (None when the board
    does not say who is active)."""
    waiting = [q for q in board.get("waiting") or [] if isinstance(q, dict)]
    active = board.get("active")
    players = [p for p in (board.get("players") or {}) if p != active]
    if active is None or len(players) != 1:
        return waiting, None
    inactive = players[0]
    ordered = [q for q in waiting if q.get("controller") == inactive]
    ordered += [q for q in waiting if q.get("controller") != inactive]
    declares = inactive if any(q.get("controller") == inactive for q in waiting) else active
    return ordered, str(declares) if waiting else None


def _label_html(ident: str, label: Label, css: str) -> str:
    shown, uri, title = label(ident)
    hint = f' title="{_e(title)}"' if title else ""
    if uri:
        return f'<a class="{css}" href="{_e(uri)}"{hint}>{_e(shown)}</a>'
    return f'<span class="{css}"{hint}>{_e(shown)}</span>'


def _entry_html(entry: dict[str, Any], anchor: str, label: Label) -> str:
    text = _e(entry.get("text") or entry.get("event") or "")
    rule = entry.get("rule")
    if rule:
        shown, uri, title = label(str(rule))
        hint = f' title="{_e(title)}"' if title else ""
        if uri:
            text += f' <a class="berserk-log-rule" href="{_e(uri)}"{hint}>({_e(shown)})</a>'
        else:
            text += f' <span class="berserk-log-rule"{hint}>({_e(shown)})</span>'
    deciding = deciding_of(entry)
    if deciding:
        links = ", ".join(_label_html(ident, label, "berserk-log-deciding-rule") for ident in deciding)
        text += f' <span class="berserk-log-deciding">— решает: {links}</span>'
    event = re.sub(r"[^a-z_]", "", str(entry.get("event", "event")))
    return f'<li id="{anchor}" class="berserk-log-{event}">{text}</li>'


def deciding_of(item: Any) -> list[str]:
    """The optional protocol field ``deciding`` of a log entry or a decision (issue 26): the rules,
    terms and interpretations that decide that point; anything malformed is ignored."""
    value = item.get("deciding") if isinstance(item, dict) else None
    return [str(v) for v in value if isinstance(v, str) and v] if isinstance(value, list) else []


def deciding_rules(record: dict[str, Any]) -> list[str]:
    """What decides a scenario's verdict, first seen first: the interpretations it is tagged with, then
    the ``deciding`` ids of its log entries and of the decisions in its boards."""
    found: list[str] = []
    for tag in record.get("tags") or []:
        if isinstance(tag, str) and tag.startswith("interpretation-") and tag[15:] not in found:
            found.append(tag[15:])
    entries: list[Any] = list(record.get("log") or []) if isinstance(record.get("log"), list) else []
    for step in record.get("steps") or []:
        board = step.get("board") if isinstance(step, dict) else None
        if isinstance(board, dict):
            entries.append(board.get("decision"))
    for item in entries:
        for ident in deciding_of(item):
            if ident not in found:
                found.append(ident)
    return found


def deciding_html(record: dict[str, Any], label: Label, texts: Texts | None = None) -> str:
    """«Что решает»: the deciding rules and interpretations of a scenario, before its game, each with
    its whole text (``texts``; else the label's title)."""
    found = deciding_rules(record)
    if not found:
        return ""
    items = []
    for ident in found:
        text = texts(ident) if texts is not None else label(ident)[2]
        body = f'<div class="berserk-deciding-text">{_e(text)}</div>' if text else ""
        items.append(f"<li>{_label_html(ident, label, 'berserk-deciding-rule')}{body}</li>")
    return (
        '<div class="berserk-deciding"><p><strong>Что решает ответ</strong> — правила и толкования, '
        f"по которым движок решал в этой партии:</p><ul>{''.join(items)}</ul></div>"
    )


def step_title(step: dict[str, Any]) -> str:
    if step.get("start"):
        return "Начало партии"
    return f"{step.get('keyword', '')} {step.get('text', '')}".strip()


def stepper_html(
    record: dict[str, Any], label: Label, prefix: str, deciding: bool = True, texts: Texts | None = None
) -> str:
    """The scenario's game step by step (see above); ``prefix``: unique per page, starts the anchors
    (``<prefix>-step-N``, ``<prefix>-log-N``). Empty when the record has no steps."""
    steps = [s for s in record.get("steps") or [] if isinstance(s, dict)]
    if not steps:
        return ""
    # the «Дано» steps before the game started describe the position: one item of the list
    given = 0
    while given < len(steps) and "log" not in steps[given] and not steps[given].get("start"):
        given += 1
    if given:
        lines = "".join(
            f"<li>{_e(step_title(s))}"
            + (f' <span class="berserk-replay-line">строка {_e(s["line"])}</span>' if s.get("line") else "")
            + "</li>"
            for s in steps[:given]
        )
        steps = [{"keyword": "", "text": "Позиция сценария", "given": lines}, *steps[given:]]
    raw_log = record.get("log")
    log: list[Any] = raw_log if isinstance(raw_log, list) else []
    folded = folded_entries(record)
    board_of: list[int | None] = []
    current: int | None = None
    for index, step in enumerate(steps):
        if isinstance(step.get("board"), dict):
            current = index
        board_of.append(current)
    out = [
        deciding_html(record, label, texts) if deciding else "",
        f'<div class="berserk-stepper" id="{prefix}" data-steps="{len(steps)}" role="group"'
        f' aria-label="Партия по шагам">',
        '<p class="berserk-stepper-hint">Шаги сценария по порядку: под каждым — записи журнала, которые он'
        " вызвал, с правилами, и позиция после него.</p>",
        '<ol class="berserk-replay-steps">',
    ]
    for index, step in enumerate(steps):
        classes = ["berserk-replay-step"]
        if step.get("failed"):
            classes.append("berserk-replay-failed")
        if step.get("start"):
            classes.append("berserk-replay-start")
        shown = board_of[index]
        data = f' data-board="{shown}"' if shown is not None else ""
        out.append(f'<li id="{prefix}-step-{index}" class="{" ".join(classes)}" data-step="{index}"{data}>')
        title = _e(step_title(step))
        line = (
            f' <span class="berserk-replay-line">строка {_e(step["line"])}</span>' if step.get("line") else ""
        )
        failed = (
            ' <span class="berserk-replay-failed-mark">— шаг не выполнен</span>' if step.get("failed") else ""
        )
        out.append(f'<p class="berserk-replay-step-title"><strong>{title}</strong>{line}{failed}</p>')
        span = step.get("log")
        if step.get("given"):
            out.append(f'<ul class="berserk-replay-given">{step["given"]}</ul>')
            out.append(
                '<p class="berserk-replay-quiet">Игра ещё не началась: шаги «Дано» описывают позицию.</p>'
            )
        elif "log" in step and span is None:  # an engine process: boards only
            if isinstance(step.get("board"), dict):
                out.append(board_html(step["board"]))
            elif shown is not None:
                out.append('<p class="berserk-replay-same">Позиция не изменилась.</p>')
        elif isinstance(span, list) and len(span) == 2:
            entries = [(i, log[i]) for i in range(int(span[0]), min(int(span[1]), len(log)))]
            shown_entries = [(i, e) for i, e in entries if i not in folded and isinstance(e, dict)]
            hidden = [(i, e) for i, e in entries if i in folded and isinstance(e, dict)]
            if shown_entries:
                items = "".join(_entry_html(e, f"{prefix}-log-{i}", label) for i, e in shown_entries)
                out.append(f'<ol class="berserk-log-events berserk-replay-log">{items}</ol>')
            elif not hidden:
                out.append('<p class="berserk-replay-quiet">В журнале ничего нового.</p>')
            if hidden:
                players = sorted({str(e.get("player")) for _, e in hidden})
                summary = (
                    f"Свёрнуто записей: {len(hidden)} — неудачные попытки взять карту из пустой колоды "
                    f"(у игрока {', '.join(players)} в позиции сценария нет колоды; "
                    "сценарий не о взятии карт)"
                )
                items = "".join(_entry_html(e, f"{prefix}-log-{i}", label) for i, e in hidden)
                out.append(
                    f'<details class="berserk-replay-folded"><summary>{_e(summary)}</summary>'
                    f'<ol class="berserk-log-events">{items}</ol></details>'
                )
            if isinstance(step.get("board"), dict):
                out.append(board_html(step["board"]))
            elif shown is not None:
                out.append('<p class="berserk-replay-same">Позиция не изменилась.</p>')
        else:
            out.append('<p class="berserk-replay-quiet">Игра ещё не началась.</p>')
        out.append("</li>")
    out.append("</ol>")
    if log and not any(isinstance(step.get("log"), list) for step in steps):
        # the engine's log was not split by step (an engine process): the whole log after the steps
        items = "".join(
            _entry_html(e, f"{prefix}-log-{i}", label)
            for i, e in enumerate(log)
            if isinstance(e, dict) and i not in folded
        )
        out.append(
            '<p class="berserk-replay-whole"><strong>Журнал партии</strong> (движок-процесс: записи по шагам'
            f' не разнесены)</p><ol class="berserk-log-events">{items}</ol>'
        )
    out.append("</div>")
    return "".join(out)


_TITLES: dict[int, dict[str, str]] = {}


def term_titles(corpus: Any) -> dict[str, str]:
    """Glossary slug -> the term's printed title, for the log's rule labels (cached per corpus)."""
    if corpus is None:
        return {}
    key = id(corpus)
    if key not in _TITLES:
        _TITLES.clear()
        _TITLES[key] = {e.id: e.title or e.id for e in corpus.entries if e.kind == "term"}
    return _TITLES[key]


def replay_block(
    record: dict[str, Any], scenario_id: str, row: bool, label: Label, texts: Texts | None = None
) -> str:
    """«Партия сценария» folded (``<details>``) around the game step by step; ``row``: name the
    scenario's line (several scenarios — outline rows — share the block's place)."""
    line = scenario_id.rsplit(":", 1)[-1]
    prefix = "replay-" + re.sub(r"[^0-9a-z]+", "-", line.lower()).strip("-")
    title = "Партия сценария" + (f" {line}" if row else "") + ": шаг за шагом"
    return (
        f'<details class="berserk-replay"><summary>{_e(title)}</summary>'
        f"{stepper_html(record, label, prefix, texts=texts)}</details>"
    )
