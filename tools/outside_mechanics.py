"""Check the list of mechanics outside our rules (``engine/berserk_engine/language/lexicon/outside.toml``)
against the glossary it cites: the later edition's glossary as the community rulebook repository keeps
it (``docs/source/dictionary.rst`` of EasyFor314/berserk_heroes_rules).

    python tools/outside_mechanics.py GLOSSARY.rst
    python tools/outside_mechanics.py --git /work/.mirror/EasyFor314+berserk_heroes_rules/repo

Prints (1) every article ``defined`` names that the glossary does not have — the citation is wrong, exit
code 1; (2) the glossary's articles that neither our corpus's glossary nor the list covers, for a
person to decide: a mechanic a card could use (add it, with the words of its article) or a word of
the game that is ours under another name. The repository is not part of the project and not needed
to use it: this tool is how the list was derived and is kept honest, run when the glossary changes.
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


def head(title: str) -> str:
    """The first word of an article's heading, folded: how a heading is compared with our terms."""
    words = re.findall(r"[^\W\d_]+", title.lower().replace("ё", "е"))
    return words[0] if words else ""


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
    theirs = articles(text)
    listed = outside().mechanics
    wrong = [(m.name, a) for m in listed for a in m.defined if a not in theirs]
    for name, article in wrong:
        print(f"нет в глоссарии: «{article}» (механика «{name}»)")
    ours = {head(e.title or "") for e in load_corpus(project_root()).entries if e.kind == "term"}
    covered = {a for m in listed for a in m.defined}
    rest = [a for a in theirs if a not in covered and head(a) not in ours]
    print(f"Статей в глоссарии: {len(theirs)}; в списке: {len(covered)}; ни там, ни у нас: {len(rest)}")
    for article in rest:
        print(f"  {article}")
    return 1 if wrong else 0


if __name__ == "__main__":
    sys.exit(main())
