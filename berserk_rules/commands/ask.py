"""``berserk-rules ask FILE.feature [--html OUT.html] [--driver | --engine] [--json]``: a judge's question.

Runs the scenarios of one feature file from anywhere — the file stays where it is, nothing is copied
into the project — on the reference engine (or ``--driver`` / ``--engine``), and prints for each
scenario its verdict and its game as Russian lines: every step, the log entries it caused with the
rule or term each applies, and at the end the text of the rules applied. ``--html OUT.html`` also
writes one self-contained page (the site's styles and script inlined, no remote request) with the
game step by step (:func:`berserk_rules.site.replay.stepper_html`).

The judge's file needs no rule tag (it may have one; a tag that names nothing is an error). Before
anything runs, the file is checked as ``lint`` checks the project's scenarios — an unknown step (with
the closest steps), a misspelt keyword, an unknown tag (with the closest rule numbers) — and every
card of its «Дано карты:» tables is read by the engine, as ``berserk-rules cards`` does (a text it
cannot read: the line and column of the cell, with the nearest forms it reads). Errors are printed as
``FILE:LINE: message``.

``--html`` never destroys a file: it writes a new file, or replaces a page ``ask`` itself wrote earlier
(recognised by the marker :data:`PAGE_MARKER` near its top), never the question itself nor any other
existing file; the page is written to a temporary file beside the target and renamed over it, so a
reader never sees half a page. Anything else is refused before the run (exit code 2).

Exit code: 0 every scenario passed; 1 a scenario failed or ended in an error; 2 bad input (no such
file, errors in its text, bad arguments, a ``--html`` target that is not ours to overwrite) — nothing
run; 130 interrupted.
"""

from __future__ import annotations

import argparse
import datetime as dt
import html
import json
import os
import re
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

from berserk_rules.commands._common import PYTEST, RUN_PLUGINS
from berserk_rules.errors import SourceError, UserError
from berserk_rules.rulebook.project import project_root

INTERRUPTED = 130
# lint codes that are the project's conventions, not errors in a judge's question
NOT_FOR_JUDGES = frozenset(
    {"no-rule-tag", "uncovered", "interpretation-no-why", "example-no-description", "example-no-rule"}
)
STATUS_WORDS = {
    "passed": "прошёл",
    "failed": "не прошёл",
    "error": "ошибка",
    "xfail": "известная ошибка",
    "xpass": "неожиданно прошёл",
    "skipped": "пропущен",
    "not run": "не запущен",
}
RULE_TEXT_SHOWN = 300
# the mark of a page ``ask --html`` wrote: only such a file may be overwritten
PAGE_MARKER = '<meta name="generator" content="berserk-rules ask">'
MARKER_WINDOW = 4096  # the marker stands in the page's head, within its first bytes


# --- the judge's text, checked before the run ----------------------------------------------------


def text_problems(path: Path, shown: str, root: Path, corpus: Any) -> list[str]:
    """Every error in the judge's file, as ``shown:line: message`` lines (empty: it can run)."""
    from berserk_rules.rulebook.lint import lint

    report = lint([path], root=root, corpus=corpus, check_step_definitions=True)
    lines = [
        (p.line, f"{shown}:{p.line}: {p.message}") for p in report.errors if p.code not in NOT_FOR_JUDGES
    ]
    if not any(p.code in ("unreadable", "syntax") for p in report.errors):
        lines += card_problems(path, shown, root)
    return [text for _, text in sorted(lines, key=lambda item: item[0])]


def card_problems(path: Path, shown: str, root: Path) -> list[tuple[int, str]]:
    """The cards of the file's «Дано карты:» tables that the engine cannot read (line, message)."""
    from berserk_rules.reference.card_reading import unreadable
    from berserk_rules.rulebook.features import parse_feature
    from berserk_rules.steps.position import CARD_COLUMNS

    parsed = parse_feature(path, root)
    raw_lines = parsed.text.splitlines()
    rows: list[tuple[int, str, dict[str, Any]]] = []
    for node in parsed.nodes.values():
        if node.get("text", "").strip() != "карты:" or not node.get("dataTable"):
            continue
        table = node["dataTable"]["rows"]
        header = [cell["value"].strip().lower() for cell in table[0]["cells"]]
        for row in table[1:]:
            values = dict(zip(header, (cell["value"].strip() for cell in row["cells"]), strict=False))
            if not values.get("название") or any(h not in CARD_COLUMNS for h in header):
                continue  # the step itself says what is wrong with such a table
            card: dict[str, Any] = {"name": values["название"], "type": values.get("тип") or "существо"}
            for column, key in CARD_COLUMNS.items():
                value = values.get(column, "")
                if not value or key in ("name", "type"):
                    continue
                card[key] = int(value) if key in ("cost", "strike", "life") and value.isdigit() else value
            line = int(row["location"]["line"])
            rows.append((line, raw_lines[line - 1] if line <= len(raw_lines) else "", card))
    found = []
    for item in unreadable(rows, shown):
        where = f", предложение {item['position'][0]}" if item["position"] else ""
        hint = "; ближайшие формы: " + "; ".join(f"«{n}»" for n in item["nearest"]) if item["nearest"] else ""
        said = (  # a mechanic outside our rules is named, not reported as words not understood
            item["message"]
            if item.get("kind") == "outside"
            else f"движок не понимает текст: {item['message']}: «{item['sentence']}»{hint}"
        )
        place = f"{shown}:{item['line']}:{item['column']}: карта «{item['card']}»{where}"
        found.append((item["line"], f"{place}: {said}"))
    return found


# --- the run -------------------------------------------------------------------------------------

CONFTEST = 'pytest_plugins = ["berserk_rules.pytest_plugin", "berserk_rules.steps.all"]\n'


def run_scenarios(path: Path, args: argparse.Namespace, work: Path) -> dict[str, Any]:
    """Run the file's scenarios with pytest in ``work`` (a folder of its own: the project's tree is
    not touched); the results document."""
    (work / "pytest.ini").write_text("[pytest]\n", encoding="utf-8")
    (work / "conftest.py").write_text(CONFTEST, encoding="utf-8")
    (work / "test_ask.py").write_text(
        f"from pytest_bdd import scenarios\n\nscenarios({str(path)!r})\n", encoding="utf-8"
    )
    results = work / "results.json"
    command = [*PYTEST, "test_ask.py", *RUN_PLUGINS, "-q", "--tb=no"]
    command += ["-p", "no:randomly", "--berserk-results", str(results), "--berserk-trace"]
    if args.driver:
        command += ["--berserk-driver", args.driver]
    if args.engine:
        command += ["--berserk-engine", args.engine, "--berserk-engine-cwd", str(Path.cwd())]
    env = dict(os.environ)
    env.pop("PYTEST_ADDOPTS", None)
    done = subprocess.run(command, cwd=work, capture_output=True, text=True, env=env, check=False)
    if not results.is_file():
        tail = "\n".join((done.stdout + done.stderr).strip().splitlines()[-15:])
        raise UserError(f"сценарии не запущены (pytest, код {done.returncode}):\n{tail}")
    return dict(json.loads(results.read_text(encoding="utf-8")))


# --- the account ---------------------------------------------------------------------------------


class Rules:
    """Labels, texts and site addresses of the rules, terms and interpretations the log cites (from
    the project's corpus); ``site``: the base address of the rulebook's site (None: no links)."""

    def __init__(self, corpus: Any, site: str | None = None) -> None:
        self.entries = {e.id: e for e in corpus.entries} if corpus is not None else {}
        self.register = dict(corpus.interpretations) if corpus is not None else {}
        self.site = site.rstrip("/") if site else None
        self.cited: list[str] = []

    def label(self, ident: str) -> str:
        item = self.register.get(ident)
        if item is not None:
            return f"толкование {ident} «{item.title}»" if item.title else f"толкование {ident}"
        entry = self.entries.get(ident)
        if entry is not None and entry.kind == "term":
            return f"термин «{entry.title or ident}»"
        return f"правило {ident}" if entry is not None else ident

    def cite(self, ident: str) -> tuple[str, str | None, str | None]:
        if ident not in self.cited:
            self.cited.append(ident)
        return self.label(ident), self.uri(ident), self.text(ident)

    def uri(self, ident: str) -> str | None:
        """The address of a rule, term or interpretation on the site (None: no site given)."""
        from berserk_rules.corpus.model import part_of_id

        if self.site is None:
            return None
        if ident in self.register:
            return f"{self.site}/interpretations.html#interpretation-{ident}"
        entry = self.entries.get(ident)
        if entry is None:
            return None
        if entry.kind == "term":
            return f"{self.site}/glossary.html#term-{ident}"
        part = part_of_id(ident)
        return f"{self.site}/rules/part-{part}.html#rule-{ident}" if part else None

    def full_text(self, ident: str) -> str | None:
        item = self.register.get(ident)
        if item is not None:
            return " ".join(re.sub(r"\{(?:rule|termin|interpretation)\}`([^`]*)`", r"\1", item.text).split())
        entry = self.entries.get(ident)
        return " ".join(entry.text.split()) if entry is not None else None

    def text(self, ident: str) -> str | None:
        text = self.full_text(ident)
        if text is None:
            return None
        return text if len(text) <= RULE_TEXT_SHOWN else text[: RULE_TEXT_SHOWN - 1].rstrip() + "…"


def board_text(board: dict[str, Any]) -> list[str]:
    """A board of the trace as a few Russian lines."""
    from berserk_rules.site.replay import BOARD_ZONES, board_header, waiting_in_order

    lines = []
    head = board_header(board)
    if head:
        lines.append(head[0].upper() + head[1:] + ".")
    play = [c for c in board.get("play") or [] if isinstance(c, dict)]
    for name, data in (board.get("players") or {}).items():
        words = []
        hero = data.get("hero") or {}
        if hero:
            words.append(
                f"герой «{hero.get('name')}» (жизней {hero.get('life', '?')}, ран {hero.get('wounds', 0)})"
            )
        coins = data.get("coins") or {}
        if coins:
            words.append(f"монеты: открытых {coins.get('open', 0)}, закрытых {coins.get('closed', 0)}")
        mine = [c for c in play if (c.get("controller") or c.get("owner")) == name]
        if mine:
            words.append("в игре: " + ", ".join(card_words(c) for c in mine))
        for key, label in BOARD_ZONES:
            zone = data.get(key)
            if isinstance(zone, int):
                words.append(f"{label.lower()}: карт {zone}")
            elif zone:
                words.append(f"{label.lower()}: " + ", ".join(f"«{c}»" for c in zone))
        lines.append(f"Игрок {name}: " + "; ".join(words) + ".")
    queue = board.get("queue") or []
    if queue:
        lines.append("Очередь: " + "; ".join(f"{i}) «{q.get('text')}»" for i, q in enumerate(queue, 1)) + ".")
    waiting, first = waiting_in_order(board)
    if waiting:
        who = f" (первым заявляет игрок {first}, 402.1)" if first else ""
        items = "; ".join(
            f"{i}) «{q.get('text')}» ({q.get('controller', '?')})" for i, q in enumerate(waiting, 1)
        )
        lines.append(f"Сработали, ждут заявки{who}: {items}.")
    return lines


def card_words(card: dict[str, Any]) -> str:
    words = [f"удар {card['strike']}"] if "strike" in card else []
    if "life" in card:
        words.append(f"жизней {card['life']}")
    if card.get("wounds"):
        words.append(f"ран {card['wounds']}")
    if card.get("closed"):
        words.append("закрыта")
    return f"«{card.get('name')}»" + (f" ({', '.join(words)})" if words else "")


def account(entry: dict[str, Any], name: str, where: str, rules: Rules) -> list[str]:
    """One scenario: its verdict, then its game step by step."""
    from berserk_rules.site.replay import folded_entries, step_title

    status = str(entry.get("status"))
    lines = [f"Сценарий «{name}» ({where}): {STATUS_WORDS.get(status, status)}"]
    if entry.get("message") and status != "passed":
        lines += ["  " + line for line in str(entry["message"]).splitlines()]
    steps = [s for s in entry.get("steps") or [] if isinstance(s, dict)]
    raw_log = entry.get("log")
    log: list[Any] = raw_log if isinstance(raw_log, list) else []
    folded = folded_entries(entry)
    if not steps:
        lines.append("  (партия не началась: шаги «Дано» не дошли до игры)")
    given = [s for s in steps if "log" not in s and not s.get("failed")]
    if given:
        lines.append(f"  Позиция описана шагами «Дано» ({len(given)}).")
    for step in steps:
        if "log" not in step and not step.get("failed"):
            continue
        mark = "✗ " if step.get("failed") else ""
        line = f" (строка {step['line']})" if step.get("line") else ""
        lines.append(f"  {mark}{step_title(step)}{line}")
        if step.get("start") and isinstance(step.get("board"), dict):
            lines += ["      " + text for text in board_text(step["board"])]
        span = step.get("log") or [0, 0]  # null: an engine process, the log is printed after the steps
        hidden = 0
        for index in range(int(span[0]), min(int(span[1]), len(log))):
            item = log[index]
            if index in folded:
                hidden += 1
                continue
            lines.append(f"    • {item.get('text') or item.get('event')}{cited_words(item, rules)}")
        if hidden:
            lines.append(
                f"    (свёрнуто: {hidden} — неудачные попытки взять карту из колоды, которой нет в позиции)"
            )
    if log and not any(isinstance(step.get("log"), list) for step in steps):
        lines.append("  Журнал партии (движок-процесс: записи по шагам не разнесены):")
        for index, item in enumerate(log):
            if index not in folded and isinstance(item, dict):
                lines.append(f"    • {item.get('text') or item.get('event')}{cited_words(item, rules)}")
    return [*lines[:1], *deciding_text(entry, rules), *lines[1:]]


def cited_words(item: dict[str, Any], rules: Rules) -> str:
    """« — правило 401.7; решает: правило 402.1, толкование I-1 …» after a log entry."""
    from berserk_rules.site.replay import deciding_of

    rule = item.get("rule")
    words = f" — {rules.cite(str(rule))[0]}" if rule else ""
    deciding = deciding_of(item)
    if deciding:
        words += "; решает: " + ", ".join(rules.cite(ident)[0] for ident in deciding)
    return words


def deciding_text(entry: dict[str, Any], rules: Rules) -> list[str]:
    """«Что решает ответ»: the scenario's deciding rules and interpretations, with their whole text
    and their address on the site — before the game, so that a judge reads the reason first."""
    from berserk_rules.site.replay import deciding_rules

    found = deciding_rules(entry)
    if not found:
        return []
    lines = ["  Что решает ответ:"]
    for ident in found:
        rules.cite(ident)
        uri = rules.uri(ident)
        lines.append(f"    ▸ {rules.label(ident)}" + (f" ({uri})" if uri else ""))
        text = rules.full_text(ident)
        if text:
            lines.append(f"      {text}")
    return lines


def applied_rules(rules: Rules, deciding: set[str] | None = None) -> list[str]:
    """The background: every rule the games applied that does not decide an answer (those are shown
    in full under «Что решает ответ»)."""
    lines = []
    for ident in rules.cited:
        text = rules.text(ident)
        if text and ident not in (deciding or set()):
            lines.append(f"  {rules.label(ident)}: {text}")
    return ["Применённые правила (фон):", *lines] if lines else []


# --- the page ------------------------------------------------------------------------------------

FURO_FALLBACKS = """:root {
  --color-background-border: #dcd6cc; --color-background-primary: #fff; --color-background-secondary: #f8f7f4;
  --color-brand-content: #7a1f1f; --color-brand-primary: #7a1f1f; --color-foreground-primary: #1d1b19;
  --color-foreground-secondary: #4b463f; --color-highlighted-background: #fdf1d6;
  --color-problematic: #a11d1d;
}
body { font-family: system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; line-height: 1.5;
  color: var(--color-foreground-primary); background: var(--color-background-primary);
  max-width: 62rem; margin: 0 auto; padding: 1rem 1.2rem 3rem; }
a { color: var(--color-brand-content); }
pre { white-space: pre-wrap; background: var(--berserk-example-bg); padding: 0.5rem 0.7rem; }
.berserk-badge { display: inline-block; padding: 0 0.45em; border-radius: 0.3em; font-size: 0.85em;
  font-weight: 600; border: 1px solid transparent; }
"""


def static_file(root: Path, name: str) -> str:
    """A file of the site's ``docs/_static`` (the project's, else the one beside this package)."""
    for base in (root, Path(__file__).resolve().parents[2]):
        path = base / "docs" / "_static" / name
        if path.is_file():
            return path.read_text(encoding="utf-8")
    return ""


def ask_link(rules: Rules, ident: str) -> str:
    uri = rules.uri(ident)
    label = html.escape(rules.label(ident))
    return f'<a href="{html.escape(uri)}">{label}</a>' if uri else label


def page(
    results: dict[str, Any],
    shown: str,
    found: list[tuple[dict[str, Any], str, str]],
    root: Path,
    corpus: Any,
    site: str | None = None,
) -> str:
    """The self-contained page of the judge's question; ``site``: the base address for links."""
    from berserk_rules.site.nodes import status_class
    from berserk_rules.site.replay import deciding_rules, stepper_html

    e = html.escape
    engine = results.get("engine") or {}
    when = dt.datetime.now().astimezone().strftime("%d.%m.%Y %H:%M")
    parts = [
        "<!DOCTYPE html>",
        '<html lang="ru"><head><meta charset="utf-8">',
        '<meta name="viewport" content="width=device-width, initial-scale=1">',
        PAGE_MARKER,
        f"<title>Вопрос судьи: {e(Path(shown).name)}</title>",
        f"<style>{FURO_FALLBACKS}\n{static_file(root, 'berserk.css')}</style>",
        "</head><body><main>",
        f"<h1>Вопрос судьи: {e(Path(shown).name)}</h1>",
        f'<p class="berserk-feature-meta">Файл <code>{e(shown)}</code>; движок {e(str(engine.get("name")))} '
        f"{e(str(engine.get('version') or ''))}; прогон {e(when)} (berserk-rules ask).</p>",
    ]
    for index, (entry, name, where) in enumerate(found):
        rules = Rules(corpus, site)
        status = str(entry.get("status"))
        parts.append(f'<section class="berserk-ask-scenario" id="scenario-{index + 1}">')
        parts.append(f"<h2>Сценарий: {e(name)}</h2>")
        parts.append(
            f'<p><span class="berserk-badge berserk-status {status_class(status)}">'
            f"{e(STATUS_WORDS.get(status, status))}</span> <code>{e(where)}</code></p>"
        )
        if entry.get("message") and status != "passed":
            parts.append(f'<pre class="berserk-message">{e(str(entry["message"]))}</pre>')
        replay = stepper_html(entry, rules.cite, f"replay-{index + 1}", deciding=False)
        deciding = deciding_rules(entry)
        if deciding:  # the reason first: the deciding rules and interpretations, in full
            parts.append('<h3>Что решает ответ</h3><dl class="berserk-ask-deciding">')
            for ident in deciding:
                text = e(rules.full_text(ident) or "—")
                parts.append(f"<dt>{ask_link(rules, ident)}</dt><dd>{text}</dd>")
            parts.append("</dl>")
        parts.append(replay or "<p>Партия не началась: шаги «Дано» не дошли до игры.</p>")
        background = [ident for ident in rules.cited if ident not in deciding]
        if background:
            parts.append('<h3>Применённые правила (фон)</h3><dl class="berserk-ask-rules">')
            for ident in background:
                parts.append(f"<dt>{ask_link(rules, ident)}</dt><dd>{e(rules.text(ident) or '—')}</dd>")
            parts.append("</dl>")
        parts.append("</section>")
    parts.append("</main>")
    parts.append(f"<script>{static_file(root, 'berserk.js')}</script>")
    parts.append("</body></html>")
    return "\n".join(parts)


# --- the command ---------------------------------------------------------------------------------


def html_target_problem(out: Path, question: Path) -> str | None:
    """Why ``--html OUT`` may not be written (None: it may): a folder, the question itself, or an
    existing file that is not a page ``ask`` wrote."""
    if out.is_dir():
        return f"--html {out}: это папка; укажите файл, например {out}/ответ.html"
    if not out.exists() and not out.is_symlink():
        return None
    if out.exists() and out.resolve() == question.resolve():
        return f"--html {out}: это сам файл вопроса; страница его не заменит — укажите другой файл"
    if out.is_symlink() or not out.is_file():
        return f"--html {out}: это не обычный файл; ask пишет только в новый файл или в свою прежнюю страницу"
    try:
        with out.open("rb") as handle:
            head = handle.read(MARKER_WINDOW).decode("utf-8", errors="replace")
    except OSError as exc:
        return f"--html {out}: файл не читается ({exc.strerror})"
    if PAGE_MARKER not in head:
        return (
            f"--html {out}: файл уже есть, и его записал не berserk-rules ask; ask перезаписывает только "
            "свои страницы — укажите новый файл или удалите этот сами"
        )
    return None


def write_atomically(out: Path, text: str) -> None:
    """Write ``text`` to ``out`` through a temporary file in the same folder and a rename."""
    out.parent.mkdir(parents=True, exist_ok=True)
    handle, temporary = tempfile.mkstemp(prefix=f".{out.name}.", suffix=".tmp", dir=out.parent)
    try:
        with os.fdopen(handle, "w", encoding="utf-8") as stream:
            stream.write(text)
            stream.flush()
            os.fsync(stream.fileno())
        os.replace(temporary, out)
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise


def run(args: argparse.Namespace) -> int:
    from berserk_rules.corpus import load_corpus
    from berserk_rules.rulebook.features import parse_feature, scenario_refs
    from berserk_rules.site.replay import deciding_rules

    path = Path(args.file)
    shown = args.file
    if not path.is_file():
        raise UserError(f"{shown}: нет такого файла" if not path.exists() else f"{shown}: это не файл")
    if args.html:
        problem = html_target_problem(Path(args.html), path)
        if problem:
            raise UserError(problem)
    if args.driver and args.engine:
        raise UserError("--driver и --engine вместе не указываются: выберите одно")
    root = project_root()
    corpus = load_corpus(root)
    path = path.resolve()
    site = getattr(args, "site", None) or os.environ.get("BERSERK_RULES_SITE") or None
    try:
        problems = text_problems(path, shown, root, corpus)
    except SourceError as exc:
        problems = [f"{shown}:{exc.line or 1}: {exc.message}"]
    if problems:
        print(f"berserk-rules ask: в {shown} есть ошибки, сценарии не запущены:", file=sys.stderr)
        for line in problems:
            print(line, file=sys.stderr)
        return 2
    try:
        with tempfile.TemporaryDirectory(prefix="berserk-ask-") as work:
            results = run_scenarios(path, args, Path(work))
            refs = {ref.line: ref for ref in scenario_refs(parse_feature(path, Path(work)))}
    except KeyboardInterrupt:
        print("\nberserk-rules ask: прервано (Ctrl-C)", file=sys.stderr)
        return INTERRUPTED
    found: list[tuple[dict[str, Any], str, str]] = []
    for entry in results.get("scenarios") or []:
        line = str(entry.get("id", "")).rsplit(":", 1)[-1].split("[")[0]
        ref = refs.get(int(line)) if line.isdigit() else None
        if ref is None:
            continue  # not of this file
        entry = {
            **entry,
            "id": f"{shown}:{ref.line}",
            "name": ref.name,
            "file": shown,
            "line": ref.line,
            "rules": list(ref.rules),
            "terms": list(ref.terms),
            "tags": list(ref.tags),
        }
        found.append((entry, ref.name, f"{shown}:{ref.line}"))
    found.sort(key=lambda item: int(item[2].rsplit(":", 1)[-1]))
    if not found:
        raise UserError(f"{shown}: в файле нет ни одного сценария")
    if args.json:
        print(
            json.dumps({"file": shown, "scenarios": [e for e, _, _ in found]}, ensure_ascii=False, indent=2)
        )
    else:
        rules = Rules(corpus, site)
        deciding: set[str] = set()
        for entry, name, where in found:
            for line in account(entry, name, where, rules):
                print(line)
            print()
            deciding.update(deciding_rules(entry))
        for line in applied_rules(rules, deciding):
            print(line)
    statuses = [str(entry.get("status")) for entry, _, _ in found]
    passed = sum(s == "passed" for s in statuses)
    if not args.json:
        print(f"Итого сценариев: {len(statuses)}, прошли {passed}, не прошли {len(statuses) - passed}.")
    if args.html:
        out = Path(args.html)
        problem = html_target_problem(out, path)  # the file may have appeared while the game ran
        if problem:
            raise UserError(problem)
        write_atomically(out, page(results, shown, found, root, corpus, site))
        if not args.json:
            print(f"Страница с партиями по шагам: {args.html}")
    return 0 if passed == len(statuses) else 1
