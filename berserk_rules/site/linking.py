"""The corpus of this build and its linker (rule numbers and terms in text → links), built once per
loaded corpus, and which references an edition's corpus can resolve."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from sphinx.util import logging

from berserk_rules.errors import UserError
from berserk_rules.site.data import corpus_root
from berserk_rules.site.search import Linker

logger = logging.getLogger(__name__)

_LINKERS: dict[int, Any] = {}


def site_corpus(config: Any, srcdir: str | Path) -> tuple[Any, Any] | None:
    """(corpus, :class:`~berserk_rules.site.search.Linker`) of this build, None without a corpus.

    The linker is built once per loaded corpus (:func:`~berserk_rules.corpus.load_corpus` caches
    the corpus until a file of it changes).
    """
    from berserk_rules.corpus import load_corpus

    try:
        corpus = load_corpus(corpus_root(config, srcdir))
    except UserError as exc:
        logger.warning("корпус не загружен, ссылки в тексте не строятся: %s", exc)
        return None
    if id(corpus) not in _LINKERS:
        _LINKERS.clear()
        _LINKERS[id(corpus)] = (corpus, Linker.build(corpus.entries))
    return _LINKERS[id(corpus)]


def site_linker(config: Any, srcdir: str | Path) -> Any:
    """The :class:`~berserk_rules.site.search.Linker` of this build's corpus (None without a corpus)."""
    loaded = site_corpus(config, srcdir)
    return loaded[1] if loaded else None


def entry_known(config: Any, srcdir: str | Path) -> Callable[[str, str], bool]:
    """``known(kind, id)``: does this edition's corpus have the rule / term / interpretation?

    Only an edition's site (``berserk_corpus`` set) shows references it lacks as text; on the
    project's own site every reference must resolve (a broken one fails the build under -W).
    """
    loaded = site_corpus(config, srcdir) if config.berserk_corpus else None

    def known(kind: str, ident: str) -> bool:
        if loaded is None:
            return True
        corpus, linker = loaded
        if kind == "rule":
            return ident in linker.rule_ids
        if kind == "termin":
            return ident in linker.term_slugs
        return ident in corpus.interpretations

    return known
