"""What a site build reads, kept between builds: the scenario list (``site/data.py``)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from project_kit import PASSING, feature, make_project

from berserk_rules.rulebook import features
from berserk_rules.site import data


@pytest.fixture
def disk_cache(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(features, "DISK_CACHE", True)  # as while the site builds
    monkeypatch.setattr(data, "_SCENARIOS", {})


@pytest.mark.usefixtures("disk_cache")
def test_the_stored_scenario_list_is_the_parsed_one(tmp_path: Path) -> None:
    root = make_project(tmp_path, {"a.feature": feature(PASSING.format(name="Первый"))})
    first = data.cached_scenarios(root)
    stored = root / "build" / ".cache" / "site-scenarios.json"
    assert stored.is_file()
    data._SCENARIOS.clear()
    again = data.cached_scenarios(root)  # from the store
    assert again == first == features.load_scenarios(root)
    assert [ref.name for ref in again] == ["Первый"]
    assert isinstance(again[0].rules, tuple) and again[0].rules == ("306.1",)
    assert data.feature_titles(root) == {"features/a.feature": "Проба"}  # the generated page's title


@pytest.mark.usefixtures("disk_cache")
def test_a_changed_feature_file_or_store_is_read_again(tmp_path: Path) -> None:
    root = make_project(tmp_path, {"a.feature": feature(PASSING.format(name="Первый"))})
    data.cached_scenarios(root)
    (root / "features" / "a.feature").write_text(
        feature(PASSING.format(name="Второй"), PASSING.format(name="Третий")), encoding="utf-8"
    )
    data._SCENARIOS.clear()
    assert [ref.name for ref in data.cached_scenarios(root)] == ["Второй", "Третий"]
    stored = root / "build" / ".cache" / "site-scenarios.json"
    record = json.loads(stored.read_text(encoding="utf-8"))
    record["scenarios"][0]["name"] = "подменено"  # a store written for other files or other code
    record["digest"] = "0" * 64
    stored.write_text(json.dumps(record, ensure_ascii=False), encoding="utf-8")
    data._SCENARIOS.clear()
    assert [ref.name for ref in data.cached_scenarios(root)] == ["Второй", "Третий"]


def test_the_entry_index_is_kept_by_what_it_is_made_of(tmp_path: Path) -> None:
    """``build/.cache/site-entries.json``: the same parts and file bytes find the stored scripts; a
    changed byte of a rule file, other parts, or a broken store find nothing (the index is made anew)."""
    rules = tmp_path / "rules.md"
    rules.write_text("101.1. Текст.\n", encoding="utf-8")
    store = data.EntryStore.at(tmp_path, [5, {"1": "Часть 1"}], [rules])
    assert store is not None and store.load() is None
    store.save(("window.A = 1;\n", "window.B = 2;\n"))
    again = data.EntryStore.at(tmp_path, [5, {"1": "Часть 1"}], [rules])
    assert again is not None and again.load() == ("window.A = 1;\n", "window.B = 2;\n")
    other = data.EntryStore.at(tmp_path, [5, {"1": "Часть первая"}], [rules])
    assert other is not None and other.load() is None
    rules.write_text("101.1. Текст!\n", encoding="utf-8")
    changed = data.EntryStore.at(tmp_path, [5, {"1": "Часть 1"}], [rules])
    assert changed is not None and changed.load() is None
    store.path.write_text("{broken", encoding="utf-8")
    assert store.load() is None
    assert data.EntryStore.at(tmp_path, [5], [tmp_path / "нет-файла.md"]) is None
