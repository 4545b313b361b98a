"""Links inside the verbatim text and the entry index (berserk_rules.site.search), on the real corpus."""

from __future__ import annotations

import pytest

from berserk_rules.corpus import load_corpus
from berserk_rules.rulebook.project import project_root
from berserk_rules.site.search import Linker, entry_index, stem, term_forms


@pytest.fixture(scope="module")
def linker() -> Linker:
    return Linker.build(load_corpus(project_root()).entries)


def linked(linker: Linker, text: str, **kwargs: object) -> list[tuple[str, str, str]]:
    return [(piece, kind, target) for piece, kind, target in linker.split(text, **kwargs) if kind]  # type: ignore[arg-type]


def test_pieces_always_rebuild_the_text(linker: Linker) -> None:
    for entry in load_corpus(project_root()).entries:
        for variant in entry.variants:
            for line in variant.lines:
                pieces = linker.split(line, own=entry.id, terms=True, seen=set())
                assert "".join(piece for piece, _, _ in pieces) == line


def test_rule_numbers_link_and_aliases_resolve(linker: Linker) -> None:
    assert linked(linker, "осуществляется согласно 309.2. Игрок") == [("309.2", "rule", "309.2")]
    assert linker.rule_target("315.1") == "310.1"  # source 001 numbers the end of turn 315
    assert linked(linker, "см. 999.9 и 1401.7") == []  # unknown numbers and longer numbers stay text


def test_see_references_link_each_term(linker: Linker) -> None:
    assert linked(linker, "См. Гибель, Уничтожить.") == [
        ("Гибель", "term", "гибель-существа-карты"),
        ("Уничтожить", "term", "уничтожить-карту"),
    ]
    assert linked(linker, "См. Вернуть в колоду.") == [
        ("Вернуть в колоду", "term", "вернуть-убрать-в-колоду")
    ]
    assert linked(linker, "Излечение считается выполненным. См. также Полностью излечить.") == [
        ("Полностью излечить", "term", "полностью-излечить")
    ]


def test_terms_link_across_inflection_first_use_only(linker: Linker) -> None:
    seen: set[str] = set()
    found = linked(linker, "Активного игрока и активному игроку", terms=True, seen=seen)
    assert found == [("Активного игрока", "term", "активный-игрок")]
    assert linked(linker, "активный игрок", terms=True, seen=seen) == []  # already linked in this rule
    assert linked(linker, "бронированный", terms=True, seen=set()) == []  # not inside other words


def test_term_forms() -> None:
    assert term_forms("Гибель (существа, карты)") == [((stem("гибель"),), 1)]
    assert ((stem("убрать"), "в", stem("колоду")), 2) in term_forms("Вернуть (убрать) в колоду")
    assert term_forms("Броня Х") == [((stem("броня"),), 1)]
    assert term_forms("Броня") == [((stem("броня"),), 0)]


def test_entry_index_numbers_and_stems() -> None:
    corpus = load_corpus(project_root())
    index = entry_index(corpus.entries, lambda e: f"rules/part-{e.part}.html", {})
    assert index["numbers"]["401.7"] == "rules/part-4.html#rule-401.7"
    assert index["numbers"]["401"] == "rules/part-4.html#rule-401"
    assert index["numbers"]["315.1"] == "rules/part-3.html#rule-315.1"
    record = next(r for r in index["entries"] if r[0] == "броня")
    assert record[1] == "term" and stem("брони") in record[7].split()


def test_verbs_are_not_taken_for_noun_terms(linker: Linker) -> None:
    assert linked(linker, "если существует карта", terms=True, seen=set()) == [("карта", "term", "карта")]
    assert linked(linker, "действующих эффектов", terms=True, seen=set()) == [("эффектов", "term", "эффект")]
    # a verb in the term's own name accepts verb forms: «Погибнуть (погибает)»
    assert linked(linker, "существо погибает", terms=True, seen=set())[-1][2] == "погибнуть-погибает"
