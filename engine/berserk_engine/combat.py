"""The strike attack (атака ударом, 307) as a staged sequence that keywords hook into.

1. **Declaration** (307.1, Атакующая карта, Атакованная карта): the active player names an open
   creature of his that may attack and a character of the opponent. The attack is an action (Действие
   карты): the attacker has acted from the declaration on; it closes as its payment once the wounds
   are dealt (I-20, after the FAQ of 04.05.2023) — unless it does not close («Опыт в атаке»). A
   creature makes one strike attack a turn (interpretation I-14); a creature played this turn does
   not attack (слабость первого хода, I-6) unless it has «Рывок».
2. **Defender** (Назначить защитника): the inactive player may name an open creature of his as the
   defender — it becomes the final target of the attack and closes (unless «Опыт в защите»). Only
   against a strike; never against «Направленный удар» (``hooks.NO_DEFENDER``).
3. The attack **enters the Queue** and resolves at once (307.1).
4. **Blows**: the attacker strikes the final target with the attack's strength (Значение удара and the
   attack modifiers); the final target strikes back (Ответный удар — not an attack) if it is a
   creature that was open when it became the final target (Отражающая карта). Blows are
   simultaneous; with «Первый удар» on one side only, that side strikes first and the other strikes
   back only if it survived. Every blow is an event («При ударе» triggers even at strength 0).
5. **Wounds** go through the event pipeline (prevention, replacement); **deaths** follow after the
   attack (I-9): to the owner's graveyard, «Гибель:» triggers, last known information.
6. The triggered abilities that waited are declared (307.2); an empty Queue returns to the choice
   phase (307.3).

«Сразиться с выбранным существом» (:func:`fight`) is an attack of the source on the chosen creature
by these same rules: both fight as open, nobody closes, no defender, and it does not use up the
source's strike attack.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from berserk_engine import actions, queue, selectors
from berserk_engine import characteristics as ch
from berserk_engine.abilities import Selector
from berserk_engine.actions import ActionKind
from berserk_engine.data import serializable
from berserk_engine.errors import IllegalAction
from berserk_engine.events import AttackEvent, BlowEvent, CloseEvent, Perform, WoundEvent, perform
from berserk_engine.keywords import term
from berserk_engine.queue import QueueRound, ResolveAll, note_targets
from berserk_engine.state import Attack, QueueItem
from berserk_engine.tasks import Task, task
from berserk_engine.zones import snapshot

if TYPE_CHECKING:
    from berserk_engine.game import Game
    from berserk_engine.state import Card

term(__name__, "сразиться-с-выбранным-существом")


# --- who may attack whom ------------------------------------------------------------------------


def first_turn_weak(game: Game, card: Card) -> bool:
    """Слабость первого хода (I-6): played this turn and without «Рывок»."""
    if card.entered_turn != game.state.turn:
        return False
    for h in game.handlers.NO_FIRST_TURN_WEAKNESS:  # «Рывок» (a loop: asked at every listing)
        if h(game, card):
            return False
    return True


def attacks_allowed(game: Game, card: Card) -> int:
    """I-14: one strike attack a turn, more where «Один (Х) раз за ход» allows."""
    allowed = 1
    for h in game.handlers.ATTACKS_PER_TURN:
        allowed = max(allowed, h(game, card))
    return allowed


def why_cannot_attack(game: Game, card: Card | None, player: str) -> str | None:
    if card is None or card.zone != "play" or card.definition.type != "creature":
        return "атаковать ударом может только существо в игровой зоне"
    if card.controller != player:
        return "активный игрок атакует только своим существом"
    if card.face_down:
        return f"«{card.name}» лежит рубашкой вверх и не может действовать"
    if card.closed:
        return f"«{card.name}» закрыто: закрытая карта не может действовать"
    for h in game.handlers.CANNOT_ATTACK:
        why = h(game, card)
        if why is not None:
            return why
    return _turn_limit(game, card)


def _turn_limit(game: Game, card: Card) -> str | None:
    """Why the creature may make no more strike attacks this turn: the first turn's weakness (I-6), or
    the attacks it has made (I-14)."""
    if first_turn_weak(game, card):
        return f"«{card.name}» разыграно в этот ход и не может атаковать (без «Рывка»)"
    if _attacked_enough(game, card):
        return f"«{card.name}» уже атаковало ударом в этот ход"
    return None


def _attacked_enough(game: Game, card: Card) -> bool:
    return card.this_turn is not None and card.this_turn.attacks >= attacks_allowed(game, card)


def attack_targets(game: Game, attacker: str) -> list[str]:
    """Characters of the opponent in the game zone that may be attacked (interpretation I-15)."""
    card = game.state.cards[attacker]
    return _for_attacker(game, card, _targets_of(game, card.controller))


def _for_attacker(game: Game, attacker: Card, targets: list[str]) -> list[str]:
    """The targets this attacker may choose among them (``hooks.ATTACK_TARGETS``)."""
    for h in game.handlers.ATTACK_TARGETS:
        targets = h(game, attacker, targets)
    return targets


def _targets_of(game: Game, player: str) -> list[str]:
    cards = game.state.cards
    found = []
    unattackable = game.handlers.CANNOT_BE_ATTACKED
    for c in game.in_play().squads[game.opponent(player)].characters:
        target = cards[c]
        if target.face_down:
            continue
        if unattackable and any(h(game, target) for h in unattackable):
            continue
        found.append(c)
    return found


# card name -> the words of its attack option (built once per name, not per listing)
_LABELS: dict[str, str] = {}


def _attack_options(game: Game, player: str) -> list[dict[str, Any]]:
    creatures = game.in_play().squads[player].creatures
    if not creatures:
        return []
    s = game.state
    cards, turn = s.cards, s.turn
    options = []
    targets = None
    filters = game.handlers.ATTACK_TARGETS
    banned = bool(game.handlers.CANNOT_ATTACK)  # «Не может атаковать» in this game
    for card_id in creatures:
        card = cards[card_id]
        if card.closed or card.face_down:
            continue
        if banned:
            if why_cannot_attack(game, card, player):
                continue
        elif (card.entered_turn == turn and first_turn_weak(game, card)) or (
            card.this_turn is not None and card.this_turn.attacks and _attacked_enough(game, card)
        ):
            continue  # why_cannot_attack's other checks (_turn_limit's: those above are its first)
        if targets is None:
            targets = _targets_of(game, player)
            if not targets:
                break
        mine = _for_attacker(game, card, targets) if filters else targets
        if mine:
            label = _LABELS.get(card.name)
            if label is None:
                if len(_LABELS) >= 4096:
                    _LABELS.clear()
                label = _LABELS[card.name] = f"атаковать ударом «{card.name}»"
            options.append(
                {
                    "type": "attack",
                    "attacker": card_id,
                    "slots": [{"name": "атакуемый персонаж", "candidates": mine}],
                    "label": label,
                }
            )
    return options


def _check_attack(game: Game, player: str, action: dict[str, Any]) -> IllegalAction | None:
    s = game.state
    attacker = s.cards.get(str(action.get("attacker")))
    why = why_cannot_attack(game, attacker, player)
    if why is not None:
        return IllegalAction("307.1", why)
    assert attacker is not None
    targets = action.get("targets")
    if set(action) - {"type", "attacker", "targets"} or not isinstance(targets, list) or len(targets) != 1:
        return IllegalAction(
            "307.1", "атака ударом называет атакующее существо и одного атакуемого персонажа"
        )
    if targets[0] not in attack_targets(game, attacker.id):
        return IllegalAction(
            "307.1", "целью атаки ударом может быть только персонаж противника в игровой зоне"
        )
    return None


def _attack(game: Game, player: str, action: dict[str, Any]) -> None:
    game.push(DeclareAttack(action["attacker"], action["targets"][0]))


actions.register(ActionKind("attack", "атака ударом", _attack_options, _check_attack, _attack))


# --- declaration and defender -------------------------------------------------------------------


@dataclass(slots=True)
class DeclareAttack(Task):
    attacker: str
    target: str

    # written out, not generated: compiled, a generated __init__ runs interpreted (architecture.md)
    def __init__(self, attacker: str, target: str) -> None:
        self.attacker = attacker
        self.target = target

    def run(self, game: Game) -> None:
        s = game.state
        card = s.cards[self.attacker]
        target = s.cards[self.target]
        s.phase = "attack"
        game.log(
            "attack",
            f"«{card.name}» атакует «{target.name}»",
            card=self.attacker,
            target=self.target,
            rule="307.1",
        )
        card.record().attacks += 1
        note_targets(game, self.attacker, [self.target])
        attack = s.attack = Attack(
            attacker=self.attacker,
            attacker_name=card.name,
            target=self.target,
            target_name=target.name,
            original_target=self.target,
            reflecting=not target.closed,  # Отражающая карта: open when it became the final target
        )
        card.record().acted = True  # Действие карты: it has acted from the declaration on
        events: list[Any] = [AttackEvent(self.attacker, self.target)]
        for h in game.handlers.NO_DEFENDER:
            if h(game, attack):
                game.then(Perform(events), EnterAttack())
                return
        game.then(Perform(events), AssignDefender(), EnterAttack())


STAYS_OPEN_WORDS = {"attack": "после атаки", "defend": "выступая защитником"}
# Why the inactive player is asked for a defender, even with nobody to name (I-17)
DEFENDER_ASKED = ("назначить-защитника", "I-17")


def closing_payment(game: Game, card: Card, role: str) -> list[CloseEvent]:
    """Действие карты: the card closes to pay for its action — unless it does not close («Опыт в
    атаке», «Опыт в защите»); either way it counts as having acted."""
    card.record().acted = True
    for h in game.handlers.STAYS_OPEN:
        if h(game, card, role):
            game.log(
                "stays_open",
                f"«{card.name}» не закрывается {STAYS_OPEN_WORDS[role]}, но считается подействовавшей",
                card=card.id,
                rule="не-закрывается-после-атаки-не-закрывается-выступая-защитником",
            )
            return []
    return [CloseEvent(card.id, payment=role)]


def defender_candidates(game: Game, attack: Attack) -> list[str]:
    s = game.state
    attacker = s.cards.get(attack.attacker)
    if attacker is None:
        return []
    enemy = game.opponent(attacker.controller)
    banned = game.handlers.CANNOT_DEFEND  # «Не может выступать защитником» (I-90)
    return [
        c
        for c in s.play
        if s.cards[c].controller == enemy
        and s.cards[c].definition.type == "creature"
        and not s.cards[c].closed
        and not s.cards[c].face_down
        and c != attack.target
        and not any(h(game, s.cards[c]) for h in banned)
    ]


@dataclass(slots=True)
class AssignDefender(Task):
    """Назначить защитника: the inactive player decides (even when he has nobody to name: then his
    only answer is not to assign one). The attack is the state's current attack (``state.attack``)."""

    def options(self, game: Game) -> list[dict[str, Any]]:
        s = game.state
        assert s.attack is not None
        options: list[dict[str, Any]] = [{"type": "no_defender", "label": "не назначать защитника"}]
        for c in defender_candidates(game, s.attack):
            options.append(
                {"type": "defend", "defender": c, "label": f"назначить защитником «{s.cards[c].name}»"}
            )
        return options

    def run(self, game: Game) -> None:
        s = game.state
        attack = s.attack
        if attack is None or s.cards.get(attack.attacker) is None or s.cards.get(attack.target) is None:
            return
        player = game.opponent(s.cards[attack.attacker].controller)
        game.ask(
            self,
            player,
            "assign_defender",
            "307.1",
            f"Игрок {player}: назначьте защитника или откажитесь",
            self.options(game),
            DEFENDER_ASKED,
        )

    def answer(self, game: Game, player: str, action: dict[str, Any]) -> None:
        if action["type"] == "no_defender":
            return
        s = game.state
        defender = s.cards[action["defender"]]
        attack = s.attack
        assert attack is not None
        attack.target = defender.id
        attack.target_name = defender.name
        attack.defender = defender.id
        attack.reflecting = not defender.closed
        note_targets(game, attack.attacker, [defender.id])
        game.log(
            "defend",
            f"Игрок {player} назначает защитником «{defender.name}»",
            card=defender.id,
            rule="назначить-защитника",
        )
        perform(game, *closing_payment(game, defender, "defend"))


def _defender_options(game: Game, player: str) -> list[dict[str, Any]]:
    pending = game.state.pending
    options = pending.options if pending is not None else []
    return [o for o in options if o["type"] in ("defend", "no_defender")]


def _check_defend(game: Game, player: str, action: dict[str, Any]) -> IllegalAction | None:
    attack = game.state.attack
    candidates = defender_candidates(game, attack) if attack is not None else []
    if set(action) != {"type", "defender"} or action.get("defender") not in candidates:
        return IllegalAction(
            "307.1",
            "защитником можно назначить только своё открытое существо, не являющееся целью атаки",
        )
    return None


def _check_no_defender(game: Game, player: str, action: dict[str, Any]) -> IllegalAction | None:
    if set(action) - {"type"}:
        return IllegalAction("307.1", f"у отказа от защитника нет других полей, кроме type: {action!r}")
    return None


def _apply_nothing(game: Game, player: str, action: dict[str, Any]) -> None:
    """The asking task (AssignDefender) applies these answers itself."""


actions.register(
    ActionKind("defend", "назначение защитника", _defender_options, _check_defend, _apply_nothing)
)
actions.register(
    ActionKind("no_defender", "отказ от защитника", _defender_options, _check_no_defender, _apply_nothing)
)


@dataclass(slots=True)
class EnterAttack(Task):
    """307.1: the attack enters the Queue and resolves at once; 307.2: then the triggers."""

    def run(self, game: Game) -> None:
        s = game.state
        attack, s.attack = s.attack, None
        assert attack is not None
        attacker = s.cards.get(attack.attacker)
        if attacker is None:
            return
        item = QueueItem(
            id=s.next_id("q"),
            kind="attack",
            controller=attacker.controller,
            source=attacker.id,
            source_name=attacker.name,
            text=f"атака ударом «{attacker.name}»",
            attack=attack,
            lki=snapshot(game, attacker),
        )
        s.queue.append(item)
        game.then(ResolveAll(), QueueRound())


# --- blows --------------------------------------------------------------------------------------


def attack_strength(game: Game, attack: Attack, base: int) -> int:
    """Сила атаки: the strike value (or the shot's Х), the attack modifiers, then — for a strike, not a
    shot — a replacement of the strike."""
    strength = base
    for h in game.handlers.ATTACK_STRENGTH:
        strength = h(game, attack, strength)
    if not attack.shot:
        target = game.state.cards.get(attack.target)
        if target is not None:
            strength = blow_strength(game, attack.attacker, target, strength)
    return max(strength, 0)


def blow_strength(game: Game, striker: str, target: Card, strength: int) -> int:
    """The strength of a blow of a strike attack or a fight, after the replacement effects of the card
    it is dealt to («Сведение удара к Х»)."""
    for h in game.handlers.STRIKE_REPLACEMENT:
        replaced = h(game, striker, target, strength)
        if replaced is not None:
            strength = replaced
    return max(strength, 0)


def _first(game: Game, a: Card | None, b: Card | None) -> Card | None:
    """«Первый удар»: the one of the two that strikes first, or None when they strike together."""
    if a is None or b is None:
        return None
    first = game.handlers.STRIKES_FIRST
    if not first:
        return None
    a_first = b_first = False  # any() of each, written out: no generator at every blow exchanged
    for h in first:
        if h(game, a, b):
            a_first = True
            break
    for h in first:
        if h(game, b, a):
            b_first = True
            break
    if a_first == b_first:
        return None
    return a if a_first else b


@dataclass(slots=True)
class ResolveAttack(Task):
    """The attack in the Queue: blows and wounds (simultaneous, or «Первый удар» first)."""

    item: QueueItem
    stage: int = 0

    # written out, not generated: compiled, a generated __init__ runs interpreted (architecture.md)
    def __init__(self, item: QueueItem, stage: int = 0) -> None:
        self.item = item
        self.stage = stage

    def run(self, game: Game) -> None:
        s = game.state
        attack = self.item.attack
        assert attack is not None
        if attack.strike and self.stage == 0:
            game.push(CloseAttacker(attack.attacker))  # runs once the blows below are dealt (I-20)
        attacker = s.cards.get(attack.attacker)
        target = s.cards.get(attack.target)
        if (
            target is None
            or target.zone != "play"
            or (attack.strike and (attacker is None or attacker.zone != "play"))
        ):
            if self.stage == 0:
                game.log("attack_fizzles", "Атака не состоялась: участник покинул игровую зону", rule="518.1")
            return
        if attacker is not None and attacker.zone != "play":
            attacker = None  # a fighting source that no longer exists still strikes (403.1, I-13)
        back = attack.reflecting and target.definition.type == "creature"
        first = _first(game, attacker, target) if back else None
        # A strike uses the attacker as it is; a fight, the source as it entered the Queue (I-13).
        if attack.strike and attacker is not None:
            base = ch.strike(game, attacker)
        else:
            base = int(self.item.lki.get("strike", 0))
        strength = attack_strength(game, attack, base)
        name = attack.attacker_name
        blow_kind = "удар" if attack.strike else "сражение"
        hit = [
            BlowEvent(attack.attacker, target.id, strength, "attack", name),
            WoundEvent(target.id, strength, attack.attacker, name, attack=True, blow=blow_kind),
        ]
        counter = []
        if back and attacker is not None and attacker.id != target.id:
            counter_strength = blow_strength(game, target.id, attacker, ch.strike(game, target))
            counter = [
                BlowEvent(target.id, attacker.id, counter_strength, "counter", target.name),
                WoundEvent(attacker.id, counter_strength, target.id, target.name, blow="ответный удар"),
            ]
        if first is None:
            perform(game, *hit, *counter)
            return
        first_hit, second = (hit, counter) if first is attacker else (counter, hit)
        game.log("first_strike", f"«{first.name}» наносит удар первым", card=first.id, rule="первый-удар")
        game.then(Perform(first_hit), SecondBlow(second))


@dataclass(slots=True)
class CloseAttacker(Task):
    """I-20: the attacker closes to pay for its attack once the wounds are dealt (the FAQ of 04.05.2023
    to «Возвращение Древних»), not when the attack is declared — unless it does not close («Опыт в
    атаке»). An attacker no longer in the game zone closes nothing."""

    attacker: str

    # written out, not generated: compiled, a generated __init__ runs interpreted (architecture.md)
    def __init__(self, attacker: str) -> None:
        self.attacker = attacker

    def run(self, game: Game) -> None:
        card = game.state.cards.get(self.attacker)
        if card is None or card.zone != "play" or card.closed:
            return  # gone, or already closed (a snapshot of an engine that closed it on declaration)
        perform(game, *closing_payment(game, card, "attack"))


@dataclass(slots=True)
class SecondBlow(Task):
    """«Первый удар»: the other one strikes back only if it survived."""

    events: list[Any]

    def run(self, game: Game) -> None:
        blow = self.events[0]
        striker = game.state.cards.get(blow.card)
        if striker is None or striker.zone != "play" or striker.wounds >= ch.life(game, striker):
            return
        target = game.state.cards.get(blow.target)
        if target is None or target.zone != "play":
            return
        perform(game, *self.events)


@dataclass(frozen=True, slots=True)
class Fight:
    """Сразиться с выбранным существом (an effect of card text): the source attacks the chosen creature
    by the usual rules of a fight (:func:`fight`)."""

    target: Selector

    def run(self, game: Game, item: QueueItem) -> None:
        targets = selectors.resolve(game, self.target, item)
        if targets:
            fight(game, item, targets[0])


def fight(game: Game, item: QueueItem, target_id: str) -> None:
    """Сразиться с выбранным существом (403.1, I-13): the source's strike is what it was when the
    ability entered the Queue; a source that no longer exists still strikes, but takes no blow back."""
    s = game.state
    attack = Attack(
        attacker=item.source,
        attacker_name=item.source_name,
        target=target_id,
        target_name=s.cards[target_id].name,
        original_target=target_id,
        reflecting=True,  # «Существа сражаются как открытые»
        strike=False,
    )
    fight_item = QueueItem(
        id=item.id,
        kind="attack",
        controller=item.controller,
        source=item.source,
        source_name=item.source_name,
        text=item.text,
        attack=attack,
        lki=item.lki,
    )
    game.log(
        "fight",
        f"«{item.source_name}» сражается с «{s.cards[target_id].name}»",
        card=item.source,
        target=target_id,
        rule="сразиться-с-выбранным-существом",
    )
    note_targets(game, item.source, [target_id])
    game.push(Perform([AttackEvent(item.source, target_id, strike=False)]), ResolveAttack(fight_item))


def targeted(game: Game, source: Card, serial: int) -> bool:
    """Has ``source`` targeted the physical card ``serial`` this turn (see :func:`note_targets`)?"""
    return source.this_turn is not None and serial in source.this_turn.targets


task(DeclareAttack, AssignDefender, EnterAttack, ResolveAttack, CloseAttacker, SecondBlow)
serializable(Fight)
queue.RESOLVERS["attack"] = ResolveAttack  # an attack in the Queue resolves as a strike attack
