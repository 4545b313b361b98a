"""Issue 26, item 1: the rule that decides, at every decision point of the engine.

Where the engine decides — who declares now (402.1, 401.7), a player with nothing to declare passing
(I-1), a trigger waiting for the end of the attack (307.2), a source known by its last known
information (403.1), a choice among replacement effects (I-44), the death check (I-9), the end of an
«until end of turn» effect (310.2), the attacker closing once the wounds are dealt (I-20), a declined
search (I-57) — its log entry or pending decision carries the optional protocol field ``deciding``.
Random games of the benchmark's position walk through these points; every one found must name its
deciding rules, and each kind must be met at least once (else the test proves nothing)."""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

from berserk_engine.selfplay import random_action, standard_position
from berserk_engine.setup import new_game

from berserk_rules.corpus import load_corpus
from berserk_rules.rulebook.project import project_root


def point(entry: dict[str, Any]) -> tuple[str, tuple[str, ...]] | None:
    """(kind of decision point, the deciding ids it must name) of a log entry, or None."""
    event = entry.get("event")
    if event == "move" and entry.get("cause") == "dies":
        return "гибель", ("гибель-существа-карты", "I-9")
    if event == "pass" and entry.get("auto"):
        return "автоматический пас", ("401.7", "I-1")
    if event == "effect_ends":
        return "конец эффекта «до конца хода»", ("310.2",)
    if event == "search_declined":
        return "отказ от поиска", ("I-57",)
    return None


def play(seed: int, answers: int = 400) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    game = new_game(standard_position(seed))
    rng = random.Random(seed)
    decisions = []
    for _ in range(answers):
        d = game.decision()
        if d is None:
            break
        decisions.append(d.to_json())
        game.act(d.player, random_action(d.options, rng))
    return game.log_for(None), decisions


def test_every_decision_point_names_its_deciding_rules() -> None:
    met: Counter[str] = Counter()
    for seed in range(12):
        log, decisions = play(seed)
        for entry in log:
            found = point(entry)
            if found is None:
                continue
            kind, wanted = found
            met[kind] += 1
            assert set(wanted) <= set(entry.get("deciding") or ()), f"{kind} без решающих правил: {entry}"
        for d in decisions:
            if d["kind"] == "declare_trigger":
                met["чья заявка"] += 1
                assert {"402.1", "401.7"} <= set(d.get("deciding") or ()), d
            if d["kind"] == "assign_defender":
                met["защитник"] += 1
                assert {"назначить-защитника", "I-17"} <= set(d.get("deciding") or ()), d
        for entry in log:
            if entry.get("event") == "triggered" and "307.2" in (entry.get("deciding") or ()):
                met["срабатывание ждёт конца атаки"] += 1
    for kind in ("гибель", "автоматический пас", "чья заявка", "защитник"):
        assert met[kind], f"в партиях не встретилась точка «{kind}»: тест ничего не проверил ({dict(met)})"


def test_every_deciding_id_is_a_rule_a_term_or_an_interpretation() -> None:
    corpus = load_corpus(project_root())
    known = {e.id for e in corpus.entries}
    register = (project_root() / "rules" / "interpretations.md").read_text(encoding="utf-8")
    seen: set[str] = set()
    for seed in range(6):
        log, decisions = play(seed)
        for item in [*log, *decisions]:
            seen.update(item.get("deciding") or ())
    assert seen
    for ident in seen:
        if ident.startswith("I-"):
            assert f":::{{interpretation}} {ident}\n" in register, ident
        else:
            assert ident in known, f"{ident}: нет такого правила или термина в корпусе"
