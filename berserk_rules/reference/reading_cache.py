"""What the reference engine said about each card of a list, cached on disk (issue 25, «Speed»): a list
read again — the same cards, or most of them — answers from the cache without importing the engine.

The cache of parses (:mod:`berserk_engine.language.grammar`) spares the grammar; this one spares the rest
of a card's reading too (the engine's import, the phrase registry, the mechanics outside our rules),
which dominate a warm run of ``berserk-rules cards``. An entry is the finding about one card (None: it
reads), keyed by the card's columns; the file holding the entries is keyed by a hash of every file of
the engine's package (code, grammar, vocabulary) and the versions of Python, pymorphy3, its dictionaries,
lark and parse — anything the reading depends on. Any change there is a new file, never a stale answer.

The folder is the one of the cache of parses: ``$BERSERK_READER_CACHE``, else
``$XDG_CACHE_HOME/berserk-rules/readings`` (``~/.cache/…``); ``BERSERK_READER_CACHE=off`` — no cache. A
cache that cannot be read or written is no cache, never an error. Nothing here imports the engine.
"""

from __future__ import annotations

import hashlib
import importlib.util
import json
import os
import sys
from functools import cache
from pathlib import Path
from typing import Any

CACHE_ENV = "BERSERK_READER_CACHE"  # as berserk_engine.card_store's (a test compares the folders)
MOST = 20000  # entries kept in one file: a list of a few thousand cards and its edits
_LIBRARIES = ("pymorphy3", "pymorphy3-dicts-ru", "lark", "parse")
_MISSING = object()


def folder() -> Path | None:
    """Where readings are cached (see the module's doc); None when the variable says ``off``. The same
    rule as :func:`berserk_engine.card_store.cache_folder`, written again here because importing that
    module imports the whole engine, which a warm run avoids (tests/test_reading_cache.py holds them
    equal)."""
    return user_cache_folder(CACHE_ENV, "readings")


def user_cache_folder(variable: str, name: str) -> Path | None:
    """A cache of the tools shared by every checkout of the machine: the folder the environment
    ``variable`` names, None when it says ``off``, else ``$XDG_CACHE_HOME`` (or ``~/.cache``)
    ``/berserk-rules/<name>`` (readings here, mypyc builds in ``reference.compiled``)."""
    value = os.environ.get(variable, "")
    if value == "off":
        return None
    if value:
        return Path(value)
    return Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "berserk-rules" / name


@cache
def engine_digest() -> str:
    """A hash of every file of the engine's package and of the libraries' versions ("" when the engine
    cannot be found: then nothing is cached)."""
    spec = importlib.util.find_spec("berserk_engine")  # finds the package without importing it
    if spec is None or not spec.submodule_search_locations:
        return ""
    from importlib.metadata import PackageNotFoundError, version

    digest = hashlib.sha256(sys.version.encode())
    for library in _LIBRARIES:
        try:
            digest.update(f"{library}={version(library)}".encode())
        except PackageNotFoundError:
            digest.update(f"{library}=-".encode())
    for root in spec.submodule_search_locations:
        base = Path(root)
        for path in sorted(base.rglob("*")):
            if path.is_file() and path.suffix in (".py", ".toml", ".lark", ".json", ".txt"):
                digest.update(path.relative_to(base).as_posix().encode())
                digest.update(path.read_bytes())
    return digest.hexdigest()[:24]


class Findings:
    """The cached findings of one engine (see the module's doc): :meth:`get` and :meth:`put` by a card's
    columns, :meth:`save` once at the end."""

    def __init__(self, path: Path | None) -> None:
        self.path = path
        self.entries: dict[str, Any] = {}
        self.changed = False
        if path is not None:
            try:
                data = json.loads(path.read_text(encoding="utf-8"))
                if isinstance(data, dict):
                    self.entries = data
            except (OSError, ValueError):
                pass

    @staticmethod
    def key(card: dict[str, Any]) -> str:
        return json.dumps(card, ensure_ascii=False, sort_keys=True, default=str)

    def get(self, card: dict[str, Any]) -> Any:
        """The cached finding (a dict, or None: the card reads), or :data:`MISSING`."""
        return self.entries.get(self.key(card), _MISSING)

    def put(self, card: dict[str, Any], finding: dict[str, Any] | None) -> None:
        if self.path is not None:
            self.entries[self.key(card)] = finding
            self.changed = True

    def save(self) -> None:
        """Write the entries atomically (another process may read the same file)."""
        if self.path is None or not self.changed:
            return
        try:
            entries = dict(list(self.entries.items())[-MOST:])
            self.path.parent.mkdir(parents=True, exist_ok=True)
            temporary = self.path.with_suffix(f".{os.getpid()}.tmp")
            temporary.write_text(json.dumps(entries, ensure_ascii=False), encoding="utf-8")
            os.replace(temporary, self.path)
        except OSError:
            pass


MISSING = _MISSING


def findings() -> Findings:
    """The findings cached for the engine as it is now (an empty, unsaved set when caching is off)."""
    where = folder()
    digest = engine_digest() if where is not None else ""
    return Findings(where / f"cards-{digest}.json" if where is not None and digest else None)
