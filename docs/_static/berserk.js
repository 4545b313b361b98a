/*
 * berserk-rules site: the «go to rule» box, rule and term results on the search page, the time
 * of the latest run. No remote requests; works from file:// (data come as <script> files).
 *
 * Data written by berserk_rules.sphinx_ext at build time:
 *   window.BERSERK_NUMBERS  rule number (and a source's own numbering, e.g. 315.1) -> "page#anchor"
 *   window.BERSERK_ENTRIES  [id, kind, title, page, anchor, place, text, title stems, text stems,
 *                            stems of the printed name]
 *   window.BERSERK_ROOTS    stem -> its root, where they differ (berserk_rules.site.search.root)
 *   window.BERSERK_LEMMAS   stem -> the infinitives of the verb forms it stems from (or the noun)
 *   window.BERSERK_FORMS    {p: paradigms ("suffix,suffix,вш*"), s: {stem: [[infinitive's suffix, paradigm]]}}
 *                           (both in berserk-entries.js, loaded by the search page for a word query;
 *                           a rule number goes straight to the rule without it)
 *   window.BERSERK_RUN      {started, finished, finished_text, duration} of the latest run
 */
"use strict";

(() => {
  const root = () => document.documentElement.dataset.content_root || "";
  const NUMBER = /^\d{1,3}(?:\.\d+)*$/;

  // the way judges cite: «п. 119.8», «пункт 402.1», «правило 303.2», «пп. 401.7» — the word goes
  const CITED = /^(?:пп?\.\s*|пункт[а-яё]*\s+|правил[а-яё]*\s+|rule\s+|§\s*)/iu;
  const normalizeNumber = (value) =>
    value.trim().replace(CITED, "").replace(/\s+/g, "").replace(/,/g, ".").replace(/\.+$/, "");

  /** The rules nearest to a number the rules do not have: the longest shared start, then the closest. */
  const nearestRules = (number, count = 3) => {
    const parts = number.split(".").map(Number);
    const scored = Object.keys(window.BERSERK_NUMBERS || {})
      .filter((key) => NUMBER.test(key))
      .map((key) => {
        const other = key.split(".").map(Number);
        let shared = 0;
        while (shared < parts.length && shared < other.length && parts[shared] === other[shared]) shared++;
        const here = shared < parts.length ? parts[shared] : 0;
        const there = shared < other.length ? other[shared] : 0;
        return { key, shared, distance: Math.abs(here - there), depth: other.length };
      });
    scored.sort((a, b) => b.shared - a.shared || a.distance - b.distance || a.depth - b.depth);
    return scored.slice(0, count).map((item) => item.key);
  };

  /** «Правила 402.9 нет в своде. Ближайшие: 402.1, 402.2, 402.3» with links (an element). */
  const missingNumber = (number, tag = "span") => {
    const note = document.createElement(tag);
    note.className = "berserk-missing-number";
    note.append(`Правила ${number} нет в своде.`);
    const nearest = nearestRules(number);
    if (nearest.length) {
      note.append(" Ближайшие: ");
      nearest.forEach((key, i) => {
        if (i) note.append(", ");
        const link = document.createElement("a");
        link.href = root() + window.BERSERK_NUMBERS[key];
        link.textContent = key;
        note.append(link);
      });
    }
    return note;
  };

  const numberTarget = (value) => {
    const numbers = window.BERSERK_NUMBERS || {};
    const number = normalizeNumber(value);
    return NUMBER.test(number) && numbers[number] ? root() + numbers[number] : null;
  };

  /* ---------------------------------------------------------------- the latest run's time */
  const fillRunTime = () => {
    const run = window.BERSERK_RUN || {};
    const parts = [];
    if (run.finished_text) parts.push(`, завершён ${run.finished_text}`);
    if (typeof run.duration === "number") parts.push(`, ${run.duration.toFixed(1)} с`);
    document.querySelectorAll(".berserk-run-time").forEach((el) => {
      el.textContent = parts.join("");
    });
  };

  /* ---------------------------------------------------------------- «go to rule» box */
  const setupGoto = () => {
    document.querySelectorAll("form.berserk-goto").forEach((form) => {
      const input = form.querySelector("input[name=n]");
      const message = form.querySelector(".berserk-goto-message");
      form.addEventListener("submit", (event) => {
        const value = input.value;
        const target = numberTarget(value);
        if (target) {
          event.preventDefault();
          window.location.href = target;
        } else if (NUMBER.test(normalizeNumber(value))) {
          event.preventDefault();
          if (message) message.replaceChildren(missingNumber(normalizeNumber(value)));
        }
        // anything else (a word) goes to the search page, as the form says
      });
    });
  };

  /* ---------------------------------------------------------------- search page */
  const fold = (text) => text.toLowerCase().replace(/ё/g, "е");
  const WORD = /\p{L}+/gu;

  const escapeHTML = (text) =>
    text.replace(/[&<>"']/g, (ch) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[ch]);

  const contains = (haystack, needle) => {
    if (!needle.length || needle.length > haystack.length) return false;
    outer: for (let i = 0; i + needle.length <= haystack.length; i++) {
      for (let j = 0; j < needle.length; j++) if (haystack[i + j] !== needle[j]) continue outer;
      return true;
    }
    return false;
  };

  const KIND_NAMES = { rule: "правило", heading: "раздел", term: "термин" };

  /* Roots: the stem without verbal and participle suffixes, so «пасовать» (пасова) finds «пасует»
   * (пас) and «закрытой» (закрыт) finds «Закрыть» (закр). The same function as
   * berserk_rules.site.search.root (the browser tests compare them on every stem of the index). */
  const ROOT_ENDINGS = [
    ["нут", "ующ", "ющ", "ащ", "ящ", "ущ", "ивш", "ывш", "вш", "нн", "ен", "ён", "ет", "ит", "ут", "ют",
     "ат", "ят", "ем", "им", "ш", "н/ая", "т/аыиуо", "л/аяеиы"],
    ["ова", "ева", "ыва", "ива", "ва", "ну"],
    ["а", "я", "ы", "и", "е", "о", "у"],
  ];
  const ROOT_MIN = 3;
  const rootOf = (stem) => {
    let current = stem;
    for (const endings of ROOT_ENDINGS) {
      for (const spec of endings) {
        const [ending, before = ""] = spec.split("/");
        const rest = current.length - ending.length;
        if (current.endsWith(ending) && rest >= ROOT_MIN && (!before || before.includes(current[rest - 1]))) {
          current = current.slice(0, rest);
          break;
        }
      }
    }
    return current;
  };

  /** One letter changed, missing, added, or two neighbours swapped (berserk_rules.site.search.one_edit). */
  const oneEdit = (a, b) => {
    if (a === b || Math.abs(a.length - b.length) > 1) return false;
    let start = 0;
    while (start < Math.min(a.length, b.length) && a[start] === b[start]) start++;
    if (a.length === b.length) {
      if (a.slice(start + 1) === b.slice(start + 1)) return true;
      return a[start] === b[start + 1] && a[start + 1] === b[start] && a.slice(start + 2) === b.slice(start + 2);
    }
    const [shorter, longer] = a.length < b.length ? [a, b] : [b, a];
    return shorter.slice(start) === longer.slice(start + 1);
  };
  const TYPO_MIN = 4; // a shorter word is not corrected: «пас» must not find «пай»

  /** stem -> root of every stem of the index. */
  const vocabulary = (entries) => {
    const roots = window.BERSERK_ROOTS || {};
    const vocab = new Map();
    for (const entry of entries)
      for (const field of [7, 8, 9])
        for (const s of entry[field] ? entry[field].split(" ") : []) if (!vocab.has(s)) vocab.set(s, roots[s] || s);
    return vocab;
  };

  /* Verb forms the rules never print («погибли», «спасовал», «вошёл»): window.BERSERK_FORMS holds
   * pymorphy3's paradigms (suffix lists) of the corpus's verbs and each verb's stem with its
   * infinitive (berserk_rules.site.lemmas.lemma_data); a form is a stem plus one of its paradigm's
   * suffixes. */
  // a participle's declension, written once as its stem and a mark (berserk_rules.site.lemmas.DECLENSIONS)
  const DECLENSIONS = {
    "*": ["ая", "его", "ее", "ей", "ем", "ему", "ею", "ие", "ий", "им", "ими", "их", "ую"],
    "+": ["ая", "ого", "ое", "ой", "ом", "ому", "ою", "ые", "ый", "ым", "ыми", "ых", "ую"],
  };
  let formsIndex = null;
  const paradigmSet = (text) => {
    const suffixes = new Set();
    for (const item of text.split(",")) {
      const endings = DECLENSIONS[item.slice(-1)];
      if (endings) for (const ending of endings) suffixes.add(item.slice(0, -1) + ending);
      else suffixes.add(item);
    }
    return suffixes;
  };
  const infinitivesOf = (word) => {
    const data = window.BERSERK_FORMS;
    if (!data) return [];
    if (!formsIndex) formsIndex = data.p.map(paradigmSet);
    const found = new Set();
    for (let cut = 0; cut <= word.length; cut++) {
      const stem = word.slice(0, cut);
      const candidates = data.s[stem];
      if (!candidates) continue;
      const suffix = word.slice(cut);
      for (const [ending, paradigm] of candidates) if (formsIndex[paradigm].has(suffix)) found.add(stem + ending);
    }
    return [...found];
  };

  /** The infinitives a query word is a form of, with the other verbs of the same action: the
   *  reflexive or plain verb (возродиться — возродить) and the pairs of docs/search-words.toml,
   *  [verbs] (вернуть — возвращать, спасовать — пасовать). */
  const actionsOf = (word, s) => {
    const lemmas = window.BERSERK_LEMMAS || {};
    const found = new Set([...(lemmas[s] || []), ...infinitivesOf(word)]);
    for (const verb of [...found]) found.add(/с[яь]$/.test(verb) ? verb.slice(0, -2) : `${verb}ся`); // возродить(ся)
    const verbs = (window.BERSERK_QUERY || {}).verbs || {};
    for (let round = 0; round < 2; round++)
      for (const [one, other] of Object.entries(verbs)) {
        if (found.has(one)) found.add(other);
        else if (found.has(other)) found.add(one);
      }
    return found;
  };

  /** The stems of the index a query word stands for, with a weight: the same stem 1, the same
   *  root or the same verb 0.8 (another form or aspect of the verb), one edit away 0.5 (a typo;
   *  only when nothing else matches). */
  const wordMatches = (word, stemmer, vocab) => {
    const s = stemmer.stemWord(word);
    const r = rootOf(s);
    const lemmas = window.BERSERK_LEMMAS || {}; // stem -> the verbs (or the noun) it is a form of
    const actions = actionsOf(word, s);
    const actionRoots = new Set([...actions].map((a) => rootOf(stemmer.stemWord(a))));
    const found = new Map();
    for (const [v, vr] of vocab) {
      if (v === s) found.set(v, 1);
      else if (vr === r || actionRoots.has(vr)) found.set(v, 0.8);
      else if (actions.size && (lemmas[v] || []).some((lemma) => actions.has(lemma))) found.set(v, 0.8);
    }
    if (!found.size && word.length >= TYPO_MIN)
      for (const [v, vr] of vocab)
        if (oneEdit(v, s) || (r.length >= TYPO_MIN - 1 && vr.length >= TYPO_MIN - 1 && oneEdit(vr, r))) found.set(v, 0.5);
    return found;
  };

  /** Rank the entries for a query: every significant word must occur (by stem, root or with one
   *  typo), then titles, phrases and exact names count most. */
  /** The query as the rulebook words it: English names and judges' words replaced by the glossary's
   *  (docs/search-words.toml), the words of a question that name no rule left out. */
  const rewriteQuery = (query) => {
    const data = window.BERSERK_QUERY || { question: [], english: {}, synonyms: {}, verbs: {} };
    let text = ` ${fold(query).replace(/[^\p{L}\d.]+/gu, " ")} `;
    const phrases = Object.keys(data.english).sort((a, b) => b.length - a.length);
    for (const phrase of phrases) text = text.split(` ${phrase} `).join(` ${data.english[phrase]} `);
    let words = text.trim().split(/\s+/).filter(Boolean).map((w) => data.synonyms[w] || w);
    const question = new Set(data.question);
    const content = words.filter((w) => !question.has(w));
    if (content.length && content.length < words.length) words = content;
    return words.join(" ");
  };

  const rankEntries = (asked, entries, stemmer) => {
    const query = rewriteQuery(asked);
    const words = fold(query).match(WORD) || [];
    // eslint-disable-next-line no-undef -- `stopwords` is a global of Sphinx's language_data.js
    const stop = typeof stopwords !== "undefined" ? stopwords : new Set();
    const vocab = vocabulary(entries);
    const all = words.map((w) => wordMatches(w, stemmer, vocab));
    let significant = all.filter((_, i) => !stop.has(words[i]));
    if (!significant.length) significant = all;
    const matched = new Set(all.flatMap((m) => [...m.keys()]));
    if (!significant.length) return { hits: [], stems: matched };
    const queryRoots = words.map((w) => rootOf(stemmer.stemWord(w))).join(" ");
    const rootsOf = (stems) => stems.map((s) => vocab.get(s) || s);
    const scored = [];
    for (const entry of entries) {
      const title = entry[7] ? entry[7].split(" ") : [];
      const text = entry[8] ? entry[8].split(" ") : [];
      const best = (m, list) => list.reduce((w, s) => Math.max(w, m.get(s) || 0), 0);
      const inTitle = significant.map((m) => best(m, title));
      const inText = significant.map((m) => best(m, text));
      const found = significant.filter((_, i) => inTitle[i] || inText[i]).length;
      if (!found) continue;
      let score = found === significant.length ? 100 : 10 * found;
      significant.forEach((m, i) => {
        score += 12 * inTitle[i];
        score += Math.min(text.filter((t) => m.has(t)).length, 3) * 2 * Math.max(inTitle[i], inText[i]);
      });
      const textRoots = rootsOf(text);
      const titleRoots = rootsOf(title);
      const phrase = queryRoots.split(" ");
      if (phrase.length > 1 && contains(textRoots, phrase)) score += 30;
      if (phrase.length > 1 && contains(titleRoots, phrase)) score += 30;
      if (titleRoots.length && titleRoots.join(" ") === queryRoots) score += 60;
      // the query names the entry in another form («закрытой карты» → «Закрыть (существо, карту)»)
      else if (title.length && title.every((s) => all.some((m) => m.has(s)))) score += 40;
      if (entry[9] && rootsOf(entry[9].split(" ")).join(" ") === queryRoots) score += 20; // the printed name
      score += 4 / (1 + text.length / 40); // shorter entries first among equals
      scored.push([score, entry]);
    }
    scored.sort((a, b) => b[0] - a[0]);
    const complete = scored.filter(([score]) => score >= 100);
    return { hits: (complete.length ? complete : scored).slice(0, 20).map(([, e]) => e), stems: matched };
  };

  const snippet = (text, stems, stemmer) => {
    const pieces = [];
    let first = -1;
    let last = 0;
    for (const match of text.matchAll(WORD)) {
      const hit = stems.has(stemmer.stemWord(fold(match[0])));
      if (!hit) continue;
      if (first < 0) first = match.index;
      pieces.push(escapeHTML(text.slice(last, match.index)), `<mark>${escapeHTML(match[0])}</mark>`);
      last = match.index + match[0].length;
    }
    pieces.push(escapeHTML(text.slice(last)));
    const html = pieces.join("");
    return { html, long: text.length > 400, first };
  };

  const showEntries = (query) => {
    const anchor = document.getElementById("search-results");
    const entries = window.BERSERK_ENTRIES;
    if (!anchor || !entries || typeof window.Stemmer === "undefined") return;
    const stemmer = new window.Stemmer();
    const { hits, stems } = rankEntries(query, entries, stemmer);
    const box = document.createElement("section");
    box.className = "berserk-search-entries";
    box.setAttribute("aria-label", "Правила и термины");
    const head = document.createElement("h2");
    head.textContent = "Правила и термины";
    box.appendChild(head);
    const status = document.createElement("p");
    status.className = "berserk-search-count";
    status.textContent = hits.length
      ? `Найдено правил и терминов: ${hits.length}${hits.length === 20 ? " (показаны первые)" : ""}.`
      : "В тексте правил и глоссария ничего не найдено.";
    box.appendChild(status);
    const list = document.createElement("ol");
    list.className = "berserk-search-hits";
    for (const entry of hits) {
      const [id, kind, title, page, anchorId, place, text] = entry;
      const item = document.createElement("li");
      item.className = `berserk-hit berserk-hit-${kind}`;
      item.dataset.entry = id;
      const link = document.createElement("a");
      link.href = `${root()}${page}#${anchorId}`;
      link.textContent = title;
      item.appendChild(link);
      const about = document.createElement("span");
      about.className = "berserk-hit-place";
      about.textContent = ` — ${KIND_NAMES[kind] || kind}${place ? ", " + place : ""}`;
      item.appendChild(about);
      const body = document.createElement("p");
      body.className = "berserk-hit-text";
      body.innerHTML = snippet(text, stems, stemmer).html;
      item.appendChild(body);
      list.appendChild(item);
    }
    box.appendChild(list);
    anchor.parentNode.insertBefore(box, anchor);
  };

  /* Sphinx's page search needs searchindex.js (≈600 КБ) and fetched every hit's page for a
   * summary (megabytes): it runs only when the reader asks, with titles only. */
  const setupPageSearch = (query) => {
    // eslint-disable-next-line no-undef -- `Search` is a global of Sphinx's searchtools.js
    if (typeof Search === "undefined") return;
    // eslint-disable-next-line no-undef
    const sphinx = Search;
    const perform = sphinx.performSearch;
    sphinx.performSearch = () => {}; // Sphinx's own start on load: wait for the reader
    const anchor = document.getElementById("search-results");
    if (!anchor || !query.trim()) return;
    const box = document.createElement("p");
    box.className = "berserk-pages-search";
    const button = document.createElement("button");
    button.type = "button";
    button.textContent = "Искать и на остальных страницах сайта";
    const about = document.createElement("span");
    about.textContent = " — сценарии, описание проекта, протокол (загрузит указатель страниц, около 600 КБ)";
    box.append(button, about);
    anchor.appendChild(box);
    button.addEventListener("click", () => {
      box.remove();
      sphinx.performSearch = perform;
      perform(query);
      if (!sphinx.hasIndex()) sphinx.loadIndex(`${root()}searchindex.js`);
    });
  };

  const setupSearchPage = () => {
    if (!document.getElementById("search-results")) return;
    // eslint-disable-next-line no-undef -- `DOCUMENTATION_OPTIONS` is a global of Sphinx
    if (typeof DOCUMENTATION_OPTIONS !== "undefined") {
      // no fetch() of every hit's page for a summary (megabytes; refused from file:// anyway)
      // eslint-disable-next-line no-undef
      DOCUMENTATION_OPTIONS.SHOW_SEARCH_SUMMARY = false;
    }
    // Sphinx looks up the snippet of an object hit with querySelector("#rule-401.7"), which
    // throws on the dot: escape the anchor.
    // eslint-disable-next-line no-undef -- `Search` is a global of Sphinx's searchtools.js
    if (typeof Search !== "undefined" && Search.htmlToText) {
      const original = Search.htmlToText;
      Search.htmlToText = (html, anchor) =>
        original(html, anchor && anchor.startsWith("#") ? "#" + CSS.escape(anchor.slice(1)) : anchor);
    }
    const params = new URLSearchParams(window.location.search);
    const query = params.get("q") || "";
    if (!query && params.get("n")) {
      // words typed into the «go to rule» box: search for them
      const words = params.get("n");
      window.location.replace(numberTarget(words) || `?q=${encodeURIComponent(words)}`);
      return;
    }
    const target = numberTarget(query);
    if (target) {
      window.location.replace(target); // a rule number: straight to the rule, no index loaded
      return;
    }
    const asked = normalizeNumber(query);
    if (NUMBER.test(asked) && /\d\.\d|^\S*\d\S*$/.test(query.trim().replace(CITED, ""))) {
      const results = document.getElementById("search-results");
      results.parentNode.insertBefore(missingNumber(asked, "p"), results);
    }
    setupPageSearch(query);
    if (!query.trim()) return;
    const script = document.createElement("script");
    script.src = `${root()}_static/berserk-entries.js`;
    script.onload = () => showEntries(query);
    document.body.appendChild(script);
  };

  /* ---------------------------------------------------------------- replay: the game step by step
   * A .berserk-stepper (berserk_rules.site.replay.stepper_html) is an ordered list of the steps, each
   * with its log entries and the board after it: readable as it is. Here it becomes a stepper:
   * buttons and ←/→, Home/End; the board after the current step on top; the current step (and so
   * its log entries) highlighted in the list. */
  const setupReplays = () => {
    document.querySelectorAll(".berserk-stepper").forEach((box) => {
      const steps = Array.from(box.querySelectorAll(".berserk-replay-step"));
      if (!steps.length || box.classList.contains("berserk-stepper-on")) return;
      box.classList.add("berserk-stepper-on");
      box.tabIndex = 0;
      const bar = document.createElement("div");
      bar.className = "berserk-stepper-bar";
      const status = document.createElement("p");
      status.className = "berserk-stepper-status";
      status.setAttribute("aria-live", "polite");
      const pane = document.createElement("div");
      pane.className = "berserk-stepper-pane";
      let current = 0;
      const button = (text, label, go) => {
        const b = document.createElement("button");
        b.type = "button";
        b.textContent = text;
        b.setAttribute("aria-label", label);
        b.title = label;
        b.addEventListener("click", () => show(go()));
        bar.appendChild(b);
        return b;
      };
      const first = button("Начало", "К началу (Home)", () => 0);
      const prev = button("←", "Предыдущий шаг (←)", () => current - 1);
      const next = button("→", "Следующий шаг (→)", () => current + 1);
      const last = button("Конец", "К последнему шагу (End)", () => steps.length - 1);
      bar.appendChild(status);
      const hint = box.querySelector(".berserk-stepper-hint");
      if (hint) hint.textContent = "Партия по шагам: кнопки или клавиши ←/→, Home/End; щелчок по шагу — к нему.";
      box.insertBefore(pane, box.querySelector(".berserk-replay-steps"));
      box.insertBefore(bar, pane);
      const show = (index) => {
        current = Math.max(0, Math.min(steps.length - 1, index));
        steps.forEach((step, i) => {
          step.classList.toggle("berserk-replay-current", i === current);
          if (i === current) step.setAttribute("aria-current", "step");
          else step.removeAttribute("aria-current");
        });
        const step = steps[current];
        const ref = step.dataset.board;
        const board = ref === undefined ? null : steps[Number(ref)].querySelector(".berserk-replay-board");
        if (board) pane.replaceChildren(board.cloneNode(true));
        else {
          const p = document.createElement("p");
          p.textContent = "Игра ещё не началась: шаги «Дано» описывают позицию (она — в следующем шаге).";
          pane.replaceChildren(p);
        }
        const title = step.querySelector(".berserk-replay-step-title strong");
        status.textContent = `Шаг ${current + 1} из ${steps.length}: ${title ? title.textContent : ""}`;
        first.disabled = prev.disabled = current === 0;
        next.disabled = last.disabled = current === steps.length - 1;
        const list = box.querySelector(".berserk-replay-steps");
        if (list && list.scrollHeight > list.clientHeight) {
          list.scrollTop = step.offsetTop - list.offsetTop - list.clientHeight / 3;
        }
      };
      const KEYS = { ArrowLeft: -1, ArrowRight: 1 };
      box.addEventListener("keydown", (event) => {
        if (event.altKey || event.ctrlKey || event.metaKey) return;
        let target = null;
        if (event.key in KEYS) target = current + KEYS[event.key];
        else if (event.key === "Home") target = 0;
        else if (event.key === "End") target = steps.length - 1;
        if (target === null) return;
        event.preventDefault();
        event.stopPropagation(); // the keys step the game here, not the pages (Sphinx's navigation keys)
        show(target);
      });
      steps.forEach((step, i) =>
        step.addEventListener("click", (event) => {
          if (!event.target.closest("a, summary, button")) show(i);
        }),
      );
      // a link to a step or to a log entry (#replay-17-step-3, #replay-17-log-5) opens the game there
      const linked = () => {
        const id = decodeURIComponent(window.location.hash.slice(1));
        const target = id && document.getElementById(id);
        const step = target && box.contains(target) ? target.closest(".berserk-replay-step") : null;
        if (!step) return false;
        const folded = box.closest("details");
        if (folded) folded.open = true;
        show(steps.indexOf(step));
        return true;
      };
      window.addEventListener("hashchange", linked);
      if (!linked()) {
        const start = steps.findIndex((step) => step.classList.contains("berserk-replay-start"));
        show(start < 0 ? 0 : start);
      }
    });
  };

  // for the browser tests: the root function next to its Python twin
  window.BERSERK_SEARCH = { root: rootOf, oneEdit, normalizeNumber, nearestRules, rewriteQuery, infinitivesOf };

  const start = () => {
    fillRunTime();
    setupGoto();
    setupSearchPage();
    setupReplays();
  };
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start);
  else start();
})();
