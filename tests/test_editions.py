"""Any edition importable: ``import --edition`` on a synthetic full-length text and on our sources,
editions compared rule by rule, and an edition's site built with ``site --corpus``."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from synthetic_edition import FRONT_MATTER, generate, official_like

from berserk_rules.cli import main
from berserk_rules.corpus import load_corpus
from berserk_rules.rulebook.editions import compare, import_edition, word_changes
from berserk_rules.rulebook.project import project_root

ROOT = project_root()


@pytest.fixture(scope="module")
def synthetic(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    """(the synthetic text, its imported edition folder) — imported without any hand decision: the
    document's title line, before Part 1, is its front matter (``1.заглавие``)."""
    tmp = tmp_path_factory.mktemp("synthetic")
    text = tmp / "synth.txt"
    text.write_text(generate(), encoding="utf-8")
    out = tmp / "edition"
    first = import_edition("синтетическая", [text], out)
    assert first.ok, first.lines_of_report()
    assert [(p.line, p.what) for p in first.placements if p.what in ("front", "unplaced")] == [(1, "front")]
    return text, out


def test_synthetic_full_length_edition_imports_completely(synthetic: tuple[Path, Path], capsys) -> None:
    text, out = synthetic
    code = main(["import", "--edition", "синтетическая", "--out", str(out), str(text)])
    report = capsys.readouterr().out
    assert code == 0, report
    assert "НЕ РАЗМЕЩЕНЫ" not in report
    assert "каждая непустая строка входа есть в корпусе" in report
    corpus = load_corpus(out)
    assert len(corpus.rules()) > 1000 and len(corpus.terms()) == 240
    assert corpus.get("1.вступление").inferred  # the Part's introduction
    assert corpus.get("1.заглавие").variants[0].lines == (generate().split("\n")[0],)  # front matter
    rule = corpus.get("101.1")
    assert rule.variants[0].source == "synth.txt"
    # ВАЖНО blocks, tables, list lines and unnumbered paragraphs stay inside their rule, verbatim
    lines = [line for e in corpus.entries for v in e.variants for line in v.lines]
    assert any(line.startswith("ВАЖНО") for line in lines)
    assert any("\t" in line and "[" in line for line in lines)
    assert any(line.startswith("· ") for line in lines)
    assert (out / "edition.toml").read_text(encoding="utf-8").startswith('name = "синтетическая"')


def test_edition_with_bad_input_is_a_clear_error(tmp_path: Path, capsys) -> None:
    bad = tmp_path / "bad.txt"
    bad.write_bytes("Часть 1. Общее.\n101. Раздел\n\xff".encode() + b"\xff\n")
    assert main(["import", "--edition", "x", "--out", str(tmp_path / "e"), str(bad)]) == 2
    assert "не в кодировке UTF-8" in capsys.readouterr().err
    assert main(["import", "--edition", "x", str(bad)]) == 2
    assert "нужна папка редакции --out" in capsys.readouterr().err
    assert main(["import", "--edition", "x", "--out", str(ROOT)]) == 2
    assert "нужны входные файлы" in capsys.readouterr().err
    assert main(["import", str(bad)]) == 2
    assert "только вместе с --edition" in capsys.readouterr().err


def test_our_sources_as_an_edition(tmp_path: Path) -> None:
    sources = sorted((ROOT / "rules" / "sources").glob("*.txt"))
    # with the project's editorial decisions: exactly the project's corpus
    report = import_edition("свод", sources, tmp_path / "ours", ROOT / "rules" / "editorial.toml")
    assert report.ok, report.lines_of_report()
    for path in (tmp_path / "ours" / "rules").glob("*.md"):
        assert path.read_text(encoding="utf-8") == (ROOT / "rules" / path.name).read_text(encoding="utf-8")
    # without them: unnumbered paragraphs join the rule before them; the lines that follow a lost
    # passage («|») or open a source have nothing to join, and each is reported and missing
    bare = import_edition("без решений", sources, tmp_path / "bare")
    assert len([p for p in bare.placements if p.what == "attached"]) > 10
    unplaced = {(p.source, p.line) for p in bare.unplaced}
    assert ("001_9650f60f6bd2280f.txt", 2) in unplaced
    missing = {problem.split(": строка источника")[0] for problem in bare.fidelity}
    assert missing == {f"{source}:{line}" for source, line in unplaced}


def test_editions_compared_rule_by_rule(synthetic: tuple[Path, Path], tmp_path: Path, capsys) -> None:
    text, out = synthetic
    lines = text.read_text(encoding="utf-8").split("\n")
    changed = next(i for i, line in enumerate(lines) if line.startswith("102.3. "))
    removed = next(i for i, line in enumerate(lines) if line.startswith("103.2. "))
    lines[changed] = lines[changed].replace("102.3. ", "102.3. Отныне ", 1)
    del lines[removed]
    lines.insert(removed, "103.99. Новое правило этой редакции.")
    newer = tmp_path / "synth.txt"
    newer.write_text("\n".join(lines), encoding="utf-8")
    editorial = out / "rules" / "editorial.toml"
    assert import_edition("вторая", [newer], tmp_path / "second", editorial).ok
    changes = {c.id: c for c in compare(load_corpus(out), load_corpus(tmp_path / "second"))}
    assert changes["102.3"].kind == "changed" and changes["102.3"].added_words == ["Отныне"]
    assert changes["103.2"].kind == "removed"
    assert changes["103.99"].kind == "added"
    assert len(changes) == 3
    assert main(["compare", str(out), str(tmp_path / "second"), "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert {item["id"] for item in data} == {"102.3", "103.2", "103.99"}
    assert main(["compare", str(out), str(tmp_path / "second")]) == 0
    out = capsys.readouterr().out
    assert "«синтетическая» → «вторая»: изменено 1, добавлено 1, удалено 1" in out
    assert [line[0] for line in out.splitlines()[1:]] == ["~", "+", "-"]  # the changed first


def test_word_changes() -> None:
    assert word_changes("игрок берёт карту", "игрок берёт две карты") == (["карту"], ["две карты"])


@pytest.mark.slow  # builds a site
def test_edition_site(synthetic: tuple[Path, Path], tmp_path: Path, capsys) -> None:
    """An edition's site: its rules with the project's scenarios, no warnings, and the compact
    changes page — the changed rules first with an anchor each and the word diff, then the added
    and the removed."""
    from berserk_rules.commands.site import build_site

    older, small = tmp_path / "older", tmp_path / "small"
    text = generate(sections_per_part=2, terms=30)
    assert "\n202.3. " in text
    older_text = text.replace("201.2. ", "201.2. Прежде ", 1).replace("\n202.3. ", "\n202.99. ", 1)
    for folder, name, body in ((older, "старая", older_text), (small, "малая", text)):
        (folder / "in").mkdir(parents=True)
        (folder / "in" / "synth.txt").write_text(body, encoding="utf-8")
        source = str(folder / "in" / "synth.txt")
        assert main(["import", "--edition", name, "--out", str(folder), source]) == 0
    capsys.readouterr()
    results = tmp_path / "results.json"  # no run yet: every scenario «не запускался»
    warnings = tmp_path / "warnings.txt"
    code = build_site(ROOT, small / "site", results, warnings=warnings, corpus=small, compare=older)
    assert code == 0 and warnings.read_text(encoding="utf-8") == ""
    part3 = (small / "site" / "rules" / "part-3.html").read_text(encoding="utf-8")
    assert 'id="rule-301.1"' in part3
    assert "Сценариев пока нет." in part3  # rules without scenarios show so
    index = (small / "site" / "index.html").read_text(encoding="utf-8")
    assert "малая — свод правил" in index
    scenario_page = (small / "site" / "_generated" / "features" / "part-4" / "401-ochered.html").read_text(
        encoding="utf-8"
    )
    assert "нет в этой редакции" in scenario_page  # 401.x of our scenarios is not in this edition
    assert "Назад" in part3 and "Previous" not in part3  # the theme's words in Russian here too
    changes = (small / "site" / "changes.html").read_text(encoding="utf-8")
    assert "изменено — 1, добавлено — 1, удалено — 1" in changes
    titles = ("Изменено (1)", "Добавлено (1)", "Удалено (1)")
    changed, added, removed = (changes.index(title) for title in titles)
    assert changed < added < removed  # the changed rules first
    assert changes.count('id="change-201.2"') == 1 and 'href="#change-201.2"' in changes  # an anchor each
    assert 'class="berserk-diff berserk-diff-removed">Прежде</span>' in changes  # the word that changed
    assert 'id="change-202.3"' in changes and 'id="change-202.99"' in changes


def test_word_diff_is_compact() -> None:
    from berserk_rules.rulebook.editions import word_diff

    old = " ".join(f"слово{k}" for k in range(60)) + " конец"
    new = old.replace("слово30", "иное30")
    pieces = word_diff(old, new, context=5)
    assert ("removed", "слово30") in pieces and ("added", "иное30") in pieces
    assert [kind for kind, _ in pieces].count("gap") == 2  # long unchanged stretches left out
    shown = " ".join(words for _, words in pieces)
    assert "слово0 " not in shown and "слово25" in shown and "слово35" in shown and "слово36" not in shown


def test_official_like_text_imports_without_hand_decisions(tmp_path: Path, capsys) -> None:
    """Front matter, a table of contents, Markdown escapes, page numbers and a number the source
    itself prints twice: imported by ``import --edition`` with no editorial decision at all."""
    text = tmp_path / "official.txt"
    text.write_text(official_like(), encoding="utf-8")
    out = tmp_path / "edition"
    code = main(["import", "--edition", "официальная", "--out", str(out), str(text)])
    report = capsys.readouterr().out
    assert code == 0, report
    assert "НЕ РАЗМЕЩЕНЫ" not in report
    assert "каждая непустая строка входа есть в корпусе" in report
    assert "ОШИБКИ ИСТОЧНИКА: номер напечатан в источнике дважды, тексты разные" in report
    assert "номер 302.4 уже был в строке" in report
    corpus = load_corpus(out)
    # the title page, credits and introduction before Part 1: one entry, verbatim, not a rule's text
    front = corpus.get("1.заглавие")
    assert front.variants[0].lines == tuple(line for line in FRONT_MATTER if line)
    assert front.untestable and "не правило" in front.untestable  # not counted as a rule to cover
    # the table of contents: its own entry; no heading or Part title got a «… 5» variant
    contents = corpus.get("1.содержание")
    assert contents.variants[0].lines[0] == "Содержание"
    assert any(line.startswith("Часть 4. Порядок выполнения ....") for line in contents.variants[0].lines)
    assert "201. Раздел 1 части 2. 14" in contents.variants[0].lines
    for entry in corpus.entries:
        sources = [(v.source) for v in entry.variants]
        assert len(sources) == len(set(sources)), entry.id  # no «редакции расходятся» within one text
    assert all(len(variants) == 1 for variants in corpus.parts.values())
    assert corpus.parts[4][0].lines == ("Часть 4. Порядок выполнения.",)
    # «201\\. Раздел …»: a section heading with a Markdown escape, recognised with its number
    heading = corpus.get("201")
    assert heading.heading and heading.variants[0].printed == "201\\. "
    assert heading.variants[0].lines == ("Раздел 1 части 2.",)
    assert not heading.inferred
    assert "\\* " in corpus.get("303.2").variants[0].lines[0]  # the text itself stays verbatim
    # the number the source prints twice: a source error, the second text apart, no variants
    assert len(corpus.get("302.4").variants) == 1
    twice = corpus.get("302.4.повтор")
    assert twice.variants[0].printed == "302.4. " and "Ошибка источника" in (twice.note or "")
    assert corpus.get("302.6")  # and the numbering goes on


def test_contents_lines_need_a_page_number_and_a_heading() -> None:
    """A heading ending in a number is not contents unless it looks like a line of contents."""
    from berserk_rules.importer.classify import contents_lines

    lines = [
        "Часть 1. Общие положения.",
        "101. Фаза 2",  # a heading whose title ends with a number, alone: text, not contents
        "101.1. Игрок берёт 2",  # a numbered paragraph: never contents
        "102. Очередь ....... 17",  # dot leaders: contents
        "103. Ход\t9",  # a tab: contents
        "",
        "Оглавление",
        "104. Раздел 4",
        "105. Раздел 5 7",  # a block with the line after it and a heading that comes again
        "106. Раздел 6 8",
        "105. Раздел 5",
        "105.1. Подраздел …… 12",  # a numbered paragraph after dot leaders: contents too
        "105.2. Игрок берёт 12",  # after a space only: the text's own paragraph
    ]
    assert contents_lines(lines) == {3, 4, 6, 7, 8, 9, 11}


@pytest.mark.parametrize("body", ["", "\n\n   \n", "|\n |\n"])
def test_empty_or_textless_input_is_refused(tmp_path: Path, capsys, body: str) -> None:
    empty = tmp_path / "empty.txt"
    empty.write_text(body, encoding="utf-8")
    out = tmp_path / "edition"
    assert main(["import", "--edition", "пустая", "--out", str(out), str(empty)]) == 2
    err = capsys.readouterr().err
    assert str(empty) in err and "нет текста правил" in err
    assert not out.exists()  # nothing written
