"""Printed constructions of the card language (issue 29): their grammar is ``syntax/constructions.lark``
(alternatives added with ``%extend`` to the sentence layer's rules ``condition``, ``effects``,
``constant``, ``clause``), their compilers are here (:data:`~berserk_engine.language.abilities.COMPILERS`,
keyed by the grammar's aliases), their words in ``lexicon/constructions.toml``:

* a condition on the hands — «у вас в руке больше карт, чем у противника», «у вас нет карт в руке» … —
  :class:`~berserk_engine.conditions.HandTest`;
* «Если [условие], [эффект]» and «[эффект], если [условие]» — one meaning in either order:
  :class:`~berserk_engine.conditions.Provided` (interpretation I-80);
* «Пока [условие], это существо имеет +N к удару» — :class:`~berserk_engine.conditions.WhileBonus` (I-81);
* «Не может атаковать» — :class:`~berserk_engine.cannot_attack.CannotAttack` (I-82);
* «выстрел на 2 в персонажа противника» — the shot (:mod:`berserk_engine.keywords.shot`) at the printed
  target, and «[эффект] [цель противника] по его выбору» — the opponent picks the target on resolution
  (:class:`~berserk_engine.opponent_choice.OpponentPicks`, I-83).

The canonical words of each construction live beside its mechanic (``conditions.PROVIDED_FORM`` …): the
reading of a construction renders in them, and they read back as the same node (tests/test_constructions.py).
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from lark import Tree

from berserk_engine.abilities import Ability, Amount, Selector, class_lemma, selectors_of
from berserk_engine.cannot_attack import FORM as CANNOT_ATTACK_FORM
from berserk_engine.cannot_attack import CannotAttack
from berserk_engine.conditions import (
    HAND_FORMS,
    PROVIDED_FORM,
    SELF_STATE_FORM,
    SELF_STATES,
    WHILE_FORM,
    HandTest,
    Provided,
    SelfState,
    WhileBonus,
    WhileGrant,
    bonus_words,
)
from berserk_engine.keywords.shot import IN_FORM, PLAIN_FORM, Shot
from berserk_engine.keywords.shot import TARGET as SHOT_TARGET
from berserk_engine.language import tree as t
from berserk_engine.language.abilities import AbilityPart, Context, Effect, Part, compiles
from berserk_engine.language.reading import Phrase, Reading
from berserk_engine.opponent_choice import FORM as THEIR_CHOICE_FORM
from berserk_engine.opponent_choice import opponent_picks


def _phrase(form: tuple[str, str, str], category: str) -> Phrase:
    """A phrase that only carries a construction's canonical words and what it rests on (no registry)."""
    words, example, source = form
    return Phrase(category, words, example, _no_build, None, source)


def _no_build(_named: dict[str, Any]) -> None:  # compiled from the tree, never from a format
    return None


def _render(reading: Reading) -> str:
    from berserk_engine.grammar import render

    return render(reading)


# --- a condition on the hands (I-80) -------------------------------------------------------------------


@compiles("printed_hand_more", "printed_hand_less", "printed_hand_empty", "printed_hand_not_empty")
def _hand(tree: Tree[Any], context: Context) -> Part:
    test = HandTest(str(tree.data).removeprefix("printed_hand_"))
    return Part(test, Reading("phrase", phrase=_phrase(HAND_FORMS[test.kind], "condition"), named={}))


# --- «если [условие], [эффект]», «[эффект], если [условие]» (I-80) ------------------------------------


@compiles("printed_provided", "printed_provided_after")
def _provided(tree: Tree[Any], context: Context) -> Effect:
    values = context.values(tree)
    condition, effect = values if tree.data == "printed_provided" else reversed(values)
    if isinstance(condition.node, SelfState):
        raise t.ReadError(
            f"«{context.printed(tree)}»: условие о самой карте — только в «Пока …»", t._first(tree).start
        )
    named = {"c": _render(condition.reading), "then": _render(effect.reading)}
    reading = Reading("phrase", phrase=_phrase(PROVIDED_FORM, "effect"), named=named)
    return Effect(Provided(condition.node, effect.node), effect.optional, reading)


# --- constant abilities: «Пока …, …» (I-81), «Не может атаковать» (I-82) -------------------------------


def _itself(values: list[Any], tree: Tree[Any], context: Context) -> None:
    """The optional subject of a constant ability names the card itself («это существо»), nothing else."""
    for value in values:
        if isinstance(value, Selector) and value.mode != "self":
            raise t.ReadError(
                f"«{value.words}»: постоянная способность говорит о самой карте («это существо»)",
                t._first(tree).start,
            )


@compiles("printed_while_bonus")
def _while_bonus(tree: Tree[Any], context: Context) -> AbilityPart:
    values = context.values(tree)
    condition, (strike, life) = values[0], values[-1]
    if isinstance(condition.node, SelfState):  # «Пока это существо ранено, оно …»: «оно» — this card (I-119)
        if life:
            raise t.ReadError(
                f"«{context.printed(tree)}»: при условии о самой карте — только прибавка к удару",
                t._first(tree).start,
            )
        values = [v for v in values if not (isinstance(v, Selector) and v.mode == "ref")]
    _itself(values, tree, context)
    named = {"c": _render(condition.reading), "b": bonus_words(strike, life)}
    reading = Reading("phrase", phrase=_phrase(WHILE_FORM, "static"), named=named)
    ability = Ability("static", context.sentence, WhileBonus(condition.node, strike, life))
    return AbilityPart(ability, Reading("sentence", parts=(reading,)))


@compiles("printed_while_grant")
def _while_grant(tree: Tree[Any], context: Context) -> AbilityPart:
    """«Пока [условие], это существо имеет Первый удар (Броню 1)»: the keyword as its term writes it, while
    the condition holds (I-81; about the card itself — I-119)."""
    from berserk_engine.language.abilities import keyword_after

    children = [c for c in tree.children if isinstance(c, Tree)]
    condition = context.compile(children[0])
    has, printed, text = keyword_after(tree, context, ("has",))
    subjects = [context.compile(c) for c in children[1:] if t._first(c).start < has.start]
    if isinstance(condition.node, SelfState):  # «Пока это существо ранено, оно …»: «оно» — this card (I-119)
        subjects = [v for v in subjects if not (isinstance(v, Selector) and v.mode == "ref")]
    _itself(subjects, tree, context)
    named = {"c": _render(condition.reading), "b": printed}
    reading = Reading("phrase", phrase=_phrase(WHILE_FORM, "static"), named=named)
    ability = Ability("static", context.sentence, WhileGrant(condition.node, text))
    return AbilityPart(ability, Reading("sentence", parts=(reading,)))


@compiles("printed_bonus_strike", "printed_bonus_life", "printed_bonus_both", "printed_bonus_same")
def _bonus(tree: Tree[Any], context: Context) -> tuple[int, int]:
    numbers = [c.source.value for c in tree.children if not isinstance(c, Tree) and c.source.kind == "signed"]
    kind = str(tree.data)
    if kind == "printed_bonus_strike":
        return numbers[0], 0
    if kind == "printed_bonus_life":
        return 0, numbers[0]
    if kind == "printed_bonus_same":
        return numbers[0], numbers[0]
    return numbers[0], numbers[1]


@compiles("printed_cannot_attack", "printed_cannot_defend")
def _cannot(tree: Tree[Any], context: Context) -> AbilityPart:
    """«Не может атаковать» (I-82), «Не может выступать защитником» (I-90): constants of the card itself."""
    from berserk_engine.cannot_defend import FORM as CANNOT_DEFEND_FORM
    from berserk_engine.cannot_defend import CannotDefend

    _itself(context.values(tree), tree, context)
    effect: Any = CannotAttack() if tree.data == "printed_cannot_attack" else CannotDefend()
    form = CANNOT_ATTACK_FORM if tree.data == "printed_cannot_attack" else CANNOT_DEFEND_FORM
    reading = Reading("phrase", phrase=_phrase(form, "static"), named={})
    return AbilityPart(Ability("static", context.sentence, effect), Reading("sentence", parts=(reading,)))


# --- «выстрел на 2 в [цель]», «[эффект] по его выбору» (I-83) ------------------------------------------


@compiles("printed_shot_at")
def _shot_at(tree: Tree[Any], context: Context) -> Part:
    amount, target = context.values(tree)
    assert isinstance(amount, Amount) and isinstance(target, Selector)
    named = {"n": amount.value, "t": target.words}
    return Part(Shot(amount, target), Reading("phrase", phrase=_phrase(IN_FORM, "effect"), named=named))


@compiles("printed_shot_plain")
def _shot_plain(tree: Tree[Any], context: Context) -> Part:
    """«выстрел на 2»: the character of the opponent chosen at the declaration (I-27), as the keyword's
    own phrase reads it."""
    (amount,) = context.values(tree)
    named = {"n": amount}
    return Part(
        Shot(amount, SHOT_TARGET), Reading("phrase", phrase=_phrase(PLAIN_FORM, "effect"), named=named)
    )


@compiles("printed_their_choice")
def _their_choice(tree: Tree[Any], context: Context) -> Part:
    clause = next(c for c in tree.children if isinstance(c, Tree))
    inner = context.compile(clause)
    chosen = [s for s in selectors_of(inner.node) if s.chosen]
    if len(chosen) != 1 or chosen[0].side != "enemy" or chosen[0].count != 1:
        raise t.ReadError(
            f"«{context.printed(tree)}»: «по его выбору» — цель противника («персонажа противника»), одна",
            t._first(tree).start,
        )
    named = {"effect": _render(inner.reading)}
    reading = Reading("phrase", phrase=_phrase(THEIR_CHOICE_FORM, "effect"), named=named)
    return Part(opponent_picks(inner.node, chosen[0]), reading)


# --- «Гномы стоят на 1 [Монета] дешевле» (203.3, I-84), «Ваши гномы …» (GroupCost) ------------------


@compiles("printed_class_cheaper", "printed_class_dearer", "printed_own_class_cheaper")
def _class_cost(tree: Tree[Any], context: Context) -> AbilityPart:
    from berserk_engine.costs import CLASS_COST_FORMS, ClassCost, GroupCost

    tokens = [c.source for c in tree.children if not isinstance(c, Tree)]
    group = next(tok.text for tok in tokens if any(a.category == "class" for a in _analyses(tok.text)))
    amount = _coin_amount(tree, context)
    kind = str(tree.data)
    effect: Any
    if kind == "printed_own_class_cheaper":
        effect, form = GroupCost(group.lower(), amount), CLASS_COST_FORMS["own"]
    elif kind == "printed_class_cheaper":
        effect, form = ClassCost(group.lower(), amount), CLASS_COST_FORMS["cheaper"]
    else:
        effect, form = ClassCost(group.lower(), -amount), CLASS_COST_FORMS["dearer"]
    named = {"g": group.lower() if kind == "printed_own_class_cheaper" else group.capitalize(), "n": amount}
    reading = Reading("phrase", phrase=_phrase(form, "static"), named=named)
    return AbilityPart(Ability("static", context.sentence, effect), Reading("sentence", parts=(reading,)))


def _coin_amount(tree: Tree[Any], context: Context) -> int:
    """«на 2 [Монета]», «на одну [Монета]»: by how much a cost changes — a number, never «Х»."""
    amount = next(c for c in tree.children if isinstance(c, Tree) and c.data in ("amount", "printed_x"))
    if amount.data == "printed_x":
        raise t.ReadError(
            f"«{context.printed(tree)}»: стоимость меняется на число («на 1 [Монета]»), а не на Х",
            t._first(amount).start,
        )
    return _number(amount)


def _number(tree: Tree[Any]) -> int:
    """A number printed as digits or as a word («2», «двух»)."""
    token = t._first(tree)
    return int(token.value) if token.kind == "number" else int(t._value(tree, "numeral"))


def _analyses(word: str) -> Any:
    from berserk_engine.language.morphology import analyses

    return analyses(word)


# --- «[эффект X], при этом [эффект Y]» (I-85) ------------------------------------------------------------


@compiles("printed_thereby")
def _thereby(tree: Tree[Any], context: Context) -> Effect:
    from berserk_engine.thereby import FORM, Thereby, measurable

    first, then = context.values(tree)
    if first.optional or not measurable(first.node):
        raise t.ReadError(
            f"«{context.printed(tree)}»: «при этом» — движок проверяет полное выполнение только у «ранить», "
            "«излечить», «закрыть», «открыть», «возьмите карту» (толкование I-85)",
            t._first(tree).start,
        )
    named = {"first": _render(first.reading), "then": _render(then.reading)}
    reading = Reading("phrase", phrase=_phrase(FORM, "effect"), named=named)
    return Effect(Thereby(first.node, then.node), then.optional, reading)


# --- «Противник может [X]; иначе [Y]» (I-86) ---------------------------------------------------------------


@compiles("printed_deed_discard_one", "printed_deed_discard_n", "printed_deed_pay")
def _deed(tree: Tree[Any], context: Context) -> Part:
    from berserk_engine.effects import Discard
    from berserk_engine.otherwise import Pay

    kind = str(tree.data)
    numbers = [c.source.value for c in tree.children if not isinstance(c, Tree) and c.source.kind == "number"]
    counts = [v for v in context.values(tree) if isinstance(v, int)]
    printed = context.words(tree)  # the deed as printed: the decision shows these words
    words = printed[:1].lower() + printed[1:]
    node: Any = Pay(numbers[0]) if kind == "printed_deed_pay" else Discard((counts or [1])[0], opponent=True)
    phrase = Phrase("effect", words, words, _no_build, None, "I-86")
    return Part(node, Reading("phrase", phrase=phrase, named={}))


@compiles("printed_deed_pay_cost")
def _deed_pay_cost(tree: Tree[Any], context: Context) -> Part:
    """«заплатить стоимость выбранного существа» (I-92): the cost of a target the ability names."""
    from berserk_engine.otherwise import PayCost

    (target,) = context.values(tree)
    if not isinstance(target, Selector) or not target.chosen or target.count != 1:
        raise t.ReadError(
            f"«{context.printed(tree)}»: платят стоимость одной цели («выбранного существа»)",
            t._first(tree).start,
        )
    printed = context.words(tree)
    words = printed[:1].lower() + printed[1:]
    phrase = Phrase("effect", words, words, _no_build, None, "I-92")
    return Part(PayCost(target), Reading("phrase", phrase=phrase, named={}))


@compiles("printed_opponent_may")
def _opponent_may(tree: Tree[Any], context: Context) -> Effect:
    from berserk_engine.otherwise import FORM, OpponentMay

    deed, otherwise = context.values(tree)
    words = _render(deed.reading)
    named = {"deed": words, "otherwise": _render(otherwise.reading)}
    reading = Reading("phrase", phrase=_phrase(FORM, "effect"), named=named)
    return Effect(OpponentMay(deed.node, otherwise.node, words), otherwise.optional, reading)


# --- «отравить [цель] на Х» (I-87) -------------------------------------------------------------------------


@compiles("printed_poison")
def _poison(tree: Tree[Any], context: Context) -> Part:
    """«отравить [цель] на Х»: the target gets the keyword «Отравление Х» (I-87)."""
    from berserk_engine.effects import Grant, GrantCounted
    from berserk_engine.keywords.poison import GRANTED, VERB_FORM

    values = [v for v in context.values(tree) if v is not None]
    amount = next(v for v in values if isinstance(v, Amount))
    target = next(v for v in values if isinstance(v, Selector))
    if amount.value is None:  # «на Х»: the number known on resolution (I-66, I-88)
        named_x: dict[str, Any] = {"t": target.words, "n": amount.words}
        reading = Reading("phrase", phrase=_phrase(VERB_FORM, "effect"), named=named_x)
        return Part(GrantCounted(GRANTED, amount, target), reading)
    if amount.value < 1:
        raise t.ReadError(f"«{context.printed(tree)}»: «Отравление 0» нельзя заявить", t._first(tree).start)
    named = {"t": target.words, "n": amount.value}
    keyword = GRANTED.format(n=amount.value)
    reading = Reading("phrase", phrase=_phrase(VERB_FORM, "effect"), named=named)
    return Part(Grant(keyword, target), reading)


# --- «Х» (I-66) and «[эффект с Х], где Х – [что]» (I-88) -----------------------------------------------


@compiles("printed_x")
def _x(tree: Tree[Any], context: Context) -> Amount:
    """«Х» in an effect: defined by «где Х – …» after it, or the Х of the spell's cost (I-66)."""
    from berserk_engine.x_value import WORD

    return Amount(prop="X", words=WORD)


@compiles("printed_where")
def _where(tree: Tree[Any], context: Context) -> Effect:
    from berserk_engine.x_value import FORM, bind, uses_x

    body, value = context.values(tree)
    if not uses_x(body.node):
        raise t.ReadError(
            f"«{context.printed(tree)}»: «где Х – …» определяет Х, а в эффекте перед ним Х нет",
            t._first(tree).start,
        )
    if value.prop == "drawn_thus" and not _draws_until(body.node):
        raise t.ReadError(
            f"«{context.printed(tree)}»: «взятых таким образом» — карты, взятые эффектом «Берите карты, "
            "пока …» перед ним в этой способности (толкование I-107)",
            t._first(tree).start,
        )
    named = {"body": _render(body.reading), "what": value.words}
    reading = Reading("phrase", phrase=_phrase(FORM, "effect"), named=named)
    return Effect(bind(body.node, value), body.optional, reading)


def _draws_until(node: Any) -> bool:
    from berserk_engine.abilities import effect_nodes
    from berserk_engine.draw_until import DrawUntil

    return any(isinstance(n, DrawUntil) for n in effect_nodes(node))


@compiles("printed_x_count")
def _x_count(tree: Tree[Any], context: Context) -> Amount:
    (group,) = context.values(tree)
    assert isinstance(group, Selector)
    if group.mode in ("self", "ref", "chosen") or group.count != 1:
        raise t.ReadError(
            f"«{context.printed(tree)}»: «число …» считает группу карт («число ваших гномов»)",
            t._first(tree).start,
        )
    return Amount(prop="count", words=context.words(tree), selector=replace(group, mode="each"))


@compiles("printed_x_hand", "printed_x_drawn")
def _x_player(tree: Tree[Any], context: Context) -> Amount:
    prop = "hand" if tree.data == "printed_x_hand" else "drawn"
    return Amount(prop=prop, words=context.words(tree))


@compiles("printed_x_trait")
def _x_trait(tree: Tree[Any], context: Context) -> Amount:
    trait, card = tree.children
    selector = _check_this_card(tree, card, context)
    prop = "strike" if trait.data == "printed_trait_strike" else "life"
    return Amount(prop=prop, words=context.words(tree), selector=selector)


def _check_this_card(tree: Tree[Any], card: Any, context: Context, case: str = "GENT") -> Selector:
    """«этого существа», «этом механизме»: this card by its kind or by one of its classes, in ``case``
    (the genitive after «сила удара», the locative after «ран на»), or an error. A class the card does not
    have is kept in the selector: on a spell the words name the card chosen before (I-113), on any other
    card they are an error of its text (:func:`berserk_engine.x_value.trait_on_a_spell`)."""
    from berserk_engine.x_value import THIS_CARD

    if not all(any(f"__{case}_" in a.terminal for a in _analyses(w.source.text)) for w in t._tokens(card)):
        raise t.ReadError(
            f"«{context.printed(tree)}»: «этого существа» после «сила удара», «этом существе» после «ран на»",
            t._first(card).start,
        )
    word = t._tokens(card)[-1].source.text
    found = _analyses(word)
    kinds = {a.value for a in found if a.category == "kind"}
    named = {class_lemma(a.lemma) for a in found if a.category == "class"}
    if kinds and not kinds & {"creature", "card"}:
        raise t.ReadError(
            f"«{context.printed(tree)}»: Х — характеристика этой карты («сила удара этого существа»)",
            t._first(card).start,
        )
    if not kinds and context.classes and not named & {class_lemma(c) for c in context.classes}:
        return replace(THIS_CARD, classes=tuple(sorted(named)))
    return THIS_CARD


@compiles("printed_x_wounds")
def _x_wounds(tree: Tree[Any], context: Context) -> Amount:
    """«количество ран на этом существе», «… на «Название карты»»: the wounds on this card (I-110)."""
    from berserk_engine.x_value import THIS_CARD

    card = tree.children[-1]
    selector = THIS_CARD
    if isinstance(card, Tree):  # «на этом …» (a name in quotes is this card: «Название карты»)
        selector = _check_this_card(tree, card, context, "LOCT")
    return Amount(prop="wounds", words=context.words(tree), selector=selector)


# --- «В начале хода противника ранить …»: a trigger condition without «:» or «,» (I-89) ----------------


@compiles("printed_bare_trigger")
def _bare_trigger(tree: Tree[Any], context: Context) -> AbilityPart:
    """Read as «[условие], [эффект]»: the same ability as with the comma (a creature's text, not a
    spell's: a spell has no trigger condition)."""
    from berserk_engine.language.abilities import COMPILERS

    head, *rest = [c for c in tree.children if isinstance(c, Tree)]
    same = Tree(
        "triggered", [Tree("trigger_head", [Tree("trigger", [head])]), Tree("trigger_end", []), *rest]
    )
    part = COMPILERS["triggered"](same, context)
    assert isinstance(part, AbilityPart)
    return replace(part, comma=True)


@compiles("printed_their_hero")
def _their_hero(tree: Tree[Any], context: Context) -> Selector:
    """«его героя»: «его» names the player named last before it — the opponent («В начале хода
    противника …») gives the opponent's hero; anything else is an error, not a guess."""
    ref, head = t._tokens(tree)
    if t._value(Tree("kind", [head]), "kind") != "hero":
        raise t.ReadError(f"«{context.printed(tree)}»: «его …» здесь — только «его героя»", ref.source.start)
    before = [w for w in _words_before(context.text, ref.source.start) if _analyses(w)]
    last = next((w for w in reversed(before) if _names_someone(w)), None)
    if last is None or not any(a.category == "opponent" for a in _analyses(last)):
        raise t.ReadError(
            f"«{context.printed(tree)}»: «его» — игрок, названный перед ним («хода противника»)",
            ref.source.start,
        )
    return Selector("enemy_hero", context.words(tree), ("hero",))


def _words_before(text: str, end: int) -> list[str]:
    from berserk_engine.language.tokens import tokenize

    return [tok.text for tok in tokenize(text[:end]) if tok.kind == "word"]


def _names_someone(word: str) -> bool:
    return any(a.category in ("opponent", "kind", "class", "you", "ref") for a in _analyses(word))


# --- «Каждое из них …» (I-91) ------------------------------------------------------------------------


@compiles("printed_each_of_them")
def _each_of_them(tree: Tree[Any], context: Context) -> Any:
    """«каждое из них»: every target of the group named last before it (``count`` 0 until
    :func:`~berserk_engine.abilities.number_slots` gives it that group's slots)."""
    from berserk_engine.language.abilities import Subject

    return Subject(Selector("ref", context.words(tree).lower(), count=0), plural=False)


# --- «[цель] получает «[способность]» [срок]» (I-93) ---------------------------------------------------


@compiles("printed_grant_quoted")
def _grant_quoted(tree: Tree[Any], context: Context) -> Part:
    """The quoted text is read as an ability by the same reader (an error names it when it is none); the
    target gets that text, until the end of the battle when no duration is printed («Получает [текст]»)."""
    from berserk_engine.effects import GRANT_QUOTED_FORM, GRANT_QUOTED_PLURAL, Grant
    from berserk_engine.errors import CardTextError
    from berserk_engine.grammar import parse_card_text
    from berserk_engine.language.abilities import Duration, Subject
    from berserk_engine.language.morphology import granted_text

    quote = next(c for c in tree.children if not isinstance(c, Tree) and c.source.kind == "quote")
    text = granted_text(quote.source.inner)  # numbers in digits: one node for «на один» and «на 1»
    try:
        granted = parse_card_text(context.sentence, text)
    except CardTextError as exc:
        raise t.ReadError(
            f"«{context.printed(tree)}»: в кавычках — не способность, которую читает движок: {exc.message}",
            quote.source.start,
        ) from None
    if len(granted) != 1:
        raise t.ReadError(f"«{context.printed(tree)}»: в кавычках — одна способность", quote.source.start)
    values = context.values(tree)
    subject = next(v for v in values if isinstance(v, Subject))
    durations = [v for v in values if isinstance(v, Duration)]
    until = durations[0].until if durations else "leaves_play"
    printed = f" {context.words(tree.children[-1])}" if durations else ""
    named = {"t": subject.selector, "what": text, "d": printed}
    form = GRANT_QUOTED_PLURAL if subject.plural else GRANT_QUOTED_FORM
    reading = Reading("phrase", phrase=_phrase(form, "effect"), named=named)
    return Part(Grant(text, subject.selector, until), reading)


# --- «положите [цель] под низ колоды» (204.4), «положите [цель] в руку владельца» (203.4) ---------------


@compiles("printed_put_bottom", "printed_put_owner_hand")
def _put(tree: Tree[Any], context: Context) -> Part:
    """The card goes to its owner's deck (under it) or hand (:class:`~berserk_engine.effects.Move`, as
    «вернуть … под низ колоды», «вернуть … в руку» do): the same frame, the printed verb's canonical words."""
    from berserk_engine.effects import PUT_FORMS
    from berserk_engine.language.abilities import COMPILERS

    same = "return_to_bottom" if tree.data == "printed_put_bottom" else "return_to_hand"
    part = COMPILERS[same](tree, context)
    assert isinstance(part, Part)
    phrase = _phrase(PUT_FORMS[same], "effect")
    return Part(part.node, Reading("phrase", phrase=phrase, named=part.reading.named))


# --- «Когда противник (вы) разыгрывает карту», «Когда становится целью заклинания» (309.1, I-101) ---------


@compiles("printed_play_trigger")
def _play_trigger(tree: Tree[Any], context: Context) -> Part:
    """«Когда [что случилось]»: the condition is its event (the tree holds it as a subtree, no noun group)."""
    (event,) = context.values(tree)
    assert isinstance(event, Part)
    return event


@compiles("printed_enemy_plays", "printed_own_plays", "printed_spell_targeted")
def _play_event(tree: Tree[Any], context: Context) -> Part:
    """A card played by the opponent (by you) — not the watcher's own play; the card itself becomes a
    spell's target (:mod:`berserk_engine.play_triggers`)."""
    from berserk_engine.abilities import Trigger
    from berserk_engine.play_triggers import (
        CARD_PLAYED,
        ENEMY_PLAYS_FORM,
        OWN_PLAYS_FORM,
        SPELL_TARGET_FORM,
        SPELL_TARGETED,
    )

    kind = str(tree.data)
    if kind == "printed_spell_targeted":
        trigger, form = Trigger(SPELL_TARGETED), SPELL_TARGET_FORM
    else:
        player = "enemy" if kind == "printed_enemy_plays" else "own"
        trigger = Trigger(CARD_PLAYED, player=player, other=True)
        form = ENEMY_PLAYS_FORM if player == "enemy" else OWN_PLAYS_FORM
    return Part(trigger, Reading("trigger", phrase=_phrase(form, "trigger"), named={}))


@compiles("printed_hero_strike_event")
def _hero_strike_event(tree: Tree[Any], context: Context) -> Part:
    """This card's strike deals wounds to a hero (:mod:`berserk_engine.hero_strike`, I-111): the subject, if
    printed, is this card («это существо», its name); the dative, a hero."""
    from berserk_engine.abilities import Trigger
    from berserk_engine.hero_strike import FORM, FORM_NO_X, HERO_STRUCK

    words = [c.source for c in tree.children if not isinstance(c, Tree) and c.source.kind == "word"]
    dative = next(w for w in words if any("__DATV_" in a.terminal for a in _analyses(w.text)))
    if not any(a.category == "kind" and a.value == "hero" for a in _analyses(dative.text)):
        raise t.ReadError(f"«{context.printed(tree)}»: ударом — герою («ударом герою»)", dative.start)
    x = any(a.terminal == "X_VAR" for w in words for a in _analyses(w.text))
    return Part(
        Trigger(HERO_STRUCK),
        Reading("trigger", phrase=_phrase(FORM if x else FORM_NO_X, "trigger"), named={}),
    )


# --- «Поиск до трёх заклинаний стоимостью 2 [Монета]», «Поиск заклинания стоимостью 2» (поиск-карта-карты) --


@compiles("printed_search_up_to", "printed_search_exact")
def _search(tree: Tree[Any], context: Context) -> Part:
    """A search (:class:`~berserk_engine.deck.Search`: up to N cards, the player may take fewer) of
    creatures, spells or cards, by a cost exactly N or N or less."""
    from berserk_engine.deck import SEARCH_FORM, Search

    counted = [c for c in tree.children if isinstance(c, Tree)]  # «до N»: its number
    count = _number(counted[0]) if counted else 1
    if count < 1:
        raise t.ReadError(f"«{context.printed(tree)}»: искать можно хотя бы одну карту", t._first(tree).start)
    tokens = [c.source for c in tree.children if not isinstance(c, Tree)]
    what = tokens[2] if counted else tokens[1]  # after «Поиск до» (the number is a subtree) or «Поиск»
    found = _analyses(what.text)
    types: tuple[str, ...] = ()
    if any(a.category == "spell" for a in found):
        types = ("spell",)
    elif any(a.category == "kind" and a.value == "creature" for a in found):
        types = ("creature",)
    elif not any(a.category == "kind" and a.value == "card" for a in found):
        raise t.ReadError(f"«{context.printed(tree)}»: поиск — существа, заклинания или карты", what.start)
    cost = next(tok.value for tok in tokens if tok.kind == "number")
    at_most = any(a.category == "less" for tok in tokens for a in _analyses(tok.text))
    words = context.words(tree).split(maxsplit=1)[1]
    node = Search(count, None, types, cost if at_most else None, words, None if at_most else cost)
    return Part(node, Reading("phrase", phrase=_phrase(SEARCH_FORM, "effect"), named={"what": words}))


# --- «Противник не может разыгрывать карты в его следующий ход» (I-102) -------------------------------


@compiles("printed_no_play")
def _no_play(tree: Tree[Any], context: Context) -> Part:
    """The opponent's next turn without playing cards (:class:`~berserk_engine.play_ban.BanPlay`): «карты»
    — cards of any type, «свой» — the opponent's own turn."""
    from berserk_engine.play_ban import FORM, BanPlay

    kind = t._tokens(tree)[4].source  # «карты»: after «Противник не может разыгрывать»
    if not any(a.category == "kind" and a.value == "card" for a in _analyses(kind.text)):
        raise t.ReadError(f"«{context.printed(tree)}»: запрет — на розыгрыш карт («карты»)", kind.start)
    return Part(BanPlay(), Reading("phrase", phrase=_phrase(FORM, "effect"), named={}))


# --- «Вызовите до 2 существ стоимостью 2 [Монета] или менее» (вызов-вызвать, 517.3.1) ----------------------


@compiles("printed_summon_up_to")
def _summon_up_to(tree: Tree[Any], context: Context) -> Part:
    """A summon of up to N different creatures (of a class, of a cost or less) the player finds in his deck
    when the ability is declared (:class:`~berserk_engine.squad.SummonBy` with ``count`` N)."""
    from berserk_engine.card_filter import Wanted
    from berserk_engine.squad import SUMMON_UP_TO_FORM, SummonBy

    counted = next(c for c in tree.children if isinstance(c, Tree) and c.data == "up_to_amount")
    count = _number(counted)
    if count < 1:
        raise t.ReadError(f"«{context.printed(tree)}»: вызывают хотя бы одно существо", t._first(tree).start)
    tokens = [c.source for c in tree.children if not isinstance(c, Tree)]
    head = tokens[1]  # after «до» (the verb and the number are subtrees)
    found = _analyses(head.text)
    classes: tuple[str, ...] = ()
    if any(a.category == "class" for a in found) and not any(a.category == "kind" for a in found):
        classes = (class_lemma(head.text),)
    elif not any(a.category == "kind" and a.value == "creature" for a in found):
        raise t.ReadError(f"«{context.printed(tree)}»: вызывают существа", head.start)
    numbers = [tok.value for tok in tokens if tok.kind == "number"]
    words = context.words(tree).split(maxsplit=3)[3]  # what is sought, as printed, after «вызовите до N»
    wanted = Wanted(classes, numbers[0] if numbers else None, words)
    named = {"n": count, "what": words}
    reading = Reading("phrase", phrase=_phrase(SUMMON_UP_TO_FORM, "effect"), named=named)
    return Part(SummonBy(wanted, "deck", count), reading)


# --- «Возьмите карты за каждое существо в игре с ударом 5 или более» (I-104) -----------------------------


@compiles("printed_draw_per")
def _draw_per(tree: Tree[Any], context: Context) -> Part:
    """As many cards as the group has cards when the effect resolves; «в игре» — the game zone, as every
    «каждое …» counts; «с ударом N или более» — the strike the card has then."""
    from berserk_engine.effects import DRAW_PER_FORM, Draw

    (group,) = [v for v in context.values(tree) if isinstance(v, Selector)]
    if group.mode != "each":
        raise t.ReadError(
            f"«{context.printed(tree)}»: «за каждое …» — за каждую карту группы («за каждое ваше существо»)",
            t._first(tree).start,
        )
    numbers = [c.source.value for c in tree.children if not isinstance(c, Tree) and c.source.kind == "number"]
    if numbers:
        group = replace(group, condition=f"strike>={numbers[0]}")
    what = context.words(tree).split(maxsplit=3)[3]  # after «возьмите карты за»
    counted = Amount(prop="count", words=what, selector=group)
    reading = Reading("phrase", phrase=_phrase(DRAW_PER_FORM, "effect"), named={"what": what})
    return Part(Draw(counted), reading)


# --- «Первая карта каждого противника в его следующий ход стоит на 2 [Монета] дороже» (I-105) -------------


@compiles("printed_first_card_dearer")
def _first_card_dearer(tree: Tree[Any], context: Context) -> Part:
    """The first card the opponent plays in his next turn costs N more
    (:class:`~berserk_engine.next_turn_cost.FirstCardDearer`); «карта» — a card of any type."""
    from berserk_engine.next_turn_cost import FORM, FirstCardDearer

    if (word := _not_any_card(tree)) is not None:
        raise t.ReadError(f"«{context.printed(tree)}»: «первая карта» — карта любого типа", word.start)
    amount = _coin_amount(tree, context)
    reading = Reading("phrase", phrase=_phrase(FORM, "effect"), named={"n": amount})
    return Part(FirstCardDearer(amount), reading)


def _not_any_card(tree: Tree[Any]) -> Any:
    """The second word of «[карта] … стоит на N [Монета] дороже» when it names a kind of card rather than
    a card of any type (the caller's error points at it), else None."""
    word = t._tokens(tree)[1].source
    if any(a.category == "kind" and a.value == "card" for a in _analyses(word.text)):
        return None
    return word


# --- «До начала вашего следующего хода оно не наносит ран» (I-106) ---------------------------------------


@compiles("printed_deals_no_wounds")
def _deals_no_wounds(tree: Tree[Any], context: Context) -> Part:
    """The subject deals no wounds (:class:`~berserk_engine.deals_no_wounds.DealsNoWounds`) until the start
    of the controller's next turn, or for the printed duration."""
    from berserk_engine.deals_no_wounds import FORM, UNTIL, UNTIL_WORDS, DealsNoWounds
    from berserk_engine.language.abilities import Duration, Subject

    values = context.values(tree)
    subject = next(v for v in values if isinstance(v, Subject))
    durations = [v for v in values if isinstance(v, Duration)]
    until = durations[0].until if durations else UNTIL
    printed = context.words(tree.children[-1]) if durations else UNTIL_WORDS
    actor = next(c for c in tree.children if isinstance(c, Tree))  # the subject: the first part
    words = context.words(actor)  # the subject as printed (nominative): «оно», «выбранное существо»
    named = {"t": words[:1].lower() + words[1:], "d": f" {printed}"}
    reading = Reading("phrase", phrase=_phrase(FORM, "effect"), named=named)
    return Part(DealsNoWounds(subject.selector, until), reading)


# --- «Берите карты, пока в вашей руке не будет столько же карт, сколько у противника», «взятых таким
# образом» (I-107) ----------------------------------------------------------------------------------------


@compiles("printed_draw_until")
def _draw_until(tree: Tree[Any], context: Context) -> Part:
    from berserk_engine.draw_until import FORM, DrawUntil

    tokens = t._tokens(tree)
    if not any(a.category == "kind" and a.value == "card" for a in _analyses(tokens[1].source.text)):
        raise t.ReadError(f"«{context.printed(tree)}»: берут карты", tokens[1].source.start)
    return Part(DrawUntil(), Reading("phrase", phrase=_phrase(FORM, "effect"), named={}))


@compiles("printed_x_drawn_thus")
def _x_drawn_thus(tree: Tree[Any], context: Context) -> Amount:
    """The cards «Берите карты, пока …» of the same ability took (draw_until; I-107)."""
    from berserk_engine.draw_until import THUS

    return Amount(prop=THUS, words=context.words(tree))


# --- «Направленный удар по существу противника» (I-108) ---------------------------------------------------


@compiles("printed_directed_at")
def _directed_at(tree: Tree[Any], context: Context) -> AbilityPart:
    """A constant ability of the card (granted as text like a keyword): directed strike against the group."""
    from berserk_engine.directed_at import FORM, DirectedAt

    (group,) = [v for v in context.values(tree) if isinstance(v, Selector)]
    target = next(c for c in tree.children if isinstance(c, Tree))
    named_one = any(st.data in ("chosen", "this", "ref") for st in target.iter_subtrees())
    if group.mode not in ("chosen", "each") or group.count != 1 or group.up_to or named_one:
        raise t.ReadError(
            f"«{context.printed(tree)}»: «Направленный удар по …» — по картам группы "
            "(«по существу противника»)",
            t._first(tree).start,
        )
    group = replace(group, mode="each", slot=-1)  # a filter of the attacked card, not a target
    reading = Reading("phrase", phrase=_phrase(FORM, "keyword"), named={"t": context.words(target)})
    ability = Ability("static", context.sentence, DirectedAt(group))
    return AbilityPart(ability, Reading("sentence", parts=(reading,)), keyword=True)


# --- «Если карта противника должна стоить дороже, она стоит дополнительно на N [Монета] дороже» (I-109) ----


@compiles("printed_cost_surcharge")
def _cost_surcharge(tree: Tree[Any], context: Context) -> AbilityPart:
    """A constant ability: the opponent's card whose cost the other abilities raise costs N more again
    (:class:`~berserk_engine.cost_surcharge.CostSurcharge`)."""
    from berserk_engine.cost_surcharge import FORM, CostSurcharge

    if (word := _not_any_card(tree)) is not None:
        raise t.ReadError(f"«{context.printed(tree)}»: «карта противника» — карта любого типа", word.start)
    amount = _coin_amount(tree, context)
    reading = Reading("phrase", phrase=_phrase(FORM, "static"), named={"n": amount})
    ability = Ability("static", context.sentence, CostSurcharge(amount))
    return AbilityPart(ability, Reading("sentence", parts=(reading,)))


# --- «Существа с таким же названием стоят на N [Монета] дороже в следующий ход противника» (I-112) ---------


@compiles("printed_same_name_dearer")
def _same_name_dearer(tree: Tree[Any], context: Context) -> Part:
    """The cards with the name of the card named before it in the ability cost N more in the opponent's next
    turn (:class:`~berserk_engine.same_name_cost.SameNameDearer`): «существа» or «карты» of that name."""
    from berserk_engine.same_name_cost import FORM, SameNameDearer

    tokens = [c.source for c in tree.children if not isinstance(c, Tree)]
    at = next(i for i, tok in enumerate(tokens) if any(a.category == "such" for a in _analyses(tok.text))) - 2
    kind = tokens[at]  # «существа» of «существа с таким же названием»
    kinds = {a.value for a in _analyses(kind.text) if a.category == "kind"}
    if not kinds & {"creature", "card"}:
        raise t.ReadError(
            f"«{context.printed(tree)}»: «с таким же названием» — существа или карты", kind.start
        )
    amount = _coin_amount(tree, context)
    words = " ".join(tok.text for tok in tokens[at : at + 5]).lower()  # «существа с таким же названием»
    card = Selector("ref", words, types=())
    named = {"kind": kind.text.lower(), "n": amount}
    return Part(SameNameDearer(amount, card), Reading("phrase", phrase=_phrase(FORM, "effect"), named=named))


# --- «Оно не наносит ран, а существа имеют Направленный удар по этому существу до начала вашего следующего
# хода» (I-106, I-114) -----------------------------------------------------------------------------


@compiles("printed_no_wounds_directed")
def _no_wounds_directed(tree: Tree[Any], context: Context) -> Part:
    """Both parts last until the start of the controller's next turn: the subject deals no wounds
    (:class:`~berserk_engine.deals_no_wounds.DealsNoWounds`) and creatures have directed strike against the
    card named after «по» (:class:`~berserk_engine.directed_at.DirectedAtCard`) — one card, named before."""
    from berserk_engine.deals_no_wounds import UNTIL, DealsNoWounds
    from berserk_engine.directed_at import CARD_FORM, DirectedAtCard
    from berserk_engine.effects import Sequence
    from berserk_engine.language.abilities import Subject

    values = context.values(tree)
    subject = next(v for v in values if isinstance(v, Subject))
    (target,) = [v for v in values if isinstance(v, Selector)]
    tokens = [c.source for c in tree.children if not isinstance(c, Tree)]
    but = next(i for i, tok in enumerate(tokens) if any(a.category == "but" for a in _analyses(tok.text)))
    kind = tokens[but + 1]  # «существа» after «, а»
    if not any(a.category == "kind" and a.value == "creature" for a in _analyses(kind.text)):
        raise t.ReadError(f"«{context.printed(tree)}»: «Направленный удар» имеют существа", kind.start)
    if target.mode not in ("self", "ref") or target.count != 1:
        raise t.ReadError(
            f"«{context.printed(tree)}»: «по этому существу» — одна карта, названная раньше "
            "(«по существу противника» — постоянная способность, толкование I-108)",
            t._first(tree).start,
        )
    actor, datv = [c for c in tree.children if isinstance(c, Tree)]
    words = context.words(actor)
    named = {"t": words[:1].lower() + words[1:], "c": context.words(datv)}
    reading = Reading("phrase", phrase=_phrase(CARD_FORM, "effect"), named=named)
    node = Sequence((DealsNoWounds(subject.selector, UNTIL), DirectedAtCard(target, UNTIL)))
    return Part(node, reading)


# --- «[Закрыть], Х [Монета]: Х персонажей не могут быть выбраны целью заклинаний и способностей до конца
# хода» (I-115) ----------------------------------------------------------------------------------------


@compiles("printed_x_coins")
def _x_coins(tree: Tree[Any], context: Context) -> Part:
    """«Х [Монета]»: Х coins, Х named with the targets of the declaration (:mod:`berserk_engine.cost_x`)."""
    from berserk_engine.abilities import Cost
    from berserk_engine.cost_x import X_COINS_FORM

    return Part(Cost(x=True), Reading("phrase", phrase=_phrase(X_COINS_FORM, "cost"), named={}))


@compiles("printed_x_untargetable")
def _x_untargetable(tree: Tree[Any], context: Context) -> Part:
    """Х different characters (creatures), named at the declaration, are no targets of spells and abilities
    for the printed duration (:class:`~berserk_engine.untargetable.Untargetable`)."""
    from berserk_engine.language.abilities import Duration
    from berserk_engine.untargetable import FORM, Untargetable
    from berserk_engine.x_value import WORD

    tokens = [c.source for c in tree.children if not isinstance(c, Tree)]
    kinds = {a.value for a in _analyses(tokens[1].text) if a.category == "kind"}
    kind = next((k for k in ("character", "creature") if k in kinds), None)
    if kind is None:
        raise t.ReadError(f"«{context.printed(tree)}»: Х персонажей или Х существ", tokens[1].start)
    (duration,) = [v for v in context.values(tree) if isinstance(v, Duration)]
    words = f"{WORD} {tokens[1].text.lower()}"
    target = Selector("chosen", words, t.TYPES[kind], up_to=True)
    printed = context.words(tree.children[-1])
    named = {"t": words, "d": f" {printed}"}
    reading = Reading("phrase", phrase=_phrase(FORM, "effect"), named=named)
    return Part(Untargetable(target, duration.until), reading)


# --- «каждый игрок берёт (сбрасывает) карту», «противник берёт карту» (I-117) ------------------------------


@compiles("printed_each_draws", "printed_each_discards", "printed_enemy_draws")
def _players_do(tree: Tree[Any], context: Context) -> Part:
    """The draw or the discard done by each player in turn, or by the opponent
    (:class:`~berserk_engine.each_player.PlayersDo`)."""
    from berserk_engine.each_player import FORMS, PlayersDo
    from berserk_engine.effects import Discard, Draw

    counts = [v for v in context.values(tree) if isinstance(v, int)]
    words = [c for c in tree.children if not isinstance(c, Tree)]
    if counts:  # «2 карты»
        count, cards = counts[0], context.words(next(c for c in tree.children if isinstance(c, Tree)))
        cards = f"{cards} {context.words(tree.children[-1])}"
    else:  # «карту»
        word = words[-1].source
        if not any(a.category == "kind" and a.value == "card" for a in _analyses(word.text)):
            raise t.ReadError(f"«{context.printed(tree)}»: берут и сбрасывают карты", word.start)
        count, cards = 1, word.text
    who = "enemy" if tree.data == "printed_enemy_draws" else "each"
    what = "discard" if tree.data == "printed_each_discards" else "draw"
    part = Discard(count) if what == "discard" else Draw(Amount(value=count, words=str(count)))
    reading = Reading("phrase", phrase=_phrase(FORMS[(who, what)], "effect"), named={"n": cards.lower()})
    return Part(PlayersDo(part, who), reading)


# --- «Не может быть выбран целью заклинаний (способностей …)» (I-118) ------------------------------------


@compiles("printed_not_a_target")
def _not_a_target(tree: Tree[Any], context: Context) -> AbilityPart:
    """A constant of the card itself (:class:`~berserk_engine.untargetable.NotATarget`)."""
    from berserk_engine.untargetable import BY_WORDS, NOT_A_TARGET_FORM, NotATarget

    _itself(context.values(tree), tree, context)
    words = [c.source.text.lower() for c in tree.children if not isinstance(c, Tree)]
    at = words.index(next(w for w in words if any(a.category == "target" for a in _analyses(w))))
    enemy = any(a.category == "opponent" for a in _analyses(words[-1]))  # «… противника» after what it names
    by = " ".join(words[at + 1 : len(words) - enemy])
    node = NotATarget(BY_WORDS[by], enemy)
    reading = Reading("phrase", phrase=_phrase(NOT_A_TARGET_FORM, "static"), named={"by": node.words})
    return AbilityPart(Ability("static", context.sentence, node), Reading("sentence", parts=(reading,)))


# --- «Пока это существо ранено (закрыто …), оно имеет +N к удару» (I-119) ----------------------------------


@compiles("printed_self_state")
def _self_state(tree: Tree[Any], context: Context) -> Part:
    """A state of the card itself (:class:`~berserk_engine.conditions.SelfState`)."""
    word = t._tokens(tree)[-1].source
    state = t._value(Tree("state", [t._tokens(tree)[-1]]), "state")
    if state not in SELF_STATES:
        raise t.ReadError(
            f"«{context.printed(tree)}»: состояние карты — ранено, закрыто, открыто", word.start
        )
    reading = Reading("phrase", phrase=_phrase(SELF_STATE_FORM, "condition"), named={"s": word.text.lower()})
    return Part(SelfState(state), reading)
