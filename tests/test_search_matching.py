"""Roots and one-edit matching of the site's search (berserk_rules.site.search, issue 19, 3)."""

from __future__ import annotations

import pytest

from berserk_rules.corpus import load_corpus
from berserk_rules.rulebook.project import project_root
from berserk_rules.site.search import entry_index, one_edit, root, stem


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
