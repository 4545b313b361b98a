"""Roots and one-edit matching of the site's search (berserk_rules.site.search, issue 19, 3)."""

from __future__ import annotations

import logging
import re
from pathlib import Path
from typing import Any

import pytest

from berserk_rules.corpus import load_corpus
from berserk_rules.errors import UserError
from berserk_rules.rulebook.project import project_root
from berserk_rules.site.lemmas import DECLENSIONS, compact_paradigm, lemma_data
from berserk_rules.site.search import (
    SEARCH_WORDS,
    entry_index,
    one_edit,
    root,
    search_words,
    stem,
)


def key(word: str) -> str:
    return root(stem(word))


@pytest.mark.parametrize(
    "forms",
    [
        ("пасовать", "пасует", "пасуют", "пасовал", "пас"),
        ("сдаться", "сдаётся", "сдается", "сдался", "сдавшийся"),
        ("закрыть", "закрытой", "закрыт", "закрывает", "закрывать", "закрыта", "закрыто", "закрыты"),
        ("выполнить", "выполнена", "выполнено", "выполняется"),  # short participles
        ("разыграть", "разыграна", "разыгрывается"),
        ("получить", "получено", "получает"),
        ("открыть", "открытой", "открывается"),
        ("погибнуть", "погиб", "погибшее", "погибает"),
        ("уничтожить", "уничтоженный", "уничтожена", "уничтожает"),
        ("ранить", "ранен", "раненый"),
        ("атаковать", "атакует", "атакующий", "атака"),
    ],
)
def test_forms_of_a_verb_share_a_root(forms: tuple[str, ...]) -> None:
    assert len({key(w) for w in forms}) == 1, {w: key(w) for w in forms}


@pytest.mark.parametrize(
    ("one", "other"),
    [("карта", "кара"), ("броня", "бро"), ("закрыть", "открыть"), ("сдаться", "сдача"), ("стол", "сто")],
)
def test_different_words_keep_different_roots(one: str, other: str) -> None:
    assert key(one) != key(other)


def test_a_root_keeps_three_letters() -> None:
    assert root("сдат") == "сда" and root("сда") == "сда"  # not «сд»
    assert root("пас") == "пас" and root("ран") == "ран"
    assert root("карт") == "карт"  # «т» only after a vowel (закрыт), never after a consonant


def test_one_edit() -> None:
    assert one_edit("очерел", "очеред")  # changed
    assert one_edit("гибл", "гибел") and one_edit("гибел", "гибл")  # missing / added
    assert one_edit("оечред", "очеред")  # neighbours swapped
    assert not one_edit("очеред", "очеред")  # the same is not a typo
    assert not one_edit("ачерел", "очеред")  # two changes
    assert not one_edit("гб", "гибел")
    assert not one_edit("abcd", "badc")


def test_the_index_carries_the_roots_that_differ() -> None:
    index = entry_index(load_corpus(project_root()).entries, lambda e: "p", {})
    roots = index["roots"]
    vocabulary = {s for record in index["entries"] for f in (7, 8, 9) for s in record[f].split()}
    assert roots and set(roots) <= vocabulary
    assert all(roots[s] == root(s) != s for s in roots)
    assert all(s in roots for s in vocabulary if root(s) != s)
    assert roots.get("закрыт") == "закр"  # «закрытой карты» in a text is found by «закрыть»


def index_with_verbs() -> dict[str, Any]:
    words = search_words(project_root() / "docs" / SEARCH_WORDS)
    partners = {**words["verbs"], **{v: k for k, v in words["verbs"].items()}}
    return entry_index(load_corpus(project_root()).entries, lambda e: "p", {}, partners)


@pytest.mark.parametrize(
    ("word", "infinitive"),
    [
        ("погибает", "погибать"),
        ("закрытой", "закрыть"),  # a participle: its verb, not the adjective «закрытый»
        ("разыграна", "разыграть"),  # a short participle
        ("уничтоженная", "уничтожить"),
        ("сдаётся", "сдаваться"),
    ],
)
def test_a_verb_form_of_the_text_names_its_infinitive(word: str, infinitive: str) -> None:
    """Issue 26, item 5: the index knows the verb behind each form the rules print."""
    assert infinitive in index_with_verbs()["lemmas"][stem(word)]


def test_the_forms_table_rebuilds_each_infinitive_from_its_stem() -> None:
    """Every verb of the forms table is its stem plus a suffix of its paradigm (so the browser, which
    tries each split of a query word, finds the infinitive itself too), and the other verb of each
    pair in docs/search-words.toml is there, so its forms are found although the rules never use it."""
    forms = index_with_verbs()["forms"]
    paradigms = [expanded(p) for p in forms["p"]]
    infinitives = set()
    for stem_, pairs in forms["s"].items():
        for ending, paradigm in pairs:
            assert ending in paradigms[paradigm], (stem_, ending)
            infinitives.add(stem_ + ending)
    verbs = search_words(project_root() / "docs" / SEARCH_WORDS)["verbs"]
    assert verbs and set(verbs) | set(verbs.values()) <= infinitives
    assert "спасовать" in infinitives  # not in the rules: only its pair «пасовать» is


def expanded(paradigm: str) -> set[str]:
    """A paradigm as berserk.js reads it: «вш*» is вш + each ending of that declension."""
    out: set[str] = set()
    for item in paradigm.split(","):
        endings = DECLENSIONS.get(item[-1:])
        out |= {item[:-1] + e for e in endings} if endings else {item}
    return out


def test_a_participle_declension_is_written_once() -> None:
    suffixes = ["ть", "л", *("вш" + e for e in DECLENSIONS["*"]), *("нн" + e for e in DECLENSIONS["+"])]
    assert compact_paradigm(suffixes) == "л,ть,вш*,нн+"
    assert expanded(compact_paradigm(suffixes)) == set(suffixes)
    incomplete = ["л", *("вш" + e for e in DECLENSIONS["*"][1:])]  # one form missing: kept as they are
    assert expanded(compact_paradigm(incomplete)) == set(incomplete)
    assert "*" not in compact_paradigm(incomplete)


def test_the_verb_pairs_are_infinitives(tmp_path: Path) -> None:
    """[verbs] pairs infinitives (pymorphy3 knows each as a verb); a broken file names itself."""
    import pymorphy3

    morph = pymorphy3.MorphAnalyzer()
    verbs = search_words(project_root() / "docs" / SEARCH_WORDS)["verbs"]
    for word in {*verbs, *verbs.values()}:
        assert any(p.is_known and p.tag.POS == "INFN" for p in morph.parse(word)), word
    bad = tmp_path / SEARCH_WORDS
    bad.write_text('[verbs]\n"вернуть" = 3\n', encoding="utf-8")
    with pytest.raises(UserError, match=re.escape(str(bad))):
        search_words(bad)


def test_the_dictionary_loads_without_a_word_in_the_builds_output(caplog: pytest.LogCaptureFixture) -> None:
    """pymorphy3 announces its dictionaries at INFO; a site build shows INFO lines to its user."""
    logging.getLogger("pymorphy3").setLevel(logging.NOTSET)
    with caplog.at_level(logging.INFO):
        lemma_data(["погибли"], {"погибнуть"}, None, lambda w: w, lambda w: w)
    assert not [r for r in caplog.records if r.name.startswith("pymorphy3")]
