"""Эталонный движок «Берсерк. Герои» (reference engine).

Public entry points: :class:`berserk_engine.game.Game` (state machine: ``decision()``,
``legal_actions()``, ``act()``, ``observe()``), :func:`berserk_engine.grammar.parse_card_text`
(printed card text: the phrase registry and the grammar) and :mod:`berserk_engine.setup`
(declarative positions).
Modules are named after the mechanics they implement: ``turn`` (Part 3), ``queue`` (Part 4),
``combat`` (the strike attack), ``effects`` (ранить, излечить, возьмите карту …).
"""

from importlib.metadata import PackageNotFoundError, version

# First the store of card definitions (it looks at the package's files before anything else of the
# engine is loaded), then every module that registers phrases, trigger kinds, keywords and handlers, in
# its documented order.
from berserk_engine import card_store, catalogue  # noqa: F401


def _version() -> str:
    """The engine ships in the berserk-rules distribution: its version is the package's (1.1.0, not a
    number of its own); a checkout that is not installed says so instead of inventing one."""
    try:
        return version("berserk-rules")
    except PackageNotFoundError:
        return "0+checkout"


__version__ = _version()
