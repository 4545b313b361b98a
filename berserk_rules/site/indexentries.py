"""The index entries of ``searchindex.js`` (rules, terms, interpretations), whole after any rebuild.

Sphinx's search index takes a page's index entries only when it writes the page
(``IndexBuilder.feed``). It keeps them in the build environment, which it saves *before* writing,
and does not read them back from the previous ``searchindex.js`` (``IndexBuilder.load`` skips
``indexentries``). So a rebuild wrote a ``searchindex.js`` with the entries of the pages it wrote
and none of the others: after ``berserk-rules site`` with nothing changed, none at all (328 on a full
build of the project's site, 0 after the rebuild) — the search no longer offered the rules and
terms as index entries.

:func:`on_html_page_context` completes them just before the index is written (Sphinx writes the
search page last, then the index): each page the index lists and no page written now gave entries
to gets them from what the index domain keeps for every page (read with the page, saved with the
environment, merged from parallel readers), turned into search entries by Sphinx's own rule
(:func:`search_entries`, as ``feed`` does); in page order, as a full build has them.
"""

from __future__ import annotations

from typing import Any

from sphinx.application import Sphinx
from sphinx.util.index_entries import split_index_msg

NO_SEARCH = ("no-search", "nosearch")  # page metadata that keeps a page out of the search (Sphinx)


def search_entries(entries: list[tuple[str, str, str, str, str | None]]) -> list[tuple[str, str, str]]:
    """A page's index entries as Sphinx's search index keeps them (``IndexBuilder.feed``)."""
    found: set[tuple[str, str, str]] = set()
    for entry_type, value, target_id, main, _category in entries:
        try:
            result = split_index_msg(entry_type, value)
        except ValueError:
            continue
        target_id = target_id or ""
        if entry_type in {"see", "seealso"}:
            found.add((result[0], target_id, main))
        found |= {(item, target_id, main) for item in result}
    return sorted(found)


def on_html_page_context(
    app: Sphinx, pagename: str, templatename: str, context: dict[str, Any], doctree: Any
) -> None:
    """On the search page (written after every other page, before the index): complete the index
    entries of the pages not written in this build."""
    indexer = getattr(app.builder, "indexer", None)
    if pagename != "search" or indexer is None:
        return
    env = app.env
    kept = env.domains.index_domain.entries
    # the indexer's own tables (IndexBuilder: pages by name, index entries by page), as freeze() reads them
    titles: dict[str, Any] = indexer._titles
    entries: dict[str, list[tuple[str, str, str]]] = indexer._index_entries
    complete = {}
    for docname in sorted(titles):
        if docname in entries:
            complete[docname] = entries[docname]
        elif any(key in env.metadata.get(docname, {}) for key in NO_SEARCH):
            complete[docname] = []
        else:
            complete[docname] = search_entries(kept.get(docname, []))
    entries.clear()  # the same table, in page order
    entries.update(complete)
