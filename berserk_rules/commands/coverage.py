"""``berserk-rules coverage [--json] [--results]``: which corpus entries the scenarios check."""

from __future__ import annotations

import argparse
import json

from berserk_rules.commands._common import existing_results, warn_stale
from berserk_rules.corpus import load_corpus
from berserk_rules.report import coverage
from berserk_rules.report.results import load_results
from berserk_rules.rulebook.features import load_scenarios
from berserk_rules.rulebook.project import project_root

GLOSSARY_PART = 7


def run(args: argparse.Namespace) -> int:
    root = project_root()
    corpus = load_corpus(root)
    path = existing_results(root, args.results)
    scenarios = load_scenarios(root)
    results = load_results(path)
    warn_stale(results, scenarios, path, "coverage")
    items = coverage.compute(corpus, scenarios, results)
    if args.json:
        print(json.dumps(items, ensure_ascii=False, indent=2))
        return 0
    print(render(items, has_results=path.exists()))
    return 0


def _percent(part: int, whole: int) -> str:
    return f"{100 * part / whole:.0f}%" if whole else "—"


def render(items: list[dict], has_results: bool = True) -> str:
    """The per-part table printed by ``coverage``."""
    headers = [
        "Часть",
        "Правил",
        "Проверяемых",
        "Со сценариями",
        "Покрытие",
        "Все сценарии прошли",
        "Сценариев",
        "Прошли",
    ]
    rows: list[list[str]] = []
    totals = coverage.PartCoverage(0)
    for number, part in coverage.by_part(items, "rule").items():
        scenarios = sum(part.scenario_statuses.values())
        rows.append(
            [
                f"Часть {number}",
                str(part.testable + part.untestable),
                str(part.testable),
                str(part.covered),
                _percent(part.covered, part.testable),
                f"{part.passing} из {part.covered}",
                str(scenarios),
                str(part.scenario_statuses.get("passed", 0)),
            ]
        )
        totals.testable += part.testable
        totals.untestable += part.untestable
        totals.covered += part.covered
        totals.passing += part.passing
        for status, count in part.scenario_statuses.items():
            totals.scenario_statuses[status] = totals.scenario_statuses.get(status, 0) + count
    for part in coverage.by_part(items, "term").values():
        rows.append(
            [
                "Глоссарий",
                str(part.testable + part.untestable),
                str(part.testable),
                str(part.covered),
                _percent(part.covered, part.testable),
                f"{part.passing} из {part.covered}",
                str(sum(part.scenario_statuses.values())),
                str(part.scenario_statuses.get("passed", 0)),
            ]
        )
    lines = [coverage.format_table(headers, rows), ""]
    lines.append(
        f"Правила: {totals.covered} из {totals.testable} проверяемых покрыты сценариями "
        f"({_percent(totals.covered, totals.testable)}), у {totals.passing} все сценарии прошли; "
        f"непроверяемых: {totals.untestable}."
    )
    if not has_results:
        lines.append("Результатов прогона нет: запустите «berserk-rules check».")
    return "\n".join(lines)
