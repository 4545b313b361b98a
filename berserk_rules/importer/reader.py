"""Step 3 of the import: read the classified sources into entry records, one variant per source line.

Each line is filed under an id (its printed number or an editorial decision), continuation lines
join the entry before them, and entries of all sources with the same id merge; in the lenient mode
what the strict import would reject is placed mechanically and reported.
"""

from __future__ import annotations

import re
from pathlib import Path

from berserk_rules.corpus.model import GLOSSARY_PART, part_of_id
from berserk_rules.corpus.syntax import FENCE_CLOSE_RE, FENCE_OPEN_RE, ID_RE, OPTION_RE
from berserk_rules.errors import SourceError
from berserk_rules.importer.classify import SourceLine, classify, looks_like_term, number_of
from berserk_rules.importer.editorial import Decision, Editorial
from berserk_rules.importer.layout import Layout
from berserk_rules.importer.records import EntryRec, GapRec, ImportResult, Placement, VariantRec, source_rel
from berserk_rules.rulebook.project import read_utf8

INDENTED_FENCE_RE = re.compile(r"^[ \t]+:{3,}")  # MyST closes a directive on it: text after it is Markdown
HOMOGLYPHS = str.maketrans("aceopxyk", "асеорхук")


def slugify(name: str) -> str:
    """A readable, stable, lowercase Cyrillic slug: «+Х (–Х) к атаке» → ``плюс-х-минус-х-к-атаке``."""
    s = name.lower().translate(HOMOGLYPHS)
    s = s.replace("+", " плюс ")
    s = re.sub(r"(^|[\s(])[–−-](?=\w)", r"\1 минус ", s)
    return re.sub(r"[^0-9a-zа-яё]+", "-", s).strip("-")


INTRO_SUFFIX = "вступление"
INTRO_NOTE = "Текст без номера в начале части; идентификатор дан импортом."
FRONT_SUFFIX = "заглавие"
FRONT_NOTE = (
    "Титульный лист, выходные данные и вступление источника — текст до его первой части; "
    "не правило, идентификатор дан импортом."
)
CONTENTS_SUFFIX = "содержание"
CONTENTS_NOTE = (
    "Оглавление источника: заголовки с номерами страниц; не правило и не варианты заголовков, "
    "идентификатор дан импортом."
)
DUPLICATE_SUFFIX = "повтор"
NOT_A_RULE = {
    FRONT_SUFFIX: "не правило: титул, выходные данные и вступление документа",
    CONTENTS_SUFFIX: "не правило: оглавление документа",
}


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
        self.duplicates: dict[str, str] = {}  # id given to a number the source prints twice -> note

    def place(self, line: SourceLine, what: str, detail: str = "") -> None:
        self.placements.append(Placement(line.source, line.number, line.text, what, detail))

    def rel(self, source: str) -> str:
        return source_rel(source)

    def run(self) -> ImportResult:
        paths = sorted(self.sources_dir.glob("*.txt"))
        if not paths:
            raise SourceError(self.sources_dir, None, "нет исходных текстов *.txt")
        for path in paths:
            text = read_utf8(path, self.rel(path.name))
            if not any(ch.isalnum() for ch in text):
                raise SourceError(
                    self.rel(path.name),
                    None,
                    "в файле нет текста правил: он пуст или в нём только пробелы и «|»",
                )
            self.read_source(path.name, classify(path.name, text, contents=self.lenient))
        for key in self.editorial.decisions:
            if key not in self.used:
                raise SourceError(
                    self.editorial.path,
                    None,
                    f"решение для {key[0]}:{key[1]} не применено: строка пуста или её нет",
                )
        self.check_entries()
        layout = Layout(self.entries, self.part_titles, self.sequences, self.editorial, self.lenient)
        return ImportResult(layout.render(), self.placements)

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
        firsts_here: dict[str, VariantRec] = {}  # id -> its first variant in this source

        def close_gap(last: int) -> None:
            nonlocal gap_start
            if gap_start is not None:
                sequence.append(GapRec(source, gap_start, last))
                gap_start = None

        opening = next((x for x in lines if x.kind in ("gap", "part", "heading", "numbered")), None)
        # a full edition opens with its title page, credits, introduction (and contents) before Part N
        front_part = opening.part if opening is not None and opening.kind == "part" else None
        special: tuple[str, VariantRec] | None = None  # the front matter / contents run being read

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
                special = None
                continue
            if line.kind == "empty":
                continue
            for bad in (FENCE_OPEN_RE, FENCE_CLOSE_RE, OPTION_RE, INDENTED_FENCE_RE):
                if bad.match(line.body) or (bad is INDENTED_FENCE_RE and bad.match(line.text)):
                    raise SourceError(self.rel(source), line.number, "строка похожа на директиву корпуса")
            if self.lenient and decision is None:
                what = None
                if line.kind == "contents":
                    what = CONTENTS_SUFFIX
                elif front_part is not None and current_part is None and line.kind != "part":
                    what = FRONT_SUFFIX
                part = current_part if current_part is not None else front_part
                if what is not None and part is None and opening is not None and opening.printed:
                    part = part_of_id(number_of(opening.printed))
                if what is not None and part is not None:
                    if special is not None and special[0] == what:
                        special[1].lines.append(line.text)
                    else:
                        special = (what, self.front(source, line, part, what, sequence))
                    current = None
                    continue
            special = None
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
                if self.lenient and not looks_like_term(line.text):
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
                number_part = part_of_id(number_of(line.printed or ""))
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
            id = (decision.id if decision else None) or number_of(printed or "")
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
            repeated = id in firsts_here and " ".join(firsts_here[id].lines[0].split()) == " ".join(
                line.body.split()
            )  # the same paragraph printed again (a fragment repeated): one rule, two variants
            if id in ids_here and self.lenient and decision is None and line.printed and not repeated:
                first_line = ids_here[id]
                id = self.free_id(f"{id}.{DUPLICATE_SUFFIX}")
                self.duplicates[id] = (
                    f"Ошибка источника: номер {number_of(line.printed)} напечатан в нём второй раз "
                    f"(впервые — строка {first_line}); этот текст дан отдельно, идентификатор — импортом."
                )
                self.place(
                    line,
                    "duplicate",
                    f"номер {number_of(line.printed)} уже был в строке {first_line} этого источника — "
                    f"ошибка источника; текст записан как {id}",
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
            firsts_here.setdefault(id, current)
            entry = self.entries.get(id)
            if entry is None:
                entry = self.entries[id] = EntryRec(id, "rule", part, heading)
                if id in self.duplicates:
                    entry.notes.append(self.duplicates[id])
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

    def free_id(self, base: str) -> str:
        """``base``, or ``base-2``, ``base-3`` … — the first id no entry has yet."""
        id, number = base, 2
        while id in self.entries:
            id, number = f"{base}-{number}", number + 1
        return id

    def front(
        self, source: str, line: SourceLine, part: int, what: str, sequence: list[object]
    ) -> VariantRec:
        """Front matter (``N.заглавие``) or a table of contents (``N.содержание``): a new entry of its
        own for each run of such lines, so that neither becomes a rule or a variant of a heading."""
        id = self.free_id(f"{part}.{what}")
        note = FRONT_NOTE if what == FRONT_SUFFIX else CONTENTS_NOTE
        variant = VariantRec(source, line.number, None, [line.text])
        entry = self.entries[id] = EntryRec(
            id, "rule", part, notes=[note], declared_inferred=True, untestable=NOT_A_RULE[what]
        )
        entry.variants.append(variant)
        sequence.append(id)
        if what == FRONT_SUFFIX:
            self.place(line, "front", f"начало документа до первой части ({id})")
        else:
            self.place(line, "contents", f"оглавление: заголовок с номером страницы ({id})")
        return variant

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
            numbers = {number_of(v.printed) for v in entry.variants if v.printed}
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
