"""Part 4 — the Queue (Очередь): first in, first out.

* A triggered ability whose condition happened waits (401.4) until the current ability has finished
  (401.6) and is then declared by its controller into the Queue (401.3), wherever its source is now
  (401.5).
* Declaring goes in rounds: the inactive player declares his waiting abilities in the order he
  chooses, then the active player (402.1); a player with nothing to declare — or who does not want
  to declare a not mandatory one — passes (401.7), and passing on a not mandatory ability forfeits
  it until its condition happens again.
* When both players have passed, the first ability leaves the Queue and resolves (401.7); triggers
  during that resolution go into the current Queue (401.2). The Queue is empty when it holds nothing
  and both players have passed (401.8): the game goes on to the next phase.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from berserk_engine.abilities import Ability
from berserk_engine.errors import IllegalAction
from berserk_engine.state import PendingTrigger, QueueItem

if TYPE_CHECKING:
    from berserk_engine.game import Game


# --- trigger conditions ----------------------------------------------------------------------


def fire(
    game: Game,
    event: str,
    *,
    point: str,
    sources: list[str] | None = None,
    left_play: dict[str, dict[str, Any]] | None = None,
) -> None:
    """The condition of every matching triggered ability happened: they start waiting (401.4).

    ``sources`` are the cards whose abilities may trigger (by default every card in the game zone,
    202.2). A source in ``left_play`` has just left the game zone: its ability triggers all the same
    (401.5) and uses its last known information (403.1) — its controller, and the object it was.
    """
    s = game.state
    left_play = left_play or {}
    for source in s.play if sources is None else sources:
        card = s.cards[source]
        info = left_play.get(source) or card.snapshot()
        for ability in card.abilities:
            t = ability.trigger
            if ability.kind != "triggered" or t is None or t.event != event:
                continue
            if t.own_turn_only and info["controller"] != s.active:
                continue
            pending = PendingTrigger(
                id=s.next_id("t"),
                controller=info["controller"],
                source=source,
                source_incarnation=info["incarnation"],
                ability=ability,
                point=point,
                lki=info,
            )
            s.waiting.append(pending)
            game.log(
                "triggered",
                f"Срабатывает «{ability.text}» («{card.name}», {point})",
                trigger=pending.id,
                card=source,
                player=pending.controller,
                rule="401.4",
            )


# --- rounds of declaring ---------------------------------------------------------------------


def open_round(game: Game, *, after: str | None = None) -> None:
    """A point where waiting triggered abilities may enter the Queue: inactive player first (402.1)."""
    s = game.state
    if after is not None:
        s.after_queue = after
    s.round = [game.inactive(), s.active]


def target_choices(game: Game, ability: Ability, controller: str) -> list[list[str]]:
    """Legal target lists for declaring ``ability`` (501.1): ``[[]]`` when it names no target."""
    spec = ability.effect.target
    if not spec.chosen:
        return [[]]
    s = game.state
    if spec.kind == "chosen_creature":
        ids = [c for c in s.play if s.cards[c].type == "creature"]
    else:  # chosen_character
        ids = [c for c in s.play if s.cards[c].type in ("creature", "hero")]
    return [[c] for c in ids]


def declare_options(game: Game, player: str) -> list[dict[str, Any]]:
    s = game.state
    options: list[dict[str, Any]] = []
    mandatory = False
    for pending in s.waiting:
        if pending.controller != player:
            continue
        card = s.cards[pending.source]
        for targets in target_choices(game, pending.ability, player):
            names = ", ".join(f"«{s.cards[t].name}»" for t in targets)
            options.append(
                {
                    "type": "declare",
                    "trigger": pending.id,
                    "targets": targets,
                    "about": {
                        "ability": pending.ability.text,
                        "source": pending.source,
                        "source_name": card.name,
                        "point": pending.point,
                        "optional": pending.ability.optional,
                    },
                    "label": f"заявить «{pending.ability.text}» («{card.name}», {pending.point})"
                    + (f" → {names}" if names else ""),
                }
            )
            mandatory = mandatory or not pending.ability.optional
    if options and not mandatory:
        options.append({"type": "pass", "label": "пас"})
    return options


def auto_pass(game: Game, player: str) -> None:
    """401.7: a player who has no possibility to declare passes."""
    _drop_waiting(game, player, reason="не может заявить")
    game.state.round.pop(0)  # type: ignore[union-attr]
    game.log("pass", f"Игрок {player} пасует (нечего заявить)", player=player, rule="401.7", auto=True)


def _drop_waiting(game: Game, player: str, *, reason: str) -> None:
    s = game.state
    for pending in [p for p in s.waiting if p.controller == player]:
        s.waiting.remove(pending)
        game.log(
            "forfeit",
            f"Игрок {player} {reason} «{pending.ability.text}» ({pending.point})",
            trigger=pending.id,
            player=player,
            rule="401.7",
        )


def pass_(game: Game, player: str) -> None:
    """401.7: passing forfeits the not mandatory abilities he did not declare."""
    _drop_waiting(game, player, reason="утрачивает право заявить")
    game.state.round.pop(0)  # type: ignore[union-attr]
    game.log("pass", f"Игрок {player} пасует", player=player, rule="401.7")


def declare(game: Game, player: str, trigger_id: str, targets: list[str]) -> None:
    s = game.state
    pending = next(p for p in s.waiting if p.id == trigger_id)
    s.waiting.remove(pending)
    card = s.cards[pending.source]
    item = QueueItem(
        id=s.next_id("q"),
        kind="triggered",
        controller=player,
        source=pending.source,
        source_incarnation=pending.source_incarnation,
        text=pending.ability.text,
        ability=pending.ability,
        targets=list(targets),
        point=pending.point,
        lki=pending.lki if card.incarnation != pending.source_incarnation else card.snapshot(),
    )
    s.queue.append(item)  # 401.3: first in, first out
    game.log(
        "declare",
        f"Игрок {player} заявляет «{item.text}» («{card.name}») — в Очереди {len(s.queue)}-й",
        item=item.id,
        player=player,
        rule="401.3",
    )


def explain_declare(game: Game, player: str, action: dict[str, Any]) -> IllegalAction:
    """Why a declare/pass action is not legal now."""
    s = game.state
    if action.get("type") == "pass":
        return IllegalAction(
            "401.7",
            "нельзя пасовать, пока есть обязательная срабатывающая способность, которую игрок может заявить",
        )
    trigger_id = action.get("trigger")
    pending = next((p for p in s.waiting if p.id == trigger_id), None)
    if pending is None:
        return IllegalAction(
            "401.7",
            f"способности {trigger_id!r} нет среди ожидающих заявления: "
            "игрок, спасовавший на её заявление, утратил право заявлять её, "
            "пока ещё раз не выполнится условие срабатывания",
        )
    if pending.controller != player:
        return IllegalAction(
            "402.1", f"способность «{pending.ability.text}» заявляет игрок {pending.controller}"
        )
    return IllegalAction("501.1", f"недопустимая цель для «{pending.ability.text}»: {action.get('targets')}")


# --- resolution ------------------------------------------------------------------------------


def resolve_first(game: Game) -> None:
    """401.7: both players passed — the first ability leaves the Queue and resolves."""
    s = game.state
    item = s.queue.pop(0)
    resolve(game, item)


def resolve(game: Game, item: QueueItem) -> None:
    from berserk_engine import combat

    game.log("resolve", f"Выполняется «{item.text}»", item=item.id, player=item.controller, rule="401.7")
    if item.kind == "attack":
        combat.resolve_attack(game, item)
    else:
        assert item.ability is not None
        item.ability.effect.resolve(game, item)
    game.check_deaths()


def step(game: Game) -> bool:
    """Advance the Queue by one automatic step. Returns False when a player must decide."""
    s = game.state
    assert s.round is not None
    if s.round:
        player = s.round[0]
        if declare_options(game, player):
            return False
        auto_pass(game, player)
        return True
    if s.queue:
        resolve_first(game)
        if s.result is None:
            open_round(game)
        return True
    # 401.8: nothing in the Queue and both players passed.
    s.round = None
    after, s.after_queue = s.after_queue, None
    game.log("queue_empty", "Очередь пуста", rule="401.8")
    game.continue_after_queue(after)
    return True
