#!/usr/bin/env node
// Прогон тестовых векторов berserk-rules (berserk-rules export) на движке на JavaScript.
//   node replay.mjs ДВИЖОК.mjs ПАПКА_ВЕКТОРОВ [ФАЙЛ.json …]
//   npx berserk-vectors ДВИЖОК.mjs ПАПКА_ВЕКТОРОВ      (пакет berserk-rules-vectors в зависимостях проекта)
// ДВИЖОК.mjs экспортирует createEngine(): объект с методами start(position), decision(), act(player,
// action) (недопустимое действие — исключение с полем rule), observe(viewer), log(viewer).
// Печатает строку на вектор (✓ или ✗ с ожидаемым и полученным); код выхода 1, если хоть один не прошёл,
// 2 — неверные аргументы, нет такой папки или в ней нет ни одного вектора (ничего не проверено — не успех).
import { readFileSync, readdirSync, realpathSync, statSync } from "node:fs";
import { join, resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const ZONES = ["hand", "deck", "graveyard", "reserve", "sideboard"];

export function places(view) { // [zone, card, owner] в порядке наблюдения судьи
  const out = view.play.map((c) => ["play", c, c.owner]);
  const seen = new Set(view.play.map((c) => c.id));
  for (const [owner, p] of Object.entries(view.players)) {
    if (!seen.has(p.hero.id)) out.push(["play", p.hero, owner]);
    for (const z of ZONES) for (const c of p.zones[z]?.cards ?? []) out.push([z, c, owner]);
  }
  return out;
}

export class MissingCard extends Error {}

export function concrete(value, view, decision) {
  if (Array.isArray(value)) return value.map((v) => concrete(v, view, decision));
  if (value === null || typeof value !== "object") return value;
  if (value.$card) {
    const r = value.$card;
    const same = places(view).filter(([z, c, o]) => c.name === r.name && z === r.zone && o === r.owner);
    if (!same[r.index ?? 0]) throw new MissingCard(`карты ${JSON.stringify(r)} нет`);
    return same[r.index ?? 0].id;
  }
  if (value.$trigger) {
    const t = concrete(value.$trigger, view, decision);
    const o = (decision?.options ?? []).find((o) => o.type === "declare"
      && Object.entries(t).every(([k, v]) => o.about?.[k] === v));
    return o ? o.trigger : `«${t.ability}» «${t.source_name}»`;
  }
  return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, concrete(v, view, decision)]));
}

// равенство JSON без учёта порядка ключей
export function same(a, b) {
  if (a === b) return true;
  if (typeof a !== "object" || typeof b !== "object" || a === null || b === null) return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  if (Array.isArray(a)) return a.length === b.length && a.every((x, i) => same(x, b[i]));
  const ka = Object.keys(a), kb = Object.keys(b);
  return ka.length === kb.length && ka.every((k) => k in b && same(a[k], b[k]));
}

function fits(item, pattern) { // поле-объект образца — тоже образец
  return Object.entries(pattern).every(([k, v]) =>
    v !== null && typeof v === "object" && !Array.isArray(v) && item?.[k] && typeof item[k] === "object"
      ? fits(item[k], v) : same(item?.[k], v));
}

export function at(value, path) { // undefined — путь ни к чему не ведёт
  for (const part of path) {
    if (value === undefined || value === null) return undefined;
    if (typeof part === "object") {
      if (!Array.isArray(value)) return undefined;
      const { $copy = 1, ...fields } = part;
      const found = "$value" in fields ? value.filter((x) => same(x, fields.$value))
        : value.filter((x) => x !== null && typeof x === "object" && fits(x, fields));
      value = $copy > 0 ? found[$copy - 1] : found[found.length + $copy];
    } else value = value[part];
  }
  return value;
}

const show = (v) => (v === undefined ? "ничего (пути нет)" : JSON.stringify(v));

// null — вектор прошёл; иначе {step, expected, actual, message}
export function replay(vector, engine) {
  engine.start(structuredClone(vector.position));
  let last = null;
  for (const [index, step] of vector.steps.entries()) {
    const where = `шаг ${index + 1} (${step.op})`;
    if (step.op === "act" || step.op === "attempt") {
      const action = concrete(step.action, engine.observe(null), engine.decision());
      const before = JSON.stringify(engine.observe(null)) + engine.log(null).length;
      try {
        engine.act(step.player, action);
        if (step.op === "attempt") {
          return { step: where, expected: "отказ", actual: `принято ${JSON.stringify(action)}` };
        }
        last = null;
      } catch (e) {
        if (step.op === "act") {
          return { step: where, expected: `принято ${JSON.stringify(action)}`, actual: `отказ: ${e.message}` };
        }
        last = { rule: e.rule ?? null, unchanged: before === JSON.stringify(engine.observe(null)) + engine.log(null).length };
      }
    } else if (step.op === "rejected") {
      if (last?.rule !== step.rule || !last.unchanged) {
        return { step: where, expected: `отказ по правилу ${step.rule}, состояние не изменилось`,
          actual: last ? `отказ по правилу ${last.rule}${last.unchanged ? "" : ", состояние изменилось"}` : "отказа не было" };
      }
    } else if (step.op === "check") {
      const judge = engine.observe(null);
      const data = step.log ? engine.log(step.viewer) : engine.observe(step.viewer);
      let path;
      try { path = concrete(step.path, judge, null); } catch (e) {
        if (e instanceof MissingCard && step.exists === false) continue; // нет такой карты — нет и варианта
        return { step: where, expected: JSON.stringify(step.path), actual: e.message };
      }
      const found = at(data, path);
      const label = `${step.log ? "журнал" : "наблюдение"} ${step.viewer ?? "судьи"} ${JSON.stringify(step.path)}`;
      if ("exists" in step) {
        if ((found !== undefined) !== step.exists) {
          return { step: `${where}: ${label}`, expected: step.exists ? "есть" : "нет", actual: show(found) };
        }
      } else {
        const expected = concrete(step.expected, judge, null);
        if (!same(found, expected)) return { step: `${where}: ${label}`, expected: show(expected), actual: show(found) };
      }
    } else {
      return { step: where, expected: "шаг act, attempt, rejected или check", actual: `неизвестный шаг ${step.op}` };
    }
  }
  return null;
}

export function vectorFiles(target) {
  if (statSync(target).isFile()) return [target];
  return readdirSync(target).sort().flatMap((n) => {
    const p = join(target, n);
    if (statSync(p).isDirectory()) return vectorFiles(p);
    return n.endsWith(".json") && n !== "index.json" ? [p] : [];
  });
}

export async function main(argv, out = console.log) {
  if (argv.length < 2) {
    out("использование: node replay.mjs ДВИЖОК.mjs ПАПКА_ИЛИ_ФАЙЛ …");
    return 2;
  }
  let files;
  try { files = argv.slice(1).flatMap(vectorFiles); } catch (e) {
    out(`нет такого файла или папки векторов: ${e.path ?? e.message}`);
    return 2;
  }
  if (!files.length) {
    out(`векторов нет в ${argv.slice(1).join(", ")}: ничего не проверено (векторы пишет berserk-rules export ПАПКА)`);
    return 2;
  }
  const { createEngine } = await import(pathToFileURL(resolve(argv[0])).href);
  if (typeof createEngine !== "function") {
    out(`${argv[0]} не экспортирует функцию createEngine()`);
    return 2;
  }
  let failed = 0, total = 0;
  for (const file of files) {
    const vector = JSON.parse(readFileSync(file, "utf8"));
    total += 1;
    let failure;
    try { failure = replay(vector, createEngine()); } catch (e) {
      failure = { step: "движок", expected: "ответ", actual: `исключение: ${e?.message ?? e}` };
    }
    if (failure) {
      failed += 1;
      out(`✗ ${vector.id} ${vector.name} — ${failure.step}\n    ожидалось: ${failure.expected}\n    получено:  ${failure.actual}`);
    } else out(`✓ ${vector.id} ${vector.name}`);
  }
  out(`векторов ${total}: прошли ${total - failed}, не прошли ${failed}`);
  return failed ? 1 : 0;
}

// Запущен как программа (node replay.mjs …), а не импортирован: тот же файл на диске после разыменования
// ссылок. Через node_modules/.bin и npx запускается bin/berserk-vectors.mjs — он вызывает main() сам.
export function startedAsProgram(argv1 = process.argv[1], self = import.meta.url) {
  try { return realpathSync(argv1 ?? "") === realpathSync(fileURLToPath(self)); } catch { return false; }
}

if (startedAsProgram()) {
  process.exitCode = await main(process.argv.slice(2));
}
