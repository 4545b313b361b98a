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

import re
from typing import Any, cast

from docutils import nodes
from sphinx import addnodes
from sphinx.application import Sphinx
from sphinx.builders import Builder
from sphinx.environment import BuildEnvironment
from sphinx.environment.adapters.toctree import global_toctree_for_doc

# furo's call (furo/__init__.py, _compute_navigation_tree): the only one answered from the titles
SIDEBAR_CALL = {"collapse": False, "titles_only": True, "maxdepth": -1, "includehidden": True}
SIDEBAR_KEY = "berserk_navigation_tree"  # the sidebar made here (navigation_tree), for furo's context


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
        html = str(builder.render_partial(tree)["fragment"])  # type: ignore[attr-defined]
        made = navigation_tree(html)
        if made is None:
            return html  # furo makes its sidebar of it
        context[SIDEBAR_KEY] = made  # furo is given nothing to parse; ours goes in after its handler
        return ""

    context["toctree"] = toctree


def place_sidebar(context: dict[str, Any]) -> None:
    """After furo's handler: the sidebar made here replaces the empty one furo made of nothing."""
    made = context.pop(SIDEBAR_KEY, None)
    if made is not None:
        context["furo_navigation_tree"] = made


# --- furo's sidebar tree without BeautifulSoup ---------------------------------------------------------
#
# furo turns the toctree's HTML into its sidebar (furo/navigation.py, get_navigation_tree): a class
# «has-children», a checkbox and its label in every entry that holds a list, «current-page» on the last
# current entry — by parsing the HTML with BeautifulSoup and writing it out again, once per page (about
# a tenth of a site build's processor time, docs/architecture.md «Замеры»). The sidebar's toctree HTML
# is regular (Sphinx writes it): the same edits are made here on the text. Where the text holds
# anything BeautifulSoup would write out differently (a quote or a character reference, a comment, an
# entry that does not start with its link), furo's own function is used; tests/test_site_navigation.py
# compares both on the site's pages.

_TAG = re.compile(r"<(/?)(li|ul)\b([^>]*)>")
_CLASS = re.compile(r'\bclass="([^"]*)"')
_LINK_TEXT = re.compile(r"<a\b[^>]*>(.*?)</a>", re.S)
_ICON = '<span class="icon"><svg><use href="#svg-arrow-right"></use></svg></span>'


def navigation_tree(html: str) -> str | None:
    """furo's ``get_navigation_tree(html)``, the same text, without parsing; None where it cannot be
    sure to write what furo writes."""
    if not html or any(mark in html for mark in ("&quot;", "&#", "'", "<!--", "<![")):
        return None
    entries: list[Any] = []  # each <li>: where its classes are and its link ends, its classes, title
    open_entries: list[Any] = []
    for tag in _TAG.finditer(html):
        closing, name, attributes = tag.group(1), tag.group(2), tag.group(3)
        if name == "ul" and not closing:
            for entry in open_entries:
                entry["children"] = True
        elif name == "li" and not closing:
            found = _CLASS.search(attributes)
            link = _LINK_TEXT.match(html, tag.end())
            if found is None or link is None or "<" in link.group(1) or "&" in link.group(1):
                return None
            entry = {
                "class": (tag.start(3) + found.start(1), tag.start(3) + found.end(1)),
                "classes": found.group(1).split(),
                "link_end": link.end(),
                "title": link.group(1),
                "children": False,
            }
            entries.append(entry)
            open_entries.append(entry)
        elif name == "li":
            if not open_entries:
                return None
            open_entries.pop()
    if open_entries:
        return None
    current = [e for e in entries if "current" in e["classes"]]
    edits: list[tuple[int, int, str]] = []
    count = 0
    for entry in entries:
        classes = list(entry["classes"])
        if entry["children"]:
            classes.append("has-children")
            count += 1
            box = f"toctree-checkbox-{count}"
            checked = ' checked=""' if "current" in entry["classes"] else ""
            label = f'aria-label="Toggle navigation of {entry["title"]}"{checked}'
            attributes = f'class="toctree-checkbox" id="{box}" name="{box}" role="switch" type="checkbox"'
            box_html = f'<input {label} {attributes}/><label for="{box}">{_ICON}</label>'
            edits.append((entry["link_end"], entry["link_end"], box_html))
        if current and entry is current[-1]:
            classes.append("current-page")
        if classes != entry["classes"]:
            edits.append((*entry["class"], " ".join(classes)))
    out: list[str] = []
    at = 0
    for start, end, text in sorted(edits, key=lambda edit: edit[0]):
        out += [html[at:start], text]
        at = end
    return "".join([*out, html[at:]])
