"""Coverage of the corpus by scenarios: which rules and terms are checked, and how the checks went.

:func:`compute` is shared by ``berserk-rules coverage``, ``check`` and the site.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from berserk_rules.rulebook.features import ScenarioRef

HEADING_REASON = "заголовок раздела"
NOT_RUN = "not run"
FAILING = frozenset({"failed", "error", "xpass"})
PART_FOLDER = re.compile(r"(?:^|/)part-(\d+)(?:/|$)")
GLOSSARY_PART = 7  # the glossary: its terms are Part 7 of the corpus (features/part-7/)


def part_name(part: int | None) -> str:
    """A Part as every report names it (check's table, the matrix, its badges): Part 7 is the glossary."""
    if part is None:
        return "Вне частей"
    return "Глоссарий" if part == GLOSSARY_PART else f"Часть {part}"


STATUS_NAMES = {
    "passed": "прошёл",
    "failed": "упал",
    "error": "ошибка",
    "xfail": "известная ошибка",
    "xpass": "неожиданно прошёл",
    "skipped": "пропущен",
    NOT_RUN: "не запускался",
    "not applicable": "не применим",
}


def untestable_reason(entry: Any) -> str | None:
    """Why an entry cannot be checked by an engine (None when it can)."""
    if entry.untestable:
        return str(entry.untestable)
    if entry.kind == "rule" and entry.heading:
        return HEADING_REASON
    return None


def scenario_status(ref: ScenarioRef, results: Mapping[str, Mapping[str, Any]]) -> str:
    record = results.get(ref.id)
    return str(record.get("status") or NOT_RUN) if record else NOT_RUN


def compute(
    corpus: Any, scenarios: Iterable[ScenarioRef], results: Mapping[str, Mapping[str, Any]]
) -> list[dict[str, Any]]:
    """One dict per corpus entry (rules and terms, in corpus order)::

        {"id", "kind", "part", "heading", "testable", "reason", "scenarios": [
            {"id", "name", "file", "line", "status"}]}

    ``reason`` is present only when ``testable`` is false; ``status`` comes from ``results``
    (scenario id -> record, see :func:`berserk_rules.rulebook.features.load_results`), "not run" if absent.
    """
    by_rule: dict[str, list[ScenarioRef]] = {}
    by_term: dict[str, list[ScenarioRef]] = {}
    for ref in scenarios:
        for rule_id in ref.rules:
            by_rule.setdefault(rule_id, []).append(ref)
        for term in ref.terms:
            by_term.setdefault(term, []).append(ref)
    out: list[dict[str, Any]] = []
    for entry in corpus.entries:
        reason = untestable_reason(entry)
        refs = (by_term if entry.kind == "term" else by_rule).get(entry.id, [])
        item: dict[str, Any] = {
            "id": entry.id,
            "kind": entry.kind,
            "part": entry.part,
            "heading": bool(entry.heading),
            "testable": reason is None,
        }
        if reason is not None:
            item["reason"] = reason
        item["scenarios"] = [
            {
                "id": ref.id,
                "name": ref.name,
                "file": ref.file,
                "line": ref.line,
                "status": scenario_status(ref, results),
            }
            for ref in refs
        ]
        out.append(item)
    return out


@dataclass
class PartCoverage:
    part: int
    testable: int = 0  # testable entries
    covered: int = 0  # testable entries with at least one scenario
    passing: int = 0  # covered entries whose scenarios all passed (xfail excluded)
    untestable: int = 0
    scenario_statuses: dict[str, int] = field(default_factory=dict)  # distinct scenarios by status

    @property
    def ratio(self) -> float:
        return self.covered / self.testable if self.testable else 1.0


def by_part(items: Iterable[Mapping[str, Any]], kind: str = "rule") -> dict[int, PartCoverage]:
    """Per-part totals of :func:`compute` output for one kind of entry."""
    parts: dict[int, PartCoverage] = {}
    seen: dict[int, set[str]] = {}  # a scenario checking several rules of a part counts once
    for item in items:
        if item["kind"] != kind:
            continue
        part = parts.setdefault(int(item["part"]), PartCoverage(int(item["part"])))
        if not item["testable"]:
            part.untestable += 1
            continue
        part.testable += 1
        statuses = [s["status"] for s in item["scenarios"]]
        if statuses:
            part.covered += 1
            if all(status == "passed" for status in statuses):
                part.passing += 1
        for scenario in item["scenarios"]:
            if scenario["id"] in seen.setdefault(part.part, set()):
                continue
            seen[part.part].add(scenario["id"])
            part.scenario_statuses[scenario["status"]] = part.scenario_statuses.get(scenario["status"], 0) + 1
    return dict(sorted(parts.items()))


def scenario_part(ref: ScenarioRef | Mapping[str, Any], corpus: Any = None) -> int | None:
    """The Part a scenario belongs to: its ``features/part-N/`` folder, else the part of its first rule."""
    file = ref.file if isinstance(ref, ScenarioRef) else str(ref.get("file", ""))
    match = PART_FOLDER.search(Path(file).as_posix())
    if match:
        return int(match.group(1))
    rules = ref.rules if isinstance(ref, ScenarioRef) else tuple(ref.get("rules") or ())
    if corpus is not None:
        known = {entry.id: entry for entry in corpus.entries}
        for rule_id in rules:
            if rule_id in known:
                return int(known[rule_id].part)
    return None


def plural(count: int, one: str, few: str, many: str) -> str:
    """``plural(3, "сценарий", "сценария", "сценариев")`` -> "3 сценария"."""
    tail = count % 100
    if 11 <= tail <= 14:
        word = many
    elif tail % 10 == 1:
        word = one
    elif 2 <= tail % 10 <= 4:
        word = few
    else:
        word = many
    return f"{count} {word}"


def format_table(headers: list[str], rows: list[list[str]]) -> str:
    """A plain-text table: the first column left-aligned, the others right-aligned."""
    widths = [max(len(str(row[i])) for row in [headers, *rows]) for i in range(len(headers))]

    def line(row: list[str]) -> str:
        cells = [str(c).ljust(widths[0]) if i == 0 else str(c).rjust(widths[i]) for i, c in enumerate(row)]
        return "  ".join(cells).rstrip()

    rule = "  ".join("-" * w for w in widths)
    return "\n".join([line(headers), rule, *(line(r) for r in rows)])
