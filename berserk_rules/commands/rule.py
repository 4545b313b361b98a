"""``berserk-rules rule ID [--json] [--results]``: a rule or term, its variants and its scenarios."""

from __future__ import annotations

import argparse
import json
import re
from typing import Any

from berserk_rules.commands._common import existing_results, warn_stale
from berserk_rules.corpus import load_corpus
from berserk_rules.report.coverage import STATUS_NAMES, scenario_status, untestable_reason
from berserk_rules.report.results import load_results
from berserk_rules.rulebook.features import load_scenarios
from berserk_rules.rulebook.project import project_root

PREFIXES = ("@rule-", "rule-", "@term-", "term-")


def run(args: argparse.Namespace) -> int:
    root = project_root()
    corpus = load_corpus(root)
    query = args.id.strip()
    for prefix in PREFIXES:
        if query.startswith(prefix) and len(query) > len(prefix):
            query = query[len(prefix) :]
            break
    alias = corpus.alias(query)
    entry = alias[0] if alias else corpus.get(query)  # UserError with close ids when unknown
    if alias and not args.json:
        print(f"Номер {query} напечатан в {alias[1]}; в корпусе это правило {entry.id}.\n")
    path = existing_results(root, args.results)
    results = load_results(path)
    all_refs = load_scenarios(root)
    warn_stale(results, all_refs, path, "rule")
    field = "terms" if entry.kind == "term" else "rules"
    refs = [ref for ref in all_refs if entry.id in getattr(ref, field)]
    interpretations = [i for i in corpus.interpretations.values() if entry.id in i.rules]
    scenarios = [
        {
            "id": ref.id,
            "name": ref.name,
            "file": ref.file,
            "line": ref.line,
            "status": scenario_status(ref, results),
        }
        for ref in refs
    ]
    if args.json:
        data: dict[str, Any] = next(item for item in corpus.to_json() if item["id"] == entry.id)
        data["testable"] = untestable_reason(entry) is None
        data["variants_differ"] = variants_differ(entry)
        data["interpretations"] = [
            {
                "id": i.id,
                "title": i.title,
                "rules": list(i.rules),
                "text": plain(i.text),
                "file": i.file,
                "line": i.line,
            }
            for i in interpretations
        ]
        data["scenarios"] = scenarios
        print(json.dumps(data, ensure_ascii=False, indent=2))
        return 0
    print(render(corpus, entry, interpretations, scenarios))
    return 0


def variants_differ(entry: Any) -> bool:
    """True when the sources give different rule texts (examples aside)."""
    return len({v.text for v in entry.variants}) > 1


def examples_differ(entry: Any) -> bool:
    return len({tuple(v.examples) for v in entry.variants}) > 1


def _where(variant: Any) -> str:
    where = f"{variant.source}:{variant.line}"
    if variant.printed:
        where += f", номер «{variant.printed.strip()}»"
    else:
        where += ", без номера"
    return where


def _indented(lines: Any, indent: str) -> list[str]:
    return [indent + line for line in lines]


_ROLE = re.compile(r"\{[a-z-]+\}`([^`<]*?)(?:\s*<[^`>]*>)?`")


def plain(text: str) -> str:
    """MyST roles as plain words for the terminal: {rule}`401.7` → 401.7."""
    return _ROLE.sub(r"\1", text)


def render(corpus: Any, entry: Any, interpretations: list[Any], scenarios: list[dict[str, Any]]) -> str:
    out: list[str] = []
    if entry.kind == "term":
        out.append(f"Термин «{entry.title}» ({entry.id}) — глоссарий")
    else:
        kind = "заголовок раздела" if entry.heading else "правило"
        origin = "номер восстановлен редакцией" if entry.inferred else "официальный номер"
        out.append(f"{entry.id} — {kind}, {origin}")
        if entry.heading and entry.title:
            out.append(f"Раздел: {entry.id}. {entry.title}")
        elif entry.section:
            section = corpus.get(entry.section)
            out.append(f"Раздел: {section.id}. {section.title or ''}".rstrip())
        title = getattr(corpus, "titles", {}).get(entry.part)
        if title:
            out.append(f"Часть: {title}")
    out.append(f"В корпусе: {entry.file}:{entry.line}")
    reason = untestable_reason(entry)
    if reason:
        out.append(f"Не проверяется движком: {reason}")
    if entry.note:
        out.append(f"Примечание редакции: {entry.note}")

    variants = list(entry.variants)
    if len(variants) == 1:
        variant = variants[0]
        out += ["", f"Источник: {_where(variant)}", "Текст:", *_indented(variant.text.splitlines(), "  ")]
        if variant.examples:
            out += ["Примеры:", *_indented(variant.examples, "  ")]
    else:
        differ = variants_differ(entry)
        numbers = {v.printed.strip() if v.printed else None for v in variants}
        header = f"Варианты ({len(variants)})"
        notes = ["ТЕКСТЫ РАЗЛИЧАЮТСЯ" if differ else "тексты совпадают"]
        if examples_differ(entry):
            notes.append("примеры различаются")
        if None in numbers:
            notes.append("номер напечатан не во всех источниках")
        elif len(numbers) > 1:
            notes.append("номера напечатаны по-разному")
        out += ["", f"{header} — {', '.join(notes)}:"]
        first = tuple(variants[0].lines)
        for index, variant in enumerate(variants, start=1):
            out.append(f"  [{index}] {_where(variant)}")
            if index > 1 and tuple(variant.lines) == first:
                out.append("      (текст совпадает с [1])")
                continue
            out += _indented(variant.text.splitlines(), "      ")
            if variant.examples:
                out += ["      Примеры:", *_indented(variant.examples, "        ")]

    out.append("")
    if interpretations:
        out.append(f"Толкования ({len(interpretations)}):")
        for item in interpretations:
            out.append(f"  {item.id} «{item.title}» ({item.file}:{item.line})")
            out += _indented(plain(item.text).splitlines(), "      ")
    else:
        out.append("Толкований нет.")

    out.append("")
    if scenarios:
        out.append(f"Сценарии ({len(scenarios)}):")
        width = max(len(STATUS_NAMES.get(s["status"], s["status"])) for s in scenarios)
        for item in scenarios:
            status = STATUS_NAMES.get(item["status"], item["status"])
            out.append(f"  {status.ljust(width)}  {item['id']}  {item['name']}")
    elif reason:
        out.append("Сценариев нет (не проверяется движком).")
    elif entry.kind == "term":
        out.append("Сценариев нет: термин пока не проверен.")
    else:
        out.append("Сценариев нет: правило пока не проверено.")
    return "\n".join(out)
