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
# this build's (corpus, linker) by (berserk_corpus, berserk_root, source folder): the corpus files do
# not change during a build, and the directives ask thousands of times (a look-up, not a stat of
# every corpus file each time); emptied on builder-inited (:func:`forget_build`)
_THIS_BUILD: dict[tuple[str, str, str], tuple[Any, Any]] = {}


def forget_build() -> None:
    """A new build: the corpus is looked at again (:func:`site_corpus`)."""
    _THIS_BUILD.clear()


def site_corpus(config: Any, srcdir: str | Path) -> tuple[Any, Any] | None:
    """(corpus, :class:`~berserk_rules.site.search.Linker`) of this build, None without a corpus.

    The linker is built once per loaded corpus (:func:`~berserk_rules.corpus.load_corpus` caches
    the corpus until a file of it changes); within one build the pair is looked up once.
    """
    from berserk_rules.corpus import load_corpus

    key = (str(config.berserk_corpus), str(config.berserk_root), str(srcdir))
    if key in _THIS_BUILD:
        return _THIS_BUILD[key]
    try:
        corpus = load_corpus(corpus_root(config, srcdir))
    except UserError as exc:
        logger.warning("корпус не загружен, ссылки в тексте не строятся: %s", exc)
        return None
    if id(corpus) not in _LINKERS:
        _LINKERS.clear()
        _LINKERS[id(corpus)] = (corpus, Linker.build(corpus.entries))
    _THIS_BUILD[key] = _LINKERS[id(corpus)]
    return _THIS_BUILD[key]


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
