"""Check the list of mechanics outside our rules (``engine/berserk_engine/language/lexicon/outside.toml``)
against the glossary it cites: the later edition's glossary as the community rulebook repository keeps
it (``docs/source/dictionary.rst`` of EasyFor314/berserk_heroes_rules).

    python tools/outside_mechanics.py GLOSSARY.rst
    python tools/outside_mechanics.py --git /work/.mirror/EasyFor314+berserk_heroes_rules/repo

Prints (1) every article ``defined`` or ``[[reviewed]]`` names that the glossary does not have — the
citation is wrong, exit code 1; (2) the glossary's articles that neither our corpus's glossary (by the
whole heading, or an alternative of it in brackets: «При ударе.» is ours as «При атаке (При ударе)»),
nor the list of mechanics, nor the ``[[reviewed]]`` entries cover, for a person to decide: a mechanic a
card could use (add it, with the words of its article) or a word of the game that is ours under
another name (add a ``[[reviewed]]`` entry saying so) — exit code 2 while any is left. The repository
is not part of the project and not needed to use it: this tool is how the list was derived and is kept
honest, run when the glossary changes.
"""

from __future__ import annotations

import argparse
import re
import subprocess
import sys
from pathlib import Path

from berserk_engine.language.outside import outside

from berserk_rules.corpus import load_corpus
from berserk_rules.rulebook.project import project_root

ARTICLE = re.compile(r"^\s+\*\*(.+?)\*\*", re.M)


def articles(text: str) -> list[str]:
    """The headings of a glossary in reStructuredText (``**Модуль.**``), single letters left out."""
    return [a.strip() for a in ARTICLE.findall(text) if len(a.strip().rstrip(".")) > 1]


def norm(title: str) -> str:
    """A heading as compared: lower case, «ё» as «е», Latin «x» as Cyrillic «х», no full stop at the end,
    single spaces."""
    text = title.lower().replace("ё", "е").replace("x", "х")
    return " ".join(text.split()).rstrip(". ")


def headings(title: str, alternatives: bool = True) -> set[str]:
    """A heading and the same without its brackets; with ``alternatives`` (a heading of ours) also each
    alternative in brackets: «При атаке (При ударе)» is also «При атаке» and «При ударе»."""
    whole = norm(title)
    found = {whole, norm(re.sub(r"\([^()]*\)", " ", whole))}
    if alternatives:
        found.update(norm(part) for part in re.findall(r"\(([^()]*)\)", whole))
    return found - {""}


def undecided(text: str) -> tuple[list[tuple[str, str]], list[str]]:
    """What the check finds in a glossary's text: (the articles the list names that the glossary does
    not have, each with the mechanic or «[[reviewed]]»; the glossary's articles nobody has decided)."""
    theirs = articles(text)
    listed = outside()
    named = [(m.name, a) for m in listed.mechanics for a in m.defined]
    named += [("[[reviewed]]", r.article) for r in listed.reviewed]
    wrong = [(name, article) for name, article in named if article not in theirs]
    ours = {
        h for e in load_corpus(project_root()).entries if e.kind == "term" for h in headings(e.title or "")
    }
    decided = {article for _, article in named}
    rest = [a for a in theirs if a not in decided and not (headings(a, alternatives=False) & ours)]
    return wrong, rest


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("glossary", nargs="?", help="dictionary.rst")
    parser.add_argument("--git", help="the repository's git folder (the file is read at HEAD)")
    args = parser.parse_args(argv)
    if args.git:
        done = subprocess.run(
            ["git", "--git-dir", args.git, "show", "HEAD:docs/source/dictionary.rst"],
            capture_output=True,
            text=True,
        )
        if done.returncode:
            parser.error(f"--git {args.git}: {done.stderr.strip()}")
        text = done.stdout
    elif args.glossary:
        text = Path(args.glossary).read_text(encoding="utf-8")
    else:
        parser.error("нужен файл глоссария или --git")
    wrong, rest = undecided(text)
    for name, article in wrong:
        print(f"нет в глоссарии: «{article}» ({name})")
    print(f"Статей в глоссарии: {len(articles(text))}; не решено (ни у нас, ни в списке): {len(rest)}")
    for article in rest:
        print(f"  {article}")
    return 1 if wrong else 2 if rest else 0


if __name__ == "__main__":
    sys.exit(main())
