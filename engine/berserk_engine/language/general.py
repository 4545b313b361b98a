"""General forms of printed cards (issue 29) whose meaning is a mechanic module: the reading of conditions
that compare the two players and of trigger conditions with a group the engine's own kinds do not cover.
Loaded by the catalogue after those modules (``berserk_engine.catalogue``), like
:mod:`berserk_engine.language.constructions`: the sentence layer (:mod:`berserk_engine.language.abilities`)
imports no mechanic.

* «если (пока) у противника больше существ, чем у вас» — :mod:`berserk_engine.creature_count` (I-120);
* «если у противника в руке больше карт, чем у вас» — :class:`berserk_engine.conditions.HandTest` (I-80);
* «Когда это существо (ваше существо, ваш эльф) атакует» — «При атаке», :mod:`berserk_engine.attack_triggers`;
* «Когда ваш гном погибает», «Когда другой ваш гном вступает в игру» — :mod:`berserk_engine.class_triggers`.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from lark import Tree

from berserk_engine.abilities import Trigger
from berserk_engine.attack_triggers import CLASS_ATTACKS, CREATURE_ATTACKS
from berserk_engine.class_triggers import CLASS_DIES, CLASS_ENTERS, ClassTrigger
from berserk_engine.conditions import HAND_FORMS, HandTest
from berserk_engine.creature_count import COUNT_FORMS, CreatureCountTest
from berserk_engine.language import tree as t
from berserk_engine.language.abilities import SUBJECT_TRIGGERS, Context, Part, compiles
from berserk_engine.language.reading import Phrase, Reading


def _counted(tree: Tree[Any]) -> tuple[Any, str]:
    """The noun counted by a comparison («существ», «карт») and its kind of card."""
    noun = next(c for c in t._tokens(tree) if "KIND__GENT_PLUR" in c.terminals)
    return noun, t._value(Tree("kind", [noun]), "kind")


def _comparison(test: Any, forms: dict[str, tuple[str, str, str]]) -> Part:
    """The condition ``test`` with its canonical words (its form in ``forms``)."""
    words, example, source = forms[test.kind]
    phrase = Phrase("condition", words, example, _no_build, None, source)
    return Part(test, Reading("phrase", phrase=phrase, named={}))


def _no_build(_named: dict[str, Any]) -> None:  # compiled from the tree, never from a format
    return None


@compiles("own_more_creatures", "own_fewer_creatures")
def _creature_count(tree: Tree[Any], context: Context) -> Part:
    """«у вас больше (меньше) существ, чем у противника», «у противника больше существ, чем у вас»: the
    creatures of the two players compared (I-120); «существ» only — «карт» without «в руке» says neither
    the hand nor the game zone."""
    noun, kind = _counted(tree)
    if kind != "creature":
        raise t.ReadError(f"«{context.printed(tree)}»: сравнивают число существ", noun.source.start)
    return _comparison(
        CreatureCountTest("more" if tree.data == "own_more_creatures" else "less"), COUNT_FORMS
    )


@compiles("opponent_hand_more", "opponent_hand_less")
def _opponent_hand(tree: Tree[Any], context: Context) -> Part:
    """«у противника в руке больше (меньше) карт, чем у вас»: the hands compared (I-80), said from the
    opponent's side — the controller's hand has fewer (more) cards; «карт» only."""
    noun, kind = _counted(tree)
    if kind != "card":
        raise t.ReadError(f"«{context.printed(tree)}»: в руке считают карты", noun.source.start)
    test = HandTest("less" if tree.data == "opponent_hand_more" else "more")
    return _comparison(test, HAND_FORMS)


def _attack_trigger(condition: t.Condition, words: str) -> Trigger | None:
    """«Когда это существо атакует» — «При атаке» (the card makes its attack); «Когда ваше существо
    атакует», «Когда ваш эльф атакует» — a creature of the group makes its attack
    (:mod:`berserk_engine.attack_triggers`); None for any other event. A subject the engine has no condition
    for is an error."""
    if condition.event != "attacks":
        return None
    subject = condition.subject
    if subject.quantifier == "this" and subject.kind in ("creature", "card") and not subject.other:
        return Trigger("attacks")
    plain = not (subject.quantifier or subject.states or subject.cost is not None or subject.name)
    side = "own" if subject.own else "enemy" if subject.opponent else "any"
    if plain and subject.number == "sing" and subject.count == 1 and subject.kind == "creature":
        return Trigger(CREATURE_ATTACKS, player=side, other=subject.other)
    if plain and subject.number == "sing" and subject.count == 1 and subject.kind == "class":
        classes = t.selector(replace(subject, own=True, opponent=False), words).classes
        return ClassTrigger(CLASS_ATTACKS, player=side, other=subject.other, classes=classes)
    raise t.ReadError(f"«{words}»: такого условия срабатывания движок не знает", subject.start)


def _class_trigger(condition: t.Condition, words: str) -> Trigger | None:
    """«Когда ваш гном погибает», «Когда эльф противника вступает в игру», «Когда другой ваш гном …»: a
    creature of a class as the subject (:mod:`berserk_engine.class_triggers`); None for any other subject."""
    subject = condition.subject
    event = {"dies": CLASS_DIES, "enters": CLASS_ENTERS}.get(condition.event)
    plain = not (subject.quantifier or subject.states or subject.cost is not None or subject.name)
    if event is None or condition.object is not None or subject.kind != "class" or not plain:
        return None
    if subject.chosen_class or subject.ref or subject.count != 1 or subject.number != "sing":
        return None
    # the class words as a group of yours has them (a target needs «ваш»; a condition's subject does not)
    classes = t.selector(replace(subject, own=True, opponent=False), words).classes
    side = "own" if subject.own else "enemy" if subject.opponent else "any"
    return ClassTrigger(event, player=side, other=subject.other, classes=classes)


SUBJECT_TRIGGERS.extend((_attack_trigger, _class_trigger))
