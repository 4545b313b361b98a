"""The project on disk: find its folder, read its text files with errors that name file and line.

Every tool reads the project's files through :func:`read_utf8` (an unreadable file, a bad byte, a BOM
or CRLF endings are a :class:`~berserk_rules.errors.SourceError` with the line) and reports a broken
TOML file with :func:`toml_error`.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

from berserk_rules.errors import SourceError, UserError


def read_utf8(path: Path, shown: str | Path | None = None, what: str = "файл", plain: bool = False) -> str:
    """The text of a UTF-8 file; an unreadable or non-UTF-8 file raises :class:`SourceError`.

    ``shown`` is the name used in the message (default ``path``); ``what`` names the file's role
    («файл результатов»). A bad byte is reported at its line, with the OS message in Russian.
    ``plain``: the file is one of our line-based texts (a feature, a corpus page): a byte order
    mark or CRLF line endings (a Windows clone) are errors too, since they change what the
    parsers see (a BOM hides «# language: ru»; a CR ends up in rule text).
    """
    shown = str(shown if shown is not None else path)
    try:
        data = path.read_bytes()
    except IsADirectoryError:
        raise SourceError(shown, None, f"{what}: это папка, а не файл") from None
    except FileNotFoundError:
        raise SourceError(shown, None, f"{what}: нет такого файла") from None
    except PermissionError:
        raise SourceError(shown, None, f"{what}: нет прав на чтение") from None
    except OSError as exc:
        raise SourceError(shown, None, f"{what}: не удалось прочитать ({exc.strerror or exc})") from None
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = data[: exc.start].count(b"\n") + 1
        column = exc.start - (data.rfind(b"\n", 0, exc.start) + 1) + 1
        raise SourceError(
            shown,
            line,
            f"{what} не в кодировке UTF-8: недопустимый байт 0x{data[exc.start]:02x} "
            f"в позиции {column} строки (сохраните файл в UTF-8)",
        ) from None
    if plain:
        _check_plain(text, shown, what)
    return text


def _check_plain(text: str, shown: str, what: str) -> None:
    """A BOM or a carriage return in a line-based text: :class:`SourceError` at its line."""
    if text.startswith("\ufeff"):
        raise SourceError(
            shown, 1, f"{what} начинается с метки порядка байтов (BOM): сохраните его в UTF-8 без BOM"
        )
    index = text.find("\r")
    if index >= 0:
        line = text.count("\n", 0, index) + 1
        ending = "CRLF (Windows)" if text.startswith("\r\n", index) else "CR"
        raise SourceError(
            shown,
            line,
            f"{what}: строки кончаются на {ending}; нужны окончания LF "
            "(в клоне для Windows: git config core.autocrlf input и заново извлеките файлы)",
        )


def toml_error(shown: str | Path, exc: Exception) -> SourceError:
    """A :class:`SourceError` at the line named by a ``tomllib.TOMLDecodeError``."""
    message = str(exc)
    found = re.search(r"\(at line (\d+), column (\d+)\)$", message)
    line = int(found[1]) if found else None
    if found:
        message = message[: found.start()].rstrip() + f" (позиция {found[2]})"
    return SourceError(shown, line, f"некорректный TOML: {message}")


PROJECT_TABLE = "[tool.berserk-rules]"
_FALLBACK_NOTED: set[Path] = set()


def _is_project(folder: Path) -> bool:
    """A berserk-rules project: pyproject.toml with a [tool.berserk-rules] table, or beside rules/."""
    pyproject = folder / "pyproject.toml"
    if not pyproject.is_file():
        return False
    if (folder / "rules").is_dir():
        return True
    try:
        return PROJECT_TABLE in pyproject.read_text(encoding="utf-8", errors="replace")
    except OSError:
        return False


def project_root() -> Path:
    """The project folder: upward from the current folder, the first berserk-rules project.

    A project is a folder with ``pyproject.toml`` that has a ``[tool.berserk-rules]`` table or a
    ``rules/`` folder beside it; a project missing ``rules/`` or ``features/`` is then an error
    where it is used, never a silent switch to another checkout. Only when the current folder is
    in no project at all (an engine author running the suite from their own folder) is the
    checkout this package was installed from used, and that is said once on stderr.
    """
    cwd = Path.cwd().resolve()
    for folder in (cwd, *cwd.parents):
        if _is_project(folder):
            return folder
    package = Path(__file__).resolve().parents[1]  # berserk_rules/
    for folder in package.parents:
        if _is_project(folder):
            if folder not in _FALLBACK_NOTED:
                _FALLBACK_NOTED.add(folder)
                print(
                    f"berserk-rules: {cwd} — не в проекте berserk-rules; используется проект {folder}",
                    file=sys.stderr,
                )
            return folder
    suite = installed_suite()
    if suite is not None:
        return suite
    raise UserError(f"не найден проект berserk-rules (папка с pyproject.toml и rules/) ни в {cwd}, ни выше")


# The suite as package data: a wheel carries the corpus, the features and what runs them
# (pyproject.toml, conftest.py, tests/test_rulebook.py, docs/protocol.md) under berserk_rules/suite/,
# laid out as a project (setup.py copies them there at build time; the checkout has no such folder).
SUITE_DATA = "suite"
# What the suite folder holds, relative to the project root: the folders whole, the files one by one.
SUITE_FOLDERS = ("rules", "features", "runners")
SUITE_FILES = (
    "pyproject.toml",
    "conftest.py",
    "tests/test_rulebook.py",
    "docs/protocol.md",
    "docs/step-reference.md",
    "suite-manifest.json",
    "CHANGELOG-suite.md",
    "LICENSE",
)


def installed_suite() -> Path | None:
    """The suite carried by an installed wheel (``berserk_rules/suite/``), or None in a checkout."""
    folder = Path(__file__).resolve().parents[1] / SUITE_DATA  # berserk_rules/suite/
    return folder if _is_project(folder) else None


def is_installed_suite(root: Path) -> bool:
    """``root`` is the suite carried by the installed package: read it, never write into it."""
    suite = installed_suite()
    return suite is not None and root.resolve() == suite


def output_root(root: Path) -> Path:
    """Where a command's relative output paths (``build/results.json``) go: the project in a
    checkout; the current folder when the project is the installed suite (package data is read,
    never written)."""
    return Path.cwd() if is_installed_suite(root) else root
