"""A scenario and its engine process on one CPU (issue 28).

With the driver in a process of its own (``--berserk-isolation process``, the default) a scenario and
the engine take turns: pytest sends a request and waits, the engine answers and waits. Nothing runs in
parallel, yet the system puts the two on different CPUs whenever one is idle, and every request then
wakes a process on the other CPU, whose caches hold the other process's data. On the two-core machine
of the project that cost a whole-suite run 0.8 s of its 6.2 s CPU time (and as much wall time); with
both on one CPU the run took 5.3 s (paired, ``BERSERK_RULES_SHARED_CPU=0`` against the default).

So for the time of one scenario the pytest process and the engine process are held to one CPU — the
one pytest runs on (under pytest-xdist each worker its own: the worker's number among the allowed
CPUs) — and afterwards pytest gets back the CPUs it had: the tests around it and the processes it
starts keep their parallelism. The host of a Python driver (``berserk_rules.harness.host``) is held:
it answers one request at a time in one thread. An engine given as a command (``--berserk-engine``)
may run threads of its own; it is held only when its handshake says it answers in one thread
(``capabilities.threads`` 1, as ``berserk-engine serve`` says), and left alone otherwise. Where the
system has no CPU affinity (not Linux) nothing is done; ``BERSERK_RULES_SHARED_CPU=0`` turns it off.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from contextlib import contextmanager

SWITCH = "BERSERK_RULES_SHARED_CPU"  # "0": off


def current_cpu() -> int | None:
    """The CPU this process runs on now (Linux: field 39 of ``/proc/self/stat``), or None."""
    try:
        with open("/proc/self/stat", encoding="ascii") as file:
            fields = file.read().rsplit(")", 1)[1].split()
        return int(fields[36])  # the fields after the command's name start at field 3
    except (OSError, IndexError, ValueError):
        return None


def chosen_cpu(allowed: set[int], worker: str | None) -> int | None:
    """The CPU of a scenario: a pytest-xdist worker's by its number (``gw3`` → the fourth of the allowed,
    round), so that workers do not share one; else the one this process runs on."""
    ordered = sorted(allowed)
    if not ordered:
        return None
    if worker and worker.startswith("gw") and worker[2:].isdigit():
        return ordered[int(worker[2:]) % len(ordered)]
    cpu = current_cpu()
    return cpu if cpu in allowed else ordered[0]


@contextmanager
def shared_cpu(engine_pid: int | None) -> Iterator[int | None]:
    """Hold this process and ``engine_pid`` to one CPU while the block runs (the CPU, or None when they
    are not held); this process gets its CPUs back at the end."""
    setter = getattr(os, "sched_setaffinity", None)
    if engine_pid is None or setter is None or os.environ.get(SWITCH) == "0":
        yield None
        return
    try:
        before = os.sched_getaffinity(0)
        cpu = chosen_cpu(before, os.environ.get("PYTEST_XDIST_WORKER"))
        if cpu is None or len(before) < 2:
            yield None
            return
        setter(0, {cpu})
    except OSError:
        yield None
        return
    try:
        try:
            setter(engine_pid, {cpu})
        except OSError:  # the engine has just ended: the scenario finds out by itself
            pass
        yield cpu
    finally:
        try:
            setter(0, before)
        except OSError:  # pragma: no cover - the CPUs this process had are still there
            pass
