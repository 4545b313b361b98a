"""The seeded random generator kept in the game state (shuffles, 204.2–204.3).

SplitMix64: one 64-bit integer of state, so the generator travels inside a position (a snapshot)
as a plain number and the same seed always gives the same shuffles on every platform.
"""

from __future__ import annotations

MASK = (1 << 64) - 1


def next_value(state: int) -> tuple[int, int]:
    """(new state, a 64-bit random value)."""
    state = (state + 0x9E3779B97F4A7C15) & MASK
    z = state
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK
    return state, z ^ (z >> 31)


def below(state: int, n: int) -> tuple[int, int]:
    """(new state, a number in range(n)), without modulo bias."""
    limit = (1 << 64) - ((1 << 64) % n)
    while True:
        state, value = next_value(state)
        if value < limit:
            return state, value % n


def shuffle(state: int, items: list) -> int:
    """Fisher–Yates in place; returns the new state."""
    for i in range(len(items) - 1, 0, -1):
        state, j = below(state, i + 1)
        items[i], items[j] = items[j], items[i]
    return state
