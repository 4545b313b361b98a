"""Any input is a clear error, never a traceback (issue 25): a card text of thousands of clauses, a number
of 22 digits, a character that belongs to no word — in the engine, in ``cards`` and in ``deck``."""

from __future__ import annotations

from pathlib import Path

import pytest
from berserk_engine.cards import CardDef
from berserk_engine.errors import CardTextError

from berserk_rules.cli import main

LONG = "Ранить на 1 выбранное существо" + ", возьмите карту" * 1000 + "."  # 1001 clauses
HUGE = "Возьмите карту. Ранить на 1234567890123456789012 выбранное существо."


@pytest.mark.parametrize(
    ("text", "words", "position"),
    [
        (LONG, "текст карты слишком длинный (символов: 16031, можно не больше 2000)", (1, 2000)),
        (HUGE, "слишком большое число «1234567890123456789012»", (2, 26)),
        ("Ранить на 1 выбранное существо ©.", "непонятный знак «©»", (1, 31)),
    ],
)
def test_a_text_no_card_can_hold_is_a_card_text_error(
    text: str, words: str, position: tuple[int, int]
) -> None:
    with pytest.raises(CardTextError) as caught:
        CardDef.build("Проба", "заклинание", text=text, cost=1)
    assert words in caught.value.message
    assert caught.value.position == position
    assert len(caught.value.text) < 100  # the sentence shown is cut, not 16 000 characters


def test_the_card_list_names_each_bad_row_and_reads_the_rest(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "cards.txt"
    path.write_text(
        "| название | тип | стоимость | текст |\n"
        f"| Проба | заклинание | 1 | {LONG} |\n"
        f"| Число | заклинание | 1 | {HUGE} |\n"
        "| Хорошая | заклинание | 1 | Возьмите карту. |\n",
        encoding="utf-8",
    )
    assert main(["cards", str(path)]) == 1
    out = capsys.readouterr().out
    assert f"{path}:2:2028: карта «Проба», предложение 1: текст карты слишком длинный" in out
    assert f"{path}:3:" in out and "слишком большое число" in out
    assert "Карт в списке: 3 — не прочитаны: 2." in out


def test_a_deck_with_such_a_text_is_an_error_naming_its_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "deck.txt"
    path.write_text(
        f"| количество | название | тип | стоимость | текст |\n| 1 | Проба | заклинание | 1 | {LONG} |\n",
        encoding="utf-8",
    )
    assert main(["deck", str(path)]) == 2
    assert f"{path}:2: карта «Проба»" in capsys.readouterr().err
