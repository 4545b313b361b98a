"""Card text that moves a card between zones: «Вернуть (убрать) в колоду» — into its owner's deck,
shuffled (204.3, 204.4) or at a named place without a shuffle («на верх колоды», «под низ колоды»);
«Убрать (положить, поместить) на кладбище» — to the owner's graveyard, which is not a destruction.

Every move goes through :func:`zones.move` (203.4, 204.4: the owner's zone, a new object without
effects and markers).
"""

from __future__ import annotations

from berserk_engine.keywords import term

term(__name__, "вернуть-убрать-в-колоду")
term(__name__, "убрать-положить-поместить-на-кладбище")
