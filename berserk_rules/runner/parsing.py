"""One Gherkin parse per feature file in a run: pytest-bdd is given the runner's own.

The runner parses every feature file itself (scenario ids, tags, the rules a scenario checks:
:func:`berserk_rules.rulebook.features.parse_feature`, remembered per file name and text), and
pytest-bdd parsed each file again with the same Gherkin parser — the same work twice, about a twentieth
of the scenario run. :func:`install` makes pytest-bdd's ``get_gherkin_document`` build its document
from the runner's parse (``GherkinDocument.from_dict`` of the very dict the Gherkin parser returned)
when the runner's parser reads the file exactly as pytest-bdd's would: a UTF-8 file without a byte
order mark or CR (pytest-bdd reads it in text mode) whose first line names its language
(``# language: ru``) — pytest-bdd's parser starts in English and ours in Russian, and only the header
makes them agree. Any other file, a file with a syntax error, another encoding: pytest-bdd's own
parse, as before (its errors and messages unchanged).
"""

from __future__ import annotations

import glob
import importlib
import os
import re
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from gherkin.token_matcher import TokenMatcher  # type: ignore[import-untyped]

from berserk_rules.errors import SourceError
from berserk_rules.rulebook.features import parse_feature, relative_name
from berserk_rules.runner.capabilities import file_selected

# the module, not a name the package exports
bdd_parser = importlib.import_module("pytest_bdd.parser")
bdd_scenario = importlib.import_module("pytest_bdd.scenario")
ORIGINAL = bdd_parser.get_gherkin_document
ORIGINAL_FEATURES = bdd_scenario.get_features
LANGUAGE = re.compile(TokenMatcher.LANGUAGE_RE.pattern)  # the Gherkin parser's own «# language:»

_root: list[Path] = []  # the run's root (the runner's parses are named relative to it)
_selection: list[str] = []  # the run's --berserk-select (paths from the root), empty: every file


def shared_gherkin_document(abs_filename: str, encoding: str = "utf-8") -> Any:
    """pytest-bdd's ``get_gherkin_document``, from the runner's parse where it is the same (see the
    module's doc)."""
    if encoding.replace("-", "").lower() == "utf8" and _root:
        try:
            parsed = parse_feature(Path(abs_filename), _root[0])
        except SourceError:
            parsed = None  # not read, or not parsed: pytest-bdd says why in its own words
        if parsed is not None and LANGUAGE.match(parsed.text.split("\n", 1)[0]):
            return bdd_parser.GherkinDocument.from_dict(parsed.document)
    return ORIGINAL(abs_filename, encoding)


def selected_features(paths: Iterable[str], encoding: str = "utf-8") -> Any:
    """pytest-bdd's ``get_features`` for ``scenarios("../features")``, given only the feature files a
    ``--berserk-select`` can choose from (the rest are never parsed into tests, collected and then
    deselected: a run of one file no longer makes 828 tests first). Without a selection, its own."""
    if not _selection or not _root:
        return ORIGINAL_FEATURES(paths, encoding=encoding)
    files: list[str] = []
    for path in paths:
        if os.path.isdir(path):
            files += glob.iglob(os.path.join(path, "**", "*.feature"), recursive=True)
        else:
            files.append(path)
    root = _root[0]
    kept = [f for f in files if file_selected(relative_name(Path(f), root), _selection)]
    return ORIGINAL_FEATURES(kept, encoding=encoding)


def install(root: Path, selection: Iterable[str] = ()) -> None:
    _root[:] = [root]
    _selection[:] = list(selection)
    setattr(bdd_parser, "get_gherkin_document", shared_gherkin_document)  # noqa: B010 — mypy knows no such name there
    setattr(bdd_scenario, "get_features", selected_features)  # noqa: B010 — the same
