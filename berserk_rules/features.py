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

STATUSES = ("passed", "failed", "xfail", "xpass", "skipped", "error", "not run")


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
# The site build (``berserk-rules site``) also keeps parses on disk (``_StoredParse``); other commands
# write nothing but what they are asked to.
DISK_CACHE = False


def parse_feature(path: Path, root: Path) -> ParsedFeature:
    """Parse one feature file; syntax errors raise :class:`SourceError` at the first error's line."""
    from berserk_rules.project import read_utf8

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
    """A parse kept on disk under ``build/.cache/features/`` as JSON, named by the hash of the file's
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


def _disk_cache(root: Path, rel: str, text: str) -> _StoredParse | None:
    import hashlib
    from importlib.metadata import PackageNotFoundError, version

    try:
        gherkin = version("gherkin-official")
    except PackageNotFoundError:
        return None
    key = hashlib.sha256(f"{gherkin}\0{rel}\0{text}".encode()).hexdigest()
    return _StoredParse(root / "build" / ".cache" / "features" / f"{key}.json")


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

    ``root`` is the project root (default: :func:`berserk_rules.project.project_root`). A feature
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
    from berserk_rules.project import project_root

    return project_root()


RESULTS_SCHEMA = 1


def _results_line(text: str, needle: str) -> int | None:
    """1-based line of the first occurrence of ``needle`` in the results text (None if absent)."""
    index = text.find(needle)
    return text.count("\n", 0, index) + 1 if index >= 0 else None


def read_results(path: str | Path) -> dict[str, Any] | None:
    """The validated results document, or None when the file does not exist.

    Every malformation raises :class:`SourceError` naming the file (and the line when known): not
    JSON, not UTF-8, a folder, another schema version (an older or newer berserk-rules), a wrong
    shape of ``engine``/``summary``/``scenarios`` or of a scenario record.
    """
    from berserk_rules.project import read_utf8

    path = Path(path)
    if not path.exists():
        return None
    what = "файл результатов"
    text = read_utf8(path, what=what)
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise SourceError(path, exc.lineno, f"{what} — не JSON: {_json_message(exc)}") from None
    rerun = "перезапустите «berserk-rules check»"
    if not isinstance(data, dict):
        raise SourceError(path, 1, f"{what} должен быть JSON-объектом с полями schema и scenarios; {rerun}")
    schema = data.get("schema")
    if schema != RESULTS_SCHEMA:
        is_int = isinstance(schema, int) and not isinstance(schema, bool)
        if schema is None:
            why = f"без поля «schema» (старый формат); ожидается schema {RESULTS_SCHEMA}: {rerun}"
        elif is_int and schema < RESULTS_SCHEMA:
            why = f"старого формата (schema {schema}); ожидается schema {RESULTS_SCHEMA}: {rerun}"
        elif is_int:
            why = (
                f"более нового формата (schema {schema}), эта версия berserk-rules читает schema "
                f"{RESULTS_SCHEMA}: обновите berserk-rules или {rerun}"
            )
        else:
            why = f"с неверным полем «schema»: {schema!r}; ожидается {RESULTS_SCHEMA}: {rerun}"
        raise SourceError(path, _results_line(text, '"schema"'), f"{what} {why}")
    scenarios = data.get("scenarios")
    if not isinstance(scenarios, list):
        raise SourceError(
            path, _results_line(text, '"scenarios"'), f"в файле результатов нет списка «scenarios»; {rerun}"
        )
    for name in ("engine", "summary"):
        if name in data and not isinstance(data[name], dict):
            raise SourceError(path, _results_line(text, f'"{name}"'), f"поле «{name}» должно быть объектом")
    summary = data.get("summary") or {}
    for status, count in summary.items():
        if not isinstance(count, int) or isinstance(count, bool):
            raise SourceError(
                path, _results_line(text, f'"{status}"'), f"summary: «{status}» должно быть целым числом"
            )
    seen: set[str] = set()
    cursor = max(text.find('"scenarios"'), 0)
    for number, record in enumerate(scenarios, start=1):
        where = f"scenarios, запись №{number}"
        if not isinstance(record, dict) or not isinstance(record.get("id"), str) or not record["id"]:
            raise SourceError(path, None, f"{where}: нет строкового поля «id»")
        ident = record["id"]
        found = text.find(json.dumps(ident, ensure_ascii=False), cursor)
        cursor = found + 1 if found >= 0 else cursor
        ok = (
            ident not in seen
            and record.get("status") in STATUSES
            and (record.get("message") is None or isinstance(record.get("message"), str))
            and isinstance(record.get("duration", 0), int | float)
            and not isinstance(record.get("duration", 0), bool)
        )
        if ok:  # the line is counted only for a message (counting it for each record is quadratic)
            seen.add(ident)
            continue
        line = text.count("\n", 0, found) + 1 if found >= 0 else None
        if ident in seen:
            raise SourceError(path, line, f"{where}: сценарий {ident} записан дважды")
        seen.add(ident)
        if record.get("status") not in STATUSES:
            raise SourceError(
                path,
                line,
                f"{where} ({ident}): неизвестный статус {record.get('status')!r}; "
                f"допустимы: {', '.join(STATUSES)}",
            )
        message = record.get("message")
        if message is not None and not isinstance(message, str):
            raise SourceError(path, line, f"{where} ({ident}): «message» должно быть строкой или null")
        duration = record.get("duration", 0)
        if not isinstance(duration, int | float) or isinstance(duration, bool):
            raise SourceError(path, line, f"{where} ({ident}): «duration» должно быть числом")
    return data


def _json_message(exc: json.JSONDecodeError) -> str:
    messages = {
        "Expecting value": "ожидается значение",
        "Expecting property name enclosed in double quotes": "ожидается имя поля в двойных кавычках",
        "Expecting ',' delimiter": "пропущена запятая",
        "Expecting ':' delimiter": "пропущено двоеточие",
        "Extra data": "лишние данные после конца JSON",
        "Unterminated string starting at": "незакрытая строка",
        "Invalid control character at": "недопустимый управляющий символ",
    }
    return f"{messages.get(exc.msg, exc.msg)} (позиция {exc.colno})"


def load_results(path: str | Path) -> dict[str, dict[str, Any]]:
    """Scenario id -> its record (``status``, ``message``, ``duration``, …) from a results file.

    A missing file gives an empty map (nothing has run yet); a malformed one raises SourceError.
    """
    data = read_results(path)
    if data is None:
        return {}
    return {record["id"]: record for record in data["scenarios"]}


def load_results_file(path: str | Path) -> dict[str, Any] | None:
    """The whole results document (engine, summary, scenarios) or None when the file is absent."""
    return read_results(path)


def stale_results(results: dict[str, dict[str, Any]], scenarios: Iterable[ScenarioRef]) -> list[str]:
    """Ids in the results that name no scenario of ``features/`` (renamed, moved or deleted since)."""
    known = {ref.id for ref in scenarios}
    return [ident for ident in results if ident not in known]


SOURCE_FOLDERS = ("features", "rules", "docs", "engine", "berserk_rules", "tests", "tools")


def check_results_target(path: Path, root: Path) -> None:
    """Refuse a results path that would overwrite something else or cannot be written.

    A folder, a path under a file, a file of the project's sources (``features/``, ``rules/``,
    code, docs), an existing file that is not a results file, and a folder that cannot be written
    are each a :class:`UserError` — before anything runs, so nothing is overwritten.
    """
    import tempfile

    shown = relative_name(path, root)
    if path.is_dir():
        raise UserError(f"--results {shown}: это папка; укажите файл, например {shown}/results.json")
    for parent in path.parents:
        if parent.exists():
            if not parent.is_dir():
                raise UserError(f"--results {shown}: {relative_name(parent, root)} — файл, а не папка")
            existing = parent
            break
    else:  # pragma: no cover - "/" exists
        existing = Path("/")
    try:
        inside = path.resolve().relative_to(root.resolve()).parts
    except ValueError:
        inside = ()
    if inside and inside[0] in SOURCE_FOLDERS:
        raise UserError(
            f"--results {shown}: это папка исходников проекта ({inside[0]}/); результаты туда не пишутся"
        )
    if path.exists():
        try:
            with path.open("rb") as handle:
                head = handle.read(4096).decode("utf-8", "replace")
        except OSError as exc:
            raise UserError(f"--results {shown}: файл не читается ({exc.strerror or exc})") from None
        if not head.lstrip().startswith("{") or '"schema"' not in head:
            raise UserError(
                f"--results {shown}: файл уже есть и это не файл результатов berserk-rules — "
                "он не будет перезаписан; укажите другой путь"
            )
    try:
        with tempfile.NamedTemporaryFile(dir=existing, prefix=".berserk-write-test-"):
            pass
    except OSError as exc:
        raise UserError(
            f"--results {shown}: в папку {existing} нельзя писать ({exc.strerror or exc})"
        ) from None
