"""Replacing a folder the commands write (``export DIR``, ``import --edition --out DIR``) safely.

A command builds its whole output in a new folder beside the target (:class:`StagedFolder`, on
the same file system), and only when it is complete swaps it in with one rename
(``renameat2(RENAME_EXCHANGE)``; where the system has no such call, two renames with the signals
held between them). The old content is then gone through without following symbolic links:

* what the earlier run wrote (``ours``: listed in its manifest, unchanged since) is deleted;
* everything else — the user's own files and folders, symbolic links — is moved into the new
  folder at the same place, so nothing the command did not write is ever deleted;
* a file of the user's that the new output would overwrite (the same path) stops the command
  before anything changed, with one line naming it.

SIGINT and SIGTERM while the output is built stop the command with the old folder as it was and the
new one removed; during the swap they are held and take effect after it (the new folder is then
complete). Only SIGKILL or a power cut in that instant can leave the old content in the hidden
``.NAME.*`` folder beside the target — never in place of it, never deleted.
"""

from __future__ import annotations

import ctypes
import errno
import json
import os
import re
import secrets
import shutil
import signal
import stat
from collections.abc import Callable, Iterator
from contextlib import contextmanager, suppress
from pathlib import Path
from types import FrameType, TracebackType

from berserk_rules.commands._common import make_folder
from berserk_rules.errors import UserError

Ours = Callable[[str, "os.DirEntry[str]"], bool]  # (path relative to the folder, its entry) -> ours?

SIGNAL_NAMES: dict[int, str] = {signal.SIGINT: "Ctrl-C", signal.SIGTERM: "SIGTERM"}


class Interrupted(KeyboardInterrupt):
    """SIGINT or SIGTERM reached the command; ``signum`` says which."""

    def __init__(self, signum: int) -> None:
        super().__init__(signum)
        self.signum = signum

    @property
    def name(self) -> str:
        return SIGNAL_NAMES.get(self.signum, f"сигнал {self.signum}")

    @property
    def code(self) -> int:
        return 128 + self.signum


@contextmanager
def termination_as_interrupt(received: list[int]) -> Iterator[None]:
    """SIGTERM stops the command as Ctrl-C does (an :class:`Interrupted`), for the duration; the
    signals that came are appended to ``received``. Only the first one raises: a second one must
    not cut short the stopping of a child process that the first one began."""

    def handler(signum: int, frame: FrameType | None) -> None:
        received.append(signum)
        if len(received) == 1:
            raise Interrupted(signum)

    previous = signal.signal(signal.SIGTERM, handler)
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, previous)


@contextmanager
def signals_held() -> Iterator[None]:
    """SIGINT and SIGTERM wait until the block is done; then the first one is raised."""
    pending: list[int] = []

    def handler(signum: int, frame: FrameType | None) -> None:
        pending.append(signum)

    previous = {sig: signal.signal(sig, handler) for sig in (signal.SIGINT, signal.SIGTERM)}
    try:
        yield
    finally:
        for sig, old in previous.items():
            signal.signal(sig, old)
    if pending:
        raise Interrupted(pending[0])


def interrupted_by(exc: KeyboardInterrupt, received: list[int]) -> Interrupted:
    """What stopped the command: the exception's signal, else the first one received, else Ctrl-C
    (a child that caught our interruption returns without saying which)."""
    if isinstance(exc, Interrupted):
        return exc
    return Interrupted(received[0] if received else signal.SIGINT)


# --- the swap ------------------------------------------------------------------------------------

_AT_FDCWD = -100
_RENAME_EXCHANGE = 2


def exchange(first: Path, second: Path) -> bool:
    """Swap two existing paths in one atomic step; False where the system cannot (then nothing
    changed). Linux ``renameat2``; other errors are raised as :class:`OSError`."""
    try:
        libc = ctypes.CDLL(None, use_errno=True)
        renameat2 = libc.renameat2
    except (OSError, AttributeError):
        return False
    renameat2.argtypes = [ctypes.c_int, ctypes.c_char_p, ctypes.c_int, ctypes.c_char_p, ctypes.c_uint]
    renameat2.restype = ctypes.c_int
    if renameat2(_AT_FDCWD, os.fsencode(first), _AT_FDCWD, os.fsencode(second), _RENAME_EXCHANGE) == 0:
        return True
    code = ctypes.get_errno()
    if code in (errno.EINVAL, errno.ENOSYS, errno.ENOTSUP, errno.EOPNOTSUPP):
        return False
    raise OSError(code, os.strerror(code), str(second))


def foreign_items(folder: Path, ours: Ours) -> list[str]:
    """What in ``folder`` the command did not write: files, links and whole folders, relative paths.

    A folder with none of ``ours`` anywhere inside is one item; symbolic links are items, never
    followed.
    """
    items: list[str] = []

    def walk(path: str, prefix: str) -> bool:
        found_ours = False
        local: list[str] = []
        with os.scandir(path) as entries:
            for entry in sorted(entries, key=lambda e: e.name):
                rel = prefix + entry.name
                if entry.is_dir(follow_symlinks=False):
                    start = len(items)
                    if walk(entry.path, rel + "/"):
                        found_ours = True
                    else:
                        del items[start:]
                        local.append(rel)
                elif ours(rel, entry):
                    found_ours = True
                else:
                    local.append(rel)
        items.extend(local)
        return found_ours

    walk(str(folder), "")
    return sorted(items)


def remove_ours(folder: Path, ours: Ours) -> list[str]:
    """Delete what ``ours`` says was written in ``folder`` (links unlinked, never followed), then the
    folders left empty; returns what stayed (relative paths; empty when ``folder`` is gone)."""

    def walk(path: str, prefix: str) -> None:
        with os.scandir(path) as entries:
            for entry in list(entries):
                rel = prefix + entry.name
                if entry.is_dir(follow_symlinks=False):
                    walk(entry.path, rel + "/")
                    with suppress(OSError):  # not empty: something of the user's is in it
                        os.rmdir(entry.path)
                elif ours(rel, entry):
                    with suppress(OSError):  # what stays is reported by the caller
                        os.unlink(entry.path)

    with suppress(OSError):
        walk(str(folder), "")
    try:
        os.rmdir(folder)
    except OSError:
        try:
            return foreign_items(folder, lambda rel, entry: False) or [str(folder)]
        except OSError:
            return [str(folder)]
    return []


class StagedFolder:
    """A new folder beside ``target`` to build the output in; removed on exit unless installed."""

    def __init__(self, target: Path, kind: str) -> None:
        self.target = target
        make_folder(target.parent)
        for _ in range(100):  # not mkdtemp: the folder gets the usual permissions (umask), not 0700
            path = target.parent / f".{target.name}.{kind}-{secrets.token_hex(4)}"
            try:
                path.mkdir()
            except FileExistsError:
                continue
            break
        else:  # pragma: no cover - a hundred random names taken
            raise FileExistsError(errno.EEXIST, "нет свободного имени", str(path))
        self.path = path
        self.installed = False
        self.left: list[str] = []  # what could not be moved or removed after the swap
        self.old_at: Path | None = None

    def __enter__(self) -> StagedFolder:
        return self

    def __exit__(
        self, kind: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        if not self.installed:
            shutil.rmtree(self.path, ignore_errors=True)  # only this command's output is in it

    def shown(self, exc: OSError) -> OSError:
        """``exc`` naming the target instead of the new folder (or the target when it names nothing)."""
        name = os.fsdecode(exc.filename) if exc.filename is not None else str(self.target)
        if name == str(self.path) or name.startswith(str(self.path) + os.sep):
            name = str(self.target) + name[len(str(self.path)) :]
        return OSError(exc.errno, exc.strerror, name)

    def install(self, ours: Ours, what: str) -> None:
        """Swap the complete output in for ``target`` (see the module docs); ``ours`` tells the
        earlier output's files in ``target`` from the user's. ``what`` names the output in messages."""
        target = self.target
        moved: list[str] = []
        if target.is_dir():
            moved = foreign_items(target, ours)
            clashes = [rel for rel in moved if _taken(self.path, rel)]
            if clashes:
                shown = ", ".join(clashes[:5]) + (" …" if len(clashes) > 5 else "")
                raise UserError(
                    f"{target}: {what} записал бы файлы поверх ваших ({shown}) — это не его файлы "
                    "(добавлены или изменены после него); перенесите их, ничего не изменено"
                )
        with signals_held():
            if not target.exists():
                os.rename(self.path, target)
                self.installed = True
                return
            with suppress(OSError):  # the new folder keeps the permissions the user gave the old one
                os.chmod(self.path, stat.S_IMODE(os.lstat(target).st_mode))
            if exchange(self.path, target):
                old = self.path
            else:
                old = self.path.with_name(self.path.name + ".old")
                os.rename(target, old)
                try:
                    os.rename(self.path, target)
                except OSError:
                    os.rename(old, target)
                    raise
            self.installed = True
            self.old_at = old
            for rel in moved:
                try:
                    (target / rel).parent.mkdir(parents=True, exist_ok=True)
                    os.rename(old / rel, target / rel)
                except OSError:
                    self.left.append(rel)
            self.left = remove_ours(old, ours)


def _taken(folder: Path, rel: str) -> bool:
    """``folder/rel`` or a path on the way to it exists as something other than a folder."""
    path = folder
    parts = rel.split("/")
    for index, part in enumerate(parts):
        path = path / part
        if index == len(parts) - 1:
            return os.path.lexists(path)
        if not os.path.lexists(path):
            return False
        if path.is_symlink() or not path.is_dir():
            return True
    return False


# --- an edition's folder (``import --edition``) --------------------------------------------------

IMPORT_MARKER = ".berserk-import"  # written last by a complete import: {"format", "name", "files"}
IMPORT_FORMAT = "berserk-edition-import/1"
EDITION_FILES_RE = re.compile(
    r"(edition\.toml|\.berserk-import|rules/(editorial\.toml|glossary\.md|part-\d+\.md|sources/[^/]+\.txt))\Z"
)


def edition_ours(rel: str, entry: os.DirEntry[str]) -> bool:
    """A file an import writes into an edition's folder (any other file there is the user's)."""
    return bool(EDITION_FILES_RE.match(rel)) and entry.is_file(follow_symlinks=False)


def incomplete_import(folder: Path) -> str | None:
    """Why ``folder`` is not a complete import of an edition (None when it is): no marker, a broken
    one, or a file the marker lists that is missing."""
    marker = folder / IMPORT_MARKER
    if not marker.is_file():
        return f"нет отметки о завершённом импорте ({IMPORT_MARKER})"
    try:
        data = json.loads(marker.read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        return f"отметка {IMPORT_MARKER} не читается: {exc}"
    files = data.get("files") if isinstance(data, dict) and data.get("format") == IMPORT_FORMAT else None
    if not isinstance(files, list):
        return f"отметка {IMPORT_MARKER} не того формата (ожидается {IMPORT_FORMAT})"
    missing = [str(f) for f in files if not isinstance(f, str) or not (folder / f).is_file()]
    if missing:
        return f"нет файлов импорта: {', '.join(missing[:5])}" + (" …" if len(missing) > 5 else "")
    return None
