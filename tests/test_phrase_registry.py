"""Issue 25 retires the old reader's phrase registry (``berserk_engine.grammar.phrase``): keywords,
payments, limits and effects are read by the grammar of ``berserk_engine.language`` only. This is the
ratchet: no module of the engine registers a phrase of any category but a trigger condition (the
conditions «Когда …» still listed there, see docs/reader.md «Что осталось»), so a category once gone
stays gone."""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

ENGINE = Path(__file__).resolve().parents[1] / "engine" / "berserk_engine"


def _registrations() -> Iterator[tuple[str, ast.Call]]:
    """Every call of the registry's ``phrase`` (a decorator ``@phrase(…)`` too) in the engine's modules;
    a module with a function of its own named ``phrase`` (not the registry's) is not asked."""
    for path in sorted(ENGINE.rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        if any(isinstance(n, ast.FunctionDef) and n.name == "phrase" for n in ast.walk(tree)):
            if path.name != "grammar.py" or path.parent != ENGINE:
                continue
        for node in ast.walk(tree):
            if isinstance(node, ast.Call):
                func = node.func
                name = func.id if isinstance(func, ast.Name) else getattr(func, "attr", None)
                if name == "phrase":
                    yield f"{path.relative_to(ENGINE)}:{node.lineno}", node


def test_no_module_registers_a_phrase_but_a_trigger_condition() -> None:
    calls = list(_registrations())
    other = [
        where
        for where, call in calls
        if not (call.args and isinstance(call.args[0], ast.Constant) and call.args[0].value == "trigger")
    ]
    assert not other, f"фразы реестра вне условий срабатывания: {other}"
    assert calls, "условия срабатывания ещё регистрируются фразами: проверка должна их находить"
