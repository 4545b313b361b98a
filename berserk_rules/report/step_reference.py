"""What each step asks of the engine: the step reference, generated from the steps as they run.

``python -m berserk_rules.report.step_reference [OUT.md]`` runs every scenario on the reference engine
(in process, one worker) with the engine behind a tracing driver, and writes ``docs/step-reference.md``:
for every step definition of the dictionary (:data:`berserk_rules.steps.registry.STEPS`), in its
order —

* the requests it makes (``observe(игрок)``, ``log(судья)``, ``decision()``, ``act(игрок,
  {"type": "end_turn"})``, ``deck(список колоды)``; the ``start`` that the first «Когда» or «Тогда»
  step of a scenario makes is not listed: every scenario starts its game so);
* the fields of the answers it reads — a path per field, players written ``{игрок}``, list elements
  ``[]``, keys that are no field names (ability texts, card ids) ``{ключ}`` — found by handing the
  step answers that note every key looked up (:class:`Traced`), so nothing is written by hand;
* for a «Дано» step, the fields of the position it writes;
* an example: the step as a scenario writes it, the scenario, and the values it read there.

Then the fields of the contract (decisions and log entries) that no step reads.
``tests/test_step_reference.py`` regenerates the reference and fails when it differs from the
committed file: a step whose requests or fields change changes the reference in the same commit.
``berserk-rules docs steps`` prints it.
"""

from __future__ import annotations

import json
import re
import sys
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from berserk_rules.harness.driver import Driver

PLAYERS = ("А", "Б")
FIELD_NAME = re.compile(r"^[a-z_][a-z0-9_]*$")
REFERENCE = "docs/step-reference.md"
EXAMPLE_VALUES = 4  # at most this many values read shown in an example
VALUE_LIMIT = 80  # characters of a value shown


def key_name(key: Any) -> str:
    """A key of a path as the reference writes it: field names as they are, players ``{игрок}``,
    list indices ``[]``, any other key ``{ключ}``."""
    if isinstance(key, int) and not isinstance(key, bool):
        return "[]"
    if key in PLAYERS:
        return "{игрок}"
    return key if isinstance(key, str) and FIELD_NAME.match(key) else "{ключ}"


@dataclass
class Usage:
    """What one step definition asked of the engine over the whole run."""

    requests: set[str] = field(default_factory=set)
    reads: set[tuple[str, ...]] = field(default_factory=set)
    writes: set[tuple[str, ...]] = field(default_factory=set)
    uses: int = 0
    example: dict[str, Any] | None = None


class Reads:
    """The paths looked up in the answers of one step (normalised and as they were)."""

    def __init__(self) -> None:
        self.paths: dict[tuple[str, ...], Any] = {}

    def note(self, path: tuple[Any, ...], value: Any) -> None:
        self.paths.setdefault(path, value)


def traced(value: Any, reads: Reads, path: tuple[Any, ...]) -> Any:
    if isinstance(value, dict):
        return Traced(value, reads, path)
    if isinstance(value, list):
        return TracedList(value, reads, path)
    return value


class Traced(dict):  # type: ignore[type-arg]
    """A dict of an answer that notes every key a step looks up (and what it found)."""

    def __init__(self, data: dict[str, Any], reads: Reads, path: tuple[Any, ...]) -> None:
        super().__init__(data)
        self.reads = reads
        self.path = path

    def __getitem__(self, key: Any) -> Any:
        value = dict.__getitem__(self, key)
        self.reads.note((*self.path, key), value)
        return traced(value, self.reads, (*self.path, key))

    def get(self, key: Any, default: Any = None) -> Any:
        if dict.__contains__(self, key):
            return self[key]
        self.reads.note((*self.path, key), default)
        return default

    def __contains__(self, key: object) -> bool:
        found = dict.__contains__(self, key)
        self.reads.note((*self.path, key), dict.get(self, key) if found else None)
        return found

    def items(self) -> Any:
        return [(key, self[key]) for key in dict.keys(self)]

    def values(self) -> Any:
        return [self[key] for key in dict.keys(self)]


class TracedList(list):  # type: ignore[type-arg]
    def __init__(self, data: list[Any], reads: Reads, path: tuple[Any, ...]) -> None:
        super().__init__(data)
        self.reads = reads
        self.path = path

    def __getitem__(self, index: Any) -> Any:
        value = list.__getitem__(self, index)
        if isinstance(index, slice):
            return [traced(v, self.reads, (*self.path, 0)) for v in value]
        self.reads.note((*self.path, index), value)
        return traced(value, self.reads, (*self.path, index))

    def __iter__(self) -> Iterator[Any]:
        for index, value in enumerate(list.__iter__(self)):
            yield traced(value, self.reads, (*self.path, index))


def request_label(op: str, viewer: Any = None, action: Any = None) -> str:
    if op in ("observe", "log"):
        return f"{op}({'судья' if viewer is None else 'игрок'})"
    if op == "act":
        kind = action.get("type") if isinstance(action, dict) else None
        return f'act(игрок, {{"type": "{kind}"}})'
    if op == "deck":
        return "deck(список колоды)"
    return f"{op}()"


class TracingDriver(Driver):
    """The scenario's driver, with every answer traced for the step that runs (:class:`Collector`)."""

    name = "tracing"
    version = "0"

    def __init__(self, inner: Driver, collector: Collector) -> None:
        self.inner = inner
        self.collector = collector

    def __getattr__(self, name: str) -> Any:  # require, interrupted, failure …
        return getattr(self.inner, name)

    def _answer(self, label: str, root: str, value: Any) -> Any:
        step = self.collector.step
        if step is None or self.collector.paused:
            return value
        step.requests.add(label)
        return traced(value, step.reads, (root,))

    def start(self, setup: dict[str, Any]) -> None:
        self.inner.start(setup)

    def decision(self) -> dict[str, Any] | None:
        return self._answer(request_label("decision"), "decision", self.inner.decision())

    def act(self, player: str, action: dict[str, Any]) -> None:
        if self.collector.step is not None and not self.collector.paused:
            self.collector.step.requests.add(request_label("act", action=action))
        self.inner.act(player, action)

    def observe(self, player: str | None) -> dict[str, Any]:
        return self._answer(request_label("observe", player), "observe", self.inner.observe(player))

    def log(self, player: str | None = None) -> list[dict[str, Any]]:
        return self._answer(request_label("log", player), "log", self.inner.log(player))

    def deck(self, deck: dict[str, Any]) -> list[dict[str, Any]]:
        return self._answer(request_label("deck"), "deck", self.inner.deck(deck))

    def close(self) -> None:
        self.inner.close()


@dataclass
class Running:
    """The step that runs now."""

    key: tuple[str, str]  # (kind, pattern)
    text: str
    scenario: str
    requests: set[str] = field(default_factory=set)
    reads: Reads = field(default_factory=Reads)
    setup: Any = None


def leaves(paths: set[tuple[str, ...]]) -> list[tuple[str, ...]]:
    """The paths that no other path extends (a field read through its parents is one read)."""
    return sorted(p for p in paths if not any(len(q) > len(p) and q[: len(p)] == p for q in paths))


def flat(value: Any, path: tuple[Any, ...] = ()) -> dict[tuple[Any, ...], Any]:
    """Leaf path -> value of a JSON-like value."""
    if isinstance(value, dict) and value:
        return {k: v for key, item in value.items() for k, v in flat(item, (*path, key)).items()}
    if isinstance(value, list) and value:
        return {k: v for i, item in enumerate(value) for k, v in flat(item, (*path, i)).items()}
    return {path: value}


def shown_value(value: Any) -> str:
    text = json.dumps(value, ensure_ascii=False)
    return text if len(text) <= VALUE_LIMIT else text[: VALUE_LIMIT - 1] + "…"


class Collector:
    """A pytest plugin: which step runs, its requests and reads, per step definition."""

    def __init__(self) -> None:
        self.usage: dict[tuple[str, str], Usage] = {}
        self.step: Running | None = None
        self.failed: list[str] = []
        self.paused = False  # the harness's own bookkeeping reads, not the step's

    def quietly(self, method: Any) -> Any:
        def run(*args: Any, **kwargs: Any) -> Any:
            self.paused = True
            try:
                return method(*args, **kwargs)
            finally:
                self.paused = False

        return run

    def pytest_bdd_before_step(self, request: Any, step: Any, scenario: Any) -> None:
        from berserk_rules.steps.registry import lookup

        definition = lookup(step.type, step.name)
        if definition is None or isinstance(definition, Exception):
            self.step = None
            return
        game = request.getfixturevalue("game")
        if not isinstance(game.driver, TracingDriver):
            game.driver = TracingDriver(game.driver, self)
            # not the steps' own reads: the site's replay trace and the pending triggers the
            # harness notes after every action (to name them in later steps)
            if game.trace is not None:
                game.trace.started = self.quietly(game.trace.started)
                game.trace.after_step = self.quietly(game.trace.after_step)
            game._remember_triggers = self.quietly(game._remember_triggers)
        from berserk_rules.runner.state import scenario_id_of, state_of

        scenario_id = scenario_id_of(request.node, state_of(request.config)) or request.node.nodeid
        text = f"{step.keyword.strip()} {step.name}"
        self.step = Running((definition.kind, definition.pattern), text, scenario_id)
        self.step.setup = json.loads(json.dumps(game.setup, ensure_ascii=False))

    def pytest_bdd_after_step(self, request: Any, step: Any) -> None:
        running, self.step = self.step, None
        if running is None:
            return
        game = request.getfixturevalue("game")
        usage = self.usage.setdefault(running.key, Usage())
        usage.uses += 1
        usage.requests |= running.requests
        normal = {tuple(key_name(k) for k in p): (p, v) for p, v in running.reads.paths.items()}
        usage.reads |= set(normal)
        after = flat(json.loads(json.dumps(game.setup, ensure_ascii=False)))
        before = flat(running.setup)
        written = {p: v for p, v in after.items() if before.get(p, object()) != v}
        usage.writes |= {tuple(key_name(k) for k in p) for p in written}
        if usage.example is None:
            read = [normal[p] for p in leaves(set(normal))][:EXAMPLE_VALUES]
            wrote = list(written.items())[:EXAMPLE_VALUES]
            usage.example = {
                "text": running.text,
                "scenario": running.scenario.partition("::")[0],
                "read": [(".".join(str(k) for k in p), shown_value(v)) for p, v in read],
                "wrote": [(".".join(str(k) for k in p), shown_value(v)) for p, v in wrote],
            }

    def pytest_bdd_step_error(self, request: Any, step: Any, exception: Exception) -> None:
        self.step = None
        self.failed.append(f"{request.node.nodeid}: {step.name}: {exception}")


def collect(root: Path) -> Collector:
    """Run every scenario with the collector (in this process)."""
    import pytest

    collector = Collector()
    code = pytest.main(
        ["tests/test_rulebook.py", "-q", "-p", "no:xdist", "-p", "no:cacheprovider",
         "--berserk-isolation", "none", "--berserk-results", str(root / "build" / "step-reference.json")],
        plugins=[collector],
    )  # fmt: skip
    if code != 0 or collector.failed:
        raise SystemExit(f"прогон для справочника шагов не зелёный (код {code}): {collector.failed[:5]}")
    return collector


def unread_fields(usage: dict[tuple[str, str], Usage]) -> list[str]:
    """The fields of decisions and log entries in the contract that no step reads."""
    from berserk_rules.harness.contract import schema

    read = {path for u in usage.values() for path in u.reads}
    out = []
    decision = schema("decision")
    for name in decision.get("properties", {}):
        if not any(len(p) > 1 and p[1] == name for p in read if p[0] == "decision") and not any(
            len(p) > 2 and p[1] == "decision" and p[2] == name for p in read if p[0] == "observe"
        ):
            out.append(f"решение (`decision`): `{name}`")
    entry = schema("log").get("items", {})
    if "$ref" in entry:
        entry = schema("log")["$defs"].get(entry["$ref"].rpartition("/")[2], entry)
    for name in entry.get("properties", {}):
        if not any(len(p) > 2 and p[0] == "log" and p[2] == name for p in read):
            out.append(f"запись журнала (`log[]`): `{name}`")
    return out


def render(usage: dict[tuple[str, str], Usage]) -> str:
    from berserk_rules.steps import all as _all  # noqa: F401 - registers every step
    from berserk_rules.steps.registry import KIND_NAMES, STEPS

    lines = [
        "# Что шаги спрашивают у движка",
        "",
        "<!-- Сгенерировано: python -m berserk_rules.report.step_reference (не править вручную;",
        "     tests/test_step_reference.py сверяет файл со шагами). -->",
        "",
        "Для каждого шага словаря — какие запросы протокола он делает, какие поля ответов читает",
        "(путь от корня ответа: `{игрок}` — «А» или «Б», `[]` — элемент списка, `{ключ}` — ключ-значение:",
        "текст способности, номер карты) и, для шагов «Дано», какие поля позиции пишет. Всё это записано",
        "прогоном всего свода на эталонном движке, а не вручную; пример — первое место в сводах, где шаг",
        "встречается, и значения, которые он там прочитал. Партию начинает (`start`) первый шаг «Когда»",
        "или «Тогда» сценария — это в списках запросов не повторяется. Описание протокола и схем —",
        "`berserk-rules docs protocol`.",
        "",
    ]
    for definition in STEPS:
        key = (definition.kind, definition.pattern)
        u = usage.get(key)
        lines.append(f"## `{KIND_NAMES[definition.kind]} {definition.pattern}`")
        lines.append("")
        if u is None:
            lines += ["Ни один сценарий свода этот шаг не использует.", ""]
            continue
        lines.append(f"- Запросы: {', '.join(f'`{r}`' for r in sorted(u.requests)) or 'нет'}")
        reads = leaves(u.reads)
        if reads:
            lines.append("- Читает:")
            lines += [f"  - `{'.'.join(p)}`" for p in reads]
        writes = leaves(u.writes)
        if writes:
            lines.append("- Пишет в позицию:")
            lines += [f"  - `{'.'.join(p)}`" for p in writes]
        example = u.example or {}
        lines.append(f"- Пример: «{example.get('text', '')}» (`{example.get('scenario', '')}`)")
        for path, value in example.get("wrote", []):
            lines.append(f"  - позиция `{path}` = `{value}`")
        for path, value in example.get("read", []):
            lines.append(f"  - ответ `{path}` = `{value}`")
        lines.append("")
    unread = unread_fields(usage)
    lines += ["## Поля, которые не читает ни один шаг", ""]
    lines += [f"- {name}" for name in unread] or ["- нет"]
    lines += ["", "Движок может их присылать (они в схемах), но вердикт сценариев от них не зависит.", ""]
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    """Regenerate the step reference; ``--help`` prints the usage and runs nothing, an unknown option
    or an output file in a missing folder is an error (exit code 2) before the suite runs."""
    from berserk_rules.cli import RussianArgumentParser
    from berserk_rules.rulebook.project import project_root

    parser = RussianArgumentParser(
        prog="python -m berserk_rules.report.step_reference",
        description="Справочник шагов для авторов движков: прогоняет все сценарии на эталонном движке "
        "и записывает, что каждый шаг спрашивает у движка.",
    )
    parser.add_argument(
        "out", nargs="?", metavar="ФАЙЛ.md", help=f"куда записать справочник (по умолчанию {REFERENCE})"
    )
    args = parser.parse_args(sys.argv[1:] if argv is None else argv)
    root = project_root()
    out = Path(args.out) if args.out else root / REFERENCE
    if not out.parent.is_dir() or out.is_dir():
        parser.error(f"{out}: {'это папка' if out.is_dir() else 'нет папки ' + str(out.parent)}")
    collector = collect(root)
    out.write_text(render(collector.usage), encoding="utf-8")
    print(f"справочник шагов: {out}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
