"""Helpers shared by the sub-commands."""

from __future__ import annotations

from pathlib import Path


def results_path(root: Path, option: str | None) -> Path:
    """The results file: ``--results`` relative to the project root (default build/results.json)."""
    path = Path(option or "build/results.json")
    return path if path.is_absolute() else root / path
