"""The setup fuzzer: malformed positions give the documented error, never a crash.

Positions are a valid base position with one to three fields replaced by arbitrary JSON values
(wrong types, out-of-range numbers, nested garbage), removed, or added. Whatever comes out:

* the engine (:func:`berserk_engine.setup.new_game`) builds a game or raises ``SetupError`` /
  ``CardTextError`` — the documented errors, with a Russian message;
* the engine-neutral check of the scenarios (:func:`berserk_rules.harness.contract.position_problems`)
  returns its list of problems and never raises;
* a checked driver (:class:`berserk_rules.harness.checked.InProcessDriver`) refuses the position before
  the engine sees it (``ContractError``) or passes the engine's refusal on (``SetupRejected``).

The budget is fixed (``derandomize``): the same examples on every run, in CI too.
"""

from __future__ import annotations

import copy
import re
from typing import Any

import pytest
from berserk_engine.errors import CardTextError, SetupError
from berserk_engine.setup import new_game
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from berserk_rules.harness.checked import InProcessDriver
from berserk_rules.harness.contract import ContractError, position_problems
from berserk_rules.harness.driver import SetupRejected
from berserk_rules.reference.driver import ReferenceDriver

BASE: dict[str, Any] = {
    "seed": 1,
    "turn": 3,
    "start": "choice",
    "active": "А",
    "first_player": "А",
    "cards": {
        "Гном": {
            "type": "существо",
            "cost": 2,
            "strike": 2,
            "life": 3,
            "element": "горы",
            "text": "Найм: ранить на 1 выбранное существо.",
        },
        "Писарь": {
            "type": "существо",
            "strike": 1,
            "life": 2,
            "text": "Один раз за ход, 1 [Монета]: возьмите карту.",
        },
        "Огневой залп": {"type": "заклинание", "cost": 1, "text": "Ранить на 2 выбранное существо."},
    },
    "players": {
        "А": {
            "hero": {"name": "Герой А", "life": 20, "wounds": 1, "closed": False},
            "coins": {"open": 3, "closed": 1},
            "draw_failures": 0,
            "hand": ["Гном", "Огневой залп"],
            "deck": ["Гном"],
            "graveyard": [],
            "reserve": [],
            "sideboard": [],
            "play": [
                {
                    "card": "Писарь",
                    "closed": False,
                    "wounds": 0,
                    "owner": "А",
                    "new": False,
                    "used": {"Один раз за ход, 1 [Монета]: возьмите карту.": 1},
                },
                "Гном",
            ],
        },
        "Б": {"play": ["Гном"], "coins": {"open": 10, "closed": 0}},
    },
}

JSON = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(min_value=-(2**70), max_value=2**70)
    | st.sampled_from([0, 1, 10, 11, -1, 20, 21])
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(max_size=8)
    | st.sampled_from(["А", "Б", "существо", "заклинание", "Гном", "turn", "choice", ""]),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=6), inner, max_size=3),
    max_leaves=6,
)


def _paths(value: Any, prefix: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    found = [prefix]
    if isinstance(value, dict):
        for key, item in value.items():
            found += _paths(item, (*prefix, key))
    elif isinstance(value, list):
        for index, item in enumerate(value):
            found += _paths(item, (*prefix, index))
    return found


@st.composite
def malformed_positions(draw: st.DrawFn) -> Any:
    position: Any = copy.deepcopy(BASE)
    for _ in range(draw(st.integers(1, 3))):
        paths = _paths(position)
        path = draw(st.sampled_from(paths))
        action = draw(st.sampled_from(["replace", "replace", "delete", "add"]))
        if not path:
            position = draw(JSON) if action == "replace" else position
            continue
        parent = position
        for key in path[:-1]:
            parent = parent[key]
        key = path[-1]
        if action == "replace":
            parent[key] = draw(JSON)
        elif action == "delete":
            del parent[key]
        elif isinstance(parent[key], dict):
            parent[key][draw(st.text(max_size=6))] = draw(JSON)
        elif isinstance(parent[key], list):
            parent[key].append(draw(JSON))
    return position


FUZZ = settings(
    max_examples=250, derandomize=True, deadline=None, suppress_health_check=[HealthCheck.too_slow]
)


def test_the_base_position_is_a_game() -> None:
    assert position_problems(BASE) == []
    new_game(copy.deepcopy(BASE))


@FUZZ
@given(malformed_positions())
def test_engine_gives_the_documented_error(position: Any) -> None:
    try:
        new_game(copy.deepcopy(position))
    except (SetupError, CardTextError) as exc:
        assert str(exc).strip()


@FUZZ
@given(malformed_positions())
def test_checks_never_crash(position: Any) -> None:
    problems = position_problems(position)
    assert all(isinstance(p, str) and p.startswith("поле ") for p in problems)
    driver = InProcessDriver(ReferenceDriver())
    try:
        driver.start(copy.deepcopy(position))
    except ContractError as exc:
        assert problems, f"the schema refused a position the scenarios accept: {exc}"
    except SetupRejected:
        pass
    else:
        assert not problems, problems


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (lambda p: p["players"]["А"]["coins"].update(open=8, closed=3), "игрок А: маркеров монет 11"),
        (
            lambda p: p["cards"]["Гном"].update(life=0),
            "игрок А, игровая зона[1]: «Гном»: у персонажа без жизней",
        ),
        (lambda p: p["players"]["А"]["hero"].update(wounds="1"), "игрок А: герой: «Герой А»: раны"),
        (lambda p: p["players"]["А"].update(hand="Гном"), "игрок А: hand: ожидается список"),
        (lambda p: p["cards"]["Писарь"].update(strike=1.5), "«Писарь»: удар: ожидается целое число"),
        (lambda p: p["players"].update(Б=[]), "игрок Б: ожидается словарь"),
        (lambda p: p["cards"]["Гном"].update(cost=[1]), "карта «Гном»: cost — ожидается строка или число"),
        # not JSON: the place is spelt out step by step (setup._check_json), the innermost one last
        (
            lambda p: p["players"]["А"]["hand"].append({"card": "Гном", "x": [1, float("nan")]}),
            "позиция.players.А.hand[2].x[1]: недопустимое число nan",
        ),
        (lambda p: p["cards"]["Гном"].update({2: "два"}), "позиция.cards.Гном: ключ должен быть строкой"),
        (lambda p: p.update(seed=float("inf")), "позиция.seed: недопустимое число inf"),
    ],
)
def test_out_of_range_and_wrong_types_name_the_field(change: Any, message: str) -> None:
    position = copy.deepcopy(BASE)
    change(position)
    with pytest.raises(SetupError, match=re.escape(message)):
        new_game(position)
