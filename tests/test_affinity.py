"""A scenario and its engine process on one CPU for the scenario's time (runner/affinity.py)."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from berserk_rules.runner import affinity

linux = pytest.mark.skipif(
    not hasattr(os, "sched_setaffinity") or len(os.sched_getaffinity(0)) < 2,
    reason="CPU affinity: Linux with two CPUs or more",
)


def test_a_worker_takes_the_cpu_of_its_number_and_a_process_its_own() -> None:
    assert affinity.chosen_cpu({0, 1, 2}, "gw0") == 0
    assert affinity.chosen_cpu({0, 1, 2}, "gw4") == 1
    assert affinity.chosen_cpu({3, 5}, "gw1") == 5
    assert affinity.chosen_cpu(set(), "gw0") is None
    here = affinity.current_cpu()
    if here is not None:
        assert affinity.chosen_cpu({here, here + 1}, None) == here
        assert affinity.chosen_cpu({here + 1, here + 2}, "master") == here + 1  # not allowed: the first


@pytest.fixture
def child() -> subprocess.Popen[bytes]:
    proc = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(30)"])
    yield proc
    proc.kill()
    proc.wait()


@linux
def test_both_share_one_cpu_while_the_scenario_runs_and_pytest_gets_its_cpus_back(
    child: subprocess.Popen[bytes], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv(affinity.SWITCH, raising=False)
    monkeypatch.delenv("PYTEST_XDIST_WORKER", raising=False)
    before = os.sched_getaffinity(0)
    with affinity.shared_cpu(child.pid) as cpu:
        assert cpu is not None and cpu in before
        assert os.sched_getaffinity(0) == {cpu} == os.sched_getaffinity(child.pid)
    assert os.sched_getaffinity(0) == before
    with pytest.raises(RuntimeError), affinity.shared_cpu(child.pid):
        raise RuntimeError("a scenario that fails")
    assert os.sched_getaffinity(0) == before


@linux
def test_nothing_is_held_when_switched_off_or_without_a_host(
    child: subprocess.Popen[bytes], monkeypatch: pytest.MonkeyPatch
) -> None:
    before = os.sched_getaffinity(0)
    with affinity.shared_cpu(None) as cpu:
        assert cpu is None and os.sched_getaffinity(0) == before
    monkeypatch.setenv(affinity.SWITCH, "0")
    with affinity.shared_cpu(child.pid) as cpu:
        assert cpu is None and os.sched_getaffinity(0) == before == os.sched_getaffinity(child.pid)


@linux
def test_an_engine_that_has_ended_is_no_error(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(affinity.SWITCH, raising=False)
    proc = subprocess.Popen([sys.executable, "-c", "pass"])
    proc.wait()
    before = os.sched_getaffinity(0)
    with affinity.shared_cpu(proc.pid) as cpu:
        assert cpu is not None
    assert os.sched_getaffinity(0) == before


PROBE = """\
import os

import pytest

from berserk_rules.runner.traced import GAME_KEY


@pytest.hookimpl(trylast=True)
def pytest_bdd_after_step(request, step):
    game = request.node.stash.get(GAME_KEY, None)
    pool = request.getfixturevalue("berserk_engine_pool")
    pid = pool.held_pid()
    if game is not None and game.started and pid is not None:
        with open(os.environ["PROBE_OUT"], "a", encoding="utf-8") as out:
            out.write(f"{sorted(os.sched_getaffinity(0))} {sorted(os.sched_getaffinity(pid))}\\n")
"""


@linux
@pytest.mark.parametrize(
    "engine",
    [None, "berserk-engine serve"],
    ids=["python-driver-host", "engine-command-of-one-thread"],
)
def test_a_run_holds_each_scenario_with_its_engine(tmp_path: Path, engine: str | None) -> None:
    """A real run in the default isolation: after every step of a started game the pytest process and
    the engine process — the host of the reference driver, or ``berserk-engine serve`` given as a
    command, which declares one thread — are held to the same single CPU."""
    root = Path(__file__).resolve().parents[1]
    (tmp_path / "probe_plugin.py").write_text(PROBE, encoding="utf-8")
    env = {k: v for k, v in os.environ.items() if k not in (affinity.SWITCH, "PYTEST_XDIST_WORKER")}
    env["PYTHONPATH"] = os.pathsep.join([str(tmp_path), env.get("PYTHONPATH", "")])
    env["PROBE_OUT"] = str(tmp_path / "probe.txt")
    command = [
        sys.executable,
        "-m",
        "pytest",
        "tests/test_rulebook.py",
        "-p",
        "no:xdist",
        "-p",
        "probe_plugin",
    ]
    command += [
        "-q",
        "--berserk-select",
        "features/part-3/303-faza-vosstanovleniya.feature",
        "--berserk-results",
        str(tmp_path / "r.json"),
    ]
    if engine is not None:
        command += ["--berserk-engine", f"{Path(sys.executable).parent / 'berserk-engine'} serve"]
    done = subprocess.run(command, cwd=root, env=env, capture_output=True, text=True, check=False)
    assert done.returncode == 0, textwrap.shorten(done.stdout[-2000:], 2000)
    lines = (tmp_path / "probe.txt").read_text(encoding="utf-8").splitlines()
    assert lines
    for line in lines:
        mine, host = line.split("] [")
        assert mine + "]" == "[" + host and "," not in mine, line


def test_an_engine_command_is_held_only_when_it_declares_one_thread() -> None:
    """Which engine process shares the scenario's CPU (``EnginePool.held_pid``)."""
    from types import SimpleNamespace

    from berserk_rules.runner.capabilities import Capabilities
    from berserk_rules.runner.engines import EnginePool

    def held(command: str | None, declared: object, running: bool = True) -> int | None:
        pool = EnginePool.__new__(EnginePool)
        pool.state = SimpleNamespace(engine_command=command, capabilities=declared)  # type: ignore[assignment]
        pool.engine = SimpleNamespace(proc=SimpleNamespace(pid=4242) if running else None)  # type: ignore[assignment]
        return pool.held_pid()

    assert held(None, Capabilities()) == 4242  # our host of a Python driver: always
    assert held("my-engine", Capabilities.from_handshake({"threads": 1})) == 4242
    assert held("my-engine", Capabilities.from_handshake({"threads": 4})) is None
    assert held("my-engine", Capabilities.from_handshake({})) is None  # not said: may run threads
    assert held("my-engine", Capabilities.from_handshake({"threads": True})) is None  # not a number
    assert held("my-engine", None) is None
    assert held(None, Capabilities(), running=False) is None
