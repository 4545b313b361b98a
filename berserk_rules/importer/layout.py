"""Steps 4–5 of the import: order each Part's entries and gaps, render ``part-N.md`` and ``glossary.md``."""

from __future__ import annotations

from dataclasses import dataclass

from berserk_rules.corpus.model import GLOSSARY_PART
from berserk_rules.corpus.syntax import NUMERIC_ID_RE, escape_markdown_title
from berserk_rules.errors import SourceError
from berserk_rules.importer.editorial import Editorial
from berserk_rules.importer.records import EntryRec, GapRec, VariantRec, source_rel


def _numeric_key(id: str) -> tuple[int, ...]:
    return tuple(int(x) for x in id.split("."))


@dataclass
class Layout:
    """The records of an import as corpus files: each Part's items in page order, rendered."""

    entries: dict[str, EntryRec]
    part_titles: dict[int, list[VariantRec]]
    sequences: dict[str, list[object]]  # source -> entry ids / GapRec in source order
    editorial: Editorial
    lenient: bool

    def rel(self, source: str) -> str:
        return source_rel(source)

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
                x for x in self.sequences[source] if isinstance(x, GapRec) or self.entries[x].kind == "rule"
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
        out = [f"# {escape_markdown_title(h1)}", ""]  # the title is text: no markup, HTML or role
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
