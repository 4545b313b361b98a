"""The comparison matrix: several engines' results files side by side.

:func:`load_runs` reads results files (each validated, each an engine); :func:`build` makes the
matrix: every rule the scenarios check × every engine, with the rule's status on that engine (the
worst of its scenarios: error, failed, not run, known failure, skipped, passed) and how many of
its scenarios passed; per-Part scenario counts; and each engine's failures (the view engine
authors ask for first). Rendered as text (``berserk-rules matrix``), as HTML (the site's
«Матрица движков» page) and as SVG badges (passed / total per Part).
"""

from __future__ import annotations

import html
import re
from collections import defaultdict
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from berserk_rules.corpus.model import Corpus, part_of_id
from berserk_rules.errors import UserError
from berserk_rules.report.coverage import PART_FOLDER, part_name
from berserk_rules.report.results import read_results

ORDER = ("error", "failed", "xpass", "not run", "xfail", "skipped", "not applicable", "passed")  # worst first
SYMBOLS = {
    "passed": "✓",
    "failed": "✗",
    "xpass": "✗",
    "error": "!",
    "xfail": "~",
    "skipped": "-",
    "not run": "·",
    "not applicable": "∅",
}
NAMES = {
    "passed": "проходит",
    "failed": "падает",
    "xpass": "неожиданно проходит",
    "error": "ошибка движка",
    "xfail": "известная ошибка",
    "skipped": "пропущено",
    "not run": "не запускалось",
    "not applicable": "не применимо",
}
FAILING = ("failed", "error", "xpass")
# a rule's cell: the worst status among its scenarios and how many of them passed («∅ 4/5»)
LEGEND_TAIL = (
    "у правила — худший статус его сценариев и число прошедших из всех: «∅ 4/5» — четыре из пяти прошли, "
    "остальные не применимы к движку."
)


@dataclass
class Run:
    label: str
    file: str
    data: dict[str, Any]


def load_runs(paths: list[Path], read: Callable[[Path], dict[str, Any] | None] = read_results) -> list[Run]:
    """One :class:`Run` per results file, labelled «name version» (the file name when two clash);
    ``read``: how a file is read (the site passes the run it has already read)."""
    runs: list[Run] = []
    for path in paths:
        data = read(path)
        if data is None:
            raise UserError(f"{path}: нет такого файла результатов")
        engine = data.get("engine") or {}
        label = " ".join(str(engine[k]) for k in ("name", "version") if engine.get(k)) or path.stem
        runs.append(Run(label, str(path), data))
    labels = [r.label for r in runs]
    for run in runs:
        if labels.count(run.label) > 1:
            run.label = f"{run.label} ({Path(run.file).name})"
    return runs


def worst(statuses: list[str]) -> str:
    return min(statuses, key=ORDER.index) if statuses else "not run"


def _rule_key(rule: str) -> tuple[Any, ...]:
    return tuple(int(p) if p.isdigit() else 10**6 for p in re.split(r"[.\-]", rule)), rule


def build(runs: list[Run], corpus: Corpus | None = None) -> dict[str, Any]:
    """The matrix as data (also what ``matrix --json`` prints)."""
    parts_of = {e.id: e.part for e in corpus.entries} if corpus is not None else {}
    by_rule: dict[str, list[list[str]]] = defaultdict(lambda: [[] for _ in runs])
    parts: dict[int | None, list[dict[str, int]]] = defaultdict(
        lambda: [{"passed": 0, "total": 0, "not_applicable": 0} for _ in runs]
    )
    failures: list[list[dict[str, Any]]] = [[] for _ in runs]
    for index, run in enumerate(runs):
        for scenario in run.data.get("scenarios", []):
            status = scenario["status"]
            for rule in scenario.get("rules", []):
                by_rule[rule][index].append(status)
            # the Part as check's summary counts it: the features/part-N folder, else the first rule's
            folder = PART_FOLDER.search(Path(str(scenario.get("file", ""))).as_posix())
            rules = scenario.get("rules") or [""]
            part = (
                int(folder.group(1))
                if folder
                else parts_of.get(rules[0], part_of_id(rules[0]) if rules[0] else None)
            )
            parts[part][index]["total"] += 1
            parts[part][index]["passed"] += status == "passed"
            parts[part][index]["not_applicable"] += status == "not applicable"
            if status in FAILING:
                message = (scenario.get("message") or "").strip().splitlines()
                failures[index].append(
                    {
                        "id": scenario["id"],
                        "name": scenario.get("name", scenario["id"]),
                        "rules": scenario.get("rules", []),
                        "status": status,
                        "message": message[0][:300] if message else "",
                    }
                )
    rules = []
    for rule in sorted(by_rule, key=_rule_key):
        cells = [
            {"status": worst(statuses), "passed": statuses.count("passed"), "total": len(statuses)}
            for statuses in by_rule[rule]
        ]
        rules.append({"id": rule, "part": parts_of.get(rule, part_of_id(rule)), "cells": cells})
    return {
        "engines": [
            {"label": r.label, "file": r.file, "engine": r.data.get("engine"), "suite": r.data.get("suite")}
            for r in runs
        ],
        "rules": rules,
        "parts": [
            {"part": part, "cells": parts[part]} for part in sorted(parts, key=lambda p: (p is None, p or 0))
        ],
        "failures": [{"engine": r.label, "scenarios": failures[i]} for i, r in enumerate(runs)],
    }


# --- text ----------------------------------------------------------------------------------------


def part_cell(cell: dict[str, Any]) -> str:
    """«passed/total», and the scenarios not applicable to the engine apart: «19/73 (∅ 54)»."""
    apart = cell.get("not_applicable", 0)
    return f"{cell['passed']}/{cell['total']}" + (f" ({SYMBOLS['not applicable']} {apart})" if apart else "")


def text_table(matrix: dict[str, Any]) -> str:
    from berserk_rules.report.coverage import format_table

    labels = [e["label"] for e in matrix["engines"]]
    rows = [[part_name(p["part"]), *(part_cell(c) for c in p["cells"])] for p in matrix["parts"]]
    lines = ["Сценарии, прошедшие по частям:", format_table(["Часть", *labels], rows), ""]
    rows = [
        [r["id"], *(f"{SYMBOLS[c['status']]} {c['passed']}/{c['total']}" for c in r["cells"])]
        for r in matrix["rules"]
    ]
    lines += ["Правила × движки:", format_table(["Правило", *labels], rows)]
    legend = ", ".join(f"{SYMBOLS[s]} {NAMES[s]}" for s in ORDER if s != "xpass")
    lines += [f"{legend} (от худшего к лучшему); {LEGEND_TAIL}"]
    return "\n".join([*lines, suite_line(matrix)])


def suite_line(matrix: dict[str, Any]) -> str:
    """The suite's version the runs used; when they differ, each engine's (they ran other scenarios)."""
    found = {str(e.get("suite") or "не указана") for e in matrix["engines"]}
    if len(found) == 1:
        return f"Набор сценариев: {found.pop()}."
    each = "; ".join(f"{e['label']} — {e.get('suite') or 'не указана'}" for e in matrix["engines"])
    return f"Наборы сценариев разные, сравнение неточно: {each}."


def text_failures(matrix: dict[str, Any], engine: str) -> str:
    """Only the failures of one engine (by label, a part of it, or its number from 1)."""
    entries = matrix["failures"]
    chosen = None
    if engine.isdigit() and 1 <= int(engine) <= len(entries):
        chosen = entries[int(engine) - 1]
    else:
        found = [e for e in entries if engine.casefold() in e["engine"].casefold()]
        chosen = found[0] if len(found) == 1 else None
    if chosen is None:
        known = "; ".join(f"{i}: {e['engine']}" for i, e in enumerate(entries, start=1))
        raise UserError(f"--failures {engine}: движок не найден или найден не один; движки: {known}")
    if not chosen["scenarios"]:
        return f"{chosen['engine']}: сбоев нет."
    lines = [f"{chosen['engine']}: сбоев {len(chosen['scenarios'])}"]
    for s in chosen["scenarios"]:
        lines.append(f"  {SYMBOLS[s['status']]} {s['id']}  [{', '.join(s['rules'])}]  {s['name']}")
        if s["message"]:
            lines.append(f"      {s['message']}")
    return "\n".join(lines)


# --- HTML and badges -----------------------------------------------------------------------------


def slug(label: str) -> str:
    return re.sub(r"[^0-9a-zа-яё]+", "-", label.casefold()).strip("-") or "engine"


def html_page(matrix: dict[str, Any], badges: str = "badges") -> str:
    """The matrix as an HTML fragment: badges, per-Part table, rules × engines, failures per engine."""
    esc = html.escape
    labels = [e["label"] for e in matrix["engines"]]
    out = ['<div class="berserk-matrix">']
    for label in labels:
        name = slug(label)
        imgs = "".join(
            f'<img src="{badges}/{name}-part-{p["part"]}.svg" alt="{esc(label)}: {part_name(p["part"])}">'
            for p in matrix["parts"]
            if p["part"] is not None
        )
        out.append(f'<p><img src="{badges}/{name}.svg" alt="{esc(label)}"> {imgs}</p>')
    head = "".join(f"<th>{esc(label)}</th>" for label in labels)
    out.append(f'<table class="berserk-matrix-parts"><thead><tr><th>Часть</th>{head}</tr></thead><tbody>')
    for p in matrix["parts"]:
        cells = "".join(f"<td>{part_cell(c)}</td>" for c in p["cells"])
        out.append(f"<tr><th>{esc(part_name(p['part']))}</th>{cells}</tr>")
    out.append("</tbody></table>")
    out.append(f'<table class="berserk-matrix-rules"><thead><tr><th>Правило</th>{head}</tr></thead><tbody>')
    for r in matrix["rules"]:
        cells = "".join(
            f'<td class="status-{c["status"].replace(" ", "-")}" title="{NAMES[c["status"]]}"'
            + (' style="color:#b71c1c;font-weight:bold">' if c["status"] in FAILING else ">")
            + f"{SYMBOLS[c['status']]} {c['passed']}/{c['total']}</td>"
            for c in r["cells"]
        )
        link = f'<a href="rules/part-{r["part"]}.html#rule-{esc(r["id"])}">{esc(r["id"])}</a>'
        out.append(f"<tr><th>{link}</th>{cells}</tr>")
    out.append("</tbody></table>")
    legend = ", ".join(f"{SYMBOLS[s]} — {NAMES[s]}" for s in ORDER if s != "xpass")
    out.append(f"<p>{legend} (от худшего к лучшему); {esc(LEGEND_TAIL)}</p>")
    out.append(f"<p>{esc(suite_line(matrix))}</p>")
    for entry in matrix["failures"]:
        out.append(f"<h3>Сбои: {esc(entry['engine'])} ({len(entry['scenarios'])})</h3>")
        if not entry["scenarios"]:
            out.append("<p>Сбоев нет.</p>")
            continue
        out.append("<ul>")
        for s in entry["scenarios"]:
            out.append(
                f"<li>{SYMBOLS[s['status']]} <code>{esc(s['id'])}</code> [{esc(', '.join(s['rules']))}] "
                f"{esc(s['name'])}<br><small>{esc(s['message'])}</small></li>"
            )
        out.append("</ul>")
    out.append("</div>")
    return "\n".join(out)


def badge(label: str, passed: int, total: int) -> str:
    """A flat SVG badge «label | passed/total», green when all pass, red when fewer than 80 %."""
    value = f"{passed}/{total}"
    colour = (
        "#2e7d32"
        if total and passed == total
        else ("#b26a00" if total and passed / total >= 0.8 else "#b71c1c")
    )
    left, right = 7 * len(label) + 12, 7 * len(value) + 12
    esc = html.escape
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{left + right}" height="20" role="img" '
        f'aria-label="{esc(label)}: {value}"><title>{esc(label)}: {value}</title>'
        f'<rect width="{left}" height="20" fill="#555"/><rect x="{left}" width="{right}" height="20" '
        f'fill="{colour}"/><g fill="#fff" font-family="DejaVu Sans,Verdana,sans-serif" font-size="11">'
        f'<text x="6" y="14">{esc(label)}</text><text x="{left + 6}" y="14">{value}</text></g></svg>'
    )


def write_badges(matrix: dict[str, Any], folder: Path) -> list[Path]:
    """Per engine: ``<slug>.svg`` (all scenarios) and ``<slug>-part-N.svg`` per Part."""
    folder.mkdir(parents=True, exist_ok=True)
    written = []
    for index, engine in enumerate(matrix["engines"]):
        name = slug(engine["label"])
        passed = sum(p["cells"][index]["passed"] for p in matrix["parts"])
        total = sum(p["cells"][index]["total"] for p in matrix["parts"])
        path = folder / f"{name}.svg"
        path.write_text(badge(engine["label"], passed, total), encoding="utf-8")
        written.append(path)
        for p in matrix["parts"]:
            if p["part"] is None:
                continue
            cell = p["cells"][index]
            path = folder / f"{name}-part-{p['part']}.svg"
            path.write_text(badge(part_name(p["part"]), cell["passed"], cell["total"]), encoding="utf-8")
            written.append(path)
    return written
