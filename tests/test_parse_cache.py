"""``check`` keeps its parses of the feature files (``build/.cache/features/``, named by the hash of the
file's name, its text and the Gherkin parser's version): its own lint and the pytest run it starts
(``--berserk-parse-cache``) read them on the next run instead of parsing again; a changed file is a new
name, never a stale parse; the installed suite is never written (tests/test_packaging.py)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from tests.project_kit import PASSING, feature, make_project


def check(project: Path) -> tuple[int, str, dict]:
    command = [sys.executable, "-m", "berserk_rules.cli", "check", "-n", "0", "--isolation", "none"]
    done = subprocess.run(command, cwd=project, capture_output=True, text=True, check=False, timeout=300)
    results = json.loads((project / "build" / "results.json").read_text(encoding="utf-8"))
    return done.returncode, done.stdout + done.stderr, results


def test_the_next_check_reads_the_kept_parses_and_a_changed_file_is_parsed_again(tmp_path: Path) -> None:
    project = make_project(tmp_path / "p", {"a.feature": feature(PASSING.format(name="первый"))})
    cache = project / "build" / ".cache" / "features"
    code, output, results = check(project)
    assert code == 0, output
    (kept,) = cache.glob("*.json")
    assert [s["name"] for s in results["scenarios"]] == ["первый"]

    # The kept parse is what the next run's pytest reads (the runner's parse, which pytest-bdd is given
    # too): a parse edited on disk (a scenario's name) is the name the run reports. Only a test edits a
    # cache; a user's edit of a feature file is a new key (below).
    document, pickles = json.loads(kept.read_text(encoding="utf-8"))
    text = json.dumps([document, pickles], ensure_ascii=False).replace("первый", "из кэша")
    kept.write_text(text, encoding="utf-8")
    code, output, results = check(project)
    assert code == 0, output
    assert [s["name"] for s in results["scenarios"]] == ["из кэша"]

    (project / "features" / "a.feature").write_text(feature(PASSING.format(name="второй")), encoding="utf-8")
    code, output, results = check(project)
    assert code == 0, output
    assert [s["name"] for s in results["scenarios"]] == ["второй"]
    assert len(list(cache.glob("*.json"))) == 2
