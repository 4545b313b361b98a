"""The website: rules with their scenarios and the statuses of the latest run.

The real docs are built into a temporary folder three times (incrementally, like ``berserk-rules
site`` does between runs; ``tests/shared_site.py``, the same builds the browser tests visit): first
with every scenario of rule 401.7 passed, again with nothing changed, then with one of them failed.
The acceptance of the site: after the second run the failed scenario shows as failed.
"""

from __future__ import annotations

import html
import json
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from shared_site import FAILED_MESSAGE, RULE, site_401_7

from berserk_rules.corpus import load_corpus
from berserk_rules.rulebook.features import ScenarioRef, load_scenarios
from berserk_rules.rulebook.project import project_root

pytestmark = pytest.mark.slow  # builds the site


@dataclass
class Build:
    code: int
    warnings: str
    out: Path

    def page(self, name: str) -> str:
        return (self.out / name).read_text(encoding="utf-8")


@dataclass
class Site:
    scenarios: list[ScenarioRef]  # the scenarios of rule 401.7
    failed: ScenarioRef  # the one that fails in the second run
    first: Build
    first_part4: str  # Part 4 page after the first run
    second: Build
    first_index: str  # searchindex.js of the first (full) build
    again_index: str  # searchindex.js after building again with nothing changed


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Site:
    """The three builds of ``shared_site`` (once per session, shared with the browser tests)."""
    of_rule = [ref for ref in load_scenarios(project_root()) if RULE in ref.rules]
    tmp, made = site_401_7(tmp_path_factory)
    first = Build(*made["first"], out=tmp / "site")
    second = Build(*made["second"], out=tmp / "site")

    def saved(name: str) -> str:
        return (tmp / name).read_text(encoding="utf-8")

    failed = next(ref for ref in of_rule if ref.id == made["failed"])
    return Site(
        of_rule,
        failed,
        first,
        saved("first-part-4.html"),
        second,
        saved("first-searchindex.js"),
        saved("again-searchindex.js"),
    )


def rule_block(page: str, rule_id: str) -> str:
    """The HTML of one rule: from its anchor to the next rule or section."""
    start = page.index(f'id="rule-{rule_id}"')
    following = re.compile(r'<div class="berserk-rule[^"]*" id="rule-|<section id="')
    match = following.search(page, start + 1)
    return page[start : match.start() if match else len(page)]


def scenario_items(block: str) -> dict[str, str]:
    """Scenario link target (``…#scenario-N``) -> the status class of its list item."""
    items = re.findall(r'<li class="berserk-status-([a-z-]+)">(.*?)</li>', block, flags=re.S)
    out: dict[str, str] = {}
    for status, body in items:
        link = re.search(r'href="([^"]+)"', body)
        assert link, body
        out[html.unescape(link.group(1))] = status
    return out


def anchor(ref: ScenarioRef) -> str:
    return f"../_generated/{ref.file.removesuffix('.feature')}.html#scenario-{ref.line}"


def test_builds_without_warnings(site: Site) -> None:
    assert site.first.code == 0, site.first.warnings
    assert site.first.warnings == ""
    assert site.second.code == 0, site.second.warnings
    assert site.second.warnings == ""


def test_rule_anchor_on_part_page(site: Site) -> None:
    page = site.second.page("rules/part-4.html")
    assert page.count('id="rule-401.7"') == 1
    assert 'href="#rule-401.7"' in page


def test_rule_lists_its_scenarios_all_passed(site: Site) -> None:
    items = scenario_items(rule_block(site.first_part4, RULE))
    assert items == {anchor(ref): "passed" for ref in site.scenarios}
    assert "прошёл" in rule_block(site.first_part4, RULE)


def test_failed_scenario_shows_failed_after_next_run(site: Site) -> None:
    block = rule_block(site.second.page("rules/part-4.html"), RULE)
    items = scenario_items(block)
    expected = {anchor(ref): "passed" for ref in site.scenarios}
    expected[anchor(site.failed)] = "failed"
    assert items == expected
    assert "berserk-status-failed" in block and "упал" in block
    assert html.escape(FAILED_MESSAGE, quote=False) in block


def test_a_game_not_recorded_step_by_step_says_how_to_record_it(site: Site) -> None:
    """The browser's run has no ``"trace": true``: the failed scenario's game (position and log, no
    steps) says that the game step by step was not recorded and what records it (issue 28)."""
    page = site.second.page(f"_generated/{site.failed.file.removesuffix('.feature')}.html")
    assert page.count('class="berserk-replay-untraced"') == 1
    assert "berserk-rules check --trace" in page


def test_scenario_pages_have_anchors_and_statuses(site: Site) -> None:
    ref = site.failed
    page = site.second.page(f"_generated/{ref.file.removesuffix('.feature')}.html")
    assert f'id="scenario-{ref.line}"' in page
    assert "berserk-status-failed" in page
    # tags link back to the rule
    assert 'href="../../../rules/part-4.html#rule-401.7"' in page


def test_glossary_anchors(site: Site) -> None:
    page = site.second.page("glossary.html")
    terms = [entry for entry in load_corpus(project_root()).entries if entry.kind == "term"]
    assert terms
    for entry in terms:
        assert f'id="term-{entry.id}"' in page, entry.id


def test_search_index_has_russian_stems_and_rule_numbers(site: Site) -> None:
    text = (site.second.out / "searchindex.js").read_text(encoding="utf-8")
    index = json.loads(text[text.index("(") + 1 : text.rindex(")")])
    terms = index["terms"]
    assert "очеред" in terms  # «Очередь», «очереди» … stemmed by the Russian Snowball stemmer
    assert "способн" in terms
    names = set()
    for prefix, objects in index["objects"].items():
        for obj in objects:
            names.add(f"{prefix}.{obj[4]}" if prefix else obj[4])
    assert RULE in names
    assert "401" in names


def search_index(text: str) -> dict[str, Any]:
    data: dict[str, Any] = json.loads(text[text.index("(") + 1 : text.rindex(")")])
    return data


def test_rebuild_keeps_the_index_entries_of_pages_it_does_not_write(site: Site) -> None:
    """Sphinx's search index took index entries only from the pages a build writes: after a rebuild
    with nothing changed, searchindex.js had none of the rules' and terms' entries."""
    first = search_index(site.first_index)["indexentries"]
    assert RULE in first, sorted(first)[:20]  # the rule's own entry, found by its number
    assert search_index(site.again_index)["indexentries"] == first
    assert site.again_index == site.first_index  # nothing else differs either
    second = search_index(site.second.page("searchindex.js"))  # some pages read and written again
    assert second["indexentries"] == first


def test_no_remote_assets(site: Site) -> None:
    remote = re.compile(
        r"""<(?:script|link|img|iframe|source|video|audio)\b[^>]*\b(?:src|href)=["']?(?:https?:)?//"""
    )
    css_remote = re.compile(r"""url\(\s*["']?(?:https?:)?//|@import\s+["']?(?:url\()?["']?(?:https?:)?//""")
    pages = list(site.second.out.rglob("*.html"))
    assert len(pages) > 10
    for path in pages:
        assert not remote.search(path.read_text(encoding="utf-8")), path
    for path in site.second.out.rglob("*.css"):
        assert not css_remote.search(path.read_text(encoding="utf-8")), path
    for path in site.second.out.rglob("*.js"):
        text = path.read_text(encoding="utf-8")
        assert "fonts.googleapis" not in text and "cdn." not in text, path


def rendered_lines(block: str) -> list[str]:
    """The text of every line of the verbatim text blocks in ``block`` (tags stripped)."""
    found = re.findall(r'^<div class="(?:berserk-example )?line">(.*)</div>$', block, flags=re.M)
    return [html.unescape(re.sub(r"<[^>]+>", "", line)) for line in found]


def test_rendered_text_is_verbatim_with_links(site: Site) -> None:
    """Links inside the text never change it: every rendered line is the source line, and links exist."""
    corpus = load_corpus(project_root())
    links = 0
    for part in range(1, 7):
        page = site.second.page(f"rules/part-{part}.html")
        links += page.count("berserk-ref-rule") + page.count("berserk-ref-term")
        for entry in corpus.rules(part):
            if entry.heading:
                continue
            shown = entry.variants if len({v.lines for v in entry.variants}) > 1 else entry.variants[:1]
            expected = [v.prefix + v.lines[0] for v in shown] + [x for v in shown for x in v.lines[1:]]
            assert sorted(rendered_lines(rule_block(page, entry.id))) == sorted(expected), entry.id
    assert links > 50
    part5 = site.second.page("rules/part-5.html")
    assert 'согласно <a class="reference internal" href="part-3.html#rule-309.2">' in part5


def test_glossary_see_links_and_term_scenarios(site: Site) -> None:
    page = site.second.page("glossary.html")
    assert re.search(r'См\. <a class="reference internal" href="#term-гибель-существа-карты">', page)
    # terms show their scenarios (or that there are none) as rules do
    assert page.count("berserk-scenarios") >= len(load_corpus(project_root()).terms())


def test_alias_anchor_of_other_numbering(site: Site) -> None:
    assert 'id="rule-315.1"' in site.second.page("rules/part-3.html")


def test_domain_holds_the_objects_and_the_state(site: Site) -> None:
    """Rules, terms, interpretations and scenarios are objects of the site's own domain (``berserk``,
    not Sphinx's standard one extended), glossary terms are Sphinx terms too (``{term}`Авангард Х```,
    in the standard domain), and the pages that show results are run state of the build environment."""
    import pickle

    from berserk_rules.site.domain import STATE

    with (site.first.out.parent / "doctrees" / "environment.pickle").open("rb") as handle:
        env = pickle.load(handle)
    objects = env.domaindata["berserk"]["objects"]
    assert objects[("rule", RULE)] == ("rules/part-4", f"rule-{RULE}")
    assert objects[("termin", "авангард-х")] == ("glossary", "term-авангард-х")
    assert ("interpretation", "I-1") in objects
    for ref in site.scenarios:
        docname, anchor = objects[("scenario", ref.id)]
        assert docname == "_generated/" + ref.file.removesuffix(".feature") and anchor.startswith("scenario-")
    std = env.domaindata["std"]
    assert std["objects"][("term", "Авангард Х")] == ("glossary", "term-авангард-х")
    assert std["terms"]["авангард х"] == ("glossary", "term-авангард-х")
    assert not {key for key in std["objects"] if key[0] in ("rule", "termin", "interpretation", "scenario")}
    assert "results_pages" not in std and "results_pages" not in env.domaindata["berserk"]
    assert {"rules/part-4", "glossary"} <= getattr(env, STATE)["results_pages"]


def test_every_interpretation_is_shown_beside_every_rule_and_term_it_names(site: Site) -> None:
    """Issue 26, item 3: each link of the register (an interpretation → a rule or term of its list)
    appears on that rule's or term's block — not only those its scenarios are tagged with."""
    corpus = load_corpus(project_root())
    pages = {p.name: p.read_text(encoding="utf-8") for p in (site.first.out / "rules").glob("part-*.html")}
    glossary = site.first.page("glossary.html")
    links = missing = 0
    absent: list[str] = []
    for item in corpus.interpretations.values():
        for name in item.rules:
            anchor = f'id="rule-{name}"'
            page = next((text for text in pages.values() if anchor in text), None)
            if page is None and f'id="term-{name}"' in glossary:
                page, anchor = glossary, f'id="term-{name}"'
            if page is None:
                continue  # a rule of the register that the corpus does not number (reported by lint)
            links += 1
            start = page.index(anchor)
            following = re.compile(r'<div class="berserk-(?:rule|term)[^"]*" id="|<section id="')
            match = following.search(page, start + len(anchor))
            block = page[start : match.start() if match else len(page)]
            link = rf'class="[^"]*berserk-interpretation-link[^"]*"[^>]*>{re.escape(item.id)}\.'
            if not re.search(link, block):
                missing += 1
                absent.append(f"{item.id} → {name}")
    assert links >= 150, f"в реестре всего {links} ссылок на правила и термины: проверять нечего"
    assert not absent, f"{missing} из {links} ссылок реестра нет на странице правила: {absent[:10]}"


def test_a_lost_icon_is_shown_as_its_notation_with_an_editorial_mark(site: Site) -> None:
    """Issue 26, item 7: «Обозначается , если …» (the icon lost in extraction) reads «Обозначается
    [Закрыть]ред., если …»; the mark says it is the editors'."""
    page = site.first.page("glossary.html")
    start = page.index('id="term-закрыть-существо-карту"')
    block = page[start : page.index('<div class="berserk-term', start + 10)]
    restored = r'Обозначается <span class="berserk-restored-icon">\[Закрыть\]<sup><abbr'
    assert re.search(restored, block), block[:800]
    assert 'title="Значок утрачен при извлечении текста' in block


def test_the_card_languages_page_renders_its_constructions_with_links(site: Site) -> None:
    """The project's own page of the card language (``berserk-card-language``: the constructions of
    the grammar, its MyST links resolved — the build has no warning); moved here from
    tests/test_card_language.py, which built it in a site of its own."""
    page = site.second.page("card-language.html")
    assert "Условия срабатывания" in page and "Ключевые слова" in page
    # literal text is one <span> per word: the words of the table's plain columns
    assert "нет примера" in page and "срабатывающая-способность" in page


def test_the_engine_glossary_renders_the_phrase_catalogue(site: Site) -> None:
    """``berserk-phrases`` on the engine's glossary page (the phrase catalogue of the engine's card
    language); moved here from tests/test_cards_command.py, which built it in a site of its own."""
    page = site.second.page("glossary-engine.html")
    # Literal text is split into one <span> per word: look at the words of the table's plain columns.
    assert "Условия срабатывания" in page and "это существо убивает существо" in page
    assert "Постоянные способности" in page and "постоянная-способность" in page
