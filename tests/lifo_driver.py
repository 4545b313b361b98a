"""A deliberately wrong engine for tests: the reference engine with a last-in-first-out Queue.

It stands for "another engine" in tests/test_other_engine.py: an engine author's driver, loaded
with ``--driver tests.lifo_driver:LifoDriver``. Importing this module breaks 401.3 in the whole
process — it is only ever imported in a subprocess.
"""

from __future__ import annotations

from typing import ClassVar

from berserk_engine import queue

from berserk_rules.reference.driver import ReferenceDriver


def _last_in_first_out(game):
    return game.state.queue.pop()


queue.next_item = _last_in_first_out


class LifoDriver(ReferenceDriver):
    name: ClassVar[str] = "LIFO-движок (нарочно неверный)"
    version: ClassVar[str] = "0.0.1"
