"""The suite's version (semver from suite-manifest.json + content hash) and its changelog, and the
version in every output: ``--version``, results, vectors, JUnit, the matrix."""

from __future__ import annotations

import json
import re
import tomllib
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from berserk_rules.cli import main
from berserk_rules.errors import SourceError, UserError
from berserk_rules.report.matrix import build as build_matrix
from berserk_rules.report.matrix import html_page, load_runs, text_table
from berserk_rules.rulebook import suite_version as sv
from berserk_rules.rulebook.project import project_root
from tests.project_kit import PASSING, feature, make_project

ROOT = project_root()
VERSION_RE = re.compile(r"\d+\.\d+\.\d+\+sha\.[0-9a-f]{12}")

OTHER = """\
  Сценарий: {name}
    Дано идёт фаза выбора игрока А
    Тогда игроку А доступны действия: передача хода, атака
"""


def small(tmp_path: Path, names: tuple[str, ...] = ("первый", "второй")) -> Path:
    return make_project(tmp_path / "p", {"hod.feature": feature(*(PASSING.format(name=n) for n in names))})


def test_the_project_has_a_version_and_pyproject_says_the_same() -> None:
    version = sv.suite_version(ROOT)
    assert VERSION_RE.fullmatch(version), version
    manifest = sv.read_manifest(ROOT)
    assert manifest is not None
    package = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]["version"]
    assert package == manifest.version == version.split("+")[0]
    changelog = (ROOT / sv.CHANGELOG).read_text(encoding="utf-8")  # the newest section: that version
    assert changelog.split("\n## ", 2)[1].startswith(f"{manifest.version} (sha.{manifest.content}, ")


def test_the_hash_follows_rules_and_features_and_nothing_else(tmp_path: Path) -> None:
    root = small(tmp_path)
    first = sv.content_hash(root)
    assert sv.content_hash(root) == first  # the same files, the same hash
    (root / "README.md").write_text("не часть набора\n", encoding="utf-8")
    (root / "features" / ".заметка").write_text("скрытый файл\n", encoding="utf-8")
    (root / "rules" / "__pycache__").mkdir()
    (root / "rules" / "__pycache__" / "x.pyc").write_bytes(b"\0")
    assert sv.content_hash(root) == first
    feature_file = root / "features" / "hod.feature"
    feature_file.write_text(feature_file.read_text(encoding="utf-8") + "\n", encoding="utf-8")
    changed = sv.content_hash(root)
    assert changed != first
    with (root / "rules" / "part-3.md").open("a", encoding="utf-8") as handle:
        handle.write("\n")
    assert sv.content_hash(root) not in (first, changed)
    (root / "features" / "hod.feature").rename(root / "features" / "hod2.feature")  # a path is content
    assert len({sv.content_hash(root), first, changed}) == 3


def test_without_a_manifest_the_version_is_0_0_0(tmp_path: Path) -> None:
    root = small(tmp_path)
    assert sv.suite_version(root) == f"0.0.0+sha.{sv.content_hash(root)}"


def test_release_and_changes(tmp_path: Path) -> None:
    root = small(tmp_path, ("первый", "второй", "третий"))
    manifest, found = sv.changes(root)
    assert manifest is None and len(found.added) == 3
    section = sv.release(root, "1.0.0", "2026-01-01")
    assert section.startswith(f"## 1.0.0 (sha.{sv.content_hash(root)}, 2026-01-01)")
    assert "Первая версия: 3 сценариев" in section
    assert sv.suite_version(root) == f"1.0.0+sha.{sv.content_hash(root)}"
    assert 'version = "1.0.0"' in (root / "pyproject.toml").read_text(encoding="utf-8")
    assert not sv.changes(root)[1]  # released: nothing new

    # «второй» changes its steps, «третий» goes, «четвёртый» comes
    text = feature(
        PASSING.format(name="первый"), OTHER.format(name="второй"), PASSING.format(name="четвёртый")
    )
    (root / "features" / "hod.feature").write_text(text, encoding="utf-8")
    manifest, found = sv.changes(root)
    assert manifest is not None and manifest.version == "1.0.0"
    assert [e.key for e in found.added] == ["features/hod.feature::четвёртый"]
    assert [e.key for e in found.changed] == ["features/hod.feature::второй"]
    assert found.removed == ["features/hod.feature::третий"]
    assert found.added[0].labels == ("@rule-306.1",)

    with pytest.raises(UserError, match="больше прошлой"):
        sv.release(root, "1.0.0", "2026-01-02")
    with pytest.raises(UserError, match="семантическая версия"):
        sv.release(root, "1.1", "2026-01-02")
    section = sv.release(root, "1.1.0", "2026-01-02")
    assert "Добавлены (1):\n\n- `features/hod.feature`: четвёртый (@rule-306.1)" in section
    assert "Изменены (1):\n\n- `features/hod.feature`: второй (@rule-306.1)" in section
    assert "Удалены (1):\n\n- `features/hod.feature`: третий" in section
    changelog = (root / sv.CHANGELOG).read_text(encoding="utf-8")
    assert changelog.startswith(sv.CHANGELOG_TITLE)
    assert changelog.index("## 1.1.0") < changelog.index("## 1.0.0")  # the newest first, the old kept
    assert changelog.count("## 1.0.0") == 1 and changelog.count(sv.CHANGELOG_INTRO) == 1
    assert sv.read_manifest(root).version == "1.1.0"  # type: ignore[union-attr]


def test_a_changed_table_is_a_changed_scenario(tmp_path: Path) -> None:
    card = "  Сценарий: с картой\n    Дано карты:\n      | название | тип | удар | жизни |\n"
    row = "      | Гном | существо | {} | 1 |\n    И идёт фаза выбора игрока А\n"
    row += "    Тогда игроку А доступны действия: передача хода\n"
    root = make_project(tmp_path / "p", {"t.feature": feature(card + row.format(1))})
    sv.release(root, "1.0.0", "2026-01-01")
    (root / "features" / "t.feature").write_text(feature(card + row.format(2)), encoding="utf-8")
    assert [e.key for e in sv.changes(root)[1].changed] == ["features/t.feature::с картой"]


def test_a_broken_manifest_is_named(tmp_path: Path) -> None:
    root = small(tmp_path)
    (root / sv.MANIFEST).write_text('{"format": "berserk-suite-manifest/1",\n "version": 1', encoding="utf-8")
    with pytest.raises(SourceError, match="некорректный JSON") as error:
        sv.suite_version(root)
    assert error.value.line == 2
    (root / sv.MANIFEST).write_text(
        '{"format": "berserk-suite-manifest/1", "version": "v1"}', encoding="utf-8"
    )
    with pytest.raises(SourceError, match="семантической версией"):
        sv.read_manifest(root)


def test_version_option(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as stop:
        main(["--version"])
    assert stop.value.code == 0
    out = capsys.readouterr().out
    assert out.startswith("berserk-rules ") and sv.suite_version(ROOT) in out


def test_changelog_command(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    root = small(tmp_path)
    monkeypatch.chdir(root)
    assert main(["changelog"]) == 0
    assert "все сценарии новые" in capsys.readouterr().out
    assert main(["changelog", "--release", "2.0.0", "--date", "2026-02-02"]) == 0
    assert (root / sv.CHANGELOG).read_text(encoding="utf-8").count("## 2.0.0 (sha.") == 1
    assert main(["changelog"]) == 0
    assert "изменения с версии 2.0.0" in capsys.readouterr().out
    assert main(["changelog", "--release", "1.9.9"]) == 2
    assert "больше прошлой (2.0.0)" in capsys.readouterr().err


def test_results_junit_vectors_and_matrix_carry_the_version(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    root = small(tmp_path, ("первый",))
    sv.release(root, "3.1.4", "2026-01-01")
    version = sv.suite_version(root)
    monkeypatch.chdir(root)
    assert main(["check", "--junit", "build/junit.xml"]) == 0
    assert f"\nНабор сценариев: {version}.\n" in capsys.readouterr().out  # the summary says it
    results = json.loads((root / "build" / "results.json").read_text(encoding="utf-8"))
    assert results["suite"] == version
    suites = ET.parse(root / "build" / "junit.xml").getroot().findall("testsuite")
    assert suites and all(
        s.find("properties/property[@name='berserk-suite']").get("value") == version  # type: ignore[union-attr]
        for s in suites
    )
    capsys.readouterr()
    assert main(["matrix", "build/results.json"]) == 0
    assert f"Набор сценариев: {version}." in capsys.readouterr().out
    assert main(["export", "vectors"]) == 0
    assert f"набор {version})" in capsys.readouterr().out
    index = json.loads((root / "vectors" / "index.json").read_text(encoding="utf-8"))
    assert index["suite"] == version
    vector = json.loads((root / "vectors" / index["vectors"][0]["path"]).read_text(encoding="utf-8"))
    assert vector["suite"] == version


def test_matrix_says_when_the_suites_differ(tmp_path: Path) -> None:
    paths = []
    for number, suite in enumerate(("1.0.0+sha.aaaaaaaaaaaa", "1.1.0+sha.bbbbbbbbbbbb")):
        path = tmp_path / f"r{number}.json"
        data = {"schema": 1, "engine": {"name": f"движок{number}"}, "suite": suite, "scenarios": []}
        path.write_text(json.dumps(data), encoding="utf-8")
        paths.append(path)
    matrix = build_matrix(load_runs(paths))
    assert [e["suite"] for e in matrix["engines"]] == ["1.0.0+sha.aaaaaaaaaaaa", "1.1.0+sha.bbbbbbbbbbbb"]
    assert text_table(matrix).splitlines()[-1] == (
        "Наборы сценариев разные, сравнение неточно: движок0 — 1.0.0+sha.aaaaaaaaaaaa; "
        "движок1 — 1.1.0+sha.bbbbbbbbbbbb."
    )
    assert "<p>Наборы сценариев разные, сравнение неточно: движок0 — 1.0.0+sha.aaaaaaaaaaaa;" in html_page(
        matrix
    )
