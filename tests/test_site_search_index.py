"""Sphinx's search index fed each word of a page once (berserk_rules.site.search.index_each_word_once)
records what it records fed every occurrence: the same stems, pages and titles, in the same order."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

from docutils.core import publish_doctree
from sphinx.search import IndexBuilder

from berserk_rules.site.search import index_each_word_once

PAGES = {
    "a": "Атака и защита\n==============\n\nСущество атакует. Существо атакует снова, атакует и "
    "атакует.\n\nЗащита\n------\n\nЗащитник закрывает атаку; атака закрыта. Защита и атака.\n",
    "b": "Ход\n===\n\nХод за ходом: ход, ходы, ходом. Атака — в свой ход. and the and the\n",
}


def indexer() -> Any:
    env = SimpleNamespace(
        domains={},
        version=1,
        **{
            f"_search_index_{name}": {}
            for name in (
                "titles",
                "filenames",
                "mapping",
                "title_mapping",
                "all_titles",
                "index_entries",
                "objtypes",
                "objnames",
            )
        },
    )
    return IndexBuilder(env, "ru", {}, "")  # type: ignore[arg-type]


def fed(once: bool) -> list[Any]:
    index = indexer()
    if once:
        index_each_word_once(SimpleNamespace(builder=SimpleNamespace(indexer=index)), None, "")  # type: ignore[arg-type]
    for name, text in PAGES.items():
        doctree = publish_doctree(text)
        index.feed(name, f"{name}.rst", name, doctree)
    return [
        [(k, sorted(v)) for k, v in index._mapping.items()],
        [(k, sorted(v)) for k, v in index._title_mapping.items()],
        index._all_titles,
    ]


def test_each_word_once_records_what_every_occurrence_records() -> None:
    once, every = fed(True), fed(False)
    assert every[0] and every[1]  # the pages were indexed
    assert once == every


def test_the_collector_is_wrapped_once() -> None:
    index = indexer()
    app = SimpleNamespace(builder=SimpleNamespace(indexer=index))
    index_each_word_once(app, None, "")  # type: ignore[arg-type]
    wrapped = index._word_collector
    index_each_word_once(app, None, "")  # type: ignore[arg-type]
    assert index._word_collector is wrapped
    store = wrapped(publish_doctree(PAGES["a"]))
    assert len(store.words) == len(set(store.words))
