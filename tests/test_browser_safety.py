"""A hostile edition in a real browser: no script from an input file runs on any page (issue 15, 5).

The edition is imported with ``berserk-rules import --edition`` from a text whose Part title, rule
lines and glossary carry HTML with scripts, under a name that carries one, with an editorial note
that carries one; a raw HTML block added to its rules is refused by ``site --corpus`` with its file
and line; then its site is built with ``site --no-check --corpus`` and a results file whose engine
name, failure message, failed step, position and log carry scripts too. Every page is opened in
headless Chromium (the search too): no dialog, no page error, no ``window.__pwned``, the title
never «pwned», no console message of a payload, no request for the payload's image.
"""

from __future__ import annotations

import contextlib
import functools
import http.server
import io
import json
import os
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest
from chromium_binary import chromium_path

pytestmark = pytest.mark.slow  # builds the site and drives a browser

try:
    from playwright import sync_api
except ImportError:
    sync_api = None
CHROMIUM = chromium_path()
if sync_api is None or not Path(CHROMIUM).is_file():
    if os.environ.get("BERSERK_REQUIRE_BROWSER"):
        pytest.fail("нет playwright или Chromium (задан BERSERK_REQUIRE_BROWSER)", pytrace=False)
    pytest.skip("нет playwright или Chromium: см. README, «Тесты в браузере»", allow_module_level=True)

from shared_build import once_per_session  # noqa: E402
from shared_site import scenario_record  # noqa: E402
from synthetic_edition import generate  # noqa: E402

from berserk_rules.cli import main  # noqa: E402
from berserk_rules.rulebook.features import load_scenarios  # noqa: E402
from berserk_rules.rulebook.project import project_root  # noqa: E402

ROOT = project_root()
RUN = "window.__pwned=(window.__pwned||0)+1;document.title='pwned';console.log('pwned');alert('pwned')"
IMG = f'<img src=pwned-image onerror="{RUN}">'
SCRIPT = f"<script>{RUN}</script>"
SVG = "<svg onload=alert('pwned')>"
TERM = "<img src=pwned-image onerror=alert(1)>"  # a term's name ends at its first full stop
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1",
]


def hostile_text() -> str:
    text = generate(sections_per_part=2, terms=20)
    text = text.replace("Часть 2. Карты и зоны.", f"Часть 2. Карты и зоны {IMG} {SCRIPT}", 1)
    text = text.replace(
        "201.1. ", f"201.1. {IMG} {SVG} `{SCRIPT}` {{raw}}`<b>` [ссылка](javascript:alert(1)) ", 1
    )
    return text.replace(
        "Часть 7. Терминология.\n", f"Часть 7. Терминология.\nЛовушка {TERM}. Карта {SCRIPT}.\n", 1
    )


def hostile_results(path: Path) -> None:
    records = []
    for index, ref in enumerate(load_scenarios(ROOT)):
        record = scenario_record(ref, "passed")
        if index % 40 == 0:
            record.update(
                status="failed",
                message=f"{IMG} {SCRIPT}",
                failed_step={"file": ref.file, "line": ref.line + 1, "keyword": "Тогда", "text": IMG},
                position={
                    "turn": 1,
                    "active": "А",
                    SCRIPT: IMG,
                    "players": {"А": {"play": [{"card": IMG, "wounds": 1}], "hand": [SCRIPT]}},
                },
                log=[{"seq": 1, "turn": 1, "event": IMG, "text": SCRIPT, "rule": IMG}],
            )
        records.append(record)
    data = {
        "schema": 1,
        "engine": {"name": IMG, "version": SCRIPT},
        "started": "2026-11-29T10:00:00+00:00",
        "finished": IMG,
        "duration": 2.0,
        "summary": {},
        "scenarios": records,
    }
    path.write_text(json.dumps(data, ensure_ascii=False), encoding="utf-8")


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The hostile site, built once per session (``shared_build``), whichever worker asks first."""
    tmp, _ = once_per_session(tmp_path_factory, "berserk-hostile-site", _build_hostile)
    return tmp / "site"


def _build_hostile(tmp: Path) -> dict[str, str]:
    source = tmp / "synth.txt"
    source.write_text(hostile_text(), encoding="utf-8")
    editorial = tmp / "editorial.toml"
    editorial.write_text(
        '["synth.txt"]\n1 = { id = "1.заглавие", inferred = true, note = "Заглавие. '
        + IMG.replace('"', '\\"')
        + '" }\n',
        encoding="utf-8",
    )
    edition = tmp / "edition"
    name = f"имя {IMG} {SCRIPT}"
    assert (
        main(["import", "--edition", name, "--out", str(edition), "--editorial", str(editorial), str(source)])
        == 0
    )
    results = tmp / "results.json"
    hostile_results(results)
    out = tmp / "site"
    site_args = ["site", "--no-check", "--corpus", str(edition), "--results", str(results), "--out", str(out)]
    # a raw block in the edition's rules is refused, with its file and line
    part = edition / "rules" / "part-3.md"
    text = part.read_text(encoding="utf-8")
    part.write_text(text + f"\n```{{raw}} html\n{SCRIPT}\n```\n", encoding="utf-8")
    with contextlib.redirect_stderr(io.StringIO()) as stderr:
        assert main(site_args) == 2
    assert f"rules/part-3.md:{text.count(chr(10)) + 2}: в папке редакции вне директив" in stderr.getvalue()
    part.write_text(text, encoding="utf-8")
    assert main(site_args) == 0
    return {"site": str(out)}


@pytest.fixture(scope="module")
def served(site: Path) -> Iterator[str]:
    server = http.server.ThreadingHTTPServer(
        ("127.0.0.1", 0),
        functools.partial(_Quiet, directory=str(site)),
    )
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}/"
    finally:
        server.shutdown()
        server.server_close()


class _Quiet(http.server.SimpleHTTPRequestHandler):
    def log_message(self, format: str, *args: object) -> None:
        pass


def test_the_payloads_are_on_the_pages_as_text(site: Path) -> None:
    """The payloads did reach the site (so the browser test below is not vacuous), escaped."""
    pages = {p.relative_to(site).as_posix(): p.read_text(encoding="utf-8") for p in site.rglob("*.html")}
    assert len(pages) > 30
    escaped = "&lt;img src=pwned-image onerror="
    for name in ("index.html", "rules/part-2.html", "rules/part-3.html", "glossary.html"):
        assert escaped in pages[name], name
    assert any("&lt;script&gt;window.__pwned" in text for name, text in pages.items() if "_generated" in name)
    for name, text in pages.items():
        assert "<img src=pwned" not in text and "<script>window" not in text and "<svg onload" not in text, (
            name
        )


def test_no_script_from_an_input_file_runs_on_any_page(site: Path, served: str) -> None:
    events: list[str] = []
    with sync_api.sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        try:
            context = browser.new_context()
            context.on(
                "request", lambda r: events.append(f"request {r.url}") if "pwned-image" in r.url else None
            )
            page = context.new_page()
            page.on("dialog", lambda d: (events.append(f"dialog {d.message}"), d.dismiss()))
            page.on("pageerror", lambda e: events.append(f"pageerror {e}"))
            page.on("console", lambda m: events.append(f"console {m.text}") if "pwned" in m.text else None)
            # the listeners do see a payload that runs (so an empty list below means something)
            page.goto(served + "index.html", wait_until="load")
            page.set_content(f"<p>{IMG}</p>")
            page.wait_for_function("window.__pwned === 1")
            assert any(e.startswith("dialog pwned") for e in events), events
            assert any(e.startswith("console pwned") for e in events), events
            events.clear()
            names = sorted(p.relative_to(site).as_posix() for p in site.rglob("*.html"))
            for name in names:
                page.goto(served + name, wait_until="load")
                state = page.evaluate("[window.__pwned === undefined, document.title]")
                assert state[0] and state[1] != "pwned", (name, state)
            for query in ("Ловушка", "img", "onerror", "201.1 Карты"):
                page.goto(served + f"search.html?q={query}", wait_until="load")
                page.click(".berserk-pages-search button")  # the pages' index is loaded on request
                page.wait_for_function(
                    "(document.querySelector('.search-summary') || {innerText: ''}).innerText.length > 0"
                )
                page.wait_for_timeout(300)  # the entry hits and the page snippets are filled in
                assert page.evaluate("window.__pwned === undefined"), query
        finally:
            browser.close()
    assert events == [], events
