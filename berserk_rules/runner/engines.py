"""The engine pool: the driver class of the run, the engine process of one pytest process, and the
checked driver of one scenario (fixtures ``berserk_driver_class``, ``berserk_engine_pool``,
``berserk_driver``)."""

from __future__ import annotations

import os
import shlex
import sys
import time
from collections.abc import Iterator
from typing import Any

import pytest

from berserk_rules.errors import UserError
from berserk_rules.harness.checked import InProcessDriver, ProcessDriver
from berserk_rules.harness.driver import Driver, resolve_driver
from berserk_rules.harness.protocol import EngineProcess
from berserk_rules.report.vectors import VectorRecorder
from berserk_rules.runner.affinity import shared_cpu
from berserk_rules.runner.capabilities import (
    NOT_APPLICABLE_PROPERTY,
    Capabilities,
    CapabilityGuard,
    static_reason,
)
from berserk_rules.runner.state import ENGINE_PROPERTY, State, scenario_id_of, scenario_ref, state_of
from berserk_rules.runner.vectors import PASSED_KEY, VECTOR_KEY, write_vector


def driver_class(config: pytest.Config) -> type:
    """The driver class chosen for this run (``--berserk-driver``, default the reference engine)."""
    state = state_of(config)
    if state.driver is None:
        try:
            state.driver = resolve_driver(state.driver_spec)
        except UserError as exc:
            raise pytest.UsageError(str(exc)) from exc
    return state.driver


@pytest.fixture(scope="session")
def berserk_driver_class(pytestconfig: pytest.Config) -> type:
    """The engine driver class chosen with ``--berserk-driver``."""
    return driver_class(pytestconfig)


class EnginePool:
    """The engine of one pytest process: a :class:`~berserk_rules.harness.protocol.EngineProcess` reused
    scenario after scenario (``--berserk-isolation process``, the default), or the driver class
    called in process (``none``)."""

    def __init__(self, config: pytest.Config) -> None:
        self.config = config
        self.state = state_of(config)
        self.engine: EngineProcess | None = None

    def command(self) -> tuple[list[str], str]:
        """The engine's command line and how messages name it."""
        state = self.state
        if state.engine_command is not None:
            try:
                argv = shlex.split(state.engine_command)
            except ValueError as exc:
                raise pytest.UsageError(f"--berserk-engine: {exc}") from None
            return argv, state.engine_command
        driver_class(self.config)  # a bad spec is a usage error here, not in the host
        return [sys.executable, "-m", "berserk_rules.harness.host", state.driver_spec], state.driver_spec

    def driver(self, scenario: str | None) -> Driver:
        state = self.state
        if state.isolation == "none" and state.engine_command is None:
            driver = InProcessDriver(driver_class(self.config)())
            state.engine_info = state.engine_info or engine_info(state)
            declared = getattr(driver_class(self.config), "capabilities", None)
            state.capabilities = Capabilities.from_handshake(declared)
            return driver
        if self.engine is None:
            argv, shown = self.command()
            env = dict(os.environ)
            paths = [p for p in sys.path if p]
            env["PYTHONPATH"] = os.pathsep.join([*paths, *filter(None, [env.get("PYTHONPATH")])])
            cwd = state.engine_cwd if state.engine_command is not None else state.root
            self.engine = EngineProcess(argv, cwd=str(cwd), env=env, timeout=state.timeout, shown=shown)
        deadline = time.monotonic() + state.scenario_timeout
        info = self.engine.ensure(deadline)
        state.capabilities = Capabilities.from_handshake(info.get("capabilities"))
        state.engine_info = {
            **info["engine"],
            "protocol": info["protocol"],
            **({"command": state.engine_command} if state.engine_command else {"driver": state.driver_spec}),
        }
        return ProcessDriver(self.engine, scenario, state.scenario_timeout)

    def held_pid(self) -> int | None:
        """The engine process that shares the scenario's CPU (:mod:`berserk_rules.runner.affinity`): our
        host serving a Python driver, or an engine given as a command that answers in one thread
        (``capabilities.threads`` 1); None for other engines and for a driver in process."""
        if self.engine is None or self.engine.proc is None:
            return None
        if self.state.engine_command is not None:
            caps = self.state.capabilities
            if not isinstance(caps, Capabilities) or caps.threads != 1:
                return None
        return self.engine.proc.pid

    def close(self) -> None:
        if self.engine is not None:
            self.engine.close()


@pytest.fixture(scope="session")
def berserk_engine_pool(pytestconfig: pytest.Config) -> Iterator[EnginePool]:
    """The engine of this pytest process (started on first use, stopped at the end)."""
    pool = EnginePool(pytestconfig)
    yield pool
    pool.close()


@pytest.fixture
def berserk_driver(request: pytest.FixtureRequest, berserk_engine_pool: EnginePool) -> Iterator[Driver]:
    """The driver of one scenario: every request and answer checked against the schemas; an
    engine that crashes, hangs or breaks the contract makes this scenario an ``error``."""
    state = state_of(request.config)
    scenario = scenario_id_of(request.node, state) if isinstance(request.node, pytest.Item) else None
    driver: Driver = berserk_engine_pool.driver(scenario)
    if state.engine_info is not None:
        request.node.user_properties.append((ENGINE_PROPERTY, state.engine_info))
    caps = state.capabilities
    if isinstance(caps, Capabilities) and not caps.everything:
        ref = scenario_ref(state, scenario) if scenario is not None else None
        reason = static_reason(caps, ref) if ref is not None else None
        if reason is not None:
            driver.close()
            request.node.user_properties.append((NOT_APPLICABLE_PROPERTY, reason))
            pytest.skip(f"не применим: {reason}")
        driver = CapabilityGuard(driver, caps)
    recorder = None
    if state.export is not None and scenario is not None:
        recorder = request.node.stash[VECTOR_KEY] = VectorRecorder()
    try:
        with shared_cpu(berserk_engine_pool.held_pid()):
            yield driver
    finally:
        driver.close()
    if recorder is not None and recorder.position is not None and scenario is not None:
        write_vector(state, scenario, recorder, request.node.stash.get(PASSED_KEY, False))


def engine_info(state: State) -> dict[str, Any]:
    """The engine as the results name it."""
    if state.engine_info is not None:
        return {"isolation": state.isolation, **state.engine_info}
    if state.engine_command is not None:
        return {"name": None, "version": None, "command": state.engine_command}
    try:
        cls = state.driver or resolve_driver(state.driver_spec)
        state.driver = cls
    except UserError as exc:
        return {"name": None, "version": None, "driver": state.driver_spec, "error": str(exc)}
    return {"name": cls.name, "version": cls.version, "driver": state.driver_spec}  # type: ignore[attr-defined]
