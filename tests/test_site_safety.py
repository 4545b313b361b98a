"""Nothing from an input file runs on the site (issue 15, finding 5): each way a hostile text once
reached a page as live HTML — a Part title line of an edition's text, an edition's name, a raw block
or HTML in an edition folder's rules, a line that closes a MyST directive early — is shown as text
or refused with its file and line. The whole path in a real browser: ``test_browser_safety.py``."""

from __future__ import annotations

import html
import re
from pathlib import Path

import pytest
from markdown_it import MarkdownIt

from berserk_rules.corpus import load_corpus
from berserk_rules.corpus.syntax import escape_markdown_title, unescape_markdown
from berserk_rules.errors import SourceError, UserError
from berserk_rules.report.matrix import html_page
from berserk_rules.rulebook.editions import import_edition, load_edition
from berserk_rules.rulebook.project import project_root
from berserk_rules.site.editions import edition_pages
from berserk_rules.site.nodes import escape_markdown, markdown_code

ROOT = project_root()
PAYLOAD = '<img src=x onerror="window.__pwned=1">'
TEXT = """\
Часть 1. Общие положения {payload}

101. Начало
101.1. Игрок делает ход {payload}.
Часть 7. Терминология.
Ловушка <b onmouseover=alert(1)>. Карта, которая ждёт.
"""


def html_of(markdown: str) -> str:
    """Markdown as CommonMark renders it with HTML allowed (as MyST, which keeps raw HTML)."""
    return MarkdownIt("commonmark").render(markdown)


def live_html(rendered: str) -> list[str]:
    """Tags in rendered HTML that a browser would build from the payloads."""
    return re.findall(r"<(?:img|b|script)\b[^>]*>", rendered)


def edition(tmp_path: Path, name: str = "редакция", text: str = TEXT) -> Path:
    source = tmp_path / "in" / "text.txt"
    source.parent.mkdir(parents=True, exist_ok=True)
    source.write_text(text.format(payload=PAYLOAD), encoding="utf-8")
    out = tmp_path / "edition"
    report = import_edition(name, [source], out)
    assert report.ok, report.lines_of_report()
    return out


def test_markdown_escapes_show_text_as_is() -> None:
    for text in [PAYLOAD, "Часть 4. Очередь", "a \\ `b` {rule}`101` [x](javascript:y) # &amp; *c*"]:
        assert unescape_markdown(escape_markdown_title(text)) == text
        assert live_html(html_of("# " + escape_markdown_title(text))) == []
        assert live_html(html_of("# " + escape_markdown(text))) == []
    assert escape_markdown_title("Часть 4. Очередь") == "Часть 4. Очередь"  # our titles stay as they are
    assert "\n" not in escape_markdown("a\n<script>b</script>")
    code = markdown_code("x`<img src=y>`")
    assert html_of(code).count("<code>") == 1 and live_html(html_of(code)) == []


def test_part_title_line_is_text_in_the_corpus_file(tmp_path: Path) -> None:
    folder = edition(tmp_path)
    part = (folder / "rules" / "part-1.md").read_text(encoding="utf-8")
    title = part.splitlines()[0]
    assert title == "# " + escape_markdown_title(f"Часть 1. Общие положения {PAYLOAD}")
    assert live_html(html_of(title)) == []
    corpus = load_corpus(folder)
    assert corpus.titles[1] == f"Часть 1. Общие положения {PAYLOAD}"  # the model has the text itself


def test_part_title_line_is_text_on_the_edition_pages(tmp_path: Path) -> None:
    folder = edition(tmp_path)
    src = edition_pages(ROOT, folder, tmp_path / "src")
    page = (src / "rules" / "part-1.md").read_text(encoding="utf-8")
    # the page is its escaped title and the directive that renders the file from the model:
    # nothing of the edition's file is read as Markdown
    assert page.splitlines()[2:] == ["```{berserk-corpus-page} part-1.md", "```"]
    assert live_html(html_of(page)) == []
    assert "Общие положения" in html_of(page)


def test_edition_name_is_text_on_its_site(tmp_path: Path) -> None:
    folder = edition(tmp_path, name=f"имя {PAYLOAD}")
    index = (edition_pages(ROOT, folder, tmp_path / "src") / "index.md").read_text(encoding="utf-8")
    rendered = html_of(index)
    assert live_html(rendered) == []
    assert "имя &lt;img src=x onerror=&quot;window.__pwned=1&quot;&gt; — свод правил" in rendered


@pytest.mark.parametrize("name", ["имя\n<script>window.__pwned=1</script>", "имя\r", "имя\x1b[31m"])
def test_edition_name_with_a_line_break_is_refused(tmp_path: Path, name: str) -> None:
    with pytest.raises(UserError, match="управляющий символ"):
        edition(tmp_path, name=name)
    assert not (tmp_path / "edition").exists()  # refused before anything is written


RAW_BLOCKS = [
    "```{raw} html\n<script>window.__pwned=1</script>\n```",
    ":::{raw} html\n<script>window.__pwned=1</script>\n:::",
    "```{eval-rst}\n.. raw:: html\n\n   <script>window.__pwned=1</script>\n```",
    "<script>window.__pwned=1</script>",
    f"Текст с {PAYLOAD} вне директив",
    "# второй заголовок",
]


@pytest.mark.parametrize("block", RAW_BLOCKS)
def test_raw_block_in_an_edition_folder_is_refused_with_file_and_line(tmp_path: Path, block: str) -> None:
    folder = edition(tmp_path)
    path = folder / "rules" / "part-1.md"
    lines = path.read_text(encoding="utf-8").split("\n")
    at = len(lines)  # appended after the last line: its line number is this
    path.write_text("\n".join(lines) + block + "\n", encoding="utf-8")
    with pytest.raises(UserError) as caught:
        load_edition(folder)
        edition_pages(ROOT, folder, tmp_path / "src")
    message = str(caught.value)
    if block.startswith(":::"):  # the corpus format knows no {raw}: the strict loader says so
        assert f"rules/part-1.md:{at}: неизвестная директива {{raw}}" in message
    else:
        assert f"rules/part-1.md:{at}: в папке редакции вне директив корпуса допустимы только" in message
    assert not (tmp_path / "src").exists()


def test_html_inline_in_rule_text_stays_text(tmp_path: Path) -> None:
    """HTML inside an entry's text (a rule line, a term's name) is the text of the rule: it is in the
    model as it is, and the edition's page never hands it to Markdown."""
    folder = edition(tmp_path)
    corpus = load_corpus(folder)
    assert corpus.get("101.1").variants[0].lines == (f"Игрок делает ход {PAYLOAD}.",)
    term = next(e for e in corpus.terms())
    assert term.title == "Ловушка <b onmouseover=alert(1)>"
    glossary = (edition_pages(ROOT, folder, tmp_path / "src") / "glossary.md").read_text(encoding="utf-8")
    assert "onmouseover" not in glossary and "Ловушка" not in glossary  # rendered from the model


def test_a_line_that_closes_a_directive_early_is_refused(tmp_path: Path) -> None:
    """MyST ends a ``:::`` directive at an indented ``:::``, and what follows it would be Markdown."""
    text = "Часть 1. Общие\n\n101. Начало\n101.1. Ход.\n  :::\n<script>window.__pwned=1</script>\n"
    with pytest.raises(SourceError, match=r"text\.txt:5: строка похожа на директиву корпуса"):
        edition(tmp_path, text=text)


def test_editorial_texts_are_one_line(tmp_path: Path) -> None:
    folder = tmp_path / "edition" / "rules"
    folder.mkdir(parents=True)
    (folder / "editorial.toml").write_text(
        '["text.txt"]\n4 = { note = "раз\\n:::\\n<script>window.__pwned=1</script>" }\n', encoding="utf-8"
    )
    with pytest.raises(SourceError, match="note: текст в одну строку"):
        edition(tmp_path)


def test_importer_title_of_the_project_is_unchanged() -> None:
    """The project's own titles hold no markup characters: its corpus files and site stay as they were."""
    corpus = load_corpus(ROOT)
    assert corpus.titles
    for part, title in corpus.titles.items():
        assert escape_markdown_title(title) == title, part


def test_matrix_escapes_engine_names_and_messages() -> None:
    matrix = {
        "engines": [{"label": PAYLOAD}],
        "parts": [],
        "rules": [],
        "failures": [
            {
                "engine": PAYLOAD,
                "scenarios": [
                    {
                        "status": "failed",
                        "id": PAYLOAD,
                        "rules": [PAYLOAD],
                        "name": PAYLOAD,
                        "message": PAYLOAD,
                    }
                ],
            }
        ],
    }
    page = html_page(matrix)
    assert PAYLOAD not in page and html.escape(PAYLOAD) in page


def test_project_corpus_files_are_not_read_as_markdown_either() -> None:
    """A page that includes a file of Parts or terms gets it as the corpus model has it; the register
    of interpretations (MyST with roles, written by hand) is read as it is."""
    from types import SimpleNamespace

    from berserk_rules.site.corpus import on_include_read

    app = SimpleNamespace(
        srcdir=str(ROOT / "docs"), config=SimpleNamespace(berserk_root="", berserk_corpus="")
    )
    for rel, expected in [
        ("../rules/part-4.md", "# Часть 4\\. Очередь\n\n```{berserk-corpus-page} part-4.md\n```\n"),
        (
            "../rules/glossary.md",
            "# Часть 7\\. Терминология\\.\n\n```{berserk-corpus-page} glossary.md\n```\n",
        ),
        ("../rules/interpretations.md", None),
        ("index.md", None),
    ]:
        content = [f"{PAYLOAD}\n"]
        on_include_read(app, Path(rel), "page", content)  # type: ignore[arg-type]
        assert content == [expected or f"{PAYLOAD}\n"], rel
