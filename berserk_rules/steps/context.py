"""The scenario's view of a game: builds the position, talks to the driver, remembers rejections.

Steps never import an engine: they reach it through the :class:`~berserk_rules.harness.driver.Driver` that
the ``berserk_driver`` option names (the reference engine by default).
"""

from __future__ import annotations

import json
import re
from typing import Any

import pytest

from berserk_rules.errors import ScenarioInputError
from berserk_rules.harness import contract
from berserk_rules.harness.driver import Driver, Rejected, SetupRejected
from berserk_rules.harness.phases import PHASES as PHASES  # re-exported: the steps name phases
from berserk_rules.report.trace import StepTrace
from berserk_rules.report.vectors import VectorRecorder, fits, resolve_path
from berserk_rules.runner.state import ENGINE_FAILED_KEY
from berserk_rules.runner.trace import new_trace
from berserk_rules.runner.traced import GAME_KEY, STEPS_PROPERTY
from berserk_rules.runner.vectors import VECTOR_KEY

PLAYERS = ("А", "Б")
ANY_TARGET = object()  # matching_options(): an option with any target (or none)

ACTION_KINDS = {
    "attack": "атака ударом",
    "activate": "активируемая способность",
    "play": "розыгрыш карты",
    "end_turn": "передача хода",
}


def bare(option: dict[str, Any], targets: list[str] | None = None) -> dict[str, Any]:
    """The action of an option: its fixed fields without the words for people (``label``, ``about``)
    and the slot descriptions (``slots``), plus the chosen ``targets`` (one card id per slot)."""
    action = {k: v for k, v in option.items() if k not in ("label", "about", "slots")}
    if option.get("slots") or targets:
        action["targets"] = list(targets or [])
    return action


def slot_fits(option: dict[str, Any], wanted: list[str | None] | None) -> bool:
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


def text_forms(text: str) -> list[str]:
    """The two ways of writing an ability's text that :func:`same_text` takes for it: without and
    with the final full stop (for checks recorded as data, which compare exactly)."""
    bare_text = text.strip().rstrip(".")
    return [bare_text, bare_text + "."]


COPY = re.compile(r"^(?P<name>.+), копия (?P<n>\d+)$")


def copy_of(name: str) -> tuple[str, int | None]:
    """«Гном, копия 2» — the second copy of «Гном» in the game zone (Копия карты: cards with the same
    name are copies of each other): ("Гном", 2); a plain name: (name, None)."""
    m = COPY.match(name)
    return (m["name"], int(m["n"])) if m else (name, None)


ZONE_WHERE = {
    "play": "в игровой зоне",
    "hand": "в руке",
    "deck": "в колоде",
    "graveyard": "на кладбище",
    "reserve": "в запасе",
    "sideboard": "в сайдборде",
}


class AmbiguousCard(AssertionError):
    """A plain name that names several cards in the game zone: the step must name a copy."""


class Position(dict):
    """The position as the «Дано» steps describe it. A value given twice differently (two card
    tables for one card, «колода пуста» and then cards in that deck, a choice phase and then the
    start of a turn) is a contradiction in the scenario: :class:`ScenarioInputError`."""

    def __init__(self, path: str = "позиция", items: dict[str, Any] | None = None) -> None:
        super().__init__()
        self.path = path
        for key, value in (items or {}).items():
            self[key] = value

    def __setitem__(self, key: str, value: Any) -> None:
        where = f"{self.path}.{key}"
        if isinstance(value, dict) and not isinstance(value, Position):
            value = Position(where, value)
        if key in self and self[key] != value:
            raise ScenarioInputError(
                f"{where}: уже задано {json.dumps(self[key], ensure_ascii=False)}, а теперь "
                f"{json.dumps(value, ensure_ascii=False)} — шаги сценария противоречат друг другу"
            )
        super().__setitem__(key, value)

    def setdefault(self, key: str, default: Any = None) -> Any:
        if key not in self:
            self[key] = default
        return self[key]


class ScenarioGame:
    def __init__(self, driver: Driver) -> None:
        self.driver = driver
        self.setup: dict[str, Any] = Position(items={"cards": {}, "players": {p: {} for p in PLAYERS}})
        self.started = False
        self.rejection: Rejected | None = None
        self.unchanged: bool | None = None
        self.triggers: dict[tuple[str, str, str], str] = {}  # (player, ability, source) -> trigger id
        self.recorder: VectorRecorder | None = None  # set by ``berserk-rules export``
        self.trace: StepTrace | None = None  # the replay's step trace (set by the ``game`` fixture)
        self.moves = 0  # actions sent to the engine (tried or done): the game changes only by them

    # --- the position ---------------------------------------------------------------------

    def player_setup(self, player: str) -> dict[str, Any]:
        if self.started:
            raise AssertionError("позицию нельзя менять после начала игры: шаги «Дано» идут до «Когда»")
        return self.setup["players"][player]

    def start(self) -> None:
        if self.started:
            return
        position = json.loads(json.dumps(self.setup, ensure_ascii=False))  # plain JSON for the driver
        problems = contract.position_problems(position)
        if problems:
            raise ScenarioInputError("позиция сценария невозможна: " + "; ".join(problems))
        try:
            self.driver.start(position)
        except SetupRejected as exc:
            raise AssertionError(f"движок не принял позицию: {exc}") from exc
        if self.recorder is not None:
            self.recorder.start(position)
        if self.trace is not None:
            self.trace.started(self.driver)
        self.started = True
        self._remember_triggers()

    # --- talking to the driver ------------------------------------------------------------

    def needs(self, *, decisions: tuple[Any, ...] = (), actions: tuple[Any, ...] = ()) -> None:
        """The step is about a decision of one of these kinds or an option of these action types:
        an engine that declared none of them (its capabilities) makes the scenario not applicable
        (:class:`~berserk_rules.runner.capabilities.CapabilityGuard`) instead of failing it."""
        if self.recorder is not None:  # the vector asks the same of the engine at the same point
            self.recorder.require(decisions, actions)
        require = getattr(self.driver, "require", None)
        if require is not None:
            require(decisions=decisions, actions=actions)

    def view(self, player: str | None) -> dict[str, Any]:
        self.start()
        return self.driver.observe(player)

    def log(self, player: str | None) -> list[dict[str, Any]]:
        """``player``'s log (None: the judge's) — of a game started from the position first."""
        self.start()
        return self.driver.log(player)

    def decision(self) -> dict[str, Any] | None:
        self.start()
        return self.driver.decision()

    def _remember_triggers(self) -> None:
        d = self.driver.decision()
        if self.recorder is not None:
            self.recorder.saw_decision(d)
        if d and d["kind"] == "declare_trigger":
            for option in d["options"]:
                if option["type"] == "declare":
                    about = option.get("about", {})
                    key = (d["player"], about.get("ability", ""), about.get("source_name", ""))
                    self.triggers[key] = option["trigger"]

    def act(self, player: str, action: dict[str, Any]) -> None:
        self.start()
        if self.recorder is not None:
            self.recorder.act("act", player, action, self.driver.observe(None))
        self.moves += 1
        try:
            self.driver.act(player, action)
        except Rejected as exc:
            raise AssertionError(f"движок отклонил действие игрока {player} {action}: {exc}") from exc
        self._remember_triggers()

    def attempt(self, player: str, action: dict[str, Any] | None, why_impossible: str = "") -> None:
        """Try an action expected to be illegal: remember the rejection and whether anything changed."""
        self.start()
        judge = self.driver.observe(None)
        before = json.dumps(judge, sort_keys=True, ensure_ascii=False)
        log_before = len(self.driver.log())
        if action is None:  # the step could not even name the action: that is a rejection too
            raise AssertionError(f"действие не удалось составить: {why_impossible}")
        if self.recorder is not None:
            self.recorder.act("attempt", player, action, judge)
        self.moves += 1
        try:
            self.driver.act(player, action)
        except Rejected as exc:
            self.rejection = exc
        else:
            self.rejection = None
        after = json.dumps(self.driver.observe(None), sort_keys=True, ensure_ascii=False)
        self.unchanged = before == after and len(self.driver.log()) == log_before

    # --- «Тогда» checks as data -------------------------------------------------------------

    def expect(self, viewer: str | None, path: list[Any], expected: Any, what: str) -> None:
        """Check that in ``viewer``'s observation (None: the judge's) the value at ``path`` equals
        ``expected``, and record the check as data for the portable test vectors.

        The one way «Тогда» steps should check an observation: what is checked here, an engine
        author can replay without Python (``berserk-rules export``). A path element is a key, a
        list index, or a dict — the first list element with those fields, e.g.
        ``game.expect(None, ["play", {"name": "Гоблин"}, "wounds"], 1, "раны «Гоблин»")``.
        An element that is not there fails the check in the same words.
        """
        if path == ["decision", "kind"]:
            self.needs(decisions=(expected,))
        if self.recorder is not None:
            self.recorder.check(viewer, path, expected)
        actual = resolve_path(self.view(viewer), path)
        if actual != expected:
            raise AssertionError(f"{what}: ожидалось {expected!r}, на деле {actual!r}")

    def record(
        self,
        viewer: str | None,
        path: list[Any],
        expected: Any = None,
        *,
        exists: bool | None = None,
        log: bool = False,
    ) -> None:
        """Record for the test vectors a check the step has just made its own way (nothing happens
        outside ``berserk-rules export``): the value at ``path`` equals ``expected``, or with
        ``exists`` the path does (not) lead somewhere; ``log``: in ``viewer``'s log, not the
        observation. Card ids in ``path`` and ``expected`` are written as card references; the check
        is replayed on the spot and must hold (see :meth:`VectorRecorder.check_on`)."""
        if self.recorder is None:
            return
        step: dict[str, Any] = {"op": "check", "viewer": viewer, "path": path}
        if log:
            step["log"] = True
        if exists is None:
            step["expected"] = expected
        else:
            step["exists"] = exists
        self.recorder.check_on(self.driver, step)

    def record_count(
        self, viewer: str | None, path: list[Any], pattern: dict[str, Any], n: int, *, log: bool = False
    ) -> None:
        """Record that the list at ``path`` has exactly ``n`` elements fitting ``pattern``: the n-th
        exists, the (n+1)-th does not."""
        if n > 0:
            self.record(viewer, [*path, {**pattern, "$copy": n}], exists=True, log=log)
        self.record(viewer, [*path, {**pattern, "$copy": n + 1}], exists=False, log=log)

    def record_option(
        self, player: str, pattern: dict[str, Any], tail: list[Any] | None = None, *, present: bool
    ) -> None:
        """Record that ``player``'s pending decision has (``present``) or has not an option fitting
        ``pattern`` (whose ``tail`` path leads somewhere — a slot's candidate, say). Seen by the
        player himself: only the deciding player's observation shows the options, so «has not» also
        holds when the decision is not his — as the steps' own checks say. An option the pattern
        does not single out (several fit, with a tail) is not recorded: the step stays unexpressed."""
        if self.recorder is None:
            return
        decision = self.driver.observe(player).get("decision") or {}
        fitting = [o for o in decision.get("options", []) if fits(o, pattern)]
        if tail and len(fitting) > 1:
            return
        path = ["decision", "options", pattern, *(tail or [])]
        self.record(player, path, exists=present)

    def expect_rejected(self, rule: str) -> None:
        """Record that the last attempt must have been refused citing ``rule`` and changed nothing
        (the step then checks it)."""
        if self.recorder is not None:
            self.recorder.rejected(rule)

    # --- finding things -----------------------------------------------------------------------

    def locate(
        self, name: str, zone: str = "play", owner: str | None = None, viewer: str | None = None
    ) -> tuple[dict[str, Any], list[Any]]:
        """The one way steps find a card they name: (the card as the judge sees it, its path in
        ``viewer``'s observation for :meth:`expect` and :meth:`record`).

        ``zone``: "play" (the game zone, ``owner`` unused) or a zone of ``owner`` ("hand",
        "graveyard", …). «Гном, копия 2» is the second card named «Гном» there in the judge's
        order (in the game zone: the order the copies came into play — глоссарий «Копия карты»);
        a plain name in the game zone must name exactly one card, in another zone the first of that
        name. The path singles out that very card in ``viewer``'s observation (None: the judge's):
        ``["play", {"name": "Гном"}]``, ``["play", {"name": "Гном", "$copy": 2}]``,
        ``["players", "А", "zones", "hand", "cards", {"name": "Гном"}]``. A card that is not there,
        or that ``viewer`` does not see by name (face down, a closed zone), is an AssertionError
        that says so — never a card of another name or another copy."""
        base, copy = copy_of(name)
        if zone == "play":
            prefix: list[Any] = ["play"]
            where = ZONE_WHERE["play"]
        else:
            if owner is None or zone not in ZONE_WHERE:
                raise ScenarioInputError(f"карта «{name}»: неизвестная зона {zone!r} (или не назван игрок)")
            prefix = ["players", owner, "zones", zone, "cards"]
            where = f"{ZONE_WHERE[zone]} у игрока {owner}"
        judge = resolve_path(self.view(None), prefix) or []  # a zone the judge does not see: no cards
        found = [c for c in judge if c.get("name") == base]
        if copy is not None:
            if copy < 1 or copy > len(found):
                raise AssertionError(f"{where} нет {copy}-й копии «{base}» (копий: {len(found)})")
            card = found[copy - 1]
        elif not found:
            raise AssertionError(f"«{name}» нет {where}")
        elif zone == "play" and len(found) > 1:
            raise AmbiguousCard(
                f"{where} несколько карт «{name}» ({len(found)}): назовите копию — «{name}, копия 1» …"
            )
        else:
            card = found[0]
        seen = judge if viewer is None else (resolve_path(self.view(viewer), prefix) or [])
        named = [c.get("id") for c in seen if c.get("name") == base]
        if card.get("id") not in named:
            raise AssertionError(f"игрок {viewer} не видит «{name}» {where}")
        number = named.index(card.get("id")) + 1
        element: dict[str, Any] = {"name": base} if number == 1 else {"name": base, "$copy": number}
        return card, [*prefix, element]

    def card(
        self, name: str, zone: str = "play", owner: str | None = None, viewer: str | None = None
    ) -> dict[str, Any]:
        """The card a step names (see :meth:`locate`)."""
        return self.locate(name, zone, owner, viewer)[0]

    def card_path(
        self, name: str, zone: str = "play", owner: str | None = None, viewer: str | None = None
    ) -> list[Any]:
        """The path of the card a step names in ``viewer``'s observation (see :meth:`locate`)."""
        return self.locate(name, zone, owner, viewer)[1]

    def has_card(self, name: str, zone: str = "play", owner: str | None = None) -> bool:
        """Is the named card there (:meth:`locate` finds it for the judge)? A plain name of several
        cards in the game zone is no answer: :class:`AmbiguousCard`."""
        try:
            self.locate(name, zone, owner)
        except AmbiguousCard:
            raise
        except AssertionError:
            return False
        return True

    def hero(self, player: str) -> dict[str, Any]:
        return self.view(player)["players"][player]["hero"]

    def any_card_id(self, name: str, player: str) -> str | None:
        """Id of a card by name: in play first, then in the player's own hand (None: in neither)."""
        return self._first_id(name, (("play", None), ("hand", player)))

    def seen_card_id(self, name: str, player: str, *, record: bool = False) -> str:
        """A card's id wherever ``player`` can name it: the game zone first, then his hand, then the
        graveyards (a card on a graveyard can be named as a target the rules do not allow).
        ``record``: also record for the vectors that the card is there (see :meth:`require`)."""
        places = (("play", None), ("hand", player), ("graveyard", "А"), ("graveyard", "Б"))
        found = self._first_id(name, places)
        if found is not None and record:
            zone, owner = next((z, o) for z, o in places if self.has_card(name, z, o))
            self.require(name, zone, owner)
        if found is None:
            raise AssertionError(
                f"игрок {player} не видит «{name}» ни в игровой зоне, ни на кладбищах, ни в руке"
            )
        return found

    def _first_id(self, name: str, places: tuple[tuple[str, str | None], ...]) -> str | None:
        for zone, owner in places:
            if self.has_card(name, zone, owner):
                return self.card(name, zone, owner)["id"]
        return None

    def require(self, name: str, zone: str = "play", owner: str | None = None) -> dict[str, Any]:
        """The named card (:meth:`locate`), recorded for the vectors as there: what a negative step
        says «not» about must be there on the replaying engine too, not only on this one."""
        card, path = self.locate(name, zone, owner)
        self.record(None, path, exists=True)
        return card

    def names(self, name: str, card_id: str | None, card_name: str | None) -> bool:
        """Does the name a step gives name this card (its id, its name) — a trigger's source, a card
        in the Очередь or in the log, which may have left the game zone since? A plain name names
        every card of that name; «Гном, копия 2» names that very card, found by :meth:`locate` in the
        game zone (so it must be there)."""
        if copy_of(name)[1] is None:
            return card_name == name
        return card_id == self.card(name)["id"]

    def pending(self, player: str, *kinds: str) -> dict[str, Any]:
        """The pending decision, which must be ``player``'s and of one of ``kinds`` (any kind if none
        given): a step about it — above all a negative one — has nothing to ask about otherwise."""
        self.needs(decisions=kinds)
        d = self.decision()
        if d is None:
            raise AssertionError(f"решений нет: игра окончена — решения игрока {player} нет")
        if d["player"] != player or (kinds and d["kind"] not in kinds):
            wanted = " или ".join(kinds) if kinds else "любое"
            raise AssertionError(
                f"сейчас решение {d['kind']!r} игрока {d['player']}, а шаг говорит о решении "
                f"({wanted}) игрока {player}"
            )
        self.record(None, ["decision", "player"], player)  # the vector asks about it too
        if kinds:
            self.record(None, ["decision", "kind"], d["kind"])
        return d

    def matching_options(
        self, player: str, kind: str, ability: str, source: str, target: str | object | None = ANY_TARGET
    ) -> list[dict[str, Any]]:
        """The actions of ``player``'s pending decision of type ``kind`` ("declare" or "activate")
        for this ability of this source, with their targets filled in. ``target``: a card name, None
        (an ability without a target), or ANY_TARGET (every option, targets not filled)."""
        self.needs(actions=(kind,))
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
                and self.names(source, about.get("source"), about.get("source_name"))
                and slot_fits(option, wanted)
            ):
                found.append({**option, "targets": wanted} if wanted else option)
        return found

    def ability_pattern(self, kind: str, text: str, source: str) -> dict[str, Any]:
        """The option pattern (:func:`~berserk_rules.report.vectors.fits`) of a ``kind`` option ("declare",
        "activate") for the ability with exactly this text of this source — named as
        :meth:`matching_options` names it: by name, or a copy by its card."""
        about: dict[str, Any] = {"ability": text}
        if copy_of(source)[1] is not None:
            about["source"] = self.card(source)["id"]
        else:
            about["source_name"] = source
        return {"type": kind, "about": about}

    def record_ability_option(
        self, player: str, kind: str, ability: str, source: str, target: str | None = None, *, present: bool
    ) -> None:
        """Record :meth:`record_option` for the option of this ability (with this target among the
        candidates of its first slot), after the step has checked it: present — the text of the
        option found; absent — either way of writing the text (:func:`text_forms`)."""
        if self.recorder is None:
            return
        tail = None
        if target is not None:
            target_id = self.any_card_id(target, player)
            if target_id is None:  # a card that is nowhere cannot be a target: nothing to record
                return
            tail = ["slots", 0, "candidates", {"$value": target_id}]
        if present:
            found = self.matching_options(player, kind, ability, source)
            if tail:
                found = [o for o in found if target_id in ((o.get("slots") or [{}])[0].get("candidates", []))]
            texts = [found[0]["about"]["ability"]] if found else []
        else:
            texts = text_forms(ability)
        for text in texts:
            self.record_option(player, self.ability_pattern(kind, text, source), tail, present=present)

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
def game(request: pytest.FixtureRequest, berserk_driver: Driver):  # fixture from the plugin
    """The game of one scenario; its log is attached to the results.

    The log is the scenario's last request to the engine, and it counts like every other: an
    engine that crashes, hangs or breaks the schema here makes the scenario an error (raised in
    teardown, see ``pytest_runtest_makereport``), whatever its steps said. So does an engine
    failure a step swallowed: the checked driver remembers it and refuses every later request.
    Only a failure already reported as the scenario's error is not reported twice, and a run
    interrupted in the middle of a request (Ctrl-C) asks for nothing more."""
    scenario = ScenarioGame(berserk_driver)
    scenario.recorder = request.node.stash.get(VECTOR_KEY, None)
    scenario.trace = new_trace(request.config)
    request.node.stash[GAME_KEY] = scenario
    yield scenario
    if not scenario.started or getattr(berserk_driver, "interrupted", False):
        return
    reported = request.node.stash.get(ENGINE_FAILED_KEY, False)
    if reported and getattr(berserk_driver, "failure", None) is not None:
        return  # the engine failed in a step, and the scenario is already that error
    log = berserk_driver.log()
    # the position the game started from, for the site's replay (issue 10)
    request.node.user_properties.append(("berserk_position", json.loads(json.dumps(scenario.setup))))
    request.node.user_properties.append(("berserk_log", log))
    if scenario.trace is not None:
        request.node.user_properties.append((STEPS_PROPERTY, scenario.trace.to_json()))
