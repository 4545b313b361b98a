"""Issue 25 retires the old reader's phrase registry: keywords, payments, limits, effects and trigger
conditions are read by the grammar of ``berserk_engine.language`` only, from its written grammar and its data
files. This is the ratchet: the registry is gone (no ``phrase`` / ``condition`` to register with, no
``PHRASES``), and no module of the engine calls a registration of that name, so it cannot come back
unnoticed."""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

import berserk_engine.grammar as grammar
import berserk_engine.triggers as triggers

ENGINE = Path(__file__).resolve().parents[1] / "engine" / "berserk_engine"
REGISTERING = {"phrase", "condition"}  # the names the registry's registrations went by


def _registrations(source: str, where: str) -> Iterator[str]:
    """Every call of a function named like a registration (a decorator ``@phrase(…)`` too)."""
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Call):
            func = node.func
            name = func.id if isinstance(func, ast.Name) else getattr(func, "attr", None)
            if name in REGISTERING:
                yield f"{where}:{node.lineno}"


def test_the_phrase_registry_is_gone() -> None:
    for name in ("phrase", "PHRASES", "all_phrases"):
        assert not hasattr(grammar, name), f"berserk_engine.grammar.{name} вернулся"
    assert not hasattr(triggers, "condition"), "berserk_engine.triggers.condition вернулся"


def test_no_module_of_the_engine_registers_a_phrase() -> None:
    found = [
        where
        for path in sorted(ENGINE.rglob("*.py"))
        for where in _registrations(path.read_text(encoding="utf-8"), str(path.relative_to(ENGINE)))
    ]
    assert not found, f"регистрации фраз: {found}"


def test_the_check_finds_a_registration() -> None:
    """The scan can fail: it finds the forms the registry was called in."""
    sample = (
        '@condition("Когда …", "Когда …: возьмите карту.", "401.4")\n'
        "def f(fields): ...\n"
        'phrase("trigger", "Найм", "Найм: возьмите карту.")(f)\n'
        "grammar.phrase('effect', 'x', 'x')(f)\n"
    )
    assert len(list(_registrations(sample, "образец"))) == 3
