# ruff: noqa: F811 -- the fixtures of test_browser.py are imported and used by name
"""The site's search in a real browser (issue 19, 3): verb and participle forms, typos, rule numbers
without the index, and the weight of a first search.

Reuses the site, server and browser of ``test_browser.py`` (one build per session).
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import pytest
from test_browser import Page, Served, browser, desktop, page, served  # noqa: F401 (fixtures)

from berserk_rules.corpus import load_corpus
from berserk_rules.rulebook.project import project_root
from berserk_rules.site.search import entry_index, one_edit, root, stem

pytestmark = pytest.mark.slow  # builds the site and drives a browser

FIRST_SEARCH_LIMIT = 500 * 1024  # bytes, issue 19: a first search on a slow line


def hits_of(p: Any) -> list[str]:
    p.wait_for_selector(".berserk-search-count")
    return p.eval_on_selector_all(".berserk-hit", "els => els.map(e => e.dataset.entry)")


@pytest.mark.parametrize(
    ("query", "entry"),
    [
        ("пасовать", "401.7"),  # the text says «пасует», «пасуют»
        ("пасует", "401.7"),
        ("сдаться", "602.1"),  # the text says «сдаётся»
        ("закрытой карты", "закрыть-существо-карту"),  # the term «Закрыть (существо, карту)»
        ("закрыть", "закрыть-существо-карту"),
        ("уничтоженная карта", "уничтожить-карту"),  # the term «Уничтожить (карту)»
        ("ранено", "ранить-на-х-цель-раниться"),
    ],
)
def test_inflected_verbs_and_participles_find_the_entry(page: Page, query: str, entry: str) -> None:
    hits = hits_of(page.goto(f"search.html?q={query}"))
    assert entry in hits[:3], hits[:5]


@pytest.mark.parametrize(
    ("query", "entry"),
    [
        ("очерель", "401"),  # one letter wrong (очередь)
        ("гибль", "гибель-существа-карты"),  # one letter missing (гибель)
        ("очередль", "401"),  # one letter added
        ("оечредь", "401"),  # two neighbours swapped
        ("самая первая спосбность", "401.7"),  # a typo in one word of a phrase
    ],
)
def test_one_typo_still_finds(page: Page, query: str, entry: str) -> None:
    hits = hits_of(page.goto(f"search.html?q={query}"))
    assert entry in hits[:3], hits[:5]


def test_two_typos_or_a_short_word_are_not_corrected(page: Page) -> None:
    """The false case: the tolerance is one edit on words of four letters or more."""
    assert hits_of(page.goto("search.html?q=ачерель")) == []  # two letters wrong
    assert hits_of(page.goto("search.html?q=щлаааа")) == []


def test_the_hit_marks_the_form_the_text_uses(page: Page) -> None:
    p = page.goto("search.html?q=пасовать")
    hits_of(p)
    marked = p.locator(".berserk-hit").first.locator("mark").all_inner_texts()
    assert "пасует" in marked, marked


class Recorded:
    def __init__(self, p: Any) -> None:
        self.requests: list[Any] = []
        p.on("requestfinished", lambda request: self.requests.append(request))

    def urls(self) -> list[str]:
        return [r.url for r in self.requests]

    def bytes(self) -> int:
        total = 0
        for request in self.requests:
            sizes = request.sizes()
            total += sizes["responseBodySize"] + sizes["responseHeadersSize"]
        return total


@pytest.fixture
def fresh(browser: Any, served: Served) -> Iterator[Page]:
    """A new browser context: nothing cached, as a judge's first search."""
    page = Page(browser, served, viewport={"width": 1280, "height": 900})
    yield page
    assert page.errors == [], page.errors
    page.close()


@pytest.mark.parametrize(
    ("query", "anchor"),
    [
        ("401.7", "rule-401.7"),
        ("602.1", "rule-602.1"),
        ("315.1", "rule-315.1"),
        # the way judges cite (issue 26, item 5): a word before the number
        ("пункт 402.1", "rule-402.1"),
        ("правило 303.2", "rule-303.2"),
        ("п. 119.8", "rule-119.8"),
        ("п.401.7", "rule-401.7"),
    ],
)
def test_rule_number_goes_to_the_rule_without_any_index(fresh: Page, query: str, anchor: str) -> None:
    recorded = Recorded(fresh.page)
    p = fresh.goto(f"search.html?q={query}")
    p.wait_for_url(re.compile(re.escape(anchor) + "$"))
    p.wait_for_load_state("networkidle")
    loaded = recorded.urls()
    assert not [u for u in loaded if "searchindex.js" in u or "berserk-entries.js" in u], loaded


def test_first_search_weighs_under_500_kb(fresh: Page) -> None:
    recorded = Recorded(fresh.page)
    p = fresh.goto("search.html?q=закрытой карты")
    assert "закрыть-существо-карту" in hits_of(p)[:3]
    p.wait_for_load_state("networkidle")
    p.wait_for_timeout(500)  # nothing more is fetched after the hits are shown
    loaded = recorded.urls()
    assert recorded.bytes() <= FIRST_SEARCH_LIMIT, (recorded.bytes(), loaded)
    assert not [u for u in loaded if "searchindex.js" in u], loaded
    assert [u for u in loaded if u.endswith(".html") or ".html?" in u] == [p.url], loaded  # no page fetched


def test_page_search_on_request(fresh: Page) -> None:
    recorded = Recorded(fresh.page)
    p = fresh.goto("search.html?q=очередь")
    hits_of(p)
    assert p.locator(".search-summary").count() == 0  # Sphinx's page search waits for the reader
    p.click(".berserk-pages-search button")
    p.wait_for_function("(document.querySelector('.search-summary') || {innerText: ''}).innerText.length > 0")
    assert re.match(r"^Найден[оа] \d+ страниц", p.locator(".search-summary").inner_text())
    assert p.locator("ul.search li").count() > 0
    assert any(u.endswith("searchindex.js") for u in recorded.urls())
    assert p.locator(".berserk-pages-search").count() == 0
    # the rules and terms stay first
    order = p.evaluate(
        "document.querySelector('.berserk-search-entries').compareDocumentPosition("
        "document.querySelector('ul.search')) & Node.DOCUMENT_POSITION_FOLLOWING"
    )
    assert order


def test_roots_and_edits_are_the_same_in_python_and_javascript(page: Page) -> None:
    """berserk.js computes the roots of the query, Python those of the index: they must agree."""
    records = entry_index(load_corpus(project_root()).entries, lambda e: "p", {})["entries"]
    vocabulary = sorted({s for record in records for f in (7, 8, 9) for s in record[f].split()})
    extra = [
        stem(w) for w in "пасовать пасует сдаться сдаётся закрытой закрывает погибнуть уничтоженный".split()
    ]
    stems_ = vocabulary + extra + ["ab", "сда", "т", ""]
    p = page.goto("search.html")
    in_js = p.evaluate("stems => stems.map(s => window.BERSERK_SEARCH.root(s))", stems_)
    assert in_js == [root(s) for s in stems_]
    pairs = [
        ("очерел", "очеред"),
        ("гибл", "гибел"),
        ("оечред", "очеред"),
        ("очередл", "очеред"),
        ("ачерел", "очеред"),
        ("abc", "abc"),
        ("abcd", "abdc"),
        ("ab", "abcd"),
        ("", "a"),
    ]
    in_js = p.evaluate("pairs => pairs.map(([a, b]) => window.BERSERK_SEARCH.oneEdit(a, b))", pairs)
    assert in_js == [one_edit(a, b) for a, b in pairs]


def test_a_number_the_rules_do_not_have_offers_the_nearest(fresh: Page) -> None:
    """Issue 26, item 5: «402.9» is not in the rules — the page says so and links the nearest."""
    p = fresh.goto("search.html?q=пункт 402.9")
    note = p.wait_for_selector(".berserk-missing-number")
    assert note.inner_text().startswith("Правила 402.9 нет в своде. Ближайшие: 402.")
    links = p.eval_on_selector_all(".berserk-missing-number a", "els => els.map(e => e.textContent)")
    assert links and all(link.startswith("402") for link in links), links
    p.eval_on_selector(".berserk-missing-number a", "a => a.click()")
    p.wait_for_url(re.compile(r"#rule-402(\.\d+)?$"))


def test_the_goto_box_takes_a_cited_number_and_answers_a_missing_one(fresh: Page) -> None:
    p = fresh.goto("index.html")
    box = p.locator("#berserk-goto-input")
    box.fill("п. 999.1")
    box.press("Enter")
    note = p.wait_for_selector(".berserk-goto-message .berserk-missing-number")
    assert note.inner_text().startswith("Правила 999.1 нет в своде. Ближайшие:")
    box.fill("пункт 401.7")
    box.press("Enter")
    p.wait_for_url(re.compile(r"#rule-401\.7$"))


@pytest.mark.parametrize(
    ("query", "entry"),
    [
        ("first strike", "первый-удар"),  # English names of keywords (docs/search-words.toml)
        ("armor", "броня-х"),
        ("regeneration", "регенерация-х"),
        ("stealth", "скрытность"),
        ("может ли герой быть защитником", "назначить-защитника"),  # a question in plain words
        ("что такое отражающая карта", "отражающая-карта"),
        ("урон", "раны"),  # a judge's word for the rulebook's
    ],
)
def test_english_names_and_plain_questions_find_the_entry(page: Page, query: str, entry: str) -> None:
    """Issue 26, item 5: English keyword names, judges' words and a question in plain words."""
    hits = hits_of(page.goto(f"search.html?q={query}"))
    assert entry in hits[:3], hits[:5]


@pytest.mark.parametrize(
    ("query", "entry"),
    [
        ("фаза атаки", "307"),  # a two-word phrase naming a section (issue 26, item 5)
        ("конец хода", "310"),
        ("известная информация", "403"),
        ("одновременное срабатывание", "402"),
        ("отложенные эффекты", "519"),
    ],
)
def test_a_phrase_naming_a_section_finds_the_section(page: Page, query: str, entry: str) -> None:
    hits = hits_of(page.goto(f"search.html?q={query}"))
    assert entry in hits[:3], hits[:5]


@pytest.mark.parametrize(
    ("query", "entry"),
    [
        # past, future and perfective forms of the glossary's verbs that the rules never print
        # (issue 26, item 5): found by pymorphy3's paradigms shipped with the index (BERSERK_FORMS)
        ("погибли", "погибнуть-погибает"),
        ("погибнет", "погибнуть-погибает"),
        ("уничтожили", "уничтожить-карту"),
        ("закрылся", "закрыть-существо-карту"),
        ("возродилось", "возрождение-возродить"),
        ("излечил", "излечить-излечение-на-х"),
        ("взяли карту", "возьмите-карту"),
        ("сбросил карту", "сбросьте-карту"),
        ("перемешали колоду", "перемешивание-колоды"),
        ("назначил защитника", "назначить-защитника"),
        ("вскрыл карту", "вскрытие-карты"),
        ("сдался", "602.1"),
        # the other aspect or a prefixed perfective (docs/search-words.toml, [verbs])
        ("возвращать в колоду", "вернуть-убрать-в-колоду"),
        ("спасовал", "401.7"),
        ("вошёл в игру", "входит-в-игру"),
        ("заплатил", "оплата"),
    ],
)
def test_verb_forms_of_every_tense_and_aspect_find_the_term(page: Page, query: str, entry: str) -> None:
    hits = hits_of(page.goto(f"search.html?q={query}"))
    assert entry in hits[:3], hits[:5]


def test_a_verb_form_does_not_find_a_noun_of_another_word(page: Page) -> None:
    """The false case: «сыграл» (сыграть — разыграть) is not «игра» («в игре», «входит в игру»)."""
    hits = hits_of(page.goto("search.html?q=сыграл"))
    assert not {"в-игре", "входит-в-игру"} & set(hits[:5]), hits[:5]


def test_the_browser_finds_the_infinitives_pymorphy3_finds(page: Page) -> None:
    """berserk.js splits a query word into a stem and a suffix of its paradigm (BERSERK_FORMS): for
    forms the rules never print, the infinitives are pymorphy3's own, and a noun gets none."""
    import pymorphy3

    morph = pymorphy3.MorphAnalyzer()
    forms = "погибли погибнет спасовал вошёл возродилось уничтожили сбросил карты существо".split()
    p = page.goto("search.html?q=карта")  # a word query loads the index (berserk-entries.js)
    hits_of(p)
    in_js = p.evaluate(
        "ws => ws.map(w => window.BERSERK_SEARCH.infinitivesOf(w.replace('ё', 'е')).sort())", forms
    )
    expected = [
        sorted(
            {
                x.normal_form.replace("ё", "е")
                for x in morph.parse(w)
                if x.is_known and x.tag.POS in ("VERB", "INFN", "GRND") and x.normal_form
            }
        )
        for w in forms
    ]
    assert in_js == expected
