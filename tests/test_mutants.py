"""The list of deliberately broken engines (tools/mutants.py) follows the engine: every mutant still
applies — its text occurs exactly once in its file. Running them is a measurement
(``.venv/bin/python tools/mutants.py``), too slow for every test run."""

from __future__ import annotations

import importlib.util
import sys
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def _tool():
    spec = importlib.util.spec_from_file_location("mutants_tool", ROOT / "tools" / "mutants.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["mutants_tool"] = module
    spec.loader.exec_module(module)
    return module


def test_every_mutant_applies_to_the_engine() -> None:
    tool = _tool()
    mutants = tool.load()
    assert mutants, "no mutants found in tools/mutants/"
    missing = [f"{m.source}: {m.name} ({m.file})" for m in mutants if not tool.applies(m)]
    assert not missing, "mutants whose text is no longer in the engine:\n" + "\n".join(missing)
    names = [m.name for m in mutants]
    assert len(names) == len(set(names)), "two mutants share a name"


def test_every_keyword_term_has_a_mutant() -> None:
    """Issue 6: the mutants break at least one behaviour of every keyword, effect and card rule of the
    glossary — a mutant that names the term as what catches it, or a mutant of a keyword module that
    implements this term alone. A core module (effects, deck, squad …) implements many rules and
    terms, so a mutant somewhere in it proves nothing about one of them: it must name the term."""
    sys.path.insert(0, str(ROOT / "tests"))
    try:
        from test_glossary_terms import KEYWORD_TERMS
    finally:
        sys.path.remove(str(ROOT / "tests"))
    mutants = _tool().load()
    files = {m.file for m in mutants}
    breaks = {m.breaks for m in mutants}
    terms_of = Counter(KEYWORD_TERMS.values())

    def own_module(module: str) -> bool:
        return module.startswith("keywords.") and terms_of[module] == 1

    bare = [
        f"{term} ({module})"
        for term, module in KEYWORD_TERMS.items()
        if term not in breaks
        and not (own_module(module) and "engine/berserk_engine/" + module.replace(".", "/") + ".py" in files)
    ]
    assert not bare, "glossary terms no mutant breaks:\n" + "\n".join(bare)


def test_every_printed_construction_has_a_mutant() -> None:
    """Issue 29: every printed construction — a «// --- …» block of syntax/constructions.lark with its
    «// basis: …» lines (the rule, term or interpretation it rests on) — is broken by at least one mutant
    of tools/mutants/constructions.toml that names one of those bases: the scenarios of features/part-8 must
    catch it (``tools/mutants.py``, a measurement)."""
    import re

    lark = ROOT / "engine" / "berserk_engine" / "language" / "syntax" / "constructions.lark"
    source = lark.read_text(encoding="utf-8")
    blocks = re.split(r"\n(?=// --- )", source)[1:]
    breaks = {m.breaks for m in _tool().load() if m.source == "constructions.toml"}
    unnamed = [block.splitlines()[0] for block in blocks if not re.search(r"^// basis: ", block, re.M)]
    assert not unnamed, "конструкции без строки «// basis: …»:\n" + "\n".join(unnamed)
    bare = [
        block.splitlines()[0]
        for block in blocks
        if not set(re.findall(r"^// basis: (\S+)", block, re.M)) & breaks
    ]
    assert not bare, "конструкции, которых не ломает ни один мутант constructions.toml:\n" + "\n".join(bare)
