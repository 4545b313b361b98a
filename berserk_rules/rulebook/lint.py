"""Linter for the scenarios in ``features/``.

pytest-bdd happily runs a scenario that lost its steps to a misspelt keyword (the line becomes
description text and the scenario passes), drops one of two scenarios with the same name, and
ignores tags that name nothing. This module finds those traps with the official Gherkin parser and
the corpus, and reports them as ``file:line: [code] message`` in Russian.

Coverage of the corpus (rules without any scenario) is checked only when the whole ``features/``
folder is linted (no explicit paths): linting one file cannot tell whether a rule is covered.
"""

from __future__ import annotations

import difflib
import re
import tomllib
from collections import defaultdict
from collections.abc import Collection, Iterable, Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from berserk_rules.corpus import read_utf8, toml_error
from berserk_rules.errors import SourceError
from berserk_rules.rulebook.features import (
    EXAMPLE_TAG,
    FEATURES_DIR,
    INTERPRETATION_TAG,
    RULE_TAG,
    TERM_TAG,
    ParsedFeature,
    ScenarioRef,
    feature_files,
    parse_feature,
    relative_name,
    scenario_refs,
    syntax_errors,
)
from berserk_rules.rulebook.gherkin_keywords import suspicious_description

ERROR = "error"
INFO = "info"

# Tag families besides @rule- / @term- / @interpretation- that scenarios may carry. Every new family
# is added here deliberately (and, if it becomes a pytest marker, registered in the plugin):
# ``@example`` — the scenario plays a ПРИМЕР of the text of the rule it is tagged with.
ALLOWED_TAGS: frozenset[str] = frozenset({EXAMPLE_TAG})
ALLOWED_TAG_PREFIXES: tuple[str, ...] = ()
TAG_WORDS = "допустимы @rule-<номер>, @term-<термин>, @interpretation-<номер>, @example"

DEFAULT_REQUIRED_PARTS: tuple[int, ...] = (3, 4)

LANGUAGE_LINE = "# language: ru"


@dataclass(frozen=True)
class Problem:
    file: str
    line: int
    code: str
    message: str
    severity: str = ERROR

    def format(self) -> str:
        prefix = "" if self.severity == ERROR else "примечание: "
        return f"{self.file}:{self.line}: [{self.code}] {prefix}{self.message}"


@dataclass
class LintReport:
    problems: list[Problem] = field(default_factory=list)
    files: int = 0
    scenarios: int = 0
    coverage_checked: bool = False

    @property
    def errors(self) -> list[Problem]:
        return [p for p in self.problems if p.severity == ERROR]

    @property
    def infos(self) -> list[Problem]:
        return [p for p in self.problems if p.severity == INFO]

    def add(self, file: str, line: int, code: str, message: str, severity: str = ERROR) -> None:
        self.problems.append(Problem(file, line, code, message, severity))

    def sort(self) -> None:
        self.problems.sort(key=lambda p: (p.severity != ERROR, p.file, p.line, p.code))

    def summary(self) -> str:
        text = (
            f"Проверено файлов: {self.files}, сценариев: {self.scenarios}; "
            f"ошибок: {len(self.errors)}, примечаний: {len(self.infos)}"
        )
        if not self.coverage_checked:
            text += " (покрытие правил не проверялось: заданы отдельные пути)"
        return text

    def to_json(self) -> dict[str, Any]:
        return {
            "files": self.files,
            "scenarios": self.scenarios,
            "errors": len(self.errors),
            "info": len(self.infos),
            "coverage_checked": self.coverage_checked,
            "problems": [asdict(p) for p in self.problems],
        }


# --- helpers -------------------------------------------------------------------------------------


def required_parts(root: Path) -> tuple[int, ...]:
    """``[tool.berserk-rules] required-parts`` from pyproject.toml, default (3, 4)."""
    path = root / "pyproject.toml"
    if not path.exists():
        return DEFAULT_REQUIRED_PARTS
    try:
        data = tomllib.loads(read_utf8(path, "pyproject.toml"))
    except tomllib.TOMLDecodeError as exc:
        raise toml_error("pyproject.toml", exc) from None
    value = data.get("tool", {}).get("berserk-rules", {}).get("required-parts")
    if value is None:
        return DEFAULT_REQUIRED_PARTS
    if not isinstance(value, list) or not all(isinstance(v, int) for v in value):
        raise SourceError(
            path, None, "[tool.berserk-rules] required-parts должно быть списком номеров частей"
        )
    return tuple(value)


def _suggest(value: str, choices: Iterable[str]) -> str:
    close = difflib.get_close_matches(value, list(choices), n=3, cutoff=0.6)
    return f"; возможно: {', '.join(close)}" if close else ""


def _line_of(text_lines: Sequence[str], start: int, wanted: str) -> int:
    """1-based line of the first line at or after ``start`` whose stripped text equals ``wanted``."""
    for index in range(max(start - 1, 0), len(text_lines)):
        if text_lines[index].strip() == wanted:
            return index + 1
    return start


# --- the checks ----------------------------------------------------------------------------------


class _Context:
    """What the tag checks need from the corpus."""

    def __init__(self, corpus: Any) -> None:
        self.rules: dict[str, Any] = {}
        self.headings: set[str] = set()
        self.terms: dict[str, str] = {}
        self.interpretations: set[str] = set()
        if corpus is None:
            return
        for entry in corpus.entries:
            if entry.kind == "rule":
                if entry.heading:
                    self.headings.add(entry.id)
                else:
                    self.rules[entry.id] = entry
            elif entry.kind == "term":
                self.terms[entry.id] = entry.title or entry.id
        self.interpretations = set(corpus.interpretations)


def _check_tag(report: LintReport, rel: str, tag: dict[str, Any], ctx: _Context) -> None:
    name = tag["name"].removeprefix("@")
    line = tag["location"]["line"]
    families: tuple[tuple[str, str, Collection[str], str], ...] = (
        (RULE_TAG, "unknown-rule", ctx.rules, "правила {} нет в корпусе"),
        (TERM_TAG, "unknown-term", ctx.terms, "термина «{}» нет в глоссарии"),
        (
            INTERPRETATION_TAG,
            "unknown-interpretation",
            ctx.interpretations,
            "толкования {} нет в реестре rules/interpretations.md",
        ),
    )
    for prefix, code, known, missing in families:
        if not name.startswith(prefix):
            continue
        ident = name[len(prefix) :]
        if prefix == RULE_TAG and ident in ctx.headings:
            report.add(
                rel,
                line,
                "heading-tag",
                f"тег @{name}: {ident} — заголовок раздела, а не правило; укажите конкретное правило"
                + _suggest(ident, ctx.rules),
            )
        elif ident not in known:
            report.add(rel, line, code, f"тег @{name}: {missing.format(ident)}" + _suggest(ident, known))
        return
    if name not in ALLOWED_TAGS and not name.startswith(ALLOWED_TAG_PREFIXES):
        report.add(
            rel,
            line,
            "unknown-tag",
            f"неизвестный тег @{name}: {TAG_WORDS}",
        )


def _walk_blocks(feature: dict[str, Any]) -> Iterable[tuple[str, dict[str, Any]]]:
    """(kind, node) for the feature, its rules, backgrounds, scenarios and examples blocks."""
    yield "feature", feature
    yield from _walk_children(feature)


def _walk_children(parent: dict[str, Any]) -> Iterable[tuple[str, dict[str, Any]]]:
    """The blocks below a feature or a rule (Gherkin has no rule inside a rule)."""
    for child in parent.get("children", []):
        if "background" in child:
            yield "background", child["background"]
        elif "scenario" in child:
            yield "scenario", child["scenario"]
            for examples in child["scenario"].get("examples", []):
                yield "examples", examples
        elif "rule" in child:
            rule = child["rule"]
            yield "rule", rule
            yield from _walk_children(rule)


def check_language(rel: str, text: str, report: LintReport) -> None:
    lines = text.splitlines()
    first = lines[0].strip() if lines else ""
    if first.replace(" ", "") != LANGUAGE_LINE.replace(" ", ""):
        report.add(
            rel,
            1,
            "language",
            f"первая строка должна быть «{LANGUAGE_LINE}» (без неё pytest-bdd читает файл как английский)",
        )


def lint_feature(parsed: ParsedFeature, ctx: _Context, report: LintReport) -> list[ScenarioRef]:
    """Check one parsed feature file; return its scenarios."""
    rel = parsed.rel
    lines = parsed.text.splitlines()
    feature = parsed.document.get("feature")
    if not feature:
        report.add(rel, 1, "empty", "в файле нет «Функция:»")
        return []

    names: dict[str, int] = {}
    for kind, node in _walk_blocks(feature):
        line = node["location"]["line"]
        for tag in node.get("tags", []):
            _check_tag(report, rel, tag, ctx)
            if kind == "examples":
                report.add(
                    rel,
                    tag["location"]["line"],
                    "examples-tag",
                    f"тег {tag['name']} на блоке «Примеры»: pytest-bdd не передаёт такие теги плагину, "
                    "перенесите тег на сценарий",
                )
        cursor = line + 1  # description lines come in order: search on from the last one found
        for desc in (node.get("description") or "").splitlines():
            if not desc.strip():
                continue
            found = _line_of(lines, cursor, desc.strip())
            cursor = found + 1 if found >= cursor else cursor
            why = suspicious_description(desc)
            if why:
                why += "; строка стала описанием, и её шаг не выполняется"
                report.add(rel, found, "description-keyword", why)
        if kind == "rule" and not any(
            t["name"].startswith(("@" + RULE_TAG, "@" + TERM_TAG)) for t in node.get("tags", [])
        ):
            report.add(
                rel,
                line,
                "rule-block-untagged",
                f"блок «Правило: {node['name']}» без тега @rule-<номер> или @term-<термин>",
            )
        if kind == "scenario":
            if node["name"] in names:
                report.add(
                    rel,
                    line,
                    "duplicate-name",
                    f"сценарий «{node['name']}» уже есть в строке {names[node['name']]}: "
                    "pytest-bdd запустит только один из них",
                )
            else:
                names[node["name"]] = line
            if not node.get("steps"):
                report.add(rel, line, "no-steps", f"в сценарии «{node['name']}» нет шагов")
            elif node.get("examples") is not None and node["keyword"].strip() in (
                "Структура сценария",
                "Шаблон сценария",
            ):
                rows = sum(len(e.get("tableBody") or []) for e in node["examples"])
                if rows == 0:
                    report.add(
                        rel, line, "no-examples", f"в структуре сценария «{node['name']}» нет строк примеров"
                    )

    refs = scenario_refs(parsed)
    step_types = _step_types(parsed)
    checked: set[int] = set()
    scenario_nodes = {
        node["location"]["line"]: node for kind, node in _walk_blocks(feature) if kind == "scenario"
    }
    for ref in refs:
        node = scenario_nodes[ref.scenario_line]
        if ref.scenario_line in checked:
            continue
        checked.add(ref.scenario_line)
        pickle_types = step_types.get(ref.line, set())
        if node.get("steps") and "Outcome" not in pickle_types:
            report.add(
                rel,
                ref.scenario_line,
                "no-then",
                f"в сценарии «{node['name']}» нет шага «Тогда»: сценарий ничего не проверяет",
            )
        if not ref.rules and not ref.terms:
            report.add(
                rel,
                ref.scenario_line,
                "no-rule-tag",
                f"сценарий «{node['name']}» не привязан ни к одному правилу или термину (нужен тег "
                "@rule-<номер> или @term-<термин> на сценарии, правиле или функции)",
            )
        if EXAMPLE_TAG in ref.tags:
            if not ref.rules:
                report.add(
                    rel,
                    ref.scenario_line,
                    "example-no-rule",
                    f"сценарий-пример «{node['name']}» не отнесён к правилу: пример из текста правила "
                    "помечается и тегом @rule-<номер> этого правила",
                )
            if not (node.get("description") or "").strip():
                report.add(
                    rel,
                    ref.scenario_line,
                    "example-no-description",
                    f"сценарий-пример «{node['name']}» без описания: назовите пример и скажите, что "
                    "тестовые карты ведут себя ровно так, как в нём описано",
                )
        if ref.interpretations and not (node.get("description") or "").strip():
            report.add(
                rel,
                ref.scenario_line,
                "interpretation-no-why",
                f"сценарий «{node['name']}» опирается на толкование "
                f"({', '.join(ref.interpretations)}), но не объясняет почему: добавьте строку описания "
                "под заголовком сценария",
            )
    return refs


STEP_KINDS = {"Context": "given", "Action": "when", "Outcome": "then"}
PLACEHOLDER = re.compile(r"<([^<>\n]+)>")


def _registry() -> Any:
    """The step registry with every step of :mod:`berserk_rules.steps` registered."""
    import berserk_rules.steps.all  # noqa: F401  (registers every step)
    from berserk_rules.steps import registry

    return registry


def step_defined(kind: str, text: str) -> bool:
    """True when a step definition of ``kind`` ("given", "when", "then") matches ``text`` (two that
    match both count: running it says which)."""
    registry = _registry()
    try:
        return registry.lookup(kind, text) is not None
    except registry.AmbiguousStep:
        return True


def close_steps(kind: str, text: str) -> list[str]:
    """Patterns of the step definitions of ``kind`` closest to ``text`` (at most three)."""
    patterns = [step.pattern for step in _registry().STEPS if step.kind == kind]
    return difflib.get_close_matches(text, patterns, n=3, cutoff=0.5)


def undefined_step_message(keyword: str, text: str, kind: str, suggest: bool = True) -> str:
    """The Russian message for a step that no step definition matches.

    ``suggest``: name the closest steps of :mod:`berserk_rules.steps` (when those are the steps run).
    """
    message = f"нет определения шага «{keyword.strip()} {text}»"
    if not suggest:
        return message
    close = close_steps(kind, text)
    if close:
        message += "; похожие шаги: " + "; ".join(f"«{KIND_WORDS[kind]} {c}»" for c in close)
    else:
        message += " (все шаги — на странице сайта «Словарь шагов»)"
    return message


KIND_WORDS = {"given": "Дано", "when": "Когда", "then": "Тогда"}


def check_steps(parsed: ParsedFeature, report: LintReport, definitions: bool = True) -> None:
    """Steps pytest-bdd cannot run: a first step «И»/«Но»/«*», a step without definition,
    an outline placeholder ``<x>`` that no Examples column defines."""
    rel = parsed.rel
    feature = parsed.document.get("feature") or {}
    for kind, node in _walk_blocks(feature):
        if kind not in ("background", "scenario"):
            continue
        steps = node.get("steps") or []
        if steps and steps[0].get("keywordType") not in STEP_KINDS:
            report.add(
                rel,
                steps[0]["location"]["line"],
                "first-step",
                f"первый шаг «{steps[0]['keyword'].strip()} {steps[0]['text']}» должен начинаться с "
                "«Дано», «Когда» или «Тогда»: pytest-bdd не соберёт ни один сценарий",
            )
        examples = node.get("examples") or []
        if kind == "scenario" and examples:
            columns = {
                cell["value"] for e in examples for cell in (e.get("tableHeader") or {}).get("cells", [])
            }
            for step in steps:
                texts = [step["text"]]
                for row in (step.get("dataTable") or {}).get("rows", []):
                    texts += [cell["value"] for cell in row["cells"]]
                if step.get("docString"):
                    texts.append(step["docString"].get("content", ""))
                missing = sorted({m for t in texts for m in PLACEHOLDER.findall(t)} - columns)
                for name in missing:
                    report.add(
                        rel,
                        step["location"]["line"],
                        "undefined-placeholder",
                        f"в шаге «{step['keyword'].strip()} {step['text']}» параметр <{name}> не задан "
                        "ни одной колонкой «Примеры»" + _suggest(name, columns),
                    )
    if not definitions:
        return
    nodes = parsed.nodes
    reported: set[tuple[int, str]] = set()
    for pickle in parsed.pickles:
        for step in pickle.get("steps", []):
            step_kind = STEP_KINDS.get(str(step.get("type")))
            if step_kind is None:
                continue  # first step «И»: reported above
            ast_step = nodes[step["astNodeIds"][0]]
            line = int(ast_step["location"]["line"])
            outline_row = len(pickle["astNodeIds"]) > 1
            if outline_row and set(PLACEHOLDER.findall(step["text"])) & set(
                PLACEHOLDER.findall(ast_step["text"])
            ):
                continue  # an undefined placeholder, reported above
            if (line, step["text"]) in reported or step_defined(step_kind, step["text"]):
                continue
            reported.add((line, step["text"]))
            report.add(
                rel,
                line,
                "undefined-step",
                undefined_step_message(ast_step["keyword"], step["text"], step_kind),
            )


def _step_types(parsed: ParsedFeature) -> dict[int, set[str]]:
    """Line of each pickle (scenario or outline row) -> the types of its steps."""
    types: dict[int, set[str]] = defaultdict(set)
    for pickle in parsed.pickles:
        types[pickle["location"]["line"]].update(str(step.get("type")) for step in pickle.get("steps", []))
    return types


def lint(
    paths: Sequence[Path] | None = None,
    root: Path | None = None,
    corpus: Any = None,
    check_step_definitions: bool = True,
) -> LintReport:
    """Lint the given feature files/folders (default: all of ``<root>/features``).

    ``check_step_definitions``: also report steps that no definition of :mod:`berserk_rules.steps`
    matches (pytest-bdd's StepDefinitionNotFoundError, found before the run).
    """
    if root is None:
        from berserk_rules.corpus import project_root

        root = project_root()
    if corpus is None:
        from berserk_rules.corpus import load_corpus

        corpus = load_corpus(root)
    ctx = _Context(corpus)
    report = LintReport()
    whole = not paths
    targets = [root / FEATURES_DIR] if whole else list(paths or [])
    if whole and not targets[0].is_dir():
        targets = []
    covered: dict[str, list[ScenarioRef]] = defaultdict(list)
    for path in feature_files(targets):
        report.files += 1
        parsed = _read_and_parse(path, root, report, language=True)
        if parsed is None:
            continue
        refs = lint_feature(parsed, ctx, report)
        check_steps(parsed, report, definitions=check_step_definitions)
        report.scenarios += len(refs)
        for ref in refs:
            for rule_id in ref.rules:
                covered[rule_id].append(ref)

    if whole and corpus is not None:
        report.coverage_checked = True
        required = set(required_parts(root))
        for entry in corpus.entries:
            if entry.kind != "rule" or entry.heading or entry.untestable is not None:
                continue
            if entry.id in covered:
                continue
            if entry.part in required:
                report.add(
                    entry.file, entry.line, "uncovered", f"правило {entry.id} не проверено ни одним сценарием"
                )
            else:
                report.add(
                    entry.file,
                    entry.line,
                    "uncovered",
                    f"правило {entry.id} (часть {entry.part}) пока без сценариев",
                    INFO,
                )
    report.sort()
    return report


# Problems that stop pytest-bdd from collecting any scenario (it fails with an English traceback).
BLOCKING = ("unreadable", "syntax", "first-step")


def _read_and_parse(path: Path, root: Path, report: LintReport, language: bool) -> ParsedFeature | None:
    """Read and parse one feature file; None (with the problems reported) when it cannot be."""
    rel = relative_name(path, root)
    try:
        text = read_utf8(path, rel, plain=True)
    except SourceError as exc:
        report.add(rel, exc.line or 1, "unreadable", exc.message)
        return None
    if language:
        check_language(rel, text, report)
    try:
        return parse_feature(path, root)
    except SourceError as exc:
        errors = syntax_errors(text)
        if not errors:
            report.add(rel, exc.line or 1, "syntax", exc.message)
        for line, message in errors:
            report.add(rel, line, "syntax", f"синтаксическая ошибка Gherkin: {message}")
        return None


def blocking_problems(root: Path) -> list[Problem]:
    """The problems of ``<root>/features`` that would make pytest-bdd's collection fail."""
    report = LintReport()
    features = root / FEATURES_DIR
    for path in feature_files([features] if features.is_dir() else []):
        parsed = _read_and_parse(path, root, report, language=False)
        if parsed is not None:
            check_steps(parsed, report, definitions=False)
    report.sort()
    return [p for p in report.errors if p.code in BLOCKING]
