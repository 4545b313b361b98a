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

Nor is the tree resolved and rendered for every page: what Sphinx makes of it differs from page to
page only by the links, relative to the page's folder, and by the page's own entry and its ancestors
(``_toctree_add_classes``: class «current» on each, the link to the page itself ``#``). So the tree
is rendered once per folder, for a page name no page has (:data:`STAND_IN`), and each page marks
itself in that text (:func:`mark_current`); where the text is not as regular as that needs (the
page linked twice, or with an anchor), the page's tree is rendered as before.
``tests/test_site_navigation.py`` builds a small site both ways and compares the pages.
"""

from __future__ import annotations

import posixpath
import re
from typing import Any, cast

from docutils import nodes
from sphinx import addnodes
from sphinx.application import Sphinx
from sphinx.builders import Builder
from sphinx.environment import BuildEnvironment
from sphinx.environment.adapters.toctree import global_toctree_for_doc

# furo's call (furo/__init__.py, _compute_navigation_tree): the only one answered from the titles
SIDEBAR_CALL: dict[str, Any] = {"collapse": False, "titles_only": True, "maxdepth": -1, "includehidden": True}
SIDEBAR_KEY = "berserk_navigation_tree"  # the sidebar made here (navigation_tree), for furo's context
STAND_IN = "berserk-sidebar-stand-in"  # a page name in each folder for its sidebar with no page marked


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
    app.berserk_sidebars = None  # type: ignore[attr-defined]


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

    def toctree(**kwargs: Any) -> str:
        if kwargs != SIDEBAR_CALL:
            return str(original(**kwargs))
        html = sidebar_html(app, pagename)
        made = navigation_tree(html)
        if made is None:
            return html  # furo makes its sidebar of it
        context[SIDEBAR_KEY] = made  # furo is given nothing to parse; ours goes in after its handler
        return ""

    context["toctree"] = toctree


def rendered_sidebar(app: Sphinx, docname: str) -> str:
    """The sidebar's toctree as Sphinx renders it for ``docname`` (what
    ``StandaloneHTMLBuilder._get_local_toctree`` does), over the pruned tables of contents."""
    builder = app.builder
    tree = global_toctree_for_doc(
        cast(BuildEnvironment, titles_only(app)), docname, builder, tags=builder.tags, **SIDEBAR_CALL
    )
    return str(builder.render_partial(tree)["fragment"])  # type: ignore[attr-defined]


def sidebar_html(app: Sphinx, pagename: str) -> str:
    """The sidebar's toctree HTML of a page: its folder's, with the page marked in it
    (:func:`mark_current`), or rendered for the page itself where that cannot be sure."""
    sidebars = getattr(app, "berserk_sidebars", None)
    if sidebars is None:
        # every folder's at once, in the main process before Sphinx forks its writers: a writer's
        # work is lost with it, and each chunk of pages is written by a new one
        env = app.env
        if any(posixpath.basename(d) == STAND_IN for d in env.all_docs):
            sidebars = {}  # a page of that name: every page's rendered for itself
        else:
            folders = sorted({posixpath.dirname(d) for d in env.all_docs} | {""})
            sidebars = {f: rendered_sidebar(app, posixpath.join(f, STAND_IN)) for f in folders}
        app.berserk_sidebars = sidebars  # type: ignore[attr-defined]
    folder = posixpath.dirname(pagename)
    template = sidebars.get(folder)
    if template is not None:
        href = app.builder.get_relative_uri(posixpath.join(folder, STAND_IN), pagename)
        marked = mark_current(template, href)
        if marked is not None:
            return marked
    return rendered_sidebar(app, pagename)


_LINK = '<a class="reference internal" href="{}">'
_CURRENT_LINK = '<a class="current reference internal" href="#">'
_ENTRY_CLASS = re.compile(r'<li class="(toctree-l\d+)">')


def mark_current(html: str, href: str) -> str | None:
    """The sidebar's toctree HTML rendered for another page of the folder, as Sphinx renders it for
    the page at ``href``: the link to it ``#`` and class «current», and so each entry and list around
    it (``_toctree_add_classes``). Unchanged where the page is not in it; None where the text is not
    regular enough to be sure (the page linked twice or with an anchor, another tag around it)."""
    if not href or '"' in href:
        return None
    link = _LINK.format(href)
    found = html.count(link)
    if html.count(f'href="{href}#') or html.count(f'href="{href}"') != found or found > 1:
        return None
    if not found:
        return html
    at = html.index(link)
    edits: list[tuple[int, int, str]] = [(at, at + len(link), _CURRENT_LINK)]
    open_tags: list[re.Match[str]] = []
    for tag in _TAG.finditer(html, 0, at):
        if tag.group(1):
            if not open_tags or open_tags[-1].group(2) != tag.group(2):
                return None
            open_tags.pop()
        else:
            open_tags.append(tag)
    if not open_tags or open_tags[-1].group(2) != "li" or open_tags[-1].end() != at:
        return None  # the link is not the first thing in its entry
    for tag in open_tags:
        if tag.group(2) == "ul":
            if tag.group(0) != "<ul>":
                return None
            edits.append((tag.start(), tag.end(), '<ul class="current">'))
        else:
            entry = _ENTRY_CLASS.fullmatch(tag.group(0))
            if entry is None:
                return None
            edits.append((tag.start(), tag.end(), f'<li class="{entry.group(1)} current">'))
    out: list[str] = []
    done = 0
    for start, end, text in sorted(edits):
        out += [html[done:start], text]
        done = end
    return "".join([*out, html[done:]])


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
