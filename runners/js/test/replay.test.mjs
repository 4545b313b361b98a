// node --test test/ (npm test) — the runner against the package's example engine. Runs from the
// package alone (an unpacked tarball, node_modules/berserk-rules-vectors): nothing outside it is read,
// and every temporary folder is removed.
import { test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { mkdtempSync, writeFileSync, mkdirSync, rmSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, dirname } from "node:path";
import { fileURLToPath } from "node:url";
import { replay, at, same, main, outcome, startedAsProgram } from "../replay.mjs";
import { createEngine } from "../example/engine.mjs";

const PACKAGE = join(dirname(fileURLToPath(import.meta.url)), "..");
const ENGINE = join(PACKAGE, "example", "engine.mjs");

function scratch(t) { // a temporary folder, removed when the test ends
  const folder = mkdtempSync(join(tmpdir(), "berserk-vectors-"));
  t.after(() => rmSync(folder, { recursive: true, force: true }));
  return folder;
}

const vector = (checks) => ({
  id: "features/part-3/x.feature:1", name: "ход переходит", file: "features/part-3/x.feature", line: 1,
  rules: ["310.3"], terms: [], interpretations: [], tags: [], complete: true,
  position: { players: { "А": {}, "Б": { coins: { open: 0, closed: 2 } } }, turn: 3, start: "choice", active: "А" },
  steps: [
    { op: "act", player: "А", action: { type: "end_turn" } },
    { op: "attempt", player: "А", action: { type: "end_turn" } },
    { op: "rejected", rule: "306.1" },
    ...checks,
  ],
});

test("a vector the engine satisfies passes", () => {
  const v = vector([
    { op: "check", viewer: null, path: ["active"], expected: "Б" },
    { op: "check", viewer: "Б", path: ["players", "Б", "coins", "open"], expected: 3 },
    { op: "check", viewer: null, log: true, path: [{ event: "turn" }, "rule"], expected: "310.3" },
    { op: "check", viewer: "Б", path: ["decision", "options", { type: "attack" }], exists: false },
  ]);
  assert.equal(replay(v, createEngine()), null);
});

test("a wrong value fails with what was expected and what came", () => {
  const failure = replay(vector([{ op: "check", viewer: null, path: ["turn"], expected: 7 }]), createEngine());
  assert.equal(failure.expected, "7");
  assert.equal(failure.actual, "4");
  assert.match(failure.step, /шаг 4/);
});

test("a refusal by another rule fails", () => {
  const v = vector([]);
  v.steps[2] = { op: "rejected", rule: "401.7" };
  const failure = replay(v, createEngine());
  assert.match(failure.expected, /401\.7/);
  assert.match(failure.actual, /306\.1/);
});

test("paths: patterns, copies, values", () => {
  const data = { list: [{ n: "a", v: 1 }, { n: "b", v: 2 }, { n: "a", v: 3 }], words: ["x", "y"] };
  assert.equal(at(data, ["list", { n: "a", $copy: 2 }, "v"]), 3);
  assert.equal(at(data, ["list", { n: "a", $copy: -1 }, "v"]), 3);
  assert.equal(at(data, ["list", { n: "c" }]), undefined);
  assert.equal(at(data, ["words", { $value: "y" }]), "y");
  assert.ok(same({ a: 1, b: [1, 2] }, { b: [1, 2], a: 1 }));
  assert.ok(!same({ a: 1 }, { a: 1, b: 2 }));
});

test("the command exits 1 on a failing vector and prints expected and actual", async (t) => {
  const folder = scratch(t);
  mkdirSync(join(folder, "part-3"));
  writeFileSync(join(folder, "part-3", "1.json"), JSON.stringify(vector([])));
  writeFileSync(join(folder, "part-3", "2.json"),
    JSON.stringify({ ...vector([{ op: "check", viewer: null, path: ["turn"], expected: 9 }]), id: "f:2" }));
  writeFileSync(join(folder, "index.json"), "{}");
  const lines = [];
  const code = await main([ENGINE, folder], (line) => lines.push(line));
  assert.equal(code, 1);
  const text = lines.join("\n");
  assert.match(text, /✓ features\/part-3\/x\.feature:1/);
  assert.match(text, /✗ f:2 .*\n\s+ожидалось: 9\n\s+получено:\s+4/);
  assert.match(text, /векторов 2: прошли 1, не прошли 1/);
});

test("the command exits 0 when every vector passes, 2 without arguments or vectors", async (t) => {
  const folder = scratch(t);
  writeFileSync(join(folder, "1.json"), JSON.stringify(vector([])));
  assert.equal(await main([ENGINE, folder], () => {}), 0);
  assert.equal(await main([], () => {}), 2);
  const empty = join(folder, "empty");
  mkdirSync(empty);
  const lines = [];
  assert.equal(await main([ENGINE, empty], (line) => lines.push(line)), 2); // nothing checked: no success
  assert.match(lines.join("\n"), /ничего не проверено/);
  assert.equal(await main([ENGINE, join(folder, "nowhere")], () => {}), 2);
});

test("run through a symlink (node_modules/.bin) or by path, a failing vector exits 1", (t) => {
  const folder = scratch(t);
  writeFileSync(join(folder, "2.json"),
    JSON.stringify({ ...vector([{ op: "check", viewer: null, path: ["turn"], expected: 9 }]), id: "f:2" }));
  const links = join(folder, "bin");
  mkdirSync(links);
  symlinkSync(join(PACKAGE, "bin", "berserk-vectors.mjs"), join(links, "berserk-vectors"));
  symlinkSync(join(PACKAGE, "replay.mjs"), join(links, "replay"));
  for (const program of [join(links, "berserk-vectors"), join(links, "replay"), join(PACKAGE, "replay.mjs"),
    join(PACKAGE, "bin", "berserk-vectors.mjs")]) {
    const done = spawnSync(process.execPath, [program, ENGINE, folder], { encoding: "utf8" });
    assert.equal(done.status, 1, `${program}: ${done.stdout}${done.stderr}`);
    assert.match(done.stdout, /не прошли 1/);
  }
  assert.ok(startedAsProgram(join(links, "replay"), new URL("../replay.mjs", import.meta.url).href));
  assert.ok(!startedAsProgram(join(links, "berserk-vectors"), new URL("../replay.mjs", import.meta.url).href));
});

test("not applicable is kept apart from failed, by the engine's capabilities", () => {
  const engine = createEngine(); // parts [3], decisions choose_action, actions end_turn
  assert.equal(outcome(vector([]), engine).status, "passed");
  const part4 = { ...vector([]), needs: { parts: [4], rules: [], terms: [], decisions: [], actions: [] } };
  assert.match(outcome(part4, createEngine()).reason, /не заявил часть 4/);
  const asks = vector([{ op: "require", actions: ["attack", "pass"] }]);
  assert.deepEqual(outcome(asks, createEngine()).status, "not applicable");
  assert.equal(outcome(vector([{ op: "require", actions: ["end_turn", "pass"] }]), createEngine()).status, "passed");
  const sends = vector([{ op: "act", player: "Б", action: { type: "pass" } }]);
  assert.match(outcome(sends, createEngine()).reason, /действие pass/);
  const text = vector([]);
  text.position = { ...text.position, cards: { "Гном": { type: "существо", text: "Броня 1." } },
    players: { "А": { play: ["Гном"] }, "Б": {} } };
  assert.match(outcome(text, createEngine()).reason, /не поддерживает: текст карт/);
  const wrong = vector([{ op: "check", viewer: null, path: ["turn"], expected: 7 }]);
  assert.equal(outcome(wrong, createEngine()).status, "failed");
  assert.equal(outcome(part4, createEngine(), null).status, "passed"); // null: everything declared
});

test("a run where no vector applies is not green", async (t) => {
  const folder = scratch(t);
  const part4 = { ...vector([]), needs: { parts: [4], rules: [], terms: [], decisions: [], actions: [] } };
  writeFileSync(join(folder, "1.json"), JSON.stringify(part4));
  const lines = [];
  assert.equal(await main([ENGINE, folder], (line) => lines.push(line)), 1);
  const text = lines.join("\n");
  assert.match(text, /∅ features\/part-3\/x\.feature:1 .* — не применим: движок не заявил часть 4/);
  assert.match(text, /векторов 1: прошли 0, не прошли 0, не применимы 1/);
  assert.match(text, /НИ ОДИН ВЕКТОР НЕ ПРИМЕНИМ/);
  writeFileSync(join(folder, "2.json"), JSON.stringify({ ...vector([]), id: "f:2" }));
  assert.equal(await main([ENGINE, folder], () => {}), 0); // one passes, one does not apply: green
});
