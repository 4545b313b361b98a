"""Editions of the rules: import any edition's plain text into its own corpus, compare two editions.

An edition lives in its own folder, apart from the project's ``rules/``::

    DIR/edition.toml          name of the edition and the files it was imported from
    DIR/rules/sources/*.txt   the input texts, byte for byte
    DIR/rules/editorial.toml  editorial decisions (the only file a person edits; optional)
    DIR/rules/part-N.md, DIR/rules/glossary.md   the corpus, written by the import

``berserk-rules import --edition NAME --out DIR FILE…`` runs the importer in its lenient mode
(:class:`~berserk_rules.importer.reader.Importer`): unnumbered paragraphs join the rule before them, text
before a Part's first rule becomes its introduction, and every line it could not place is
reported; then the fidelity check proves that every non-empty input line is in the corpus.
``berserk-rules site --corpus DIR`` builds that edition's site; ``berserk-rules compare A B`` lists
the rules added, removed and changed between two corpora, with the words that changed.

The project's scenarios were written for the project's own text (``rules/``). On an edition's site
they attach to a rule of the edition only when that rule's text is the text they were written for
(:func:`foreign_entries`): compared with the project's text under the same number, whitespace,
typography and Markdown escapes aside; a rule with several source variants matches if any variant
matches. Otherwise they are shown as written for another text, with the word diff — never as a
verdict on this one.
"""

from __future__ import annotations

import difflib
import re
import shutil
import tomllib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from berserk_rules.corpus import load_corpus
from berserk_rules.corpus.fidelity import check_fidelity
from berserk_rules.corpus.model import Corpus
from berserk_rules.corpus.syntax import outside_lines
from berserk_rules.errors import SourceError, UserError
from berserk_rules.importer import write_files
from berserk_rules.importer.editorial import load_editorial
from berserk_rules.importer.reader import Importer
from berserk_rules.importer.records import Placement
from berserk_rules.rulebook.project import read_utf8, toml_error

EDITION_FILE = "edition.toml"
CONTROL_RE = re.compile(r"[\x00-\x1f\x7f\x85\u2028\u2029]")
EDITORIAL_TEMPLATE = """\
# Редакционные решения импорта редакции «{name}» — формат тот же, что у rules/editorial.toml
# основного свода: таблица на каждый входной файл, «номер строки = {{ … }}» с ключами id, heading,
# inferred, note, continuation; [titles] — заголовки частей, [slugs] — имена-ссылки терминов.
# Импорт сам присоединяет абзацы без номера к предыдущему правилу и сообщает о строках, которые
# не смог разместить: для них и нужны решения здесь. Например:
#
# ["{first}"]
# 1 = {{ id = "1.вступление", inferred = true, note = "Заголовок документа." }}
"""


@dataclass
class EditionReport:
    name: str
    out: Path
    sources: list[str]
    placements: list[Placement]
    fidelity: list[str]
    changed: list[str]
    entries: int = 0
    rules: int = 0
    terms: int = 0
    lines: int = 0

    @property
    def unplaced(self) -> list[Placement]:
        return [p for p in self.placements if p.what == "unplaced"]

    @property
    def ok(self) -> bool:
        return not self.unplaced and not self.fidelity

    def lines_of_report(self, limit: int = 50) -> list[str]:
        out = [
            f"редакция «{self.name}»: {self.out}",
            f"входных строк с текстом: {self.lines}; в корпусе: правил {self.rules}, терминов {self.terms}",
        ]
        groups = {
            "duplicate": "ОШИБКИ ИСТОЧНИКА: номер напечатан в источнике дважды, тексты разные "
            "(второй записан отдельно)",
            "front": "начало документа до первой части: титул, выходные данные, вступление (N.заглавие)",
            "contents": "оглавление: заголовки с номерами страниц (N.содержание), не варианты заголовков",
            "attached": "присоединены к предыдущей записи (абзацы без номера)",
            "intro": "вступления частей (текст до первого правила части)",
            "renamed": "термины с повторяющимся именем-ссылкой",
            "unplaced": "НЕ РАЗМЕЩЕНЫ (нужно решение в rules/editorial.toml редакции)",
        }
        for what, title in groups.items():
            items = [p for p in self.placements if p.what == what]
            if not items:
                continue
            out.append(f"{title}: {len(items)}")
            shown = items if what in ("unplaced", "duplicate") else items[:limit]
            for p in shown:
                text = p.text if len(p.text) <= 90 else p.text[:87] + "…"
                out.append(f"  {p.source}:{p.line}: {p.detail}: «{text}»")
            if len(shown) < len(items):
                out.append(f"  … ещё {len(items) - len(shown)}")
        if self.fidelity:
            out.append(f"проверка точности: расхождений {len(self.fidelity)}")
            out.extend("  " + problem for problem in self.fidelity[:limit])
            if len(self.fidelity) > limit:
                out.append(f"  … ещё {len(self.fidelity) - limit}")
        else:
            out.append("проверка точности: каждая непустая строка входа есть в корпусе, символ в символ")
        return out


def import_edition(name: str, files: list[Path], out: Path, editorial: Path | None = None) -> EditionReport:
    """Import the plain texts ``files`` as edition ``name`` into ``out`` (see the module docs)."""
    if not name.strip():
        raise UserError("--edition: нужно имя редакции")
    if CONTROL_RE.search(name):
        raise UserError(f"--edition {name!r}: в имени редакции перевод строки или другой управляющий символ")
    if not files:
        raise UserError("import --edition: нужны входные файлы с текстом правил")
    if out.exists() and not out.is_dir():
        raise UserError(f"--out {out}: это файл, а нужна папка редакции")
    rules = out / "rules"
    if (out / "pyproject.toml").exists():
        raise UserError(
            f"--out {out}: это папка проекта; редакции хранятся отдельно (например, editions/{name})"
        )
    sources = rules / "sources"
    names: list[str] = []
    for file in files:
        if not file.is_file():
            raise UserError(f"{file}: нет такого файла")
        text = read_utf8(file)  # a clear error for a non-UTF-8 input before anything is written
        if not any(ch.isalnum() for ch in text):
            raise UserError(
                f"{file}: в файле нет текста правил — он пуст или в нём только пробелы и «|»; "
                "редакция не импортирована"
            )
        target = file.stem + ".txt"
        if target in names:
            raise UserError(f"{file}: два входных файла с одним именем {target}")
        names.append(target)
    sources.mkdir(parents=True, exist_ok=True)
    for old in sources.glob("*.txt"):
        if old.name not in names:
            old.unlink()
    for file, target in zip(files, names, strict=True):
        data = file.read_bytes()
        path = sources / target
        if not path.is_file() or path.read_bytes() != data:
            path.write_bytes(data)
    editorial_path = editorial or rules / "editorial.toml"
    if editorial is None and not editorial_path.exists():
        editorial_path.write_text(EDITORIAL_TEMPLATE.format(name=name, first=names[0]), encoding="utf-8")
    elif editorial is not None and editorial.resolve() != (rules / "editorial.toml").resolve():
        if not editorial.is_file():
            raise UserError(f"--editorial {editorial}: нет такого файла")
        shutil.copyfile(editorial, rules / "editorial.toml")
    decisions = load_editorial(rules / "editorial.toml", str(rules / "editorial.toml"))
    result = Importer(sources, decisions, lenient=True).run()
    changed = write_files(result.files, rules)
    (out / EDITION_FILE).write_text(
        f'name = "{_toml_escape(name)}"\nfiles = [{", ".join(chr(34) + n + chr(34) for n in names)}]\n',
        encoding="utf-8",
    )
    corpus = load_corpus(out)
    problems = check_fidelity(corpus, sources)
    text_lines = sum(
        1
        for n in names
        for line in read_utf8(sources / n).split("\n")
        if line.strip() and line.strip() != "|"
    )
    return EditionReport(
        name=name,
        out=out,
        sources=names,
        placements=result.placements,
        fidelity=problems,
        changed=changed,
        entries=len(corpus.entries),
        rules=len(corpus.rules()),
        terms=len(corpus.terms()),
        lines=text_lines,
    )


def _toml_escape(text: str) -> str:
    return text.replace("\\", "\\\\").replace('"', '\\"')


def edition_name(folder: Path) -> str:
    """The name recorded in ``DIR/edition.toml`` (the folder name without one)."""
    path = folder / EDITION_FILE
    if not path.is_file():
        return folder.resolve().name
    try:
        data = tomllib.loads(read_utf8(path))
    except tomllib.TOMLDecodeError as exc:
        raise toml_error(path, exc) from None
    return str(data.get("name") or folder.name)


def load_edition(folder: Path, project: bool = False) -> Corpus:
    """The corpus of an edition's folder, checked to hold nothing but the corpus (:func:`check_plain`).

    ``project``: the folder may also be the project's root (``compare``, ``site --compare``: the
    main corpus, whose ``rules/interpretations.md`` is the project's own Markdown, is compared as
    text, never rendered from there)."""
    if not (folder / "rules").is_dir():
        raise UserError(
            f"{folder}: нет папки rules/ — это не папка редакции (berserk-rules import --edition …)"
        )
    try:
        corpus = load_corpus(folder)
        if not (project and is_project(folder)):
            check_plain(folder)
    except SourceError as exc:
        raise UserError(f"корпус редакции {folder}: {exc}") from None
    return corpus


def is_project(folder: Path) -> bool:
    """Is ``folder`` the root of this project (not an edition's folder)?"""
    from berserk_rules.rulebook.project import project_root

    try:
        return folder.resolve() == project_root().resolve()
    except UserError:
        return False


def check_plain(folder: Path) -> None:
    """An edition's corpus files hold nothing but the corpus: outside its directives, only blank
    lines and one ``# …`` title line per file (shown as text). Anything else — raw HTML, a
    Markdown or MyST block, a directive of another kind (``{raw}``, ``{eval-rst}``…) — is refused
    with its file and line: an edition's text reaches its site only as text."""
    rules = folder / "rules"
    for path in sorted(rules.glob("*.md")):
        rel = f"rules/{path.name}"
        titled = False
        for raw, line in outside_lines(path, rel):
            if not raw.strip():
                continue
            if raw.startswith("# ") and not titled:
                titled = True
                continue
            shown = raw if len(raw) <= 60 else raw[:57] + "…"
            raise SourceError(
                rel,
                line,
                "в папке редакции вне директив корпуса допустимы только заголовок «# …» и пустые "
                f"строки, а здесь «{shown}»",
            )


# --------------------------------------------------------------------------------------------
# Comparing two editions rule by rule


TOKEN_RE = re.compile(r"\w+|[^\w\s]")


@dataclass
class Change:
    id: str
    kind: str  # "added" | "removed" | "changed"
    title: str
    removed_words: list[str] = field(default_factory=list)
    added_words: list[str] = field(default_factory=list)
    old: str = ""
    new: str = ""

    def to_json(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "change": self.kind,
            "title": self.title,
            "removed_words": self.removed_words,
            "added_words": self.added_words,
            "old": self.old,
            "new": self.new,
        }


def entry_text(entry: Any) -> str:
    """The text compared between editions: the first variant's lines, examples included."""
    return "\n".join(entry.variants[0].lines) if entry.variants else ""


def word_changes(old: str, new: str) -> tuple[list[str], list[str]]:
    """Runs of words removed from ``old`` and added in ``new`` (each run joined by spaces)."""
    a, b = list(TOKEN_RE.finditer(old)), list(TOKEN_RE.finditer(new))

    def text(tokens: list[re.Match[str]], source: str, first: int, last: int) -> str:
        return " ".join(source[tokens[first].start() : tokens[last - 1].end()].split())

    removed: list[str] = []
    added: list[str] = []
    matcher = difflib.SequenceMatcher(a=[t.group() for t in a], b=[t.group() for t in b], autojunk=False)
    for op, i1, i2, j1, j2 in matcher.get_opcodes():
        if op in ("replace", "delete"):
            removed.append(text(a, old, i1, i2))
        if op in ("replace", "insert"):
            added.append(text(b, new, j1, j2))
    return removed, added


CHANGE_ORDER = {"changed": 0, "added": 1, "removed": 2}


def compare(old: Corpus, new: Corpus) -> list[Change]:
    """Rules and terms changed, then added, then removed from ``old`` to ``new`` — the changed and
    the added in the new edition's order, the removed in the old one's."""
    before = {(e.kind, e.id): e for e in old.entries}
    after = {(e.kind, e.id): e for e in new.entries}
    changes: list[Change] = []
    for key, entry in after.items():
        title = entry.title or entry.id
        if key not in before:
            changes.append(Change(entry.id, "added", title, new=entry_text(entry)))
            continue
        a, b = entry_text(before[key]), entry_text(entry)
        if a != b:
            removed, added = word_changes(a, b)
            changes.append(Change(entry.id, "changed", title, removed, added, a, b))
    for key, entry in before.items():
        if key not in after:
            changes.append(Change(entry.id, "removed", entry.title or entry.id, old=entry_text(entry)))
    return sorted(changes, key=lambda change: CHANGE_ORDER[change.kind])  # stable: order kept within


def word_diff(old: str, new: str, context: int = 10) -> list[tuple[str, str]]:
    """One text with the changes in place: ``(kind, words)`` pieces, ``kind`` one of ``same``,
    ``removed``, ``added`` and ``gap`` (a long unchanged stretch left out, ``…``); at most
    ``context`` unchanged words are kept on each side of a change."""
    a, b = old.split(), new.split()
    matcher = difflib.SequenceMatcher(a=a, b=b, autojunk=False)
    opcodes = matcher.get_opcodes()
    pieces: list[tuple[str, str]] = []
    for index, (op, i1, i2, j1, j2) in enumerate(opcodes):
        if op == "equal":
            words = a[i1:i2]
            first, last = index == 0, index == len(opcodes) - 1
            keep_head = 0 if first else context
            keep_tail = 0 if last else context
            if len(words) > keep_head + keep_tail + 3:
                if keep_head:
                    pieces.append(("same", " ".join(words[:keep_head])))
                pieces.append(("gap", "…"))
                if keep_tail:
                    pieces.append(("same", " ".join(words[-keep_tail:])))
            else:
                pieces.append(("same", " ".join(words)))
            continue
        if op in ("replace", "delete"):
            pieces.append(("removed", " ".join(a[i1:i2])))
        if op in ("replace", "insert"):
            pieces.append(("added", " ".join(b[j1:j2])))
    return pieces


def shortened(text: str, limit: int = 160) -> str:
    """The start of a text on one line, for the lists of added and removed rules."""
    one = " ".join(text.split())
    return one if len(one) <= limit else one[: limit - 1].rstrip() + "…"


def compare_lines(changes: list[Change], old_name: str, new_name: str) -> list[str]:
    counts = {k: sum(1 for c in changes if c.kind == k) for k in ("added", "removed", "changed")}
    out = [
        f"«{old_name}» → «{new_name}»: изменено {counts['changed']}, добавлено {counts['added']}, "
        f"удалено {counts['removed']}"
    ]
    names = {"added": "+", "removed": "-", "changed": "~"}
    for change in changes:
        line = f"{names[change.kind]} {change.id}"
        if change.kind == "changed":
            words = []
            if change.removed_words:
                words.append("было: " + " | ".join(change.removed_words))
            if change.added_words:
                words.append("стало: " + " | ".join(change.added_words))
            line += " — " + "; ".join(words)
        out.append(line)
    return out


# --------------------------------------------------------------------------------------------
# Which scenarios of the project belong to an edition's rule


TYPOGRAPHY = str.maketrans(
    {
        "«": '"',
        "»": '"',
        "“": '"',
        "”": '"',
        "„": '"',
        "‟": '"',
        "’": "'",
        "‘": "'",
        "—": "-",
        "–": "-",
        "‑": "-",
        "‐": "-",
        "−": "-",
        "…": "...",
        "\u00a0": " ",
        "\u202f": " ",
        "\u2009": " ",
        "\u00ad": None,  # soft hyphen
        "ё": "е",
        "Ё": "Е",
    }
)
ESCAPE_RE = re.compile(r"\\(?=[!-/:-@\[-`{-~])")


def normalized_text(text: str) -> str:
    """A rule's text for deciding whether two editions say the same: typography unified (quotes,
    dashes, «ё», non-breaking spaces, soft hyphens), Markdown escapes dropped, whitespace collapsed."""
    return " ".join(ESCAPE_RE.sub("", text).translate(TYPOGRAPHY).split())


def variant_texts(entry: Any) -> list[str]:
    """The text of each source variant of an entry (its lines, examples included, as one text)."""
    return [" ".join(v.lines) for v in entry.variants]


@dataclass(frozen=True)
class Foreign:
    """An entry of an edition whose text is not the text the project's scenarios were written for."""

    kind: str  # "rule" | "term"
    id: str
    ours: str  # the project's text under this id (the variant closest to the edition's)
    theirs: str  # the edition's text
    removed_words: tuple[str, ...]
    added_words: tuple[str, ...]
    moved_to: str | None = None  # the edition's entry whose text is the one the scenarios were written for


def same_text(ours: Any, theirs: Any) -> bool:
    """Does the edition's entry ``theirs`` say what the project's entry ``ours`` says? True when
    any variant of one equals any variant of the other after :func:`normalized_text`."""
    mine = {normalized_text(t) for t in variant_texts(ours)}
    return any(normalized_text(t) in mine for t in variant_texts(theirs))


def foreign_entries(edition: Corpus, project: Corpus) -> dict[tuple[str, str], Foreign]:
    """The edition's rules and terms that carry a number (or a term id) of the project's corpus but
    another text: {(kind, id): :class:`Foreign`}. The project's scenarios tagged with such an id
    were written for the other text and are no verdict on this one. ``moved_to``: the entry of the
    edition that has their text under another number (a renumbered rule), if any — shown, not
    attached: a scenario's steps may cite its number."""
    ours = {(e.kind, e.id): e for e in project.entries}
    by_text: dict[tuple[str, str], str] = {}  # (kind, normalized text) -> the edition's entry id
    for entry in edition.entries:
        for text in variant_texts(entry):
            by_text.setdefault((entry.kind, normalized_text(text)), entry.id)
    out: dict[tuple[str, str], Foreign] = {}
    for entry in edition.entries:
        mine = ours.get((entry.kind, entry.id))
        if mine is None or same_text(mine, entry):
            continue
        theirs = variant_texts(entry)[0] if entry.variants else ""
        candidates = variant_texts(mine) or [""]
        closest = max(
            candidates,
            key=lambda text: difflib.SequenceMatcher(
                a=text.split(), b=theirs.split(), autojunk=False
            ).ratio(),
        )
        removed, added = word_changes(closest, theirs)
        moved = [by_text.get((entry.kind, normalized_text(text))) for text in variant_texts(mine)]
        moved_to = next((m for m in moved if m and m != entry.id), None)
        out[(entry.kind, entry.id)] = Foreign(
            entry.kind, entry.id, closest, theirs, tuple(removed), tuple(added), moved_to
        )
    return out
