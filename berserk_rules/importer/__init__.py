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
   written by hand and is never touched here. A page title (``# …``) is written with the
   characters that could start Markdown, HTML or a role escaped
   (:func:`~berserk_rules.corpus.syntax.escape_markdown_title`), so it is text wherever it is
   shown; a source line that looks like a corpus directive (an indented ``:::`` too, on which MyST
   would end the directive around it) is refused, and an editorial text must be one line.

This package: :mod:`~berserk_rules.importer.classify` (step 1), :mod:`~berserk_rules.importer.editorial`
(step 2), :mod:`~berserk_rules.importer.reader` (step 3, with the records of
:mod:`~berserk_rules.importer.records`), :mod:`~berserk_rules.importer.layout` (steps 4–5); here the
entry points: import a project's sources, compare the result with ``rules/`` or write it there.
"""

from __future__ import annotations

from pathlib import Path

from berserk_rules.importer.editorial import load_editorial
from berserk_rules.importer.reader import Importer


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
