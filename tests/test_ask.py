"""``berserk-rules ask`` (issue 19, item 1): a judge's own feature file, anywhere on disk, run as it is —
verdicts, the game as Russian lines with the rules applied, errors in the judge's text with the
suggestions the suite has, exit codes; and the replay's pieces it shares with the site (the folded
failed draws, the step list without JavaScript)."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

from berserk_rules.report.trace import StepTrace, board_of
from berserk_rules.rulebook.project import project_root
from berserk_rules.site.replay import folded_entries, stepper_html

ROOT = project_root()

QUESTION = """# language: ru
Функция: Вопрос судьи о «Гибели»

  Сценарий: Гибель гоблина ранит героя противника
    Дано карты:
      | название     | тип        | стоимость | удар | жизни | текст                                 |
      | Гоблин       | существо   | 1         | 1    | 1     | Гибель: ранить на 1 героя противника. |
      | Огневой залп | заклинание | 1         |      |       | Ранить на 2 выбранное существо.       |
    И идёт ход 3
    И идёт фаза выбора игрока А
    И в руке у игрока А «Огневой залп»
    И у игрока А маркеров монет: 1 открытых, 0 закрытых
    И в игровой зоне у игрока Б «Гоблин»
    Когда игрок А разыгрывает «Огневой залп» с целью «Гоблин»
    Тогда «Гоблин» лежит на кладбище игрока Б
    Когда игрок Б заявляет «Гибель: ранить на 1 героя противника.» карты «Гоблин»
    Тогда у героя игрока А ран: 1

  @rule-305.1
  Сценарий: Судья ошибся в ожидании
    Дано карты:
      | название | тип      | стоимость | удар | жизни |
      | Гном     | существо | 2         | 2    | 3     |
    И идёт ход 3
    И в игровой зоне у игрока А «Гном»
    Когда начинается ход игрока А
    Тогда у героя игрока Б ран: 5
"""


def ask(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    command = [sys.executable, "-m", "berserk_rules.cli", "ask", *args]
    return subprocess.run(command, cwd=cwd, capture_output=True, text=True, timeout=300, check=False)


@pytest.fixture(scope="module")
def answered(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, subprocess.CompletedProcess[str]]:
    """The question asked once from a folder outside the checkout, with a page written."""
    folder = tmp_path_factory.mktemp("judge")
    assert not folder.resolve().is_relative_to(ROOT.resolve())
    (folder / "вопрос.feature").write_text(QUESTION, encoding="utf-8")
    before = subprocess.run(["git", "status", "--porcelain"], cwd=ROOT, capture_output=True, text=True).stdout
    done = ask("вопрос.feature", "--html", "ответ/вопрос.html", cwd=folder)
    after = subprocess.run(["git", "status", "--porcelain"], cwd=ROOT, capture_output=True, text=True).stdout
    assert before == after, "ask изменил дерево проекта"
    return folder, done


@pytest.mark.slow  # runs the question: a pytest process and an engine
def test_verdicts_and_exit_code(answered: tuple[Path, subprocess.CompletedProcess[str]]) -> None:
    _, done = answered
    out = done.stdout
    assert done.returncode == 1, done.stderr  # one scenario failed
    assert "Сценарий «Гибель гоблина ранит героя противника» (вопрос.feature:4): прошёл" in out
    assert "Сценарий «Судья ошибся в ожидании» (вопрос.feature:20): не прошёл" in out
    assert "раны героя игрока Б: ожидалось 5, на деле 0" in out
    assert "Итого сценариев: 2, прошли 1, не прошли 1." in out


@pytest.mark.slow  # runs the question: a pytest process and an engine
def test_game_as_russian_lines_with_rules(answered: tuple[Path, subprocess.CompletedProcess[str]]) -> None:
    _, done = answered
    out = done.stdout
    # each step, then the entries it caused with the rule or term applied
    play = out.index("Когда игрок А разыгрывает «Огневой залп» с целью «Гоблин» (строка 14)")
    declare = out.index("Когда игрок Б заявляет «Гибель: ранить на 1 героя противника.» карты «Гоблин»")
    between = out[play:declare]
    assert "• Игрок А разыгрывает «Огневой залп» — правило 309.1" in between
    assert "• «Гоблин» получает ран: 2 — термин «Раны»" in between
    assert "• Игрок Б заявляет «Гибель: ранить на 1 героя противника.» («Гоблин») — в Очереди 1-й" in out
    # the position at the start, and the text of the rules applied at the end
    assert "Игрок Б: герой «Герой Б» (жизней 20, ран 0)" in out
    assert "в игре: «Гоблин» (удар 1, жизней 1)" in out
    applied = out[out.index("Применённые правила (фон):") :]
    assert re.search(r"правило 309\.1: В эту фазу активный игрок должен заявить", applied)
    # the failed step is marked
    assert "✗ Тогда у героя игрока Б ран: 5 (строка 27)" in out


@pytest.mark.slow  # runs the question: a pytest process and an engine
def test_failed_draws_of_a_position_without_deck_are_folded(
    answered: tuple[Path, subprocess.CompletedProcess[str]],
) -> None:
    _, done = answered
    second = done.stdout[done.stdout.index("Сценарий «Судья ошибся") :]
    assert "свёрнуто: 2 — неудачные попытки взять карту из колоды, которой нет в позиции" in second
    assert "не может взять карту" not in second


@pytest.mark.slow  # runs the question: a pytest process and an engine
def test_page_is_self_contained(answered: tuple[Path, subprocess.CompletedProcess[str]]) -> None:
    folder, done = answered
    page = (folder / "ответ" / "вопрос.html").read_text(encoding="utf-8")
    assert "Страница с партиями по шагам: ответ/вопрос.html" in done.stdout
    assert page.startswith("<!DOCTYPE html>") and '<html lang="ru">' in page
    assert not re.search(r"""(?:src|href)=["']?(?:https?:)?//""", page), "внешняя ссылка на ресурс"
    assert "<link" not in page and "<script src" not in page
    assert "setupReplays" in page and ".berserk-stepper-on" in page  # the site's script and styles
    assert page.count('class="berserk-stepper"') == 2


def write(folder: Path, text: str) -> Path:
    path = folder / "вопрос.feature"
    path.write_text(text, encoding="utf-8")
    return path


def test_errors_in_the_judges_text_with_suggestions(tmp_path: Path) -> None:
    text = QUESTION.replace(
        "Когда игрок А разыгрывает «Огневой залп» с целью «Гоблин»", "Когда игрок А играет шар"
    )
    text = text.replace("@rule-305.1", "@rule-305.77")
    text = text.replace(
        "| Гоблин       | существо   | 1         | 1    | 1     | Гибель: ранить на 1 героя противника. |",
        "| Гоблин       | существо   | 1         | 1    | 1     | Гибель: ранить всех подряд.           |",
    )
    write(tmp_path, text)
    done = ask("вопрос.feature", "--html", "стр.html", cwd=tmp_path)
    assert done.returncode == 2
    err = done.stderr
    assert "berserk-rules ask: в вопрос.feature есть ошибки, сценарии не запущены:" in err
    assert "вопрос.feature:14: нет определения шага «Когда игрок А играет шар»; похожие шаги:" in err
    assert re.search(
        r"вопрос\.feature:19: тег @rule-305\.77: правила 305\.77 нет в корпусе; возможно: .*305\.1", err
    )
    card = re.search(
        r"вопрос\.feature:7:(\d+): карта «Гоблин», предложение 1: движок не понимает текст: .*", err
    )
    assert card, err
    assert (
        "ближайшие формы: «Гибель: ранить на 1 героя противника.»" in card[0] or "ближайшие формы:" in card[0]
    )
    assert done.stdout == "" and not (tmp_path / "стр.html").exists()  # nothing run, nothing written


def test_a_card_with_a_mechanic_outside_our_rules_is_named(tmp_path: Path) -> None:
    """Issue 29, item 3: a question's card that uses a mechanic our rules do not define is named with
    where it is defined — not reported as words the engine does not understand, and nothing runs."""
    text = QUESTION.replace(
        "| Гоблин       | существо   | 1         | 1    | 1     | Гибель: ранить на 1 героя противника. |",
        "| Гоблин       | существо   | 1         | 1    | 1     | Модуль. Гибель: подготовьте героя.    |",
    )
    write(tmp_path, text)
    done = ask("вопрос.feature", cwd=tmp_path)
    assert done.returncode == 2
    line = next(x for x in done.stderr.splitlines() if "карта «Гоблин»" in x)
    named = r"вопрос\.feature:7:\d+: карта «Гоблин»: механика не из этих правил: Модуль — определена: "
    assert re.match(named, line), line
    assert "Подготовить — определена: статья «Подготовить [карту/карты].»" in line
    assert "движок не понимает" not in line and done.stdout == ""


def test_no_rule_tag_needed_but_language_line_is(tmp_path: Path) -> None:
    write(tmp_path, QUESTION.replace("# language: ru\n", ""))
    done = ask("вопрос.feature", cwd=tmp_path)
    assert done.returncode == 2
    assert "вопрос.feature:1: первая строка должна быть «# language: ru»" in done.stderr
    assert "no-rule-tag" not in done.stderr and "не привязан" not in done.stderr


def test_missing_file_and_folder_page(tmp_path: Path) -> None:
    done = ask("нет.feature", cwd=tmp_path)
    assert done.returncode == 2 and "berserk-rules ask: ошибка: нет.feature: нет такого файла" in done.stderr
    write(tmp_path, QUESTION)
    done = ask("вопрос.feature", "--html", str(tmp_path), cwd=tmp_path)
    assert done.returncode == 2 and "это папка" in done.stderr


# --- the replay's pieces -------------------------------------------------------------------------

LOG = [
    {"seq": 1, "turn": 3, "event": "phase", "text": "Фаза восстановления", "rule": "303"},
    {
        "seq": 2,
        "event": "draw_failed",
        "player": "Б",
        "text": "Игрок Б не может взять карту",
        "rule": "304.2",
    },
    {
        "seq": 3,
        "event": "draw_failures",
        "player": "Б",
        "text": "Игрок Б не смог взять карту",
        "rule": "304.2",
    },
    {
        "seq": 4,
        "event": "draw_failed",
        "player": "А",
        "text": "Игрок А не может взять карту",
        "rule": "304.2",
    },
]


def test_folding_is_only_for_a_player_without_deck_and_not_about_draws() -> None:
    record = {"rules": ["305.1"], "log": LOG, "position": {"players": {"А": {"deck": []}, "Б": {}}}}
    assert folded_entries(record) == {1, 2}  # Б had no deck; А's deck was given (empty): kept
    assert folded_entries({**record, "rules": ["304.2"]}) == set()  # about draws: nothing folded
    assert folded_entries({**record, "terms": ["возьмите-карту"]}) == set()
    assert (
        folded_entries({**record, "position": {"players": {"А": {"deck": []}, "Б": {"deck": []}}}}) == set()
    )


class FakeDriver:
    def __init__(self) -> None:
        self.wounds = 0
        self.entries: list[dict[str, object]] = []

    def observe(self, player: str | None) -> dict[str, object]:
        hero = {"id": "h", "name": "Герой Б", "life": 20, "wounds": self.wounds, "owner": "Б"}
        return {
            "turn": 3,
            "active": "А",
            "phase": "choice",
            "play": [hero, {"id": "c1", "name": "Гном", "owner": "А", "controller": "А", "life": 3}],
            "queue": [],
            "players": {"А": {"hero": {"id": "x", "name": "Герой А"}}, "Б": {"hero": hero}},
        }

    def log(self, player: str | None = None) -> list[dict[str, object]]:
        return self.entries


def test_trace_and_stepper_without_javascript() -> None:
    driver = FakeDriver()
    trace = StepTrace()
    trace.after_step(None, "Дано ", "идёт ход 3", 5, kind="given")
    trace.started(driver)  # type: ignore[arg-type]
    driver.wounds = 1
    driver.entries = [{"event": "wound", "text": "«Герой Б» получает ран: 1", "rule": "раны"}]
    trace.after_step(driver, "Когда ", "игрок А атакует", 6, kind="when")  # type: ignore[arg-type]
    trace.after_step(driver, "Тогда ", "у героя игрока Б ран: 1", 7, kind="then")  # type: ignore[arg-type]
    steps = trace.to_json()
    assert [s.get("log") for s in steps] == [None, [0, 0], [0, 1], [1, 1]]
    assert "board" in steps[1] and "board" in steps[2] and "board" not in steps[3]  # unchanged
    assert board_of(driver.observe(None))["play"] == [{"name": "Гном", "owner": "А", "life": 3}]
    record = {"steps": steps, "log": driver.entries, "position": {}}
    page = stepper_html(record, lambda r: (f"термин «{r}»", "glossary.html#term-раны", None), "r1")
    assert len(re.findall(r'<li id="r1-step-\d+"', page)) == 4  # the «Дано» steps are one item
    third = page[page.index('id="r1-step-2"') : page.index('id="r1-step-3"')]
    assert 'id="r1-log-0"' in third and "получает ран: 1" in third
    assert '<a class="berserk-log-rule" href="glossary.html#term-раны">(термин «раны»)</a>' in third
    assert "ран 1" in third  # the board after the step
    assert 'data-board="2"' in page[page.index('id="r1-step-3"') :]
    assert "Позиция не изменилась." in page


def test_trace_of_an_engine_process_has_boards_only() -> None:
    """With ``--berserk-engine`` the log is asked once, as the scenario's last request (issue 15): the
    trace asks only for the boards, and the page shows the whole log after the steps."""
    driver = FakeDriver()
    trace = StepTrace(with_log=False)
    asked: list[str] = []
    log = driver.log
    driver.log = lambda player=None: asked.append("log") or log(player)  # type: ignore[method-assign]
    trace.started(driver)  # type: ignore[arg-type]
    driver.wounds = 1
    driver.entries = [{"event": "wound", "text": "«Герой Б» получает ран: 1", "rule": "раны"}]
    trace.after_step(driver, "Когда ", "игрок А атакует", 6, kind="when")  # type: ignore[arg-type]
    steps = trace.to_json()
    assert asked == [] and [s["log"] for s in steps] == [None, None]
    assert steps[1]["board"]["players"]["Б"]["hero"]["wounds"] == 1
    page = stepper_html({"steps": steps, "log": driver.entries}, lambda r: (r, None, None), "r2")
    assert "движок-процесс: записи по шагам не разнесены" in page and 'id="r2-log-0"' in page
    assert page.count('class="berserk-replay-board"') == 2


OUTLINE = """# language: ru
Функция: Структура сценария в вопросе

  Предыстория:
    Дано карты:
      | название | тип      | стоимость | удар | жизни |
      | Гном     | существо | 2         | 2    | 3     |

  Структура сценария: Гном в отряде
    Дано идёт фаза выбора игрока А
    И в игровой зоне у игрока А «Гном»
    Тогда «Гном» в отряде игрока <игрок>

    Примеры:
      | игрок |
      | А     |
      | Б     |
"""


@pytest.mark.slow  # runs the question: a pytest process and an engine
def test_outline_rows_and_json(tmp_path: Path) -> None:
    (tmp_path / "структура.feature").write_text(OUTLINE, encoding="utf-8")
    done = ask("структура.feature", "--json", cwd=tmp_path)
    assert done.returncode == 1, done.stderr
    data = json.loads(done.stdout)
    rows = [(s["id"], s["name"], s["status"]) for s in data["scenarios"]]
    assert rows == [
        ("структура.feature:16", "Гном в отряде (А)", "passed"),
        ("структура.feature:17", "Гном в отряде (Б)", "failed"),
    ]
    steps = data["scenarios"][0]["steps"]
    assert [s["text"] for s in steps if "line" in s][:2] == ["карты:", "идёт фаза выбора игрока А"]
    assert steps[-1]["text"] == "«Гном» в отряде игрока А"  # the row's value in the step


# --- `--html` never destroys a file (issue 26, item 6) -------------------------------------------


def test_html_refuses_the_question_itself(tmp_path: Path) -> None:
    write(tmp_path, QUESTION)
    done = ask("вопрос.feature", "--html", "вопрос.feature", cwd=tmp_path)
    assert done.returncode == 2, done.stderr
    assert "--html вопрос.feature: это сам файл вопроса" in done.stderr
    assert (tmp_path / "вопрос.feature").read_text(encoding="utf-8") == QUESTION  # untouched, nothing run
    assert done.stdout == ""
    # the same file by another spelling of its path
    done = ask("вопрос.feature", "--html", str(tmp_path / "." / "вопрос.feature"), cwd=tmp_path)
    assert done.returncode == 2 and "это сам файл вопроса" in done.stderr


def test_html_refuses_a_foreign_file_and_a_link(tmp_path: Path) -> None:
    write(tmp_path, QUESTION)
    mine = tmp_path / "заметки.html"
    mine.write_text("<!DOCTYPE html><p>мои заметки</p>", encoding="utf-8")
    done = ask("вопрос.feature", "--html", "заметки.html", cwd=tmp_path)
    assert done.returncode == 2
    assert "--html заметки.html: файл уже есть, и его записал не berserk-rules ask" in done.stderr
    assert mine.read_text(encoding="utf-8") == "<!DOCTYPE html><p>мои заметки</p>"
    link = tmp_path / "ссылка.html"
    link.symlink_to(mine)
    done = ask("вопрос.feature", "--html", "ссылка.html", cwd=tmp_path)
    assert done.returncode == 2 and "это не обычный файл" in done.stderr
    assert mine.read_text(encoding="utf-8") == "<!DOCTYPE html><p>мои заметки</p>"


def test_html_target_rules_and_atomic_write(tmp_path: Path) -> None:
    from berserk_rules.commands.ask import PAGE_MARKER, html_target_problem, write_atomically

    question = tmp_path / "вопрос.feature"
    question.write_text(QUESTION, encoding="utf-8")
    assert html_target_problem(tmp_path / "новая" / "стр.html", question) is None  # a new file
    ours = tmp_path / "стр.html"
    write_atomically(ours, f"<!DOCTYPE html>\n<html><head>{PAGE_MARKER}</head></html>")
    assert html_target_problem(ours, question) is None  # a page ask wrote may be replaced
    write_atomically(ours, "второй вариант")
    assert ours.read_text(encoding="utf-8") == "второй вариант"
    assert html_target_problem(ours, question) is not None  # no marker any more: foreign
    assert [p.name for p in tmp_path.iterdir() if p.name.endswith(".tmp")] == []  # no temporary left
    late = f"<!DOCTYPE html>{' ' * 5000}{PAGE_MARKER}"
    ours.write_text(late, encoding="utf-8")
    assert html_target_problem(ours, question) is not None  # the marker must stand in the head


@pytest.mark.slow  # runs the question twice
def test_the_page_carries_the_marker(answered: tuple[Path, subprocess.CompletedProcess[str]]) -> None:
    from berserk_rules.commands.ask import MARKER_WINDOW, PAGE_MARKER

    folder, done = answered
    page = (folder / "ответ" / "вопрос.html").read_text(encoding="utf-8")
    assert PAGE_MARKER in page[:MARKER_WINDOW]
    again = ask("вопрос.feature", "--html", "ответ/вопрос.html", cwd=folder)  # its own page: replaced
    assert again.returncode == done.returncode and "Страница с партиями по шагам" in again.stdout


ATTACK_QUESTION = """# language: ru
Функция: Вопрос судьи о закрытии атакующего

  @interpretation-I-20
  Сценарий: Атакующий закрывается, когда раны нанесены
    Дано карты:
      | название | тип      | стоимость | удар | жизни |
      | Гном     | существо | 2         | 2    | 3     |
    И идёт ход 3
    И идёт фаза выбора игрока А
    И в игровой зоне у игрока А «Гном»
    Когда игрок А атакует существом «Гном» персонажа «Герой Б»
    Тогда карта «Гном» открыта
    Когда игрок Б не назначает защитника
    Тогда карта «Гном» закрыта
"""


@pytest.mark.slow  # runs the question: a pytest process and an engine
def test_ask_shows_the_deciding_rules_first(tmp_path: Path) -> None:
    """Issue 26, item 1: a question that answers a ruling shows the interpretation that decides it —
    in full, before the game, with its address on the site — and the log line it decides."""
    (tmp_path / "атака.feature").write_text(ATTACK_QUESTION, encoding="utf-8")
    done = ask("атака.feature", "--site", "https://свод.example", "--html", "атака.html", cwd=tmp_path)
    assert done.returncode == 0, done.stdout + done.stderr
    out = done.stdout
    decides = out.index("  Что решает ответ:")
    assert decides < out.index("Когда игрок А атакует существом «Гном» персонажа «Герой Б»")
    head = out[decides : out.index("Когда игрок А атакует")]
    assert "▸ толкование I-20 «Атакующее существо закрывается, когда раны нанесены»" in head
    assert "(https://свод.example/interpretations.html#interpretation-I-20)" in head
    assert "по опубликованному разъяснению" in head  # the whole text, not a cut
    assert head.index("толкование I-20") < head.index("▸ термин «Действие (карты)»")  # the tag first
    assert "• «Гном» закрывается — термин «Закрыть (существо, карту)»; решает: " in out
    background = out[out.index("Применённые правила (фон):") :]
    assert "толкование I-20" not in background  # shown in full above, not again as background
    page = (tmp_path / "атака.html").read_text(encoding="utf-8")
    assert page.index("<h3>Что решает ответ</h3>") < page.index('class="berserk-stepper"')
    assert 'href="https://свод.example/interpretations.html#interpretation-I-20"' in page
    assert 'class="berserk-log-deciding"' in page
