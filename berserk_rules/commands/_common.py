"""Helpers shared by the sub-commands."""

from __future__ import annotations

import sys
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from berserk_rules.errors import UserError

DEFAULT_RESULTS = "build/results.json"


def results_path(root: Path, option: str | None) -> Path:
    """The results file: ``--results`` relative to the project root (default build/results.json)."""
    path = Path(option or DEFAULT_RESULTS)
    return path if path.is_absolute() else root / path


def existing_results(root: Path, option: str | None) -> Path:
    """The results file to read; an explicit ``--results`` that does not exist is a user error.

    Without the option a missing default file only means that nothing has run yet.
    """
    path = results_path(root, option)
    if option and not path.exists():
        raise UserError(f"--results {option}: нет такого файла ({path})")
    return path


def warn_stale(results: dict[str, Any], scenarios: Iterable[Any], path: Path, command: str) -> None:
    """Warn (stderr) when the results name scenarios that are no longer in ``features/``."""
    from berserk_rules.features import stale_results

    stale = stale_results(results, scenarios)
    if not stale:
        return
    shown = ", ".join(stale[:3]) + (" …" if len(stale) > 3 else "")
    print(
        f"berserk-rules {command}: предупреждение: {path}: результаты устарели — сценариев "
        f"{len(stale)} из файла результатов больше нет в features/ ({shown}); "
        "запустите «berserk-rules check»",
        file=sys.stderr,
    )
