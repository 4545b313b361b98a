"""Seeded random players, for the benchmark (``berserk-rules bench``) and the fuzzer in the tests.

:func:`random_action` answers a decision with a uniformly chosen option whose slots are filled with
uniformly chosen candidates — a legal action by construction, so a random game is a walk through
legal play only. The generator is the caller's (``random.Random(seed)``): the same seed gives the same
game.
"""

from __future__ import annotations

import random
from typing import Any


def random_action(options: list[dict[str, Any]], rng: random.Random) -> dict[str, Any]:
    option = rng.choice(options)
    if option["type"] == "choose_cards":
        n = rng.randint(option["min"], option["max"])
        return {"type": "choose_cards", "cards": rng.sample(option["candidates"], n)}
    action = {k: v for k, v in option.items() if k not in ("label", "about", "slots")}
    slots = option.get("slots")
    if slots:
        action["targets"] = [rng.choice(slot["candidates"]) for slot in slots]
    return action
