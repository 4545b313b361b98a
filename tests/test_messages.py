"""One table declares each protocol message (berserk_rules/harness/messages.py): the schema, the
client, the host of Python drivers, the reference engine's server and the protocol page all agree with it."""

from __future__ import annotations

import html as html_text
import io
import json
import re
from pathlib import Path
from typing import Any, ClassVar

import pytest

from berserk_rules.harness import contract, host, messages, protocol
from berserk_rules.harness.driver import Driver, Rejected

ROOT = Path(__file__).resolve().parents[1]
NAMES = [m.name for m in messages.MESSAGES]


def test_the_schema_knows_exactly_the_messages_of_the_table() -> None:
    request = contract.schema("protocol")["$defs"]["request"]
    assert request["properties"]["op"]["enum"] == NAMES
    assert [form["$ref"] for form in request["oneOf"]] == [
        m.request.removeprefix("protocol") for m in messages.MESSAGES
    ]
    for m in messages.MESSAGES:
        form = contract.schema("protocol")["$defs"][m.name]
        assert form["properties"]["op"] == {"const": m.name}
        assert form["description"] == m.doc  # the schema says of the message what the table says
        contract.validator(m.request)  # both schemas resolve
        contract.validator(m.reply)
        assert m.doc.strip() and "\n" not in m.doc


def test_the_client_checks_each_reply_by_the_table() -> None:
    assert protocol.RESULT_SCHEMAS == {m.name: m.reply for m in messages.MESSAGES}
    # a driver's methods are the messages of a game (the process driver sends each as its message)
    assert sorted(Driver.__abstractmethods__) == sorted(m.name for m in messages.GAME)


class Tiny(Driver):
    name: ClassVar[str] = "крошечный"
    version: ClassVar[str] = "1"

    def start(self, setup: dict[str, Any]) -> None:
        self.setup = setup

    def decision(self) -> dict[str, Any] | None:
        return None

    def act(self, player: str, action: dict[str, Any]) -> None:
        raise Rejected("306.1", "нельзя")

    def observe(self, player: str | None) -> dict[str, Any]:
        return {"viewer": player}

    def log(self, player: str | None = None) -> list[dict[str, Any]]:
        return []


def session_answers(requests: list[dict[str, Any]]) -> list[dict[str, Any]]:
    out = io.BytesIO()
    lines = b"".join(json.dumps(r, ensure_ascii=False).encode() + b"\n" for r in requests)
    host.serve(host.DriverSession(Tiny), io.BytesIO(lines), out)
    return [json.loads(line) for line in out.getvalue().splitlines()]


def test_the_host_answers_every_message_of_the_table_and_no_other() -> None:
    assert list(host.DriverSession(Tiny).handlers) == NAMES
    payloads = {
        "handshake": {"protocol": protocol.PROTOCOL},
        "start": {"position": {}},
        "act": {"player": "А", "action": {"type": "pass"}},
        "observe": {"viewer": "Б"},
        "log": {"viewer": None},
        "deck": {"deck": {"format": "драфт", "cards": []}},
    }
    requests = [{"id": i, "op": name, **payloads.get(name, {})} for i, name in enumerate(NAMES)]
    answers = session_answers([*requests[:-1], {"id": 99, "op": "peek"}, requests[-1]])
    by_id = {a["id"]: a for a in answers}
    assert by_id[0]["result"]["engine"] == {"name": "крошечный", "version": "1", "language": "Python"}
    assert by_id[NAMES.index("act")]["error"] == {"kind": "rejected", "rule": "306.1", "message": "нельзя"}
    assert by_id[NAMES.index("observe")]["result"] == {"viewer": "Б"}
    assert by_id[99]["error"]["kind"] == "protocol" and "peek" in by_id[99]["error"]["message"]
    # an optional request the driver does not implement: «unsupported», not an internal error
    assert by_id[NAMES.index("deck")]["error"]["kind"] == "unsupported"
    for m in messages.MESSAGES:
        if m.name not in ("act", "deck"):
            assert "result" in by_id[NAMES.index(m.name)], by_id[NAMES.index(m.name)]
    assert answers[-1] == {"id": NAMES.index("close"), "result": None}  # and the session ends there


def test_the_host_refuses_a_game_before_start() -> None:
    (answer,) = session_answers([{"id": 0, "op": "decision"}])
    assert answer["error"]["kind"] == "protocol" and "start" in answer["error"]["message"]


def test_the_reference_server_answers_exactly_the_messages_of_the_table() -> None:
    """engine/berserk_engine/serve.py imports nothing from berserk-rules (it is what an engine in
    another language implements): it is held to the table here instead."""
    from berserk_engine.serve import Session

    session = Session()
    for name in NAMES:
        payload: dict[str, Any] = {"op": name}
        answer = session.handle({"id": 0, **payload})
        message = answer.get("error", {}).get("message", "")
        assert "неизвестная операция" not in message, name
    assert "неизвестная операция" in session.handle({"id": 0, "op": "peek"})["error"]["message"]


def test_the_protocol_page_takes_its_table_of_messages_from_the_table() -> None:
    page = (ROOT / "docs" / "protocol.md").read_text(encoding="utf-8")
    assert page.count("```{berserk-messages}") == 1
    assert not re.search(r"^\| `(" + "|".join(NAMES) + r")` \|", page, re.M), "a table of messages by hand"
    spelled = set(re.findall(r'^→ \{"id": \d+, "op": "([a-z_]+)"', page, re.M))  # the example session
    assert spelled <= set(NAMES), f"the page names messages the table does not have: {spelled - set(NAMES)}"
    assert {"handshake", "start", "decision", "act", "observe", "close"} <= spelled  # the example session


def test_the_table_renders_in_sphinx(tmp_path: Path) -> None:
    sphinx = pytest.importorskip("sphinx.application")
    src = tmp_path / "src"
    src.mkdir()
    (src / "conf.py").write_text(
        "extensions = ['myst_parser']\n"
        "def setup(app):\n"
        "    from berserk_rules.harness.messages import directive\n"
        "    app.add_directive('berserk-messages', directive())\n",
        encoding="utf-8",
    )
    (src / "index.md").write_text("# Протокол\n\n```{berserk-messages}\n```\n", encoding="utf-8")
    from sphinx.util.docutils import docutils_namespace

    with docutils_namespace():
        app = sphinx.Sphinx(
            str(src), str(src), str(tmp_path / "out"), str(tmp_path / "doctrees"), "html", status=None
        )
        app.build()
    html = (tmp_path / "out" / "index.html").read_text(encoding="utf-8")
    rows = re.findall(r"<tr[^>]*>(.*?)</tr>", html, re.S)
    assert len(rows) == 1 + len(messages.MESSAGES)
    for (name, fields, reply, doc), row in zip(messages.table_rows(), rows[1:], strict=True):
        text = re.sub(r"\s+", " ", html_text.unescape(re.sub(r"<[^>]+>", "", row)))
        assert name in text and reply in text and doc in text, (text, doc)
        for field in fields.split(", "):
            assert field.rstrip("?") in text
    assert "position, scenario?" in messages.table_rows()[1][1]  # fields come from the request's schema
