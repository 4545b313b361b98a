"""Deliberately broken engines: how many of them does the scenario suite catch?

Each mutant replaces one exact piece of ``engine/*.py``, runs every scenario against the reference
driver and restores the file. A mutant that survives points at a rule whose scenarios are too weak.
A mutant whose text no longer occurs in the engine is reported as NOT APPLIED (update the list).

    .venv/bin/python tools/mutants.py        # from the project root; about 1 s per mutant

This is a quick measurement, not yet a test: a later step turns it into a gate.
"""

import subprocess
import sys
from pathlib import Path

M = [
    (
        "queue.py",
        "s.round = [game.inactive(), s.active]",
        "s.round = [s.active, game.inactive()]",
        "402.1 order",
    ),
    (
        "queue.py",
        "    item = s.queue.pop(0)\n    resolve(game, item)",
        "    item = s.queue.pop()\n    resolve(game, item)",
        "LIFO",
    ),
    ("turn.py", "if player.coins < MAX_COINS:", "if player.coins <= MAX_COINS:", "coin cap"),
    ("turn.py", "if not (s.turn == 1 and s.active == s.first_player):", "if True:", "first-turn draw"),
    ("turn.py", "DRAW_FAILURES_TO_LOSE = 3", "DRAW_FAILURES_TO_LOSE = 2", "lose at 2"),
    (
        "turn.py",
        "        player.coins_open += player.coins_closed\n        player.coins_closed = 0",
        "        pass",
        "coins not opened",
    ),
    ("turn.py", "if card.controller == s.active and card.closed:", "if card.closed:", "opens opponent cards"),
    (
        "turn.py",
        "        if card.markers:\n            card.markers.clear()",
        "        if False:\n            card.markers.clear()",
        "markers kept",
    ),
    (
        "turn.py",
        "lasting = [m for m in card.modifiers if not m.until_end_of_turn]",
        "lasting = list(card.modifiers)",
        "until-end-of-turn kept",
    ),
    ("queue.py", '    _drop_waiting(game, player, reason="утрачивает право заявить")\n', "", "no forfeit"),
    ("queue.py", "if options and not mandatory:", "if options:", "pass on mandatory"),
    (
        "game.py",
        'if card.zone == "play" and card.incarnation == item.source_incarnation:\n            return card.snapshot()',
        "if True:\n            return card.snapshot()",
        "no LKI",
    ),
    (
        "game.py",
        '        return self.state.left_play.get(f"{item.source}#{item.source_incarnation}", item.lki)',
        "        return item.lki",
        "LKI at declaration",
    ),
    (
        "game.py",
        "        removed = min(amount, card.wounds)  # 518.2",
        "        removed = amount",
        "heal below zero",
    ),
    (
        "combat.py",
        'strike_back = target.type == "creature" and item.attack["target_open"]',
        "strike_back = False",
        "no strike back",
    ),
    (
        "playing.py",
        "    player.coins_closed += card.definition.cost\n",
        "    player.coins_closed += 0\n",
        "coins vanish",
    ),
    (
        "activation.py",
        "if cost.per_turn is not None and card.markers.get(marker_key(ability), 0) >= cost.per_turn:",
        "if False:",
        "per-turn unlimited",
    ),
    (
        "game.py",
        "s.cards[c].wounds >= s.cards[c].life]",
        "s.cards[c].wounds > s.cards[c].life]",
        "death off by one",
    ),
    (
        "queue.py",
        '            if t.own_turn_only and info["controller"] != s.active:\n                continue',
        "            pass",
        "own-turn ignored",
    ),
    (
        "combat.py",
        "    card.closed = True  # an action: the attacker closes",
        "    pass",
        "attacker stays open",
    ),
    ("game.py", "        if player != d.player:", "        if False:", "anyone may act"),
    (
        "turn.py",
        '    queue.fire(game, "turn_start", point=f"начало хода {s.turn}")  # 304.3',
        "    pass",
        "no start triggers",
    ),
    (
        "playing.py",
        '        queue.open_round(game, after="choice")  # 309.2\n        return',
        "        turn_back = __import__('berserk_engine.turn').turn\n        turn_back.back_to_choice(game)\n        return",
        "Найм dropped",
    ),
    (
        "combat.py",
        '            and card.type == "creature"\n            and not card.closed\n            and c != s.pending_attack',
        '            and card.type == "creature"\n            and c != s.pending_attack',
        "closed defenders",
    ),
    (
        "game.py",
        "            card.controller = card.owner\n            s.players[card.owner].zones",
        "            s.players[card.controller].zones",
        "dies to controller's graveyard",
    ),
    (
        "observation.py",
        "visible = zone in OPEN_ZONES or viewer is None or (zone in OWNER_ONLY_ZONES and viewer == name)",
        "visible = True",
        "hidden zones shown",
    ),
    ("observation.py", '"count": len(cards),', '"count": 0,', "counts hidden"),
    (
        "effects.py",
        'game.wound(target.id, int(item.lki["strike"]), item, text="сражение")',
        'game.wound(target.id, source.strike, item, text="сражение")',
        "fight reads strike on resolution",
    ),
    (
        "effects.py",
        "        strike_back = target.strike\n",
        "        strike_back = target.strike\n        if not source_here:\n            return\n",
        "dead source does not act",
    ),
]
root = Path.cwd()
killed = 0
rows = []
for fname, old, new, label in M:
    path = root / "engine" / fname
    text = path.read_text(encoding="utf-8")
    if old not in text:
        rows.append((label, "NOT APPLIED"))
        continue
    path.write_text(text.replace(old, new, 1), encoding="utf-8")
    try:
        r = subprocess.run(
            [
                sys.executable,
                "-m",
                "pytest",
                "tests/test_rulebook.py",
                "-q",
                "-x",
                "-p",
                "no:cacheprovider",
                "--berserk-results",
                "/tmp/mutant-results.json",
            ],
            capture_output=True,
            text=True,
        )
        caught = r.returncode != 0
    finally:
        path.write_text(text, encoding="utf-8")
    killed += caught
    rows.append((label, "caught" if caught else "SURVIVED"))
for label, status in rows:
    print(f"{status:12} {label}")
applied = sum(1 for _, s in rows if s != "NOT APPLIED")
print(f"caught {killed} of {applied} mutants")
