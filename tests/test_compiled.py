"""The compiled engine (``berserk-rules compile``, mypyc) is the same engine as the pure-Python one.

* The engine type-checks under mypy: the compiler needs it, and a compiled module checks the annotated
  types at run time, so a wrong annotation would be a crash of the compiled engine only.
* The compiled build passes every scenario, and seeded random games (the benchmark's and the
  fuzzer's walk through legal play) give the same log, the same decisions and the same final position
  in both builds.

The build is made once per fingerprint of the sources (``build/compiled/``, and copied from the
machine's shared cache when another checkout made it: ``compiled.shared_cache``); it needs mypy (the
``dev`` extra) and a C compiler. CI sets ``BERSERK_REQUIRE_COMPILER``: there a missing compiler fails
instead of skipping.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from berserk_rules.cli import main
from berserk_rules.reference import compiled

ROOT = Path(__file__).resolve().parents[1]
REQUIRED = bool(os.environ.get("BERSERK_REQUIRE_COMPILER"))  # set by .ci/run: no silent skip in CI
GAMES = 25
TEST_LEVEL = "0"  # the C optimisation level of this module's build (compiled.OPT_LEVEL)

# Seeded random games, and a digest of each: every decision as listed, every answer, the full log
# and the final position. Run here (pure Python) and in a child process on the compiled build.
PLAY = """
import hashlib, json, random, sys
from berserk_engine import bench
from berserk_engine.selfplay import random_action, standard_position
from berserk_engine.setup import new_game


def digest(seed):
    game = new_game(standard_position(seed))
    rng = random.Random(seed)
    trace = []
    restored = 0
    while True:
        d = game.decision()
        if d is None:
            break
        # A position taken here, through JSON, plays on identically (tuple fields come back as lists).
        if (d.deciding and restored < 3) or len(trace) % 25 == 0:
            restored += 1
            copy = new_game(json.loads(json.dumps(game.position())))
            assert copy.position() == game.position() and copy.decision().to_json() == d.to_json(), seed
        action = random_action(d.options, rng)
        trace.append([d.to_json(), action])
        game.act(d.player, action)
    whole = [trace, game.log_for(None), game.position(), game.observe("А")]
    return hashlib.sha256(json.dumps(whole, ensure_ascii=False, sort_keys=True).encode()).hexdigest()


print(json.dumps({"build": bench.build(), "games": [digest(seed) for seed in range(1, GAMES + 1)]}))
"""


def _play(env: dict[str, str] | None) -> dict:
    code = f"GAMES = {GAMES}\n{PLAY}"
    done = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, cwd=ROOT)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


@pytest.mark.slow  # a gate: mypy over the whole engine
def test_engine_type_checks(tmp_path: Path) -> None:
    mypy_api = pytest.importorskip("mypy.api", reason="mypy — из набора dev: pip install -e '.[dev]'")
    package = tmp_path / "berserk_engine"  # the package under its import name (engine/berserk_engine/)
    shutil.copytree(compiled.engine_source(), package, ignore=shutil.ignore_patterns("__pycache__", "*.so"))
    out, err, status = mypy_api.run(
        ["--ignore-missing-imports", "--no-incremental", "--cache-dir", os.devnull, str(package)]
    )
    assert status == 0, out + err


@pytest.mark.slow  # a mypyc build and the whole suite on it
def test_compiled_engine_is_the_same_engine(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    if shutil.which("cc") is None and shutil.which("gcc") is None:
        if REQUIRED:
            pytest.fail("нет компилятора C (задан BERSERK_REQUIRE_COMPILER)", pytrace=False)
        pytest.skip("нет компилятора C: скомпилированный движок не проверен")
    # The same game, not its speed, is checked here: the C is compiled at -O0 (about half the CPU
    # time of -O3), and the commands below find this build, as they are asked for the same level.
    monkeypatch.setenv(compiled.OPT_LEVEL, TEST_LEVEL)
    folder = compiled.build(ROOT, quiet=True)
    env = compiled.environment(folder)

    pure = _play(None)
    fast = _play(env)
    assert pure["build"] == "python" and fast["build"] == "mypyc"
    assert fast["games"] == pure["games"], "скомпилированный движок сыграл иначе, чем чистый Python"
    assert len(set(pure["games"])) == GAMES  # the games differ from each other: the digest sees play

    results = tmp_path / "results.json"
    # The default isolation: the engine answers from its own process through the protocol (serve.py
    # stays Python, the game under it is the compiled one).
    command = [sys.executable, "-m", "berserk_rules.cli", "check"]
    done = subprocess.run(
        [*command, "--results", str(results), "-n", "0"], env=env, cwd=ROOT, capture_output=True, text=True
    )
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    scenarios = json.loads(results.read_text(encoding="utf-8"))["scenarios"]
    failed = [f"{s['id']}: {s['status']}" for s in scenarios if s["status"] != "passed"]
    assert scenarios and not failed, failed

    # The commands find the same build (no second one) and measure it, saying which build it was.
    assert main(["compile"]) == 0
    assert capsys.readouterr().out.strip() == str(folder)
    assert main(["bench", "--compiled", "--games", "2", "--json"]) == 0
    figures = json.loads(capsys.readouterr().out)
    assert figures["build"] == "mypyc" and figures["games"] == 2 and figures["games_per_second"] > 0


def test_compile_command(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    assert main(["compile", "--jobs", "0"]) == 2
    assert "--jobs: нужен хотя бы один процесс" in capsys.readouterr().err
    # Without mypy the command says what to install, and builds nothing.
    monkeypatch.setitem(sys.modules, "mypyc", None)
    assert main(["compile"]) == 2
    assert "нужен mypy" in capsys.readouterr().err


def test_the_optimisation_level_is_part_of_the_build(monkeypatch: pytest.MonkeyPatch) -> None:
    source = compiled.engine_source()
    assert len({compiled.fingerprint(source, level) for level in compiled.LEVELS}) == len(compiled.LEVELS)
    # the recipe too: a build made another way (a shared one, from an older checkout) is not taken
    before = compiled.fingerprint(source, "0")
    monkeypatch.setattr(compiled, "_SETUP", compiled._SETUP + "# another recipe\n")
    assert compiled.fingerprint(source, "0") != before
    monkeypatch.undo()
    monkeypatch.delenv(compiled.OPT_LEVEL, raising=False)
    assert compiled.opt_level() == "3"  # mypyc's own default, what ``compile`` builds unless told
    monkeypatch.setenv(compiled.OPT_LEVEL, TEST_LEVEL)
    assert compiled.opt_level() == TEST_LEVEL
    monkeypatch.setenv(compiled.OPT_LEVEL, "-O2")
    with pytest.raises(compiled.UserError, match="BERSERK_COMPILE_OPT='-O2': уровень оптимизации C"):
        compiled.opt_level()


def test_a_failed_build_is_an_error_naming_its_log(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    pytest.importorskip("mypyc", reason="mypy — из набора dev: pip install -e '.[dev]'")

    def failing(command: list[str], **kwargs: object) -> subprocess.CompletedProcess[str]:
        kwargs["stdout"].write("gcc: ошибка: что-то сломалось\n")  # type: ignore[attr-defined]
        return subprocess.CompletedProcess(command, 1)

    monkeypatch.setattr(compiled.subprocess, "run", failing)
    monkeypatch.setenv(compiled.CACHE, str(tmp_path / "cache"))  # no build of another checkout here
    with pytest.raises(compiled.UserError) as error:
        compiled.build(tmp_path, quiet=True)
    message = str(error.value)
    assert "сборка скомпилированного движка не удалась (код 1)" in message and "что-то сломалось" in message
    folder = tmp_path / "build" / "compiled"
    logs = list(folder.glob("*.log"))
    assert len(logs) == 1 and str(logs[0]) in message
    assert [p for p in folder.iterdir() if p.suffix != ".log"] == []  # nothing half-built is left to use
    assert not (tmp_path / "cache").exists()  # nor shared


def test_a_build_replaces_the_earlier_builds_of_its_level_only(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    pytest.importorskip("mypyc", reason="mypy — из набора dev: pip install -e '.[dev]'")
    folder = tmp_path / "build" / "compiled"
    for name, marker in (
        ("old-o0", "old-o0 -O0"),
        ("old-o3", "old-o3 -O3"),
        ("before-levels", "before-levels"),
    ):
        (folder / name).mkdir(parents=True)
        (folder / name / compiled.DONE).write_text(marker + "\n", encoding="utf-8")

    def built(command: list[str], **kwargs: object) -> subprocess.CompletedProcess[str]:
        assert command[command.index("--") + 1] == "0"  # the level goes to the build
        return subprocess.CompletedProcess(command, 0)  # a build that made nothing: enough here

    monkeypatch.setattr(compiled.subprocess, "run", built)
    monkeypatch.setenv(compiled.OPT_LEVEL, "0")
    monkeypatch.setenv(compiled.CACHE, "off")
    target = compiled.build(tmp_path, quiet=True)
    assert (target / compiled.DONE).read_text(encoding="utf-8").split() == [target.name, "-O0"]
    # the earlier -O0 build is gone; the -O3 ones (a marker without a level is -O3) are kept
    assert sorted(p.name for p in folder.iterdir()) == sorted([target.name, "old-o3", "before-levels"])


def _fake_build(calls: list[str]) -> object:
    """A build that makes one «compiled module» (``made.so``) in its folder, and counts itself."""

    def built(command: list[str], **kwargs: object) -> subprocess.CompletedProcess[str]:
        work = Path(str(kwargs["cwd"]))
        calls.append(work.name)
        (work / "berserk_engine" / "made.so").write_bytes(b"\x7fELF")
        return subprocess.CompletedProcess(command, 0)

    return built


def _sharing(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> tuple[list[str], Path, str]:
    """Fake -O0 builds (counted) and a shared cache of this test's own: (the builds made, the cache,
    the fingerprint of the engine)."""
    pytest.importorskip("mypyc", reason="mypy — из набора dev: pip install -e '.[dev]'")
    calls: list[str] = []
    monkeypatch.setattr(compiled.subprocess, "run", _fake_build(calls))
    monkeypatch.setenv(compiled.OPT_LEVEL, "0")
    cache = tmp_path / "cache"
    monkeypatch.setenv(compiled.CACHE, str(cache))
    return calls, cache, compiled.fingerprint(compiled.engine_source(), "0")


def test_a_build_is_shared_by_the_checkouts_of_the_machine(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """A clone, a worktree, CI's fresh clone: the second checkout copies the first one's build of the same
    fingerprint from the shared cache instead of compiling again; ``off`` turns the sharing off."""
    calls, cache, stamp = _sharing(tmp_path, monkeypatch)

    first = compiled.build(tmp_path / "one")
    assert len(calls) == 1 and "компилирую движок" in capsys.readouterr().err
    assert (cache / stamp / compiled.DONE).is_file() and (
        cache / stamp / "berserk_engine" / "made.so"
    ).is_file()
    second = compiled.build(tmp_path / "two")
    assert len(calls) == 1, "the second checkout compiled again"
    assert f"скомпилированный движок взят из {cache / stamp}" in capsys.readouterr().err
    assert second == tmp_path / "two" / "build" / "compiled" / stamp != first
    assert (second / "berserk_engine" / "made.so").read_bytes() == b"\x7fELF"
    assert (second / compiled.DONE).read_text(encoding="utf-8") == (first / compiled.DONE).read_text("utf-8")
    assert sorted(p.name for p in cache.iterdir()) == [stamp]  # no copy left half-made

    monkeypatch.setenv(compiled.CACHE, "off")
    compiled.build(tmp_path / "three", quiet=True)
    assert len(calls) == 2  # not shared: built


def test_the_shared_cache_keeps_the_builds_used_last_and_a_broken_one_is_not_used(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    calls, cache, stamp = _sharing(tmp_path, monkeypatch)
    # an incomplete folder of this fingerprint (no marker): not used, and built here instead
    (cache / stamp / "berserk_engine").mkdir(parents=True)
    compiled.build(tmp_path / "one", quiet=True)
    assert len(calls) == 1
    shutil.rmtree(cache / stamp)
    # older builds: four of this level (used at times 1..4) and one of another level
    for age, name in enumerate(["old1", "old2", "old3", "old4", "other"], start=1):
        (cache / name).mkdir()
        (cache / name / compiled.DONE).write_text(f"{name} {'-O3' if name == 'other' else '-O0'}\n", "utf-8")
        os.utime(cache / name / compiled.DONE, (age, age))
    compiled.build(tmp_path / "two", quiet=True)
    assert len(calls) == 2
    kept = sorted(p.name for p in cache.iterdir())
    assert kept == sorted([stamp, "old4", "old3", "other"]), kept  # the three of -O0 used last
    # a cache that cannot be written costs a build, never the build
    shutil.rmtree(cache)
    cache.write_text("не папка", encoding="utf-8")
    target = compiled.build(tmp_path / "three", quiet=True)
    assert (target / compiled.DONE).is_file() and len(calls) == 3
    assert f"сборка не оставлена в общем кэше {cache}" in capsys.readouterr().err
