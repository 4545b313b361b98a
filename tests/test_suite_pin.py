"""Pinning the suite (issue 27, item 6): ``check --suite X.Y.Z`` refuses another installed suite;
known-failures files record the suite they were made for and ``check`` warns on a mismatch."""

from __future__ import annotations

import subprocess
import sys
import tomllib
from pathlib import Path

from berserk_rules.commands.known_failures import known_failures_toml
from berserk_rules.rulebook.suite_version import suite_version
from berserk_rules.runner.known_failures import suite_problem

ROOT = Path(__file__).resolve().parent.parent
FILE = "features/part-3/304-faza-nakopleniya.feature"


def check(*args: str, tmp: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "berserk_rules.cli", "check", "--results", str(tmp / "r.json"), *args],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=300,
    )


def test_suite_problem_compares_the_version_or_the_whole_content() -> None:
    installed = "1.1.0+sha.0123456789ab"
    assert suite_problem("1.1.0", installed) is None
    assert suite_problem(installed, installed) is None
    assert "нужен 1.2.0" in str(suite_problem("1.2.0", installed))
    assert "нужен 1.1.0+sha.ffffffffffff" in str(suite_problem("1.1.0+sha.ffffffffffff", installed))
    for wrong in ("1.1", "v1.1.0", "1.1.0+sha.XYZ", 110, None):
        assert "X.Y.Z" in str(suite_problem(wrong, installed))


def test_check_refuses_another_suite_and_runs_the_pinned_one(tmp_path: Path) -> None:
    installed = suite_version(ROOT)
    wrong = check("--suite", "9.9.9", "--", FILE, tmp=tmp_path)
    assert wrong.returncode == 2
    assert f"установлен набор сценариев {installed}, а нужен 9.9.9" in wrong.stderr
    assert not (tmp_path / "r.json").exists()  # nothing ran
    malformed = check("--suite", "1.1", "--", FILE, tmp=tmp_path)
    assert malformed.returncode == 2 and "X.Y.Z" in malformed.stderr
    for pinned in (installed.partition("+")[0], installed):
        done = check("--suite", pinned, "--", FILE, tmp=tmp_path)
        assert done.returncode == 0, done.stdout[-2000:] + done.stderr


def test_known_failures_record_their_suite_and_check_warns_on_another(tmp_path: Path) -> None:
    data = {"engine": {"name": "мой"}, "suite": "1.0.0+sha.0123456789ab", "scenarios": []}
    text = known_failures_toml(data, "r.json")
    assert tomllib.loads(text)["suite"] == "1.0.0+sha.0123456789ab"
    known = tmp_path / "known.toml"
    known.write_text(text, encoding="utf-8")
    done = check("--known-failures", str(known), "--", FILE, tmp=tmp_path)
    assert done.returncode == 0, done.stdout[-2000:] + done.stderr
    assert f"составлен для набора 1.0.0+sha.0123456789ab, а установлен {suite_version(ROOT)}" in done.stderr
    known.write_text(f'suite = "{suite_version(ROOT)}"\nstrict = true\n', encoding="utf-8")
    same = check("--known-failures", str(known), "--", FILE, tmp=tmp_path)
    assert same.returncode == 0 and "предупреждение" not in same.stderr
    known.write_text('suite = "последний"\n', encoding="utf-8")
    bad = check("--known-failures", str(known), "--", FILE, tmp=tmp_path)
    assert bad.returncode == 2 and "known.toml" in bad.stderr and "X.Y.Z" in bad.stderr
