"""The game step by step in headless Chromium (issue 19, item 2): on a scenario page of the site and
on the page ``berserk-rules ask --html`` writes — stepping with the keys, the board changing, the
current step's log entries highlighted, the plain list without JavaScript, and axe-core with no
critical finding on either page. Reuses the site and the browser of ``tests/test_browser.py``."""

# ruff: noqa: F811  (the fixtures of test_browser are imported, then named as parameters)

from __future__ import annotations

import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import pytest
from shared_site import STEPS
from test_ask import QUESTION
from test_browser import (  # noqa: F401  (fixtures)
    ROOT,
    RULE,
    Page,
    Served,
    browser,
    desktop,
    page,
    served,
)
from test_browser_judges import axe_script

from berserk_rules.rulebook.features import load_scenarios

pytestmark = pytest.mark.slow  # a browser, a site build, ask runs

CRITICAL = (
    "async () => (await axe.run(document, {resultTypes: ['violations']})).violations"
    ".filter(v => v.impact === 'critical')"
    ".map(v => v.id + ': ' + v.nodes.length + ' — ' + v.nodes[0].target.join(' '))"
)


def status(p: Any, box: str) -> str:
    return str(p.locator(f"{box} .berserk-stepper-status").inner_text())


def pane(p: Any, box: str) -> str:
    return str(p.locator(f"{box} .berserk-stepper-pane").inner_text())


# --- the site's scenario page --------------------------------------------------------------------


def test_scenario_page_steps_with_keys(page: Page, served: Served) -> None:
    ref = [r for r in load_scenarios(ROOT) if RULE in r.rules][1]
    p = page.goto(f"_generated/{ref.file.removesuffix('.feature')}.html#scenario-{ref.line}")
    section = p.locator(f'section[id="scenario-{ref.line}"]')
    section.locator("details.berserk-replay > summary").first.click()
    box = f"#replay-{ref.line}"
    stepper = p.locator(box)
    assert "berserk-stepper-on" in (stepper.get_attribute("class") or "")
    # it opens on the start of the game: the «Дано» steps are one item before it
    assert status(p, box) == f"Шаг 2 из {len(STEPS)}: Начало партии"
    assert "фаза восстановления" in pane(p, box) and "«Часовой» (удар 1, жизней 3, ран 1)" in pane(p, box)
    current = p.locator(f"{box} .berserk-replay-current")
    assert current.locator(".berserk-replay-log li").all_inner_texts() == ["Фаза восстановления (303)"]
    stepper.focus()
    p.keyboard.press("ArrowRight")
    assert status(p, box).startswith("Шаг 3 из 5: Когда игрок А получает монету")
    assert "фаза выбора" in pane(p, box) and "«Ранить на 1» (игрок Б)" in pane(p, box)
    entries = current.locator(".berserk-replay-log li")
    assert entries.count() == 2 and "получает открытый маркер монеты" in entries.first.inner_text()
    highlight = entries.first.evaluate("e => getComputedStyle(e).backgroundColor")
    other = p.locator(f"{box} .berserk-replay-step:not(.berserk-replay-current) .berserk-replay-log li").first
    assert highlight != other.evaluate("e => getComputedStyle(e).backgroundColor")
    # each entry links to its rule
    assert entries.last.locator("a.berserk-log-rule").get_attribute("href").endswith("#rule-401.7")
    p.keyboard.press("ArrowRight")  # a «Тогда» step: the board of the step before it still holds
    assert status(p, box).startswith("Шаг 4 из 5") and "фаза выбора" in pane(p, box)
    p.keyboard.press("End")
    assert status(p, box).startswith("Шаг 5 из 5") and "Ход 4" in pane(p, box)
    assert p.locator(f"{box} button[aria-label^='Следующий']").is_disabled()
    p.keyboard.press("Home")
    assert status(p, box).startswith("Шаг 1 из 5: Позиция сценария")
    p.keyboard.press("ArrowLeft")  # nothing before the first step
    assert status(p, box).startswith("Шаг 1 из 5")
    p.locator(f"{box} .berserk-replay-step").nth(2).click()
    assert status(p, box).startswith("Шаг 3 из 5")
    script = axe_script()
    p.add_script_tag(path=str(script))
    assert p.evaluate(CRITICAL) == []
    # printed: the whole list with the board under each step, without the stepper's controls
    p.emulate_media(media="print")
    try:
        assert not p.locator(f"{box} .berserk-stepper-bar").is_visible()
        assert p.locator(f"{box} .berserk-replay-step .berserk-replay-board").nth(2).is_visible()
    finally:
        p.emulate_media(media="screen")
    assert not p.locator(f"{box} .berserk-replay-step .berserk-replay-board").nth(2).is_visible()


def test_arrow_keys_never_leave_a_scenario_page(page: Page, served: Served) -> None:
    """Issue 26, item 4: ←/→ step the replay and never turn into the theme's page changes — neither
    with the focus outside the replay, nor after the last step."""
    ref = [r for r in load_scenarios(ROOT) if RULE in r.rules][1]
    p = page.goto(f"_generated/{ref.file.removesuffix('.feature')}.html#scenario-{ref.line}")
    p.reload()  # the page of the test before may be this very document (only the hash differs)
    url = p.url
    section = p.locator(f'section[id="scenario-{ref.line}"]')
    section.locator("details.berserk-replay > summary").first.click()
    box = f"#replay-{ref.line}"
    assert status(p, box).startswith("Шаг 2 из")
    p.evaluate("() => document.activeElement && document.activeElement.blur()")  # focus on no element
    for key in ("ArrowRight", "ArrowLeft", "ArrowRight"):
        p.keyboard.press(key)
        p.wait_for_timeout(200)
        assert p.url == url, f"{key} увёл со страницы сценария: {p.url}"
    p.locator(box).focus()
    p.keyboard.press("End")
    last = status(p, box)
    p.keyboard.press("ArrowRight")  # after the last step: nothing, and not the next page
    p.wait_for_timeout(200)
    assert p.url == url and status(p, box) == last


# --- the page of berserk-rules ask ---------------------------------------------------------------


@pytest.fixture(scope="module")
def asked(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("judge-browser")
    (folder / "вопрос.feature").write_text(QUESTION, encoding="utf-8")
    done = subprocess.run(
        [sys.executable, "-m", "berserk_rules.cli", "ask", "вопрос.feature", "--html", "вопрос.html"],
        cwd=folder,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert done.returncode == 1, done.stderr  # one scenario of the question fails on purpose
    return folder / "вопрос.html"


class FilePage:
    """A page opened from disk in its own context; every request that is not the file is recorded."""

    def __init__(self, browser: Any, javascript: bool = True) -> None:
        self.context = browser.new_context(
            viewport={"width": 1200, "height": 900}, java_script_enabled=javascript
        )
        self.remote: list[str] = []
        self.errors: list[str] = []
        self.context.on("request", self._request)
        self.page = self.context.new_page()
        self.page.on("pageerror", lambda e: self.errors.append(str(e)))

    def _request(self, request: Any) -> None:
        if urlsplit(request.url).scheme not in ("file", "data", "about", "blob"):
            self.remote.append(request.url)


@pytest.fixture
def file_page(browser: Any) -> Iterator[FilePage]:
    opened = FilePage(browser)
    yield opened
    assert opened.errors == [] and opened.remote == []
    opened.context.close()


def test_ask_page_replay(file_page: FilePage, asked: Path) -> None:
    p = file_page.page
    p.goto(asked.as_uri())
    assert p.locator("h1").inner_text() == "Вопрос судьи: вопрос.feature"
    assert p.locator(".berserk-badge").all_inner_texts() == ["прошёл", "не прошёл"]
    box = "#replay-1"
    assert status(p, box) == "Шаг 2 из 6: Начало партии"
    assert "«Гоблин» (удар 1, жизней 1)" in pane(p, box) and "Рука: «Огневой залп»" in pane(p, box)
    p.locator(box).focus()
    p.keyboard.press("ArrowRight")
    assert status(p, box).startswith("Шаг 3 из 6: Когда игрок А разыгрывает «Огневой залп» с целью «Гоблин»")
    board = pane(p, box)
    assert "Кладбище: «Огневой залп»" in board and "Кладбище: «Гоблин»" in board
    assert "Сработали, ждут заявки" in board
    entries = p.locator(f"{box} .berserk-replay-current .berserk-replay-log li").all_inner_texts()
    assert "«Гоблин» получает ран: 2 (термин «Раны»)" in entries
    rule = p.locator(f"{box} .berserk-replay-current .berserk-log-rule").first
    assert rule.get_attribute("title").startswith("В эту фазу активный игрок")  # the rule's text at hand
    p.keyboard.press("End")
    assert status(p, box).startswith("Шаг 6 из 6") and "ран 1" in pane(p, box)
    # the second scenario: the failed step is marked, the failed draws of Б (no deck) folded
    second = p.locator("#replay-2")
    assert second.locator(".berserk-replay-failed .berserk-replay-failed-mark").count() == 1
    folded = second.locator("details.berserk-replay-folded > summary").inner_text()
    assert folded.startswith("Свёрнуто записей: 2 — неудачные попытки взять карту из пустой колоды")
    p.add_script_tag(path=str(axe_script()))
    assert p.evaluate(CRITICAL) == []
    # a link to a step opens the game at that step
    p.goto(asked.as_uri() + "#replay-1-step-4")
    assert status(p, box).startswith("Шаг 5 из 6: Когда игрок Б заявляет")


def test_ask_page_without_javascript(browser: Any, asked: Path) -> None:
    opened = FilePage(browser, javascript=False)
    try:
        p = opened.page
        p.goto(asked.as_uri())
        assert p.locator(".berserk-stepper-bar").count() == 0
        steps = p.locator("#replay-1 .berserk-replay-step")
        assert steps.count() == 6
        # every step that changed the board shows it under itself, readable as a list
        assert steps.nth(2).locator(".berserk-replay-board").is_visible()
        assert "Кладбище: «Гоблин»" in steps.nth(2).locator(".berserk-replay-board").inner_text()
        assert steps.nth(3).locator(".berserk-replay-same").is_visible()  # a «Тогда» step
        assert opened.remote == []
    finally:
        opened.context.close()
