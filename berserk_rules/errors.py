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
