"""The site's own Sphinx domain, ``berserk`` (see :class:`BerserkDomain`): the rulebook's object
types and the roles that link them — and, kept apart from it in the build environment, the site's
run state (:func:`site_state`). The base of the site's directives.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Set
from typing import Any, ClassVar

from docutils import nodes
from docutils.nodes import Element
from sphinx import addnodes
from sphinx.builders import Builder
from sphinx.domains import Domain, ObjType
from sphinx.domains.std import make_glossary_term
from sphinx.environment import BuildEnvironment
from sphinx.roles import XRefRole
from sphinx.util import logging
from sphinx.util.docutils import SphinxDirective
from sphinx.util.nodes import make_refnode

logger = logging.getLogger(__name__)

DOMAIN = "berserk"
OBJECT_TYPES = ("rule", "termin", "interpretation", "scenario")


class BerserkRole(XRefRole):
    """``{rule}`401.7``` and the like without the domain's prefix: a reference of the ``berserk``
    domain (Sphinx looks an unprefixed role up in the primary and the standard domains only)."""

    def run(self) -> tuple[list[nodes.Node], list[nodes.system_message]]:
        if ":" not in self.name:
            self.name = f"{DOMAIN}:{self.name}"
        return super().run()


class BerserkDomain(Domain):
    """The rulebook's objects — rules, glossary terms, interpretations, scenarios — as a Sphinx domain
    of the site's own (``berserk:rule`` …; the roles ``{rule}``, ``{termin}``, ``{interpretation}``
    and ``{scenario}`` work unprefixed too), instead of extending the standard domain. Rules, terms
    and interpretations reach the inventory and the search; scenarios are linked, not searched.
    Glossary terms are also Sphinx's own terms (``{term}``), in the standard domain
    (:meth:`note_term`). The objects are cleared per page and merged from parallel readers."""

    name = DOMAIN
    label = "Берсерк. Герои"
    object_types: ClassVar[dict[str, ObjType]] = {
        "rule": ObjType("правило", "rule"),
        "termin": ObjType("термин", "termin"),
        "interpretation": ObjType("толкование", "interpretation"),
        "scenario": ObjType("сценарий", "scenario", searchprio=-1),  # linked, not searched
    }
    roles: ClassVar[dict[str, Any]] = {kind: XRefRole() for kind in OBJECT_TYPES}
    initial_data: ClassVar[dict[str, Any]] = {"objects": {}}  # (type, name) -> (docname, anchor)
    data_version = 1

    @property
    def objects(self) -> dict[tuple[str, str], tuple[str, str]]:
        found: dict[tuple[str, str], tuple[str, str]] = self.data.setdefault("objects", {})
        return found

    def note_object(self, objtype: str, name: str, node_id: str, location: Any = None) -> None:
        """Register ``name`` of ``objtype`` at anchor ``node_id`` of the page being read."""
        if (objtype, name) in self.objects:
            docname = self.objects[objtype, name][0]
            message = "duplicate %s description of %s, other instance in %s"
            logger.warning(message, objtype, name, docname, location=location)
        self.objects[objtype, name] = (self.env.docname, node_id)

    def note_term(self, name: str, node_id: str, source: str, line: int, document: nodes.document) -> None:
        """Register glossary term ``name`` (anchor ``node_id``) with Sphinx's standard domain too, so
        ``{term}`name``` finds it."""
        make_glossary_term(self.env, [nodes.Text(name)], None, source, line, node_id, document)

    def clear_doc(self, docname: str) -> None:
        for key, (doc, _) in list(self.objects.items()):
            if doc == docname:
                del self.objects[key]

    def merge_domaindata(self, docnames: Set[str], otherdata: dict[str, Any]) -> None:
        for key, (doc, anchor) in otherdata.get("objects", {}).items():
            if doc in docnames:
                self.objects[key] = (doc, anchor)

    def resolve_xref(
        self,
        env: BuildEnvironment,
        fromdocname: str,
        builder: Builder,
        typ: str,
        target: str,
        node: addnodes.pending_xref,
        contnode: Element,
    ) -> nodes.reference | None:
        found = self.objects.get((typ, target))
        if found is None:
            return None
        return make_refnode(builder, fromdocname, found[0], found[1], contnode)

    def resolve_any_xref(
        self,
        env: BuildEnvironment,
        fromdocname: str,
        builder: Builder,
        target: str,
        node: addnodes.pending_xref,
        contnode: Element,
    ) -> list[tuple[str, nodes.reference]]:
        out = []
        for typ in OBJECT_TYPES:
            ref = self.resolve_xref(env, fromdocname, builder, typ, target, node, contnode)
            if ref is not None:
                out.append((f"{DOMAIN}:{typ}", ref))
        return out

    def get_objects(self) -> Iterator[tuple[str, str, str, str, str, int]]:
        """The objects for the search and the inventory (``objects.inv``): scenarios are only for
        links inside the site."""
        for (typ, name), (docname, anchor) in sorted(self.objects.items()):
            if typ != "scenario":
                yield name, name, typ, docname, anchor, 1


# --- the site's run state, in the build environment ------------------------------------------------

STATE = "berserk_site_state"  # an attribute of the BuildEnvironment (pickled with it)


def site_state(env: BuildEnvironment) -> dict[str, Any]:
    """The run state of the site: the pages that show results (``results_pages``: read again when
    the run or the scenarios change) and the fingerprint of the run they were read with."""
    state: dict[str, Any] | None = getattr(env, STATE, None)
    if state is None:
        state = {"results_pages": set(), "fingerprint": None}
        setattr(env, STATE, state)
    return state


def note_results_page(env: BuildEnvironment, docname: str) -> None:
    site_state(env)["results_pages"].add(docname)


def shows_results(env: BuildEnvironment, docname: str) -> bool:
    return docname in site_state(env)["results_pages"]


def outdated(env: BuildEnvironment, fingerprint: str, found: Iterable[str], removed: set[str]) -> list[str]:
    """The pages to read again: every page that shows results when the fingerprint changed."""
    state = site_state(env)
    previous, state["fingerprint"] = state["fingerprint"], fingerprint
    if previous == fingerprint:
        return []
    found = set(found)
    return sorted(d for d in state["results_pages"] if d in found and d not in removed)


def purge_results_page(app: Any, env: BuildEnvironment, docname: str) -> None:
    """``env-purge-doc``: a page read again notes itself again if it still shows results."""
    site_state(env)["results_pages"].discard(docname)


def merge_results_pages(app: Any, env: BuildEnvironment, docnames: Set[str], other: BuildEnvironment) -> None:
    """``env-merge-info``: the pages a parallel reader found to show results."""
    site_state(env)["results_pages"].update(site_state(other)["results_pages"] & set(docnames))


def berserk_domain(env: BuildEnvironment) -> BerserkDomain:
    domain = env.get_domain(DOMAIN)
    assert isinstance(domain, BerserkDomain)
    return domain


class BerserkDirective(SphinxDirective):
    def location(self) -> tuple[str, int]:
        source, line = self.get_source_info()
        return source, line or 0

    @property
    def domain(self) -> BerserkDomain:
        return berserk_domain(self.env)

    def note_berserk(self) -> None:
        note_results_page(self.env, self.env.docname)

    def note_entry(
        self, objtype: str, anchor_prefix: str, ident: str, where: nodes.Node | None = None
    ) -> str:
        """Register entry ``ident`` as an object of the ``berserk`` domain; its anchor. ``where``: the
        node that a warning points at (None: this directive)."""
        self.note_berserk()
        node_id = f"{anchor_prefix}-{ident}"
        self.domain.note_object(objtype, ident, node_id, location=where or self.get_location())
        return node_id
