#!/usr/bin/env node
// Прогон тестовых векторов berserk-rules (berserk-rules export) на движке на JavaScript.
//   node replay.mjs ДВИЖОК.mjs ПАПКА_ВЕКТОРОВ [ФАЙЛ.json …]
//   npx berserk-vectors ДВИЖОК.mjs ПАПКА_ВЕКТОРОВ      (пакет berserk-rules-vectors в зависимостях проекта)
// ДВИЖОК.mjs экспортирует createEngine(): объект с методами start(position), decision(), act(player,
// action) (недопустимое действие — исключение с полем rule), observe(viewer), log(viewer) и полем
// capabilities — что движок поддерживает, как в handshake протокола (нет поля или ключа — всё). Чего
// движок не умеет, он сообщает исключением с полем kind: "unsupported".
// Печатает строку на вектор: ✓ прошёл, ✗ не прошёл (ожидалось и получено), ∅ не применим (причина:
// вектор вне заявленных возможностей — как сценарий в berserk-rules check). Код выхода 1, если хоть один
// не прошёл или не применим ни один; 2 — неверные аргументы, нет такой папки или в ней нет ни одного
// вектора (ничего не проверено — не успех).
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
export class NotApplicable extends Error {} // вектор вне возможностей движка: не прошёл и не упал

// --- возможности движка (capabilities): те же правила, что у berserk-rules check -------------------

const shown = (values) => [...values].map(String).sort().join(", ");
const unsupported = (e) => e?.kind === "unsupported";

export function covered(rule, declared) { // «303» покрывает «303.1» и «303.1.2»
  const parts = rule.split(".");
  return parts.some((_, n) => declared.includes(parts.slice(0, n + 1).join(".")));
}

export function vectorReason(vector, caps) { // null — применим; по частям, правилам и терминам вектора
  const needs = vector.needs ?? {};
  if (caps?.parts) {
    const missing = (needs.parts ?? []).filter((p) => !caps.parts.includes(p));
    if (missing.length) return `движок не заявил часть ${shown(missing)} (заявлены: ${shown(caps.parts) || "никакие"})`;
  }
  if (caps?.rules) {
    const outside = (vector.rules ?? []).filter((r) => !covered(r, caps.rules));
    if (outside.length) return `движок не заявил правило ${shown(outside)}`;
  }
  if (caps?.terms) {
    const outside = (vector.terms ?? []).filter((t) => !caps.terms.includes(t));
    if (outside.length) return `движок не заявил термин ${shown(outside)}`;
  }
  return null;
}

export function requireReason(caps, step) { // шаг require: хоть один из названных видов заявлен
  for (const [key, what] of [["decisions", "решение вида"], ["actions", "действие"]]) {
    const wanted = step[key] ?? [];
    if (caps?.[key] && wanted.length && !wanted.some((w) => caps[key].includes(w))) {
      return `шаг говорит про ${what} ${wanted.join(" или ")}, а движок его не заявил (заявлены: ${shown(caps[key])})`;
    }
  }
  return null;
}

export function actionReason(caps, action) {
  if (caps?.actions && typeof action?.type === "string" && !caps.actions.includes(action.type)) {
    return `шаг отправляет действие ${action.type}, а движок его не заявил (заявлены: ${shown(caps.actions)})`;
  }
  return null;
}

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

// Итог вектора: {status: "passed"} | {status: "failed", failure} | {status: "not applicable", reason}.
// caps — возможности движка (по умолчанию его поле capabilities; null — всё).
export function outcome(vector, engine, caps = engine.capabilities ?? null) {
  const reason = vectorReason(vector, caps);
  if (reason) return { status: "not applicable", reason };
  try {
    const failure = replay(vector, engine, caps);
    return failure ? { status: "failed", failure } : { status: "passed" };
  } catch (e) {
    if (e instanceof NotApplicable) return { status: "not applicable", reason: e.message };
    if (unsupported(e)) return { status: "not applicable", reason: `движок этого не поддерживает: ${e.message}` };
    return { status: "failed", failure: { step: "движок", expected: "ответ", actual: `исключение: ${e?.message ?? e}` } };
  }
}

// null — вектор прошёл; иначе {step, expected, actual}. Вне возможностей caps — исключение NotApplicable;
// исключение движка с kind "unsupported" выходит наружу как есть (outcome() считает его «не применим»).
export function replay(vector, engine, caps = null) {
  engine.start(structuredClone(vector.position));
  let last = null;
  for (const [index, step] of vector.steps.entries()) {
    const where = `шаг ${index + 1} (${step.op})`;
    if (step.op === "require") {
      const reason = requireReason(caps, step);
      if (reason) throw new NotApplicable(reason);
    } else if (step.op === "act" || step.op === "attempt") {
      const undeclared = actionReason(caps, step.action);
      if (undeclared) throw new NotApplicable(undeclared);
      const action = concrete(step.action, engine.observe(null), engine.decision());
      const before = JSON.stringify(engine.observe(null)) + engine.log(null).length;
      try {
        engine.act(step.player, action);
        if (step.op === "attempt") {
          return { step: where, expected: "отказ", actual: `принято ${JSON.stringify(action)}` };
        }
        last = null;
      } catch (e) {
        if (unsupported(e)) throw e;
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
      return { step: where, expected: "шаг act, attempt, rejected, check или require", actual: `неизвестный шаг ${step.op}` };
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
  const counts = { passed: 0, failed: 0, "not applicable": 0 };
  for (const file of files) {
    const vector = JSON.parse(readFileSync(file, "utf8"));
    let result;
    try { result = outcome(vector, createEngine()); } catch (e) { // createEngine() сам упал
      result = { status: "failed", failure: { step: "движок", expected: "ответ", actual: `исключение: ${e?.message ?? e}` } };
    }
    counts[result.status] += 1;
    if (result.status === "failed") {
      const f = result.failure;
      out(`✗ ${vector.id} ${vector.name} — ${f.step}\n    ожидалось: ${f.expected}\n    получено:  ${f.actual}`);
    } else if (result.status === "not applicable") out(`∅ ${vector.id} ${vector.name} — не применим: ${result.reason}`);
    else out(`✓ ${vector.id} ${vector.name}`);
  }
  const total = files.length;
  out(`векторов ${total}: прошли ${counts.passed}, не прошли ${counts.failed}, не применимы ${counts["not applicable"]}`);
  if (counts.failed) return 1;
  if (!counts.passed) {
    out("НИ ОДИН ВЕКТОР НЕ ПРИМЕНИМ К ДВИЖКУ: ничего не проверено");
    return 1;
  }
  return 0;
}

// Запущен как программа (node replay.mjs …), а не импортирован: тот же файл на диске после разыменования
// ссылок. Через node_modules/.bin и npx запускается bin/berserk-vectors.mjs — он вызывает main() сам.
export function startedAsProgram(argv1 = process.argv[1], self = import.meta.url) {
  try { return realpathSync(argv1 ?? "") === realpathSync(fileURLToPath(self)); } catch { return false; }
}

if (startedAsProgram()) {
  process.exitCode = await main(process.argv.slice(2));
}
