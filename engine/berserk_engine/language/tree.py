"""The typed tree of a reading, and what it compiles to in the engine.

First part: the noun group (:class:`NounGroup`) — the words naming the cards an effect acts on —
compiled to a :class:`~berserk_engine.abilities.Selector` with the old reader's meaning (interpretation
I-56: a bare or chosen singular group names a target chosen at the declaration, a plural one or
«каждый», «все» every such card on resolution; «ваш герой», «герой противника» a player's hero; «это
существо», «эта карта» the card itself; «его», «оно» the target named last before them; «двух разных
существ» N different targets; «до N …» up to N targets, I-67).

:func:`read_target` reads words as a target in a case: every reading the grammar finds is compiled,
readings with the same meaning merge, different meanings are an error naming both, and more readings
than :data:`MAX_READINGS` are an error too.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, replace
from typing import Any

from lark import Tree

from berserk_engine.abilities import Selector, Trigger, class_lemma
from berserk_engine.language import grammar as g
from berserk_engine.language.morphology import UnknownWord, analyze
from berserk_engine.language.tokens import TextError, Token, tokenize

MAX_READINGS = 64  # readings of one piece of text examined before it is an error
MAX_UP_TO = 5  # «до N существ»: N from 2 to 5, as the engine reads it (I-67)
CHOSEN_CLASS = "?"  # «этого класса»: the class chosen before (berserk_engine.class_choice; I-65)
CARD_TYPES = ("creature", "hero", "equipment", "event")
TYPES = {
    "creature": ("creature",),
    "character": ("creature", "hero"),
    "hero": ("hero",),
    "card": CARD_TYPES,
    "equipment": ("equipment",),
    "class": ("creature",),
}


class ReadError(ValueError):
    """Words the reader does not understand: ``message`` (Russian), ``position`` (from 0, in the text
    read), ``nearest``: known words or forms offered instead; ``unknown``: a word nobody knows (a
    typo, a Latin letter) is the problem."""

    def __init__(
        self, message: str, position: int = 0, nearest: Iterable[str] = (), unknown: bool = False
    ) -> None:
        super().__init__(message)
        self.message = message
        self.position = position
        self.nearest = list(nearest)
        self.unknown = unknown


@dataclass(frozen=True, slots=True)
class NounGroup:
    """A noun group as read: its determiner (``quantifier``: "each" | "chosen" | "this" | ""), the
    head (``kind``: a kind of card of the lexicon, or "class" with ``class_word`` as written), its
    case and number, and what narrows it (``own``, ``opponent``, ``other``, ``different``, ``states``,
    ``cost``, ``name``, ``chosen_class``); ``count`` and ``up_to`` for «двух разных …», «до N …»;
    ``ref`` for «его», «оно». ``start``, ``end``: its characters in the text."""

    quantifier: str = ""
    kind: str = ""
    class_word: str = ""
    case: str = ""
    number: str = "sing"
    own: bool = False
    opponent: bool = False
    other: bool = False
    different: bool = False
    states: tuple[str, ...] = ()
    cost: int | None = None
    strike: str = ""  # «с ударом 2 или менее»: "strike<=2"; «… или более»: "strike>=2"
    name: str = ""
    chosen_class: bool = False
    count: int = 1
    up_to: bool = False
    ref: bool = False
    start: int = 0
    end: int = 0


def _tokens(tree: Tree[Any]) -> list[Any]:
    return [t for t in tree.scan_values(lambda v: hasattr(v, "source"))]


def _first(tree: Tree[Any]) -> Any:
    return _tokens(tree)[0].source


def _build(tree: Tree[Any], case: str) -> NounGroup:
    """A noun group of one unambiguous tree (of a ``target_*`` rule)."""
    fields: dict[str, Any] = {"case": case}
    states: list[str] = []
    toks = _tokens(tree)
    fields["start"], fields["end"] = toks[0].source.start, toks[-1].source.end
    for node in tree.iter_subtrees_topdown():
        data = str(node.data)
        if data.startswith("bare_"):
            fields["number"] = "plur" if "_plur" in data else "sing"
        elif data in ("each", "this"):
            fields["quantifier"] = data
        elif data == "chosen":  # «выбранное», or «атакованное»: the attack's final target (glossary)
            fields["quantifier"] = "attacked" if _value(node, "chosen") == "attacked" else "chosen"
        elif data in ("other", "own", "opponent", "different", "chosen_class"):
            fields[data] = True
        elif data == "state":
            states.append(_value(node, "state"))
        elif data == "kind":
            fields["kind"] = _value(node, "kind")
        elif data == "class_word":
            fields["kind"] = "class"
            fields["class_word"] = " ".join(t.source.text for t in _tokens(node))  # «стражей леса»
        elif data == "cost":
            fields["cost"] = next(t.source.value for t in _tokens(node) if t.source.kind == "number")
        elif data in ("strike_at_most", "strike_at_least"):
            number = next(t.source.value for t in _tokens(node) if t.source.kind == "number")
            fields["strike"] = ("strike<=" if data == "strike_at_most" else "strike>=") + str(number)
        elif data == "named":
            quote = next(t.source for t in _tokens(node) if t.source.kind == "quote")
            if not quote.inner:
                raise ReadError("пустое название в кавычках: «с именем «…»» называет карту", quote.start)
            fields["name"] = quote.inner
        elif data == "ref":
            fields["ref"] = True
        elif data == "own_name":  # the card's own name, a trigger's subject: this card (I-76)
            fields["quantifier"], fields["kind"] = "this", "card"
        elif data == "count":
            token = _first(node)
            fields["count"] = token.value if token.kind == "number" else int(_value(node, "numeral"))
            fields["number"] = "plur"
        elif data == "up_to":
            amount = next(n for n in node.iter_subtrees() if n.data == "up_to_amount")
            token = _first(amount)
            fields["count"] = token.value if token.kind == "number" else int(_value(amount, "numeral"))
            fields["up_to"] = True
    return NounGroup(**fields, states=tuple(states))


def _value(node: Tree[Any], category: str) -> str:
    """The lexicon's value of the first word of a node in a category."""
    from berserk_engine.language.morphology import analyses

    word = _first(node)
    values = {a.value for a in analyses(word.text) if a.category == category}
    if len(values) != 1:
        raise ReadError(f"слово «{word.text}» значит несколько разных вещей: {sorted(values)}", word.start)
    return values.pop()


def _source(node: Tree[Any], category: str) -> str:
    """What the first word of a node in a category rests on (its glossary term or rule, no prefix)."""
    from berserk_engine.language.morphology import analyses

    found = {a.source for a in analyses(_first(node).text) if a.category == category}
    return found.pop().split(":", 1)[1] if len(found) == 1 else ""


def unambiguous(tree: Tree[Any]) -> Iterator[Tree[Any]]:
    """Every unambiguous tree of a forest with ``_ambig`` nodes."""
    if tree.data == "_ambig":
        for child in tree.children:
            yield from unambiguous(child)  # type: ignore[arg-type]
        return
    options = [list(unambiguous(c)) if isinstance(c, Tree) else [c] for c in tree.children]
    for children in itertools.product(*options):
        yield Tree(tree.data, list(children), tree.meta if tree._meta is not None else None)


def selector(group: NounGroup, words: str) -> Selector:
    """The engine's selector for a noun group (``words``: the text it was read from). Raises
    :class:`ReadError` for a group the engine has no selector for."""
    if group.ref:
        return Selector("ref", words, TYPES["creature"])
    if group.own and group.opponent:
        raise ReadError(f"«{words}»: карта не может быть и вашей, и противника", group.start)
    narrowing = len(group.states) + (group.cost is not None) + bool(group.name) + bool(group.strike)
    if narrowing > 1:
        raise ReadError(f"«{words}»: движок знает цель только с одним условием", group.start)
    if group.number == "plur" and group.quantifier in ("chosen", "this") and group.count == 1:
        raise ReadError(
            f"«{words}»: «выбранные», «эти» без числа — не сказано, сколько целей («двух выбранных существ»)",
            group.start,
        )
    if group.kind == "class" and not (group.own or group.quantifier == "each" or group.up_to):
        raise ReadError(
            f"«{words}»: класс называется с «ваш», «все» или «до N» («вашего гнома», «всех эльфов»)",
            group.start,
        )
    if group.up_to and not (
        2 <= group.count <= MAX_UP_TO and group.kind in ("creature", "character", "class")
    ):
        raise ReadError(
            f"«{words}»: «до N» — от 2 до {MAX_UP_TO} существ или персонажей (толкование I-67)", group.start
        )
    types = TYPES[group.kind]
    side = "own" if group.own else "enemy" if group.opponent else "any"
    condition = group.states[0] if group.states else ""
    if group.cost is not None:
        condition = f"cost<={group.cost}"
    elif group.strike:
        condition = group.strike
    elif group.name:
        condition = f"name:{group.name}"
    classes: tuple[str, ...] = ()
    if group.chosen_class:
        classes = (CHOSEN_CLASS,)
    elif group.kind == "class":
        classes = (class_lemma(group.class_word),)
    plain = not (
        group.other or group.states or classes or group.cost is not None or group.name or group.strike
    )
    if group.quantifier == "this":
        return Selector("self", words, types)
    if group.quantifier == "attacked":  # bound to the attack of the trigger condition (grammar._finish)
        if group.count > 1 or group.up_to or group.number == "plur":
            raise ReadError(f"«{words}»: атакованная карта у атаки одна", group.start)
        return Selector("attacked", words, types, side, group.other, classes=classes, condition=condition)
    if group.kind == "hero" and group.number == "sing" and not group.quantifier and plain and side != "any":
        return Selector("own_hero" if side == "own" else "enemy_hero", words, types)
    if group.count > 1 or group.up_to:
        return Selector(
            "chosen",
            words,
            types,
            side,
            group.other,
            classes=classes,
            condition=condition,
            count=group.count,
            up_to=group.up_to,
        )
    each = group.quantifier == "each" or (group.number == "plur" and group.quantifier != "chosen")
    return Selector(
        "each" if each else "chosen", words, types, side, group.other, classes=classes, condition=condition
    )


CASE_OF_START = {"accs": "target_accs", "nomn": "target_nomn", "gent": "target_gent", "datv": "target_datv"}

# --- trigger conditions «Когда [группа] [что случилось]» -------------------------------------------------

# what happened → the kind of trigger condition (berserk_engine.trigger_kinds) when it happens to the card
# itself («это существо», «эта карта») and when it happens to any creature of a group
SELF_EVENTS = {
    "enters": "enters_play",
    "dies": "dies",
    "kills": "kills",
    "attacked": "attacked",
    "opens": "opens",
    "closes": "closes",
    "returns": "returns_to_hand",
}
CREATURE_EVENTS = {
    "enters": "creature_enters",
    "dies": "creature_dies",
    "kills": "creature_kills",
    "attacked": "creature_attacked",
    "opens": "creature_opens",
    "closes": "creature_closes",
}


@dataclass(frozen=True, slots=True)
class Condition:
    """A trigger condition as read: what happened (``event``: "enters" | "dies" | "kills" | "attacked" |
    "opens" | "closes" | "returns"), to whom (``subject``) and to whom it was done (``object``, «убивает
    существо»). «Каждый раз, когда …» is the same condition as «Когда …» (401.4)."""

    event: str
    subject: NounGroup
    object: NounGroup | None = None


def trigger_of(condition: Condition, words: str) -> Trigger:
    """The engine's trigger for a condition. Raises :class:`ReadError` for one the engine has no kind
    for (a class, a state, a plural subject …)."""
    subject = condition.subject
    obj = condition.object
    if obj is not None and selector(obj, "") != Selector("chosen", "", TYPES["creature"]):
        raise ReadError(f"«{words}»: движок знает только «… убивает существо»", obj.start)
    if subject.quantifier == "this" and subject.kind in ("creature", "card") and not subject.other:
        return Trigger(SELF_EVENTS[condition.event])
    plain = not (subject.quantifier or subject.states or subject.class_word or subject.cost is not None)
    if condition.event in CREATURE_EVENTS and subject.kind == "creature" and plain and not subject.name:
        side = "own" if subject.own else "enemy" if subject.opponent else "any"
        return Trigger(CREATURE_EVENTS[condition.event], player=side, other=subject.other)
    raise ReadError(f"«{words}»: такого условия срабатывания движок не знает", subject.start)


def same_condition(text: str) -> str:
    """«Каждый раз, когда …» is the condition «когда …» (401.4: a triggered ability triggers every time
    its condition is met): the words from «когда» on; any other words as they are. The one place both
    readers learn it (the registry holds no «Каждый раз, когда …» copies)."""
    tokens = tokenize(text)
    if len(tokens) > 4 and _every_time(tokens[:4]):
        return text[tokens[3].start :]
    return text


def _every_time(tokens: tuple[Token, ...]) -> bool:
    from berserk_engine.language.morphology import analyses

    each, times, comma, when = tokens
    return (
        any(a.terminal == "EACH__ACCS_SING_MASC_INAN" for a in analyses(each.text))
        and any(a.category == "times" for a in analyses(times.text))
        and comma.text == ","
        and any(a.category == "when" for a in analyses(when.text))
    )


def read_trigger(text: str, classes: Iterable[str] = ()) -> Trigger:
    """Words of a trigger condition («Когда другое ваше существо вступает в игру», «Каждый раз, когда …»)
    as the engine's :class:`~berserk_engine.abilities.Trigger`. Raises :class:`ReadError`."""
    text = same_condition(text)
    tokens, analyses = _analyzed(text, classes)
    try:
        forest = g.parse(g.words(tokens, analyses), "trigger")
    except g.NoParse as exc:
        position = exc.token.start if exc.token else len(text)
        raise ReadError(_no_parse_message(text, tokens, exc, "условии срабатывания"), position) from None
    found: set[Trigger] = set()
    for number, tree in enumerate(unambiguous(forest)):
        if number >= MAX_READINGS:
            raise ReadError(f"«{text}»: больше {MAX_READINGS} разборов — текст слишком неоднозначен")
        found.add(trigger_of(_condition(tree), text))
    if len(found) > 1:
        raise ReadError(f"«{text}» читается по-разному: " + "; ".join(sorted(t.event for t in found)))
    return found.pop()


def _condition(tree: Tree[Any]) -> Condition:
    if all(isinstance(c, Tree) for c in tree.children):  # «Найм», «В начале хода»: no «когда», no subject
        raise ReadError(f"условие без подлежащего: «{_first(tree).text} …»")
    event = next(t for t in tree.children if isinstance(t, Tree))
    groups = [c for c in event.children if isinstance(c, Tree)]
    if not groups:  # «Когда вы берёте карту»: a condition of its own (the sentence layer compiles it)
        raise ReadError(f"условие без подлежащего — группы карт: «{_first(tree).text} …»")
    subject = _build(groups[0], "nomn")
    obj = _build(groups[1], "accs") if len(groups) > 1 else None
    return Condition(str(event.data), subject, obj)


def read_target(text: str, case: str, classes: Iterable[str] = ()) -> Selector:
    """Words as the target of a slot in a case ("accs" | "nomn" | "gent" | "datv"): the selector they
    mean. ``classes``: class words the card list in play declares. Raises :class:`ReadError`."""
    groups = read_groups(text, case, classes)
    words = _words(text)
    found: dict[Selector, NounGroup] = {}
    for group in groups:
        found.setdefault(selector(group, words), group)
    if len(found) > 1:
        raise ReadError(f"«{text}» читается по-разному: " + "; ".join(_describe(s) for s in found))
    return next(iter(found))


def _analyzed(text: str, classes: Iterable[str]) -> tuple[tuple[Token, ...], list[Any]]:
    try:
        tokens = tokenize(text)
        analyses = analyze(tokens, classes)
    except TextError as exc:
        raise ReadError(exc.message, exc.position) from None
    except UnknownWord as exc:
        raise ReadError(exc.message, exc.token.start, exc.nearest, unknown=True) from None
    if not tokens:
        raise ReadError("пустой текст")
    return tokens, analyses


def read_groups(text: str, case: str, classes: Iterable[str] = ()) -> list[NounGroup]:
    """Every reading of the words as a noun group in a case (deduplicated). Raises :class:`ReadError`."""
    tokens, analyses = _analyzed(text, classes)
    try:
        forest = g.parse(g.words(tokens, analyses), CASE_OF_START[case])
    except g.NoParse as exc:
        raise ReadError(
            _no_parse_message(text, tokens, exc), exc.token.start if exc.token else len(text)
        ) from None
    groups: list[NounGroup] = []
    for number, tree in enumerate(unambiguous(forest)):
        if number >= MAX_READINGS:
            raise ReadError(f"«{text}»: больше {MAX_READINGS} разборов — текст слишком неоднозначен")
        group = _build(tree, case)
        if group not in groups:
            groups.append(group)
    return groups


def _words(text: str) -> str:
    """The words a selector keeps: the text in lower case, numbers in digits
    (:func:`~berserk_engine.language.morphology.canonical`), a card's name in quotes and an icon as
    written."""
    from berserk_engine.language.morphology import canonical

    text = canonical(text)
    out, at = [], 0
    for token in tokenize(text):
        if token.kind == "quote":
            out.append(text[at : token.start].lower() + "\u00ab" + token.inner + "\u00bb")
            at = token.end
        elif token.kind == "icon":  # «стоимостью 2 [Монета] или менее»
            out.append(text[at : token.start].lower() + token.text)
            at = token.end
    return ("".join(out) + text[at:].lower()).strip()


def _no_parse_message(text: str, tokens: tuple[Token, ...], exc: g.NoParse, what: str = "цели") -> str:
    """Why words do not fit the grammar, for a ``what`` («цели», «условии срабатывания»)."""
    from berserk_engine.language.diagnosis import detail_message

    if exc.token is None:
        return f"неполный текст в {what} «{text}»: {detail_message(text, tokens, exc)}"
    return f"в {what} «{text}» {detail_message(text, tokens, exc)}"


def _describe(sel: Selector) -> str:
    return ", ".join(f"{k}={v}" for k, v in vars_of(replace(sel, words="")).items() if v)


def vars_of(sel: Selector) -> dict[str, Any]:
    return {f: getattr(sel, f) for f in sel.__dataclass_fields__}


# --- a target in a clause (compiled by the sentence layer, language/abilities.py) ---------------------


def _target(tree: Tree[Any], text: str) -> Selector:
    toks = _tokens(tree)
    words = _words(text[toks[0].source.start : toks[-1].source.end])
    if tree.data == "own_name" or any(n.data == "own_name" for n in tree.iter_subtrees()):
        if not toks[0].source.inner:
            raise ReadError("пустое название в кавычках", toks[0].source.start)
        return Selector("self", text[toks[0].source.start : toks[-1].source.end], CARD_TYPES)
    return selector(_build(tree, "accs"), words)
