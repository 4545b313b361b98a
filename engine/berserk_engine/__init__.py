"""Эталонный движок «Берсерк. Герои» (reference engine).

Public entry points: :class:`berserk_engine.game.Game` (state machine: ``decision()``,
``legal_actions()``, ``act()``, ``observe()``), :func:`berserk_engine.grammar.parse_card_text`
(printed card text: the phrase registry and the grammar) and :mod:`berserk_engine.setup`
(declarative positions).
Modules are named after the mechanics they implement: ``turn`` (Part 3), ``queue`` (Part 4),
``combat`` (the strike attack), ``effects`` (ранить, излечить, возьмите карту …).
"""

__version__ = "0.1.0"

# Every module that registers phrases, trigger kinds, keywords and handlers, in its documented order.
from berserk_engine import catalogue  # noqa: F401
