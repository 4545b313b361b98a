"""The dictionary side of the site's search (issue 26, item 5): which verb each stem of the entry index
is a form of, and pymorphy3's paradigms of those verbs, so that the browser finds the infinitive of a
form the rules never print («погибли», «спасовал», «вошёл»). Written into ``berserk-entries.js`` with
the entry index (:func:`berserk_rules.site.search.entry_index`); read by ``berserk.js``
(``infinitivesOf``, ``actionsOf``).
"""

from __future__ import annotations

import logging
import re
from collections.abc import Callable, Iterable
from typing import Any

WORD_RE = re.compile(r"[^\W\d_]+", re.UNICODE)  # as the search's words (berserk_rules.site.search)

VERB_FORMS = frozenset({"INFN", "VERB", "PRTF", "PRTS", "GRND"})  # pymorphy3's parts of speech of a verb


def folded(word: str) -> str:
    """Lower case, «ё» as «е»: as the browser folds a query."""
    return word.lower().replace("ё", "е")


def lemma_data(
    texts: Iterable[str],
    vocabulary: set[str],
    partners: dict[str, str] | None,
    stem: Callable[[str], str],
    root: Callable[[str], str],
) -> tuple[dict[str, list[str]], dict[str, Any]]:
    """The dictionary side of the search (pymorphy3, once per build of the entry index):

    ``lemmas`` — each stem of the index that comes from a verb form (finite, past, infinitive,
    participle, gerund) → the infinitives it is a form of («погиб», «погибает», «погибшее» →
    погибнуть), and the stems of one noun whose roots differ (конец, конца → конец);

    ``forms`` — how the browser finds the infinitive of a form the rules never print («погибли»,
    «спасовал», «вошёл»): the paradigms (suffix lists) of the verbs of the corpus, and each verb's
    stem with its infinitive and paradigm — ``{"p": ["suffix,suffix,…", …], "s": {stem: [[the
    infinitive's suffix, paradigm], …]}}`` (:func:`compact_paradigm`). A form is stem + suffix: the
    browser tries each split of a query word. This
    is pymorphy3's own dictionary layout, limited to the verbs of the corpus, their reflexive (or
    plain) pairs and ``partners`` (the pairs of ``docs/search-words.toml``), so no form is generated
    here: about 50 КБ and 0.1 s, not the 4 s that listing every form cost.

    ``stem`` and ``root`` are the search's (:func:`berserk_rules.site.search.stem`, ``root``): the
    index's stems are theirs. Without pymorphy3 (an install without it): none of either."""
    try:
        import pymorphy3
    except ImportError:
        return {}, {"p": [], "s": {}}
    # pymorphy3 announces its dictionaries at INFO, and a Sphinx build shows INFO: not the reader's business
    logging.getLogger("pymorphy3").setLevel(logging.WARNING)
    morph = pymorphy3.MorphAnalyzer()
    dictionary = morph.dictionary
    paradigms: dict[tuple[str, ...], int] = {}
    paradigm_of: dict[int, int] = {}  # pymorphy3's paradigm id -> index in "p"
    verb_stems: dict[str, set[tuple[str, int]]] = {}

    def verb_lemmas(word: str) -> set[str]:
        found: set[str] = set()
        for parse in morph.parse(word):
            if not parse.is_known or parse.tag.POS not in VERB_FORMS:
                continue
            unit = parse.methods_stack[0]
            if len(unit) < 4:
                continue
            para_id, index = unit[2], unit[3]
            info = dictionary.build_paradigm_info(para_id)
            prefix, _, suffix = info[index]
            if prefix or info[0][0] or "INFN" not in info[0][1]:
                continue  # verbs have no paradigm prefixes; a paradigm without an infinitive is no verb's
            stem_ = folded(unit[1])[: len(unit[1]) - len(suffix)]
            lemma = folded(stem_ + info[0][2])
            if para_id not in paradigm_of:
                suffixes = tuple(sorted({folded(s) for p, _, s in info if not p}))
                paradigm_of[para_id] = paradigms.setdefault(suffixes, len(paradigms))
            verb_stems.setdefault(stem_, set()).add((lemma, paradigm_of[para_id]))
            found.add(lemma)
        return found

    lemmas: dict[str, set[str]] = {}
    by_noun: dict[str, set[str]] = {}
    for word in sorted({folded(w) for text in texts for w in WORD_RE.findall(text)}):
        found = stem(word)
        if found not in vocabulary:
            continue
        verbs = verb_lemmas(word)
        if verbs:
            lemmas.setdefault(found, set()).update(verbs)
            continue
        parse = morph.parse(word)[0]
        if parse.is_known:
            by_noun.setdefault(folded(parse.normal_form), set()).add(found)
    for lemma, group in sorted(by_noun.items()):
        if len({root(s) for s in group}) > 1:  # the rest match by root already
            for s in group:
                lemmas.setdefault(s, set()).add(lemma)
    # the other verb of an aspect pair, and the reflexive verb of each (возродить — возродиться): its
    # forms too, although the rules never use it
    verbs = {lemma for pair in verb_stems.values() for lemma, _ in pair} | set(partners or {})
    for word in sorted(verbs):
        verb_lemmas(word)
        verb_lemmas(word[:-2] if word.endswith(("ся", "сь")) else word + "ся")
    forms = {
        "p": [compact_paradigm(suffixes) for suffixes in paradigms],
        "s": {
            s: sorted([lemma[len(s) :], paradigm] for lemma, paradigm in pairs)
            for s, pairs in sorted(verb_stems.items())
        },
    }
    return {s: sorted(found) for s, found in sorted(lemmas.items())}, forms


# A participle declines as an adjective: its forms in a paradigm are written once, as the
# participle's stem and a mark — «вш*» for вшая, вшего, вшее … (the soft declension), «енн+» for
# енная, енного … (the hard one). berserk.js (``infinitivesOf``) has the same two lists.
DECLENSIONS = {
    "*": ("ая", "его", "ее", "ей", "ем", "ему", "ею", "ие", "ий", "им", "ими", "их", "ую"),
    "+": ("ая", "ого", "ое", "ой", "ом", "ому", "ою", "ые", "ый", "ым", "ыми", "ых", "ую"),
}


def compact_paradigm(suffixes: Iterable[str]) -> str:
    """A paradigm's suffixes as one string for the browser: separated by «,», each full declension
    of a participle written as its stem and the declension's mark (:data:`DECLENSIONS`); 47 КБ for
    the verbs of the corpus instead of 83."""
    left = set(suffixes)
    marked: list[str] = []
    for mark, endings in DECLENSIONS.items():
        bases = {s[: len(s) - len(e)] for s in left for e in endings if s.endswith(e)}
        for base in sorted(bases):
            declined = {base + e for e in endings}
            if declined <= left:
                left -= declined
                marked.append(base + mark)
    return ",".join(sorted(left) + marked)
