"""Import the source texts (``rules/sources/*.txt``) into the corpus files ``rules/*.md``.

Pipeline (kept in the project because new editions of the sources will come):

1. **Classify** every source line: gap (``|``, possibly with spaces), empty, part title
   (``Часть N. …``), numbered heading (``401. Очередь``), numbered paragraph (``401.7. …``,
   ``201. 1. …``, ``204. 1. 1. …``, ``401.8 …`` without the dot, ``119. 8. …``), list line
   (``· …``, ``1) …``), example (``ПРИМЕР…``), unnumbered text, glossary line (every line after
   the title of Part 7).
2. **Apply editorial decisions**, which are data, not code: ``rules/editorial.toml`` maps
   ``(source file, line)`` to an id (for unnumbered lines, or to file a printed paragraph under
   another number), a heading flag, an ``inferred`` declaration, a Russian note, the reason an
   engine cannot check the rule (``untestable``), or ``continuation`` (the line continues the
   previous entry). Mechanical defaults: a printed number
   is the id; a number with one component is a heading; list lines and examples continue the
   previous entry. An unnumbered line without a decision is an error: the importer never guesses.
3. **Merge** entries of all sources with the same id into one entry with one variant per source
   line, ordered by source file name, then line (000, 001, 002, 003).
4. **Order** each Part: ids made of numbers sort numerically; everything else (editorial slug ids
   such as ``306.вступление``, and ``{gap}`` blocks) is anchored right after the item that
   precedes it in its own source (or before the one that follows it when it opens the source).
5. **Write** ``rules/part-N.md`` and ``rules/glossary.md``. ``rules/interpretations.md`` is
   written by hand and is never touched here.
"""

from __future__ import annotations

import re
import tomllib
from dataclasses import dataclass, field
from pathlib import Path

from berserk_rules.corpus import (
    FENCE_CLOSE_RE,
    FENCE_OPEN_RE,
    GAP_LINE_RE,
    GLOSSARY_PART,
    ID_RE,
    NUMERIC_ID_RE,
    OPTION_RE,
    normalize_number,
    part_of_id,
    read_utf8,
    toml_error,
)
from berserk_rules.errors import SourceError

PART_TITLE_RE = re.compile(r"^Часть (\d+)\.")
NUMBERED_RE = re.compile(r"^(?P<num>\d{3}(?:\. ?\d+)*\.?) (?=\S)(?P<body>.*)$")
LIST_RE = re.compile(r"^(?:· |\d+\) )")
EXAMPLE_PREFIX = "ПРИМЕР"
EDITORIAL_KEYS = frozenset({"id", "heading", "inferred", "note", "untestable", "continuation"})
HOMOGLYPHS = str.maketrans("aceopxyk", "асеорхук")


# ---------------------------------------------------------------------------------------------
# Step 1: classification


@dataclass(frozen=True)
class SourceLine:
    source: str
    number: int  # 1-based
    text: str
    kind: str  # gap | empty | part | heading | numbered | list | example | text | term
    printed: str | None = None  # number as printed, without the following space
    body: str = ""  # text after the number (or the whole line)
    part: int | None = None  # for part titles


def classify(source: str, text: str) -> list[SourceLine]:
    """Classify every line of one source text."""
    lines = text.split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    result: list[SourceLine] = []
    glossary = False
    for number, raw in enumerate(lines, 1):
        if GAP_LINE_RE.match(raw):
            result.append(SourceLine(source, number, raw, "gap"))
        elif not raw.strip():
            result.append(SourceLine(source, number, raw, "empty"))
        elif match := PART_TITLE_RE.match(raw):
            part = int(match[1])
            glossary = part == GLOSSARY_PART
            result.append(SourceLine(source, number, raw, "part", body=raw, part=part))
        elif glossary:
            result.append(SourceLine(source, number, raw, "term", body=raw))
        elif match := NUMBERED_RE.match(raw):
            printed = match["num"]
            kind = "numbered" if "." in normalize_number(printed) else "heading"
            result.append(SourceLine(source, number, raw, kind, printed, match["body"]))
        elif raw.startswith(EXAMPLE_PREFIX):
            result.append(SourceLine(source, number, raw, "example", body=raw))
        elif LIST_RE.match(raw):
            result.append(SourceLine(source, number, raw, "list", body=raw))
        else:
            result.append(SourceLine(source, number, raw, "text", body=raw))
    return result


# ---------------------------------------------------------------------------------------------
# Step 2: editorial decisions


@dataclass(frozen=True)
class Decision:
    id: str | None = None
    heading: bool | None = None
    inferred: bool = False
    note: str | None = None
    continuation: bool = False
    untestable: str | None = None  # why an engine cannot check the rule (Russian)


@dataclass
class Editorial:
    decisions: dict[tuple[str, int], Decision] = field(default_factory=dict)
    titles: dict[int, str] = field(default_factory=dict)  # H1 for parts whose title is lost
    slugs: dict[str, str] = field(default_factory=dict)  # term name -> slug override
    path: str = "rules/editorial.toml"


def load_editorial(path: Path, rel: str = "rules/editorial.toml") -> Editorial:
    if not path.is_file():
        return Editorial(path=rel)
    try:
        data = tomllib.loads(read_utf8(path, rel))
    except tomllib.TOMLDecodeError as exc:
        raise toml_error(rel, exc) from None
    editorial = Editorial(path=rel)
    for key, value in data.items():
        if key == "titles":
            if not isinstance(value, dict) or not all(str(k).isdigit() for k in value):
                raise SourceError(rel, None, '[titles]: ожидается «номер части = "заголовок"»')
            editorial.titles = {int(k): str(v) for k, v in value.items()}
        elif key == "slugs":
            if not isinstance(value, dict):
                raise SourceError(rel, None, '[slugs]: ожидается таблица «термин = "slug"»')
            editorial.slugs = {str(k): str(v) for k, v in value.items()}
        elif key.endswith(".txt"):
            if not isinstance(value, dict):
                raise SourceError(rel, None, f"[{key}]: ожидается таблица «номер строки = {{ … }}»")
            for line, item in value.items():
                if not line.isdigit() or not isinstance(item, dict):
                    raise SourceError(
                        rel, None, f"[{key}]: ожидается «номер строки = {{ … }}», а не «{line}»"
                    )
                unknown = set(item) - EDITORIAL_KEYS
                if unknown:
                    raise SourceError(rel, None, f"[{key}] {line}: неизвестные ключи {sorted(unknown)}")
                decision = Decision(
                    id=item.get("id"),
                    heading=item.get("heading"),
                    inferred=bool(item.get("inferred", False)),
                    note=item.get("note"),
                    continuation=bool(item.get("continuation", False)),
                    untestable=item.get("untestable"),
                )
                if decision.untestable is not None and not (
                    isinstance(decision.untestable, str) and decision.untestable.strip()
                ):
                    raise SourceError(rel, None, f"[{key}] {line}: untestable — непустая строка с причиной")
                if decision.id is not None and not (
                    isinstance(decision.id, str) and ID_RE.match(decision.id)
                ):
                    raise SourceError(rel, None, f"[{key}] {line}: неверный id «{decision.id}»")
                editorial.decisions[(key, int(line))] = decision
        else:
            raise SourceError(rel, None, f"неизвестная таблица [{key}]")
    return editorial


# ---------------------------------------------------------------------------------------------
# Steps 3-4: records, merge, order


@dataclass
class VariantRec:
    source: str
    line: int
    printed: str | None
    lines: list[str]
    nospace: bool = False


@dataclass
class EntryRec:
    id: str
    kind: str  # rule | term
    part: int
    heading: bool = False
    name: str | None = None
    notes: list[str] = field(default_factory=list)
    declared_inferred: bool = False
    untestable: str | None = None
    variants: list[VariantRec] = field(default_factory=list)


@dataclass(frozen=True)
class GapRec:
    source: str
    first: int
    last: int


@dataclass
class ImportResult:
    files: dict[str, str]  # file name in rules/ -> content
    placements: list[Placement] = field(default_factory=list)  # lenient import: what it decided


@dataclass(frozen=True)
class Placement:
    """A line the lenient import (``import --edition``) placed by itself, or could not place.

    ``what``: ``attached`` (unnumbered line joined to the entry before it), ``intro`` (text at the
    start of a Part before any rule, given the id ``N.вступление``), ``renamed`` (a second glossary
    term with the same slug) or ``unplaced`` (the line is not in the corpus).
    """

    source: str
    line: int
    text: str
    what: str
    detail: str = ""


def slugify(name: str) -> str:
    """A readable, stable, lowercase Cyrillic slug: «+Х (–Х) к атаке» → ``плюс-х-минус-х-к-атаке``."""
    s = name.lower().translate(HOMOGLYPHS)
    s = s.replace("+", " плюс ")
    s = re.sub(r"(^|[\s(])[–−-](?=\w)", r"\1 минус ", s)
    return re.sub(r"[^0-9a-zа-яё]+", "-", s).strip("-")


def _numeric_key(id: str) -> tuple[int, ...]:
    return tuple(int(x) for x in id.split("."))


INTRO_SUFFIX = "вступление"
INTRO_NOTE = "Текст без номера в начале части; идентификатор дан импортом."


class Importer:
    """The importer. ``lenient`` (``import --edition``): a line that the strict import rejects for
    want of an editorial decision is placed mechanically (joined to the entry before it, or made the
    Part's introduction) or reported as unplaced — see :class:`Placement`."""

    def __init__(self, sources_dir: Path, editorial: Editorial, lenient: bool = False) -> None:
        self.sources_dir = sources_dir
        self.editorial = editorial
        self.lenient = lenient
        self.placements: list[Placement] = []
        self.entries: dict[str, EntryRec] = {}
        self.part_titles: dict[int, list[VariantRec]] = {}
        self.sequences: dict[str, list[object]] = {}  # source -> entry ids / GapRec in source order
        self.used: set[tuple[str, int]] = set()

    def place(self, line: SourceLine, what: str, detail: str = "") -> None:
        self.placements.append(Placement(line.source, line.number, line.text, what, detail))

    def rel(self, source: str) -> str:
        return f"rules/sources/{source}"

    def run(self) -> ImportResult:
        paths = sorted(self.sources_dir.glob("*.txt"))
        if not paths:
            raise SourceError(self.sources_dir, None, "нет исходных текстов *.txt")
        for path in paths:
            self.read_source(path.name, classify(path.name, read_utf8(path, self.rel(path.name))))
        for key in self.editorial.decisions:
            if key not in self.used:
                raise SourceError(
                    self.editorial.path,
                    None,
                    f"решение для {key[0]}:{key[1]} не применено: строка пуста или её нет",
                )
        self.check_entries()
        return ImportResult(self.render(), self.placements)

    # -- reading ------------------------------------------------------------------------------

    def decision(self, line: SourceLine) -> Decision | None:
        key = (line.source, line.number)
        decision = self.editorial.decisions.get(key)
        if decision is not None:
            if line.kind in ("gap", "empty"):
                raise SourceError(
                    self.editorial.path, None, f"решение для {line.source}:{line.number}: строка не текст"
                )
            self.used.add(key)
        return decision

    def read_source(self, source: str, lines: list[SourceLine]) -> None:
        sequence: list[object] = []
        self.sequences[source] = sequence
        current: VariantRec | None = None
        current_entry = EntryRec("", "rule", 0)
        current_part: int | None = None
        gap_start: int | None = None
        ids_here: dict[str, int] = {}

        def close_gap(last: int) -> None:
            nonlocal gap_start
            if gap_start is not None:
                sequence.append(GapRec(source, gap_start, last))
                gap_start = None

        previous_number = 0
        for line in lines:
            if line.kind != "gap":
                close_gap(previous_number)
            previous_number = line.number
            decision = self.decision(line)
            if line.kind == "gap":
                if gap_start is None:
                    gap_start = line.number
                current = None
                continue
            if line.kind == "empty":
                continue
            for bad in (FENCE_OPEN_RE, FENCE_CLOSE_RE, OPTION_RE):
                if bad.match(line.body):
                    raise SourceError(self.rel(source), line.number, "строка похожа на директиву корпуса")
            if line.kind == "part":
                if decision is not None:
                    raise SourceError(
                        self.editorial.path, None, f"{source}:{line.number}: заголовок части не правят"
                    )
                assert line.part is not None
                current_part = line.part
                self.part_titles.setdefault(line.part, []).append(
                    VariantRec(source, line.number, None, [line.text])
                )
                current = None
                continue
            if line.kind == "term":
                if decision is not None and (decision.id or decision.heading or decision.continuation):
                    raise SourceError(
                        self.editorial.path,
                        None,
                        f"{source}:{line.number}: у термина бывают только note и untestable",
                    )
                if self.lenient and not _looks_like_term(line.text):
                    if current is not None:
                        current.lines.append(line.text)
                        self.place(line, "attached", "продолжение предыдущего термина")
                    else:
                        self.place(line, "unplaced", "строка глоссария не в виде «Термин. Определение»")
                    continue
                slug = self.add_term(line)
                if decision is not None and decision.note:
                    self.entries[slug].notes.append(decision.note)
                if decision is not None and decision.untestable:
                    self.entries[slug].untestable = decision.untestable
                sequence.append(slug)
                current = self.entries[slug].variants[0] if self.lenient else None
                continue
            continuation = line.kind in ("list", "example")
            if decision is not None and (decision.continuation or decision.id is not None):
                continuation = decision.continuation
            if (
                self.lenient
                and not continuation
                and line.kind == "text"
                and (decision is None or decision.id is None)
            ):
                continuation = True  # an unnumbered paragraph continues the entry before it
                if current is not None:
                    self.place(line, "attached", "абзац без номера присоединён к предыдущему правилу")
            if (
                self.lenient
                and line.kind in ("numbered", "heading")
                and decision is None
                and current is not None
            ):
                number_part = part_of_id(normalize_number(line.printed or ""))
                if current_part is not None and number_part != current_part:
                    continuation = True
                    self.place(
                        line, "attached", f"число в начале строки не номер правила части {current_part}"
                    )
            if continuation and current is None and self.lenient:
                if current_part is None:
                    self.place(
                        line, "unplaced", "ни части, ни правила перед строкой (начало текста или пропуск «|»)"
                    )
                    continue
                current = self.intro(source, line, current_part, sequence)
                current_entry = self.entries[f"{current_part}.{INTRO_SUFFIX}"]
                continue
            if continuation:
                if current is None:
                    raise SourceError(
                        self.rel(source),
                        line.number,
                        "строка продолжает предыдущее правило, но его нет (начало или пропуск)",
                    )
                current.lines.append(line.text)
                if decision is not None and decision.note and decision.note not in current_entry.notes:
                    current_entry.notes.append(decision.note)
                if decision is not None and decision.untestable:
                    current_entry.untestable = decision.untestable
                continue
            if line.kind == "text" and (decision is None or decision.id is None):
                raise SourceError(
                    self.rel(source),
                    line.number,
                    f"строка без номера: нужно решение в {self.editorial.path} "
                    f"(id или continuation): «{line.text}»",
                )
            printed = line.printed
            id = (decision.id if decision else None) or normalize_number(printed or "")
            heading = line.kind == "heading"
            if decision is not None and decision.heading is not None:
                heading = decision.heading
            part = part_of_id(id)
            if part is None:
                raise SourceError(self.rel(source), line.number, f"по id «{id}» нельзя определить часть")
            if current_part is not None and part != current_part:
                raise SourceError(
                    self.rel(source),
                    line.number,
                    f"id {id} относится к части {part}, а строка стоит в части {current_part}",
                )
            if id in ids_here and (decision is not None and decision.id is not None):
                raise SourceError(
                    self.rel(source),
                    line.number,
                    f"id {id} уже занят строкой {ids_here[id]} того же источника",
                )
            ids_here.setdefault(id, line.number)
            body = line.body if printed else line.text
            current = VariantRec(source, line.number, printed, [body])
            entry = self.entries.get(id)
            if entry is None:
                entry = self.entries[id] = EntryRec(id, "rule", part, heading)
            elif entry.heading != heading:
                raise SourceError(
                    self.rel(source), line.number, f"{id}: в одном источнике заголовок, в другом нет"
                )
            entry.variants.append(current)
            current_entry = entry
            if decision is not None:
                if decision.note and decision.note not in entry.notes:
                    entry.notes.append(decision.note)
                entry.declared_inferred |= decision.inferred
                if decision.untestable:
                    if entry.untestable not in (None, decision.untestable):
                        raise SourceError(
                            self.editorial.path,
                            None,
                            f"{source}:{line.number}: у {id} уже другая причина untestable",
                        )
                    entry.untestable = decision.untestable
            if not sequence or sequence[-1] != id:
                sequence.append(id)
        close_gap(previous_number)

    def intro(self, source: str, line: SourceLine, part: int, sequence: list[object]) -> VariantRec:
        """The Part's introduction (text before its first rule) as the entry ``N.вступление``."""
        id = f"{part}.{INTRO_SUFFIX}"
        variant = VariantRec(source, line.number, None, [line.text])
        entry = self.entries.setdefault(
            id, EntryRec(id, "rule", part, notes=[INTRO_NOTE], declared_inferred=True)
        )
        entry.variants.append(variant)
        sequence.append(id)
        self.place(line, "intro", f"вступление части {part} ({id})")
        return variant

    def add_term(self, line: SourceLine) -> str:
        name, sep, rest = line.text.partition(".")
        if not sep or not name.strip() or not rest.strip():
            raise SourceError(
                self.rel(line.source), line.number, "строка глоссария: ожидается «Термин. Определение»"
            )
        nospace = not rest.startswith(" ")
        definition = rest if nospace else rest[1:]
        if name != name.strip():
            raise SourceError(self.rel(line.source), line.number, "пробел перед точкой после термина")
        slug = self.editorial.slugs.get(name) or slugify(name)
        if not slug or not ID_RE.match(slug):
            raise SourceError(
                self.rel(line.source), line.number, f"не получается имя-ссылка для «{name}»: «{slug}»"
            )
        if slug in self.entries and self.lenient:
            base, number = slug, 2
            while f"{base}-{number}" in self.entries:
                number += 1
            slug = f"{base}-{number}"
            self.place(line, "renamed", f"термин с тем же именем-ссылкой уже есть: «{slug}»")
        if slug in self.entries:
            other = self.entries[slug].variants[0]
            raise SourceError(
                self.rel(line.source),
                line.number,
                f"термин «{slug}» уже есть ({other.source}:{other.line}); задайте [slugs]",
            )
        self.entries[slug] = EntryRec(
            slug,
            "term",
            GLOSSARY_PART,
            name=name,
            variants=[VariantRec(line.source, line.number, None, [definition], nospace)],
        )
        return slug

    def check_entries(self) -> None:
        for entry in self.entries.values():
            entry.variants.sort(key=lambda v: (v.source, v.line))
            if entry.kind != "rule":
                continue
            numbers = {normalize_number(v.printed) for v in entry.variants if v.printed}
            inferred = entry.id not in numbers
            first = entry.variants[0]
            where = (self.rel(first.source), first.line)
            if self.lenient and (
                inferred != entry.declared_inferred or (numbers - {entry.id} and not entry.notes)
            ):
                entry.declared_inferred = inferred
                if not entry.notes:
                    entry.notes.append(
                        "Номер не напечатан в источнике; дан импортом."
                        if inferred
                        else "Номер в источнике записан иначе: "
                        + ", ".join(sorted(numbers - {entry.id}))
                        + "."
                    )
            if inferred != entry.declared_inferred:
                state = "не напечатан ни в одном источнике" if inferred else "напечатан в источнике"
                raise SourceError(
                    *where, f"{entry.id}: номер {state} — поправьте inferred в {self.editorial.path}"
                )
            if (inferred or numbers - {entry.id}) and not entry.notes:
                raise SourceError(*where, f"{entry.id}: номер восстановлен или отличается — нужна note")

    # -- ordering and rendering ---------------------------------------------------------------

    def ordered(self) -> list[tuple[int, object]]:
        """All items (entry ids and gaps) with their part, in page order."""
        numeric = sorted(
            (id for id, e in self.entries.items() if e.kind == "rule" and NUMERIC_ID_RE.match(id)),
            key=_numeric_key,
        )
        placed: list[object] = list(numeric)
        gap_parts: dict[GapRec, int] = {}

        def part_of(item: object) -> int:
            if isinstance(item, GapRec):
                return gap_parts[item]
            return self.entries[item].part  # type: ignore[index]

        def is_anchored(item: object) -> bool:
            return isinstance(item, GapRec) or not NUMERIC_ID_RE.match(str(item))

        for source in sorted(self.sequences):
            sequence = [
                x
                for x in self.sequences[source]
                if isinstance(x, GapRec) or self.entries[str(x)].kind == "rule"
            ]
            for index, item in enumerate(sequence):
                if not is_anchored(item) or item in placed:
                    continue
                if index > 0:
                    anchor = sequence[index - 1]
                    pos = placed.index(anchor) + 1
                    while pos < len(placed) and is_anchored(placed[pos]):
                        pos += 1
                else:
                    following = [x for x in sequence[1:] if x in placed]
                    anchor = following[0] if following else None
                    pos = placed.index(anchor) if anchor is not None else len(placed)
                if isinstance(item, GapRec):
                    if anchor is None:
                        raise SourceError(self.rel(source), item.first, "источник содержит только пропуски")
                    gap_parts[item] = part_of(anchor)
                placed.insert(pos, item)
        result = [(part_of(item), item) for item in placed]
        result += [(GLOSSARY_PART, id) for id, e in self.entries.items() if e.kind == "term"]
        return result

    def render(self) -> dict[str, str]:
        items = self.ordered()
        numbers = sorted({p for p, _ in items} | set(self.part_titles))
        files = {}
        for part in numbers:
            name = "glossary.md" if part == GLOSSARY_PART else f"part-{part}.md"
            files[name] = self.render_part(part, [item for p, item in items if p == part])
        return files

    def render_part(self, part: int, items: list[object]) -> str:
        titles = self.part_titles.get(part, [])
        if titles:
            h1 = titles[0].lines[0]
        elif part in self.editorial.titles:
            h1 = self.editorial.titles[part]
        elif self.lenient:
            h1 = f"Часть {part}"
        else:
            raise SourceError(
                self.editorial.path, None, f"у части {part} нет заголовка: задайте [titles] {part}"
            )
        out = [f"# {h1}", ""]
        if titles:
            out += _directive("part", str(part), [], titles)
        for item in items:
            if isinstance(item, GapRec):
                lines = f"{item.first}-{item.last}" if item.last != item.first else str(item.first)
                out += [":::{gap}", f":source: {item.source}", f":lines: {lines}", ":::", ""]
                continue
            entry = self.entries[item]  # type: ignore[index]
            options: list[str] = []
            if entry.kind == "term":
                options.append(f":name: {entry.name}")
            if entry.heading:
                options.append(":heading:")
            if entry.kind == "rule" and entry.declared_inferred:
                options.append(":inferred:")
            if entry.notes:
                options.append(":note: " + " ".join(entry.notes))
            if entry.untestable:
                options.append(f":untestable: {entry.untestable}")
            out += _directive(entry.kind, entry.id, options, entry.variants)
        while out and out[-1] == "":
            out.pop()
        return "\n".join(out) + "\n"


def _looks_like_term(text: str) -> bool:
    if text.startswith((EXAMPLE_PREFIX, "ВАЖНО")) or LIST_RE.match(text):
        return False
    name, sep, rest = text.partition(".")
    return bool(sep and name.strip() and rest.strip() and name == name.strip() and len(name) <= 120)


def _variant_options(v: VariantRec) -> list[str]:
    options = [f":source: {v.source}", f":line: {v.line}"]
    if v.printed is not None:
        options.append(f":printed: {v.printed}")
    if v.nospace:
        options.append(":nospace:")
    return options


def _directive(name: str, arg: str, options: list[str], variants: list[VariantRec]) -> list[str]:
    if len(variants) == 1:
        v = variants[0]
        return [f":::{{{name}}} {arg}", *options, *_variant_options(v), *v.lines, ":::", ""]
    out = [f"::::{{{name}}} {arg}", *options]
    for v in variants:
        out += [":::{variant}", *_variant_options(v), *v.lines, ":::"]
    return [*out, "::::", ""]


# ---------------------------------------------------------------------------------------------
# Entry points


def import_sources(root: Path) -> dict[str, str]:
    """Generate the corpus files for the project at ``root``: {file name in rules/: content}."""
    editorial = load_editorial(root / "rules" / "editorial.toml")
    return Importer(root / "rules" / "sources", editorial).run().files


def stale_files(files: dict[str, str], out: Path) -> list[str]:
    """Generated-looking files in ``out`` (``part-N.md``) that the import no longer produces."""
    return sorted(p.name for p in out.glob("part-*.md") if p.name not in files)


def write_files(files: dict[str, str], out: Path) -> list[str]:
    """Write the files and remove stale ``part-N.md``; return the names of changed files."""
    out.mkdir(parents=True, exist_ok=True)
    changed = []
    for name, content in sorted(files.items()):
        path = out / name
        if not path.is_file() or path.read_text(encoding="utf-8") != content:
            path.write_text(content, encoding="utf-8")
            changed.append(name)
    for name in stale_files(files, out):
        (out / name).unlink()
        changed.append(name)
    return changed


def differing_files(files: dict[str, str], out: Path) -> list[str]:
    """Names of files in ``out`` that differ from the import: changed, missing or stale."""
    differing = [
        name
        for name, content in sorted(files.items())
        if not (out / name).is_file() or (out / name).read_text(encoding="utf-8") != content
    ]
    return differing + stale_files(files, out)
