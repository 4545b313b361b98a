"""No import cycle among the modules of berserk_rules/ — counting the imports inside functions too
(a cycle hidden by a late import is still a cycle of the design), but not those under
``if TYPE_CHECKING:``. The runner's old circle (plugin → lint → steps → context → plugin) is gone;
the steps import what they need from ``berserk_rules.runner``."""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = ROOT / "berserk_rules"

KNOWN: list[set[str]] = []  # no import cycle is tolerated


def module_name(path: Path, root: Path = ROOT) -> str:
    parts = list(path.relative_to(root).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def imported(path: Path, name: str, modules: set[str]) -> set[str]:
    """The modules of berserk_rules that ``path`` imports (anywhere but under TYPE_CHECKING)."""
    names: set[str] = set()
    package = name.split(".") if path.name == "__init__.py" else name.split(".")[:-1]

    def visit(node: ast.AST) -> None:
        if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
            for child in node.orelse:
                visit(child)
            return
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                base = ".".join(package[: len(package) - node.level + 1] + ([base] if base else []))
            names.add(base)
            names.update(f"{base}.{alias.name}" for alias in node.names)
        for child in ast.iter_child_nodes(node):
            visit(child)

    visit(ast.parse(path.read_text(encoding="utf-8")))
    found: set[str] = set()
    for full in names:
        parts = full.split(".")
        for end in range(len(parts), 0, -1):
            candidate = ".".join(parts[:end])
            if candidate in modules:
                found.add(candidate)
                # importing a.b.c runs a and a.b first (not when they are the importer's own packages)
                for up in range(1, end):
                    parent = ".".join(parts[:up])
                    if parent in modules and not name.startswith(parent + "."):
                        found.add(parent)
                break
    found.discard(name)
    return found


def cycles(graph: dict[str, set[str]]) -> list[set[str]]:
    """The strongly connected components of more than one module (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[set[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for target in sorted(graph[node]):
            if target not in index:
                visit(target)
                low[node] = min(low[node], low[target])
            elif target in on_stack:
                low[node] = min(low[node], index[target])
        if low[node] == index[node]:
            component = set()
            while True:
                top = stack.pop()
                on_stack.discard(top)
                component.add(top)
                if top == node:
                    break
            if len(component) > 1:
                found.append(component)

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return found


def import_graph() -> dict[str, set[str]]:
    paths = {module_name(p): p for p in PACKAGE.rglob("*.py")}
    return {name: imported(path, name, set(paths)) for name, path in paths.items()}


def test_no_import_cycle_in_berserk_rules() -> None:
    graph = import_graph()
    assert "berserk_rules.runner.vectors" in graph["berserk_rules.steps.context"]
    assert [c for c in cycles(graph) if c not in KNOWN] == []


def test_the_cycle_finder_finds_a_late_import_cycle() -> None:
    graph = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}
    assert cycles(graph) == [{"a", "b", "c"}]
    assert cycles({"a": {"b"}, "b": set()}) == []


# --- the harness and the reference engine -------------------------------------------------------------
#
# berserk_rules checks any engine: it imports nothing from the reference engine (berserk_engine) but
# in its package berserk_rules.reference, where that engine itself is the point (docs/protocol.md,
# «Эталонный сервер»; docs/architecture.md, «Устройство репозитория»). Each such module, and why:
REFERENCE = "berserk_rules.reference"
ENGINE_USERS = {
    # the reference engine as an in-process driver, loaded by name (driver.DEFAULT_DRIVER, --driver;
    # its public name berserk_rules.drivers.reference only re-exports it)
    "berserk_rules.reference.driver",
    # for the commands about the reference engine itself: compile it with mypyc, benchmark it, read
    # card text
    "berserk_rules.reference.compiled",
    "berserk_rules.reference.bench",
    "berserk_rules.reference.card_reading",
    # the site's catalogue of the card-text forms the reference engine reads
    "berserk_rules.reference.phrase_catalogue",
    # the site's catalogue of the card language: the reader's grammar, vocabulary and examples read
    "berserk_rules.reference.card_language",
    "berserk_rules.reference.card_examples",
    # the deck-list rules are the reference implementation's, whichever engine plays the games
    "berserk_rules.reference.deck_rules",
}
# what runs a scenario on an engine given as a command: none of it may load berserk_engine on import
HARNESS = (
    "berserk_rules.cli",
    "berserk_rules.pytest_plugin",
    "berserk_rules.harness.host",
    "berserk_rules.harness.protocol",
    "berserk_rules.harness.contract",
    "berserk_rules.harness.messages",
    "berserk_rules.harness.driver",
    "berserk_rules.steps.all",
    "berserk_rules.report.vectors",
    "berserk_rules.report.results",
    "berserk_rules.report.junit",
    "berserk_rules.report.matrix",
)


def engine_importers(package: Path = PACKAGE, root: Path = ROOT) -> set[str]:
    """The modules of berserk_rules that import berserk_engine anywhere (but under TYPE_CHECKING)."""
    found = set()
    for path in package.rglob("*.py"):
        name = module_name(path, root)
        if any(m == "berserk_engine" or m.startswith("berserk_engine.") for m in imported_names(path, name)):
            found.add(name)
    return found


def imported_names(path: Path, name: str) -> set[str]:
    """Every module name ``path`` imports (absolute, whatever package), but under TYPE_CHECKING."""
    names: set[str] = set()

    def visit(node: ast.AST) -> None:
        if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
            for child in node.orelse:
                visit(child)
            return
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and not node.level and node.module:
            names.add(node.module)
        for child in ast.iter_child_nodes(node):
            visit(child)

    visit(ast.parse(path.read_text(encoding="utf-8")))
    return names


def test_only_the_reference_package_imports_the_reference_engine() -> None:
    found = engine_importers()
    outside = sorted(name for name in found if name != REFERENCE and not name.startswith(REFERENCE + "."))
    assert not outside, (
        f"import berserk_engine in {outside}: outside {REFERENCE} the tooling imports nothing from the "
        "reference engine (run it as a command, load it by name, or put the code in the reference package)"
    )
    assert "berserk_rules.harness.host" not in found  # it used to subclass the engine's serve.Session


def test_each_reference_module_that_imports_the_engine_is_named() -> None:
    found = engine_importers()
    extra, gone = sorted(found - ENGINE_USERS), sorted(ENGINE_USERS - found)
    assert found == ENGINE_USERS, f"import berserk_engine, not named here: {extra}; named, no longer: {gone}"


def test_an_engine_import_outside_the_reference_package_is_found(tmp_path: Path) -> None:
    """The check above is no check if the finder misses a module: a tooling module that imports the
    engine (at the top or late) is found, under its package's name."""
    package = tmp_path / "berserk_rules"
    (package / "report").mkdir(parents=True)
    (package / "report" / "leak.py").write_text(
        "def f():\n    import berserk_engine.game\n", encoding="utf-8"
    )
    (package / "reference").mkdir()
    (package / "reference" / "fine.py").write_text("from berserk_engine import bench\n", encoding="utf-8")
    assert engine_importers(package, tmp_path) == {
        "berserk_rules.report.leak",
        "berserk_rules.reference.fine",
    }


def test_the_harness_loads_no_reference_engine() -> None:
    import subprocess
    import sys

    code = (
        "import importlib, sys\n"
        f"for name in {HARNESS!r}: importlib.import_module(name)\n"
        "print(sorted(m for m in sys.modules if m.split('.')[0] == 'berserk_engine'))\n"
    )
    done = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True)
    assert done.stdout.strip() == "[]", done.stdout


def test_the_engine_import_finder_finds_a_late_import(tmp_path: Path) -> None:
    module = tmp_path / "late.py"
    module.write_text(
        "from typing import TYPE_CHECKING\n"
        "if TYPE_CHECKING:\n    import berserk_engine.game\n"
        "def f():\n    from berserk_engine.serve import Session\n",
        encoding="utf-8",
    )
    assert "berserk_engine.serve" in imported_names(module, "late")
    assert "berserk_engine.game" not in imported_names(module, "late")


MAX_LINES = 600  # issue 17: a module of the tooling does one job; a longer one is split, not grown


def test_no_module_of_the_tooling_is_longer_than_600_lines() -> None:
    long = {
        str(path.relative_to(ROOT)): n
        for path in sorted(PACKAGE.rglob("*.py"))
        if (n := len(path.read_text(encoding="utf-8").splitlines())) > MAX_LINES
    }
    assert not long, f"длиннее {MAX_LINES} строк (разделите по работам): {long}"
