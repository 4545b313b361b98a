"""The package: a wheel that carries the suite and works outside the checkout, every package of the
source tree in it, output that stops quietly when its reader does (``rule … | head``)."""

from __future__ import annotations

import ast
import json
import os
import shutil
import site
import subprocess
import sys
import tarfile
import tomllib
from pathlib import Path

import pytest

from berserk_rules.cli import main
from berserk_rules.commands._common import results_path
from berserk_rules.report.results import build, write_json_atomic
from berserk_rules.rulebook import project
from berserk_rules.rulebook.features import load_scenarios
from berserk_rules.rulebook.project import project_root
from berserk_rules.rulebook.suite_version import suite_version
from tests.project_kit import PASSING, feature, make_project, snapshot

ROOT = project_root()
BROKEN_PIPE = 141


def _setup_constant(name: str) -> tuple[str, ...]:
    tree = ast.parse((ROOT / "setup.py").read_text(encoding="utf-8"))
    for node in tree.body:
        if isinstance(node, ast.Assign) and any(getattr(t, "id", None) == name for t in node.targets):
            return tuple(ast.literal_eval(node.value))
    raise AssertionError(f"setup.py: нет {name}")


def test_setup_copies_what_the_project_reads_as_the_installed_suite() -> None:
    assert _setup_constant("SUITE_FOLDERS") == project.SUITE_FOLDERS
    assert _setup_constant("SUITE_FILES") == project.SUITE_FILES
    for name in (*project.SUITE_FOLDERS, *project.SUITE_FILES):
        assert (ROOT / name).exists(), name
    manifest_in = (ROOT / "MANIFEST.in").read_text(encoding="utf-8").split()  # the sdist has them too
    for name in (*project.SUITE_FOLDERS, *project.SUITE_FILES):
        assert name in manifest_in, name
    assert not (ROOT / "berserk_rules" / project.SUITE_DATA).exists()  # in a checkout the checkout is read


def test_every_package_folder_is_packaged() -> None:
    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["setuptools"]
    declared = set(config["packages"])
    folders = {"berserk_rules": ROOT / "berserk_rules", "berserk_engine": ROOT / "engine" / "berserk_engine"}
    found = set()
    for package, base in folders.items():
        for init in base.rglob("__init__.py"):
            found.add(".".join([package, *init.parent.relative_to(base).parts]))
    assert found <= declared, f"не в [tool.setuptools] packages: {sorted(found - declared)}"
    assert "berserk_rules.harness.schemas" in declared
    assert config["package-data"]["berserk_rules.harness.schemas"] == ["*.json"]
    assert (
        sorted(
            p.name for p in (ROOT / "berserk_rules" / "harness" / "schemas").iterdir() if p.suffix != ".json"
        )
        == []
    )


def test_the_installed_suite_is_read_and_output_goes_to_the_current_folder(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    suite = make_project(tmp_path / "suite", {"a.feature": feature(PASSING.format(name="а"))})
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    monkeypatch.chdir(elsewhere)
    monkeypatch.setattr(project, "installed_suite", lambda: suite.resolve())
    assert project.is_installed_suite(suite)
    assert project.output_root(suite) == elsewhere.resolve()
    assert results_path(suite, None) == elsewhere.resolve() / "build" / "results.json"
    assert results_path(suite, "r.json") == elsewhere.resolve() / "r.json"
    assert project.output_root(ROOT) == ROOT  # a checkout writes into itself, as before
    assert results_path(ROOT, None) == ROOT / "build" / "results.json"


def test_the_installed_suite_is_never_rewritten(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    suite = make_project(tmp_path / "suite", {"a.feature": feature(PASSING.format(name="а"))})
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(project, "installed_suite", lambda: suite.resolve())
    monkeypatch.setattr("berserk_rules.commands.changelog.project_root", lambda: suite.resolve())
    monkeypatch.setattr("berserk_rules.commands.import.project_root", lambda: suite.resolve())
    before = snapshot(suite)
    assert main(["changelog", "--release", "9.9.9"]) == 2
    assert "набор установленного пакета не меняют" in capsys.readouterr().err
    assert main(["import"]) == 2
    assert "корпус установленного пакета не перестраивают" in capsys.readouterr().err
    assert snapshot(suite) == before


# --- a closed pipe -------------------------------------------------------------------------------


def _closed_pipe(args: list[str], cwd: Path) -> tuple[int, str]:
    """Run ``berserk-rules ARGS`` with a stdout nobody reads (closed at once): exit code, stderr."""
    proc = subprocess.Popen(
        [sys.executable, "-m", "berserk_rules.cli", *args],
        cwd=cwd,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    assert proc.stdout is not None and proc.stderr is not None
    proc.stdout.close()
    err = proc.stderr.read().decode("utf-8", "replace")
    return proc.wait(timeout=120), err


def _not_run_results(folder: Path) -> str:
    """A results file of this project where every scenario is «not run»; its path."""
    data = build({}, load_scenarios(ROOT), engine={"name": "проба"}, started_iso="", duration=0.0)
    write_json_atomic(folder / "r.json", data)
    return str(folder / "r.json")


def test_rule_into_a_closed_pipe_stops_without_a_traceback(tmp_path: Path) -> None:
    # results of its own: a stale build/results.json of this checkout would add a warning on stderr
    code, err = _closed_pipe(["rule", "401.7", "--results", _not_run_results(tmp_path)], ROOT)
    assert (code, err) == (BROKEN_PIPE, "")


def test_matrix_into_a_closed_pipe_stops_without_a_traceback(tmp_path: Path) -> None:
    # every scenario «not run»: a table of every rule, far more than a pipe's buffer
    code, err = _closed_pipe(["matrix", _not_run_results(tmp_path)], ROOT)
    assert (code, err) == (BROKEN_PIPE, "")


def test_check_into_a_closed_pipe_stops_pytest_and_writes_nothing(tmp_path: Path) -> None:
    root = make_project(tmp_path / "p", {"a.feature": feature(PASSING.format(name="а"))})
    code, err = _closed_pipe(["check"], root)
    assert (code, err) == (BROKEN_PIPE, "")
    assert not (root / "build" / "results.json").exists()  # a cut run replaces no results
    assert [p.name for p in (root / "build").glob(".results*")] == []  # nor leaves its own file
    assert _running_in(root) == []  # pytest (and its engine) stopped, not left running on its own


def _running_in(folder: Path) -> list[str]:
    """The ids of processes whose current folder is ``folder`` (Linux /proc; elsewhere none)."""
    found = []
    for entry in Path("/proc").glob("[0-9]*"):
        try:
            if (entry / "cwd").resolve() == folder.resolve():
                found.append(entry.name)
        except OSError:
            continue
    return found


def test_help_and_version_into_a_closed_pipe() -> None:
    assert _closed_pipe(["--version"], ROOT) == (BROKEN_PIPE, "")
    code, err = _closed_pipe(["--help"], ROOT)  # argparse itself ignores a failed write of the help
    assert code in (0, BROKEN_PIPE) and err == ""


# --- the wheel, outside the checkout ---------------------------------------------------------------

SKIPPED_IN_COPY = shutil.ignore_patterns(
    ".*", "build", "dist", "*.egg-info", "__pycache__", "node_modules", "_build", "_generated"
)


@pytest.mark.slow
def test_the_wheel_runs_the_suite_outside_the_checkout(tmp_path: Path) -> None:
    """Build an sdist from a copy of the sources and a wheel from it, install the wheel into a new
    virtual environment outside the checkout (its dependencies: this environment's, through a .pth
    file — no network) and run ``--version``, ``rule 401.7``, ``check --engine "berserk-engine
    serve"`` and ``matrix`` from a folder that is in no project."""
    copy = tmp_path / "source"
    shutil.copytree(ROOT, copy, ignore=SKIPPED_IN_COPY)
    # through the sdist, as `python -m build` does: MANIFEST.in must carry what setup.py copies
    hook = "import sys; from setuptools import build_meta; print(build_meta.build_sdist(sys.argv[1]))"
    sdist = subprocess.run(
        [sys.executable, "-c", hook, str(tmp_path / "sdist")],
        cwd=copy,
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert sdist.returncode == 0, sdist.stdout + sdist.stderr
    name = sdist.stdout.strip().splitlines()[-1]
    with tarfile.open(tmp_path / "sdist" / name) as archive:
        if hasattr(tarfile, "data_filter"):
            archive.extractall(tmp_path / "unpacked", filter="data")
        else:  # pragma: no cover - Python before 3.11.4
            archive.extractall(tmp_path / "unpacked")
    source = tmp_path / "unpacked" / name.removesuffix(".tar.gz")
    built = subprocess.run(
        [
            sys.executable,
            "-m",
            "pip",
            "wheel",
            "--no-deps",
            "--no-build-isolation",
            "-v",
            "-w",
            str(tmp_path / "dist"),
            str(source),
        ],
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert built.returncode == 0, built.stdout + built.stderr
    # -v: the build backend's own output, where setuptools warns of a package left out of `packages`
    assert "running build_py" in built.stdout + built.stderr
    assert "is absent from the `packages` configuration" not in built.stdout + built.stderr
    (wheel,) = (tmp_path / "dist").glob("berserk_rules-*.whl")

    venv = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(venv)], check=True, timeout=300)
    python = venv / "bin" / "python"
    purelib = subprocess.run(
        [python, "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout.strip()
    # the dependencies (pytest, pytest-bdd, gherkin, jsonschema, parse) from this environment
    (Path(purelib) / "deps.pth").write_text("\n".join(site.getsitepackages()) + "\n", encoding="utf-8")
    installed = subprocess.run(
        [sys.executable, "-m", "pip", "--python", str(python), "install", "-q", "--no-deps", str(wheel)],
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert installed.returncode == 0, installed.stdout + installed.stderr

    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    # as on a machine that sets none of these (a developer's may set PYTHONDONTWRITEBYTECODE)
    unset = ("PYTHONPATH", "VIRTUAL_ENV", "PYTHONDONTWRITEBYTECODE")
    env = {k: v for k, v in os.environ.items() if k not in unset}
    env["PATH"] = os.pathsep.join([str(venv / "bin"), env.get("PATH", "")])
    tool = str(venv / "bin" / "berserk-rules")

    def run(*args: str, timeout: float = 120) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [tool, *args], cwd=elsewhere, env=env, capture_output=True, text=True, timeout=timeout
        )

    where = subprocess.run(
        [python, "-c", "import berserk_rules; print(berserk_rules.__file__)"],
        cwd=elsewhere,
        env=env,
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    assert where.startswith(purelib), where  # the installed package, not the checkout's
    suite = Path(purelib) / "berserk_rules" / "suite"
    version = run("--version")
    assert version.returncode == 0, version.stderr
    assert suite_version(ROOT) in version.stdout  # the same corpus and features: the same version
    assert suite_version(suite) == suite_version(ROOT)
    kit = run("kit", "kit")  # the author's kit comes out of the wheel, no clone needed
    assert kit.returncode == 0, kit.stdout + kit.stderr
    for name in (
        "replay.mjs",
        "bin/berserk-vectors.mjs",
        "example/engine.mjs",
        "test/replay.test.mjs",
        "package.json",
    ):
        assert (elsewhere / "kit" / "runners" / "js" / name).is_file(), name

    rule = run("rule", "401.7")
    assert rule.returncode == 0, rule.stderr
    assert rule.stdout.startswith("401.7 — правило") and rule.stderr == ""

    before = snapshot(suite)
    check = run("check", "--engine", "berserk-engine serve", timeout=1800)
    assert check.returncode == 0, check.stdout[-3000:] + check.stderr[-3000:]
    results = json.loads((elsewhere / "build" / "results.json").read_text(encoding="utf-8"))
    assert results["suite"] == suite_version(ROOT)
    assert results["summary"]["passed"] == results["summary"]["total"] == len(load_scenarios(ROOT))
    assert snapshot(suite) == before  # package data is read, never written
    assert sorted(suite.rglob("*-pytest-*.pyc")) == []  # not even pytest's rewritten conftest and tests

    matrix = run("matrix", "build/results.json")
    assert matrix.returncode == 0, matrix.stderr
    assert f"Набор сценариев: {suite_version(ROOT)}." in matrix.stdout
