"""Named extension points of the core, where keyword modules plug in their behaviour.

The core never asks «does this card have Броня?»: it runs the handlers registered at a named point,
and each keyword module (``berserk_engine.keywords.*``) registers its handlers when imported. A new
keyword is a new module, not a new branch in the core.

Every point is a list of callables; the signature is documented beside each list. A handler may
carry ``relevant(game) -> bool`` (see :func:`relevant`): False tells the core that it changes nothing
in this game (no card of the game has the mechanic), so a fast path may skip the point.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

Handler = Callable[..., Any]

# (game, event: WoundEvent) -> int: wounds added before prevention («Уязвимость»).
WOUND_AMOUNT: list[Handler] = []
# (game, event: WoundEvent, remaining: int) -> int: wounds prevented («Броня Х», Предотвращение).
WOUND_PREVENTION: list[Handler] = []
# (game, event) -> list[Replacement]: replacement effects that could apply to the event (Эффект замещения).
REPLACEMENTS: list[Handler] = []
# (game, event: HealEvent) -> bool: True when the card cannot be healed («Незаживающие раны»).
HEAL_BLOCKED: list[Handler] = []

# (game, attack: dict, strength: int) -> int: the strength of an attack (+X к атаке, Гнев, −X от атаки).
ATTACK_STRENGTH: list[Handler] = []
# (game, attack: dict, strength: int) -> int | None: replaces the strength of a strike («Сведение удара к Х»).
STRIKE_REPLACEMENT: list[Handler] = []
# (game, card) -> bool: the creature may act on the turn it was played («Рывок»).
NO_FIRST_TURN_WEAKNESS: list[Handler] = []
# (game, card) -> int: how many strike attacks the creature may make this turn («Один (Х) раз за ход»).
ATTACKS_PER_TURN: list[Handler] = []
# (game, card, role: "attack" | "defend") -> bool: the card does not close («Опыт в атаке», …).
STAYS_OPEN: list[Handler] = []
# (game, attack: dict) -> bool: no defender may be assigned against this attack («Направленный удар»).
NO_DEFENDER: list[Handler] = []
# (game, attacker, target) -> bool: the two deal their blows one after another («Первый удар»):
# returns True when ``attacker`` strikes first.
STRIKES_FIRST: list[Handler] = []
# (game, card, chooser: str, kind: str) -> bool: the card cannot be chosen as a target or attacked
# (kind: "attack" | "spell" | "ability") («Скрытность», «Защита от заклинаний»).
UNTARGETABLE: list[Handler] = []
# (game, card) -> bool: the card is never the target of attacks.
CANNOT_BE_ATTACKED: list[Handler] = []
# (game, card: CardDef, player: str) -> int: change to the cost of playing the card from hand.
COST: list[Handler] = []
# (game, player, card_def) -> str | None: why the card cannot be played now (one event per player …).
PLAY_RESTRICTIONS: list[Handler] = []
# (game, events: list) -> list: events that happen because cards entered a squad («Уникальность»).
ENTERED_SQUAD: list[Handler] = []
# (game, kind: "activate" | "declare" | "play", player, action, ability) -> Task | None: a step the
# declaration itself takes before it is complete — looking through the deck for the card to summon
# (517.3.1). The declaring code pushes the task and stops; the task finishes (or cancels) the
# declaration by applying the action again with what it learned.
DECLARATION: list[Handler] = []
# (game, player, card) -> str | None: why the card cannot be taken into the player's squad (517.6:
# then a player who loses control of it keeps it).
SQUAD_RESTRICTIONS: list[Handler] = []
# (game, ended: list[ContinuousEffect]) -> list[event]: events that happen because effects ended (a
# temporary control ends: the opponent becomes the controller, 517.5).
EFFECTS_ENDED: list[Handler] = []
# (game) -> None: the game has just ended with a result (604.2: the cards are freed of effects and
# return to their decks; placed cards to their owners' reserves, 204.5). Nothing of it is a game action.
GAME_OVER: list[Handler] = []


def relevant(handlers: list[Handler], game: Any) -> bool:
    """Can some handler of this point change anything in this game? A handler without a ``relevant``
    attribute always may."""
    return any(getattr(h, "relevant", None) is None or h.relevant(game) for h in handlers)
