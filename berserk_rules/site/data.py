"""What a build of the site reads: the scenarios, the results of the latest run, the corpus and its
linker, each loaded once per build (or once per process until its files change).
"""

from __future__ import annotations

import hashlib
import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from weakref import WeakKeyDictionary

from sphinx.application import Sphinx
from sphinx.builders import Builder
from sphinx.environment import BuildEnvironment
from sphinx.util import logging

from berserk_rules.errors import UserError
from berserk_rules.site.nodes import GENERATED, GLOSSARY_PART, format_time

logger = logging.getLogger(__name__)

_SCENARIOS: dict[tuple[Any, ...], tuple[list[Any], dict[str, str]]] = {}
_PARSED: dict[tuple[Any, ...], Any] = {}
# The site's data of each build, by its build environment: directives have only the environment and
# page writers only the builder, and Sphinx 9 deprecates reaching the application through either
# (``BuildEnvironment.app``, ``Builder.app``, removed in Sphinx 11). Sphinx forks its readers and
# writers with the environment, so each process finds the same data under the same key.
_DATA_OF_BUILD: WeakKeyDictionary[BuildEnvironment, SiteData] = WeakKeyDictionary()


def cached_scenarios(root: Path) -> list[Any]:
    """:func:`~berserk_rules.rulebook.features.load_scenarios`, parsed once per process until a feature file
    changes (the site needs them on builder-inited, in every feature page and in the summary).

    While the site builds (``features.DISK_CACHE``), the list is also kept on disk between builds
    (:class:`ScenarioStore`): a build with no feature file changed does not walk 47 parses again."""
    return _scenarios_and_titles(root)[0]


def feature_titles(root: Path) -> dict[str, str]:
    """Each feature file's title (its «Функция:» name, else its path) by path, as the scenario list
    is kept: the generated pages need only these of the parses."""
    return _scenarios_and_titles(root)[1]


def _scenarios_and_titles(root: Path) -> tuple[list[Any], dict[str, str]]:
    from berserk_rules.rulebook import features

    folder = root / "features"
    files = sorted(folder.rglob("*.feature")) if folder.is_dir() else []
    key = (str(root), *((str(f), f.stat().st_mtime_ns, f.stat().st_size) for f in files))
    if key not in _SCENARIOS:
        store = scenario_store(root, key) if features.DISK_CACHE else None
        loaded = store.load() if store is not None else None
        if loaded is None:
            scenarios = features.load_scenarios(root)  # a bad file raises UserError: nothing is cached
            titles = {rel: feature_title(root, rel) for rel in sorted({ref.file for ref in scenarios})}
            loaded = (scenarios, titles)
            if store is not None:
                store.save(*loaded)
        _SCENARIOS.clear()
        _SCENARIOS[key] = loaded
    return _SCENARIOS[key]


def feature_title(root: Path, rel: str) -> str:
    try:
        return str(parsed_feature(root / rel, root).document["feature"]["name"])
    except (UserError, KeyError, TypeError):
        return rel


@dataclass(frozen=True)
class ScenarioStore:
    """The scenario list (and the files' titles) of one set of feature files, as JSON in
    ``build/.cache/site-scenarios.json``,
    under a digest of the files (path, time, size), of ``berserk_rules/rulebook/features.py`` (which makes the
    list and defines its records) and of the Gherkin parser's version: anything else is no store."""

    path: Path
    digest: str

    def load(self) -> tuple[list[Any], dict[str, str]] | None:
        import json

        from berserk_rules.rulebook.features import ScenarioRef

        try:
            stored = json.loads(self.path.read_text(encoding="utf-8"))
            if stored.get("digest") != self.digest:
                return None
            records: list[dict[str, Any]] = [
                {k: tuple(v) if isinstance(v, list) else v for k, v in record.items()}
                for record in stored["scenarios"]
            ]
            titles = {str(rel): str(title) for rel, title in stored["titles"].items()}
            return [ScenarioRef(**record) for record in records], titles
        except (OSError, ValueError, TypeError, AttributeError, KeyError):
            return None

    def save(self, scenarios: list[Any], titles: dict[str, str]) -> None:
        import dataclasses
        import json

        text = json.dumps(
            {
                "digest": self.digest,
                "scenarios": [dataclasses.asdict(ref) for ref in scenarios],
                "titles": titles,
            },
            ensure_ascii=False,
        )
        try:
            write_if_changed(self.path, text)
        except OSError:  # an unwritable cache is no cache
            pass


def scenario_store(root: Path, key: tuple[Any, ...]) -> ScenarioStore | None:
    import json
    from importlib.metadata import PackageNotFoundError, version

    from berserk_rules.rulebook import features

    try:
        gherkin = version("gherkin-official")
        code = Path(features.__file__).read_bytes()
    except (PackageNotFoundError, OSError):
        return None
    digest = hashlib.sha256(json.dumps([key, gherkin]).encode() + b"\0" + code).hexdigest()
    return ScenarioStore(root / "build" / ".cache" / "site-scenarios.json", digest)


def parsed_feature(path: Path, root: Path) -> Any:
    """:func:`~berserk_rules.rulebook.features.parse_feature`, once per process until the file changes."""
    from berserk_rules.rulebook.features import parse_feature

    stat = path.stat()
    key = (str(path), str(root), stat.st_mtime_ns, stat.st_size)
    if key not in _PARSED:
        _PARSED[key] = parse_feature(path, root)
    return _PARSED[key]


@dataclass
class SiteData:
    root: Path
    results_path: Path
    scenarios: list[Any] = field(default_factory=list)
    results: dict[str, dict[str, Any]] = field(default_factory=dict)
    run: dict[str, Any] | None = None
    by_kind: dict[str, dict[str, list[Any]]] = field(default_factory=dict)
    fingerprint: str = ""
    view_path: Path | None = None  # the results as the pages show them (no timings)
    # an edition's site: its entries whose text is not the one the scenarios were written for
    # ((kind, id) -> berserk_rules.rulebook.editions.Foreign) and those scenarios, kept out of by_kind
    foreign: dict[tuple[str, str], Any] = field(default_factory=dict)
    foreign_refs: dict[str, dict[str, list[Any]]] = field(default_factory=dict)
    # (file, line of the scenario) -> its scenarios (an outline: one per row), built on first use
    _at: dict[tuple[str, int], list[Any]] | None = field(default=None, repr=False)

    def scenarios_at(self, file: str, line: int) -> list[Any]:
        """The scenarios of the Gherkin scenario at ``file``:``line`` (an outline's rows), in order:
        found through an index built once per build, not by a walk over every scenario."""
        if self._at is None:
            at: dict[tuple[str, int], list[Any]] = {}
            for ref in self.scenarios:
                at.setdefault((ref.file, ref.scenario_line), []).append(ref)
            self._at = at
        return self._at.get((file, line), [])

    def status(self, scenario_id: str) -> str:
        record = self.results.get(scenario_id)
        return str(record.get("status") or "not run") if record else "not run"

    def message(self, scenario_id: str) -> str | None:
        record = self.results.get(scenario_id)
        message = record.get("message") if record else None
        return str(message) if message else None


def keep_site_data(app: Sphinx, data: SiteData) -> None:
    """The site's data for this build (on builder-inited): found by :func:`site_data` from the
    application, its builder or its build environment."""
    _DATA_OF_BUILD[app.env] = data


def built_site_data(owner: Sphinx | Builder | BuildEnvironment) -> SiteData | None:
    """The site's data of the build ``owner`` belongs to, or None before builder-inited."""
    env = owner if isinstance(owner, BuildEnvironment) else owner.env
    return _DATA_OF_BUILD.get(env)


def site_data(owner: Sphinx | Builder | BuildEnvironment) -> SiteData:
    """The site's data of this build, from the application, a page writer's builder or a directive's
    build environment."""
    data = built_site_data(owner)
    if data is None:  # loaded on builder-inited (berserk_rules.site.on_builder_inited)
        raise RuntimeError("berserk_rules.site: the site's data is read before builder-inited")
    return data


def project_root(config: Any, srcdir: str | Path) -> Path:
    """``berserk_root`` or, by default, the folder above the docs folder."""
    configured = config.berserk_root
    if configured:
        return Path(configured).resolve()
    return Path(srcdir).resolve().parent


def corpus_root(config: Any, srcdir: str | Path) -> Path:
    """The folder whose ``rules/`` is the corpus: ``berserk_corpus`` or, by default, the project root."""
    configured = config.berserk_corpus
    return Path(configured).resolve() if configured else project_root(config, srcdir)


def results_path(app: Sphinx, root: Path) -> Path:
    configured = app.config.berserk_results
    path = Path(configured) if configured else root / "build" / "results.json"
    return path if path.is_absolute() else (root / path)


def watched_files(root: Path) -> list[Path]:
    """Files whose change must re-read the pages that show scenarios, coverage or steps."""
    files: list[Path] = []
    for folder, pattern in (("features", "*.feature"), ("berserk_rules/steps", "*.py"), ("rules", "*.md")):
        base = root / folder
        if base.is_dir():
            files.extend(sorted(base.rglob(pattern)))
    return files


_RUNS: dict[tuple[str, int, int], dict[str, Any] | None] = {}


def read_run(path: Path) -> dict[str, Any] | None:
    """:func:`~berserk_rules.report.results.read_results`, parsed once per process until the file changes:
    ``berserk-rules site`` reads the run for its summary and the build reads it again (with ten
    times the scenarios, 1.4 s and 190 MB a parse). The document is shared: read it, never change it."""
    from berserk_rules.report.results import read_results

    try:
        stat = path.stat()
    except OSError:
        return read_results(path)  # absent: None; a folder or unreadable: its error
    key = (str(path.resolve()), stat.st_mtime_ns, stat.st_size)
    if key not in _RUNS:
        _RUNS.clear()
        _RUNS[key] = read_results(path)  # a broken file raises: nothing is kept
    return _RUNS[key]


def load_site_data(app: Sphinx) -> SiteData:
    root = project_root(app.config, app.srcdir)
    data = SiteData(root=root, results_path=results_path(app, root))
    try:
        data.scenarios = cached_scenarios(root)
    except UserError as exc:
        logger.warning("сценарии не загружены: %s", exc)
    try:
        data.run = read_run(data.results_path)
        # the records of that one read, by id (reading the file again would hold a second copy)
        data.results = {record["id"]: record for record in data.run["scenarios"]} if data.run else {}
    except UserError as exc:
        logger.warning("результаты не загружены: %s", exc)
    data.view_path = Path(app.doctreedir) / "berserk-view.json"
    write_view(data)
    by_kind: dict[str, dict[str, list[Any]]] = {"rule": {}, "term": {}, "interpretation": {}}
    for ref in data.scenarios:
        for kind, ids in (("rule", ref.rules), ("term", ref.terms), ("interpretation", ref.interpretations)):
            for ident in ids:
                by_kind[kind].setdefault(ident, []).append(ref)
    data.by_kind = by_kind
    digest = hashlib.sha256()
    for path in [data.view_path, *watched_files(root), *watched_files(corpus_root(app.config, app.srcdir))]:
        try:
            stat = path.stat()
            digest.update(f"{path}:{stat.st_mtime_ns}:{stat.st_size}\n".encode())
        except OSError:
            digest.update(f"{path}:-\n".encode())
    digest.update(
        f"{app.config.berserk_results}|{app.config.berserk_root}|{app.config.berserk_corpus}".encode()
    )
    data.fingerprint = digest.hexdigest()
    return data


VIEW_FIELDS = ("status", "message", "log", "position", "failed_step")


RUN_FIELDS = ("started", "finished", "duration")


def results_view(data: SiteData) -> str:
    """What the pages show of the results, as canonical JSON: statuses, messages, logs, positions.

    Timings (durations, start and end of the run) are left out: a re-run with the same outcome
    gives the same text, so no page is rebuilt. The time of the run reaches the pages through
    ``_static/berserk-run.js`` (see :func:`run_script`).
    """
    import json

    engine = (data.run or {}).get("engine") or {}
    view = {
        "engine": {k: engine.get(k) for k in ("name", "version", "driver")},
        "trace": bool((data.run or {}).get("trace")),  # the games step by step are shown (or not)
        "scenarios": {
            ident: {k: record.get(k) for k in VIEW_FIELDS if record.get(k) is not None}
            for ident, record in sorted(data.results.items())
        },
    }
    return json.dumps(view, ensure_ascii=False, sort_keys=True, separators=(",", ":")) + "\n"


VIEW_FORMAT = 2  # of berserk-view.json: a change writes it anew even when the results file is the same


def write_view(data: SiteData) -> None:
    """Write :func:`results_view` into ``data.view_path`` when it changed — computed only when the
    results file is not the one it was last computed from (its path, time and size, in a key file
    beside it): with ten times the scenarios the view is 25 MB of JSON to write and compare."""
    import json

    assert data.view_path is not None
    key_path = data.view_path.with_suffix(".key")
    try:
        stat = data.results_path.stat()
        source: list[Any] | None = [str(data.results_path.resolve()), stat.st_mtime_ns, stat.st_size]
    except OSError:
        source = None
    key = json.dumps([VIEW_FORMAT, VIEW_FIELDS, source, data.run is not None], ensure_ascii=False)
    if source is not None and data.view_path.is_file() and key_path.is_file():
        if key_path.read_text(encoding="utf-8") == key:
            return
    write_if_changed(data.view_path, results_view(data))
    write_if_changed(key_path, key)


def run_script(data: SiteData) -> str:
    """``berserk-run.js``: the time of the latest run, filled into the pages by ``berserk.js``."""
    import json

    run = {k: (data.run or {}).get(k) for k in RUN_FIELDS}
    if run["finished"]:
        run["finished_text"] = format_time(str(run["finished"]))
    return "window.BERSERK_RUN = " + json.dumps(run, ensure_ascii=False, sort_keys=True) + ";\n"


def feature_docname(rel: str) -> str:
    """``features/part-4/401-ochered.feature`` -> ``_generated/features/part-4/401-ochered``."""
    return f"{GENERATED}/{rel.removesuffix('.feature')}"


def write_if_changed(path: Path, text: str) -> None:
    """Write atomically, and only when the text changed (an unchanged page keeps its mtime)."""
    if path.exists() and path.read_text(encoding="utf-8") == text:
        return
    path.parent.mkdir(parents=True, exist_ok=True)
    temporary = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    temporary.write_text(text, encoding="utf-8")
    os.replace(temporary, path)


def part_docname(part: int) -> str:
    return "glossary" if part == GLOSSARY_PART else f"rules/part-{part}"


def part_title(app: Sphinx, part: int) -> str:
    title = app.env.titles.get(part_docname(part))
    return title.astext() if title is not None else f"Часть {part}"


def part_of_rule(rule_id: str) -> int:
    from berserk_rules.corpus.model import part_of_id

    return part_of_id(rule_id) or 0


@dataclass(frozen=True)
class EntryStore:
    """The two scripts of the entry index kept between builds (``build/.cache/site-entries.json``),
    named by a digest of what they are made of — the rule files' bytes, the part titles and pages,
    the search's words, the code of :mod:`.search` and :mod:`.lemmas` and pymorphy3's dictionary version:
    a full build of an unchanged corpus copies them instead of stemming and parsing the corpus again
    (0.5–0.7 s, at the very end of the build, where nothing runs beside it). An unreadable or
    unwritable store is no store."""

    path: Path
    digest: str

    @classmethod
    def at(cls, root: Path, parts: list[Any], files: list[Path]) -> EntryStore | None:
        """The store for an index made of ``parts`` (JSON data) and ``files`` (read whole: the rule
        files and the code that makes the index)."""
        import json
        from importlib.metadata import PackageNotFoundError, version

        digest = hashlib.sha256(json.dumps(parts, ensure_ascii=False, default=str).encode())
        try:
            for path in files:
                digest.update(path.name.encode() + b"\0" + path.read_bytes() + b"\0")
            digest.update(version("pymorphy3-dicts-ru").encode())
        except (OSError, PackageNotFoundError):
            return None
        return cls(root / "build" / ".cache" / "site-entries.json", digest.hexdigest())

    def load(self) -> tuple[str, str] | None:
        import json

        try:
            stored = json.loads(self.path.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return None
        if not isinstance(stored, dict) or stored.get("digest") != self.digest:
            return None
        scripts = stored.get("scripts")
        if not (isinstance(scripts, list) and len(scripts) == 2 and all(isinstance(x, str) for x in scripts)):
            return None
        return scripts[0], scripts[1]

    def save(self, scripts: tuple[str, str]) -> None:
        import json
        import os

        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            temporary = self.path.with_name(f"{self.path.name}.{os.getpid()}.tmp")
            temporary.write_text(
                json.dumps({"digest": self.digest, "scripts": list(scripts)}, ensure_ascii=False),
                encoding="utf-8",
            )
            os.replace(temporary, self.path)
        except OSError:
            return
