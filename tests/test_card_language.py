"""The site's catalogue of the card language (issue 25: «generated from the grammar and the vocabulary,
constructions with an example each»): it covers every construction the grammar names, every frame,
trigger and keyword of the vocabulary, each basis is an entry the site links to, and every example it
shows really reads and really holds its construction."""

from __future__ import annotations

import tomllib
from pathlib import Path

import pytest

from berserk_rules.reference import card_examples as ex
from berserk_rules.reference import card_language as cl
from berserk_rules.site.card_language import ROLES, page_markup

ROOT = Path(__file__).resolve().parents[1]
LEXICON = ROOT / "engine" / "berserk_engine" / "language" / "lexicon"


@pytest.fixture(scope="module")
def catalogue() -> list[cl.Construction]:
    return ex.catalogue(ROOT)


def test_every_construction_of_the_grammar_is_in_the_catalogue(catalogue: list[cl.Construction]) -> None:
    from berserk_engine.language.abilities import _aliases

    names = {c.name for c in catalogue}
    assert _aliases() <= names
    frames = tomllib.loads((LEXICON / "frames.toml").read_text(encoding="utf-8"))
    assert {f["alias"] for f in frames["frame"]} <= names  # every frame (verbs → the engine's nodes)
    assert {t["alias"] for t in frames["trigger"]} <= names  # every trigger without a subject
    assert set(frames["keywords"]) <= names
    keywords = {
        w["value"]
        for path in LEXICON.glob("*.toml")
        for w in tomllib.loads(path.read_text(encoding="utf-8")).get("word", [])
        if w["category"] == "keyword"
    }
    assert keywords and keywords <= {c.name for c in catalogue if c.section == "keyword"}
    connectors = [c for c in catalogue if c.sequence]
    assert len(connectors) >= 7 and all(c.forms[0].startswith("[эффект]") for c in connectors)
    assert {c.section for c in catalogue} <= {key for key, *_ in cl.SECTIONS}


def test_each_basis_is_an_entry_of_the_rulebook(catalogue: list[cl.Construction]) -> None:
    from berserk_rules.corpus import load_corpus

    corpus = load_corpus(ROOT)
    terms = {t.id for t in corpus.terms()}
    rules = {r.id for r in corpus.rules()}
    unfounded = [c.name for c in catalogue if not c.basis]
    assert unfounded == [], unfounded
    for c in catalogue:
        for basis in c.basis:
            kind, _, value = basis.partition(":")
            assert kind in ROLES, (c.name, basis)
            known = {"rule": rules, "term": terms, "interpretation": set(corpus.interpretations)}[kind]
            assert value in known, (c.name, basis)


def test_each_example_shown_reads_and_holds_its_construction(catalogue: list[cl.Construction]) -> None:
    from berserk_engine.grammar import _grammar_sentence, parse_card_text

    from berserk_rules.rulebook.card_texts import card_rows

    rows = {(r.name, r.where): r for r in card_rows(ROOT)}
    shown = [c for c in catalogue if c.example is not None]
    assert len(shown) >= 0.8 * len(catalogue)  # the project's texts use most of the language
    for c in shown:
        assert c.example is not None
        row = rows[(c.example.card, c.example.where)]
        assert c.example.sentence in row.text
        assert _grammar_sentence(c.example.sentence, ex._spell(row)) is not None, c.name
        # raises if it does not compile
        parse_card_text(row.name, c.example.sentence, spell=ex._spell(row), cost_x="Х" in row.cost)
        features = ex._features(c.example.sentence)
        assert features is not None
        ws, marks = features
        assert c.name in ex._held(ws, marks, {c.name: c}), (c.name, c.example.sentence)


def test_the_examples_file_gives_an_example_wherever_the_search_finds_one(
    catalogue: list[cl.Construction],
) -> None:
    """The site shows docs/card-examples.json (the search is seconds of parsing): it must give an
    example to exactly the constructions the search finds one for now (each one reads: the test above)."""
    searched = {c.name for c in ex.search_catalogue(ROOT) if c.example is not None}
    shown = {c.name for c in catalogue if c.example is not None}
    assert shown == searched, (
        f"{ex.EXAMPLES} устарел (нет: {sorted(searched - shown)}, лишние: {sorted(shown - searched)}) — "
        "python -m berserk_rules.reference.card_examples --write"
    )


def test_a_construction_no_text_uses_says_so() -> None:
    found = [
        cl.Construction(
            "effect", "wound", ("ранить на [число] [цель]",), "", ("term:ранить-на-х-цель-раниться",)
        ),
        cl.Construction(
            "effect", "imaginary", ("никогда",), "", ("rule:401.1",), needs=(((frozenset({"NOTHING"}),),),)
        ),
    ]
    ex.attach_examples(found, ROOT)
    assert found[0].example is not None and found[1].example is None
    page = page_markup(found)
    assert "нет примера" in page and "{termin}`ранить-на-х-цель-раниться`" in page and "{rule}`401.1`" in page


def test_forms_agree_as_the_grammar_requires(catalogue: list[cl.Construction]) -> None:
    """Words are shown in the form the grammar asks for, not as dictionary entries."""
    forms = {c.name: c.forms for c in catalogue}
    assert forms["enters"] == ("[подлежащее] вступает в игру",)
    assert "закройте [цель]" in forms["close"]
    assert forms["until_end_of_turn"] == ("до конца хода",)
    assert forms["fight"] == ("сразиться с выбранным существом",)


def test_the_grammar_states_a_basis_in_a_comment() -> None:
    """A rule's author states what a new construction rests on beside it (``// basis: …``)."""
    written = (
        "// basis: I-89\n"
        "trigger: WHEN event -> a_when\n"
        "       | subjectless -> a_bare\n"
        "\n"
        "clause: WOUND target -> a_wound // basis: term:ранить-на-х-цель-раниться, 401.5\n"
        "clause: HEAL target -> a_heal\n"
    )
    assert cl.stated_bases(written) == {
        "a_when": ("interpretation:I-89",),
        "a_bare": ("interpretation:I-89",),
        "a_wound": ("term:ранить-на-х-цель-раниться", "rule:401.5"),
    }
