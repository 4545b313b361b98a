"""Helpers shared by the sub-commands."""

from __future__ import annotations

import codecs
import errno
import os
import re
import sys
import tempfile
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from berserk_rules.errors import UserError

DEFAULT_RESULTS = "build/results.json"
# How the commands start pytest for a run of scenarios: no cache folder written into the project,
# and no plugin of an installed library the scenarios never use — Hypothesis (of the development
# set) loads itself into every pytest and cost each run a sixth of a small run's start.
PYTEST = (sys.executable, "-m", "pytest")
RUN_PLUGINS = ("-p", "no:cacheprovider", "-p", "no:hypothesispytest")


def results_path(root: Path, option: str | None) -> Path:
    """The results file: ``--results`` relative to the project root (default build/results.json);
    for the suite of an installed package, relative to the current folder."""
    from berserk_rules.rulebook.project import output_root

    path = Path(option or DEFAULT_RESULTS)
    return path if path.is_absolute() else output_root(root) / path


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
    from berserk_rules.report.results import stale_results

    stale = stale_results(results, scenarios)
    if not stale:
        return
    shown = terminal_text(", ".join(stale[:3]) + (" …" if len(stale) > 3 else ""))  # ids from a file
    print(
        f"berserk-rules {command}: предупреждение: {path}: результаты устарели — сценариев "
        f"{len(stale)} из файла результатов больше нет в features/ ({shown}); "
        "запустите «berserk-rules check»",
        file=sys.stderr,
    )


# --- write failures -------------------------------------------------------------------------------

OS_REASONS = {
    errno.ENOSPC: "нет места на диске",
    errno.EDQUOT: "превышена дисковая квота",
    errno.EROFS: "файловая система только для чтения",
    errno.EACCES: "нет прав на запись",
    errno.EPERM: "операция не разрешена",
    errno.ENOTDIR: "часть пути — файл, а не папка",
    errno.EISDIR: "это папка, а не файл",
    errno.ENOENT: "нет такого файла или папки",
    errno.EEXIST: "уже существует",
    errno.ENOTEMPTY: "папка не пуста",
    errno.ENAMETOOLONG: "слишком длинное имя",
    errno.EIO: "ошибка ввода-вывода",
    errno.EMFILE: "открыто слишком много файлов",
}


def os_error_line(exc: OSError, path: str | Path | None = None) -> str:
    """One line for a failed file operation: the path and the reason, in Russian.

    ``path`` is used when the error itself names no file (``OSError(ENOSPC)`` from a ``write``).
    """
    where = exc.filename if exc.filename is not None else path
    code = errno.errorcode.get(exc.errno or 0)
    reason = OS_REASONS.get(exc.errno or 0) or exc.strerror or str(exc) or type(exc).__name__
    if code:
        reason += f" ({code})"
    if exc.filename2 is not None:
        where = f"{where} → {exc.filename2}"
    return f"{os.fsdecode(where)}: {reason}" if where is not None else reason


class WriteError(UserError):
    """A file or folder could not be written (full disk, read-only folder, path under a file)."""

    def __init__(
        self, exc: OSError, path: str | Path | None = None, what: str = "не удалось записать"
    ) -> None:
        super().__init__(f"{what} {os_error_line(exc, path)}")
        self.os_error = exc


def make_folder(path: Path) -> None:
    """``mkdir -p``; a file in the way is :class:`NotADirectoryError` naming it (not «exists»)."""
    try:
        path.mkdir(parents=True, exist_ok=True)
    except (FileExistsError, NotADirectoryError):
        blocker = next((p for p in (path, *path.parents) if p.exists() and not p.is_dir()), path)
        raise NotADirectoryError(errno.ENOTDIR, os.strerror(errno.ENOTDIR), str(blocker)) from None


def check_writable_folder(folder: Path, option: str) -> None:
    """``folder`` (created if missing) takes a new file; a clear :class:`WriteError` otherwise.

    Checked before a long run, so that a read-only folder or a path under a file is said at once.
    """
    try:
        make_folder(folder)
    except OSError as exc:
        raise WriteError(exc, folder, f"{option}: нельзя писать в") from None
    try:
        handle, name = tempfile.mkstemp(prefix=".berserk-probe-", dir=folder)
        os.close(handle)
        os.unlink(name)
    except OSError as exc:  # named after the folder, not after the probe file
        raise WriteError(
            OSError(exc.errno, exc.strerror, str(folder)), folder, f"{option}: нельзя писать в"
        ) from None


# --- text from an engine on the terminal ----------------------------------------------------------

# Characters a terminal acts on instead of showing them: C0 controls (ESC starts ANSI/OSC
# sequences; BEL, backspace, carriage return and vertical tab move or overwrite), DEL, C1 controls
# (U+009B is an 8-bit CSI) and the bidirectional overrides (text shown in another order than read).
_CONTROL = "\x00-\x08\x0b-\x1f\x7f-\x9f\u200e\u200f\u202a-\u202e\u2066-\u2069"
CONTROL_RE = re.compile(f"[{_CONTROL}]")


def _visible(match: re.Match[str]) -> str:
    code = ord(match.group())
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}"


def terminal_text(text: object) -> str:
    """Engine-provided text made safe to print: every control character shown as ``\\xNN``.

    Newlines and tabs stay (messages and logs keep their lines); everything else a terminal would
    act on — escape sequences (colours, cursor moves, screen clearing, OSC titles and clipboard),
    carriage returns that overwrite a line, bells, C1 controls, bidi overrides — is printed as text,
    so the engine's message stays readable and nothing reaches the terminal as a command.
    """
    return CONTROL_RE.sub(_visible, str(text).replace("\r\n", "\n"))


# SGR sequences pytest itself writes with --color=yes (bold, dim, colours, reset): kept in relayed
# output; any other escape sequence is shown as text by :class:`TerminalFilter`.
_SGR_SAFE = {0, 1, 2, 3, 4, 22, 23, 24, 39, 49, *range(31, 38), *range(90, 98)}
_SGR_RE = re.compile(r"\x1b\[([0-9;]*)m")
_PARTIAL_RE = re.compile(r"(\x1b(\[[0-9;]*)?|\r)\Z")


def _relay_piece(match: re.Match[str], colours: bool) -> str:
    if match.group(1) is not None:  # an SGR sequence
        params = [p for p in match.group(1).split(";") if p]
        if colours and all(p.isdigit() and int(p) in _SGR_SAFE for p in params):
            return match.group()
        return terminal_text(match.group())
    if match.group() == "\r\n":
        return "\n"
    return _visible(match)


_RELAY_RE = re.compile(f"\\x1b\\[([0-9;]*)m|\\r\\n|[{_CONTROL}]")


class TerminalFilter:
    """Streaming :func:`terminal_text` for a child's output that may carry engine text.

    Keeps the colour sequences pytest writes (a fixed set of SGR codes) and shows every other
    control character as text. Chunks may split a UTF-8 character or an escape sequence anywhere.
    """

    def __init__(self, colours: bool = True) -> None:
        self.colours = colours  # False: no escape sequence is kept, not even a colour
        self._decoder = codecs.getincrementaldecoder("utf-8")(errors="replace")
        self._held = ""

    def feed(self, chunk: bytes, final: bool = False) -> bytes:
        text = self._held + self._decoder.decode(chunk, final)
        self._held = ""
        if not final:
            partial = _PARTIAL_RE.search(text)
            if partial and len(text) - partial.start() < 64:
                self._held, text = text[partial.start() :], text[: partial.start()]
        return _RELAY_RE.sub(lambda m: _relay_piece(m, self.colours), text).encode("utf-8", errors="replace")
