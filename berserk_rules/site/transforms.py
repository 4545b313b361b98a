"""Sphinx's post-transforms that look for one kind of node, skipped on a page without it.

When a page is written, Sphinx applies every registered post-transform to it, and most of them walk
the whole page to find the nodes they work on — code blocks (``HighlightLanguageTransform`` even
visits every node with a Python visitor), images, ``only`` nodes, C and C++ aliases, object
signatures, tables. The site's pages have few or none of those, and these walks all run in the
process that the parallel writer waits on: about 0.8 s of processor time in a build of the project's
site (``docs/architecture.md`` «Замеры»). Here each such transform (:data:`LOOKS_FOR`) is replaced, in
this application's registry and in its place, by a subclass that first asks which kinds of node the
page has — one walk per page, counted once (:func:`kinds_on`) — and does nothing when the kinds it
looks for are not there, which is what it would have done. No transform on the way adds a node of
those kinds to a page (they resolve references, drop ``only`` nodes, convert images), so the count,
made before the first of them, holds for the rest. The HTML is the same (``diff -r`` of two builds).
"""

from __future__ import annotations

from typing import Any

from docutils import nodes
from docutils.transforms import Transform
from sphinx import addnodes
from sphinx.application import Sphinx


def _looks_for() -> dict[str, tuple[type[nodes.Node], ...]]:
    from sphinx.domains.c import AliasNode as CAlias
    from sphinx.domains.cpp import AliasNode as CppAlias

    return {
        "sphinx.transforms.post_transforms.code.HighlightLanguageTransform": (
            nodes.literal_block,
            addnodes.highlightlang,
        ),
        "sphinx.transforms.post_transforms.code.TrimDoctestFlagsTransform": (
            nodes.literal_block,
            nodes.doctest_block,
        ),
        "sphinx.transforms.post_transforms.OnlyNodeTransform": (addnodes.only,),
        "sphinx.transforms.post_transforms.PropagateDescDomain": (addnodes.desc_signature,),
        "sphinx.transforms.post_transforms.images.ImageDownloader": (nodes.image,),
        "sphinx.transforms.post_transforms.images.DataURIExtractor": (nodes.image,),
        "sphinx.domains.c.AliasTransform": (CAlias,),
        "sphinx.domains.cpp.AliasTransform": (CppAlias,),
        "furo.WrapTableAndMathInAContainerTransform": (nodes.table, nodes.math_block),
    }


# a transform's full name → the kinds of node without which it does nothing
LOOKS_FOR: dict[str, tuple[type[nodes.Node], ...]] = _looks_for()
# Sphinx's class → its skipping subclass (made once per process)
_SKIPPING: dict[type[Transform], type[Transform]] = {}


def kinds_on(document: nodes.document) -> frozenset[type]:
    """The classes of the page's nodes, counted on first use (the page's doctree is its own: loaded
    anew for each page written)."""
    found: frozenset[type] | None = getattr(document, "_berserk_kinds", None)
    if found is None:
        found = frozenset(type(node) for node in document.findall())
        document._berserk_kinds = found  # type: ignore[attr-defined]
    return found


def has_any(document: nodes.document, kinds: tuple[type[nodes.Node], ...]) -> bool:
    return any(issubclass(kind, kinds) for kind in kinds_on(document))


def skipping(transform: type[Transform]) -> type[Transform]:
    """``transform``, doing nothing on a page without the kinds of node it looks for."""
    made = _SKIPPING.get(transform)
    if made is None:
        kinds = LOOKS_FOR[f"{transform.__module__}.{transform.__qualname__}"]

        def apply(self: Any, **kwargs: Any) -> None:
            if has_any(self.document, kinds):
                transform.apply(self, **kwargs)

        made = type(transform.__name__, (transform,), {"apply": apply, "__module__": __name__})
        _SKIPPING[transform] = made
    return made


def skip_where_nothing_to_do(app: Sphinx) -> None:
    """On ``builder-inited`` (the theme's transforms are registered by then): each transform of
    :data:`LOOKS_FOR` in this application's list of post-transforms replaced, in its place, by its
    skipping subclass (the same priority, so the same order)."""
    registered = app.registry.post_transforms
    for index, transform in enumerate(registered):
        if f"{transform.__module__}.{transform.__qualname__}" in LOOKS_FOR:
            registered[index] = skipping(transform)
