"""The rule corpus: model and strict loader of ``rules/*.md``.

The corpus files are MyST Markdown written in our own small directive format (see
``notes/contract.md``). This module parses that format line by line; it does not use MyST.

Grammar (line based):

* an opening fence ``:::{name} arg`` (three or more colons; a nested directive uses fewer colons
  than its parent), followed directly by option lines ``:opt: value`` (or a bare flag ``:opt:``),
  then body lines, then a closing fence with exactly the same number of colons;
* outside directives only blank lines and ordinary Markdown text (e.g. the ``#`` page title) are
  allowed; a line starting with ``:`` there is an error (a broken fence or a stray option).

Directives: ``part`` (title of a Part as printed), ``rule``, ``term`` (glossary), ``variant``
(one source's wording of a part/rule/term), ``gap`` (``|`` lines of a source) and
``interpretation``. Every format error raises :class:`SourceError` with file and line.

Variant order inside an entry: by source file name, then by line (000, 001, 002, 003).
"""

from __future__ import annotations

import difflib
import os
import re
import sys
from dataclasses import asdict, dataclass, field, replace
from pathlib import Path
from typing import Any

from berserk_rules.errors import SourceError, UserError

HEADING_UNTESTABLE = "заголовок раздела"
GLOSSARY_PART = 7

ID_RE = re.compile(r"^[0-9a-zа-яё]+(?:[.\-][0-9a-zа-яё]+)*$")
NUMERIC_ID_RE = re.compile(r"^\d+(?:\.\d+)*$")
PRINTED_RE = re.compile(r"^\d+(?:\. ?\d+)*\.?$")
PART_FILE_RE = re.compile(r"^part-(\d+)\.md$")
FENCE_OPEN_RE = re.compile(r"^(?P<colons>:{3,})\{(?P<name>[^}]*)\}(?:[ \t]+(?P<arg>.*?))?[ \t]*$")
FENCE_CLOSE_RE = re.compile(r"^(?P<colons>:{3,})[ \t]*$")
OPTION_RE = re.compile(r"^:(?P<name>[a-z][a-z_-]*):(?:[ \t]+(?P<value>.*?))?[ \t]*$")
GAP_LINE_RE = re.compile(r"^[ \t]*\|[ \t]*$")
LINES_RE = re.compile(r"^(\d+)(?:-(\d+))?$")

FLAG_OPTIONS = frozenset({"heading", "inferred", "nospace"})
VARIANT_OPTIONS = {
    "rule": frozenset({"source", "line", "printed", "nospace"}),
    "term": frozenset({"source", "line", "nospace"}),
    "part": frozenset({"source", "line"}),
}
ENTRY_OPTIONS = {
    "rule": frozenset({"heading", "inferred", "note", "untestable"}),
    "term": frozenset({"name", "note", "untestable"}),
    "part": frozenset(),
}
OTHER_OPTIONS = {
    "gap": frozenset({"source", "lines"}),
    "interpretation": frozenset({"rules", "title"}),
}
KNOWN_DIRECTIVES = ("part", "rule", "term", "variant", "gap", "interpretation")


# ---------------------------------------------------------------------------------------------
# Model


@dataclass(frozen=True)
class Variant:
    source: str  # "000_eeef2598edc2143d.txt"
    line: int  # 1-based line in the source
    printed: str | None  # number as printed incl. the following space ("401.7. "), None if none
    number: str | None  # normalized number printed by this source ("315.1") or None
    lines: tuple[str, ...]  # body lines verbatim
    text: str  # "\n".join of non-example lines
    examples: tuple[str, ...]  # lines starting with ПРИМЕР
    prefix: str = ""  # exact text before lines[0] on the source line ("401.7. ", "Герой.", "")


@dataclass(frozen=True)
class Entry:
    id: str
    kind: str  # "rule" | "term"
    part: int  # 1..7 (7 = glossary)
    number: str | None
    inferred: bool
    heading: bool
    title: str | None
    text: str
    variants: tuple[Variant, ...]
    section: str | None
    note: str | None
    untestable: str | None
    file: str  # "rules/part-4.md"
    line: int  # line of the directive in that file

    @property
    def sources(self) -> tuple[str, ...]:
        return tuple(v.source for v in self.variants)


@dataclass(frozen=True)
class Interpretation:
    id: str
    title: str
    rules: tuple[str, ...]
    text: str
    file: str
    line: int


@dataclass(frozen=True)
class Gap:
    """An extraction gap: lines ``first..last`` of ``source`` hold only ``|``."""

    source: str
    first: int
    last: int
    file: str
    line: int


@dataclass
class Corpus:
    entries: list[Entry]
    parts: dict[int, list[Variant]]  # part titles as printed, per part
    interpretations: dict[str, Interpretation]
    titles: dict[int, str] = field(default_factory=dict)  # page H1 per part (editorial)
    gaps: list[Gap] = field(default_factory=list)
    part_lines: dict[int, tuple[str, int]] = field(default_factory=dict)  # part -> (file, line)

    def __post_init__(self) -> None:
        self._by_id = {e.id: e for e in self.entries}

    def alias(self, id: str) -> tuple[Entry, str] | None:
        """The entry a number printed by one source stands for, when the corpus files it under
        another number (315.1 of source 001 is 310.1), with that source's name."""
        if id in self._by_id:
            return None
        for e in self.entries:
            for v in e.variants:
                if v.number == id and e.id != id:
                    return e, v.source
        return None

    def get(self, id: str) -> Entry:
        entry = self._by_id.get(id)
        if entry is not None:
            return entry
        for e in self.entries:
            if e.kind == "term" and e.title and e.title.casefold() == id.casefold():
                return e
        hints = [
            f"номер {id} напечатан в {v.source} — в корпусе это {e.id}"
            for e in self.entries
            for v in e.variants
            if v.number == id
        ]
        close = difflib.get_close_matches(id, list(self._by_id), n=5, cutoff=0.6)
        message = f"нет правила или термина «{id}»"
        if hints:
            message += "; " + "; ".join(hints)
        if close:
            message += "; похожие: " + ", ".join(close)
        raise UserError(message)

    def rules(self, part: int | None = None) -> list[Entry]:
        return [e for e in self.entries if e.kind == "rule" and (part is None or e.part == part)]

    def terms(self) -> list[Entry]:
        return [e for e in self.entries if e.kind == "term"]

    def to_json(self) -> list[dict]:
        """Every entry, each Part preceded by its heading (kind ``part``, with its variants), so the
        list holds every text line of the sources."""
        result = []
        parts_done: set[int] = set()
        for e in self.entries:
            if e.part not in parts_done:
                parts_done.add(e.part)
                if self.parts.get(e.part):
                    result.append(self._part_json(e.part))
            item: dict[str, Any] = {
                "id": e.id,
                "kind": e.kind,
                "part": e.part,
                "number": e.number,
                "inferred": e.inferred,
                "heading": e.heading,
                "title": e.title,
                "text": e.text,
                "source": e.variants[0].source,
                "section": e.section,
                "note": e.note,
                "untestable": e.untestable,
                "file": e.file,
                "line": e.line,
                "sources": list(e.sources),
                "variants": [],
            }
            for v in e.variants:
                data = asdict(v)
                data["lines"] = list(v.lines)
                data["examples"] = list(v.examples)
                item["variants"].append(data)
            result.append(item)
        return result

    def _part_json(self, part: int) -> dict:
        variants = self.parts[part]
        file, line = self.part_lines.get(part, ("", 0))
        first = variants[0]
        return {
            "id": f"часть-{part}",
            "kind": "part",
            "part": part,
            "number": str(part),
            "inferred": False,
            "heading": True,
            "title": first.text,
            "text": first.text,
            "source": first.source,
            "section": None,
            "note": None,
            "untestable": None,
            "file": file,
            "line": line,
            "sources": [v.source for v in variants],
            "variants": [
                {**asdict(v), "lines": list(v.lines), "examples": list(v.examples)} for v in variants
            ],
        }


# ---------------------------------------------------------------------------------------------
# Helpers


def normalize_number(printed: str) -> str:
    """``"201. 1."`` → ``"201.1"``, ``"401.8"`` → ``"401.8"``."""
    return printed.replace(" ", "").rstrip(".")


def part_of_id(id: str) -> int | None:
    """Part of a rule id: ``401.7`` → 4, ``119.8`` → 1, ``5.замещение.1`` → 5."""
    head = id.split(".", 1)[0]
    if not head.isdigit():
        return None
    if len(head) >= 3:
        return int(head[:-2])
    if len(head) == 1:
        return int(head)
    return None


def read_utf8(path: Path, shown: str | Path | None = None, what: str = "файл", plain: bool = False) -> str:
    """The text of a UTF-8 file; an unreadable or non-UTF-8 file raises :class:`SourceError`.

    ``shown`` is the name used in the message (default ``path``); ``what`` names the file's role
    («файл результатов»). A bad byte is reported at its line, with the OS message in Russian.
    ``plain``: the file is one of our line-based texts (a feature, a corpus page): a byte order
    mark or CRLF line endings (a Windows clone) are errors too, since they change what the
    parsers see (a BOM hides «# language: ru»; a CR ends up in rule text).
    """
    shown = str(shown if shown is not None else path)
    try:
        data = path.read_bytes()
    except IsADirectoryError:
        raise SourceError(shown, None, f"{what}: это папка, а не файл") from None
    except FileNotFoundError:
        raise SourceError(shown, None, f"{what}: нет такого файла") from None
    except PermissionError:
        raise SourceError(shown, None, f"{what}: нет прав на чтение") from None
    except OSError as exc:
        raise SourceError(shown, None, f"{what}: не удалось прочитать ({exc.strerror or exc})") from None
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = data[: exc.start].count(b"\n") + 1
        column = exc.start - (data.rfind(b"\n", 0, exc.start) + 1) + 1
        raise SourceError(
            shown,
            line,
            f"{what} не в кодировке UTF-8: недопустимый байт 0x{data[exc.start]:02x} "
            f"в позиции {column} строки (сохраните файл в UTF-8)",
        ) from None
    if plain:
        _check_plain(text, shown, what)
    return text


def _check_plain(text: str, shown: str, what: str) -> None:
    """A BOM or a carriage return in a line-based text: :class:`SourceError` at its line."""
    if text.startswith("\ufeff"):
        raise SourceError(
            shown, 1, f"{what} начинается с метки порядка байтов (BOM): сохраните его в UTF-8 без BOM"
        )
    index = text.find("\r")
    if index >= 0:
        line = text.count("\n", 0, index) + 1
        ending = "CRLF (Windows)" if text.startswith("\r\n", index) else "CR"
        raise SourceError(
            shown,
            line,
            f"{what}: строки кончаются на {ending}; нужны окончания LF "
            "(в клоне для Windows: git config core.autocrlf input и заново извлеките файлы)",
        )


def toml_error(shown: str | Path, exc: Exception) -> SourceError:
    """A :class:`SourceError` at the line named by a ``tomllib.TOMLDecodeError``."""
    message = str(exc)
    found = re.search(r"\(at line (\d+), column (\d+)\)$", message)
    line = int(found[1]) if found else None
    if found:
        message = message[: found.start()].rstrip() + f" (позиция {found[2]})"
    return SourceError(shown, line, f"некорректный TOML: {message}")


PROJECT_TABLE = "[tool.berserk-rules]"
_FALLBACK_NOTED: set[Path] = set()


def _is_project(folder: Path) -> bool:
    """A berserk-rules project: pyproject.toml with a [tool.berserk-rules] table, or beside rules/."""
    pyproject = folder / "pyproject.toml"
    if not pyproject.is_file():
        return False
    if (folder / "rules").is_dir():
        return True
    try:
        return PROJECT_TABLE in pyproject.read_text(encoding="utf-8", errors="replace")
    except OSError:
        return False


def project_root() -> Path:
    """The project folder: upward from the current folder, the first berserk-rules project.

    A project is a folder with ``pyproject.toml`` that has a ``[tool.berserk-rules]`` table or a
    ``rules/`` folder beside it; a project missing ``rules/`` or ``features/`` is then an error
    where it is used, never a silent switch to another checkout. Only when the current folder is
    in no project at all (an engine author running the suite from their own folder) is the
    checkout this package was installed from used, and that is said once on stderr.
    """
    cwd = Path.cwd().resolve()
    for folder in (cwd, *cwd.parents):
        if _is_project(folder):
            return folder
    package = Path(__file__).resolve().parent
    for folder in package.parents:
        if _is_project(folder):
            if folder not in _FALLBACK_NOTED:
                _FALLBACK_NOTED.add(folder)
                print(
                    f"berserk-rules: {cwd} — не в проекте berserk-rules; используется проект {folder}",
                    file=sys.stderr,
                )
            return folder
    raise UserError(f"не найден проект berserk-rules (папка с pyproject.toml и rules/) ни в {cwd}, ни выше")


# ---------------------------------------------------------------------------------------------
# Line-based directive parser


@dataclass
class _Block:
    name: str
    arg: str
    colons: int
    line: int
    options: dict[str, tuple[str | None, int]] = field(default_factory=dict)
    body: list[tuple[str, int]] = field(default_factory=list)
    children: list[_Block] = field(default_factory=list)
    in_options: bool = True


def _parse_blocks(path: str, text: str) -> tuple[list[_Block], list[tuple[str, int]]]:
    """Split a file into top-level blocks and outside lines (text outside any directive)."""
    lines = text.split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    top: list[_Block] = []
    outside: list[tuple[str, int]] = []
    stack: list[_Block] = []
    for number, raw in enumerate(lines, 1):
        opened = FENCE_OPEN_RE.match(raw)
        if opened:
            name = opened["name"]
            if name not in KNOWN_DIRECTIVES:
                raise SourceError(
                    path,
                    number,
                    f"неизвестная директива {{{name}}}; допустимы: " + ", ".join(KNOWN_DIRECTIVES),
                )
            block = _Block(name, (opened["arg"] or "").strip(), len(opened["colons"]), number)
            if stack:
                parent = stack[-1]
                if block.colons >= parent.colons:
                    raise SourceError(
                        path,
                        number,
                        f"директива {{{name}}} внутри {{{parent.name}}} (строка {parent.line}) должна "
                        f"открываться меньшим числом двоеточий, чем {parent.colons} "
                        f"(или {{{parent.name}}} из строки {parent.line} не закрыта строкой "
                        f"{':' * parent.colons})",
                    )
                if parent.body:
                    raise SourceError(
                        path, number, f"в {{{parent.name}}} смешаны текст и вложенные директивы"
                    )
                parent.in_options = False
                parent.children.append(block)
            else:
                top.append(block)
            stack.append(block)
            continue
        closed = FENCE_CLOSE_RE.match(raw)
        if closed:
            if not stack:
                raise SourceError(path, number, "закрывающая строка без открытой директивы")
            block = stack[-1]
            if len(closed["colons"]) != block.colons:
                raise SourceError(
                    path,
                    number,
                    f"директива {{{block.name}}} (строка {block.line}) закрывается "
                    f"{block.colons} двоеточиями, а здесь {len(closed['colons'])}",
                )
            stack.pop()
            continue
        if not stack:
            if raw.startswith(":"):
                raise SourceError(path, number, f"строка вне директивы начинается с «:»: {raw!r}")
            outside.append((raw, number))
            continue
        block = stack[-1]
        option = OPTION_RE.match(raw)
        if option and block.in_options:
            name = option["name"]
            if name in block.options:
                raise SourceError(path, number, f"опция :{name}: повторяется")
            block.options[name] = (option["value"], number)
            continue
        if option:
            raise SourceError(
                path, number, f"опция :{option['name']}: должна стоять сразу после открывающей строки"
            )
        block.in_options = False
        if block.children and raw.strip():
            raise SourceError(path, number, f"в {{{block.name}}} смешаны текст и вложенные директивы")
        block.body.append((raw, number))
    if stack:
        block = stack[-1]
        raise SourceError(path, block.line, f"директива {{{block.name}}} не закрыта")
    return top, outside


class _FileLoader:
    def __init__(self, root: Path, path: Path, sources: set[str] | None) -> None:
        self.root = root
        self.path = path
        self.rel = path.relative_to(root).as_posix()
        self.sources = sources

    def error(self, line: int, message: str) -> SourceError:
        return SourceError(self.rel, line, message)

    def check_options(self, block: _Block, allowed: frozenset[str]) -> None:
        for name, (value, line) in block.options.items():
            if name not in allowed:
                where = f"в {{{block.name}}}"
                hint = ", ".join(f":{o}:" for o in sorted(allowed)) or "нет"
                raise self.error(line, f"неизвестная опция :{name}: {where}; допустимы: {hint}")
            if name in FLAG_OPTIONS and value:
                raise self.error(line, f"опция :{name}: — флаг, у неё не бывает значения")
            if name not in FLAG_OPTIONS and not value:
                raise self.error(line, f"у опции :{name}: нет значения")

    def value(self, block: _Block, name: str, required: bool = False) -> str | None:
        if name in block.options:
            return block.options[name][0]
        if required:
            raise self.error(block.line, f"в {{{block.name}}} нет обязательной опции :{name}:")
        return None

    def positive_int(self, block: _Block, name: str) -> int:
        text = self.value(block, name, required=True)
        assert text is not None
        if not text.isdigit() or int(text) < 1:
            raise self.error(block.options[name][1], f"неверный номер строки в :{name}: «{text}»")
        return int(text)

    def source(self, block: _Block) -> str:
        name = self.value(block, "source", required=True)
        assert name is not None
        if self.sources is not None and name not in self.sources:
            raise self.error(
                block.options["source"][1], f"неизвестный источник «{name}» (нет в rules/sources)"
            )
        return name

    def body_lines(self, block: _Block) -> tuple[str, ...]:
        if not block.body:
            raise self.error(block.line, f"у {{{block.name}}} нет текста")
        for raw, line in block.body:
            if not raw.strip():
                raise self.error(line, "пустая строка в тексте: одна строка источника — одна строка тела")
        return tuple(raw for raw, _ in block.body)

    def variant(self, block: _Block, kind: str, name: str | None) -> Variant:
        source = self.source(block)
        line = self.positive_int(block, "line")
        printed = self.value(block, "printed")
        nospace = "nospace" in block.options
        number = None
        if printed is not None:
            if not PRINTED_RE.match(printed):
                raise self.error(block.options["printed"][1], f"неверный номер в :printed: «{printed}»")
            number = normalize_number(printed)
            printed = printed + ("" if nospace else " ")
            prefix = printed
        elif kind == "term":
            prefix = f"{name}." + ("" if nospace else " ")
        elif nospace:
            raise self.error(block.options["nospace"][1], "опция :nospace: бывает только вместе с :printed:")
        else:
            prefix = ""
        lines = self.body_lines(block)
        examples = tuple(x for x in lines if x.startswith("ПРИМЕР"))
        text = "\n".join(x for x in lines if not x.startswith("ПРИМЕР"))
        return Variant(source, line, printed, number, lines, text, examples, prefix)

    def variants(self, block: _Block, kind: str, name: str | None = None) -> tuple[Variant, ...]:
        if block.children:
            self.check_options(block, ENTRY_OPTIONS[kind])
            result = []
            for child in block.children:
                if child.name != "variant":
                    raise self.error(child.line, f"внутри {{{block.name}}} допустимы только {{variant}}")
                if child.children:
                    raise self.error(child.children[0].line, "{variant} не может содержать директив")
                if child.arg:
                    raise self.error(child.line, "у {variant} не бывает аргумента")
                self.check_options(child, VARIANT_OPTIONS[kind])
                result.append(self.variant(child, kind, name))
        else:
            self.check_options(block, ENTRY_OPTIONS[kind] | VARIANT_OPTIONS[kind])
            result = [self.variant(block, kind, name)]
        keys = [(v.source, v.line) for v in result]
        if keys != sorted(keys):
            raise self.error(
                block.line, "варианты должны идти по порядку: по имени источника, затем по строке"
            )
        if len(set(keys)) != len(keys):
            raise self.error(block.line, "два варианта ссылаются на одну и ту же строку источника")
        return tuple(result)

    def entry(self, block: _Block, kind: str, file_part: int) -> Entry:
        id = block.arg
        if not ID_RE.match(id):
            raise self.error(block.line, f"неверный идентификатор {{{kind}}} «{id}»")
        name = None
        if kind == "term":
            self.check_options(block, ENTRY_OPTIONS["term"] | VARIANT_OPTIONS["term"])
            name = self.value(block, "name", required=True)
            part = GLOSSARY_PART
        else:
            found = part_of_id(id)
            if found is None:
                raise self.error(block.line, f"по номеру «{id}» нельзя определить часть")
            if found != file_part:
                raise self.error(
                    block.line, f"правило {id} относится к части {found}, а файл — к части {file_part}"
                )
            part = found
        variants = self.variants(block, kind, name)
        heading = "heading" in block.options
        note = self.value(block, "note")
        untestable = self.value(block, "untestable")
        if heading and untestable is None:
            untestable = HEADING_UNTESTABLE
        number = None
        inferred = False
        if kind == "rule":
            numbers = {v.number for v in variants if v.number}
            number = id if id in numbers else None
            inferred = number is None
            if inferred and "inferred" not in block.options:
                raise self.error(
                    block.line, f"номер {id} не напечатан ни в одном источнике — нужна опция :inferred:"
                )
            if not inferred and "inferred" in block.options:
                raise self.error(
                    block.options["inferred"][1], f"лишняя опция :inferred:: номер {id} напечатан"
                )
            if inferred and not note:
                raise self.error(block.line, f"у восстановленного номера {id} нет :note: с пояснением")
            if numbers - {id} and not note:
                raise self.error(
                    block.line,
                    f"номер в источнике ({', '.join(sorted(numbers - {id}))}) "
                    f"отличается от {id}: нужна :note: с пояснением",
                )
        title = name if kind == "term" else (variants[0].text if heading else None)
        return Entry(
            id=id,
            kind=kind,
            part=part,
            number=number,
            inferred=inferred,
            heading=heading,
            title=title,
            text=variants[0].text,
            variants=variants,
            section=None,
            note=note,
            untestable=untestable,
            file=self.rel,
            line=block.line,
        )

    def gap(self, block: _Block) -> Gap:
        self.check_options(block, OTHER_OPTIONS["gap"])
        if block.body or block.children or block.arg:
            raise self.error(block.line, "у {gap} не бывает аргумента и текста")
        source = self.source(block)
        spec = self.value(block, "lines", required=True)
        assert spec is not None
        match = LINES_RE.match(spec)
        first, last = (int(match[1]), int(match[2] or match[1])) if match else (0, 0)
        if not match or first < 1 or last < first:
            raise self.error(block.options["lines"][1], f"неверный диапазон строк в :lines: «{spec}»")
        return Gap(source, first, last, self.rel, block.line)

    def interpretation(self, block: _Block) -> Interpretation:
        self.check_options(block, OTHER_OPTIONS["interpretation"])
        if block.children:
            raise self.error(block.children[0].line, "{interpretation} не может содержать директив")
        if not re.match(r"^I-\d+$", block.arg):
            raise self.error(block.line, f"неверный номер толкования «{block.arg}» (ожидается I-N)")
        title = self.value(block, "title", required=True)
        rules_text = self.value(block, "rules", required=True)
        assert title is not None and rules_text is not None
        rules = tuple(x.strip() for x in rules_text.split(","))
        if any(not x for x in rules):
            raise self.error(block.options["rules"][1], f"неверный список в :rules: «{rules_text}»")
        body = [raw for raw, _ in block.body]
        text = "\n".join(body).strip("\n")
        if not text.strip():
            raise self.error(block.line, f"у толкования {block.arg} нет текста")
        return Interpretation(block.arg, title, rules, text, self.rel, block.line)


# ---------------------------------------------------------------------------------------------
# Loading


_CACHE: dict[tuple, Corpus] = {}


def _corpus_files(rules_dir: Path) -> list[tuple[Path, str, int | None]]:
    files: list[tuple[Path, str, int | None]] = []
    parts = []
    for path in rules_dir.glob("part-*.md"):
        match = PART_FILE_RE.match(path.name)
        if not match:
            raise SourceError(path, None, "имя файла части должно быть part-N.md")
        parts.append((int(match[1]), path))
    for number, path in sorted(parts):
        files.append((path, "part", number))
    if (rules_dir / "glossary.md").is_file():
        files.append((rules_dir / "glossary.md", "glossary", GLOSSARY_PART))
    if (rules_dir / "interpretations.md").is_file():
        files.append((rules_dir / "interpretations.md", "interpretations", None))
    return files


def load_corpus(root: Path | None = None) -> Corpus:
    """Load ``rules/*.md`` of the project at ``root`` (default: :func:`project_root`). Cached."""
    root = (root or project_root()).resolve()
    rules_dir = root / "rules"
    if not rules_dir.is_dir():
        raise UserError(f"нет папки с корпусом: {rules_dir}")
    files = _corpus_files(rules_dir)
    key = (str(root), *((str(p), os.stat(p).st_mtime_ns, os.stat(p).st_size) for p, _, _ in files))
    if key not in _CACHE:
        _CACHE.clear()
        _CACHE[key] = _load(root, files)
    return _CACHE[key]


def _load(root: Path, files: list[tuple[Path, str, int | None]]) -> Corpus:
    sources_dir = root / "rules" / "sources"
    sources = {p.name for p in sources_dir.glob("*.txt")} if sources_dir.is_dir() else None
    entries: list[Entry] = []
    parts: dict[int, list[Variant]] = {}
    part_lines: dict[int, tuple[str, int]] = {}
    titles: dict[int, str] = {}
    gaps: list[Gap] = []
    interpretations: dict[str, Interpretation] = {}
    where: dict[str, tuple[str, int]] = {}
    interpretation_refs: list[tuple[Interpretation, int]] = []

    for path, kind, part in files:
        loader = _FileLoader(root, path, sources)
        blocks, outside = _parse_blocks(loader.rel, read_utf8(path, loader.rel, plain=True))
        if part is not None:
            parts.setdefault(part, [])
            for raw, _ in outside:
                if raw.startswith("# "):
                    titles.setdefault(part, raw[2:].strip())
        for block in blocks:
            if block.name == "variant":
                raise loader.error(block.line, "{variant} допустим только внутри {part}, {rule} или {term}")
            if kind == "interpretations":
                if block.name != "interpretation":
                    raise loader.error(block.line, f"в {loader.rel} допустимы только {{interpretation}}")
                item = loader.interpretation(block)
                if item.id in interpretations:
                    other = interpretations[item.id]
                    raise loader.error(
                        block.line, f"толкование {item.id} уже есть ({other.file}:{other.line})"
                    )
                interpretations[item.id] = item
                interpretation_refs.append((item, block.options["rules"][1]))
                continue
            assert part is not None
            if block.name == "interpretation":
                raise loader.error(block.line, "{interpretation} допустим только в rules/interpretations.md")
            if block.name == "gap":
                gaps.append(loader.gap(block))
            elif block.name == "part":
                if block.arg != str(part):
                    raise loader.error(block.line, f"{{part}} «{block.arg}» в файле части {part}")
                if part in part_lines:
                    raise loader.error(block.line, f"заголовок части {part} уже задан")
                parts[part] = list(loader.variants(block, "part"))
                part_lines[part] = (loader.rel, block.line)
            else:
                expected = "term" if kind == "glossary" else "rule"
                if block.name != expected:
                    raise loader.error(block.line, f"{{{block.name}}} не допустим в {loader.rel}")
                entry = loader.entry(block, expected, part)
                if entry.id in where:
                    file, line = where[entry.id]
                    raise loader.error(
                        block.line, f"повторяется идентификатор {entry.id} (уже есть в {file}:{line})"
                    )
                where[entry.id] = (entry.file, entry.line)
                entries.append(entry)

    headings = {e.id for e in entries if e.kind == "rule" and e.heading}
    final = []
    for e in entries:
        head = e.id.split(".", 1)[0]
        section = head if e.kind == "rule" and head != e.id and head in headings else None
        final.append(replace(e, section=section))
    for item, line in interpretation_refs:
        for ref in item.rules:
            if ref not in where:
                raise SourceError(
                    item.file, line, f"толкование {item.id} ссылается на неизвестное правило «{ref}»"
                )
    return Corpus(final, parts, interpretations, titles, gaps, part_lines)


# ---------------------------------------------------------------------------------------------
# Fidelity: the corpus reproduces the source texts exactly


def _source_lines(path: Path) -> list[str]:
    lines = read_utf8(path).split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    return lines


def check_fidelity(corpus: Corpus, sources_dir: Path) -> list[str]:
    """Compare the corpus with the source texts; return problems (empty list = exact).

    Every non-empty line of every source must be reproduced character for character by exactly
    one corpus place (a variant of a part title, rule or term; ``|`` lines by a ``{gap}``), and
    every corpus line must come from a source line. Blank source lines are not text: a variant's
    following body lines match the following non-blank source lines.
    """
    problems: list[str] = []
    texts = {p.name: _source_lines(p) for p in sorted(Path(sources_dir).glob("*.txt"))}
    claimed: dict[tuple[str, int], str] = {}

    def claim(source: str, line: int, place: str) -> None:
        if (source, line) in claimed:
            problems.append(f"{place}: строка {source}:{line} уже взята ({claimed[(source, line)]})")
        else:
            claimed[(source, line)] = place

    def check_variant(v: Variant, place: str) -> None:
        lines = texts.get(v.source)
        if lines is None:
            problems.append(f"{place}: нет источника {v.source}")
            return
        index = v.line - 1
        for k, body in enumerate(v.lines):
            expected_text = (v.prefix if k == 0 else "") + body
            if k > 0:
                while index < len(lines) and lines[index].strip() == "":
                    index += 1
            if index >= len(lines):
                problems.append(f"{place}: строка {k + 1} тела вне источника {v.source} ({len(lines)} строк)")
                return
            actual = lines[index]
            if actual != expected_text:
                problems.append(
                    f"{place}: не совпадает с {v.source}:{index + 1}: в источнике «{actual}», "
                    f"в корпусе «{expected_text}»"
                )
            elif GAP_LINE_RE.match(actual):
                problems.append(f"{place}: строка {v.source}:{index + 1} — пропуск «|», а не текст")
            claim(v.source, index + 1, place)
            index += 1

    for part, variants in sorted(corpus.parts.items()):
        file, line = corpus.part_lines.get(part, ("?", 0))
        for v in variants:
            check_variant(v, f"{file}:{line}: часть {part}")
    for e in corpus.entries:
        for v in e.variants:
            check_variant(v, f"{e.file}:{e.line}: {e.id}")
    for g in corpus.gaps:
        place = f"{g.file}:{g.line}: {{gap}}"
        lines = texts.get(g.source)
        if lines is None:
            problems.append(f"{place}: нет источника {g.source}")
            continue
        for number in range(g.first, g.last + 1):
            if number > len(lines):
                problems.append(f"{place}: строка {number} вне источника {g.source}")
            elif not GAP_LINE_RE.match(lines[number - 1]):
                problems.append(f"{place}: {g.source}:{number} — не пропуск «|»: «{lines[number - 1]}»")
            else:
                claim(g.source, number, place)
    for name, lines in texts.items():
        for number, text in enumerate(lines, 1):
            if text.strip() and (name, number) not in claimed:
                problems.append(f"{name}:{number}: строка источника не попала в корпус: «{text}»")
    return problems
