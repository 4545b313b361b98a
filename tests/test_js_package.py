"""The JavaScript vector runner as an author uses it: a package (``npm pack runners/js``) installed as
a dependency of their project, run through ``node_modules/.bin`` and ``npx`` (issue 27, item 1).

Offline: the tarball is installed from a file, with a cache of the test's own; nothing comes from a
registry. Node.js and npm are needed: without them the tests are skipped with the reason — unless
``CI`` or ``BERSERK_REQUIRE_NODE`` is set (``.ci/run``), then they fail."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import tarfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "runners" / "js"
NODE_REQUIRED = bool(os.environ.get("CI") or os.environ.get("BERSERK_REQUIRE_NODE"))

FAILING = {
    "id": "features/part-3/x.feature:9",
    "name": "ход переходит",
    "position": {"players": {"А": {}, "Б": {}}, "turn": 3, "start": "choice", "active": "А"},
    "steps": [
        {"op": "act", "player": "А", "action": {"type": "end_turn"}},
        {"op": "check", "viewer": None, "path": ["turn"], "expected": 9},
    ],
}


def tool(name: str) -> str:
    found = shutil.which(name)
    if found is None:
        reason = f"нет {name} (Node.js): тест пакета раннера на JavaScript пропущен"
        if NODE_REQUIRED:
            pytest.fail(f"{reason} (задан CI или BERSERK_REQUIRE_NODE)", pytrace=False)
        pytest.skip(reason)
    return found


def npm(*args: str, cwd: Path, cache: Path) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "npm_config_cache": str(cache), "npm_config_update_notifier": "false"}
    done = subprocess.run(
        [tool("npm"), *args, "--offline", "--no-audit", "--no-fund"],
        cwd=cwd,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, f"npm {' '.join(args)}: {done.stdout}{done.stderr}"
    return done


@pytest.fixture(scope="module")
def project(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A scratch project with the runner's tarball as a dependency and one failing vector."""
    root = tmp_path_factory.mktemp("author")
    cache = root / "npm-cache"
    kit = (
        subprocess.run(  # the kit as the package hands it out (berserk-rules kit), not the checkout's folder
            [sys.executable, "-m", "berserk_rules.cli", "kit", str(root / "kit")],
            cwd=ROOT,
            capture_output=True,
            text=True,
            timeout=120,
        )
    )
    assert kit.returncode == 0, kit.stdout + kit.stderr
    assert "npx berserk-vectors" in kit.stdout
    source = root / "kit" / "runners" / "js"
    packed = npm("pack", str(source), "--pack-destination", str(root), "--json", cwd=root, cache=cache)
    tarball = root / json.loads(packed.stdout)[0]["filename"]
    project = root / "project"
    (project / "vectors" / "part-3").mkdir(parents=True)
    (project / "package.json").write_text(
        json.dumps({"name": "my-engine", "version": "1.0.0", "private": True, "type": "module"}),
        encoding="utf-8",
    )
    (project / "vectors" / "part-3" / "9.json").write_text(
        json.dumps(FAILING, ensure_ascii=False), encoding="utf-8"
    )
    npm("install", "--save-dev", str(tarball), cwd=project, cache=cache)
    return project


def run(project: Path, *command: str) -> subprocess.CompletedProcess[str]:
    engine = "node_modules/berserk-rules-vectors/example/engine.mjs"
    return subprocess.run(
        [*command, engine, "vectors"], cwd=project, capture_output=True, text=True, timeout=120
    )


@pytest.mark.parametrize(
    "how",
    [
        pytest.param(("node_modules/.bin/berserk-vectors",), id="bin-symlink"),
        pytest.param(("npx", "--no", "berserk-vectors"), id="npx"),
        pytest.param(("node", "node_modules/berserk-rules-vectors/replay.mjs"), id="by-path"),
    ],
)
def test_a_failing_vector_fails_the_installed_runner(project: Path, how: tuple[str, ...]) -> None:
    """The false green of 1.1.0: through the symlink in node_modules/.bin the runner printed nothing
    and exited 0. Every way of running it must say what failed and exit 1."""
    tool("node")
    command = [tool(how[0]) if how[0] in ("npx", "node") else str(project / how[0]), *how[1:]]
    done = run(project, *command)
    assert done.returncode == 1, done.stdout + done.stderr
    assert "✗ features/part-3/x.feature:9" in done.stdout
    assert "ожидалось: 9" in done.stdout and "не прошли 1" in done.stdout


def test_an_empty_folder_of_vectors_is_no_success(project: Path) -> None:
    (project / "nothing").mkdir(exist_ok=True)
    done = subprocess.run(
        [
            str(project / "node_modules/.bin/berserk-vectors"),
            "node_modules/berserk-rules-vectors/example/engine.mjs",
            "nothing",
        ],
        cwd=project,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 2 and "ничего не проверено" in done.stdout


def test_the_package_tests_run_from_the_package_alone_and_clean_up(project: Path, tmp_path: Path) -> None:
    """``npm test`` inside the installed copy (outside the repository): it passes, and leaves no
    temporary folder behind."""
    installed = project / "node_modules" / "berserk-rules-vectors"
    scratch = tmp_path / "tmp"
    scratch.mkdir()
    done = subprocess.run(
        [tool("node"), "--test", "test/"],
        cwd=installed,
        env={**os.environ, "TMPDIR": str(scratch)},
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    assert "# fail 0" in done.stdout
    assert list(scratch.iterdir()) == []


def test_the_package_is_publishable_and_carries_the_kit() -> None:
    """A real name (not private), the version of the suite, a bin that is not the module itself."""
    data = json.loads((PACKAGE / "package.json").read_text(encoding="utf-8"))
    assert data["name"] == "berserk-rules-vectors" and not data.get("private")
    from importlib.metadata import version

    assert data["version"] == version("berserk-rules")
    assert data["bin"] == {"berserk-vectors": "bin/berserk-vectors.mjs"}
    for name in data["files"]:
        assert (PACKAGE / name).exists(), name


def test_the_tarball_holds_the_runner_the_example_engine_and_the_tests(tmp_path: Path) -> None:
    tool("node")
    packed = npm(
        "pack",
        str(PACKAGE),
        "--pack-destination",
        str(tmp_path),
        "--json",
        cwd=tmp_path,
        cache=tmp_path / "c",
    )
    with tarfile.open(tmp_path / json.loads(packed.stdout)[0]["filename"]) as tar:
        names = set(tar.getnames())
    for name in (
        "replay.mjs",
        "bin/berserk-vectors.mjs",
        "example/engine.mjs",
        "test/replay.test.mjs",
        "README.md",
    ):
        assert f"package/{name}" in names


def test_kit_refuses_a_folder_that_is_not_empty(tmp_path: Path) -> None:
    (tmp_path / "mine.txt").write_text("моё", encoding="utf-8")
    done = subprocess.run(
        [sys.executable, "-m", "berserk_rules.cli", "kit", str(tmp_path)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 2 and "не пуста" in done.stderr
    assert [p.name for p in tmp_path.iterdir()] == ["mine.txt"]
