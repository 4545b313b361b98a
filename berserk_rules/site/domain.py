"""The domain of the site: the rulebook's object types and the site's state (see :class:`BerserkDomain`),
and the base of the site's directives.
"""

from __future__ import annotations

from collections.abc import Iterator, Set
from typing import Any, ClassVar

from docutils import nodes
from sphinx.domains import ObjType
from sphinx.domains.std import StandardDomain, make_glossary_term
from sphinx.environment import BuildEnvironment
from sphinx.roles import XRefRole
from sphinx.util import logging
from sphinx.util.docutils import SphinxDirective

logger = logging.getLogger(__name__)


class BerserkDomain(StandardDomain):
    """Sphinx's standard domain with the rulebook's object types and the site's state.

    Rules, glossary terms, interpretations and scenarios are objects of the ``std`` domain (so
    ``{rule}`401.7```, ``{termin}`…``, ``{interpretation}`I-3``` and ``{scenario}`file:line``` resolve
    across pages, and rules and terms reach the general index and the search as ``std`` objects, as
    before); the domain also keeps the pages that show results (``results_pages``, re-read when the
    run or the scenarios change) and the fingerprint of the run they were read with. Its data is
    cleared per page and merged from parallel readers like the standard domain's own.
    """

    object_types: ClassVar[dict[str, ObjType]] = {
        **StandardDomain.object_types,
        "rule": ObjType("правило", "rule"),
        "termin": ObjType("термин", "termin"),
        "interpretation": ObjType("толкование", "interpretation"),
        "scenario": ObjType("сценарий", "scenario", searchprio=-1),  # linked, not searched
    }
    roles: ClassVar[dict[str, Any]] = {
        **StandardDomain.roles,
        "rule": XRefRole(),
        "termin": XRefRole(),
        "interpretation": XRefRole(),
        "scenario": XRefRole(),
    }
    data_version = StandardDomain.data_version + 100

    @property
    def results_pages(self) -> set[str]:
        """The pages with placeholders for results (read again when the run changes)."""
        pages: set[str] = self.data.setdefault("results_pages", set())
        return pages

    def note_results_page(self, docname: str) -> None:
        self.results_pages.add(docname)

    def shows_results(self, docname: str) -> bool:
        return docname in self.results_pages

    def note_term(self, name: str, node_id: str, source: str, line: int, document: nodes.document) -> None:
        """Register glossary term ``name`` (anchor ``node_id``), so ``{term}`name``` finds it."""
        make_glossary_term(self.env, [nodes.Text(name)], None, source, line, node_id, document)

    def outdated(self, fingerprint: str, found: set[str], removed: set[str]) -> list[str]:
        """The pages to read again: every page that shows results when the fingerprint changed."""
        previous, self.data["fingerprint"] = self.data.get("fingerprint"), fingerprint
        if previous == fingerprint:
            return []
        return sorted(d for d in self.results_pages if d in found and d not in removed)

    def get_objects(self) -> Iterator[tuple[str, str, str, str, str, int]]:
        """The objects for the search and the inventory (``objects.inv``): scenarios are only for
        links inside the site."""
        for item in super().get_objects():
            if item[2] != "scenario":
                yield item

    def clear_doc(self, docname: str) -> None:
        super().clear_doc(docname)
        self.results_pages.discard(docname)

    def merge_domaindata(self, docnames: Set[str], otherdata: dict[str, Any]) -> None:
        super().merge_domaindata(docnames, otherdata)
        self.results_pages.update(otherdata.get("results_pages", set()) & set(docnames))


def berserk_domain(env: BuildEnvironment) -> BerserkDomain:
    domain = env.domains.standard_domain
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
        self.domain.note_results_page(self.env.docname)

    def note_entry(
        self, objtype: str, anchor_prefix: str, ident: str, where: nodes.Node | None = None
    ) -> str:
        """Register entry ``ident`` as a ``std`` object; its anchor. ``where``: the node that a
        warning points at (None: this directive)."""
        self.note_berserk()
        node_id = f"{anchor_prefix}-{ident}"
        self.domain.note_object(objtype, ident, node_id, location=where or self.get_location())
        return node_id
