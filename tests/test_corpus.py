"""The corpus loader (berserk_rules.corpus), the importer and the `corpus` / `import` commands."""

from __future__ import annotations

import hashlib
import importlib
import json
import shutil
import textwrap
from pathlib import Path

import pytest

from berserk_rules.cli import main
from berserk_rules.corpus import load_corpus
from berserk_rules.corpus.model import HEADING_UNTESTABLE, normalize_number, part_of_id
from berserk_rules.errors import SourceError, UserError
from berserk_rules.importer import import_sources
from berserk_rules.importer.classify import classify
from berserk_rules.importer.editorial import load_editorial
from berserk_rules.importer.reader import Importer, slugify

ROOT = Path(__file__).resolve().parents[1]
SOURCES = ROOT / "rules" / "sources"
S000 = "000_eeef2598edc2143d.txt"
S001 = "001_9650f60f6bd2280f.txt"
S002 = "002_584b7ce10d7b4917.txt"
S003 = "003_9f66f2bfc6d35574.txt"

# SHA-256 of the vendored source texts (identical to the seed documents at the project's start; the seeds
# lie outside the clone, so these digests stand in for them — no test looks outside the clone).
SOURCE_SHA256 = {
    S000: "326ad65dc6b09c97a94fe5f90ca4a6e21b1dbeeef901b76cbe6e6f03ccc1a616",
    S001: "18d2e4030e97a0f96c6ebfcfb0ef2dd313715e9e64a47f2e6a3c9a9d64cae0a6",
    S002: "cff40e1181a8cfc40600ea0667229745f3e2b28e4202bc55f1590d96a743d7d7",
    S003: "b5840279e145eaeddc2e205f8b03807d5791bc5a648230c5e5acd1da2c3939bd",
}


@pytest.fixture(scope="module")
def corpus():
    return load_corpus(ROOT)


# ---------------------------------------------------------------------------------------------
# Sources


def test_vendored_sources_have_the_recorded_sha256():
    found = {p.name: hashlib.sha256(p.read_bytes()).hexdigest() for p in SOURCES.glob("*.txt")}
    assert found == SOURCE_SHA256


# ---------------------------------------------------------------------------------------------
# API on the real corpus


def test_rule_with_two_editions(corpus):
    entry = corpus.get("401.7")
    assert entry.kind == "rule" and entry.part == 4 and entry.section == "401"
    assert entry.number == "401.7" and not entry.inferred and not entry.heading
    assert entry.sources == (S000, S001)
    assert entry.text.startswith("Если игрок не имеет возможности или желания")
    assert [v.printed for v in entry.variants] == ["401.7. ", None]
    assert entry.file == "rules/part-4.md" and entry.line > 0
    assert entry.untestable is None


def test_end_of_turn_315_is_a_variant_of_310(corpus):
    entry = corpus.get("310.1")
    assert [(v.source, v.printed, v.number) for v in entry.variants] == [
        (S000, "310.1. ", "310.1"),
        (S001, "315.1. ", "315.1"),
    ]
    assert entry.note and "315.1" in entry.note
    assert "«в конце хода»" in entry.variants[0].text and '"в конце хода"' in entry.variants[1].text
    with pytest.raises(UserError, match=r"310\.1"):
        corpus.get("315.1")


def test_inferred_rule_and_heading(corpus):
    rule = corpus.get("304.1")
    assert rule.inferred and rule.number is None and rule.note and rule.section == "304"
    heading = corpus.get("304")
    assert heading.heading and heading.inferred and heading.title == "Фаза накопления."
    assert heading.untestable == HEADING_UNTESTABLE
    printed_heading = corpus.get("401")
    assert printed_heading.title == "Очередь" and not printed_heading.inferred
    assert [v.lines for v in printed_heading.variants] == [("Очередь",), ("Очередь.",)]
    intro = corpus.get("306.вступление")
    assert intro.inferred and intro.section == "306" and intro.part == 3
    assert corpus.get("5.замещение.1").part == 5 and corpus.get("5.замещение.1").section is None


def test_differing_variants_are_kept_apart(corpus):
    entry = corpus.get("401.2")
    short, long = (v.text for v in entry.variants)
    assert long.endswith(short) and len(long) > len(short)
    bullets = [len(v.lines) for v in corpus.get("401.4").variants]
    assert bullets == [5, 6]


def test_119_8_twice_in_one_source_with_example(corpus):
    entry = corpus.get("119.8")
    assert [(v.source, v.line, v.printed) for v in entry.variants] == [
        (S003, 2, "119.8. "),
        (S003, 7, "119. 8. "),
    ]
    second = entry.variants[1]
    assert len(second.examples) == 1 and second.examples[0].startswith("ПРИМЕР. Заклинание Казнь")
    assert "ПРИМЕР" not in second.text and second.text == entry.variants[0].text


def test_lists_are_continuation_lines(corpus):
    assert corpus.get("517.3").variants[0].lines[1:] == (
        "1) из своей колоды;",
        "2) в открытом виде;",
        "3) под своим контролем.",
    )
    assert len(corpus.get("602.1").variants[0].lines) == 6
    assert len(corpus.get("306.1").variants[0].lines) == 5
    assert corpus.get("517.3.1").inferred and corpus.get("517.3.1").section == "517"
    assert corpus.get("204.1.1").variants[0].printed == "204. 1. 1. "


def test_glossary_terms(corpus):
    terms = corpus.terms()
    assert len(terms) == 134 and all(t.part == 7 and t.kind == "term" for t in terms)
    hero = corpus.get("герой")
    assert hero.title == "Герой" and hero.text == "Типа карты. Персонификация игрока."
    assert hero.variants[0].prefix == "Герой."
    assert corpus.get("Герой") is hero
    assert corpus.get("гибель-существа-карты").title == "Гибель (существа, карты)"
    assert corpus.get("гибель-текст").title == "Гибель: [текст]"
    assert corpus.get("плюс-х-минус-х-к-атаке").title == "+Х (–Х) к атаке"
    assert corpus.get("минус-х-от-атаки").title == "–X от атаки"
    assert corpus.get("не-может-нельзя").text == "Нелегально …"
    assert corpus.get("жажда-х").text.count("теряает") == 1


def test_parts_and_order(corpus):
    assert [v.source for v in corpus.parts[4]] == [S000, S001]
    assert corpus.parts[1] == [] and corpus.parts[3] == []
    assert corpus.titles[1] == "Часть 1 (заголовок в источниках утрачен)"
    assert corpus.titles[4] == "Часть 4. Очередь"
    ids = [e.id for e in corpus.rules(4)]
    assert ids[:4] == ["401", "401.1", "401.2", "401.3"] and ids[-1] == "403.1"
    assert [e.id for e in corpus.rules(3)][:3] == ["303.1", "303.2", "303.3"]
    assert len({e.id for e in corpus.entries}) == len(corpus.entries)
    for entry in corpus.entries:
        expected = "rules/glossary.md" if entry.part == 7 else f"rules/part-{entry.part}.md"
        assert entry.file == expected
    assert all(i.startswith("I-") for i in corpus.interpretations)


def test_unknown_id_names_close_ids(corpus):
    with pytest.raises(UserError, match=r"похожие: .*401\.7"):
        corpus.get("401.77")
    with pytest.raises(UserError, match="нет правила или термина"):
        corpus.get("нет-такого")


def test_to_json_shape(corpus):
    data = [x for x in corpus.to_json() if x["kind"] != "part"]
    assert len(data) == len(corpus.entries)
    item = next(x for x in data if x["id"] == "401.4")
    assert set(item) >= {"id", "kind", "part", "number", "title", "text", "source", "variants"}
    assert item["source"] == S000  # the first variant's source; every source is listed in "sources"
    assert item["sources"] == [S000, S001]
    assert set(item["variants"][0]) >= {"source", "line", "printed", "number", "lines", "text", "examples"}
    json.dumps(data, ensure_ascii=False)


def test_helpers():
    assert normalize_number("204. 1. 1.") == "204.1.1"
    assert normalize_number("401.8") == "401.8"
    assert [part_of_id(x) for x in ("119.8", "401", "5.замещение.1", "герой")] == [1, 4, 5, None]


def test_cache_is_per_root_and_sees_changes(tmp_path):
    assert load_corpus(ROOT) is load_corpus(ROOT)
    root = make_root(tmp_path, {"part-4.md": RULE})
    first = load_corpus(root)
    assert first.get("401.7").text == "Текст правила."
    (root / "rules" / "part-4.md").write_text(
        RULE.replace("Текст правила.", "Другой текст."), encoding="utf-8"
    )
    assert load_corpus(root).get("401.7").text == "Другой текст."


# ---------------------------------------------------------------------------------------------
# Loader errors on malformed input


RULE = textwrap.dedent(
    """\
    # Часть 4

    :::{rule} 401.7
    :source: 000_eeef2598edc2143d.txt
    :line: 18
    :printed: 401.7.
    Текст правила.
    :::
    """
)


def make_root(tmp_path: Path, files: dict[str, str]) -> Path:
    root = tmp_path / "root"
    (root / "rules").mkdir(parents=True, exist_ok=True)
    (root / "pyproject.toml").write_text("", encoding="utf-8")
    for name, text in files.items():
        (root / "rules" / name).write_text(text, encoding="utf-8")
    return root


def test_minimal_files_load(tmp_path):
    interpretations = textwrap.dedent(
        """\
        # Реестр толкований

        Вступление.

        :::{interpretation} I-1
        :rules: 401.7
        :title: Пас
        Первый абзац.

        Второй абзац.
        :::
        """
    )
    glossary = ":::{term} герой\n:name: Герой\n:source: x.txt\n:line: 1\n:nospace:\nТипа карты.\n:::\n"
    corpus = load_corpus(
        make_root(
            tmp_path, {"part-4.md": RULE, "glossary.md": glossary, "interpretations.md": interpretations}
        )
    )
    assert corpus.interpretations["I-1"].rules == ("401.7",)
    assert corpus.interpretations["I-1"].text == "Первый абзац.\n\nВторой абзац."
    assert corpus.get("герой").variants[0].prefix == "Герой."
    assert corpus.parts == {4: [], 7: []}


def test_real_interpretations_file_loads(corpus):
    assert (ROOT / "rules" / "interpretations.md").is_file()
    assert isinstance(corpus.interpretations, dict)


BAD_CASES = [
    ("unknown directive", RULE.replace("{rule}", "{правило}"), 3, "неизвестная директива {правило}"),
    ("unknown option", RULE.replace(":line: 18", ":lines: 18"), 5, "неизвестная опция :lines:"),
    (
        "missing source",
        RULE.replace(":source: 000_eeef2598edc2143d.txt\n", ""),
        3,
        "нет обязательной опции :source:",
    ),
    ("bad line number", RULE.replace(":line: 18", ":line: 1a"), 5, "неверный номер строки"),
    ("zero line number", RULE.replace(":line: 18", ":line: 0"), 5, "неверный номер строки"),
    ("bad printed", RULE.replace(":printed: 401.7.", ":printed: 401,7"), 6, "неверный номер в :printed:"),
    ("unclosed", RULE.rstrip("\n").rsplit("\n", 1)[0] + "\n", 3, "директива {rule} не закрыта"),
    ("wrong closing", RULE.replace("\n:::\n", "\n::::\n"), 8, "закрывается 3 двоеточиями, а здесь 4"),
    ("stray closing", RULE + ":::\n", 9, "закрывающая строка без открытой директивы"),
    ("duplicate", RULE + "\n" + RULE.split("\n", 2)[2], 10, "повторяется идентификатор 401.7"),
    ("duplicate option", RULE.replace(":line: 18", ":line: 18\n:line: 19"), 6, "опция :line: повторяется"),
    ("late option", RULE.replace("Текст правила.", "Текст правила.\n:note: поздно"), 8, "сразу после"),
    ("blank body line", RULE.replace("Текст правила.", "Текст.\n\nЕщё."), 8, "пустая строка"),
    ("empty body", RULE.replace("Текст правила.\n", ""), 3, "нет текста"),
    ("flag with value", RULE.replace(":line: 18", ":line: 18\n:heading: да"), 6, "флаг"),
    ("option without value", RULE.replace(":line: 18", ":line:"), 5, "нет значения"),
    ("stray option outside", RULE + ":note: x\n", 9, "строка вне директивы"),
    ("not printed needs inferred", RULE.replace(":printed: 401.7.\n", ""), 3, "нужна опция :inferred:"),
    ("inferred needs note", RULE.replace(":printed: 401.7.\n", ":inferred:\n"), 3, "нет :note:"),
    (
        "superfluous inferred",
        RULE.replace(":line: 18", ":inferred:\n:line: 18"),
        5,
        "лишняя опция :inferred:",
    ),
    (
        "other number needs note",
        "::::{rule} 401.1\n"
        ":::{variant}\n:source: a.txt\n:line: 1\n:printed: 401.1.\nА\n:::\n"
        ":::{variant}\n:source: b.txt\n:line: 1\n:printed: 315.1.\nБ\n:::\n::::\n",
        1,
        "(315.1) отличается от 401.1: нужна :note:",
    ),
    ("wrong part file", RULE.replace("401.7", "301.7"), 3, "относится к части 3"),
    ("bad id", RULE.replace("{rule} 401.7", "{rule} 401 7"), 3, "неверный идентификатор"),
    ("variant at top", ":::{variant}\n:source: a.txt\n:line: 1\nТекст\n:::\n", 1, "только внутри"),
    ("gap bad lines", ":::{gap}\n:source: a.txt\n:lines: 5-3\n:::\n", 3, "неверный диапазон"),
    (
        "part mismatch",
        "::::{part} 5\n:::{variant}\n:source: a.txt\n:line: 1\nЧасть\n:::\n::::\n",
        1,
        "{part} «5»",
    ),
    (
        "variants out of order",
        "::::{rule} 401.1\n"
        ":::{variant}\n:source: b.txt\n:line: 1\n:printed: 401.1.\nА\n:::\n"
        ":::{variant}\n:source: a.txt\n:line: 1\n:printed: 401.1.\nБ\n:::\n::::\n",
        1,
        "по порядку",
    ),
    (
        "source option on outer rule",
        "::::{rule} 401.1\n:source: a.txt\n"
        ":::{variant}\n:source: a.txt\n:line: 1\n:printed: 401.1.\nА\n:::\n::::\n",
        2,
        "неизвестная опция :source:",
    ),
    (
        "same colons nested",
        ":::{rule} 401.1\n:::{variant}\n:::\n:::\n",
        2,
        "меньшим числом двоеточий",
    ),
]


@pytest.mark.parametrize(("case", "text", "line", "message"), BAD_CASES, ids=[c[0] for c in BAD_CASES])
def test_malformed_part_file(tmp_path, case, text, line, message):
    root = make_root(tmp_path, {"part-4.md": text})
    with pytest.raises(SourceError) as info:
        load_corpus(root)
    assert (info.value.path, info.value.line) == ("rules/part-4.md", line), str(info.value)
    assert message in info.value.message
    assert str(info.value).startswith(f"rules/part-4.md:{line}: ")


def test_unknown_source_is_an_error_when_sources_exist(tmp_path):
    root = make_root(tmp_path, {"part-4.md": RULE.replace("000_eeef2598edc2143d.txt", "999.txt")})
    (root / "rules" / "sources").mkdir()
    (root / "rules" / "sources" / S000).write_text("x\n", encoding="utf-8")
    with pytest.raises(SourceError, match=r"неизвестный источник «999\.txt»"):
        load_corpus(root)


def test_interpretation_errors(tmp_path):
    good = ":::{interpretation} I-1\n:rules: 401.7\n:title: Т\nТекст.\n:::\n"
    cases = [
        (good.replace("401.7", "401.9"), 2, "неизвестное правило «401.9»"),
        (good.replace("I-1", "И-1"), 1, "неверный номер толкования"),
        (good.replace(":title: Т\n", ""), 1, "нет обязательной опции :title:"),
        (good + good, 6, "толкование I-1 уже есть"),
        (good.replace("Текст.\n", ""), 1, "нет текста"),
    ]
    for text, line, message in cases:
        root = make_root(tmp_path, {"part-4.md": RULE, "interpretations.md": text})
        with pytest.raises(SourceError) as info:
            load_corpus(root)
        assert (info.value.path, info.value.line) == ("rules/interpretations.md", line)
        assert message in info.value.message


def test_term_errors(tmp_path):
    root = make_root(tmp_path, {"glossary.md": ":::{term} герой\n:source: a.txt\n:line: 1\nТипа.\n:::\n"})
    with pytest.raises(SourceError, match="нет обязательной опции :name:"):
        load_corpus(root)
    root = make_root(tmp_path, {"glossary.md": RULE})
    with pytest.raises(SourceError, match=r"\{rule\} не допустим в rules/glossary.md"):
        load_corpus(root)


# ---------------------------------------------------------------------------------------------
# Importer


def test_classify_source_lines():
    text = "\n".join(
        [
            " |",
            "",
            "Часть 4. Очередь",
            "401. Очередь",
            "401.7. Текст.",
            "201. 1. Текст.",
            "204. 1. 1. Текст.",
            "401.8 Текст.",
            "119. 8. Текст.",
            "· пункт;",
            "1) пункт;",
            "ПРИМЕР. Пример.",
            "Без номера.",
            "Часть 7. Терминология.",
            "Герой.Типа карты.",
        ]
    )
    lines = classify("x.txt", text)
    kinds = [line.kind for line in lines]
    assert kinds == [
        "gap", "empty", "part", "heading", "numbered", "numbered", "numbered", "numbered", "numbered",
        "list", "list", "example", "text", "part", "term",
    ]  # fmt: skip
    assert [line.printed for line in lines[3:9]] == [
        "401.",
        "401.7.",
        "201. 1.",
        "204. 1. 1.",
        "401.8",
        "119. 8.",
    ]
    assert lines[5].body == "Текст." and lines[2].part == 4


def test_slugify():
    assert slugify("Гибель (существа, карты)") == "гибель-существа-карты"
    assert slugify("Гибель: [текст]") == "гибель-текст"
    assert slugify("+Х (–Х) к атаке") == "плюс-х-минус-х-к-атаке"
    assert slugify("–X от атаки") == "минус-х-от-атаки"
    assert slugify("Выстрел на X") == slugify("Выстрел на Х") == "выстрел-на-х"
    assert slugify("Поиск — [карта/карты]") == "поиск-карта-карты"


def test_import_reproduces_committed_files():
    files = import_sources(ROOT)
    assert sorted(files) == ["glossary.md", *(f"part-{n}.md" for n in range(1, 7))]
    for name, content in files.items():
        assert (ROOT / "rules" / name).read_text(encoding="utf-8") == content, name


def _importer(tmp_path: Path, source: str, editorial: str = "") -> Importer:
    (tmp_path / "src").mkdir(parents=True)
    (tmp_path / "src" / "a.txt").write_text(source, encoding="utf-8")
    (tmp_path / "editorial.toml").write_text(editorial, encoding="utf-8")
    return Importer(tmp_path / "src", load_editorial(tmp_path / "editorial.toml"))


def test_importer_refuses_to_guess(tmp_path):
    with pytest.raises(SourceError) as info:
        _importer(tmp_path, "401. Очередь\nБез номера.\n").run()
    assert (info.value.path, info.value.line) == ("rules/sources/a.txt", 2)
    assert "строка без номера" in info.value.message


def test_importer_editorial_errors(tmp_path):
    imp = _importer(tmp_path / "1", "401. Очередь\n|\n· пункт\n")
    with pytest.raises(SourceError, match="продолжает предыдущее правило"):
        imp.run()
    imp = _importer(tmp_path / "2", "401. Очередь\n", '["a.txt"]\n7 = { note = "x" }\n')
    with pytest.raises(SourceError, match=r"a\.txt:7 не применено"):
        imp.run()
    imp = _importer(tmp_path / "3", "401. Очередь\nТекст.\n", '["a.txt"]\n2 = { id = "401.1" }\n')
    with pytest.raises(SourceError, match="поправьте inferred"):
        imp.run()
    imp = _importer(
        tmp_path / "4", "401. Очередь\nТекст.\n", '["a.txt"]\n2 = { id = "401.1", inferred = true }\n'
    )
    with pytest.raises(SourceError, match="нужна note"):
        imp.run()
    with pytest.raises(SourceError, match="неизвестные ключи"):
        _importer(tmp_path / "5", "401. Очередь\n", '["a.txt"]\n1 = { ident = "1" }\n')


def test_importer_untestable_reason_reaches_the_corpus_file(tmp_path):
    imp = _importer(
        tmp_path / "1",
        "Часть 4. Очередь\n401. Очередь\n401.1. Текст.\n",
        '["a.txt"]\n3 = { untestable = "о физических картах" }\n',
    )
    text = imp.run().files["part-4.md"]
    assert ":::{rule} 401.1\n:untestable: о физических картах\n" in text
    with pytest.raises(SourceError, match="непустая строка"):
        _importer(tmp_path / "2", "401. Очередь\n", '["a.txt"]\n1 = { untestable = "" }\n')


def test_importer_merges_and_anchors(tmp_path):
    imp = _importer(
        tmp_path,
        "Часть 4. Очередь\n401. Очередь\nВступление.\n|\n401.1. Текст.\n\n· пункт;\n",
        '[titles]\n\n["a.txt"]\n3 = { id = "401.вступление", inferred = true, note = "Без номера." }\n',
    )
    text = imp.run().files["part-4.md"]
    order = [line for line in text.splitlines() if line.startswith(":::{")]
    assert order == [
        ":::{part} 4",
        ":::{rule} 401",
        ":::{rule} 401.вступление",
        ":::{gap}",
        ":::{rule} 401.1",
    ]
    assert ":lines: 4\n" in text and "401.1. " not in text and "Текст.\n· пункт;\n:::" in text


# ---------------------------------------------------------------------------------------------
# Commands


def test_corpus_json_command(capsys, corpus):
    assert main(["corpus", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    entries = [x for x in data if x["kind"] != "part"]
    assert isinstance(data, list) and len(entries) == len(corpus.entries)
    assert entries[0]["id"] == corpus.entries[0].id
    assert {x["kind"] for x in data} == {"rule", "term", "part"}
    # Part headings (issue 7): every Part whose title is printed, with each edition as a variant,
    # right before the Part's first entry.
    parts = {x["part"]: x for x in data if x["kind"] == "part"}
    assert sorted(parts) == [2, 4, 5, 6, 7]
    five = parts[5]
    assert five["id"] == "часть-5" and five["title"] == "Часть 5. Игровой процесс"
    assert [(v["source"], v["line"], v["text"]) for v in five["variants"]] == [
        (S000, 24, "Часть 5. Игровой процесс"),
        (S001, 67, "Часть 5. Игровой процесс."),
    ]
    index = data.index(five)
    assert data[index + 1]["part"] == 5 and data[index - 1]["part"] < 5


def test_corpus_summary_command(capsys):
    assert main(["corpus"]) == 0
    out = capsys.readouterr().out
    assert "Часть 4. Очередь: правил" in out
    assert "Часть 7. Терминология.: терминов 134" in out


def test_import_check_is_clean(capsys):
    assert main(["import", "--check"]) == 0
    assert "совпадает" in capsys.readouterr().out


def test_import_module_is_importable_by_cli():
    assert callable(importlib.import_module("berserk_rules.commands.import").run)


def test_import_out_and_check_on_a_changed_copy(tmp_path, monkeypatch, capsys):
    project = tmp_path / "project"
    shutil.copytree(ROOT / "rules", project / "rules")
    (project / "pyproject.toml").write_text("", encoding="utf-8")
    monkeypatch.chdir(project)
    part4 = project / "rules" / "part-4.md"
    part4.write_text(
        part4.read_text(encoding="utf-8").replace("Очередь состоит", "Очередь состоят"), encoding="utf-8"
    )
    assert main(["import", "--check"]) == 1
    err = capsys.readouterr().err
    assert "part-4.md" in err and "part-3.md" not in err
    out = tmp_path / "out"
    assert main(["import", "--out", str(out)]) == 0
    assert sorted(p.name for p in out.iterdir()) == ["glossary.md", *(f"part-{n}.md" for n in range(1, 7))]
    assert (out / "part-4.md").read_text(encoding="utf-8") == (ROOT / "rules" / "part-4.md").read_text(
        encoding="utf-8"
    )
    (project / "rules" / "part-9.md").write_text("# Часть 9\n", encoding="utf-8")
    assert main(["import", "--check"]) == 1
    assert "part-9.md" in capsys.readouterr().err
    assert main(["import"]) == 0
    assert not (project / "rules" / "part-9.md").exists()
    assert main(["import", "--check"]) == 0


def test_command_reports_source_error(tmp_path, monkeypatch, capsys):
    root = make_root(tmp_path, {"part-4.md": RULE.replace("{rule}", "{правило}")})
    monkeypatch.chdir(root)
    assert main(["corpus"]) == 2
    assert "rules/part-4.md:3: неизвестная директива" in capsys.readouterr().err
