/*
 * berserk-rules site: the «go to rule» box, rule and term results on the search page, the time
 * of the latest run. No remote requests; works from file:// (data come as <script> files).
 *
 * Data written by berserk_rules.sphinx_ext at build time:
 *   window.BERSERK_NUMBERS  rule number (and a source's own numbering, e.g. 315.1) -> "page#anchor"
 *   window.BERSERK_ENTRIES  [id, kind, title, page, anchor, place, text, title stems, text stems,
 *                            stems of the printed name]
 *                           (loaded on the search page only)
 *   window.BERSERK_RUN      {started, finished, finished_text, duration} of the latest run
 */
"use strict";

(() => {
  const root = () => document.documentElement.dataset.content_root || "";
  const NUMBER = /^\d{1,3}(?:\.\d+)*$/;

  const normalizeNumber = (value) =>
    value.trim().replace(/\s+/g, "").replace(/,/g, ".").replace(/\.+$/, "");

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
          if (message) message.textContent = `Правила ${normalizeNumber(value)} нет в своде.`;
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

  /** Rank the entries for a query: every significant word must occur (by stem), then titles,
   *  phrases and exact names count most. */
  const rankEntries = (query, entries, stemmer) => {
    const words = fold(query).match(WORD) || [];
    // eslint-disable-next-line no-undef -- `stopwords` is a global of Sphinx's language_data.js
    const stop = typeof stopwords !== "undefined" ? stopwords : new Set();
    const all = words.map((w) => stemmer.stemWord(w));
    let significant = words.filter((w) => !stop.has(w)).map((w) => stemmer.stemWord(w));
    if (!significant.length) significant = all;
    if (!significant.length) return { hits: [], stems: [] };
    const scored = [];
    for (const entry of entries) {
      const title = entry[7] ? entry[7].split(" ") : [];
      const text = entry[8] ? entry[8].split(" ") : [];
      const titleSet = new Set(title);
      const textSet = new Set(text);
      const found = significant.filter((s) => titleSet.has(s) || textSet.has(s));
      if (!found.length) continue;
      let score = found.length === significant.length ? 100 : 10 * found.length;
      for (const s of significant) {
        if (titleSet.has(s)) score += 12;
        score += Math.min(text.filter((t) => t === s).length, 3) * 2;
      }
      if (all.length > 1 && contains(text, all)) score += 30;
      if (all.length > 1 && contains(title, all)) score += 30;
      if (title.length && title.join(" ") === all.join(" ")) score += 60;
      if (entry[9] && entry[9] === all.join(" ")) score += 20; // the printed name exactly
      score += 4 / (1 + text.length / 40); // shorter entries first among equals
      scored.push([score, entry]);
    }
    scored.sort((a, b) => b[0] - a[0]);
    const complete = scored.filter(([score]) => score >= 100);
    return { hits: (complete.length ? complete : scored).slice(0, 20).map(([, e]) => e), stems: all };
  };

  const snippet = (text, stems, stemmer) => {
    const pieces = [];
    let first = -1;
    let last = 0;
    for (const match of text.matchAll(WORD)) {
      const hit = stems.includes(stemmer.stemWord(fold(match[0])));
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

  const setupSearchPage = () => {
    if (!document.getElementById("search-results")) return;
    // Read from disk (file://), the browser refuses Sphinx's fetch() of each page for a summary
    // and logs an error per hit: show the hits without page summaries there.
    // eslint-disable-next-line no-undef -- `DOCUMENTATION_OPTIONS` is a global of Sphinx
    if (window.location.protocol === "file:" && typeof DOCUMENTATION_OPTIONS !== "undefined") {
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
      window.location.replace(target);
      return;
    }
    if (!query.trim()) return;
    const script = document.createElement("script");
    script.src = `${root()}_static/berserk-entries.js`;
    script.onload = () => showEntries(query);
    document.body.appendChild(script);
  };

  const start = () => {
    fillRunTime();
    setupGoto();
    setupSearchPage();
  };
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start);
  else start();
})();
