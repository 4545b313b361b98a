"""Loading the corpus: ``rules/*.md`` of a project checked entry by entry into a :class:`Corpus`.

The blocks come from :func:`~berserk_rules.corpus.syntax.parse_blocks`; here each block becomes a
part title, a rule, a term, a gap or an interpretation, with its options checked (every error a
:class:`~berserk_rules.errors.SourceError` with file and line). The loaded corpus is cached by the
files' times and sizes.
"""

from __future__ import annotations

import os
import re
from dataclasses import replace
from pathlib import Path

from berserk_rules.corpus.model import (
    GLOSSARY_PART,
    HEADING_UNTESTABLE,
    Corpus,
    Entry,
    Gap,
    Interpretation,
    Variant,
    normalize_number,
    part_of_id,
)
from berserk_rules.corpus.syntax import (
    ENTRY_OPTIONS,
    FLAG_OPTIONS,
    ID_RE,
    LINES_RE,
    OTHER_OPTIONS,
    PART_FILE_RE,
    PRINTED_RE,
    VARIANT_OPTIONS,
    Block,
    parse_blocks,
    unescape_markdown,
)
from berserk_rules.errors import SourceError, UserError
from berserk_rules.rulebook.project import project_root, read_utf8


class _FileLoader:
    def __init__(self, root: Path, path: Path, sources: set[str] | None) -> None:
        self.root = root
        self.path = path
        self.rel = path.relative_to(root).as_posix()
        self.sources = sources

    def error(self, line: int, message: str) -> SourceError:
        return SourceError(self.rel, line, message)

    def check_options(self, block: Block, allowed: frozenset[str]) -> None:
        for name, (value, line) in block.options.items():
            if name not in allowed:
                where = f"в {{{block.name}}}"
                hint = ", ".join(f":{o}:" for o in sorted(allowed)) or "нет"
                raise self.error(line, f"неизвестная опция :{name}: {where}; допустимы: {hint}")
            if name in FLAG_OPTIONS and value:
                raise self.error(line, f"опция :{name}: — флаг, у неё не бывает значения")
            if name not in FLAG_OPTIONS and not value:
                raise self.error(line, f"у опции :{name}: нет значения")

    def value(self, block: Block, name: str, required: bool = False) -> str | None:
        if name in block.options:
            return block.options[name][0]
        if required:
            raise self.error(block.line, f"в {{{block.name}}} нет обязательной опции :{name}:")
        return None

    def positive_int(self, block: Block, name: str) -> int:
        text = self.value(block, name, required=True)
        assert text is not None
        if not text.isdigit() or int(text) < 1:
            raise self.error(block.options[name][1], f"неверный номер строки в :{name}: «{text}»")
        return int(text)

    def source(self, block: Block) -> str:
        name = self.value(block, "source", required=True)
        assert name is not None
        if self.sources is not None and name not in self.sources:
            raise self.error(
                block.options["source"][1], f"неизвестный источник «{name}» (нет в rules/sources)"
            )
        return name

    def body_lines(self, block: Block) -> tuple[str, ...]:
        if not block.body:
            raise self.error(block.line, f"у {{{block.name}}} нет текста")
        for raw, line in block.body:
            if not raw.strip():
                raise self.error(line, "пустая строка в тексте: одна строка источника — одна строка тела")
        return tuple(raw for raw, _ in block.body)

    def variant(self, block: Block, kind: str, name: str | None) -> Variant:
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

    def variants(self, block: Block, kind: str, name: str | None = None) -> tuple[Variant, ...]:
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

    def entry(self, block: Block, kind: str, file_part: int) -> Entry:
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

    def gap(self, block: Block) -> Gap:
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

    def interpretation(self, block: Block) -> Interpretation:
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
        blocks, outside = parse_blocks(loader.rel, read_utf8(path, loader.rel, plain=True))
        if part is not None:
            parts.setdefault(part, [])
            for raw, _ in outside:
                if raw.startswith("# "):
                    titles.setdefault(part, unescape_markdown(raw[2:].strip()))
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
