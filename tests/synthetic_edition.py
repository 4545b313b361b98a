"""A synthetic full-length edition of the rules: invented neutral text with the official structure.

Used to prove ``berserk-rules import --edition`` and ``site --corpus`` on a text as long as a
complete edition without copying any rule text. Deterministic (fixed seed). Structure, as in the
official texts: a title line, Parts 1–6 with numbered sections (``401. …``), numbered paragraphs
(``401.7. …``, some ``517.3.1. …``), unnumbered paragraphs, ``ПРИМЕР`` and ``ВАЖНО`` blocks, list
lines (``· …``, ``1) …``), tables (tab-separated rows), icon placeholders (``[Монета]``), references
(«согласно 309.2») and Part 7 — the glossary, with «См. …» references.

Run ``python tests/synthetic_edition.py OUT.txt`` to write it (``--sections N`` for another size).
"""

from __future__ import annotations

import argparse
import random
from pathlib import Path

TITLE = "Полные правила игры. Синтетическая редакция для проверки импорта (текст придуман)."
PART_NAMES = (
    "Общие положения",
    "Карты и зоны",
    "Структура хода",
    "Порядок выполнения",
    "Игровой процесс",
    "Окончание игры",
)
SUBJECTS = (
    "игрок",
    "противник",
    "существо",
    "карта",
    "отряд",
    "герой",
    "заклинание",
    "маркер",
    "колода",
    "зона",
    "фаза",
    "способность",
    "эффект",
    "цель",
    "источник",
    "знак",
    "жетон",
    "рубеж",
    "клятва",
)
VERBS = (
    "получает",
    "теряет",
    "выбирает",
    "открывает",
    "закрывает",
    "переносит",
    "отмечает",
    "называет",
    "проверяет",
    "сохраняет",
    "меняет",
    "показывает",
    "откладывает",
    "возвращает",
    "учитывает",
)
OBJECTS = (
    "один жетон",
    "свою карту",
    "новую цель",
    "верхнюю карту колоды",
    "открытый маркер",
    "два знака",
    "ближайший рубеж",
    "указанную зону",
    "текущую фазу",
    "значение силы",
    "порядок хода",
    "выбранное существо",
    "карту из запаса",
    "собственный отряд",
    "все отметки",
)
TAILS = (
    "до конца хода",
    "в начале следующей фазы",
    "если это разрешено",
    "пока действует эффект",
    "один раз за ход",
    "только в свой ход",
    "после проверки условий",
    "если нет других указаний",
    "сразу после объявления",
    "не раньше следующего хода",
)
ICONS = ("[Монета]", "[Закрыть]", "[Удар]", "[Жизнь]", "[Стихия]")
ADJECTIVES = (
    "Дальний",
    "Тихий",
    "Старый",
    "Быстрый",
    "Скрытый",
    "Верный",
    "Двойной",
    "Ранний",
    "Поздний",
    "Вечный",
    "Малый",
    "Большой",
    "Крайний",
    "Общий",
    "Пустой",
    "Северный",
    "Южный",
    "Ясный",
)
NOUNS = (
    "рубеж",
    "знак",
    "жетон",
    "отряд",
    "предел",
    "круг",
    "путь",
    "счёт",
    "заслон",
    "сбор",
    "обмен",
    "порог",
    "дозор",
    "запас",
    "строй",
    "шаг",
    "ритм",
    "залог",
)


def sentence(rng: random.Random, refs: list[str]) -> str:
    words = [rng.choice(SUBJECTS).capitalize(), rng.choice(VERBS), rng.choice(OBJECTS)]
    if rng.random() < 0.6:
        words.append(rng.choice(TAILS))
    if rng.random() < 0.12:
        words.append(f"за {rng.randint(1, 3)} {rng.choice(ICONS)}")
    if refs and rng.random() < 0.1:
        words.append(f"согласно {rng.choice(refs)}")
    return " ".join(words) + "."


def paragraph(rng: random.Random, refs: list[str]) -> str:
    return " ".join(sentence(rng, refs) for _ in range(rng.randint(1, 3)))


def term_names(count: int) -> list[str]:
    names = [f"{a} {n}" for a in ADJECTIVES for n in NOUNS]
    random.Random(7).shuffle(names)
    return ["Жетон", "Рубеж", "Клятва", "Знак", *names][:count]


def generate(sections_per_part: int = 11, terms: int = 240, seed: int = 17) -> str:
    """The whole text (about 1,300 numbered paragraphs and 240 terms by default)."""
    rng = random.Random(seed)
    out = [TITLE, ""]
    done: list[str] = []
    for part, part_name in enumerate(PART_NAMES, 1):
        out += [f"Часть {part}. {part_name}.", ""]
        out += [paragraph(rng, done), ""]  # the Part's introduction, without a number
        for section in range(1, sections_per_part + 1):
            head = f"{part}{section:02d}"
            out += [f"{head}. Раздел {section} части {part}.", ""]
            for number in range(1, rng.randint(14, 24)):
                rule = f"{head}.{number}"
                out.append(f"{rule}. {paragraph(rng, done)}")
                roll = rng.random()
                if roll < 0.12:
                    out.append(f"ПРИМЕР. {paragraph(rng, done)}")
                elif roll < 0.18:
                    out.append(f"ВАЖНО: {sentence(rng, done)}")
                elif roll < 0.26:
                    out += [f"· {sentence(rng, [])}" for _ in range(rng.randint(2, 4))]
                elif roll < 0.30:
                    out += [f"{k}) {sentence(rng, [])}" for k in range(1, rng.randint(3, 5))]
                elif roll < 0.34:
                    out.append(paragraph(rng, done))  # an unnumbered paragraph
                elif roll < 0.37:
                    out += ["Стоимость\tЗначок\tЭффект"]
                    out += [
                        f"{k}\t{rng.choice(ICONS)}\t{rng.choice(OBJECTS)}"
                        for k in range(1, rng.randint(3, 6))
                    ]
                if rng.random() < 0.08:
                    for sub in range(1, rng.randint(2, 5)):
                        out.append(f"{rule}.{sub}. {paragraph(rng, done)}")
                done.append(rule)
                out.append("")
    names = term_names(terms)
    out += ["Часть 7. Терминология.", ""]
    for index, name in enumerate(names):
        definition = paragraph(rng, done)
        if index and rng.random() < 0.15:
            definition += f" См. также {names[rng.randrange(index)]}."
        out.append(f"{name}. {definition}")
        if rng.random() < 0.05:
            out.append(f"ПРИМЕР. {sentence(rng, [])}")
    return "\n".join(out) + "\n"


FRONT_MATTER = (
    "ПОЛНЫЕ ПРАВИЛА ИГРЫ",
    "Синтетическая редакция 2.0 (текст придуман для проверки импорта)",
    "",
    "Авторы: Иван Пример, Мария Образец. Редактор: Пётр Тестов.",
    "Вёрстка: Отдел проверки. © 2026 Синтетическое издательство. Все права защищены.",
    "",
    "Эта книга описывает полные правила игры. Если правило карты противоречит этой книге, "
    "побеждает правило карты.",
    "",
)


def official_like(sections_per_part: int = 3, terms: int = 40, seed: int = 17) -> str:
    """The text as a converter from a printed book gives it: a title page, credits and an
    introduction before Part 1, a table of contents (headings with page numbers, some after dot
    leaders, some after a space only), section headings written with Markdown escapes (``201\\.``),
    ``\\*`` in the text, and a number the source itself prints twice (``302.5`` after ``302.4``
    comes again as ``302.4``)."""
    lines = generate(sections_per_part, terms, seed).split("\n")
    body = lines[2:]  # without the title line of :func:`generate`
    contents = ["Содержание", ""]
    page = 3
    for line in body:
        if line.startswith("Часть "):
            contents.append(f"{line.rstrip('.')} {'.' * 12} {page}")
            page += 4
        elif len(line) > 4 and line[:3].isdigit() and line[3:5] == ". ":
            contents.append(f"{line} {page}")  # a section: its page after a space only
            page += 1
    out: list[str] = [*FRONT_MATTER, *contents, ""]
    for line in body:
        if line.startswith("2") and line[3:5] == ". ":
            line = line[:3] + "\\" + line[3:]  # «201\. Раздел …»
        elif line.startswith("302.5. "):
            line = "302.4. " + line.removeprefix("302.5. ")  # the source's own mistake
        elif line.startswith("303.2. "):
            line = line.replace(" ", " \\* ", 1)  # an escaped asterisk inside the text
        out.append(line)
    return "\n".join(out)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("out", type=Path)
    parser.add_argument("--sections", type=int, default=11, help="numbered sections per Part")
    args = parser.parse_args()
    text = generate(args.sections)
    args.out.write_text(text, encoding="utf-8")
    print(f"{args.out}: {len(text.splitlines())} строк, {len(text.encode())} байт")


if __name__ == "__main__":
    main()
