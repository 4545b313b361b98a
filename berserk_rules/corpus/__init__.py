"""The rule corpus ``rules/*.md``: its model, file format, loader and fidelity check.

Modules: :mod:`~berserk_rules.corpus.model` (what a corpus is and lookup in it),
:mod:`~berserk_rules.corpus.syntax` (the directive format, parsed into blocks),
:mod:`~berserk_rules.corpus.loader` (blocks → checked entries, cached) and
:mod:`~berserk_rules.corpus.fidelity` (the corpus against the source texts).
"""

from berserk_rules.corpus.loader import load_corpus as load_corpus

# Moved to berserk_rules.rulebook.project; still importable from here for the modules that other branches
# are changing now (lint.py, pytest_plugin.py, commands/export.py, import.py, site.py). Import them
# from berserk_rules.rulebook.project in new code.
from berserk_rules.rulebook.project import project_root as project_root
from berserk_rules.rulebook.project import read_utf8 as read_utf8
from berserk_rules.rulebook.project import toml_error as toml_error
