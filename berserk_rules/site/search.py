"""Search data and words of the rulebook for the site: Russian stems, links inside verbatim text, the
entry index (``berserk-entries.js``, ``berserk-numbers.js``) and Sphinx's Russian search strings.

Everything here works on the corpus (:mod:`berserk_rules.corpus`) and never changes a character of
the rule text: a linker splits a line into pieces whose concatenation is the line itself, some of
them marked as links to a rule or a glossary term.

* Rule numbers cited in the text («согласно 309.2») link to that rule; a number printed by one
  source in its own numbering (source 001 prints 315.1 for our 310.1) is an *alias*.
* «См. Гибель, Уничтожить.» / «См. также Полностью излечить.» link each named term.
* Glossary terms used in rule text link to their entry, across Russian inflection: words are
  compared by their Snowball stems (the stemmer Sphinx's Russian search uses, on both the Python
  and the JavaScript side), whole words only, the first use of each term per rule.

The same stems feed the site's entry search (``berserk-entries.js``): each rule and term is its own
result, ranked above page hits, so «брони» finds «Броня» as «броня» does. Snowball leaves verb
and participle forms of one word on different stems («пасовать» → пасова, «пасует» → пас;
«закрыть» → закр, «закрытой» → закрыт), so the search also compares *roots* (:func:`root`: the
stem without verbal and participle suffixes, the same function in ``berserk.js``) and, when a word
of the query matches nothing, stems one edit away (:func:`one_edit`).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from itertools import pairwise
from pathlib import Path
from typing import Any

from sphinx.application import Sphinx
from sphinx.search.ru import SearchRussian

from berserk_rules.errors import UserError
from berserk_rules.site.data import (
    EntryStore,
    corpus_root,
    part_docname,
    part_title,
    run_script,
    site_data,
    write_if_changed,
)
from berserk_rules.site.lemmas import lemma_data

WORD_RE = re.compile(r"[^\W\d_]+", re.UNICODE)
NUMBER_RE = re.compile(r"(?<![\d.])\d{3}(?:\.\d+)+(?![\d])|(?<![\d.])\d{3}(?![\d.])")
SEE_RE = re.compile(r"(?<!\w)См\.\s+(?:также\s+)?")
PLACEHOLDER_RE = re.compile(r"\[[^\]]*\]|…|(?<!\w)[XХ](?!\w)|[+–−]")
VERB_LIKE_RE = re.compile(
    r"(?:ет|ёт|ит|ут|ют|ат|ят|ется|ится|утся|ются|атся|ятся|ть|ться)$"
    r"|(?:ющ|ущ|ащ|ящ)(?:ий|ая|ее|ие|его|ей|их|им|ими|ую|ем|ое|ого|ому)$"
)  # finite verbs, infinitives and present participles: «существует» is not the term «Существо»
STOPWORDS = frozenset(
    "в во на не по с со к ко о об от до из за и а но или у же ли бы то".split()
)  # too short to be a term's only word


@lru_cache(maxsize=65536)
def stem(word: str) -> str:
    """The Snowball stem of a Russian word (lower case, ё folded to е), as Sphinx's search computes it."""
    import snowballstemmer

    return _stemmer(snowballstemmer).stemWord(word.lower().replace("ё", "е"))


_STEMMER: list[Any] = []


class SearchRussianOnce(SearchRussian):
    """Sphinx's Russian search language (the same stems), each word stemmed once per build.

    Sphinx remembers the stems of one page at a time (``IndexBuilder.feed``), so the pure-Python
    Snowball stemmer ran for every word of every page again — about 40,000 times in a build of the
    project's site, a tenth of its processor time, in the process that the parallel writers wait on.
    Registered for ``ru`` by :func:`berserk_rules.site.setup` (``add_search_language``).
    """

    def __init__(self, options: dict[str, str]) -> None:
        super().__init__(options)
        self.stems: dict[str, str] = {}

    def stem(self, word: str) -> str:
        found = self.stems.get(word)
        if found is None:
            found = self.stems[word] = super().stem(word)
        return found


def index_each_word_once(app: Sphinx, doctree: Any, docname: str) -> None:
    """On ``doctree-resolved`` (in the process that feeds the search index, just before the page is
    fed): Sphinx's indexer is given each word of a page once.

    ``IndexBuilder.feed`` runs its loop — stem, two or three word filters, a dictionary look-up — for
    every occurrence of every word (≈ 450,000 in a build of the project's site), and what it records
    is a set of pages per stem: a word seen again changes nothing, and the first occurrences keep
    their order, so the index (``searchindex.js``) is the same byte for byte
    (``tests/test_site_search_index.py``). Sphinx's word collector (``_word_collector``) is wrapped on
    the indexer of this build; an indexer without one (another Sphinx) is left as it is."""
    indexer = getattr(app.builder, "indexer", None)
    collect = getattr(indexer, "_word_collector", None)
    if collect is None or getattr(collect, "each_word_once", False):
        return

    def collect_once(doctree: Any) -> Any:
        store = collect(doctree)
        store.words = list(dict.fromkeys(store.words))
        store.title_words = list(dict.fromkeys(store.title_words))
        return store

    collect_once.each_word_once = True  # type: ignore[attr-defined]
    indexer._word_collector = collect_once  # type: ignore[union-attr]


def _stemmer(module: Any) -> Any:
    if not _STEMMER:
        _STEMMER.append(module.stemmer("russian"))
    return _STEMMER[0]


# suffixes a Snowball stem may still carry, removed in this order, at most one of each group and
# only if three letters stay: participles and finite forms (закрыт, уничтожен, сдавш, сдает, сдал,
# погибнут), then the verbal stem suffixes (пасова, закрыва, погибну), then one final vowel
# (закры → закр, сдае → сда). An ending with letters after «/» is removed only after one of them
# (закрыт, but not карт).
ROOT_ENDINGS = (
    ("нут", "ующ", "ющ", "ащ", "ящ", "ущ", "ивш", "ывш", "вш", "нн", "ен", "ён", "ет", "ит", "ут", "ют",
     "ат", "ят", "ем", "им", "ш", "н/ая", "т/аыиуо", "л/аяеиы"),
    ("ова", "ева", "ыва", "ива", "ва", "ну"),
    ("а", "я", "ы", "и", "е", "о", "у"),
)  # fmt: skip
ROOT_MIN = 3
INDEX_FORMAT = 5  # of berserk-entries.js: a change rewrites the file even when the corpus is the same
SEARCH_WORDS = "search-words.toml"  # in the docs folder: question words, English names, synonyms


def search_words(path: Path) -> dict[str, Any]:
    """The search's own words (``docs/search-words.toml``): ``question`` — words of a question that
    name no rule; ``english`` — English names of keywords → Russian words; ``synonyms`` — judges'
    words → the rulebook's; ``verbs`` — pairs of infinitives that name one action (aspect pairs
    whose roots differ: вернуть — возвращать; prefixed perfectives: спасовать — пасовать). Folded
    to lower case and «е» as the browser folds a query. A broken file is an error naming it; a
    missing one, no extra words."""
    import tomllib

    if not path.is_file():
        return {"question": [], "english": {}, "synonyms": {}, "verbs": {}}
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except (tomllib.TOMLDecodeError, UnicodeDecodeError) as exc:
        raise UserError(f"{path}: не читается как TOML: {exc}") from exc

    def fold(text: Any) -> str:
        if not isinstance(text, str) or not text.strip():
            raise UserError(f"{path}: ожидается непустая строка, а не {text!r}")
        return " ".join(text.lower().replace("ё", "е").split())

    return {
        "question": sorted({fold(w) for w in data.get("question", [])}),
        "english": {fold(k): fold(v) for k, v in sorted((data.get("english") or {}).items())},
        "synonyms": {fold(k): fold(v) for k, v in sorted((data.get("synonyms") or {}).items())},
        "verbs": {fold(k): fold(v) for k, v in sorted((data.get("verbs") or {}).items())},
    }


@lru_cache(maxsize=65536)
def root(stem_: str) -> str:
    """The root a stem shares with the other forms of its verb: пасова, пас → пас; закр, закрыт → закр;
    сдат, сдает, сдал, сдавш → сда. Used to match a query with a text, never to link terms.

    ``berserk.js`` has the same function (``root``); the browser tests compare the two.
    """
    current = stem_
    for endings in ROOT_ENDINGS:
        for spec in endings:
            ending, _, before = spec.partition("/")
            rest = len(current) - len(ending)
            if current.endswith(ending) and rest >= ROOT_MIN and (not before or current[rest - 1] in before):
                current = current[:rest]
                break
    return current


def one_edit(a: str, b: str) -> bool:
    """True when ``a`` and ``b`` differ by one letter changed, missing, added or two neighbours swapped."""
    if a == b or abs(len(a) - len(b)) > 1:
        return False
    start = 0
    while start < min(len(a), len(b)) and a[start] == b[start]:
        start += 1
    if len(a) == len(b):
        if a[start + 1 :] == b[start + 1 :]:
            return True
        return a[start] == b[start + 1] and a[start + 1] == b[start] and a[start + 2 :] == b[start + 2 :]
    shorter, longer = (a, b) if len(a) < len(b) else (b, a)
    return shorter[start:] == longer[start + 1 :]


def _surface(text: str) -> list[tuple[int, int, str, str]]:
    """(start, end, stem, word) of every word of ``text``."""
    return [(m.start(), m.end(), stem(m.group()), m.group()) for m in WORD_RE.finditer(text)]


def words(text: str) -> list[tuple[int, int, str]]:
    """(start, end, stem) of every word of ``text``."""
    return [(m.start(), m.end(), stem(m.group())) for m in WORD_RE.finditer(text)]


def stems(text: str) -> list[str]:
    return [s for _, _, s in words(text)]


# --------------------------------------------------------------------------------------------
# Term forms


def verb_like(word: str) -> bool:
    return bool(VERB_LIKE_RE.search(word.lower()))


def term_forms(name: str) -> list[tuple[tuple[str, ...], int]]:
    """Stem sequences that name a glossary term, with a priority (0: the name itself).

    «Вернуть (убрать) в колоду» → вернуть в колоду (1), убрать в колоду (2); «Броня Х» → броня (1);
    «Ранить на Х [цель], раниться» → ранить на (1), раниться (1); «Гибель (существа, карты)» →
    гибель (1). Placeholders (Х, […], …) and text after «—» or «:» are dropped.
    """
    head = re.split(r"\s[—-]\s|:", name, maxsplit=1)[0]
    cleaned = PLACEHOLDER_RE.sub(" ", head)
    forms: list[tuple[tuple[str, ...], int]] = []
    exact = PLACEHOLDER_RE.sub(" ", name) == name and "(" not in name
    for alternative in re.split(r",(?![^(]*\))", cleaned):  # commas outside parentheses
        main = re.sub(r"\([^)]*\)", " ", alternative)
        key = tuple(stems(main))
        if key:
            forms.append((key, 0 if exact else 1))
        for group in re.finditer(r"(\w+)\s*\((\w+)\)", alternative):
            swapped = alternative[: group.start()] + group.group(2) + alternative[group.end() :]
            key = tuple(stems(re.sub(r"\([^)]*\)", " ", swapped)))
            if key:
                forms.append((key, 2))
    return [(k, p) for k, p in forms if any(len(s) >= 3 and s not in STOPWORDS for s in k)]


@dataclass
class Linker:
    """Finds rule numbers, «См.» references and glossary terms in lines of text."""

    rule_ids: set[str]
    aliases: dict[str, str]  # printed number in some source -> rule id
    term_keys: dict[tuple[str, ...], str] = field(default_factory=dict)  # stems -> term slug
    verbs: dict[tuple[str, ...], tuple[bool, ...]] = field(default_factory=dict)  # stems -> verb-like words
    term_slugs: set[str] = field(default_factory=set)
    longest: int = 1

    @classmethod
    def build(cls, entries: Iterable[Any]) -> Linker:
        rule_ids: set[str] = set()
        aliases: dict[str, str] = {}
        best: dict[tuple[str, ...], tuple[int, int, str]] = {}
        entries = list(entries)
        for entry in entries:
            if entry.kind == "rule":
                rule_ids.add(entry.id)
        for order, entry in enumerate(entries):
            if entry.kind == "rule":
                for variant in entry.variants:
                    number = variant.number
                    if number and number != entry.id and number not in rule_ids:
                        aliases.setdefault(number, entry.id)
            elif entry.kind == "term" and entry.title:
                for key, priority in term_forms(entry.title):
                    current = best.get(key)
                    if current is None or (priority, order) < current[:2]:
                        best[key] = (priority, order, entry.id)
        linker = cls(rule_ids, aliases)
        linker.term_keys = {key: slug for key, (_, _, slug) in best.items()}
        # a word of a term's name that is itself verb-like (Погибнуть, Получает) accepts verb forms
        titles = {e.id: e.title or "" for e in entries if e.kind == "term"}
        for key, slug in linker.term_keys.items():
            title_words = {s: w for _, _, s, w in _surface(titles[slug])}
            linker.verbs[key] = tuple(verb_like(title_words.get(k, "")) for k in key)
        linker.term_slugs = {entry.id for entry in entries if entry.kind == "term"}
        linker.longest = max((len(k) for k in linker.term_keys), default=1)
        return linker

    def rule_target(self, number: str) -> str | None:
        if number in self.rule_ids:
            return number
        return self.aliases.get(number)

    def split(
        self, text: str, own: str | None = None, terms: bool = False, seen: set[str] | None = None
    ) -> list[tuple[str, str | None, str | None]]:
        """``text`` as pieces (piece, kind, target); kind is "rule", "term" or None (plain text).

        ``own``: the id of the entry the text belongs to (never linked to itself). ``terms``: link
        glossary terms (first use only: ``seen`` collects the slugs already linked).
        """
        spans: list[tuple[int, int, str, str]] = []
        for match in NUMBER_RE.finditer(text):
            target = self.rule_target(match.group())
            if target and target != own:
                spans.append((match.start(), match.end(), "rule", target))
        for match in SEE_RE.finditer(text):
            spans.extend(self._see(text, match.end(), own))
        if terms:
            spans.extend(self._terms(text, own, seen if seen is not None else set(), spans))
        spans.sort()
        pieces: list[tuple[str, str | None, str | None]] = []
        position = 0
        for start, end, kind, target in spans:
            if start < position:
                continue
            if start > position:
                pieces.append((text[position:start], None, None))
            pieces.append((text[start:end], kind, target))
            position = end
        if position < len(text):
            pieces.append((text[position:], None, None))
        return pieces

    def _see(self, text: str, start: int, own: str | None) -> list[tuple[int, int, str, str]]:
        """The terms named after «См.»: items separated by «,» or « и », up to the full stop."""
        end = text.find(".", start)
        end = len(text) if end < 0 else end
        spans = []
        for item in re.finditer(r"[^,]+", text[start:end]):
            for part in re.split(r"\s+и\s+", item.group()):
                stripped = part.strip()
                if not stripped:
                    continue
                offset = start + item.start() + item.group().index(stripped)
                slug = self.resolve_term(stripped)
                if slug and slug != own:
                    spans.append((offset, offset + len(stripped), "term", slug))
        return spans

    def resolve_term(self, words_text: str) -> str | None:
        """The term named by these words: an exact form, else the only term whose form starts so."""
        key = tuple(stems(words_text))
        if not key:
            return None
        if key in self.term_keys:
            return self.term_keys[key]
        found = {slug for k, slug in self.term_keys.items() if k[: len(key)] == key}
        return found.pop() if len(found) == 1 else None

    def _terms(
        self, text: str, own: str | None, seen: set[str], taken: Sequence[tuple[int, int, str, str]]
    ) -> list[tuple[int, int, str, str]]:
        found = words(text)
        spans = []
        index = 0
        while index < len(found):
            matched = 0
            for length in range(min(self.longest, len(found) - index), 0, -1):
                chunk = found[index : index + length]
                if any(not text[a[1] : b[0]].isspace() for a, b in pairwise(chunk)):
                    continue
                key = tuple(s for _, _, s in chunk)
                slug = self.term_keys.get(key)
                if slug is None:
                    continue
                flags = self.verbs.get(key, ())
                if any(
                    verb_like(text[a:b]) and not (flags[i] if i < len(flags) else False)
                    for i, (a, b, _) in enumerate(chunk)
                ):
                    index += 1
                    matched = -1
                    break
                start, end = chunk[0][0], chunk[-1][1]
                if (
                    slug not in seen
                    and slug != own
                    and not any(a < end and start < b for a, b, _, _ in taken)
                ):
                    seen.add(slug)
                    spans.append((start, end, "term", slug))
                matched = length
                break
            if matched < 0:
                continue
            index += matched or 1
        return spans


# --------------------------------------------------------------------------------------------
# The entry index for the site's search and the «go to rule» box


def entry_index(
    entries: Iterable[Any],
    docname_of: Any,
    part_titles: dict[int, str],
    partners: dict[str, str] | None = None,
) -> dict[str, Any]:
    """Data of ``berserk-entries.js``: one record per rule and term, and the number map.

    ``docname_of(entry)`` gives the page of an entry. Records: ``[id, kind, title, page, anchor,
    place, text, title stems (a term: its name as typed), text stems, stems of the printed
    name]``; ``numbers`` maps a rule number (and an alias) to ``page#anchor``; ``roots`` maps each
    stem of the records whose :func:`root` differs from it to that root.
    """
    records: list[list[Any]] = []
    numbers: dict[str, str] = {}
    headings: dict[str, str] = {}
    entries = list(entries)
    rule_ids = {e.id for e in entries if e.kind == "rule"}
    for entry in entries:
        if entry.kind == "rule" and entry.heading:
            headings[entry.id] = entry.title or ""
    for entry in entries:
        page = docname_of(entry)
        if entry.kind == "term":
            anchor, title = f"term-{entry.id}", entry.title or entry.id
            place = part_titles.get(entry.part, "Глоссарий")
        else:
            anchor = f"rule-{entry.id}"
            title = f"{entry.id}. {entry.title}" if entry.heading and entry.title else entry.id
            section = entry.section
            place = (
                f"{section}. {headings[section]}" if section in headings else part_titles.get(entry.part, "")
            )
            numbers[entry.id] = f"{page}#{anchor}"
            for variant in entry.variants:
                if variant.number and variant.number != entry.id and variant.number not in rule_ids:
                    numbers.setdefault(variant.number, f"{page}#rule-{variant.number}")
        lines = list(entry.variants[0].lines) if entry.variants else []
        text = " ".join(lines)
        title_stems = stems(entry.title or "") if entry.kind == "term" or entry.heading else []
        full_title = " ".join(title_stems)
        text_stems = stems(text)
        if entry.kind == "term":
            # the name as a reader types it («Гибель» for «Гибель (существа, карты)») is the title;
            # the rest of the printed name still counts as text
            forms = term_forms(entry.title or "")
            if forms:
                text_stems = title_stems + text_stems
                title_stems = list(forms[0][0])
        records.append(
            [
                entry.id,
                "heading" if entry.heading else entry.kind,
                title,
                page,
                anchor,
                place,
                text,
                " ".join(title_stems),
                " ".join(text_stems),
                full_title,
            ]
        )
    vocabulary = {s for record in records for field_ in (7, 8, 9) for s in record[field_].split()}
    roots = {s: root(s) for s in sorted(vocabulary) if root(s) != s}
    texts = [f"{record[2]} {record[6]}" for record in records]
    lemmas, verb_forms = lemma_data(texts, vocabulary, partners, stem, root)
    return {"entries": records, "numbers": numbers, "roots": roots, "lemmas": lemmas, "forms": verb_forms}


SEARCH_TRANSLATIONS = {
    ", in ": ", на странице ",
    "Search finished, found one page matching the search query.": [
        "Найдена ${resultCount} страница.",
        "Найдено ${resultCount} страницы.",
        "Найдено ${resultCount} страниц.",
        "Найдено ${resultCount} страницы.",
    ],
    "Search finished, found ${resultCount} pages matching the search query.": [
        "Найдена ${resultCount} страница.",
        "Найдено ${resultCount} страницы.",
        "Найдено ${resultCount} страниц.",
        "Найдено ${resultCount} страницы.",
    ],
}


def on_config_inited(app: Sphinx, config: Any) -> None:
    """Fix Sphinx's Russian JavaScript catalogue and resolve ``locale_dirs`` against the conf folder.

    Sphinx's ``ru/sphinx.js`` has empty plural forms for «found N pages» (the line stays blank) and
    translates ``", in "`` without a trailing space («вЧасть 4»). The patched copy is written under
    the doctree folder and put first in ``locale_dirs``; Sphinx looks for ``sphinx.js`` there
    relative to the current folder, so every entry is made absolute.
    """
    import json

    from sphinx import package_dir

    confdir = Path(app.confdir)
    dirs = [str(Path(d) if Path(d).is_absolute() else confdir / d) for d in config.locale_dirs]
    language = config.language or "en"
    original = Path(package_dir, "locale", language, "LC_MESSAGES", "sphinx.js")
    if language == "ru" and original.is_file():
        text = original.read_text(encoding="utf-8")
        catalogue = json.loads(text[text.index("(") + 1 : text.rindex(")")])
        catalogue["messages"].update(SEARCH_TRANSLATIONS)
        target = Path(app.doctreedir) / "berserk-locale"
        write_if_changed(
            target / language / "LC_MESSAGES" / "sphinx.js",
            "Documentation.addTranslations(" + json.dumps(catalogue, ensure_ascii=False, indent=1) + ");\n",
        )
        dirs.insert(0, str(target))
    config.locale_dirs = dirs


def on_build_finished(app: Sphinx, exception: Exception | None) -> None:
    """Write the scripts that the pages load: the run's time, rule numbers, the entry index."""
    if exception is not None or app.builder.format != "html":
        return
    import json

    from berserk_rules.corpus import load_corpus
    from berserk_rules.site.search import entry_index

    static = Path(app.outdir) / "_static"
    data = site_data(app)
    write_if_changed(static / "berserk-run.js", run_script(data))
    try:
        corpus = load_corpus(corpus_root(app.config, app.srcdir))
    except UserError:
        return
    titles = {part: part_title(app, part) for part in {e.part for e in corpus.entries}}
    # the index depends only on the corpus files and the part titles: skip the stemming when unchanged
    rules_dir = corpus_root(app.config, app.srcdir) / "rules"
    words_file = Path(app.srcdir) / SEARCH_WORDS
    query_words = search_words(words_file)
    key = json.dumps(
        [
            INDEX_FORMAT,
            sorted((p.name, p.stat().st_mtime_ns, p.stat().st_size) for p in rules_dir.glob("*.md")),
            titles,
            query_words,
        ],
        ensure_ascii=False,
    )
    marker = Path(app.doctreedir) / "berserk-entries.key"
    scripts = [static / "berserk-numbers.js", static / "berserk-entries.js"]
    if all(path.is_file() for path in scripts) and marker.is_file() and marker.read_text("utf-8") == key:
        return

    def page(entry: Any) -> str:
        return app.builder.get_target_uri(part_docname(entry.part))

    pages = {part: app.builder.get_target_uri(part_docname(part)) for part in titles}
    made_of = [INDEX_FORMAT, titles, query_words, sorted(pages.items())]  # with the files' bytes:
    files = [Path(__file__), Path(lemma_data.__code__.co_filename), *sorted(rules_dir.glob("*.md"))]
    stored = EntryStore.at(data.root, made_of, files)
    scripts_text = stored.load() if stored is not None else None
    if scripts_text is None:
        partners = {**query_words["verbs"], **{v: k for k, v in query_words["verbs"].items()}}
        index = entry_index(corpus.entries, page, titles, partners)
        numbers = json.dumps(index["numbers"], ensure_ascii=False, sort_keys=True)
        entries = json.dumps(index["entries"], ensure_ascii=False, separators=(",", ":"))
        roots = json.dumps(index["roots"], ensure_ascii=False, separators=(",", ":"))
        lemmas = json.dumps(index["lemmas"], ensure_ascii=False, separators=(",", ":"))
        forms = json.dumps(index["forms"], ensure_ascii=False, separators=(",", ":"))
        query = json.dumps(query_words, ensure_ascii=False, separators=(",", ":"))
        scripts_text = (
            f"window.BERSERK_NUMBERS = {numbers};\n",
            f"window.BERSERK_ENTRIES = {entries};\nwindow.BERSERK_ROOTS = {roots};\n"
            f"window.BERSERK_LEMMAS = {lemmas};\nwindow.BERSERK_FORMS = {forms};\n"
            f"window.BERSERK_QUERY = {query};\n",
        )
        if stored is not None:
            stored.save(scripts_text)
    write_if_changed(static / "berserk-numbers.js", scripts_text[0])
    write_if_changed(static / "berserk-entries.js", scripts_text[1])
    write_if_changed(marker, key)
