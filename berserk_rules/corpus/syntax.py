"""The corpus file format: its line-based directive grammar, parsed into blocks.

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

import re
from dataclasses import dataclass, field
from pathlib import Path

from berserk_rules.errors import SourceError
from berserk_rules.rulebook.project import read_utf8

ID_RE = re.compile(r"^[0-9a-zа-яё]+(?:[.\-][0-9a-zа-яё]+)*$")
NUMERIC_ID_RE = re.compile(r"^\d+(?:\.\d+)*$")
PRINTED_RE = re.compile(r"^\d+(?:\\?\. ?\d+)*(?:\\?\.)?$")  # «401\.»: a Markdown escape
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


@dataclass
class Block:
    """One directive of a corpus file: its fence, options (value, line), body lines and nested blocks."""

    name: str
    arg: str
    colons: int
    line: int
    options: dict[str, tuple[str | None, int]] = field(default_factory=dict)
    body: list[tuple[str, int]] = field(default_factory=list)
    children: list[Block] = field(default_factory=list)
    in_options: bool = True


def parse_blocks(path: str, text: str) -> tuple[list[Block], list[tuple[str, int]]]:
    """Split a file into top-level blocks and outside lines (text outside any directive)."""
    lines = text.split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    top: list[Block] = []
    outside: list[tuple[str, int]] = []
    stack: list[Block] = []
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
            block = Block(name, (opened["arg"] or "").strip(), len(opened["colons"]), number)
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


MARKDOWN_ACTIVE = "\\`*_[]<>&{}!#|~$"  # characters that can start markup in a Markdown line


def escape_markdown_title(text: str) -> str:
    """A page title as a Markdown heading's text that shows it as it is: characters that can start
    markup, HTML or a role are escaped with a backslash (the importer writes part titles so)."""
    return "".join("\\" + ch if ch in MARKDOWN_ACTIVE else ch for ch in text)


def unescape_markdown(text: str) -> str:
    """The text of a heading written by :func:`escape_markdown_title` (any escaped punctuation)."""
    return re.sub(r"\\([!-/:-@\[-`{-~])", r"\1", text)


def outside_lines(path: Path, shown: str) -> list[tuple[str, int]]:
    """The lines of a corpus file outside its directives, with their numbers (blank ones included)."""
    return parse_blocks(shown, read_utf8(path, shown, plain=True))[1]
