"""The suite's version, computed in one place: ``<semver>+sha.<12 hex>``, and its changelog.

* The semantic version is the one recorded in ``suite-manifest.json`` at the project root: the
  manifest of the last released version of the suite (its scenarios and their digests). The
  package's version in pyproject.toml is the same (tests/test_suite_version.py).
* The content hash is SHA-256 over every file of ``rules/`` and ``features/`` (path and bytes, in
  path order; hidden files and byte-code left out, as the wheel leaves them out: setup.py), cut to
  12 hex digits: two runs with one suite version ran the same corpus and the same scenarios.

The version goes into ``--version``, results (``suite``), vectors (the index and each vector),
JUnit (a property) and the matrix. :func:`changes` compares the features with the manifest (which
scenarios were added, changed or removed since the last version); :func:`release` writes the new
version's section of ``CHANGELOG-suite.md`` and records the new manifest
(``berserk-rules changelog``).
"""

from __future__ import annotations

import hashlib
import json
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from berserk_rules.errors import SourceError, UserError

MANIFEST = "suite-manifest.json"
MANIFEST_FORMAT = "berserk-suite-manifest/1"
CHANGELOG = "CHANGELOG-suite.md"
HASHED_FOLDERS = ("rules", "features")
HASH_DIGITS = 12
UNVERSIONED = "0.0.0"  # a project without a manifest (a test project, a fork before its first release)
SEMVER_RE = re.compile(r"(0|[1-9]\d*)\.(0|[1-9]\d*)\.(0|[1-9]\d*)")
CHANGELOG_TITLE = "# Изменения набора сценариев"
CHANGELOG_INTRO = (
    "Версия набора — `семантическая+sha.<хеш>`: хеш — SHA-256 содержимого `rules/` и `features/`\n"
    "(первые 12 знаков); она пишется в результаты, векторы, JUnit и матрицу. Этот файл пишет\n"
    "`berserk-rules changelog --release ВЕРСИЯ`: сценарии, добавленные, изменённые (шаги или теги)\n"
    "и удалённые по сравнению с `suite-manifest.json` — описью прошлой версии.\n"
)


def _hashed(path: Path, base: Path) -> bool:
    parts = path.relative_to(base).parts
    return not any(p.startswith(".") or p == "__pycache__" for p in parts) and path.suffix not in (
        ".pyc",
        ".pyo",
    )


def content_hash(root: Path) -> str:
    """The first 12 hex digits of SHA-256 over ``rules/`` and ``features/`` (paths and bytes)."""
    digest = hashlib.sha256()
    files = sorted(
        path
        for folder in HASHED_FOLDERS
        if (root / folder).is_dir()
        for path in (root / folder).rglob("*")
        if path.is_file() and _hashed(path, root)
    )
    for path in files:
        digest.update(path.relative_to(root).as_posix().encode())
        digest.update(b"\0")
        digest.update(path.read_bytes())
        digest.update(b"\0")
    return digest.hexdigest()[:HASH_DIGITS]


@dataclass(frozen=True)
class Manifest:
    """The record of a released version: its semver, content hash and scenario digests."""

    version: str
    content: str = ""
    scenarios: dict[str, str] = field(default_factory=dict)  # key (file::name) -> digest


def read_manifest(root: Path) -> Manifest | None:
    """``suite-manifest.json`` of ``root``; None when there is none; a broken one is a SourceError."""
    path = root / MANIFEST
    if not path.is_file():
        return None
    from berserk_rules.rulebook.project import read_utf8

    text = read_utf8(path, MANIFEST, "опись версии набора")
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise SourceError(MANIFEST, exc.lineno, f"некорректный JSON: {exc.msg}") from None
    if not isinstance(data, dict) or data.get("format") != MANIFEST_FORMAT:
        raise SourceError(MANIFEST, 1, f"ожидается объект с «format»: «{MANIFEST_FORMAT}»")
    version = data.get("version")
    if not isinstance(version, str) or not SEMVER_RE.fullmatch(version):
        raise SourceError(MANIFEST, None, f"«version» должна быть семантической версией X.Y.Z: {version!r}")
    scenarios = data.get("scenarios", {})
    if not isinstance(scenarios, dict) or not all(
        isinstance(k, str) and isinstance(v, str) for k, v in scenarios.items()
    ):
        raise SourceError(MANIFEST, None, "«scenarios» должен быть объектом «ключ сценария: хеш»")
    return Manifest(version, str(data.get("content", "")), dict(scenarios))


def suite_version(root: Path | None = None) -> str:
    """``<semver>+sha.<12 hex>`` of the project at ``root`` (default: the project found)."""
    if root is None:
        from berserk_rules.rulebook.project import project_root

        root = project_root()
    manifest = read_manifest(root)
    semver = manifest.version if manifest else UNVERSIONED
    return f"{semver}+sha.{content_hash(root)}"


# --- the changelog -------------------------------------------------------------------------------


@dataclass(frozen=True)
class Entry:
    """One scenario as the changelog names it."""

    key: str  # "features/part-4/401-ochered.feature::Имя сценария"
    digest: str
    labels: tuple[str, ...]  # "@rule-401.7", "@term-…"


def _step_text(step: dict[str, Any]) -> str:
    text = str(step.get("text", ""))
    argument = step.get("argument") or {}
    if "dataTable" in argument:
        rows = argument["dataTable"].get("rows", [])
        text += "\n" + "\n".join("|".join(c.get("value", "") for c in r.get("cells", [])) for r in rows)
    if "docString" in argument:
        text += "\n" + str(argument["docString"].get("content", ""))
    return text


def scenario_entries(root: Path) -> dict[str, Entry]:
    """Every scenario of ``root/features`` by key (file::name): its digest over the steps as run
    (background included, outline rows filled in, tables and doc strings) and tags."""
    from berserk_rules.rulebook.features import FEATURES_DIR, feature_files, parse_feature, scenario_refs

    entries: dict[str, Entry] = {}
    folder = root / FEATURES_DIR
    if not folder.is_dir():
        return entries
    for path in feature_files([folder]):
        parsed = parse_feature(path, root)
        refs = scenario_refs(parsed)
        for ref, pickle in zip(refs, parsed.pickles, strict=True):
            key = f"{ref.file}::{ref.name}"
            number = 2
            while key in entries:  # two scenarios of one name (lint says so): both are kept
                key = f"{ref.file}::{ref.name} #{number}"
                number += 1
            body = json.dumps(
                {"steps": [_step_text(s) for s in pickle.get("steps", [])], "tags": list(ref.tags)},
                ensure_ascii=False,
                sort_keys=True,
            )
            labels = tuple(f"@rule-{r}" for r in ref.rules) + tuple(f"@term-{t}" for t in ref.terms)
            entries[key] = Entry(key, hashlib.sha256(body.encode()).hexdigest()[:HASH_DIGITS], labels)
    return entries


@dataclass(frozen=True)
class Changes:
    added: list[Entry]
    changed: list[Entry]
    removed: list[str]  # keys of the manifest no longer in the features

    def __bool__(self) -> bool:
        return bool(self.added or self.changed or self.removed)


def changes(root: Path) -> tuple[Manifest | None, Changes]:
    """What changed in the features since the manifest (everything is «added» without one)."""
    manifest = read_manifest(root)
    recorded = manifest.scenarios if manifest else {}
    current = scenario_entries(root)
    added = [e for k, e in current.items() if k not in recorded]
    changed = [e for k, e in current.items() if k in recorded and recorded[k] != e.digest]
    removed = [k for k in recorded if k not in current]
    return manifest, Changes(added, changed, removed)


def _line(key: str, labels: tuple[str, ...] = ()) -> str:
    file, _, name = key.partition("::")
    tags = f" ({', '.join(labels)})" if labels else ""
    return f"- `{file}`: {name}{tags}"


def format_changes(found: Changes, first: bool = False, total: int = 0) -> str:
    """The changes as Markdown lists (a first version: the count of scenarios per folder)."""
    if first:
        per_folder: dict[str, int] = {}
        for entry in found.added:
            folder = entry.key.partition("::")[0].rsplit("/", 1)[0]
            per_folder[folder] = per_folder.get(folder, 0) + 1
        lines = [f"Первая версия: {total} сценариев.", ""]
        lines += [f"- `{folder}/`: {n}" for folder, n in sorted(per_folder.items())]
        return "\n".join(lines)
    if not found:
        return "Сценарии не менялись."
    blocks: list[str] = []
    for title, items in (
        ("Добавлены", [_line(e.key, e.labels) for e in found.added]),
        ("Изменены", [_line(e.key, e.labels) for e in found.changed]),
        ("Удалены", [_line(k) for k in found.removed]),
    ):
        if items:
            blocks.append(f"{title} ({len(items)}):\n\n" + "\n".join(items))
    return "\n\n".join(blocks)


def _semver(text: str) -> tuple[int, int, int]:
    found = SEMVER_RE.fullmatch(text)
    if not found:
        raise UserError(f"--release {text}: ожидается семантическая версия X.Y.Z (например 1.1.0)")
    return int(found[1]), int(found[2]), int(found[3])


def release(root: Path, version: str, date: str) -> str:
    """Record ``version``: its section first in CHANGELOG-suite.md, the new manifest, the same
    version in pyproject.toml. Returns the section written."""
    wanted = _semver(version)
    manifest, found = changes(root)
    if manifest is not None and wanted <= _semver(manifest.version):
        raise UserError(f"--release {version}: версия должна быть больше прошлой ({manifest.version})")
    current = scenario_entries(root)
    content = content_hash(root)
    body = format_changes(found, first=manifest is None, total=len(current))
    section = f"## {version} (sha.{content}, {date})\n\n{body}\n"
    path = root / CHANGELOG
    old = path.read_text(encoding="utf-8") if path.is_file() else ""
    earlier = old.split("\n## ", 1)[1] if "\n## " in old else ""
    text = f"{CHANGELOG_TITLE}\n\n{CHANGELOG_INTRO}\n{section}" + (f"\n## {earlier}" if earlier else "")
    path.write_text(text, encoding="utf-8")
    data = {
        "format": MANIFEST_FORMAT,
        "version": version,
        "content": content,
        "scenarios": {k: e.digest for k, e in sorted(current.items())},
    }
    (root / MANIFEST).write_text(json.dumps(data, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
    pyproject = root / "pyproject.toml"
    if pyproject.is_file():
        text = pyproject.read_text(encoding="utf-8")
        text = re.sub(r'(?m)^version = "[^"]*"', f'version = "{version}"', text, count=1)
        pyproject.write_text(text, encoding="utf-8")
    return section
