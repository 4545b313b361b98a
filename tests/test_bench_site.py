"""The generated suite of ``tools/bench_site.py``: ×N the scenarios, and a results file whose ids are
exactly the ids of the copy's scenarios (otherwise the larger site would show «не запускался» and
render no replays, and the comparison would flatter it)."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tools"))

import bench_site  # noqa: E402


@pytest.fixture(scope="module")
def project_refs() -> list[Any]:
    """The project's scenarios, parsed once for the module (both modes compare with them)."""
    from berserk_rules.rulebook.features import load_scenarios

    return load_scenarios(ROOT)


def small_results(tmp_path: Path, refs: list[Any]) -> Path:
    """A results file for the project's scenarios (status only; no engine run needed)."""
    records = [
        {"id": ref.id, "file": ref.file, "line": int(ref.id.rpartition(":")[2]), "status": "passed"}
        for ref in refs
    ]
    path = tmp_path / "results.json"
    path.write_text(json.dumps({"schema": 1, "scenarios": records}, ensure_ascii=False), encoding="utf-8")
    return path


@pytest.mark.slow  # copies the project twice
@pytest.mark.parametrize("mode", ["scenarios", "files"])
def test_the_scaled_suite_has_n_times_the_scenarios_and_matching_results(
    tmp_path: Path, mode: str, project_refs: list[Any]
) -> None:
    from berserk_rules.rulebook.features import load_scenarios

    results = small_results(tmp_path, project_refs)
    one = len(json.loads(results.read_text(encoding="utf-8"))["scenarios"])
    copy = bench_site.scaled_project(tmp_path / "x3", 3, results, mode)
    refs = load_scenarios(copy)
    records = json.loads((copy / "build" / "results.json").read_text(encoding="utf-8"))["scenarios"]
    assert len(refs) == 3 * one
    assert sorted(r["id"] for r in records) == sorted(ref.id for ref in refs)
    files = {ref.file for ref in refs}
    originals = {ref.file for ref in project_refs}
    assert files == originals if mode == "scenarios" else len(files) == 3 * len(originals)
    for record in records:  # each record's line is the line its id names
        assert record["id"].endswith(f":{record['line']}")


def test_the_process_tree_is_measured() -> None:
    import os

    rss, pss = bench_site.tree_memory(os.getpid())
    assert rss > 1000 and 0 < pss <= rss  # this Python process alone is over 1 MB
