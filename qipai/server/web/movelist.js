// The move list and its navigation, one module for every board (and, later, the card tables).
//
//   import { createMoveList } from "/static/movelist.js";
//   const ml = createMoveList(host, {
//     t,                          // the page's t(key, params, fallback) (i18n.js)
//     title: "Moves",             // the heading (default: the catalogue's moves.title)
//     format: (entry, i) => ({ text, title, cls }) or a Node,   // how entry i reads
//     numbering: "pairs",         // "pairs" (1. red black), "each" (1 D4 2 Q16) or "none"
//     live: true,                 // a game in progress (End returns to it) or a replay
//     cellWidth: "6em",           // "each": the narrowest column (as many columns as fit)
//     setup: (entry) => bool,     // the game's opening setup (junqi's 布阵): the entries it
//                                 // holds at the start are one row "Setup", by seat, and the
//                                 // moves are numbered from the first real move
//     aside: (entry) => bool,     // an entry that is no move (go's dead-stone marking): listed
//                                 // in words without a number, and the numbers skip it
//     asideWhere: (entry) => text,   // the counter's words while such an entry is shown
//     fold: (entry) => bool,      // entries set aside that a run of makes one cell (go's marking
//     foldText: (entries) => text, // round: "Marked dead: D7, E5"), worded by foldText
//     group: (entry) => key,      // entries of one key in a run make one row (a card table's
//     groupHead: (entry) => text, // trick: its plays, each a step of its own), headed by
//     groupTitle: (entry) => text | Node | null,  // groupHead, a line groupTitle above it
//     groupClass: "ct-round" or (entry) => classes,   // the row's classes (its cells' looks)
//     onNavigate: (ply, atEnd) => {},   // show position `ply` (0 = the start)
//   });
//   ml.setMoves(entries);         // entries[i] is the move that leads to position i + 1
//   ml.setLive(false);            // the game is over: the list stays, "live" marks go
//   ml.go(ply) / ml.ply / ml.atEnd / ml.destroy()
//
// Position `ply` is the one after `ply` moves. The list follows the game while the viewer is
// at the end (a new move shows at once) and stays where the viewer went otherwise; End (or
// the last button, or a click on the last move) goes back. Keys ← → Home End work anywhere on
// the page except in a text field. A card table can pass `numbering: "none"`, `title: "Tricks"`
// and a `format` that returns a Node (a trick drawn as cards): every entry is then one
// clickable row. Entries need not be single actions: with one entry per trick, `ply` k means
// "after trick k" and the table's onNavigate maps it to its own positions.

import { icon } from "./icons.js";

function node(tag, cls, text) {
  const e = document.createElement(tag);
  if (cls) e.className = cls;
  if (text !== undefined) e.textContent = text;
  return e;
}

export function createMoveList(host, opts) {
  const t = opts.t || ((k, p, f) => f ?? k);
  const numbering = opts.numbering || "pairs";
  let entries = [], ply = 0, follow = true, live = opts.live !== false;

  const box = node("div", "ml");
  box.id = "movelist";
  const head = node("div", "ml-head");
  const title = node("span", "ml-title", opts.title || t("moves.title", null, "Moves"));
  const where = node("span", "ml-where");
  where.id = "ml-where";
  head.append(title, where);
  const list = node("ol", "ml-list ml-" + numbering);
  list.id = "ml-list";
  if (opts.cellWidth) list.style.setProperty("--ml-cell", opts.cellWidth);
  // `side(entry)` (0 or 1, go's Black and White): an "each" list in two columns, one a side,
  // whatever the width (three or more columns would mix the two colours in one)
  if (opts.side) list.classList.add("ml-sides");
  list.setAttribute("aria-label", opts.title || t("moves.title", null, "Moves"));
  const bar = node("div", "ml-bar");
  const button = (name, label, go) => {
    const b = node("button", "ml-btn");
    b.type = "button";
    b.dataset.nav = name;
    b.id = name;              // one move list a page: #first #prev #next #last
    b.title = label;
    b.setAttribute("aria-label", label);
    b.append(icon(name));
    b.onclick = go;
    bar.append(b);
    return b;
  };
  const btns = {
    first: button("first", t("first", null, "First"), () => go(0)),
    prev: button("prev", t("prev", null, "Back"), () => go(ply - 1)),
    next: button("next", t("next", null, "Next"), () => go(ply + 1)),
    last: button("last", t("last", null, "Last"), () => go(entries.length)),
  };
  const back = node("button", "ml-live primary", t("moves.backToLive", null, "Back to the game"));
  back.type = "button";
  back.id = "ml-back";
  back.onclick = () => go(entries.length);
  box.append(head, list, bar, back);
  host.replaceChildren(box);

  // `n`: the number the cell shows in an "each" list (null: none)
  function cell(entry, i, n = i + 1) {
    const li = node("li", "ml-move");
    li.dataset.ply = i + 1;
    li.dataset.seat = entry && entry.seat !== undefined ? entry.seat : "";
    li.tabIndex = -1;
    const f = opts.format ? opts.format(entry, i) : { text: String(entry.text ?? entry) };
    if (f instanceof Node) {
      li.classList.add("ml-words");                 // a step in words (a name, an act, tiles) wraps, never cut
      li.append(f);
    } else {
      if (numbering === "each" && n !== null) li.append(node("span", "ml-n", String(n)));
      li.append(node("span", "ml-t", f.text));
      if (f.title) li.title = f.title;
      if (f.cls) li.classList.add(...f.cls.split(" "));
    }
    li.onclick = () => go(i + 1);
    return li;
  }

  function render() {
    list.replaceChildren();
    // the opening setup, made by every seat at once, is no move: one row of its own, by seat
    let start = 0;
    while (opts.setup && start < entries.length && opts.setup(entries[start])) start++;
    if (start) {
      const row = node("li", "ml-row ml-setup");
      row.append(node("span", "ml-n", t("moves.setup", null, "Setup")));
      const seats = node("ol", "ml-pair");
      const order = [...entries.keys()].slice(0, start).sort((a, b) => (entries[a].seat ?? 0) - (entries[b].seat ?? 0));
      for (const i of order) {
        const c = cell(entries[i], i, null);
        // two seats: each under its own column, also while the other is still setting up
        if (numbering === "pairs" && entries[i].seat < 2) c.style.gridColumn = String(entries[i].seat + 1);
        seats.append(c);
      }
      row.append(seats);
      list.append(row);
    }
    if (numbering === "pairs") {
      // a row a move number: the first side's move, then the second's; an entry set aside
      // (gomoku's swap of colours) is a row of its own without a number, and the moves after it
      // keep their sides' columns
      let pair = null, k = 0;
      for (let i = start; i < entries.length; i++) {
        if (opts.aside && opts.aside(entries[i])) {
          const row = node("li", "ml-row ml-aside-row");
          row.append(node("span", "ml-n"), cell(entries[i], i, null));
          list.append(row);
          pair = null;
          continue;
        }
        if (k % 2 === 0 || !pair) {
          const row = node("li", "ml-row");
          row.append(node("span", "ml-n", `${Math.floor(k / 2) + 1}.`));
          pair = node("ol", "ml-pair");
          row.append(pair);
          list.append(row);
        }
        const c = cell(entries[i], i);
        c.style.gridColumn = String((k % 2) + 1);
        pair.append(c);
        if (k % 2 === 1) pair = null;
        k++;
      }
    } else if (opts.group) {
      // entries that are parts of one row (a trick's plays, a mahjong turn's steps): one row a
      // group, headed by groupHead (its number or name), each entry its own step in it
      let row = null, key;
      for (let i = start; i < entries.length; i++) {
        const k = opts.group(entries[i]);
        if (!row || k !== key) {
          const cls = typeof opts.groupClass === "function" ? opts.groupClass(entries[i]) : opts.groupClass;
          const li = node("li", "ml-row ml-group" + (cls ? " " + cls : ""));
          const title = opts.groupTitle ? opts.groupTitle(entries[i]) : null;
          if (title) {
            const t = title instanceof Node ? title : node("span", "", title);
            t.classList.add("ml-group-title");
            li.append(t);
          }
          li.append(node("span", "ml-n n", opts.groupHead ? opts.groupHead(entries[i]) : ""));
          row = node("ol", "ml-plays");
          li.append(row);
          list.append(li);
          key = k;
        }
        row.append(cell(entries[i], i, null));
      }
    } else {
      let n = 0;
      for (let i = start; i < entries.length; i++) {
        const e = entries[i];
        if (opts.fold && opts.fold(e)) {
          // a run of folded entries: one cell that stands for all of them (its last position)
          let j = i;
          while (j + 1 < entries.length && opts.fold(entries[j + 1])) j++;
          const c = cell(e, j, null);
          c.dataset.first = i + 1;
          c.querySelector(".ml-t").textContent = opts.foldText(entries.slice(i, j + 1));
          list.append(c);
          i = j;
          continue;
        }
        const aside = opts.aside && opts.aside(e);
        const c = cell(e, i, aside ? null : ++n);
        if (opts.side && !aside) c.style.gridColumn = String(opts.side(e) + 1);
        list.append(c);
      }
    }
    if (!entries.length) list.append(node("li", "ml-empty muted", t("moves.none", null, "No moves yet")));
    paint();
  }

  function paint() {
    const n = entries.length;
    for (const li of list.querySelectorAll(".ml-move")) {
      const on = li.dataset.first ? ply >= +li.dataset.first && ply <= +li.dataset.ply : +li.dataset.ply === ply;
      li.classList.toggle("current", on);
      if (on) li.setAttribute("aria-current", "step"); else li.removeAttribute("aria-current");
    }
    // a step clicked keeps the focus (its ring): it follows the step shown as the keys move it
    const focused = document.activeElement;
    if (focused && focused.classList && focused.classList.contains("ml-move") && list.contains(focused)) {
      const cur = list.querySelector(".ml-move.current");
      if (cur && cur !== focused) cur.focus({ preventScroll: true });
      else if (!cur) focused.blur();
    }
    keepInView();
    later();
    btns.first.disabled = btns.prev.disabled = ply <= 0;
    btns.next.disabled = btns.last.disabled = ply >= n;
    // the counter counts moves, as the board's header does: go's dead-stone marking steps are
    // listed (without a number) but are no moves
    const shown = counted(ply), total = counted(n);
    const cur = ply > 0 ? entries[ply - 1] : null;
    // an entry set aside that has words of its own for the counter (a card game's bidding row:
    // "叫分", its tricks counted without it)
    const label = cur && opts.asideWhere && opts.aside(cur) ? opts.asideWhere(cur) : null;
    where.textContent = label || t("moves.where", { ply: shown, total }, `${shown} / ${total}`);
    box.dataset.ply = ply;
    box.dataset.total = n;
    box.classList.toggle("browsing", live && ply < n);
    back.hidden = !(live && ply < n);
    back.title = back.hidden ? "" : t("moves.browsing", { ply, total: n }, `${ply} / ${n}`);
  }

  // the moves among the first `k` entries (the steps set aside, without a number, not counted)
  const counted = (k) => (opts.aside ? entries.slice(0, k).filter((e) => !opts.aside(e)).length : k);

  // keep the current move in view inside the list (never by scrolling the page), its whole row
  // inside the list's visible box (its scroll padding kept clear), also when the list is
  // resized, moved, shown again or its rows change size (a font that arrives late), and once
  // more after the page has laid out what came with the move (the board, the chat)
  function keepInView() {
    const cur = list.querySelector(".ml-move.current");
    if (!cur) { if (ply === 0) list.scrollTop = 0; return; }
    const row = cur.closest(".ml-row") || cur;
    if (watch && watched !== row) { if (watched) watch.unobserve(watched); watch.observe(row); watched = row; }
    const lr = list.getBoundingClientRect(), cr = row.getBoundingClientRect();
    if (!lr.height) return;                        // not laid out (hidden): done when it shows
    const cs = getComputedStyle(list);
    const top = lr.top + list.clientTop + (parseFloat(cs.scrollPaddingTop) || 0);
    const bottom = lr.top + list.clientTop + list.clientHeight - (parseFloat(cs.scrollPaddingBottom) || 0);
    if (cr.top < top) list.scrollTop -= top - cr.top;
    else if (cr.bottom > bottom) list.scrollTop += Math.min(cr.bottom - bottom, cr.top - top);
  }
  let frame = 0, watched = null;
  const later = () => {
    if (frame || typeof requestAnimationFrame !== "function") return;
    frame = requestAnimationFrame(() => { frame = 0; keepInView(); });
  };
  const watch = typeof ResizeObserver === "function" ? new ResizeObserver(later) : null;
  if (watch) watch.observe(list);
  const seen = typeof IntersectionObserver === "function" ? new IntersectionObserver(later) : null;
  if (seen) seen.observe(list);
  if (document.fonts && document.fonts.ready) document.fonts.ready.then(later);
  // a window resized (also for a moment, as by a whole-page capture, after which Chromium puts
  // the list's scroll back at its top without a scroll event)
  addEventListener("resize", later);

  function go(k) {
    const n = entries.length;
    k = Math.max(0, Math.min(n, k));
    const changed = k !== ply || follow !== (k === n);
    ply = k;
    follow = k === n;
    paint();
    if (changed && opts.onNavigate) opts.onNavigate(ply, follow);
  }

  function onKey(e) {
    if (e.defaultPrevented || e.altKey || e.ctrlKey || e.metaKey) return;
    const tag = (e.target && e.target.tagName) || "";
    if (/^(INPUT|TEXTAREA|SELECT)$/.test(tag) || (e.target && e.target.isContentEditable)) return;
    const k = { ArrowLeft: () => go(ply - 1), ArrowRight: () => go(ply + 1), Home: () => go(0), End: () => go(entries.length) }[e.key];
    if (!k) return;
    e.preventDefault();
    k();
  }
  document.addEventListener("keydown", onKey);

  return {
    /** Replace the list; while following, the current position moves to the new end. */
    setMoves(next) {
      const grew = next.length !== entries.length;
      entries = next.slice();
      if (follow || ply > entries.length) ply = entries.length;
      if (grew || !list.childElementCount) render(); else paint();
    },
    setLive(v) { live = !!v; paint(); },
    go,
    get ply() { return ply; },
    get atEnd() { return follow; },
    get length() { return entries.length; },
    destroy() { document.removeEventListener("keydown", onKey); if (watch) watch.disconnect(); if (seen) seen.disconnect(); removeEventListener("resize", later); box.remove(); },
  };
}
