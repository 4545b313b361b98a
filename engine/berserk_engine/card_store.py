"""The store of card definitions: a printed card read by one process is not read again by the next.

Reading a card's text — sentences, the grammar, the dictionary of word forms — is the dearest thing a
short game does: the 541 card texts of the scenarios cost a process ≈ 0.5 s, more than a third of what
the reference engine spends on a whole run of the suite, while a definition unpickled from a file
costs ≈ 20 µs. So :func:`berserk_engine.setup.build_library` keeps every definition it builds in this
store, and :func:`berserk_engine.grammar.parse_ability` every ability it reads by its words (the Queue
reads each declared ability so), and the next process of the same engine takes them from there (issue 28:
not re-computing what did not change).

The store lives with the reader's cache of parses (``$BERSERK_READER_CACHE``, else
``$XDG_CACHE_HOME/berserk-rules/readings``, ``~/.cache/…``; ``off`` — no cache, and then no store): a folder
``card-definitions.<key>`` with one file per definition. The key is a hash of the *contents* of every file
of the package, of Python's version and of the versions of the reader libraries (lark, pymorphy3 and its
dictionaries): an engine that was edited, mutated (``tools/mutants.py`` copies the package) or upgraded
never reads what another built, while a fresh checkout, another worktree or a ``git switch`` there and
back — the same files under new times of change — finds the definitions its twin stored. Hashing the
files costs a few milliseconds, so each process first looks at the files' path, size and time of change
(as Python's bytecode cache does, taken when the package starts to load: this module is the first of it
that is imported) and takes the content key remembered for them in the package's ``__pycache__``; only
when that is missing (a fresh checkout, an edit) are the files read and hashed. A file changed while a
process runs gives other processes a new key, never this one's definitions under it. The store is written
only when bytecode is (not under ``PYTHONDONTWRITEBYTECODE``, ``sys.dont_write_bytecode``). The stores of
the :data:`KEPT` most recently used keys are kept; opening a new one removes the older ones.

Any failure is only a miss — a folder that cannot be written, a damaged or foreign file — and the card
is read again. Only the pure-Python engine keeps a store: the mypyc build's frozen classes cannot be
unpickled. ``BERSERK_ENGINE_CARD_STORE=0`` turns the store off (``tools/floor_suite.py --card-store``
measures the scenario run with it and without it).
"""

from __future__ import annotations

import dataclasses
import hashlib
import importlib.util
import io
import os
import pickle
import shutil
import sys
from pathlib import Path
from typing import Any

PACKAGE = Path(__file__).resolve().parent
PREFIX = "card-definitions."
KEY_PREFIX = "card-store-key."  # in the package's __pycache__: the content key of the files as they stand
KEPT = 8  # stores of other keys kept beside the one in use (other checkouts, other versions of the engine)
MAX_ENTRIES = 8192  # definitions one store keeps (a fuzzer's random cards stop being kept there)
SWITCH = "BERSERK_ENGINE_CARD_STORE"  # "0": no store
READER_LIBRARIES = ("lark", "pymorphy3", "pymorphy3_dicts_ru")
CACHE_ENV = "BERSERK_READER_CACHE"  # the reader's cache folder (as berserk_engine.language.grammar's)


def package_files(package: Path | None = None) -> list[tuple[str, int, int]]:
    """(path in the package, size, time of change) of every file of the package but its caches."""
    package = PACKAGE if package is None else package
    found = []
    for folder, dirs, files in os.walk(package):
        dirs[:] = sorted(d for d in dirs if d != "__pycache__" and not d.startswith("."))
        for name in sorted(files):
            path = os.path.join(folder, name)
            try:
                stat = os.stat(path)
            except OSError:
                continue
            found.append((os.path.relpath(path, package), stat.st_size, stat.st_mtime_ns))
    return found


# the package's files as this process loads them (see the module doc): taken on import, before any
# other module of the engine (``berserk_engine/__init__.py`` imports this one first); a compiled engine
# keeps no store (:func:`_open`), so its start-up does not walk its files
FILES = package_files() if __file__.endswith(".py") else []


def _library_files() -> list[tuple[str, int, int]]:
    """The reader libraries' own files (an upgrade rewrites them), found without importing them."""
    found = []
    for name in READER_LIBRARIES:
        spec = importlib.util.find_spec(name)
        origin = spec.origin if spec is not None else None
        if origin is None:
            found.append((name, -1, -1))
            continue
        stat = os.stat(origin)
        found.append((origin, stat.st_size, stat.st_mtime_ns))
    return found


def store_key(files: list[tuple[str, int, int]] | None = None) -> str:
    """The key of the package's files as they stand (path, size, time of change) and of this Python: what
    the content key is remembered under in the package's ``__pycache__``."""
    parts = [sys.version, sys.implementation.cache_tag or "", repr(FILES if files is None else files)]
    parts.append(repr(_library_files()))  # an upgraded library: its version goes into the content key
    return hashlib.sha256("\n".join(parts).encode("utf-8")).hexdigest()[:24]


def content_key(package: Path | None = None, files: list[tuple[str, int, int]] | None = None) -> str:
    """The key of the store: the contents of the package's files (not where they lie, not when they were
    written), Python's version and the reader libraries' versions (read from their files: importing
    ``importlib.metadata`` costs more than the hashing)."""
    digest = hashlib.sha256(f"{sys.version}\n{sys.implementation.cache_tag}\n".encode())
    for name in READER_LIBRARIES:  # a library's version: its package's first file and version.py
        spec = importlib.util.find_spec(name)
        origin = Path(spec.origin) if spec is not None and spec.origin else None
        for version_file in (origin, origin.with_name("version.py")) if origin is not None else ():
            try:
                digest.update(f"{name}/{version_file.name}\0".encode() + version_file.read_bytes())
            except OSError:
                continue
    folder = PACKAGE if package is None else package
    for name, _, _ in FILES if files is None else files:
        try:
            data = (folder / name).read_bytes()
        except OSError:  # gone meanwhile: the key says so
            data = b"\0missing"
        digest.update(f"{Path(name).as_posix()}\0{len(data)}\0".encode())
        digest.update(data)
    return digest.hexdigest()[:24]


def cache_folder() -> Path | None:
    """The reader's cache folder (see the module doc), None when ``$BERSERK_READER_CACHE`` says ``off``."""
    value = os.environ.get(CACHE_ENV, "")
    if value == "off":
        return None
    if value:
        return Path(value)
    return Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "berserk-rules" / "readings"


def rebuilt(kind: type, attributes: tuple[tuple[str, Any], ...]) -> Any:
    """An object of ``kind`` with these attributes set in this order, as its ``__init__`` set them.

    Pickle's own way — ``__new__``, then the attributes put into a ``__dict__`` of its own — gives
    objects whose attributes CPython no longer reads on its fast path (their values are not stored
    with the object's class layout): games from such cards ran 2 % slower and listed the legal actions
    9 % slower (``berserk-rules bench``). Set one by one in the order of the original, they are stored
    as the original's are."""
    made: Any = object.__new__(kind)
    for name, value in attributes:
        object.__setattr__(made, name, value)
    return made


class _Pickler(pickle.Pickler):
    """Pickles a dataclass with a ``__dict__`` (a card, its abilities, their parts) as :func:`rebuilt`
    of its attributes in their order; everything else as pickle does."""

    def reducer_override(self, obj: Any) -> Any:
        kind = type(obj)
        if dataclasses.is_dataclass(kind) and hasattr(obj, "__dict__"):
            return rebuilt, (kind, tuple(obj.__dict__.items()))
        return NotImplemented


class CardStore:
    """Definitions by their key (the printed card: name and properties) in ``folder``."""

    def __init__(self, folder: Path, write: bool = True) -> None:
        self.folder = folder
        self.write = write
        self.room: int | None = None  # how many more definitions may be written (counted on first write)

    @staticmethod
    def _name(key: tuple[Any, ...]) -> str:
        return hashlib.sha256(repr(key).encode("utf-8")).hexdigest()[:40] + ".pickle"

    def get(self, key: tuple[Any, ...]) -> Any | None:
        """The definition stored under ``key``, or None (not stored, or unreadable)."""
        try:
            with open(self.folder / self._name(key), "rb") as file:
                stored_key, definition = pickle.load(file)
        except FileNotFoundError:
            return None
        except Exception:  # a damaged file, a class that changed: read the card again
            return None
        return definition if stored_key == key else None

    def put(self, key: tuple[Any, ...], definition: Any) -> None:
        """Keep ``definition`` under ``key`` (atomically; any failure leaves the store as it was)."""
        if not self.write:
            return
        try:
            if self.room is None:
                self.room = MAX_ENTRIES - self._prepare()
            if self.room <= 0:
                return
            buffer = io.BytesIO()
            _Pickler(buffer, protocol=pickle.HIGHEST_PROTOCOL).dump((key, definition))
            data = buffer.getvalue()
            target = self.folder / self._name(key)
            temporary = target.with_name(f".{target.name}.{os.getpid()}.tmp")
            temporary.write_bytes(data)
            os.replace(temporary, target)
            self.room -= 1
        except Exception:  # an unwritable folder, a definition that cannot be pickled: no store
            self.write = False

    def _prepare(self) -> int:
        """Make the folder (removing the least recently used stores beside it, :data:`KEPT` are kept);
        the entries it holds."""
        if not self.folder.is_dir():
            others = []
            for other in self.folder.parent.glob(PREFIX + "*"):
                try:
                    others.append((other.stat().st_mtime_ns, other))
                except OSError:
                    continue
            for _, other in sorted(others, reverse=True)[KEPT:]:
                shutil.rmtree(other, ignore_errors=True)
            self.folder.mkdir(parents=True, exist_ok=True)
        return sum(1 for entry in os.scandir(self.folder) if entry.name.endswith(".pickle"))


_STORE: list[CardStore | None] = []  # the process's store, made on first use (None: none)


def store() -> CardStore | None:
    """The store of this process, or None when it keeps none (switched off, a compiled engine)."""
    if not _STORE:
        _STORE.append(_open())
    return _STORE[0]


def _open() -> CardStore | None:
    # compiled, this module is a native one like the card definitions' (the mypyc build compiles every
    # module of the engine but the process server and the card language)
    if os.environ.get(SWITCH) == "0" or not __file__.endswith(".py"):
        return None
    where = cache_folder()
    if where is None:
        return None
    write = not sys.dont_write_bytecode
    try:
        key = _remembered_key(write)
    except OSError:
        return None
    if key is None:
        return None
    folder = where / (PREFIX + key)
    if write:
        try:
            os.utime(folder)  # used now: the least recently used stores are the ones removed
        except OSError:
            pass  # not made yet (the first definition makes it), or not ours to touch
    return CardStore(folder, write=write)


def _remembered_key(write: bool) -> str | None:
    """The content key of the package's files, remembered in its ``__pycache__`` under their stat key
    (read and hashed only when it is not remembered; remembered only where bytecode is written). None
    when the files changed since this process loaded them: what it read is not what it runs."""
    remembered = PACKAGE / "__pycache__" / (KEY_PREFIX + store_key())
    try:
        key = remembered.read_text(encoding="ascii")
        if len(key) == 24 and all(c in "0123456789abcdef" for c in key):
            return key
    except OSError:
        pass
    key = content_key()
    if package_files() != FILES:  # changed since this process loaded them (before or while hashed)
        return None
    if write:
        try:
            remembered.parent.mkdir(exist_ok=True)
            for old in remembered.parent.glob(KEY_PREFIX + "*"):  # the keys of files as they were
                old.unlink(missing_ok=True)
            for old in remembered.parent.glob(PREFIX + "*"):  # stores kept here before issue 28's 11th round
                shutil.rmtree(old, ignore_errors=True)
            temporary = remembered.with_name(f".{remembered.name}.{os.getpid()}.tmp")
            temporary.write_text(key, encoding="ascii")
            os.replace(temporary, remembered)
        except OSError:
            pass
    return key
