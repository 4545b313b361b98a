"""The game: a state machine that stops only where a player must decide.

* :meth:`Game.decision` — who must decide now, what kind of decision, and every legal option;
* :meth:`Game.act` — the answer; an illegal one raises :class:`IllegalAction` citing the rule and
  leaves the state exactly as it was (the action is checked before anything changes);
* :meth:`Game.observe` — what one player may see (hidden zones stay hidden);
* :meth:`Game.position` — the whole state as a position that :func:`berserk_engine.setup.new_game`
  accepts and that plays on identically.

The game runs the resolution stack (:mod:`berserk_engine.tasks`) until a task asks a player. The
engine never chooses for a player; it only passes for a player who has nothing at all to declare
(401.7 «не имеет возможности»), which is interpretation I-1.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from berserk_engine import (  # noqa: F401 — action kinds and snapshot tasks register
    actions,
    activation,
    choices,
    combat,
    hooks,
    playing,
    preparation,
    queue,
    turn,
)
from berserk_engine import characteristics as ch
from berserk_engine.cards import CardDef
from berserk_engine.errors import IllegalAction
from berserk_engine.observation import observe
from berserk_engine.position import snapshot_position
from berserk_engine.state import PLAYERS, Card, ContinuousEffect, GameState, Pending, QueueItem, entry_json
from berserk_engine.tasks import Task
from berserk_engine.zones import PlayIndex, grants_activated, index_play, moved_in_index, snapshot


@dataclass
class Decision:
    seq: int  # how many decisions were answered before this one: tells a stale answer from a fresh one
    player: str
    kind: str  # "choose_action" | "declare_trigger" | "assign_defender" | "choose_cards" | "choose"
    rule: str
    prompt: str
    options: list[dict[str, Any]] = field(default_factory=list)
    deciding: tuple[str, ...] = ()  # the rules and interpretations that decide this point (optional)

    # written out, not generated: compiled, a generated __init__ runs interpreted (architecture.md)
    def __init__(
        self,
        seq: int,
        player: str,
        kind: str,
        rule: str,
        prompt: str,
        options: list[dict[str, Any]] | None = None,
        deciding: tuple[str, ...] = (),
    ) -> None:
        self.seq = seq
        self.player = player
        self.kind = kind
        self.rule = rule
        self.prompt = prompt
        self.options = [] if options is None else options
        self.deciding = deciding

    def to_json(self) -> dict[str, Any]:
        data = {
            "seq": self.seq,
            "player": self.player,
            "kind": self.kind,
            "rule": self.rule,
            "prompt": self.prompt,
            "options": self.options,
        }
        if self.deciding:
            data["deciding"] = list(self.deciding)
        return data


# Game.defs_with's answers across games: (key, id of a card definition) -> (the definition, the answer).
_DEF_ANSWERS: dict[tuple[str, int], tuple[CardDef, bool]] = {}

# What depends only on a game's library, shared by the games of the same library (the benchmark's
# games, the scenarios of one pool): the library's names and the ids of its definitions -> (the first
# game's library, held so that the ids stay its definitions', and the answers: ``Game.defs_with`` by
# key, ``hooks.handlers_for`` by the texts granted so far).
_LIBRARIES: dict[tuple[Any, ...], tuple[dict[str, CardDef], dict[Any, Any]]] = {}


def library_answers(defs: dict[str, CardDef]) -> dict[Any, Any]:
    """The answers kept for this library (:data:`_LIBRARIES`): a definition is immutable and the same
    printed card is the same definition in every game (``setup.build_library``), so the same names
    with the same definitions are the same library."""
    key = (*defs, *map(id, defs.values()))
    known = _LIBRARIES.get(key)
    if known is None:
        if len(_LIBRARIES) >= 1024:
            _LIBRARIES.clear()
        known = _LIBRARIES[key] = (defs, {})
    return known[1]


class Game:
    def __init__(self, state: GameState, defs: dict[str, CardDef]) -> None:
        self.state = state
        self.defs = defs
        for card in state.cards.values():  # Card.definition: a card's definition as an attribute
            card.definition = defs[card.name]
        self.library = library_answers(defs)  # answers shared by the games of this library
        # Continuous effects by the card they are on: rebuilt whenever the effects change.
        self.by_card: dict[str, list[ContinuousEffect]] = {}
        # Does some card's ability work outside the game zone (triggers look there only then)?
        self.outside_play = any(d.outside_play for d in defs.values())
        self.listener_index: dict[str, list[str]] | None = None  # triggers.listeners
        self._present: frozenset[str] | None = None  # keywords present in the game zone
        self._in_play: PlayIndex | None = None  # the game zone by role (in_play)
        self._granting = False  # some effect grants an activated ability (effects_changed)
        self._per_game: dict[str, Any] = {}
        # triggers.kinds_for: the trigger kinds some ability of this game can wait for, by event type —
        # kept until an effect grants a text not granted before in this game (``granted``)
        self.trigger_kinds: dict[type, list[Any]] = {}
        self.granted: set[str] = set()  # every text an effect has granted in this game so far
        # Interpretation I-9: lives may have fallen (an effect began or ended, a card entered or left
        # the game zone, the active player changed) — a state check is due before the game goes on.
        self.state_check_due = True
        # The change counter: bumped (``_changing``) before anything can change the state. The state
        # changes only in answering a decision or taking an anytime action (``act``): tasks run only
        # then, and a pending decision waits on a state nothing else touches. The listing of legal
        # actions is cached under it: (the counter when listed, the options).
        self.changes = 0
        self._nested = 0  # tasks run at once by ``then`` inside one another
        self._listed: tuple[int, list[dict[str, Any]]] | None = None
        # the handlers of every hook point that can matter in this game (the library decides): attributes
        # read on the hot paths, ``game.handlers.WOUND_PREVENTION``
        self.handlers = hooks.handlers_for(self)
        self.effects_changed()
        self.advance()

    # --- the loop ---------------------------------------------------------------------------

    def advance(self) -> None:
        s = self.state
        stack = s.stack
        while s.result is None and s.pending is None and stack:
            if self.state_check_due and self._state_check(stack):
                continue  # the check ran: it may have ended the game or put deaths on the stack
            stack.pop().run(self)

    def _state_check(self, stack: list[Task]) -> bool:
        """Interpretation I-9: after a change of lives, deaths are checked before the next task — so
        before any player decides — unless an ability is resolving: then the check that follows its
        resolution (``queue.StateCheck`` before ``queue.Resolved``) does it, once it has finished (401.6).
        The check runs here and now, as a ``queue.StateCheck`` task pushed and popped at once would
        (True), unless one is next on the stack anyway (False: the loop runs it)."""
        for t in stack:
            if type(t) is queue.Resolved:
                return False
        self.state_check_due = False
        if type(stack[-1]) is queue.StateCheck:
            return False
        queue.StateCheck().run(self)
        return True

    def then(self, first: Task, *rest: Task) -> None:
        """Push tasks as :meth:`push` does — called by a task's ``run`` as the last thing it does — but
        run the first at once when :meth:`advance` would pop it next with nothing in between (no
        decision pending, no end of the game, no state check due): the same order of everything, one
        pass of the loop fewer. Nested runs are bounded (past the bound the task is pushed)."""
        s = self.state
        if rest:
            if len(rest) == 1:
                s.stack.append(rest[0])
            else:
                s.stack.extend(reversed(rest))
        if s.pending is None and s.result is None and not self.state_check_due and self._nested < 50:
            self._nested += 1
            try:
                first.run(self)
            finally:
                self._nested -= 1
        else:
            s.stack.append(first)

    def push(self, *tasks: Task) -> None:
        """Put tasks on the stack so that the first one given runs first."""
        if len(tasks) == 1:
            self.state.stack.append(tasks[0])
        else:
            self.state.stack.extend(reversed(tasks))

    def ask(
        self,
        task: Task,
        player: str,
        kind: str,
        rule: str,
        prompt: str,
        options: list[dict[str, Any]],
        deciding: tuple[str, ...] = (),
    ) -> None:
        """Stop: ``task`` waits for ``player``'s answer (it goes back on the stack). ``deciding``: the
        rules and interpretations that decide why this player decides this now (static data)."""
        self.state.stack.append(task)
        self.state.pending = Pending(player, kind, rule, prompt, options, deciding)
        self._listed = (self.changes, options)  # computed just now, from this very state

    # --- helpers used by the mechanics --------------------------------------------------------

    @staticmethod
    def opponent(player: str) -> str:
        return PLAYERS[1] if player == PLAYERS[0] else PLAYERS[0]

    def inactive(self) -> str:
        return self.opponent(self.state.active)

    def name(self, card: Card) -> str:
        return card.name

    def hero(self, player: str) -> Card:
        return self.state.cards[self.state.players[player].hero]

    def defs_with(self, key: str, predicate: Any) -> frozenset[str]:
        """Names of the card definitions of this game that satisfy ``predicate`` (computed once per
        ``key``, kept for the games of the same library): a cheap guard for mechanics most games never need
        (cost abilities, replacements)."""
        found = self.library.get(key)
        if found is None:
            found = self.library[key] = self._defs_satisfying(key, predicate)
        return found

    def _defs_satisfying(self, key: str, predicate: Any) -> frozenset[str]:
        """The names of this library's definitions that satisfy ``predicate`` (see :meth:`defs_with`)."""
        names = []
        for n, d in self.defs.items():
            # a definition is immutable and built once per printed card (setup.build_library): the
            # answer is kept with it — the definition held, so that its id is not another's
            known = _DEF_ANSWERS.get((key, id(d)))
            if known is None or known[0] is not d:
                if len(_DEF_ANSWERS) >= 65536:
                    _DEF_ANSWERS.clear()
                known = _DEF_ANSWERS[(key, id(d))] = (d, bool(predicate(d)))
            if known[1]:
                names.append(n)
        return frozenset(names)

    def once(self, key: str, compute: Any) -> Any:
        """``compute(game)``, computed once per game: what depends only on the cards of the game."""
        found = self._per_game.get(key, self)
        if found is self:
            found = self._per_game[key] = compute(self)
        return found

    def effects_changed(self) -> None:
        self.state_check_due = True  # an effect began or ended: lives may have fallen (I-9)
        index: dict[str, list[ContinuousEffect]] = {}
        new_keyword = False
        granting = False  # does some effect grant an activated ability (zones.PlayIndex: «activatable»)?
        for e in self.state.effects:
            index.setdefault(e.target, []).append(e)
            if not granting and grants_activated(e):
                granting = True
            if e.kind == "grant" and e.text not in self.granted:
                # a granted ability may wait for a kind no card of the game waits for: it stays possible
                # for the rest of the game (a card's last known information keeps its abilities)
                # (the keywords possible before the text is granted: compared first, then granted)
                keyword = ch.ability(e.text).keyword
                if keyword is not None and keyword not in hooks.possible_keywords(self):
                    new_keyword = True
                self.granted.add(e.text)
                self.trigger_kinds = {}
                self._per_game.pop("trigger-events", None)  # triggers.kinds_for
        if new_keyword:  # a keyword a mechanic gives («Авангард»: «Рывок») may matter from now on
            self._per_game.pop("possible-keywords", None)
            self.handlers = hooks.handlers_for(self)
        self.by_card = index
        self.listener_index = None
        self._present = None
        # the index by role reads the effects only for abilities they grant: kept unless some effect
        # before or after the change grants an activated one, or a constant ability grants texts
        if new_keyword or granting or self._granting or self.handlers.STATIC_GRANTS:
            self._in_play = None
        self._granting = granting

    def zones_changed(self, left: Card | None = None, entered: Card | None = None) -> None:
        """A card entered or left the game zone, or changed its controller. ``left`` / ``entered``: the
        card object that left it and the one that entered it last in its order (a move: the index by
        role follows it instead of being made again)."""
        self.state_check_due = True  # a card entered or left the game zone: a source of lives too (I-9)
        self.listener_index = None
        self._present = None
        if self._in_play is not None and (left is not None or entered is not None):
            moved_in_index(self, self._in_play, left, entered)
        else:
            self._in_play = None

    def in_play(self) -> PlayIndex:
        """The game zone by role and controller (:class:`berserk_engine.zones.PlayIndex`): computed once,
        then updated by each move and made again on a change of control or face
        (:meth:`zones_changed`) or of an effect granting an activated ability (:meth:`effects_changed`)."""
        found = self._in_play
        if found is None:
            found = self._in_play = index_play(self)
        return found

    def present(self, term: str) -> bool:
        """Does some card in the game zone have this keyword now? Keyword handlers ask this first, so
        that a keyword nobody has costs the game nothing (the answer is cached until a card changes zone
        or an effect changes)."""
        present = self._present
        if present is None:
            s = self.state
            cards, by_card = s.cards, self.by_card
            found: set[str] = set()
            statics = bool(self.handlers.STATIC_GRANTS)  # «Ваши гномы имеют Броню 1»
            for card_id in s.play:
                card = cards[card_id]
                if statics or card_id in by_card:
                    found.update(a.keyword for a in ch.abilities(self, card) if a.keyword)
                else:
                    printed = card.definition.keywords
                    if printed:  # most cards have none
                        found.update(printed)
                if statics:  # a keyword «Пока …» may give at any moment: present while its card is (I-81)
                    found.update(hooks.keywords_of(card.definition))
            present = self._present = frozenset(found)
        return term in present

    def log(
        self,
        event: str,
        text: str,
        *,
        private_to: str | None = None,
        deciding: list[str] | None = None,
        **data: Any,
    ) -> None:
        """Record an event. With ``private_to``, the event's details (``data``) are for that player
        only: the other player's log shows the event and its text, not which card it was.
        ``deciding``: the rules and interpretations that decide this point (protocol field, optional)."""
        s = self.state
        log = s.log
        # kept light: the protocol dict is built when asked (state.entry_json), key for key the same
        log.append((len(log) + 1, s.turn, event, text, data, private_to, deciding))

    def log_for(self, viewer: str | None) -> list[dict[str, Any]]:
        """The log as ``viewer`` may see it (None: the judge's full log)."""
        shown = []
        public = ("seq", "turn", "event", "text", "player", "rule", "deciding")
        for kept in self.state.log:
            entry = entry_json(kept)
            owner = entry.get("private_to")
            if owner is None or viewer is None or viewer == owner:
                shown.append(entry)
            else:
                shown.append({k: v for k, v in entry.items() if k in public})
        return shown

    def source_info(self, item: QueueItem) -> dict[str, Any]:
        """Information about an ability's source on resolution (403.1): the card as it is if it is
        still the same object in the game zone, otherwise its last known information."""
        card = self.state.cards.get(item.source)
        if card is not None and card.zone == "play":
            return snapshot(self, card)
        return self.state.lki.get(item.source, item.lki)

    def end_game(self, *, winner: str | None, rule: str) -> None:
        s = self.state
        s.result = {"winner": winner, "draw": winner is None, "rule": rule}
        s.phase = "over"
        s.round = None
        s.pending = None
        self.log(
            "game_over", "Ничья" if winner is None else f"Победа игрока {winner}", rule=rule, winner=winner
        )
        for handler in self.handlers.GAME_OVER:  # 604.2: the cards are freed of effects and go back
            handler(self)

    # --- decisions ---------------------------------------------------------------------------

    def decision(self) -> Decision | None:
        s = self.state
        p = s.pending
        if p is None or s.result is not None:
            return None
        return Decision(s.answered, p.player, p.kind, p.rule, p.prompt, p.options, p.deciding)

    def legal_actions(self) -> list[dict[str, Any]]:
        """The options of the pending decision, as listed when the game stopped."""
        p = self.state.pending
        return p.options if p is not None and self.state.result is None else []

    def list_legal_actions(self) -> list[dict[str, Any]]:
        """The options of the pending decision as the state gives them now: listed afresh
        (:meth:`fresh_legal_actions`) unless listed already under the same change counter — as
        :meth:`ask` lists them when the game stops (a property test compares both at every decision
        of random games, draw offers and declines included, and catches a forgotten invalidation)."""
        s = self.state
        if s.pending is None or s.result is not None:
            return []
        listed = self._listed
        if listed is not None and listed[0] == self.changes:
            return listed[1]
        options = s.stack[-1].options(self)
        self._listed = (self.changes, options)
        return options

    def fresh_legal_actions(self) -> list[dict[str, Any]]:
        """The options of the pending decision computed afresh from the state, past the cache (the
        benchmark times this: what every decision costs when the game stops)."""
        s = self.state
        if s.pending is None or s.result is not None:
            return []
        return s.stack[-1].options(self)

    def _changing(self) -> None:
        """The state is about to change: what was listed under the old counter is stale."""
        self.changes += 1

    def act(self, player: Any, action: Any) -> None:
        # Any: whatever a caller sends is checked here (actions.validate), a wrong type included
        s = self.state
        d = s.pending
        if d is None or s.result is not None:
            raise IllegalAction("604.1", "игра окончена: никакие действия не могут повлиять на неё")
        self._changing()  # an illegal action changes nothing, but the counter is not state
        kind = action.get("type") if isinstance(action, dict) else None
        anytime = actions.ANYTIME.get(kind) if isinstance(kind, str) else None
        if anytime is not None:  # concession, a draw offer: any player, whoever decides now
            problem = anytime.check(self, player, action)
            if problem is not None:
                raise problem
            anytime.apply(self, player, action)
            self.advance()
            return
        action = actions.validate(self, player, action)
        task = s.stack.pop()
        s.pending = None
        s.answered += 1
        task.answer(self, player, action)
        self.advance()

    # --- observation and snapshots -----------------------------------------------------------

    def observe(self, player: str | None) -> dict[str, Any]:
        return observe(self, player)

    def position(self) -> dict[str, Any]:
        """The whole state as a position (see :mod:`berserk_engine.setup`)."""
        return snapshot_position(self)
