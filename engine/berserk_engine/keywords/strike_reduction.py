"""«Сведение удара к Х»: a replacement effect when the strength of a strike is computed during an
attack — the strike is replaced by Х.

Interpretation I-24: the card with the ability is the one struck (as with «–X от атаки», a protection
of the card): the blow of a strike attack or a fight dealt to it, and a counter-blow dealt to it, is
reduced to Х when it is stronger («сведение» — reduction); a shot is not a strike. A card that ignores
«Сведение удара» (Игнорировать [замещение]) strikes with its full strength.
"""

from __future__ import annotations

from berserk_engine import characteristics as ch
from berserk_engine import hooks
from berserk_engine.keywords import keyword

REDUCTION = keyword(
    __name__,
    "сведение-удара-к-х",
    "Сведение удара к Х",
    "Сведение удара к {x:Num}",
    "static",
    "Сведение удара к 1.",
)


@hooks.needs(REDUCTION.term)  # a game where no card can have it never asks
def _replace(game, striker: str, target, strength: int) -> int | None:
    if not game.present(REDUCTION.term):
        return None
    value = ch.keyword(game, target, REDUCTION.term)
    if value is False or value is True or strength <= int(value):
        return None
    if hooks.ignores(game, striker, "replacement", REDUCTION.term):
        game.log(
            "ignored",
            f"Удар по «{target.name}» не сводится: замещение игнорируется",
            card=target.id,
            rule="игнорировать-замещение",
        )
        return None
    game.log(
        "replaced",
        f"Эффект замещения: удар по «{target.name}» сводится к {value} (был {strength})",
        card=target.id,
        rule=REDUCTION.term,
    )
    return int(value)


hooks.STRIKE_REPLACEMENT.append(_replace)
