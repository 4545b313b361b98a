"""Printed constructions of the card language (issue 29), read by ``syntax/constructions.lark`` and
compiled here to the engine's nodes:

* a condition on the hands before or after an effect — «Если у вас в руке больше карт, чем у
  противника, возьмите карту», «Выстрел на 2, если у вас в руке меньше карт, чем у противника» —
  :class:`~berserk_engine.conditions.Provided` (interpretation I-80); the effect's own words are read by
  the effect reader of :mod:`berserk_engine.grammar`, so any effect it reads may be conditioned;
* «Пока [условие], это существо имеет +N к удару» — :class:`~berserk_engine.conditions.WhileBonus`
  (I-81);
* «Не может атаковать» — :class:`~berserk_engine.cannot_attack.CannotAttack` (I-82).

Each reading comes with a :class:`~berserk_engine.grammar.Phrase` that is not registered anywhere: it
only gives the reading its canonical words and its rule for ``cards --show`` (the phrase registry takes
no new phrases). The canonical words read back as the same node (a test holds it).
"""

from __future__ import annotations

from typing import Any

from lark import Tree

from berserk_engine.grammar import EXTENDED
from berserk_engine.language import grammar as g
from berserk_engine.language.tokens import Token


def _phrase(form: tuple[str, str, str], category: str) -> Any:
    """A phrase that only carries a construction's canonical words and what it rests on."""
    from berserk_engine.grammar import Phrase

    words, example, source = form
    return Phrase(category, words, example, build=lambda f: None, parser=None, term=source)


def _parse(text: str, start: str) -> list[Tree[Any]]:
    """Every unambiguous tree of the words as the rule ``start``; [] when they do not fit."""
    from berserk_engine.language.tree import MAX_READINGS, ReadError, _analyzed, unambiguous

    try:
        tokens, found = _analyzed(text, ())
        forest = g.parse(g.words(tokens, found), start)
    except (ReadError, g.NoParse):
        return []
    trees = []
    for number, tree in enumerate(unambiguous(forest)):
        if number >= MAX_READINGS:
            return []
        trees.append(tree)
    return trees


def _hand_test(tree: Tree[Any]) -> Any:
    from berserk_engine.conditions import HandTest

    node = next(t for t in tree.iter_subtrees_topdown() if t.data in ("more", "less", "empty", "not_empty"))
    return HandTest(str(node.data))


def _has_if(text: str) -> bool:
    """Does the text hold the connector of a condition (the lexicon's category ``if``)? A cheap test
    before any parse: most effect clauses hold none."""
    from berserk_engine.language.morphology import analyses
    from berserk_engine.language.tokens import TextError, tokenize

    try:
        tokens = tokenize(text)
    except TextError:
        return False
    return any(t.kind == "word" and any(a.category == "if" for a in analyses(t.text)) for t in tokens)


def _commas(text: str) -> list[Token]:
    from berserk_engine.language.tokens import TextError, tokenize

    try:
        return [t for t in tokenize(text) if t.kind == "punct" and t.text == ","]
    except TextError:
        return []


# --- «если [условие], [эффект]», «[эффект], если [условие]» (I-80) -----------------------------------


def effect_readings(core: str) -> list[tuple[Any, Any, dict[str, Any]]]:
    """An effect with a condition on the hands before or after it, as (phrase, node, named) like the
    effect reader's phrases; [] when the words are no such construction. Different splits with different
    meanings are all returned (the effect reader then reports the ambiguity)."""
    from berserk_engine.conditions import PROVIDED_FORM, Provided

    found: list[tuple[Any, Any, dict[str, Any]]] = []
    if not _has_if(core):
        return found
    for comma in _commas(core):
        head, tail = core[: comma.start].strip(), core[comma.end :].strip()
        for condition, effect in ((head, tail), (tail, head)):
            start = "provided_head" if condition is head else "provided_tail"
            trees = _parse(condition, start) if condition and effect else []
            if not trees:
                continue
            read = _effect(effect)
            if read is None:
                continue
            node, words = read
            for tree in trees:
                test = _hand_test(tree)
                named = {"c": test.words, "then": words}
                built = (_phrase(PROVIDED_FORM, "effect"), Provided(test, node), named)
                if all(b[1] != built[1] for b in found):
                    found.append(built)
    return found


# --- «выстрел на 2 в [цель]», «[эффект] по его выбору» (I-83) ------------------------------------------


def shot_readings(core: str) -> list[tuple[Any, Any, dict[str, Any]]]:
    """«выстрел на 2 в персонажа противника»: the shot (keywords.shot) at the printed target."""
    from berserk_engine.abilities import Amount
    from berserk_engine.keywords.shot import IN_FORM, Shot
    from berserk_engine.language.tree import ReadError, _target

    found: list[tuple[Any, Any, dict[str, Any]]] = []
    for tree in _parse(core, "shot_at"):
        amount = _number(next(t for t in tree.children if isinstance(t, Tree) and t.data == "amount"))
        group = next(t for t in tree.children if isinstance(t, Tree) and t.data != "amount")
        try:
            target = _target(group, core)
        except ReadError:
            continue
        node = Shot(Amount(value=amount, words=str(amount)), target)
        if all(f[1] != node for f in found):
            found.append((_phrase(IN_FORM, "effect"), node, {"n": amount, "t": target.words}))
    return found


def _number(tree: Tree[Any]) -> int:
    from berserk_engine.language.tree import _first, _value

    token = _first(tree)
    return int(token.value if token.kind == "number" else _value(tree, "numeral"))


def their_choice_readings(core: str) -> list[tuple[Any, Any, dict[str, Any]]]:
    """«[эффект] [цель противника] по его выбору»: the opponent picks the target (I-83) — the effect
    must name one chosen target, of the opponent's cards («персонажа противника»)."""
    from berserk_engine.abilities import selectors_of
    from berserk_engine.conditions import Provided
    from berserk_engine.opponent_choice import FORM, opponent_picks

    words = _words_of(core)
    if len(words) < 4 or not _parse(core[words[-3].start :], "their_choice"):
        return []
    effect = core[: words[-3].start].strip()
    found: list[tuple[Any, Any, dict[str, Any]]] = []
    for node, canonical in [(n, _render_one(ph, named)) for ph, n, named in shot_readings(effect)] + [
        r for r in [_effect(effect)] if r is not None
    ]:
        if isinstance(node, Provided):  # «если …, [эффект] по его выбору»: the condition holds the choice
            continue
        chosen = [s for s in selectors_of(node) if s.chosen]
        if len(chosen) != 1 or chosen[0].side != "enemy" or chosen[0].count != 1:
            continue
        built = opponent_picks(node, chosen[0])
        if all(f[1] != built for f in found):
            found.append((_phrase(FORM, "effect"), built, {"effect": canonical}))
    return found


def _words_of(text: str) -> list[Token]:
    from berserk_engine.language.tokens import TextError, tokenize

    try:
        return list(tokenize(text))
    except TextError:
        return []


def _render_one(phrase: Any, named: dict[str, Any]) -> str:
    from berserk_engine.grammar import Reading, render

    return render(Reading("phrase", phrase=phrase, named=named))


def _effect(words: str) -> tuple[Any, str] | None:
    """The effect node the effect reader reads the words as, and its canonical words; None when it does
    not read them."""
    from berserk_engine.grammar import NODES, Reading, _read_parts, render

    try:
        parts = _read_parts(words.rstrip(".").strip())
    except Exception as exc:  # the effect reader's own «reads several ways»: not this construction
        if type(exc).__name__ == "_Unreadable":
            return None
        raise
    if parts is None:
        return None
    node = parts[0][0] if len(parts) == 1 else NODES["sequence"](tuple(p for p, _ in parts))
    return node, render(Reading("effect", parts=tuple(t for _, t in parts)))


# --- constant abilities: «Пока …, …» (I-81), «Не может атаковать» (I-82) ----------------------------


def sentence_readings(body: str, sentence: str) -> list[tuple[Any, Any]]:
    """A whole sentence read as a constant ability of these constructions: (ability, reading) pairs."""
    from berserk_engine.abilities import Ability
    from berserk_engine.cannot_attack import FORM, CannotAttack
    from berserk_engine.conditions import WHILE_FORM, WhileBonus, bonus_words
    from berserk_engine.grammar import Reading

    out: list[tuple[Any, Any]] = []
    for tree in _parse(body, "while_bonus"):
        test = _hand_test(tree)
        strike, life = _bonus(next(t for t in tree.children if isinstance(t, Tree) and t.data in BONUSES))
        named = {"c": test.words, "b": bonus_words(strike, life)}
        reading = Reading("phrase", phrase=_phrase(WHILE_FORM, "static"), named=named)
        ability = Ability("static", sentence, WhileBonus(test, strike, life))
        if all(a.effect != ability.effect for a, _ in out):
            out.append((ability, Reading("sentence", parts=(reading,))))
    if _parse(body, "cannot_attack"):
        reading = Reading("phrase", phrase=_phrase(FORM, "static"), named={})
        out.append((Ability("static", sentence, CannotAttack()), Reading("sentence", parts=(reading,))))
    return out


BONUSES = ("strike", "life", "both", "same")


def _bonus(tree: Tree[Any]) -> tuple[int, int]:
    tokens = tree.scan_values(lambda v: hasattr(v, "source"))
    numbers = [t.source.value for t in tokens if t.source.kind == "signed"]
    if tree.data == "strike":
        return numbers[0], 0
    if tree.data == "life":
        return 0, numbers[0]
    if tree.data == "same":
        return numbers[0], numbers[0]
    return numbers[0], numbers[1]


EXTENDED["effect"].extend((effect_readings, shot_readings, their_choice_readings))
EXTENDED["sentence"].append(sentence_readings)
