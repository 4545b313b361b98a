"""The site's catalogue of the card language (issue 25): every construction of the reader's grammar
(``engine/berserk_engine/language/syntax/*.lark``: an alternative with a name of its own, ``-> wound``),
every connector between the parts of an effect and every keyword of the vocabulary
(``language/lexicon/*.toml``), each with its forms in words (in the forms the grammar's agreement
asks for), the engine's canonical words and the glossary term, rule or interpretation it rests on.

Generated when the site is built, from whatever grammar and vocabulary are there — never written by
hand, so the page follows the grammar. :mod:`berserk_rules.reference.card_examples` gives each an
example from the project's card texts; :func:`~berserk_rules.reference.card_examples.catalogue` is the
data (tested without Sphinx), the site's directive ``{berserk-card-language}``
(:mod:`berserk_rules.site.card_language`) renders it.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from functools import cache
from typing import Any

# The parts of the language, in the order a card's sentence is read: (key, title, what it is, the
# grammar's rules whose named alternatives belong here — a rule's name or the prefix of the rules
# written once per agreement key: «det_» is det_accs_plur_anim …)
SECTIONS: tuple[tuple[str, str, str, tuple[str, ...]], ...] = (
    (
        "ability",
        "Способность целиком",
        "Из чего состоит предложение: условие срабатывания или оплата, двоеточие (или запятая после "
        "условия), эффект; эффект заклинания; ограничение «(Один раз за ход.)» после способности.",
        ("ability", "trigger_head"),
    ),
    ("keyword", "Ключевые слова", "Предложение, которое целиком — ключевое слово.", ("keyword",)),
    (
        "trigger",
        "Условия срабатывания",
        "Слова до двоеточия (или запятой) срабатывающей способности: «Когда [подлежащее] [сказуемое]» "
        "(подлежащее согласовано со сказуемым в числе) и условия без подлежащего.",
        ("event", "subjectless", "whose_turn", "happening"),
    ),
    ("payment", "Оплата", "Части оплаты активируемой способности, через запятую.", ("cost_item", "per_turn")),
    (
        "effect",
        "Эффекты",
        "Глагол эффекта и его рамка: инфинитив и повелительное наклонение — одно и то же.",
        ("clause", "printed_deed"),
    ),
    (
        "effects",
        "Части эффекта и связки",
        "Как соединяются части одного эффекта; «вы можете» перед частью делает её необязательной.",
        ("effects", "part", "connector"),
    ),
    (
        "condition",
        "Условия «если» и «пока»",
        "Условие состояния игры; после «; если» — проверка того, к чему относится «оно», «это».",
        ("condition", "card_test"),
    ),
    (
        "constant",
        "Постоянные способности",
        "Предложение — постоянная способность.",
        ("constant", "printed_bonus", "group_bonus_numbers", "wound_source"),
    ),
    ("duration", "Сроки", "Сколько длится полученное: «до конца хода», «на 2 ваших хода».", ("duration",)),
    (
        "amount",
        "Числа",
        "Число эффекта («на 2», «на два»), «Х» и то, чем он задан, значение, взятое из игры.",
        ("amount", "x_definition", "printed_x_is", "printed_trait"),
    ),
    (
        "group",
        "Именная группа (цель, подлежащее)",
        "Слова, которые называют карты: определитель, признаки, существительное или класс, то, что "
        "следует за ним; ссылка «его», «оно» на названное раньше; число целей.",
        (
            "det_",
            "mod_",
            "head_",
            "paucal",
            "tail",
            "target_",
            "actor_",
            "group_",
            "found",
            "grave_what",
            "wanted_head",
        ),
    ),
    (
        "other",
        "Прочие конструкции",
        "Конструкции грамматики, место которых в предложении этот каталог ещё не называет.",
        (),
    ),
)

# What an alternative's own symbols are called in its form: punctuation and the tokens that are no word
PUNCTUATION = {
    "DOT": ".",
    "COMMA": ",",
    "COLON": ":",
    "SEMICOLON": ";",
    "LPAR": "(",
    "RPAR": ")",
    "DASH": "–",
    "NUMBER": "N",
    "SIGNED": "+N",
    "QUOTE": "«Название»",
}
# Rules that stand for a part of the sentence, by what they are called in a form
PART_WORDS = {
    "effects": "[эффект]",
    "clause": "[эффект]",
    "part": "[эффект]",
    "trigger": "[условие срабатывания]",
    "trigger_head": "[условие срабатывания]",
    "trigger_end": ":",
    "payment": "[оплата]",
    "condition": "[условие]",
    "amount": "[число]",
    "turn_count": "[число]",
    "amount_of_cards": "[число]",
    "up_to_amount": "[число]",
    "times_count": "[число]",
    "duration": "[срок]",
    "keyword": "[ключевое слово]",
    "keyword_word": "[ключевое слово]",
    "card_name": "«Название»",
    "limit_after": "([N раз за ход])",
    "per_turn": "[N раз за ход]",
    "connector": "[связка]",
    "optional": "вы можете",
    "printed_deed": "[действие противника]",
    "printed_bonus": "[прибавка]",
    "printed_your_hand": "у вас в руке",
    "edge": "начале (конце)",
    "whose_turn": "[чьего] хода",
    "cards": "карт",
}
PART_PREFIXES = {
    "target_": "[цель]",
    "group_": "[цель]",
    "counted_": "[цель]",
    "subject_": "[подлежащее]",
    "actor_": "[подлежащее]",
    "bare_": "[существительное]",
    "det_": "[определитель]",
    "mod_": "[признак]",
    "head_": "[существительное или класс]",
    "paucal_mod": "[признак]",
    "paucal": "[существительное]",
}
# What a construction that names no word of its own rests on (the sentence's frame): the glossary term
STRUCTURE = {
    "triggered": "term:срабатывающая-способность",
    "activated": "term:активируемая-способность",
    "spell": "term:заклинание",
    "limited_trigger": "term:один-х-раз-за-ход",
    "may": "interpretation:I-55",
    "named_keyword": "term:способность",
    "ref": "term:выбранное-существо-карта",
    "own_name": "term:название-карты",
    "count": "interpretation:I-67",
    "printed_thereby": "interpretation:I-85",
    "turn_trigger": "term:в-начале-хода",
    "printed_while_bonus": "interpretation:I-81",
    "strike_value": "term:значение-удара",
    "class_word": "interpretation:I-69",
    "printed_bare_trigger": "interpretation:I-89",
    "found_class": "term:поиск-карта-карты",
}


@dataclass(frozen=True)
class Example:
    sentence: str  # the sentence, as written on the card
    card: str
    where: str  # «path[:line]» from the project's root


@dataclass
class Construction:
    section: str
    name: str  # the grammar's name of the construction (its alias), the keyword's term, or «связка N»
    forms: tuple[str, ...]  # its alternatives in words
    canonical: str  # the engine's canonical words ("" when the construction has none of its own)
    basis: tuple[str, ...]  # "term:…", "rule:…", "interpretation:…"; () when nothing in the data names one
    example: Example | None = None
    # each alternative's runs of terminals (symbols side by side in it): a sentence in which the runs
    # of no alternative stand side by side cannot hold the construction
    needs: tuple[tuple[tuple[frozenset[str], ...], ...], ...] = field(default=(), repr=False)
    sequence: tuple[str, ...] = field(default=(), repr=False)  # a connector's terminals, in order
    mark: str = field(default="", repr=False)  # a keyword's value: a sentence with its word may hold it


# --- the constructions, from the grammar and the vocabulary ----------------------------------------------


def _section_of(origin: str) -> str | None:
    for key, _title, _what, rules in SECTIONS:
        if any(
            origin == r or (r.endswith("_") and origin.startswith(r)) or origin.startswith(r + "_")
            for r in rules
        ):
            return key
    return None


def _words_of_category(lexicon: Any) -> dict[str, list[Any]]:
    found: dict[str, list[Any]] = {}
    for entry in lexicon.entries:
        found.setdefault(entry.category.upper(), []).append(entry)
    return found


def _word(entry: Any) -> str:
    return str(entry.form or entry.lemma or entry.like)


GENDERS = {"masc", "femn", "neut"}
GRAMMEMES = {"nomn", "gent", "datv", "accs", "ablt", "loct", "sing", "plur", *GENDERS, "anim", "inan"}


def _inflected(entries: list[Any], key: str, finite: bool) -> str:
    """The word of a terminal in the form its agreement key names («GAME__ACCS_SING_FEMN» → «игру»,
    «ENTERS__SING» → «вступает», «CLOSE__PLUR» → «закройте»): the vocabulary's first word of the
    category that has that form (pymorphy3 inflects its dictionary form); a written form as it is.
    ``finite``: the grammar has no infinitive of the verb — an indicative («погибает», «стоят»); else the
    verb is an effect's, and its plural an imperative («закройте»)."""
    from berserk_engine.language.morphology import _morph

    wanted = {part for part in key.lower().split("_") if part}
    for entry in entries:
        if entry.form or not entry.lemma:
            continue
        for parse in _morph().parse(entry.lemma):
            pos = str(parse.tag.POS)
            verb = wanted <= {"sing", "plur"} or entry.pos == "PRTF"
            if parse.normal_form != entry.lemma or verb != (pos == "INFN"):
                continue
            if entry.pos == "PRTF":
                options = [(wanted & GRAMMEMES) | {"PRTF", "pssv", "past"}]
            elif pos == "INFN":  # a finite verb: the indicative of a trigger, the imperative of an effect
                if finite:
                    options = [{*wanted, "3per", "pres"}, {*wanted, "3per", "futr"}]
                else:
                    options = [{*wanted, "impr", "excl"}]
            elif pos == "NOUN":
                if wanted & GENDERS and not wanted & GENDERS & set(parse.tag.grammemes):
                    break  # «существо» is no feminine noun: the next word of the category
                options = [wanted & GRAMMEMES - GENDERS - {"anim", "inan"}]
            else:
                options = [wanted & GRAMMEMES]
            for grammemes in options:
                form = parse.inflect(grammemes)
                if form is not None:
                    return str(form.word)
    return _word(entries[0])


@cache
def _terminals() -> frozenset[str]:
    """Every terminal the grammar uses."""
    from berserk_engine.language import grammar as g

    return frozenset(s.name for r in g.grammar().parser.rules for s in r.expansion if s.is_term)


def _symbol_words(name: str, rules: dict[str, list[Any]], words: dict[str, list[Any]], depth: int = 0) -> str:
    """One symbol of an alternative in words: a terminal as its word (the dictionary form of the
    vocabulary's first word of that category), a rule as the part it stands for."""
    if name in PUNCTUATION:
        return PUNCTUATION[name]
    if name.isupper():
        category, _, key = name.partition("__")
        if category == "CLASS":
            return "[класс]"
        if category in words:
            finite = category not in _terminals()  # a verb the grammar also has as an infinitive: an effect
            return _inflected(words[category], key, finite) if key else _word(words[category][0])
        return {"ICON_CLOSE": "[Закрыть]", "ICON_COIN": "[Монета]"}.get(category, category.lower())
    if name in PART_WORDS:
        return PART_WORDS[name]
    if name.startswith("__"):  # a repetition lark made of «tail*»
        return "[…]"
    for prefix, said in PART_PREFIXES.items():
        if name.startswith(prefix):
            return said
    alternatives = rules.get(name, [])
    if depth < 2 and alternatives and all(len(r.expansion) == 1 for r in alternatives):
        # «wound_v» → «ранить»
        return _symbol_words(alternatives[0].expansion[0].name, rules, words, depth + 1)
    return f"[{name}]"


def _flat(expansion: Iterable[Any], rules: dict[str, list[Any]]) -> list[Any]:
    """The alternative's symbols, a rule that is one word in several forms replaced by that word."""
    out = []
    for symbol in expansion:
        alternatives = rules.get(symbol.name, [])
        if (
            not symbol.is_term
            and alternatives
            and all(len(r.expansion) == 1 and r.expansion[0].is_term for r in alternatives)
        ):
            out.append(alternatives[0].expansion[0])
        else:
            out.append(symbol)
    return out


def _basis_of_terminals(
    expansion: Iterable[Any], words: dict[str, list[Any]], uses: dict[str, int]
) -> tuple[str, ...]:
    """What the alternative's words rest on: the source of its most specific word; when no word has
    one source of its own, the sources of a word of several meanings («ваш», «свой»; the states), all
    of them. An interpretation comes first (the most specific), then a term or rule; among them the
    word fewest constructions use, a content word before a closed-class one. A rule that is one word
    in several forms («wound_v»: «ранить», «раньте») is that word."""
    found: list[tuple[bool, int, bool, int, str]] = []
    several: list[str] = []
    for position, symbol in enumerate(expansion):
        if not symbol.name.isupper():
            continue
        category = symbol.name.split("__", 1)[0]
        entries = words.get(category, [])
        sources = list(dict.fromkeys(e.source for e in entries))
        if len(sources) == 1:
            function = bool(entries[0].form)  # a closed-class word, by its written form: «на», «при», «у»
            interpretation = sources[0].startswith("interpretation:")
            found.append((not interpretation, uses.get(category, 0), function, position, sources[0]))
        elif sources and not several:
            several = sources
    if found:
        return (min(found)[-1],)
    return tuple(several)


def constructions() -> list[Construction]:
    """Every construction of the grammar, the connectors and the keywords, without examples yet."""
    from berserk_engine.language import grammar as g
    from berserk_engine.language.abilities import _aliases, _frames_file, frames
    from berserk_engine.language.lexicon import lexicon

    parser = g.grammar().parser
    rules: dict[str, list[Any]] = {}
    for rule in parser.rules:
        rules.setdefault(str(rule.origin.name), []).append(rule)
    words = _words_of_category(lexicon())
    data = _frames_file()
    triggers = {raw["alias"]: raw for raw in data.get("trigger", [])}
    keyword_terms = {  # an entry is the term itself or a table with it (``{ term = …, value = … }``)
        alias: raw["term"] if isinstance(raw, dict) else raw
        for alias, raw in data.get("keywords", {}).items()
    }
    framed = frames()
    stated = stated_bases(g.source())
    anchored = anchors(rules)
    named = _aliases()
    by_alias: dict[str, list[Any]] = {}
    for rule in parser.rules:
        if rule.alias and str(rule.alias) in named:
            by_alias.setdefault(str(rule.alias), []).append(rule)
    for alias in framed:  # a frame named after a whole rule («per_turn»: «Один раз за ход»)
        if alias not in by_alias and alias in rules:
            by_alias[alias] = rules[alias]
    order = [key for key, *_ in SECTIONS]
    uses: dict[str, int] = {}
    for alternatives in by_alias.values():
        for category in {s.name.split("__", 1)[0] for r in alternatives for s in r.expansion if s.is_term}:
            uses[category] = uses.get(category, 0) + 1
    out: list[Construction] = []
    for alias, alternatives in by_alias.items():
        sections = {_section_of(str(r.origin.name)) for r in alternatives}
        section = min((s for s in sections if s is not None), key=order.index, default="other")
        forms = tuple(
            dict.fromkeys(
                " ".join(_symbol_words(s.name, rules, words) for s in r.expansion).replace(" ,", ",")
                for r in _by_shape(alternatives)
            )
        )
        frame = framed.get(alias)
        canonical = (
            frame.phrase.format if frame is not None else str(triggers.get(alias, {}).get("canonical", ""))
        )
        basis: tuple[str, ...]
        if frame is not None:
            basis = (_source(data, "frame", alias),)
        elif alias in triggers:
            basis = (_source(data, "trigger", alias),)
        elif alias in keyword_terms:
            basis = (f"term:{keyword_terms[alias]}",)
        elif alias in data.get("durations", {}) or alias.endswith("_turns"):
            basis = ("rule:310.2",)
        elif alias in stated:
            basis = stated[alias]
        elif alias in STRUCTURE:
            basis = (STRUCTURE[alias],)
        else:
            basis = next(
                (
                    b
                    for r in alternatives
                    if (b := _basis_of_terminals(_flat(r.expansion, rules), words, uses))
                ),
                (),
            )
        needs = tuple(_runs(r.expansion, rules, anchored) for r in alternatives)
        out.append(Construction(section, alias, forms, canonical, basis, needs=needs))
    _inherit_basis(out, by_alias)
    for number, rule in enumerate(rules.get("connector", []), start=1):
        form = " ".join(_symbol_words(s.name, rules, words) for s in rule.expansion)
        needs = (_runs(rule.expansion, rules, anchored),)
        basis = _basis_of_terminals(_flat(rule.expansion, rules), words, uses) or ("term:эффект",)
        sequence = tuple(s.name for s in rule.expansion)
        joined = f"[эффект]{form} [эффект]" if form[:1] in ",.;:" else f"[эффект] {form} [эффект]"
        out.append(
            Construction("effects", f"связка {number}", (joined,), "", basis, needs=needs, sequence=sequence)
        )
    for entry in lexicon().entries:
        if entry.category == "keyword":
            out.append(
                Construction(
                    "keyword",
                    entry.value,
                    (_word(entry).capitalize(),),
                    "",
                    (entry.source,),
                    mark=entry.value,
                )
            )
    out.sort(key=lambda c: order.index(c.section))
    return out


KEY_ORDER = ("NOMN_SING_MASC", "NOMN_SING_NEUT", "NOMN_SING_FEMN", "NOMN_PLUR", "NOMN", "ACCS", "GENT")


def _key_rank(rule: Any) -> int:
    keys = [s.name.partition("__")[2] for s in rule.expansion if s.is_term and "__" in s.name]
    return min(
        (i for i, k in enumerate(KEY_ORDER) for key in keys if key.startswith(k)), default=len(KEY_ORDER)
    )


def _by_shape(alternatives: list[Any]) -> list[Any]:
    """One alternative per shape (its symbols without their agreement keys and rule suffixes), the one
    whose agreement key comes first (nominative singular): a construction written once per key is
    shown once."""

    def shape(rule: Any) -> tuple[str, ...]:
        return tuple(
            s.name.partition("__")[0]
            if s.is_term
            else re.sub(r"_(nomn|gent|datv|accs|ablt|loct).*", "", s.name)
            for s in rule.expansion
        )

    best: dict[tuple[str, ...], Any] = {}
    for rule in alternatives:
        known = best.get(shape(rule))
        if known is None or _key_rank(rule) < _key_rank(known):
            best[shape(rule)] = rule
    return list(best.values())


def _runs(
    expansion: Iterable[Any], rules: dict[str, list[Any]], anchors: dict[str, frozenset[str]]
) -> tuple[tuple[frozenset[str], ...], ...]:
    """What a sentence must hold for the alternative: its runs of words side by side, each word the
    terminals it may be («payment COLON effects» → (({COLON},),); a rule that is one word in several
    forms is that word: «wound_v» → {WOUND, WOUND__PLUR}), and for each other rule in it a word among
    the rule's anchors (:func:`anchors`), a run of one."""
    runs: list[list[frozenset[str]]] = [[]]
    for symbol in expansion:
        alternatives = rules.get(symbol.name, [])
        if symbol.is_term:
            runs[-1].append(frozenset({symbol.name}))
        elif alternatives and all(len(r.expansion) == 1 and r.expansion[0].is_term for r in alternatives):
            runs[-1].append(frozenset(r.expansion[0].name for r in alternatives))
        else:
            if runs[-1]:
                runs.append([])
            if symbol.name in anchors:
                runs.insert(0, [anchors[symbol.name]])
    return tuple(tuple(run) for run in runs if run)


def anchors(rules: dict[str, list[Any]]) -> dict[str, frozenset[str]]:
    """For each rule that never derives nothing, terminals one of which every derivation of it holds:
    the union, over its alternatives, of the smallest such set of one of the alternative's symbols
    (computed to a fixed point; a rule with an empty alternative, or only through rules without one,
    has none)."""
    found: dict[str, frozenset[str]] = {}
    changed = True
    while changed:
        changed = False
        for name, alternatives in rules.items():
            if name in found:
                continue
            per_alternative = []
            for rule in alternatives:
                known = [
                    frozenset({s.name}) if s.is_term else found[s.name]
                    for s in rule.expansion
                    if s.is_term or s.name in found
                ]
                if not known:
                    break
                per_alternative.append(min(known, key=len))
            else:
                found[name] = frozenset().union(*per_alternative)
                changed = True
    return found


def _origins(by_alias: dict[str, list[Any]]) -> set[str]:
    return {str(r.origin.name) for rules in by_alias.values() for r in rules}


def _inherit_basis(found: list[Construction], by_alias: dict[str, list[Any]]) -> None:
    """A part of a printed construction («printed_bonus_strike» of «Пока …, … имеет +1 к удару») whose
    words name no interpretation rests on the construction that uses it."""
    named = {c.name: c for c in found}
    for c in found:
        if not c.name.startswith("printed_") or any(b.startswith("interpretation:") for b in c.basis):
            continue
        origins = {str(r.origin.name) for r in by_alias[c.name]} & {
            o for o in _origins(by_alias) if o.startswith("printed_")
        }
        users = [
            other
            for alias, rules in by_alias.items()
            for r in rules
            if alias != c.name and any(s.name in origins for s in r.expansion)
            for other in [named[alias]]
            if any(b.startswith("interpretation:") for b in other.basis)
        ]
        if users:
            c.basis = users[0].basis


_BASIS_COMMENT = re.compile(r"//\s*basis:\s*(.+?)\s*$")
_ALIAS = re.compile(r"->\s*(\w+)")


def basis_of_words(text: str) -> tuple[str, ...]:
    """«I-89», «interpretation:I-89», «term:оплата», «rule:401.5», «401.5», «оплата» (a term), several
    joined by commas → the sources."""
    out = []
    for item in (part.strip() for part in text.split(",")):
        if ":" in item and item.split(":", 1)[0] in ("term", "rule", "interpretation"):
            out.append(item)
        elif re.fullmatch(r"I-\d+", item):
            out.append(f"interpretation:{item}")
        elif re.fullmatch(r"\d+(\.\d+)*", item):
            out.append(f"rule:{item}")
        elif item:
            out.append(f"term:{item}")
    return tuple(out)


def stated_bases(written: str) -> dict[str, tuple[str, ...]]:
    """What the written grammar says a construction rests on: a comment ``// basis: I-89`` before
    its alternatives (it holds for every ``-> name`` down to the next blank line or the next such
    comment), or at the end of the alternative's own line. The grammar's authors state it where they
    add the rule; the vocabulary's frames and triggers state theirs in ``frames.toml``."""
    found: dict[str, tuple[str, ...]] = {}
    pending: tuple[str, ...] = ()
    for line in written.splitlines():
        comment = _BASIS_COMMENT.search(line)
        code = line.split("//", 1)[0]
        if comment and not code.strip():
            pending = basis_of_words(comment.group(1))
            continue
        if not line.strip():
            pending = ()
            continue
        here = basis_of_words(comment.group(1)) if comment else pending
        if here:
            for alias in _ALIAS.findall(code):
                found.setdefault(alias, here)
    return found


def _source(data: dict[str, Any], table: str, alias: str) -> str:
    raw = next(r for r in data[table] if r["alias"] == alias)
    return next((f"{k}:{raw[k]}" for k in ("term", "rule", "interpretation") if k in raw), "")
