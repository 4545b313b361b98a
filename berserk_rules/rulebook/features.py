"""Scenario index: every scenario (and every outline row) of ``features/`` as a :class:`ScenarioRef`.

Feature files are parsed with the official Cucumber parser (gherkin-official, the one pytest-bdd
uses) with Russian as the default language, then compiled to *pickles*: one per scenario or per
Examples row, carrying the tags inherited from ``Функция`` and ``Правило``. The id of a scenario is
``<path relative to the project root>:<line>`` where the line is that of the scenario, or of the
Examples row for outline rows — the same id the pytest plugin writes into the results file.
"""

from __future__ import annotations

import functools
import json
import os
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from gherkin.errors import CompositeParserException, ParserError
from gherkin.parser import Parser
from gherkin.pickles.compiler import Compiler
from gherkin.token_matcher import TokenMatcher

from berserk_rules.errors import SourceError, UserError

FEATURES_DIR = "features"
DEFAULT_LANGUAGE = "ru"

RULE_TAG = "rule-"
TERM_TAG = "term-"
INTERPRETATION_TAG = "interpretation-"
EXAMPLE_TAG = "example"  # the scenario plays a ПРИМЕР of its rule's text


@dataclass(frozen=True)
class ScenarioRef:
    id: str  # "features/part-4/401-ochered.feature:57"
    name: str  # scenario name (outline rows: name + row values)
    file: str  # path relative to the project root, with "/" separators
    line: int  # line of the scenario, or of the Examples row
    rules: tuple[str, ...]  # from @rule-X tags (inherited from Функция/Правило)
    terms: tuple[str, ...]  # from @term-X tags
    interpretations: tuple[str, ...]  # from @interpretation-X tags
    tags: tuple[str, ...]  # every tag without "@", in order, without duplicates
    steps: tuple[str, ...]  # "Дано …" lines as written (keyword + text, background steps first)
    scenario_line: int = 0  # line of the Сценарий / Структура сценария keyword
    row: int | None = None  # 0-based index of the outline row over all Examples blocks, else None


@dataclass(frozen=True)
class ParsedFeature:
    """A parsed feature file: the AST (gherkin-official dicts) and its pickles."""

    path: Path
    rel: str
    text: str
    document: dict[str, Any]
    pickles: list[dict[str, Any]]

    @functools.cached_property
    def nodes(self) -> dict[str, dict[str, Any]]:
        """AST node id -> node (computed once: large files are walked once)."""
        return ast_nodes(self.document)


def relative_name(path: Path, root: Path) -> str:
    """``path`` relative to ``root`` with "/" separators (or the path itself when outside root)."""
    try:
        return path.resolve().relative_to(root.resolve()).as_posix()
    except ValueError:
        return path.as_posix()


# (name, text) -> the parsed feature: the site reads every feature twice (the scenario index and the
# feature pages), and parsing is most of that time. The parse depends on nothing else; callers only
# read what it returns.
_PARSED: dict[tuple[str, str], ParsedFeature] = {}
# The site build (``berserk-rules site``) and ``check`` (its own lint, and the pytest run it starts:
# ``--berserk-parse-cache``) also keep parses on disk (``_StoredParse``, under ``build/.cache/`` of
# where their output goes); other commands write nothing but what they are asked to.
DISK_CACHE = False
# the folder whose ``build/.cache/features/`` keeps them: None — where the command's output goes
# (``project.output_root``); the pytest run ``check`` starts is told (its current folder is the project's)
CACHE_ROOT: Path | None = None


def parse_feature(path: Path, root: Path) -> ParsedFeature:
    """Parse one feature file; syntax errors raise :class:`SourceError` at the first error's line."""
    from berserk_rules.rulebook.project import read_utf8

    rel = relative_name(path, root)
    text = read_utf8(path, rel, plain=True)
    cached = _PARSED.get((rel, text))
    if cached is not None and cached.path == path:
        return cached
    stored = _disk_cache(root, rel, text) if DISK_CACHE else None
    found = stored.load() if stored is not None else None
    if found is not None:
        parsed = ParsedFeature(path=path, rel=rel, text=text, document=found[0], pickles=found[1])
    else:
        parsed = _parse_text(path, rel, text)
        if stored is not None:
            stored.save((parsed.document, parsed.pickles))
    if len(_PARSED) > 512:
        _PARSED.clear()
    _PARSED[(rel, text)] = parsed
    return parsed


@dataclass(frozen=True)
class _StoredParse:
    """A parse kept on disk under ``build/.cache/features/`` (of the project, or of the current folder
    for the installed suite) as JSON, named by the hash of the file's
    name, its text and the Gherkin parser's version: a changed file (or parser) is a new name, never a
    stale parse. Only a valid parse is kept; an unreadable or unwritable cache is no cache."""

    path: Path

    def load(self) -> tuple[dict[str, Any], list[dict[str, Any]]] | None:
        try:
            document, pickles = json.loads(self.path.read_text(encoding="utf-8"))
        except (OSError, ValueError, TypeError):
            return None
        if not isinstance(document, dict) or not isinstance(pickles, list):
            return None
        return document, pickles

    def save(self, value: tuple[dict[str, Any], list[dict[str, Any]]]) -> None:
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            temporary = self.path.with_name(f"{self.path.name}.{os.getpid()}.tmp")
            temporary.write_text(json.dumps(value, ensure_ascii=False), encoding="utf-8")
            os.replace(temporary, self.path)
        except OSError:
            pass


@functools.cache
def _gherkin_version() -> str | None:
    """The Gherkin parser's version (part of a kept parse's name), read once per process."""
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("gherkin-official")
    except PackageNotFoundError:
        return None


def _disk_cache(root: Path, rel: str, text: str) -> _StoredParse | None:
    import hashlib

    gherkin = _gherkin_version()
    if gherkin is None:
        return None
    from berserk_rules.rulebook.project import output_root

    key = hashlib.sha256(f"{gherkin}\0{rel}\0{text}".encode()).hexdigest()
    # the installed suite is read, never written: its parses go where the command's output goes
    return _StoredParse((CACHE_ROOT or output_root(root)) / "build" / ".cache" / "features" / f"{key}.json")


def _parse_text(path: Path, rel: str, text: str) -> ParsedFeature:
    try:
        document: dict[str, Any] = dict(Parser().parse(text, TokenMatcher(DEFAULT_LANGUAGE)))
    except ParserError as exc:
        errors = exc.errors if isinstance(exc, CompositeParserException) else [exc]
        first = errors[0]
        raise SourceError(
            rel, _error_line(first), f"синтаксическая ошибка Gherkin: {_error_message(first)}"
        ) from exc
    document["uri"] = rel
    pickles = [dict(p) for p in Compiler().compile(document)]  # type: ignore[arg-type]
    return ParsedFeature(path=path, rel=rel, text=text, document=document, pickles=pickles)


def syntax_errors(text: str) -> list[tuple[int, str]]:
    """Every syntax error of a feature text as (line, message), empty when it parses."""
    try:
        Parser().parse(text, TokenMatcher(DEFAULT_LANGUAGE))
    except CompositeParserException as exc:
        return [(_error_line(e), _error_message(e)) for e in exc.errors]
    except ParserError as exc:
        return [(_error_line(exc), _error_message(exc))]
    return []


def _error_line(exc: Exception) -> int:
    location = getattr(exc, "location", None) or {}
    return int(location.get("line") or 1)


TOKEN_NAMES = {
    "#EOF": "конец файла",
    "#Language": "строка «# language: ru»",
    "#TagLine": "тег",
    "#FeatureLine": "«Функция:»",
    "#RuleLine": "«Правило:»",
    "#BackgroundLine": "«Предыстория:»",
    "#ScenarioLine": "«Сценарий:»",
    "#ExamplesLine": "«Примеры:»",
    "#StepLine": "шаг",
    "#DocStringSeparator": 'блок текста (""")',
    "#TableRow": "строка таблицы",
    "#Other": "текст описания",
}


def _expected(names: str) -> str:
    wanted = [TOKEN_NAMES.get(n.strip(), n.strip()) for n in names.split(",")]
    return ", ".join(w for w in wanted if w not in ("#Comment", "#Empty"))


def _error_message(exc: Exception) -> str:
    """The parser's message in Russian (the line is reported separately)."""
    message = str(exc.args[0]) if exc.args else str(exc)
    if message.startswith("(") and "): " in message:
        message = message.split("): ", 1)[1]
    if message.startswith("expected: ") and ", got '" in message:
        names, got = message[len("expected: ") :].split(", got '", 1)
        got = got.removesuffix("'")
        return f"неожиданная строка «{got}»; здесь возможны: {_expected(names)}"
    if message.startswith("unexpected end of file, expected: "):
        return "файл кончился раньше времени; ожидается: " + _expected(message.split("expected: ", 1)[1])
    if message == "inconsistent cell count within the table":
        return "в строке таблицы другое число ячеек, чем в первой строке"
    return message


def ast_nodes(document: dict[str, Any]) -> dict[str, dict[str, Any]]:
    """Map of AST node id -> node (scenarios, steps, examples rows, tags) of a parsed document."""
    nodes: dict[str, dict[str, Any]] = {}

    def walk(value: Any) -> None:
        if isinstance(value, dict):
            node_id = value.get("id")
            if isinstance(node_id, str):
                nodes[node_id] = value
            for child in value.values():
                walk(child)
        elif isinstance(value, list):
            for child in value:
                walk(child)

    walk(document.get("feature") or {})
    return nodes


def tag_ids(tags: Iterable[str], prefix: str) -> tuple[str, ...]:
    """Ids of the tags of one family (``rule-401.7`` -> ``401.7``), in order, without duplicates."""
    out: list[str] = []
    for tag in tags:
        if tag.startswith(prefix) and tag[len(prefix) :] and tag[len(prefix) :] not in out:
            out.append(tag[len(prefix) :])
    return tuple(out)


def scenario_refs(parsed: ParsedFeature) -> list[ScenarioRef]:
    """The :class:`ScenarioRef` of every pickle of a parsed feature, in file order."""
    nodes = parsed.nodes
    refs: list[ScenarioRef] = []
    rows_seen: dict[str, int] = {}
    for pickle in parsed.pickles:
        ast_ids = pickle["astNodeIds"]
        scenario = nodes[ast_ids[0]]
        tags: list[str] = []
        for tag in pickle["tags"]:
            name = tag["name"].removeprefix("@")
            if name not in tags:
                tags.append(name)
        steps = tuple(
            nodes[step["astNodeIds"][0]]["keyword"] + step["text"] for step in pickle.get("steps", [])
        )
        name = pickle["name"]
        row: int | None = None
        if len(ast_ids) > 1:
            values = [cell["value"] for cell in nodes[ast_ids[1]]["cells"]]
            name = f"{name} ({', '.join(values)})" if values else name
            row = rows_seen.get(ast_ids[0], 0)
            rows_seen[ast_ids[0]] = row + 1
        line = int(pickle["location"]["line"])
        refs.append(
            ScenarioRef(
                id=f"{parsed.rel}:{line}",
                name=name,
                file=parsed.rel,
                line=line,
                rules=tag_ids(tags, RULE_TAG),
                terms=tag_ids(tags, TERM_TAG),
                interpretations=tag_ids(tags, INTERPRETATION_TAG),
                tags=tuple(tags),
                steps=steps,
                scenario_line=int(scenario["location"]["line"]),
                row=row,
            )
        )
    return refs


def _check_links(folder: Path) -> None:
    """A symbolic link to a folder under ``folder`` is an error: pytest-bdd's glob follows it (a
    link back up the tree makes every scenario run again and again), our index does not."""
    for dirpath, dirnames, _ in os.walk(folder):
        for name in dirnames:
            link = Path(dirpath) / name
            if not link.is_symlink():
                continue
            shown = link.relative_to(folder.parent).as_posix()
            try:
                target = link.resolve(strict=True)
            except (OSError, RuntimeError):
                raise SourceError(
                    shown, None, "символическая ссылка никуда не ведёт или ведёт по кругу"
                ) from None
            if link.parent.resolve() == target or target in link.parent.resolve().parents:
                why = "ведёт на папку выше по дереву — цикл: pytest-bdd обходил бы её снова и снова"
            else:
                why = "ведёт на папку: pytest-bdd заходит в неё, а lint и индекс сценариев — нет"
            raise SourceError(shown, None, f"символическая ссылка {why}; замените её самой папкой")


def feature_files(paths: Iterable[Path]) -> Iterator[Path]:
    """Every ``.feature`` file in the given files and folders, sorted within each folder.

    A symbolic link to a folder inside a given folder raises :class:`SourceError`.
    """
    for path in paths:
        if path.is_dir():
            _check_links(path)
            yield from sorted(p for p in path.rglob("*.feature") if p.is_file())
        elif path.is_file():
            yield path
        else:
            raise UserError(f"нет такого файла или папки: {path}")


def load_scenarios(root: Path | None = None) -> list[ScenarioRef]:
    """Every scenario of ``<root>/features`` (outline rows separately), in file and line order.

    ``root`` is the project root (default: :func:`berserk_rules.rulebook.project.project_root`). A feature
    file with a syntax error raises :class:`SourceError` (file:line).
    """
    if root is None:
        root = _project_root()
    features = root / FEATURES_DIR
    if not features.is_dir():
        return []
    refs: list[ScenarioRef] = []
    for path in feature_files([features]):
        refs.extend(scenario_refs(parse_feature(path, root)))
    return refs


def _project_root() -> Path:
    from berserk_rules.rulebook.project import project_root

    return project_root()
