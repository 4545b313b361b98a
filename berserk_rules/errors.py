"""Errors that reach the user as a clear message (file:line), never as a traceback."""

from __future__ import annotations

from pathlib import Path


class UserError(Exception):
    """Bad input from a user: a file, an argument, a rule id. Printed without a traceback."""


class SourceError(UserError):
    """An error located in a file: ``path:line: message``."""

    def __init__(self, path: str | Path, line: int | None, message: str) -> None:
        self.path = str(path)
        self.line = line
        self.message = message
        where = f"{self.path}:{line}" if line else self.path
        super().__init__(f"{where}: {message}")


class ScenarioInputError(Exception):
    """A scenario that cannot be run as written: an impossible or malformed position, «Дано» steps
    that contradict each other, a table cell of the wrong kind. The scenario's fault, not the
    engine's: its result is an ``error`` with the scenario's file and line, and ``check`` stops
    with exit code 2 without replacing the results of the last complete run."""
