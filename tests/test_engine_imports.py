"""The engine's modules import one another without a circle, and one catalogue loads them in its order.

An import counts wherever it is written — at the top of a module or inside a function (a function-level
import runs when the function does: a circle through it is still a circle at run time); only imports
under ``if TYPE_CHECKING:`` (never run) are left out.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

from berserk_engine import catalogue, hooks
from berserk_engine.keywords import KEYWORDS

ENGINE = Path(__file__).resolve().parent.parent / "engine" / "berserk_engine"


def _modules(root: Path) -> dict[str, Path]:
    found = {}
    for path in root.rglob("*.py"):
        parts = ["berserk_engine", *path.relative_to(root).with_suffix("").parts]
        if parts[-1] == "__init__":
            parts = parts[:-1]
        found[".".join(parts)] = path
    return found


def import_graph(root: Path = ENGINE) -> dict[str, set[str]]:
    """Module -> the engine modules it imports (``from package import module`` counts as the module)."""
    modules = _modules(root)
    graph: dict[str, set[str]] = {m: set() for m in modules}
    for name, path in modules.items():
        tree = ast.parse(path.read_text(encoding="utf-8"))
        never_run: set[int] = set()
        for node in ast.walk(tree):
            test = node.test if isinstance(node, ast.If) else None
            if isinstance(test, ast.Name) and test.id == "TYPE_CHECKING":
                never_run.update(id(n) for part in node.body for n in ast.walk(part))
        for node in ast.walk(tree):
            if id(node) in never_run:
                continue
            if isinstance(node, ast.Import):
                graph[name].update(a.name for a in node.names if a.name in modules)
            elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
                subs = {f"{node.module}.{a.name}" for a in node.names} & modules.keys()
                if subs:
                    graph[name].update(subs)
                elif node.module in modules:
                    graph[name].add(node.module)
    return graph


def circles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan), or of one that imports itself."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in sorted(graph[v]):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                component.append(w)
                if w == v:
                    break
            if len(component) > 1 or v in graph[v]:
                found.append(sorted(component))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return found


def test_the_engine_has_no_import_circle() -> None:
    found = circles(import_graph())
    assert not found, "круг импортов движка: " + "; ".join(" ↔ ".join(c) for c in found)


def test_the_circle_check_finds_a_circle(tmp_path: Path) -> None:
    # The false case: a function-level import back is a circle too.
    (tmp_path / "a.py").write_text("from berserk_engine import b\n", encoding="utf-8")
    (tmp_path / "b.py").write_text("def f():\n    from berserk_engine.a import x\n", encoding="utf-8")
    only_for_types = "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from berserk_engine import a\n"
    (tmp_path / "c.py").write_text(only_for_types, encoding="utf-8")
    assert circles(import_graph(tmp_path)) == [["berserk_engine.a", "berserk_engine.b"]]


def test_the_catalogue_names_every_module_that_registers() -> None:
    """Every keyword module and every module of the engine is imported by the catalogue — written
    there, in its order — so nothing registers by the order of file names."""
    text = (ENGINE / "catalogue.py").read_text(encoding="utf-8")
    listed = set(re.findall(r"^    (\w+),$", text, re.M))
    keyword_modules = {p.stem for p in (ENGINE / "keywords").glob("*.py") if p.stem != "__init__"}
    assert keyword_modules <= listed, f"не в каталоге: {sorted(keyword_modules - listed)}"
    assert {kw.module.rsplit(".", 1)[-1] for kw in KEYWORDS.values()} <= listed
    assert catalogue.__doc__ and "I-59" in catalogue.__doc__


def test_prevention_order_is_the_catalogue_s() -> None:
    # I-59: «Броня Х» is spent before a prevention effect made by a card.
    assert [h.__module__ for h in hooks.WOUND_PREVENTION] == [
        "berserk_engine.keywords.armour",
        "berserk_engine.keywords.prevention",
    ]
