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
    assert vector["format"] == "berserk-vector/1"
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
