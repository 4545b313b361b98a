"""The engine's catalogue: every module that registers something — node types and typed slots, trigger kinds,
keywords, handlers of the core's extension points (:mod:`berserk_engine.hooks`), action kinds, tasks —
imported once, here, in the order written below.

The package imports this module first (``berserk_engine/__init__.py``), so a reader of card text
(:mod:`berserk_engine.grammar`) finds every kind and node registered without importing a mechanic itself:
the grammar knows nothing of the modules that use it, and no module of the engine imports a module
that imports it back (``tests/test_engine_core.py`` checks the import graph).

**Order.** Handlers of a point run in the order their modules are listed here. Where that order could
change an outcome it is a rule or a registered interpretation, never the order of file names:

* ``hooks.WOUND_PREVENTION`` — «Броня Х» is spent before a prevention effect created by a card
  («Предотвратить первые Х ран …») (interpretation I-59): ``armour`` before ``prevention``;
* ``hooks.ATTACK_STRENGTH`` — the modifiers of an attack add up («+Х к атаке», «−Х от атаки», «Гнев»);
  the strength is floored at 0 only after all of them (``combat.attack_strength``), so their order
  changes nothing;
* ``hooks.REPLACEMENTS`` — every replacement that could apply is offered to the player who chooses
  (5.замещение.3), so the order is only the order of the options;
* ``hooks.PLAY_RESTRICTIONS``, ``UNTARGETABLE``, ``STAYS_OPEN``, ``IGNORES`` — «any of them says so»:
  the order changes nothing but which reason a message names first.

Trigger kinds (:mod:`berserk_engine.triggers`) are collected for an event in the order they are
registered — the order in which waiting triggers appear (401.4); the player then declares them in the
order he chooses (402.2), so that order is only a presentation.
"""

# ruff: noqa: I001, F401 — the imports run in the order written: that order is the catalogue

from __future__ import annotations

# 1. The core: state, events and their pipeline, the Queue, the turn, combat, actions.
from berserk_engine import (  # each registers its actions, tasks, handlers
    abilities,
    actions,
    activation,
    characteristics,
    choices,
    combat,
    events,
    grammar,
    hooks,
    observation,
    playing,
    preparation,
    queue,
    selectors,
    state,
    triggers,
    turn,
    zones,
)

# 2. Mechanics that register node types, typed slots, trigger kinds and handlers.
from berserk_engine import (  # in this order: see the module's docstring
    card_filter,  # the typed slot {w:Wanted} that squad's and free_play's phrases use
    effects,
    costs,
    deck,
    delayed,
    discard,
    faces,
    moves,
    trigger_kinds,
    replacement,
    resolution,
    squad,
    victory,
)

# 3. Keywords and glossary terms, one module each. A shared typed slot first (``_sources``).
from berserk_engine.keywords import (  # in this order: see the module's docstring
    _sources,
    armour,
    prevention,
    attack_bonus,
    attack_reduction,
    wrath,
    attack_experience,
    defence_experience,
    no_close,
    attacks_per_turn,
    directed_strike,
    equipment,
    event_card,
    extra_lives,
    first_strike,
    haste,
    horde,
    ignore_features,
    ignore_obligation,
    ignore_prevention,
    ignore_protection,
    ignore_replacement,
    ignore_trigger,
    incarnation,
    lives_reduced,
    lose_text,
    meditation,
    no_wounds_from,
    poison,
    poison_boost,
    protection,
    regeneration,
    shot,
    stealth,
    strike_becomes,
    strike_reduction,
    thirst,
    unhealing,
    uniqueness,
    unity,
    vanguard,
    vulnerability,
)

# 4. Printed wording that builds on the keywords above: constant abilities (``statics``: it reads
# «дополнительные жизни», «обязывает атаковать») and the printed forms of effects, connectors and
# selectors (``printed``: «Выстрел на 1 по герою противника» is the keyword's effect).
from berserk_engine import (
    statics,
    printed,
)

# 4b. Printed constructions of issue 29: conditions on the hands («если у вас в руке больше карт, чем у
# противника», «Пока у вас нет карт в руке, …»), «Не может атаковать», «… по его выбору», «…, при этом …»,
# «Противник может …; иначе …», triggers on a card played and on a spell's target, the ban on playing cards.
from berserk_engine import (
    conditions,
    cannot_attack,
    cannot_defend,
    opponent_choice,
    thereby,
    otherwise,
    play_triggers,
    creature_count,
    class_triggers,
    attack_triggers,
    hero_strike,
    play_ban,
    next_turn_cost,
    same_name_cost,
    untargetable,
    deals_no_wounds,
    draw_until,
    directed_at,
    cost_surcharge,
    each_player,
)
from berserk_engine.language import constructions  # their reading: syntax/constructions.lark
from berserk_engine.language import general  # the general forms: comparisons, a group's attack, a class

# 4a. Printed effects and decisions of family 7 (summon): a free play, taking effects off, a chosen class,
# the Х of a variable cost chosen when a spell is played.
from berserk_engine import (
    free_play,
    effect_removal,
    class_choice,
    cost_x,
)

# 5. Keywords are read by the grammar (language/abilities.py, lexicon/keywords.toml) from the data their
# modules declare (berserk_engine.keywords.Keyword): no phrases are registered for them.
grammar.mark_loaded()
