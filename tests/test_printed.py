"""The card language as printed (issue 16): example cards of our own in printed wording, every one read;
a parse is total or an error — the round trip through the engine's canonical words gives the same
reading, and deleting or changing a meaningful word changes the reading or is an error; errors name the
kind of piece they did not understand."""

from __future__ import annotations

import json
import re
import tomllib
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from berserk_engine.abilities import Ability, effect_nodes
from berserk_engine.cards import CardDef
from berserk_engine.effects import MayDo, Sequence, Wound
from berserk_engine.errors import CardTextError
from berserk_engine.grammar import (
    frame_phrases,
    parse_ability,
    parse_card_text,
    reading,
    render,
    try_reading,
)

ROOT = Path(__file__).resolve().parent.parent
# Example cards: printed-effects.* (families 1, 2, 4, 5, 7), printed-triggers.* (families 3, 6).
EXAMPLE_FILES = sorted(
    [
        *(ROOT / "engine" / "examples").glob("printed-*.toml"),
        *(ROOT / "tests" / "data").glob("**/printed-*.toml"),
    ]
)


def _cards() -> list[dict[str, Any]]:
    cards = []
    for path in EXAMPLE_FILES:
        for card in tomllib.loads(path.read_text(encoding="utf-8"))["card"]:
            cards.append({**card, "file": path.name})
    return cards


CARDS = _cards()
OWN = [c for c in CARDS if c["file"].startswith("printed-effects")]


def _bare(ability: Ability | None) -> Ability | None:
    return None if ability is None else replace(ability, text="")


def _cost_x(card: dict[str, Any]) -> bool:
    """The card's cost holds Х («Х», «1+Х»): a spell's «Х» is the Х named when it is played (I-66)."""
    return "Х" in str(card.get("cost", ""))


def _build(card: dict[str, Any]) -> CardDef:
    props = {k: v for k, v in card.items() if k in ("cost", "strike", "life", "classes", "subtype")}
    return CardDef.build(card["name"], card["type"], text=card["text"], **props)


# --- «вы можете» is never dropped -----------------------------------------------------------------


def test_an_optional_part_inside_a_sequence_is_kept_as_a_decision() -> None:
    text = "Найм: возьмите карту, затем вы можете ранить на 1 выбранное существо, затем возьмите карту."
    (ability,) = parse_card_text("Ловчий", text)
    assert not ability.optional  # the ability itself is mandatory …
    assert isinstance(ability.effect, Sequence)
    first, middle, last = ability.effect.parts
    assert isinstance(middle, MayDo) and isinstance(middle.part, Wound)  # … its middle part is not
    assert not isinstance(first, MayDo) and not isinstance(last, MayDo)
    assert "вы можете" in render(reading(text))
    without = text.replace("вы можете ", "")
    assert _bare(parse_ability(without)) != _bare(ability)


def test_a_leading_optional_still_makes_the_whole_ability_optional() -> None:
    (ability,) = parse_card_text("Трубач", "В начале хода: вы можете ранить на 1 выбранное существо.")
    assert ability.optional and not any(isinstance(n, MayDo) for n in effect_nodes(ability.effect))


# --- example cards ------------------------------------------------------------------------------


def test_there_are_enough_example_cards_with_names_of_their_own() -> None:
    assert len(OWN) >= 110, len(OWN)
    names = [c["name"] for c in CARDS]
    assert len(set(names)) == len(names), "two example cards with one name"
    for family in (1, 2, 4, 5, 7):
        assert sum(c["family"] == family for c in OWN) >= 5, family


@pytest.mark.parametrize("card", CARDS, ids=lambda c: c["name"])
def test_every_example_card_reads_and_round_trips(card: dict[str, Any]) -> None:
    definition = _build(card)
    spell = definition.type == "spell"
    assert definition.abilities
    x = _cost_x(card)
    for ability in definition.abilities:
        canonical = render(reading(ability.text, spell, x))
        assert _bare(parse_ability(canonical, spell, x)) == _bare(ability), canonical


def _catalogue_sentence(ph: Any) -> tuple[str, bool]:
    example = ph.example.strip()
    if ph.category == "condition":
        return f"Выберите существо, ранить его на 1; если {example}, возьмите карту.", True
    if ph.category == "cost":
        return f"{example}: возьмите карту.", False
    if ph.category == "effect":
        sentence = example[0].upper() + example[1:]
        sentence = sentence if sentence.endswith(".") else sentence + "."
        return sentence, try_reading(sentence, True) is not None
    return (example if example.endswith(".") else example + "."), False


def _trigger_examples() -> list[Any]:
    """The trigger conditions of the grammar's catalogue (frames.toml) and the 69 conditions the old
    registry spelled out, frozen with their examples (tests/data/trigger_conditions.json)."""
    from types import SimpleNamespace

    frozen = json.loads(
        (Path(__file__).parent / "data" / "trigger_conditions.json").read_text(encoding="utf-8")
    )
    old = [
        SimpleNamespace(category="trigger", format=r["condition"], example=r["example"])
        for r in frozen["conditions"]
    ]
    return [*frame_phrases("trigger"), *old]


def test_the_whole_phrase_catalogue_round_trips() -> None:
    """parse → the canonical text the engine renders → parse again: the same reading, for every phrase of
    the registry and every construction of the grammar's frames (their examples; issue 25 moves phrases
    from the one to the other)."""
    checked = 0
    for ph in [*_trigger_examples(), *frame_phrases("effect"), *frame_phrases("cost")]:
        sentence, spell = _catalogue_sentence(ph)
        ability = parse_ability(sentence, spell)
        canonical = render(reading(sentence, spell))
        assert _bare(parse_ability(canonical, spell)) == _bare(ability), (ph.format, canonical)
        checked += 1
    assert checked >= 150


# Words that mean nothing of their own in one place: «затем» after a comma (the comma alone joins the
# parts the same way), «на» of a keyword printed both as «Отравление на 2» and «Отравление 2», and «вы» of
# «вы можете», printed also as «можете» (issue 29; I-87).
SAME_WITHOUT = {"затем", "на", "вы"}


def _words(text: str) -> list[str]:
    return text.rstrip(".").split(" ")


def test_deleting_a_meaningful_word_changes_the_reading_or_fails() -> None:
    survivors = []
    for card in OWN:
        spell, x = card["type"] == "заклинание", _cost_x(card)
        for sentence in re.split(r"(?<=\.)\s+", card["text"]):
            base = _bare(try_reading(sentence, spell, x))
            assert base is not None, sentence
            words = _words(sentence)
            for i, word in enumerate(words):
                variant = " ".join(words[:i] + words[i + 1 :]) + "."
                if _bare(try_reading(variant, spell, x)) == base:
                    survivors.append((card["name"], word))
    assert {w for _, w in survivors} <= SAME_WITHOUT, survivors
    # and «на» survives only in a keyword printed both ways
    assert all(card == "Жабий яд" for card, w in survivors if w == "на"), survivors


def test_deleting_a_word_of_any_catalogue_example_changes_the_reading_or_fails() -> None:
    """The same over every phrase the engine knows: the only words that may go are synonyms the rules
    print both ways — «на» of «Отравление на 2» / «Отравление 2», «[Монета]» of a search by cost
    («стоимостью 2 [Монета] или менее» / «стоимостью 2 или менее», issue 6) and «каждого» of
    «В начале (конце) каждого хода», printed beside «В начале хода» (304.3: every turn's) with the
    same meaning."""
    survivors = []
    for ph in _trigger_examples():
        sentence, spell = _catalogue_sentence(ph)
        base = _bare(try_reading(sentence, spell))
        assert base is not None, sentence
        words = _words(sentence)
        for i, word in enumerate(words):
            variant = " ".join(words[:i] + words[i + 1 :]) + "."
            if _bare(try_reading(variant, spell)) == base:
                survivors.append((sentence, word))
    assert {w for _, w in survivors} <= {"на", "[Монета]", "затем", "каждого"}, survivors
    assert all(s.startswith("Отравление") for s, w in survivors if w == "на"), survivors
    each_turn = re.compile(r"В (начале|конце) каждого хода:")
    assert all(each_turn.match(s) for s, w in survivors if w == "каждого"), survivors


def test_changing_a_word_changes_the_reading_or_fails() -> None:
    """Any word put in the place of another («зелье») is read as something else or not read at all."""
    for card in OWN:
        spell, x = card["type"] == "заклинание", _cost_x(card)
        for sentence in re.split(r"(?<=\.)\s+", card["text"]):
            base = _bare(try_reading(sentence, spell, x))
            words = _words(sentence)
            for i in range(len(words)):
                variant = " ".join([*words[:i], "зелье", *words[i + 1 :]]) + "."
                assert _bare(try_reading(variant, spell, x)) != base, variant


def test_changing_a_number_changes_the_reading() -> None:
    changed = 0
    for card in OWN:
        spell, x = card["type"] == "заклинание", _cost_x(card)
        for sentence in re.split(r"(?<=\.)\s+", card["text"]):
            base = _bare(try_reading(sentence, spell, x))
            for m in re.finditer(r"\d+", sentence):
                variant = sentence[: m.start()] + str(int(m.group()) + 1) + sentence[m.end() :]
                assert _bare(try_reading(variant, spell, x)) != base, variant
                changed += 1
    assert changed >= 50


# --- errors name the kind of piece ---------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "spell", "fragment"),
    [
        # («+1 к жизням» reads since the statics of trigger-registry: an unknown value is still blamed)
        ("Выбранное существо получает +1 к удаче до конца хода.", True, "непонятное значение «+1 к удаче»"),
        ("Ранить на 1 выбранное существо при этом возьмите карту.", True, "не распознан союз «при этом»"),
        ("Ранить на 1 выбранное существо иначе возьмите карту.", True, "не распознан союз «иначе»"),
        ("Найм: ранить на 1 соседа.", False, "неизвестная цель «соседа»"),
        (
            "Выбранное существо получает +1 к удару до конца боя завтра.",
            True,
            "непонятный срок «до конца боя завтра»",
        ),
        (
            "Ранить всех ваших существ на 1, затем ваши существо получают +2 к удару до конца хода.",
            True,
            "«ваши существо»",
        ),
        ("Ранить его на 2.", True, "неизвестная цель «его»"),
        ("Ранить существо на Х.", True, "непонятное значение «Х»"),
        ("Два раза в день: возьмите карту.", False, "ни оплата активируемой способности «Два раза в день»"),
        # family 7, summon (I-63 … I-66): the piece is named by its kind
        (
            "Вызовите существо стоимостью два или меньше.",
            True,
            "непонятное значение «существо стоимостью два или меньше»",
        ),
        ("Бесплатно разыграйте гнома с неба.", True, "непонятное значение «неба»"),
        ("Снимите с выбранного существа 2 эффектов.", True, "число и «эффект» не согласованы"),
        ("Снимите с соседа 1 эффект.", True, "неизвестная цель «соседа»"),
        (
            "Ваши существа этого класса получают +1 к удару до конца хода.",
            True,
            "неизвестная цель «… этого класса»",
        ),
        ("Выберите класс, возьмите карту.", True, "после «выберите класс» — эффект о «… этого класса»"),
    ],
)
def test_an_error_names_the_kind_of_piece_it_did_not_understand(
    text: str, spell: bool, fragment: str
) -> None:
    with pytest.raises(CardTextError) as info:
        parse_card_text("Лягушатник", text, spell=spell)
    assert fragment in str(info.value)


def test_the_x_of_a_cost_is_read_only_on_a_spell_whose_cost_holds_x() -> None:
    """I-66: «Х» without «где Х – …» is the Х of the cost — on a spell of cost «Х», «1+Х»; elsewhere an
    error names the value."""
    spell = CardDef.build("Огненный вихрь", "заклинание", cost="Х", text="Ранить существо на Х.")
    assert spell.abilities and spell.printed_cost == "Х"
    for kind, cost in (("заклинание", 2), ("существо", "Х")):
        with pytest.raises(CardTextError, match="непонятное значение «Х»"):
            CardDef.build(
                "Жук",
                kind,
                cost=cost,
                text="Ранить существо на Х." if kind == "заклинание" else "Найм: ранить существо на Х.",
            )


# --- classes ----------------------------------------------------------------------------------------


def test_classes_are_read_from_the_card_and_its_subtype() -> None:
    card = CardDef.build("Рудокоп", "существо", classes="гном, воин", cost=2, strike=2, life=4)
    assert card.classes == ("гном", "воин")
    assert CardDef.build("Кузнец", "существо", subtype="гном").classes == ("гном",)
    assert CardDef.build("Кольцо", "экипировка", classes="эльф").classes == ("эльф",)  # I-70
    assert CardDef.build("Страж", "существо", classes="Страж леса").classes == ("страж леса",)
    for typo in ("гном 2", "гнoм", "гном,, воин"):  # a digit, a Latin «o», an empty class
        with pytest.raises(CardTextError, match="класс — слово или слова"):
            CardDef.build("Рудокоп", "существо", classes=typo)


@pytest.mark.parametrize(
    ("words", "stem"),
    [
        ("эльф", "эльф"),
        ("эльфа", "эльф"),
        ("эльфов", "эльф"),
        ("гномы", "гном"),
        ("гномов", "гном"),
        ("орки", "орк"),
    ],
)
def test_the_forms_of_a_class_word_come_to_one_lemma(words: str, stem: str) -> None:
    from berserk_engine.abilities import class_lemma

    assert class_lemma(words) == stem


# --- the step «игрок … решает, выполнить ли «…»» fails when it should -------------------------------


class _FakeGame:
    def __init__(self, decision: dict[str, Any] | None) -> None:
        self._decision = decision
        self.recorded: list[Any] = []
        self.acted: list[Any] = []

    def decision(self) -> dict[str, Any] | None:
        return self._decision

    def record(self, *args: Any, **kwargs: Any) -> None:
        self.recorded.append(args)

    def record_count(self, *args: Any, **kwargs: Any) -> None:
        self.recorded.append(args)

    def act(self, player: str, action: dict[str, Any]) -> None:
        self.acted.append((player, action))


def _may(prompt: str, player: str = "А", kind: str = "choose", choices: tuple[str, ...] = ("да", "нет")):
    return {
        "player": player,
        "kind": kind,
        "prompt": prompt,
        "options": [{"type": "choose", "choice": c, "label": c} for c in choices],
    }


def test_the_optional_part_steps_pass_and_fail_when_they_should() -> None:
    from berserk_rules.steps.printed import may_decide, may_do, may_not_do

    words = "ранить на 1 выбранное существо"
    good = _FakeGame(_may(f"Игрок А: «Ловчий» — вы можете {words}. Делать?"))
    may_decide(good, "А", words)  # type: ignore[arg-type]
    may_do(good, "А", words)  # type: ignore[arg-type]
    may_not_do(good, "А", words)  # type: ignore[arg-type]
    assert good.acted == [
        ("А", {"type": "choose", "choice": "да"}),
        ("А", {"type": "choose", "choice": "нет"}),
    ]
    wrong = [
        _may("Игрок А: «Ловчий» — вы можете возьмите карту. Делать?"),  # another part
        _may(f"… {words} …", player="Б"),  # another player
        _may(f"… {words} …", kind="choose_cards"),  # another decision
        _may(f"… {words} …", choices=("перевернуть", "оставить")),  # not a yes / no decision
        None,  # the game is over
    ]
    for decision in wrong:
        with pytest.raises(AssertionError):
            may_decide(_FakeGame(decision), "А", words)  # type: ignore[arg-type]


# --- the steps «игрок … выбирает вариант …» pass and fail when they should (I-65, I-66) -------------------


def test_the_option_steps_pass_and_fail_when_they_should() -> None:
    from berserk_rules.steps.printed import choose_option, options_are

    labels = ("Х = 0", "Х = 1", "Х = 2")
    decision = {
        "player": "А",
        "kind": "choose",
        "prompt": "назовите Х",
        "options": [{"type": "choose", "choice": str(n), "label": f"Х = {n}"} for n in range(3)],
    }
    good = _FakeGame(decision)
    options_are(good, "А", list(reversed(labels)))  # type: ignore[arg-type]  # in any order
    choose_option(good, "А", "Х = 2")  # type: ignore[arg-type]
    assert good.acted == [("А", {"type": "choose", "choice": "2"})]
    for claim in (["Х = 0", "Х = 1"], [*labels, "Х = 3"]):  # fewer or more options than offered
        with pytest.raises(AssertionError):
            options_are(_FakeGame(decision), "А", claim)  # type: ignore[arg-type]
    with pytest.raises(AssertionError):
        options_are(_FakeGame({**decision, "player": "Б"}), "А", list(labels))  # type: ignore[arg-type]
    with pytest.raises(AssertionError):
        options_are(_FakeGame({**decision, "kind": "choose_cards"}), "А", list(labels))  # type: ignore[arg-type]
    with pytest.raises(AssertionError):
        choose_option(_FakeGame(decision), "А", "Х = 5")  # type: ignore[arg-type]
