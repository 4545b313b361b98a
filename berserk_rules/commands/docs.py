"""``berserk-rules docs protocol|steps``: the engine author's documents as plain text, without Sphinx
and without a clone — from the project (the checkout, or the suite a wheel carries).

* ``protocol`` — ``docs/protocol.md`` complete: its generated table of messages
  (:func:`berserk_rules.harness.messages.table_rows`) and every file it includes (the JSON Schemas,
  the JavaScript runner) written in, where the site has Sphinx directives;
* ``steps`` — ``docs/step-reference.md``: what each step asks of the engine
  (:mod:`berserk_rules.report.step_reference`).

``--path`` prints where the document lies instead."""

from __future__ import annotations

import argparse
import re
import sys
from pathlib import Path

from berserk_rules.corpus import project_root
from berserk_rules.errors import UserError

DOCUMENTS = {"protocol": "docs/protocol.md", "steps": "docs/step-reference.md"}
DIRECTIVE = re.compile(
    r"^```\{(?P<name>[a-z-]+)\}[ \t]*(?P<argument>[^\n]*)\n(?P<body>.*?)^```[ \t]*$", re.M | re.S
)
LANGUAGE = re.compile(r"^:language:\s*(\S+)\s*$", re.M)


def included(argument: str, page: Path) -> Path:
    """The file a ``literalinclude`` names, relative to the page; a file of the package (the
    schemas) is found in the installed package when the project does not hold it."""
    path = (page.parent / argument).resolve()
    if path.is_file():
        return path
    relative = Path(argument)
    while relative.parts and relative.parts[0] == "..":
        relative = Path(*relative.parts[1:])
    packaged = Path(__file__).resolve().parents[2] / relative  # site-packages/berserk_rules/…
    if packaged.is_file():
        return packaged
    raise UserError(f"{page}: нет файла {argument}, который страница включает")


def messages_table() -> str:
    from berserk_rules.harness.messages import table_rows

    rows = ["| op | Поля запроса (? — необязательное) | result | Что это |", "|---|---|---|---|"]
    rows += [f"| `{op}` | `{fields}` | {reply} | {doc} |" for op, fields, reply, doc in table_rows()]
    return "\n".join(rows)


def rendered(page: Path) -> str:
    """The page with its directives replaced by what they show (plain Markdown)."""
    text = page.read_text(encoding="utf-8")

    def replace(match: re.Match[str]) -> str:
        name, argument, body = match["name"], match["argument"].strip(), match["body"]
        if name == "berserk-messages":
            return messages_table()
        if name == "literalinclude":
            language = LANGUAGE.search(body)
            content = included(argument, page).read_text(encoding="utf-8").rstrip("\n")
            return f"```{language.group(1) if language else ''}\n{content}\n```"
        raise UserError(f"{page}: директива {{{name}}} не переводится в текст")

    return DIRECTIVE.sub(replace, text)


def run(args: argparse.Namespace) -> int:
    page = project_root() / DOCUMENTS[args.document]
    if not page.is_file():
        raise UserError(f"нет документа {DOCUMENTS[args.document]} в {project_root()}")
    if args.path:
        print(page)
        return 0
    sys.stdout.write(rendered(page) if args.document == "protocol" else page.read_text(encoding="utf-8"))
    return 0
