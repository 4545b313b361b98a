"""A Python driver that crashes on purpose, for the crash-isolation tests.

The reference engine, except that a card named after a misbehaviour in the position makes the
driver misbehave: «Сегфолт» segfaults on ``start``, «Аборт» calls ``os.abort()`` and «Выход»
``os._exit(3)`` on ``decision``, «Зависание» never answers ``decision``, «НеЧисло» puts NaN into
a decision, «Исключение» raises an ordinary Python exception. Run with ``--driver
crash_driver:CrashDriver`` in a test project (it is only ever loaded in the engine's process).

With ``CRASH_DRIVER_HANGING=PATH`` in the environment, «Зависание» creates the file PATH when it
starts to hang: a test waits for that instead of guessing with a sleep.
"""

from __future__ import annotations

import ctypes
import os
import time
from typing import Any, ClassVar

from berserk_rules.reference.driver import ReferenceDriver

MODES = {
    "Сегфолт": "segv",
    "Аборт": "abort",
    "Выход": "exit",
    "Зависание": "hang",
    "НеЧисло": "nan",
    "Исключение": "raise",
}


class CrashDriver(ReferenceDriver):
    name: ClassVar[str] = "движок, который падает (нарочно)"
    version: ClassVar[str] = "0.0.1"

    def start(self, setup: dict[str, Any]) -> None:
        self.mode = next((m for n, m in MODES.items() if n in setup.get("cards", {})), None)
        if self.mode == "segv":
            ctypes.string_at(0)
        super().start(setup)

    def decision(self) -> dict[str, Any] | None:
        if self.mode == "abort":
            os.abort()
        if self.mode == "exit":
            os._exit(3)
        if self.mode == "hang":
            hanging = os.environ.get("CRASH_DRIVER_HANGING")
            if hanging:
                with open(hanging, "w", encoding="utf-8") as signal:
                    signal.write(str(os.getpid()))
            time.sleep(600)
        if self.mode == "raise":
            raise KeyError("внутренняя ошибка")
        decision = super().decision()
        if self.mode == "nan" and decision is not None:
            decision["options"][0]["weight"] = float("nan")
        return decision
