"""The protocol's messages, each declared once: its name (``op``), request and reply schemas, one line of doc.

Everything on the berserk-rules side that names a message reads this table: the client
(:mod:`berserk_rules.harness.protocol` — the requests it sends and the schema each reply is checked
against), the host of Python drivers (:mod:`berserk_rules.harness.host` — the requests it answers), the
checks of the schema (``protocol.schema.json``: its ``op`` enum and request forms must be these,
``tests/test_messages.py``) and the protocol page, whose table of messages is generated from here
(the ``{berserk-messages}`` directive of ``docs/protocol.md``).

The reference engine's server (``engine/berserk_engine/serve.py``) does not import this table: the
engine imports nothing from berserk-rules, as an engine in another language would not;
``tests/test_messages.py`` holds it to the table instead (it answers every message here and refuses
any other).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class Message:
    """One request of the protocol and its reply."""

    name: str  # the request's ``op``
    request: str  # the request's schema: a name with a fragment, as contract.validator takes it
    reply: str  # the schema of the reply's ``result``
    doc: str  # one line, Russian: what the request asks and what the reply is


HANDSHAKE = Message(
    "handshake",
    "protocol#/$defs/handshake",
    "protocol#/$defs/handshake_result",
    "Начало сеанса: основные версии протокола должны совпасть.",
)
START = Message(
    "start",
    "protocol#/$defs/start",
    "protocol#/$defs/start_result",
    "Новая партия с позиции, прежняя забывается; scenario (файл:строка) — только для сообщений движка.",
)
DECISION = Message(
    "decision",
    "protocol#/$defs/decision",
    "protocol#/$defs/decision_result",
    "Какое решение ожидается сейчас; null — игра окончена.",
)
ACT = Message(
    "act",
    "protocol#/$defs/act",
    "protocol#/$defs/act_result",
    "Ответ игрока на решение; недопустимое действие — ошибка rejected с правилом, и ничего не меняется.",
)
OBSERVE = Message(
    "observe",
    "protocol#/$defs/observe",
    "protocol#/$defs/observe_result",
    "Что видит игрок («А», «Б») или судья (null).",
)
LOG = Message(
    "log",
    "protocol#/$defs/log",
    "protocol#/$defs/log_result",
    "Журнал партии глазами игрока или судьи (null).",
)
DECK = Message(
    "deck",
    "protocol#/$defs/deck",
    "protocol#/$defs/deck_result",
    "Проверить список колоды по правилам составления (Название карты, Копия карты, Орда): нарушения, [] — "
    "колода по правилам. Необязательный запрос, без партии: движок заявляет его в capabilities.requests.",
)
CLOSE = Message(
    "close",
    "protocol#/$defs/close",
    "protocol#/$defs/close_result",
    "Конец сеанса: движок отвечает и завершается.",
)

MESSAGES: tuple[Message, ...] = (HANDSHAKE, START, DECISION, ACT, OBSERVE, LOG, DECK, CLOSE)
# the requests a game is played with, after the handshake and before close (a Driver's abstract methods)
GAME: tuple[Message, ...] = (START, DECISION, ACT, OBSERVE, LOG)
# the optional requests: an engine answers them only if it names them in capabilities.requests (a
# Driver's methods that raise Unsupported unless overridden); a scenario that needs one the engine did
# not declare is not applicable
OPTIONAL: tuple[Message, ...] = (DECK,)


def request_fields(message: Message) -> list[tuple[str, bool]]:
    """(field, required) of the request's schema besides ``op``, in the schema's order."""
    from berserk_rules.harness.contract import schema

    name, _, fragment = message.request.partition("#")
    node: Any = schema(name)
    for part in (p for p in fragment.split("/") if p):
        node = node[part]
    required = set(node.get("required", ()))
    return [(field, field in required) for field in node.get("properties", {}) if field != "op"]


def reply_words(message: Message) -> str:
    """The reply's schema in words: the title of the schema it names, or its type (``null``)."""
    from berserk_rules.harness.contract import schema

    name, _, fragment = message.reply.partition("#")
    node: Any = schema(name)
    for part in (p for p in fragment.split("/") if p):
        node = node[part]
    forms = node.get("oneOf") or node.get("anyOf") or [node]
    words = []
    for form in forms:
        if "$ref" in form:
            words.append("«" + schema(form["$ref"].rpartition(":")[2].partition("#")[0])["title"] + "»")
        elif form.get("type") == "null":
            words.append("null")
        elif "description" in form:
            words.append(form["description"].partition(":")[2].strip().rstrip("."))
    return " или ".join(words)


def table_rows() -> list[tuple[str, str, str, str]]:
    """The rows of the protocol page's table: ``op``, request fields (``?`` — optional), reply, doc."""
    rows = []
    for m in MESSAGES:
        fields = ", ".join(f"{f}{'' if needed else '?'}" for f, needed in request_fields(m)) or "—"
        rows.append((m.name, fields, reply_words(m), m.doc))
    return rows


def directive() -> type:
    """The ``{berserk-messages}`` directive: the protocol page's table of messages, from :data:`MESSAGES`
    (made on demand: the harness needs no Sphinx, only the site does)."""
    from docutils import nodes
    from sphinx.util.docutils import SphinxDirective

    header = ("op", "Поля запроса (? — необязательное)", "result", "Что это")

    def row(cells: tuple[str, ...], literal: tuple[bool, ...]) -> Any:
        out = nodes.row()
        for text, code in zip(cells, literal, strict=True):
            entry = nodes.entry()
            para = nodes.paragraph()
            para += nodes.literal(text=text) if code else nodes.Text(text)
            entry += para
            out += entry
        return out

    class MessagesDirective(SphinxDirective):
        has_content = False

        def run(self) -> list[Any]:
            table = nodes.table(classes=["berserk-messages"])
            group = nodes.tgroup(cols=len(header))
            table += group
            for _ in header:
                group += nodes.colspec(colwidth=1)
            head = nodes.thead()
            head += row(header, (False,) * len(header))
            group += head
            body = nodes.tbody()
            for cells in table_rows():
                body += row(cells, (True, True, False, False))
            group += body
            return [table]

    return MessagesDirective
