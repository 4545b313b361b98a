#!/usr/bin/env node
// A second engine of «Берсерк. Герои», in JavaScript, speaking the berserk-rules protocol over
// stdio (newline-delimited JSON). Small on purpose: the position, the turn structure (303–306, 310)
// and the Queue as far as the turn needs it — no card text, no attacks, no cards played, no end of
// the game. It declares exactly that in its capabilities and answers «unsupported» for a position
// it cannot play, so the suite reports those scenarios as not applicable rather than failed.
import { realpathSync } from "node:fs";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";

const PLAYERS = ["А", "Б"];
const ZONES = ["hand", "deck", "graveyard", "reserve", "sideboard"];
const TYPES = { "существо": "creature", "герой": "hero" };
const MAX_COINS = 10; // 304.1
const CAPABILITIES = {
  parts: [3],
  rules: ["303.1", "304.1", "304.2", "305", "306.1", "310.3"],
  terms: [],
  decisions: ["choose_action"],
  actions: ["end_turn"],
};

class Unsupported extends Error { kind = "unsupported"; } // как error.kind протокола
class Rejected extends Error {
  constructor(rule, message) { super(message); this.rule = rule; }
}

const other = (p) => (p === "А" ? "Б" : "А");

export function createEngine() {
  let g = null;

  function card(name, owner, zone, extra = {}) {
    const data = g.cards[name];
    if (!data) throw new Unsupported(`карта «${name}» не описана в позиции`);
    if (data.text) throw new Unsupported(`текст карт не поддерживается («${name}»)`);
    const type = TYPES[data.type];
    if (type !== "creature") throw new Unsupported(`тип карты «${data.type}» не поддерживается`);
    const c = { id: `c${++g.next}`, name, type, owner, cost: data.cost ?? 0, zone,
      controller: owner, closed: false, wounds: 0, life: data.life ?? 1, strike: data.strike ?? 0,
      entered: false, ...extra };
    g.all[c.id] = c;
    return c;
  }

  function log(event, text, fields = {}) {
    g.log.push({ seq: g.log.length + 1, turn: g.turn, event, text, ...fields });
  }

  function start(position) {
    const allowed = new Set(["cards", "players", "turn", "start", "active", "first_player", "seed"]);
    for (const key of Object.keys(position)) {
      if (!allowed.has(key)) throw new Unsupported(`поле позиции «${key}» не поддерживается`);
    }
    const startAt = position.start ?? "turn";
    if (startAt !== "turn" && startAt !== "choice") throw new Unsupported(`начало «${startAt}» не поддерживается`);
    g = { cards: position.cards ?? {}, all: {}, next: 0, log: [], seq: 0, result: null,
      turn: position.turn ?? 3, active: position.active ?? "А", firstPlayer: position.first_player ?? "А",
      phase: "choice", play: [], players: {} };
    const players = position.players ?? {};
    for (const p of PLAYERS) {
      const setup = players[p] ?? {};
      for (const key of Object.keys(setup)) {
        if (!["hero", "coins", "draw_failures", "play", ...ZONES].includes(key)) {
          throw new Unsupported(`поле игрока «${key}» не поддерживается`);
        }
      }
      const h = setup.hero ?? {};
      for (const key of Object.keys(h)) {
        if (!["name", "life", "wounds", "closed"].includes(key)) throw new Unsupported(`поле героя «${key}» не поддерживается`);
      }
      const hero = { id: `c${++g.next}`, name: h.name ?? `Герой ${p}`, type: "hero", owner: p, cost: 0,
        controller: p, closed: h.closed ?? false, wounds: h.wounds ?? 0, life: h.life ?? 20, strike: 0, entered: false };
      g.all[hero.id] = hero;
      const zones = Object.fromEntries(ZONES.map((z) => [z, (setup[z] ?? []).map((n) => {
        if (typeof n !== "string") throw new Unsupported(`карта в зоне ${z} — не название`);
        return card(n, p, z);
      })]));
      const coins = setup.coins ?? {};
      g.players[p] = { hero, zones, coins: { open: coins.open ?? 0, closed: coins.closed ?? 0 },
        draw_failures: setup.draw_failures ?? 0 };
      g.play.push(hero);
    }
    for (const p of PLAYERS) {
      for (const entry of (players[p] ?? {}).play ?? []) {
        const e = typeof entry === "string" ? { card: entry } : entry;
        for (const key of Object.keys(e)) {
          if (!["card", "closed", "owner", "new", "wounds"].includes(key)) throw new Unsupported(`поле карты в игре «${key}» не поддерживается`);
        }
        g.play.push(card(e.card, e.owner ?? p, "play",
          { controller: p, closed: e.closed ?? false, wounds: e.wounds ?? 0, entered: e.new ?? false }));
      }
    }
    if (startAt === "turn") beginTurn();
  }

  // 303: restoration, 304: accumulation, 305.2: the main stage begins with the choice phase
  function beginTurn() {
    const p = g.players[g.active];
    g.phase = "restoration";
    log("phase", "Фаза восстановления", { phase: "restoration", rule: "303" });
    for (const c of g.play) {
      if (c.controller === g.active && c.closed) {
        c.closed = false;
        log("open", `Открывается «${c.name}»`, { card: c.id, rule: "303.1" });
      }
    }
    if (p.coins.closed) {
      log("coins_open", `Открываются маркеры монет: ${p.coins.closed}`, { rule: "303.1" });
      p.coins.open += p.coins.closed;
      p.coins.closed = 0;
    }
    for (const c of g.play) c.entered = false;
    g.phase = "accumulation";
    log("phase", "Фаза накопления", { phase: "accumulation", rule: "304" });
    if (p.coins.open + p.coins.closed < MAX_COINS) {
      p.coins.open += 1;
      log("coin", `Игрок ${g.active} получает открытый маркер монеты`, { player: g.active, rule: "304.1" });
    }
    if (!(g.turn === 1 && g.active === g.firstPlayer)) draw(g.active);
    log("queue_empty", "Очередь пуста", { rule: "401.8" }); // no card text: nothing ever triggers
    log("phase", "Основной этап: фаза выбора", { phase: "choice", rule: "305.2" });
    g.phase = "choice";
  }

  function draw(player) {
    const p = g.players[player];
    const deck = p.zones.deck;
    if (deck.length === 0) {
      log("draw_failed", `Игрок ${player} не может взять карту: в колоде нет карт`, { player, rule: "304.2" });
      p.draw_failures += 1;
      if (p.draw_failures >= 3) throw new Unsupported("окончание игры (часть 6) не поддерживается");
      log("draw_failures", `Игрок ${player} не смог взять карту (${p.draw_failures}-й раз за игру)`,
        { player, failures: p.draw_failures, rule: "304.2" });
      return;
    }
    const taken = deck.shift();
    const moved = { ...taken, id: `c${++g.next}`, zone: "hand" }; // a card that changes zones is a new object
    g.all[moved.id] = moved;
    p.zones.hand.push(moved);
    log("draw", `Игрок ${player} берёт карту (фаза накопления)`,
      { player, card: moved.id, rule: "возьмите-карту", private_to: player });
  }

  function decision() {
    if (g.result) return null;
    return { seq: g.seq, player: g.active, kind: "choose_action", rule: "306.1",
      prompt: `Игрок ${g.active}: выберите действие фазы выбора`,
      options: [{ type: "end_turn", label: "передать ход противнику" }] };
  }

  function act(player, action) {
    if (player !== g.active) throw new Rejected("306.1", `сейчас решение принимает игрок ${g.active}`);
    if (action.type !== "end_turn") throw new Unsupported(`действие ${action.type} не поддерживается`);
    if (Object.keys(action).length !== 1) throw new Rejected("306.1", "у действия 'end_turn' нет других полей, кроме type");
    g.seq += 1;
    g.phase = "end";
    log("phase", "Этап конца хода", { phase: "end", rule: "310" });
    log("queue_empty", "Очередь пуста", { rule: "401.8" });
    g.active = other(g.active);
    g.turn += 1;
    log("turn", `Ход переходит к игроку ${g.active} (ход ${g.turn})`, { player: g.active, rule: "310.3" });
    beginTurn();
  }

  function shown(c, viewer, inPlay) {
    const base = { id: c.id, name: c.name, type: c.type, owner: c.owner, cost: c.cost };
    if (!inPlay) return base;
    return { ...base, controller: c.controller, closed: c.closed, face_down: false, wounds: c.wounds,
      life: c.life, current_life: c.life, strike: c.strike, markers: {}, uses: {},
      entered_this_turn: c.entered, abilities: [], effects: [] };
  }

  function observe(viewer) {
    const players = {};
    for (const p of PLAYERS) {
      const s = g.players[p];
      const zones = {};
      for (const z of ZONES) {
        const open = z === "graveyard" || viewer === null || (viewer === p && z !== "deck");
        zones[z] = { count: s.zones[z].length, cards: open ? s.zones[z].map((c) => shown(c, viewer, false)) : null };
      }
      players[p] = { hero: shown(s.hero, viewer, true), coins: { ...s.coins }, draw_failures: s.draw_failures, zones,
        anytime: [] };
    }
    const d = decision();
    return { viewer, turn: g.turn, active: g.active, first_player: g.firstPlayer, phase: g.phase, result: g.result,
      play: g.play.map((c) => shown(c, viewer, true)), resolving: [], queue: [], waiting: [], attack: null, players,
      decision: d && (viewer === null || viewer === d.player) ? d : d && { seq: d.seq, player: d.player, kind: d.kind } };
  }

  function logFor(viewer) {
    return g.log.map((e) => (e.private_to && viewer !== null && viewer !== e.private_to
      ? Object.fromEntries(Object.entries(e).filter(([k]) => ["seq", "turn", "event", "text", "player", "rule"].includes(k)))
      : { ...e }));
  }

  return { capabilities: CAPABILITIES, start, decision, act, observe, log: logFor };
}

function answer(engine, request) {
  const id = Number.isInteger(request?.id) ? request.id : null;
  try {
    switch (request?.op) {
      case "handshake":
        return { id, result: { protocol: "1.0", engine: { name: "berserk-js-mini", version: "0.1.0", language: "JavaScript" },
          capabilities: CAPABILITIES } };
      case "start": engine.start(structuredClone(request.position)); return { id, result: null };
      case "decision": return { id, result: engine.decision() };
      case "act": engine.act(request.player, request.action); return { id, result: null };
      case "observe": return { id, result: engine.observe(request.viewer) };
      case "log": return { id, result: engine.log(request.viewer) };
      case "close": return { id, result: null };
      default: return { id, error: { kind: "protocol", message: `неизвестная операция ${request?.op}` } };
    }
  } catch (e) {
    if (e instanceof Unsupported) return { id, error: { kind: "unsupported", message: e.message } };
    if (e instanceof Rejected) return { id, error: { kind: "rejected", rule: e.rule, message: e.message } };
    return { id, error: { kind: "engine", message: String(e?.stack ?? e) } };
  }
}

// Started as a program (node engine.mjs, a symlink to it, a path with non-ASCII letters), not imported:
// the same file on disk, compared after resolving links.
function startedAsProgram() {
  try { return realpathSync(process.argv[1] ?? "") === realpathSync(fileURLToPath(import.meta.url)); } catch { return false; }
}

if (startedAsProgram()) {
  const engine = createEngine();
  const lines = createInterface({ input: process.stdin });
  lines.on("line", (line) => {
    if (!line.trim()) return;
    let request;
    try { request = JSON.parse(line); } catch (e) {
      process.stdout.write(JSON.stringify({ id: null, error: { kind: "protocol", message: `не JSON: ${e.message}` } }) + "\n");
      return;
    }
    process.stdout.write(JSON.stringify(answer(engine, request)) + "\n");
    if (request?.op === "close") { lines.close(); process.exit(0); }
  });
}
