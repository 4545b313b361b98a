"""«Орда»: a constant ability that works in the deck — a deck for a «констрактед» tournament may hold
5 (or fewer) identical cards with «Орда» instead of 3 (``berserk_engine.construction``)."""

from __future__ import annotations

from berserk_engine.keywords import keyword

HORDE = keyword(__name__, "орда", "Орда", "Орда", "static", "Орда.")
