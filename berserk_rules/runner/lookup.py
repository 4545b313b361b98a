"""pytest-bdd's step lookup, remembered by step kind and text.

For every step of every scenario pytest-bdd's ``get_step_function`` asks pytest for the definitions
of *every* fixture name of the session (~35 names here, each a walk up the item's parents) to find
the step definitions that match the step's text, injects them under a temporary fixture name and
resolves that name. Which definition it finds depends only on the step's kind and text and on the
step definitions visible to the item — and those are registered on collectors (plugins, conftest
files, test modules), never on the item itself, so every item of one collector sees the same ones.

:func:`get_step_function` therefore remembers pytest-bdd's answer (the step's context, or None
when no definition matches) for the item's parent collector, the step's kind and its text, and
forgets everything when a fixture is registered on a collector (a new session, a module collected
later) — looked at once per scenario, not per step. A step's definition is thus found once
per distinct step text instead of once per step; what a step runs, its arguments, and the messages
and hooks of a step without definition stay pytest-bdd's. Only with the pytest 9.2 fixture registry
(by node) — with another pytest, pytest-bdd's lookup runs every time.

Nor does pytest-bdd's lookup of a new text walk every fixture name any more: the step definitions
a collector's items see are listed once per collector, and a text is tried against each of them
(the three dispatching steps of :mod:`berserk_rules.steps.registry`, pytest-bdd's built-in «trace»
steps, a project's own). When one definition matches, it is the one pytest-bdd would find; when none
does, there is none; only when several match — a module's step that overrides a conftest's — is
pytest-bdd asked, for its rules of precedence.
"""

from __future__ import annotations

import importlib
from typing import Any

import pytest
from pytest_bdd.compat import get_fixture_names, getfixturedefs
from pytest_bdd.steps import step_function_context_registry

# the module, not the function ``pytest_bdd.scenario`` that the package exports under its name
bdd_scenario = importlib.import_module("pytest_bdd.scenario")
ORIGINAL = bdd_scenario.get_step_function


class _Memory:
    def __init__(self) -> None:
        self.registry: Any = None  # the fixture manager whose answers are remembered
        self.size = -1  # its registrations on collectors then
        self.found: dict[tuple[Any, str, str], Any] = {}
        self.visible: dict[Any, list[Any] | None] = {}  # collector -> the step definitions its items see
        self.item: Any = None  # the item whose registrations were last counted (its steps share them)


_MEMORY = _Memory()


def _collector_registrations(manager: Any) -> int:
    """How many (fixture name, collector) registrations the fixture manager holds — those that can
    hold step definitions. A fixture pytest-bdd registers on an item (a step's ``target_fixture``)
    is a value, not a step definition, and is not counted."""
    total = sum(len(per_nodeid) for per_nodeid in manager._arg2nodeid2fixturedefs.values())
    for per_node in manager._arg2node2fixturedefs.values():
        for node in per_node:
            if not isinstance(node, pytest.Item):
                total += 1
    return total


def get_step_function(request: pytest.FixtureRequest, step: Any) -> Any:
    """pytest-bdd's ``get_step_function``, remembered (see the module's docstring)."""
    __tracebackhide__ = True
    manager = request._fixturemanager
    parent = request.node.parent
    if parent is None or not hasattr(manager, "_arg2node2fixturedefs"):
        return ORIGINAL(request, step)
    memory = _MEMORY
    if memory.registry is not manager or memory.item is not request.node:
        # counted once per scenario: collectors get their fixtures while pytest collects
        size = _collector_registrations(manager)
        if memory.registry is not manager or memory.size != size:
            memory.registry, memory.size, memory.found, memory.visible = manager, size, {}, {}
        memory.item = request.node
    key = (parent, step.type, step.name)
    try:
        return memory.found[key]
    except KeyError:
        pass
    if parent not in memory.visible:
        memory.visible[parent] = visible_steps(manager, request.node)
    visible = memory.visible[parent]
    matches = (
        [c for c in visible if c.type in (None, step.type) and c.parser.is_matching(step.name)]
        if visible is not None
        else None
    )
    if matches is None or len(matches) > 1:
        context = ORIGINAL(request, step)
    else:
        context = matches[0] if matches else None
    memory.found[key] = context
    return context


def visible_steps(manager: Any, node: pytest.Item) -> list[Any] | None:
    """The step definitions (pytest-bdd's step contexts) visible to ``node``: each fixture
    definition of each fixture name that pytest gives the node and that is a step. (None would mean
    «not listed»: pytest-bdd then looks every new text up itself — what a test compares with.)"""
    contexts = []
    for name in get_fixture_names(fixturemanager=manager):
        for fixturedef in getfixturedefs(manager, name, node) or []:
            context = step_function_context_registry.get(fixturedef.func)
            if context is not None:
                contexts.append(context)
    return contexts


def install() -> None:
    """Use :func:`get_step_function` in pytest-bdd's scenario runner (idempotent)."""
    setattr(bdd_scenario, "get_step_function", get_step_function)  # noqa: B010 - a module of pytest-bdd
