"""What a run gives beyond the summary: test vectors (``export``), JUnit XML, the matrix."""

from __future__ import annotations

import json
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from berserk_rules.cli import main
from tests.project_kit import CARD, PASSING, feature, make_project


@pytest.fixture
def project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    root = make_project(tmp_path / "p", {"hod.feature": feature(PASSING.format(name="проходит"))})
    monkeypatch.chdir(root)
    return root


def test_export_writes_valid_vectors_and_lists_what_it_cannot_express(
    project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["export", "vectors"]) == 0
    out = capsys.readouterr().out
    index = json.loads((project / "vectors" / "index.json").read_text(encoding="utf-8"))
    assert [v["path"] for v in index["vectors"]] == ["hod/5.json"]
    vector = json.loads((project / "vectors" / "hod" / "5.json").read_text(encoding="utf-8"))
    assert vector["format"] == "berserk-vector/2"
    assert set(vector["needs"]) == {"parts", "rules", "terms", "decisions", "actions"}
    assert vector["needs"]["rules"] == vector["rules"] and vector["needs"]["actions"] == ["end_turn"]
    assert vector["position"]["start"] == "choice"
    assert vector["unexpressed"] == ["Тогда игроку А доступны действия: передача хода"]
    assert "Тогда игроку А доступны действия: передача хода — 1 сценарий" in out
    # a second export replaces the first; a folder of something else is refused
    assert main(["export", "vectors"]) == 0
    (project / "other").mkdir()
    (project / "other" / "notes.txt").write_text("мои записи", encoding="utf-8")
    assert main(["export", "other"]) == 2
    assert "папка не пуста и это не прежний экспорт" in capsys.readouterr().err
    assert (project / "other" / "notes.txt").exists()


def test_junit_xml_from_the_same_run(project: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (project / "features" / "hod.feature").write_text(
        feature(
            PASSING.format(name="проходит"),
            CARD.format(name="падает", card="Гном").replace("передача хода", "атака ударом"),
        ),
        encoding="utf-8",
    )
    assert main(["check", "--junit", "build/junit.xml"]) == 1
    suites = ET.parse(project / "build" / "junit.xml").getroot()
    assert (suites.get("tests"), suites.get("failures"), suites.get("errors")) == ("2", "1", "0")
    cases = {c.get("name"): c for c in suites.iter("testcase")}
    assert cases["проходит"].find("failure") is None
    failure = cases["падает"].find("failure")
    assert failure is not None and "доступные действия" in (failure.text or "")
    assert [p.get("value") for p in cases["падает"].iter("property") if p.get("name") == "rule"] == ["306.1"]


def two_engines(tmp: Path) -> list[Path]:
    """Results of two engines: the second fails one scenario and errors another."""
    scenarios = [
        {
            "id": "features/a.feature:5",
            "name": "раз",
            "rules": ["401.3"],
            "status": "passed",
            "message": None,
        },
        {
            "id": "features/a.feature:9",
            "name": "два",
            "rules": ["401.3"],
            "status": "passed",
            "message": None,
        },
        {
            "id": "features/b.feature:5",
            "name": "три",
            "rules": ["303.1"],
            "status": "passed",
            "message": None,
        },
    ]
    other = json.loads(json.dumps(scenarios))
    other[1].update(status="failed", message="AssertionError: Очередь не та\nподробности")
    other[2].update(status="error", message="decision(): движок завершился (сигнал SIGSEGV (11))")
    paths = []
    for name, data in (("Эталон", scenarios), ("Чужой", other)):
        path = tmp / f"{name}.json"
        path.write_text(
            json.dumps({"schema": 1, "engine": {"name": name, "version": "1"}, "scenarios": data})
        )
        paths.append(path)
    return paths


def test_matrix_puts_engines_side_by_side(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    paths = [str(p) for p in two_engines(tmp_path)]
    assert main(["matrix", *paths]) == 0
    out = capsys.readouterr().out
    rows = {line.split()[0]: line.split()[1:] for line in out.splitlines() if line[:3] in ("303", "401")}
    assert rows == {"303.1": ["✓", "1/1", "!", "0/1"], "401.3": ["✓", "2/2", "✗", "1/2"]}
    assert "Часть 4" in out and "2/2" in out
    assert main(["matrix", *paths, "--failures", "Чужой"]) == 0
    failures = capsys.readouterr().out.splitlines()
    assert failures[0] == "Чужой 1: сбоев 2"
    assert "      AssertionError: Очередь не та" in failures
    assert main(["matrix", *paths, "--failures", "3"]) == 2
    assert "движок не найден" in capsys.readouterr().err
    assert main(["matrix", *paths, "--json", "--badges", str(tmp_path / "badges")]) == 0
    data = json.loads(capsys.readouterr().out.split("\n", 1)[1])
    assert [e["label"] for e in data["engines"]] == ["Эталон 1", "Чужой 1"]
    svg = (tmp_path / "badges" / "чужой-1-part-4.svg").read_text(encoding="utf-8")
    assert "<title>Часть 4: 1/2</title>" in svg and "#b71c1c" in svg


def test_matrix_page_html(tmp_path: Path) -> None:
    from berserk_rules.report.matrix import build, html_page, load_runs

    page = html_page(build(load_runs(two_engines(tmp_path))))
    assert "<th>Эталон 1</th><th>Чужой 1</th>" in page
    assert 'href="rules/part-4.html#rule-401.3"' in page
    assert '<img src="badges/чужой-1.svg"' in page
    assert "<h3>Сбои: Чужой 1 (2)</h3>" in page and "<h3>Сбои: Эталон 1 (0)</h3>" in page
