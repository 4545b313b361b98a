"""The sentence layer of the card reader's grammar (issue 25): a whole ability read by the grammar
(``language/syntax/abilities.lark``) and compiled by ``language/abilities.py`` — its kinds, connectors,
«вы можете», references across sentences, «Затем …» continuing a sentence, the conditions without a
subject, limits, and the extension point (a construction added with ``%extend`` and its compiler)."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from lark import Tree

pytest.importorskip("lark", reason="lark — зависимость проекта: pip install -e .")

import berserk_engine  # noqa: F401  (loads the engine's catalogue)
from berserk_engine import grammar as old
from berserk_engine.abilities import Ability, Cost, Trigger
from berserk_engine.errors import CardTextError
from berserk_engine.language import abilities as ab
from berserk_engine.language import grammar as g
from berserk_engine.language.tree import ReadError


def _nodes(text: str, spell: bool = False) -> tuple[Ability, ...]:
    return tuple(replace(a, text="") for a in old.parse_card_text("Проба", text, spell=spell))


def _by_grammar(sentence: str, spell: bool = False) -> Ability:
    found = old._grammar_sentence(sentence, spell)
    assert found is not None, sentence
    return found[0]


@pytest.mark.parametrize(
    ("sentence", "spell", "kind"),
    [
        ("Найм: возьмите карту.", False, "triggered"),
        ("Когда погибает существо противника, ранить на 1 героя противника.", False, "triggered"),
        ("[Закрыть], 1 [Монета]: раниться на 1.", False, "activated"),
        ("Раньте на два выбранное существо и возьмите карту.", True, "spell"),
        ("В начале хода противника: излечиться на 1.", False, "triggered"),
        ("Один раз за ход, когда погибает ваше существо: возьмите карту.", False, "triggered"),
        ("Когда это существо погибает, вызовите «Волчонок».", False, "triggered"),
        ("[Закрыть]: возродите «Гоблин».", False, "activated"),
        ("Когда это существо погибает, вызовите «Волчонок» в закрытом виде.", False, "triggered"),
        ("[Закрыть]: возродите «Гоблин» в закрытом виде.", False, "activated"),
    ],
)
def test_a_whole_ability_is_read_by_the_grammar(sentence: str, spell: bool, kind: str) -> None:
    ability = _by_grammar(sentence, spell)
    assert ability.kind == kind
    assert _nodes(sentence, spell) == (replace(old._finish(ability), text=""),)


def test_a_spell_has_no_payment_and_no_trigger_ending_at_a_comma() -> None:
    assert old._grammar_sentence("[Закрыть]: раниться на 1.", spell=True) is None
    assert old._grammar_sentence("Когда погибает существо, возьмите карту.", spell=True) is None
    assert old._grammar_sentence("Возьмите карту.", spell=False) is None  # a creature's bare effect


@pytest.mark.parametrize(
    ("printed", "same"),
    [
        ("Выберите существо. Ранить его на 2.", "Выберите существо, ранить его на 2."),
        ("Выберите существо. Затем ранить его на 2.", "Выберите существо, затем ранить его на 2."),
        (
            "Ранить на 1 героя противника. Затем возьмите карту.",
            "Ранить на 1 героя противника, затем возьмите карту.",
        ),
    ],
)
def test_a_reference_and_then_cross_sentences(printed: str, same: str) -> None:
    assert _nodes(printed, spell=True) == _nodes(same, spell=True)
    (ability,) = old.parse_card_text("Проба", printed, spell=True)
    assert ability.text == printed  # one ability of both sentences


def test_a_reference_with_nothing_before_it_is_still_an_error() -> None:
    with pytest.raises(CardTextError, match="перед ней не названа цель"):
        old.parse_card_text("Проба", "Ранить его на 2.", spell=True)
    with pytest.raises(CardTextError, match="Ранить его на 2"):  # «Рывок» names no target
        old.parse_card_text("Проба", "Рывок. Ранить его на 2.", spell=False)


@pytest.mark.parametrize(
    ("head", "trigger"),
    [
        ("Найм", Trigger("enters_play")),
        ("Гибель", Trigger("dies")),
        ("При уничтожении", Trigger("dies")),
        ("При атаке", Trigger("attacks")),
        ("При ударе", Trigger("strikes")),
        ("В начале каждого хода", Trigger("turn_start")),
        ("В конце своего хода", Trigger("turn_end", own_turn_only=True)),
        ("В начале вашего следующего хода", Trigger("turn_start", own_turn_only=True, next_turn=True)),
        ("В конце хода противника", Trigger("turn_end", player="enemy")),
    ],
)
def test_conditions_without_a_subject_are_data(head: str, trigger: Trigger) -> None:
    assert _by_grammar(f"{head}: возьмите карту.").trigger == trigger


@pytest.mark.parametrize(
    ("words", "limit"),
    [("Один раз за ход", 1), ("2 раза за ход", 2), ("5 раз за ход", 5)],
)
def test_a_limit_is_a_payment_before_or_after_the_ability(words: str, limit: int) -> None:
    before = _by_grammar(f"[Закрыть], {words}: возьмите карту.")
    after = _by_grammar(f"[Закрыть]: возьмите карту. ({words}.)")
    assert before.cost == after.cost == Cost(close=True, per_turn=limit)
    canonical = old.render(old.reading(f"[Закрыть]: возьмите карту. ({words}.)"))
    assert _by_grammar(canonical).cost == before.cost  # the canonical words read back the same


def test_a_limit_said_twice_is_not_read_by_the_grammar() -> None:
    text = "Один раз за ход, когда погибает существо: возьмите карту. (Один раз за ход.)"
    assert old._grammar_sentence(text, False) is None
    with pytest.raises(CardTextError, match="указано дважды"):
        old.parse_card_text("Проба", text)


@pytest.mark.parametrize(
    ("sentence", "granted", "words", "side", "classes", "until"),
    [
        ("Ваши гномы получают Рывок до конца хода.", "Рывок.", "ваши гномы", "own", ("гном",), "end_of_turn"),
        ("Ваши эльфы получают Первый удар.", "Первый удар.", "ваши эльфы", "own", ("эльф",), "leaves_play"),
        ("Все существа получают Рывок до конца хода.", "Рывок.", "всех существ", "any", (), "end_of_turn"),
        (
            "Все существа противника получают Броня 1.",
            "Броня 1.",
            "всех существ противника",
            "enemy",
            (),
            "leaves_play",
        ),
    ],
)
def test_a_group_in_the_plural_gains_a_keyword(
    sentence: str, granted: str, words: str, side: str, classes: tuple[str, ...], until: str
) -> None:
    """«[группа] получают [ключевое слово] [срок]»: the subject agrees with the verb in the plural; the
    nodes are the ones the phrase registry built (frozen here when its plural phrases were deleted)."""
    from berserk_engine.abilities import Selector
    from berserk_engine.effects import Grant

    target = Selector("each", words, ("creature",), side, classes=classes)
    assert _by_grammar(sentence, spell=True).effect == Grant(granted, target, until)
    assert old.render(old.reading(sentence, spell=True)) == sentence[0].upper() + sentence[1:]
    with pytest.raises(CardTextError):  # a group in the plural, a verb in the singular
        _nodes(sentence.replace("получают", "получает"), spell=True)


def test_a_construction_and_its_compiler_are_added_without_editing_the_layer(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The extension point of the printed constructions: a file with ``%extend clause: …`` and a
    compiler registered for its alias."""
    for path in g.FOLDER.glob("*.lark"):
        (tmp_path / path.name).write_text(path.read_text(encoding="utf-8"), encoding="utf-8")
    (tmp_path / "constructions.lark").write_text(
        "%extend clause: OPEN__PLUR ICON_CLOSE -> test_open_close\n", encoding="utf-8"
    )
    monkeypatch.setattr(g, "FOLDER", tmp_path)
    g.grammar.cache_clear()
    monkeypatch.setitem(ab.COMPILERS, "test_open_close", lambda tree, context: ab.Part(("opened",), None))
    try:
        (reading,) = ab.read_ability("Откройте [Закрыть].")
        assert reading.ability.kind == "spell" and reading.ability.effect == ("opened",)
        with pytest.raises(ValueError, match="уже компилирует"):
            ab.compiles("test_open_close")(lambda tree, context: None)
    finally:
        g.grammar.cache_clear()


def test_different_meanings_of_a_sentence_are_an_error_naming_each(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Two constructions read the same words with different meanings: the sentence is refused, and the
    error names each reading in the engine's words (issue 25: different meanings are an error naming
    both; the phrase registry's own check of the same is gone with its effect phrases)."""
    from berserk_engine.language.reading import Phrase, Reading

    for path in g.FOLDER.glob("*.lark"):
        (tmp_path / path.name).write_text(path.read_text(encoding="utf-8"), encoding="utf-8")
    (tmp_path / "constructions.lark").write_text(
        "%extend clause: OPEN__PLUR ICON_CLOSE -> test_open_close\n"
        "              | test_opening ICON_CLOSE -> test_close_open\n"
        "test_opening: OPEN__PLUR\n",
        encoding="utf-8",
    )
    monkeypatch.setattr(g, "FOLDER", tmp_path)

    def compiled(words: str, node: Any) -> Any:
        phrase = Phrase("effect", words, words, lambda named: None, None)
        return lambda tree, context: ab.Part(node, Reading("phrase", phrase=phrase, named={}))

    monkeypatch.setitem(ab.COMPILERS, "test_open_close", compiled("открыть [Закрыть]", ("opened",)))
    monkeypatch.setitem(ab.COMPILERS, "test_close_open", compiled("закрыть [Открыть]", ("closed",)))
    caches = (g.grammar, old._grammar_abilities, old._parse_cached)
    for cached in caches:
        cached.cache_clear()
    try:
        with pytest.raises(CardTextError, match="несколькими способами") as info:
            old.parse_card_text("Проба", "Откройте [Закрыть].", spell=True)
        assert "«Открыть [Закрыть].»" in str(info.value) and "«Закрыть [Открыть].»" in str(info.value)
    finally:
        for cached in caches:
            cached.cache_clear()


def test_a_construction_without_a_compiler_is_a_clear_error(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    for path in g.FOLDER.glob("*.lark"):
        (tmp_path / path.name).write_text(path.read_text(encoding="utf-8"), encoding="utf-8")
    (tmp_path / "constructions.lark").write_text(
        "%extend clause: OPEN__PLUR ICON_CLOSE ICON_CLOSE -> test_nobody\n", encoding="utf-8"
    )
    monkeypatch.setattr(g, "FOLDER", tmp_path)
    g.grammar.cache_clear()
    try:
        with pytest.raises(ReadError, match="нет компилятора"):
            ab.read_ability("Откройте [Закрыть] [Закрыть].")
    finally:
        g.grammar.cache_clear()


def test_every_frame_builds_a_node_the_engine_registers() -> None:
    from berserk_engine.data import REGISTRY

    for alias, frame in ab.frames().items():
        assert frame.node in REGISTRY, alias
        assert alias in ab.COMPILERS, alias


def test_no_alias_is_also_a_rule_name() -> None:
    """A tree's name is its alias or its rule's: one name for both would compile a rule as the alias."""
    rules = g.grammar().parser.rules
    names = {str(r.origin.name) for r in rules}
    assert {str(r.alias) for r in rules if r.alias} & names == set()


@pytest.mark.parametrize(
    ("sentence", "words", "until"),
    [
        (
            "Все существа противника получают -1 к удару до конца хода.",
            "всех существ противника",
            "end_of_turn",
        ),
        ("Выбранный персонаж получает +1 к удару до конца боя.", "выбранный персонаж", "leaves_play"),
        ("Ваши гномы получают +2 к удару пока это существо в игре.", "ваши гномы", "source_leaves"),
        ("Другие ваши существа получают +2 к удару до конца хода.", "других ваших существ", "end_of_turn"),
        (
            "Выбранное существо получает -1 к удару на один ход противника.",
            "выбранное существо",
            "player_turns:enemy:1",
        ),
        ("Ваши гномы получают +1 к удару на 2 ваших хода.", "ваши гномы", "player_turns:own:2"),
        ("Существо получает +1 к удару на пять ходов противника.", "существо", "player_turns:enemy:5"),
    ],
)
def test_a_subject_gains_strike_for_a_duration(sentence: str, words: str, until: str) -> None:
    effect = _by_grammar(sentence, spell=True).effect
    assert (effect.target.words, effect.until) == (words, until)
    canonical = old.render(old.reading(sentence, spell=True))
    assert _nodes(canonical, spell=True) == _nodes(sentence, spell=True)


@pytest.mark.parametrize(
    "sentence",
    [
        "Все существа противника получает -1 к удару до конца хода.",  # the verb does not agree
        "Выбранное существо получают +1 к удару до конца хода.",
    ],
)
def test_a_subject_that_does_not_agree_with_its_verb_is_not_read(sentence: str) -> None:
    # (the old registry's phrases «{t:Nom} получает …» / «получают …» still take any subject: they go
    # when the registry does)
    assert old._grammar_sentence(sentence, True) is None


def _words_of(text: str) -> list:
    from berserk_engine.language.tree import _analyzed

    tokens, analyses = _analyzed(text, ())
    return g.words(tokens, analyses)


def test_parses_are_cached_on_disk_keyed_by_the_grammar_and_the_lexicon(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv(g.CACHE_ENV, str(tmp_path))
    text = "Найм: ранить на 1 героя противника, затем возьмите карту"
    fresh = g.parse(_words_of(text), "ability")
    (entry,) = tmp_path.glob("*.json")
    assert g.parse(_words_of(text), "ability") == fresh  # read back from the file
    entry.write_text("{not json", encoding="utf-8")  # a broken entry is no entry: parsed again
    assert g.parse(_words_of(text), "ability") == fresh
    with pytest.raises(g.NoParse) as first:
        g.parse(_words_of("Найм: ранить героя"), "ability")
    with pytest.raises(g.NoParse) as again:  # the error is cached too, with its word
        g.parse(_words_of("Найм: ранить героя"), "ability")
    assert (again.value.token, again.value.expected) == (first.value.token, first.value.expected)
    assert len(list(tmp_path.glob("*.json"))) == 2


def test_the_disk_cache_can_be_turned_off(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(g.CACHE_ENV, "off")
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    g.parse(_words_of("Найм: возьмите карту"), "ability")
    assert g.cache_folder() is None and not any(tmp_path.iterdir())


def test_no_sentence_of_the_project_has_a_spurious_second_parse() -> None:
    """The count of spurious ambiguity over the project's card texts, frozen at 0: every sentence the
    grammar parses has one tree (readings of the same meaning would merge, but none is even built)."""
    import json

    from berserk_engine.language import tree as t

    snapshot = Path(__file__).parent / "data" / "reader_parity.json"
    cards = json.loads(snapshot.read_text(encoding="utf-8"))["cards"]
    sentences = sorted({s for c in cards for _, s in old.split_sentences(c["text"])})
    parsed, spurious = 0, []
    for sentence in sentences:
        body = sentence.strip().rstrip(".").rstrip()
        try:
            tokens, analyses = t._analyzed(t.same_condition(body), ())
            forest = g.parse(g.words(tokens, analyses), "ability")
        except (ReadError, g.NoParse):
            continue
        parsed += 1
        trees = list(t.unambiguous(forest))
        if len(trees) > 1 and not _resolved_by_the_kind_of_card(trees):
            spurious.append((sentence, len(trees)))
    assert parsed >= 200
    assert spurious == []


def _resolved_by_the_kind_of_card(trees: list[Any]) -> bool:
    """«В начале вашего следующего хода излечить на 2 своего героя»: on a creature a trigger condition
    without «:» (I-89), on a spell a delayed effect (519.1); «Ваши гномы получают +1 к удару» (I-127) — two
    meanings, one for each kind of card
    (grammar._grammar_sentence keeps the reading of the card's kind), not a spurious parse."""
    shapes = set()
    for tree in trees:
        child = next(c for c in tree.children if isinstance(c, Tree))
        shapes.add(f"{tree.data}/{child.data}")
    # «Ваши гномы получают +1 к удару (Броню 1)»: on a spell an effect until the end of the battle («Получает
    # [текст]»), on a creature a constant ability while the card is in the game zone (I-127)
    return shapes in (
        {"printed_bare_trigger/turn_trigger", "spell/delayed_next"},
        {"printed_bare_trigger/turn_trigger", "spell/delayed_end"},
        {"spell/effects", "ability/group_bonus"},
        {"spell/effects", "ability/group_grant"},
    )


@pytest.mark.parametrize(
    ("sentence", "term", "value"),
    [
        ("Рывок.", "рывок", None),
        ("Броня 2.", "броня-х", 2),
        ("Отравление на 1.", "отравление-на-х", 1),
        ("Регенерация 2.", "регенерация-х", 2),
        ("+1 к атаке.", "плюс-х-минус-х-к-атаке", 1),
    ],
)
def test_a_keyword_is_read_by_the_grammar_and_built_by_its_module(
    sentence: str, term: str, value: int | None
) -> None:
    ability = _by_grammar(sentence)
    assert (ability.keyword, ability.value) == (term, value)
    assert _nodes(sentence) == (replace(old._finish(ability), text=""),)


def test_a_keyword_printed_without_its_preposition_is_the_same_keyword() -> None:
    """«Отравление 2» (the seeds' form of «Отравление на 2») is read by the grammar as the same keyword."""
    assert old._grammar_sentence("Отравление 2.", False) is not None
    assert _nodes("Отравление 2.") == _nodes("Отравление на 2.")


@pytest.mark.parametrize("sentence", ["Рывок 2.", "Броня.", "Броня на 2."])
def test_a_keyword_with_a_value_out_of_place_is_not_read(sentence: str) -> None:
    assert old._grammar_sentence(sentence, False) is None
    with pytest.raises(CardTextError):
        old.parse_card_text("Проба", sentence)


@pytest.mark.parametrize(
    ("sentence", "text", "until"),
    [
        ("Выбранное существо получает Рывок до конца хода.", "Рывок.", "end_of_turn"),
        ("Ваше существо получает Броня 1.", "Броня 1.", "leaves_play"),  # «Получает [текст]»: the battle
    ],
)
def test_a_target_gains_a_keyword(sentence: str, text: str, until: str) -> None:
    effect = _by_grammar(sentence, spell=True).effect
    assert (effect.text, effect.until) == (text, until)
    canonical = old.render(old.reading(sentence, spell=True))
    assert _nodes(canonical, spell=True) == _nodes(sentence, spell=True)


def test_a_summon_by_name_needs_a_name() -> None:
    assert old._grammar_sentence("[Закрыть]: вызовите «».", spell=False) is None
    assert old._grammar_sentence("[Закрыть]: вызовите «Волчонок».", spell=False) is not None
    assert old._grammar_sentence("[Закрыть]: возродите «Гоблин» в открытом виде.", spell=False) is None
