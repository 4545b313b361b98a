"""The sidebar's navigation tree, computed from the pages' titles only.

furo asks every page for the whole site's table of contents with ``titles_only=True`` (its sidebar,
``furo/__init__.py``: ``_compute_navigation_tree``). Sphinx answers by copying each page's whole
table of contents — every section of every page, thousands of scenario headings — and only then
dropping all but the pages' titles (``sphinx/environment/adapters/toctree.py``:
``_entries_from_toctree``). That copy, once per written page, was the largest single cost of a build.

Here the titles are kept once per build (:func:`titles_only`, on the first page written — by the
main process, before Sphinx forks its writers): each page's table of contents pruned exactly as
Sphinx prunes it for ``titles_only``. The sidebar's call is answered from those
(:func:`on_html_page_context`), by the same Sphinx function over the same structure, so the HTML
is the same; every other call of ``toctree()`` goes to Sphinx unchanged. A page whose table of
contents Sphinx would not copy verbatim (an ``only`` node, a ``tocdepth`` of its own) keeps it whole.
"""

from __future__ import annotations

from typing import Any, cast

from docutils import nodes
from sphinx import addnodes
from sphinx.application import Sphinx
from sphinx.builders import Builder
from sphinx.environment import BuildEnvironment
from sphinx.environment.adapters.toctree import global_toctree_for_doc

# furo's call (furo/__init__.py, _compute_navigation_tree): the only one answered from the titles
SIDEBAR_CALL = {"collapse": False, "titles_only": True, "maxdepth": -1, "includehidden": True}


def pruned(toc: nodes.Element) -> nodes.Element:
    """A copy of one page's table of contents as Sphinx leaves it for ``titles_only``: each top-level
    entry keeps its title and, in place of its sections, the sub-toctrees found inside them."""
    copy = toc.deepcopy()
    for top_level in copy.children:
        if isinstance(top_level, nodes.Element) and len(top_level) > 1:
            subtrees = list(top_level.findall(addnodes.toctree))
            if subtrees:
                top_level[1][:] = subtrees
            else:
                top_level.pop(1)
    return copy


def verbatim_copy(env: BuildEnvironment, docname: str, toc: nodes.Element) -> bool:
    """Does Sphinx copy this page's table of contents node for node (so pruning before the copy
    gives what pruning after it gives)?"""
    if env.metadata.get(docname, {}).get("tocdepth", 0):
        return False
    return not any(True for _ in toc.findall(addnodes.only))


class TitlesOnly:
    """The build environment with each page's table of contents pruned to its titles (read-only)."""

    def __init__(self, env: BuildEnvironment, tocs: dict[str, nodes.bullet_list]) -> None:
        self._env = env
        self.tocs = tocs

    def __getattr__(self, name: str) -> Any:
        return getattr(self._env, name)


def titles_only_tocs(app: Sphinx, builder: Builder) -> None:
    """On ``write-started``: this build's pruned tables of contents are made on first use — in the
    main process, which writes the first page before Sphinx forks its writers."""
    app.berserk_titles_only = None  # type: ignore[attr-defined]


def titles_only(app: Sphinx) -> TitlesOnly:
    """The build environment with the pruned tables of contents of this build's pages."""
    made = getattr(app, "berserk_titles_only", None)
    if made is None:
        env = app.env
        tocs = {
            docname: pruned(toc) if verbatim_copy(env, docname, toc) else toc
            for docname, toc in env.tocs.items()
        }
        made = app.berserk_titles_only = TitlesOnly(env, tocs)  # type: ignore[attr-defined]
    return made


def on_html_page_context(
    app: Sphinx, pagename: str, templatename: str, context: dict[str, Any], doctree: Any
) -> None:
    """Before furo's handler: its sidebar call of ``toctree()`` is answered from the titles."""
    original = context.get("toctree")
    if original is None or not hasattr(app, "berserk_titles_only"):
        return
    builder = app.builder

    def toctree(**kwargs: Any) -> str:
        if kwargs != SIDEBAR_CALL:
            return str(original(**kwargs))
        # what StandaloneHTMLBuilder._get_local_toctree does, over the pruned tables of contents
        tree = global_toctree_for_doc(
            cast(BuildEnvironment, titles_only(app)), pagename, builder, tags=builder.tags, **kwargs
        )
        return str(builder.render_partial(tree)["fragment"])  # type: ignore[attr-defined]

    context["toctree"] = toctree
