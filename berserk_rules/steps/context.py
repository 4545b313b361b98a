"""The scenario's view of a game: builds the position, talks to the driver, remembers rejections.

Steps never import an engine: they reach it through the :class:`~berserk_rules.driver.Driver` that
the ``berserk_driver`` option names (the reference engine by default).
"""

from __future__ import annotations

import json
from typing import Any

import pytest

from berserk_rules.driver import Driver, Rejected, SetupRejected

PLAYERS = ("А", "Б")
ANY_TARGET = object()  # matching_options(): an option with any target (or none)

ACTION_KINDS = {
    "attack": "атака ударом",
    "activate": "активируемая способность",
    "play": "розыгрыш карты",
    "end_turn": "передача хода",
}
PHASES = {
    "restoration": "фаза восстановления",
    "accumulation": "фаза накопления",
    "choice": "фаза выбора",
    "attack": "фаза атаки ударом",
    "activation": "фаза активируемых способностей",
    "play": "фаза розыгрыша карты",
    "end": "этап конца хода",
    "over": "игра окончена",
}


def bare(option: dict[str, Any], targets: list[str] | None = None) -> dict[str, Any]:
    """The action of an option: its fixed fields without the words for people (``label``, ``about``)
    and the slot descriptions (``slots``), plus the chosen ``targets`` (one card id per slot)."""
    action = {k: v for k, v in option.items() if k not in ("label", "about", "slots")}
    if option.get("slots") or targets:
        action["targets"] = list(targets or [])
    return action


def slot_fits(option: dict[str, Any], wanted: list[str] | None) -> bool:
    """Does the option accept exactly these targets (None: any targets)?"""
    if wanted is None:
        return True
    slots = option.get("slots") or []
    return len(slots) == len(wanted) and all(
        t in slot["candidates"] for t, slot in zip(wanted, slots, strict=True)
    )


def same_text(a: str, b: str) -> bool:
    """Ability texts match whether or not the final full stop is written."""
    return a.strip().rstrip(".") == b.strip().rstrip(".")


class ScenarioGame:
    def __init__(self, driver: Driver) -> None:
        self.driver = driver
        self.setup: dict[str, Any] = {"cards": {}, "players": {p: {} for p in PLAYERS}}
        self.started = False
        self.rejection: Rejected | None = None
        self.unchanged: bool | None = None
        self.triggers: dict[tuple[str, str, str], str] = {}  # (player, ability, source) -> trigger id

    # --- the position ---------------------------------------------------------------------

    def player_setup(self, player: str) -> dict[str, Any]:
        if self.started:
            raise AssertionError("позицию нельзя менять после начала игры: шаги «Дано» идут до «Когда»")
        return self.setup["players"][player]

    def start(self) -> None:
        if self.started:
            return
        try:
            self.driver.start(self.setup)
        except SetupRejected as exc:
            raise AssertionError(f"движок не принял позицию: {exc}") from exc
        self.started = True
        self._remember_triggers()

    # --- talking to the driver ------------------------------------------------------------

    def view(self, player: str | None) -> dict[str, Any]:
        self.start()
        return self.driver.observe(player)

    def decision(self) -> dict[str, Any] | None:
        self.start()
        return self.driver.decision()

    def _remember_triggers(self) -> None:
        d = self.driver.decision()
        if d and d["kind"] == "declare_trigger":
            for option in d["options"]:
                if option["type"] == "declare":
                    about = option.get("about", {})
                    key = (d["player"], about.get("ability", ""), about.get("source_name", ""))
                    self.triggers[key] = option["trigger"]

    def act(self, player: str, action: dict[str, Any]) -> None:
        self.start()
        try:
            self.driver.act(player, action)
        except Rejected as exc:
            raise AssertionError(f"движок отклонил действие игрока {player} {action}: {exc}") from exc
        self._remember_triggers()

    def attempt(self, player: str, action: dict[str, Any] | None, why_impossible: str = "") -> None:
        """Try an action expected to be illegal: remember the rejection and whether anything changed."""
        self.start()
        before = json.dumps(self.driver.observe(None), sort_keys=True, ensure_ascii=False)
        log_before = len(self.driver.log())
        if action is None:  # the step could not even name the action: that is a rejection too
            raise AssertionError(f"действие не удалось составить: {why_impossible}")
        try:
            self.driver.act(player, action)
        except Rejected as exc:
            self.rejection = exc
        else:
            self.rejection = None
        after = json.dumps(self.driver.observe(None), sort_keys=True, ensure_ascii=False)
        self.unchanged = before == after and len(self.driver.log()) == log_before

    # --- finding things -----------------------------------------------------------------------

    def card_in_play(self, name: str) -> dict[str, Any]:
        found = [c for c in self.view(None)["play"] if c["name"] == name]
        if not found:
            raise AssertionError(f"«{name}» нет в игровой зоне")
        if len(found) > 1:
            raise AssertionError(f"в игровой зоне несколько карт «{name}»: уточните позицию")
        return found[0]

    def card_in_zone(self, player: str, zone: str, name: str) -> dict[str, Any] | None:
        cards = self.view(player)["players"][player]["zones"][zone]["cards"] or []
        return next((c for c in cards if c["name"] == name), None)

    def hero(self, player: str) -> dict[str, Any]:
        return self.view(player)["players"][player]["hero"]

    def any_card_id(self, name: str, player: str) -> str | None:
        """Id of a card by name: in play first, then in the player's own hand."""
        for card in self.view(None)["play"]:
            if card["name"] == name:
                return card["id"]
        card = self.card_in_zone(player, "hand", name)
        return card["id"] if card else None

    def matching_options(
        self, player: str, kind: str, ability: str, source: str, target: str | object | None = ANY_TARGET
    ) -> list[dict[str, Any]]:
        """The actions of ``player``'s pending decision of type ``kind`` ("declare" or "activate")
        for this ability of this source, with their targets filled in. ``target``: a card name, None
        (an ability without a target), or ANY_TARGET (every option, targets not filled)."""
        d = self.decision()
        if not d or d["player"] != player:
            return []
        if target is ANY_TARGET:
            wanted = None
        else:
            wanted = [self.any_card_id(target, player)] if isinstance(target, str) else []
        found = []
        for option in d["options"]:
            about = option.get("about", {})
            if (
                option["type"] == kind
                and same_text(about.get("ability", ""), ability)
                and about.get("source_name") == source
                and slot_fits(option, wanted)
            ):
                found.append({**option, "targets": wanted} if wanted else option)
        return found

    def declare_option(
        self, player: str, ability: str, source: str, target: str | None
    ) -> dict[str, Any] | None:
        found = self.matching_options(player, "declare", ability, source, target)
        return found[0] if found else None

    def remembered_trigger(self, player: str, ability: str, source: str) -> str | None:
        for (p, text, src), trigger in self.triggers.items():
            if p == player and same_text(text, ability) and src == source:
                return trigger
        return None


@pytest.fixture
def game(request: pytest.FixtureRequest, berserk_driver_class: type[Driver]):  # fixture from the plugin
    """The game of one scenario; its log is attached to the results."""
    driver = berserk_driver_class()
    scenario = ScenarioGame(driver)
    yield scenario
    if scenario.started:
        try:
            # the position the game started from, for the site's replay (issue 10)
            request.node.user_properties.append(("berserk_position", json.loads(json.dumps(scenario.setup))))
            request.node.user_properties.append(("berserk_log", driver.log()))
        finally:
            driver.close()
