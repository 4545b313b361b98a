"""Make ``engine/berserk_engine/language/lexicon/reminders.toml``: the content words of the glossary text
of every keyword the engine knows (``rules/glossary.md``), against which a reminder text in parentheses
after a keyword is checked (interpretation I-94, :mod:`berserk_engine.language.reminder`). Run:

    python tools/reminders.py            # rewrite the file
    python tools/reminders.py --check    # exit 1 when the committed file is out of date
"""

from __future__ import annotations

import argparse
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
GLOSSARY = ROOT / "rules" / "glossary.md"
_TERM = re.compile(r"^:::\{term\} (?P<id>\S+)\n(?P<body>.*?)^:::$", re.MULTILINE | re.DOTALL)


def generate() -> str:
    import berserk_engine  # noqa: F401 — registers the keywords
    from berserk_engine.keywords import KEYWORDS
    from berserk_engine.language.reminder import lemmas

    texts = {}
    for m in _TERM.finditer(GLOSSARY.read_text(encoding="utf-8")):
        body = "\n".join(line for line in m.group("body").splitlines() if not line.startswith(":"))
        texts[m.group("id")] = body
    out = [
        "# Слова глоссария для сверки пояснений в скобках после ключевого слова (толкование I-94).",
        "# Файл сделан tools/reminders.py из rules/glossary.md — не править руками.",
    ]
    for term in sorted(KEYWORDS):
        if term not in texts:
            continue
        words = ", ".join(f'"{w}"' for w in sorted(lemmas(texts[term])))
        out += ["", "[[keyword]]", f'term = "{term}"', f"lemmas = [{words}]"]
    return "\n".join(out) + "\n"


def main() -> int:
    from berserk_engine.language.reminder import FILE

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="только проверить, что файл не устарел")
    args = parser.parse_args()
    made = generate()
    if args.check:
        if FILE.read_text(encoding="utf-8") != made:
            print(f"{FILE.relative_to(ROOT)} устарел: python tools/reminders.py", file=sys.stderr)
            return 1
        return 0
    FILE.write_text(made, encoding="utf-8")
    print(f"{FILE.relative_to(ROOT)}: ключевых слов {made.count('[[keyword]]')}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
