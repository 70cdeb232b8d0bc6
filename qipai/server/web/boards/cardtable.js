// Shared card table for the climbing and trick games (wakeng, fouafour, baohuang, shengji): your
// hand sorted and drawn as cards, click cards to select them and play them (the action text is
// built in the game's notation from the selected cards), buttons for the non-card actions the
// server offers (pass, bids, declarations, accept / decline ...), every seat's last play and card
// count with its role marks, the game's piles (pit, kitty, package, trick ...) and facts (bid,
// trump, level, points ...). Each game's board (boards/<game id>.js) is a small configuration.
//
// Cards carry data-card="<card id>" (5H0, TS, LJ0, BJ ...) and, in the hand, data-key (the id and
// its copy number, so identical faces of several packs stay apart). Buttons carry data-action:
// "play", "hint", "clear", or the exact action text they send.
//
// Every action the board sends is either one the server listed for this seat, or (when the view
// only summarises a long set: view.legal = {kind, count}) the selected cards in the game's
// notation; the referee decides, and a refusal is shown with its reason.

const SUIT = { S: "♠", H: "♥", C: "♣", D: "♦" };
const RED = new Set(["H", "D"]);

const L = {
  zh: {
    you: "你", cards: "张", play: "出牌", pass: "不出", hint: "提示", clear: "重选", autopass: "自动过",
    select: (n) => `请选${n}张牌`, selected: (n) => `已选${n}张`, last: "上一手", out: "出完",
    place: (n) => `第${n}名`, to_beat: "要压的牌", waiting: "等待",
  },
  en: {
    you: "You", cards: "cards", play: "Play", pass: "Pass", hint: "Hint", clear: "Clear", autopass: "Auto-pass",
    select: (n) => `Select ${n} cards`, selected: (n) => `${n} selected`, last: "Last", out: "out",
    place: (n) => `place ${n}`, to_beat: "To beat", waiting: "waiting",
  },
};

export const el = (tag, cls, ...kids) => {
  const e = document.createElement(tag);
  if (cls) e.className = cls;
  for (const k of kids.flat()) if (k !== null && k !== undefined && k !== false) e.append(k instanceof Node ? k : String(k));
  return e;
};

/** The rank letter of a card id or face (5H0 → 5, TS → T, LJ0 → L, BJ → B). */
export const rankOf = (id) => id[0];
/** The suit letter (S H C D), or "" for a joker. */
export const suitOf = (id) => (id[0] === "L" || id[0] === "B" ? "" : id[1]);

/** Card ids sorted by a rank order string (lowest first), then by id. */
export function sortByRank(ids, order) {
  return [...ids].sort((a, b) => order.indexOf(rankOf(a)) - order.indexOf(rankOf(b)) || a.localeCompare(b));
}

/** A card's face for text: ♥10, ♠A, 小王 / LJ. */
export function faceText(id, lang) {
  const r = rankOf(id);
  if (r === "L") return lang === "zh" ? "小王" : "LJ";
  if (r === "B") return lang === "zh" ? "大王" : "BJ";
  return (SUIT[id[1]] || id[1]) + (r === "T" ? "10" : r);
}

/** A rank string (9TJ, 44A, LB) for text: 10 for T, jokers named. */
export function ranksText(s, lang) {
  return s.replace(/T/g, "10").replace(/L/g, lang === "zh" ? "小王" : "LJ ").replace(/B/g, lang === "zh" ? "大王" : "BJ ").trim();
}

/** One card: rank over suit; jokers by name. */
export function cardEl(id, lang, small) {
  const c = el("span", "c" + (small ? " small" : ""));
  const r = rankOf(id);
  c.dataset.card = id;
  if (r === "L" || r === "B") {
    c.classList.add("joker");
    c.append(el("b", "", lang === "zh" ? (r === "B" ? "大" : "小") : "JK"), el("i", "", lang === "zh" ? "王" : (r === "B" ? "big" : "small")));
    if (r === "B") c.classList.add("red");
  } else {
    const s = id[1];
    c.append(el("b", "", r === "T" ? "10" : r), el("i", "", SUIT[s] || s));
    if (RED.has(s)) c.classList.add("red");
  }
  c.title = faceText(id, lang);
  return c;
}

export function cardsEl(ids, lang, cls = "", small = true) {
  const d = el("div", "cards" + (cls ? " " + cls : ""));
  for (const id of ids || []) d.append(cardEl(id, lang, small));
  return d;
}

const sortedChars = (s) => [...s].sort().join("");
const PLAY_BODY = /^(?:(cha|gou|play) )?([2-9TJQKALB]+)$/;

/** The listed action that plays exactly the ranks of `ids` (a rank string like "99", "cha 77",
 * "gou 7", "44B"), compared as multisets of ranks; null when none does. */
export function matchRanks(ids, legal) {
  if (!ids.length) return null;
  const want = sortedChars(ids.map(rankOf).join(""));
  for (const a of legal) {
    const m = PLAY_BODY.exec(a);
    if (m && sortedChars(m[2]) === want) return a;
  }
  return null;
}

/** The rank string of a listed card play, or null for a non-card action (pass, bid 2 ...). */
export function playRanks(a) {
  const m = PLAY_BODY.exec(a);
  return m ? m[2] : null;
}

/**
 * Mount a card table. `cfg` (all optional except seats):
 *  seats: number of seats;  cls: extra class of the box (the game id);
 *  order: rank order, lowest first ("456789TJQKA23"); null keeps the view's hand order;
 *  strings: {zh: {...}, en: {...}} the game's own labels (merged over the shared ones);
 *  legal(msg) → list of action texts, or a summary {kind, count, actions};
 *  compose(ids, legal, msg) → the action text that plays the selected cards, or null;
 *  need(msg) → {count, action: "bury"} when the view asks for exactly `count` selected cards
 *    sent with the named button, else null;
 *  label(action, S, lang, msg) → a button label for a non-card action;
 *  isCardAction(action) → true for actions the Play button covers (hidden as buttons);
 *  badges(view, seat, S, lang) → [text, class] marks for a seat (roles, team, place);
 *  last(view, seat, lang, S) → {cards: [...ids]} or {text} or null: the seat's last play
 *    (default: its latest entry of view.plays, see lastFromPlays);
 *  top(view) → the seat whose play is to beat (marked; default view.top.seat), or null;
 *  info(view, S, lang, msg) → [[key, label, value]] facts for the info bar;
 *  piles(view, S, lang, msg) → [[key, label, ids]] card rows (pit, kitty, trick ...);
 *  prompt(msg, S, lang) → a line of text shown above the actions (what to select);
 *  autoPass(msg, legal) → true when the only answer is a pass the board may send by itself.
 */
export function mountCardTable(root, ctx, cfg) {
  const lang = ctx.lang === "zh" ? "zh" : "en";
  const S = { ...L[lang], ...((cfg.strings || {})[lang] || {}) };
  const n = cfg.seats;
  const box = el("div", "ct" + (cfg.cls ? " ct-" + cfg.cls : ""));
  root.replaceChildren(box);
  let msg = null, hintIndex = -1, handSig = "";
  const selected = new Set();           // keys "id#copy"
  const autoKey = `ct-autopass-${cfg.cls || "cards"}`;
  let autoPass = localStorage.getItem(autoKey) !== "0";
  let passedTurn = null, passTimer = null;

  const name = (s) => `${s} ${(msg.names && msg.names[s]) || ""}`.trim();

  function handEntries(v) {
    const ids = v.hand || [];
    const sorted = cfg.order ? sortByRank(ids, cfg.order) : [...ids];
    const seen = {};
    return sorted.map((id) => { seen[id] = (seen[id] || 0) + 1; return { id, key: `${id}#${seen[id]}` }; });
  }

  function legalOf() {
    if (!msg || msg.replay || msg.result || msg.seat === null || msg.seat === undefined) return [];
    if (!(msg.to_act || []).includes(msg.seat)) return [];
    return cfg.legal ? cfg.legal(msg) : (msg.legal || []);
  }

  function seatBox(v, s, me) {
    const d = el("div", "pl" + ((msg.to_act || []).includes(s) && !msg.result ? " act" : "") + (s === me ? " me" : ""));
    d.dataset.seatbox = s;
    const head = el("div", "head", el("span", "nm", s === me ? `${name(s)} (${S.you})` : name(s)));
    for (const [text, cls] of cfg.badges ? cfg.badges(v, s, S, lang) : []) head.append(el("span", "badge " + (cls || ""), text));
    if (v.counts) head.append(el("span", "cnt", `${v.counts[s]} ${S.cards}`));
    d.append(head);
    const lp = (cfg.last || lastFromPlays)(v, s, lang, S);
    const top = cfg.top ? cfg.top(v) : v.top ? v.top.seat : null;   // whose play is to beat
    const last = el("div", "lastplay" + (top === s ? " top" : ""));
    last.dataset.lastplay = s;
    if (lp && lp.cards && lp.cards.length) last.append(cardsEl(lp.cards, lang, "inline"));
    else if (lp && lp.text) last.append(el("span", "txt", lp.text));
    d.append(last);
    if (msg.views && msg.views[s] && msg.views[s].hand && s !== me) {
      const ids = cfg.order ? sortByRank(msg.views[s].hand, cfg.order) : msg.views[s].hand;
      d.append(cardsEl(ids, lang, "open"));
    }
    return d;
  }

  function send(action) {
    clearTimeout(passTimer);
    selected.clear();
    hintIndex = -1;
    ctx.send(action);
    render();
  }

  function render() {
    const v = msg.view;
    const me = msg.seat === null || msg.seat === undefined ? null : msg.seat;
    box.replaceChildren();
    box.dataset.seq = msg.seq;
    if (v.phase) box.dataset.phase = v.phase;

    const others = el("div", "others");
    const order = me === null ? [...Array(n).keys()] : [...Array(n - 1).keys()].map((i) => (me + 1 + i) % n);
    for (const s of order) others.append(seatBox(v, s, me));
    box.append(others);

    const info = el("div", "info");
    for (const [key, label, value] of cfg.info ? cfg.info(v, S, lang, msg) : []) {
      if (value === null || value === undefined || value === "") continue;
      const i = el("span", "", el("em", "", label + ": "), String(value));
      i.dataset.info = key;
      info.append(i);
    }
    box.append(info);
    for (const [key, label, ids] of cfg.piles ? cfg.piles(v, S, lang, msg) : []) {
      if (!ids || !ids.length) continue;
      const row = el("div", "pile", el("span", "lbl", label + ":"), cardsEl(ids, lang, "inline"));
      row.dataset.pile = key;
      box.append(row);
    }
    if (me === null) return;

    const mine = seatBox(v, me, me);
    const entries = handEntries(v);
    const hand = el("div", "cards hand" + (entries.length > 20 ? " dense" : ""));
    hand.id = "hand";
    const legal = legalOf();
    const acting = Array.isArray(legal) ? legal.length > 0 : !!legal;
    for (const { id, key } of entries) {
      const c = cardEl(id, lang, false);
      c.dataset.key = key;
      if (selected.has(key)) c.classList.add("sel");
      c.onclick = () => { if (selected.has(key)) selected.delete(key); else selected.add(key); render(); };
      hand.append(c);
    }
    mine.append(hand);
    box.append(mine);

    const ids = entries.filter((e) => selected.has(e.key)).map((e) => e.id);
    const prompt = cfg.prompt ? cfg.prompt(msg, S, lang) : null;
    const need = acting && cfg.need ? cfg.need(msg) : null;
    const line = el("div", "prompt");
    line.id = "prompt";
    if (prompt) line.append(prompt + " ");
    if (need) line.append(S.select(need.count) + " · ");
    if (ids.length) line.append(S.selected(ids.length));
    box.append(line);

    const bar = el("div", "row actions");
    bar.id = "actions";
    const button = (label, action, cls, onclick, disabled) => {
      const b = el("button", cls || "", label);
      b.dataset.action = action;
      b.disabled = !!disabled || !acting;
      b.onclick = onclick || (() => send(action));
      bar.append(b);
      return b;
    };
    const list = Array.isArray(legal) ? legal : (legal.actions || []);
    const cardAction = cfg.isCardAction || ((a) => playRanks(a) !== null);
    if (need) {
      button(cfg.label ? cfg.label(need.action, S, lang, msg) : need.action, need.action, "primary",
        () => send(`${need.action} ${ids.join(" ")}`), ids.length !== need.count);
    } else if (acting && (list.some(cardAction) || (!Array.isArray(legal) && !legal.actions))) {
      const text = cfg.compose ? cfg.compose(ids, legal, msg) : matchRanks(ids, list);
      button(S.play, "play", "primary", () => send(text), !text);
      const plays = list.filter(cardAction);
      if (plays.length) {
        button(S.hint, "hint", "", () => {
          hintIndex = (hintIndex + 1) % plays.length;
          selectRanks(playRanks(plays[hintIndex]) || "", entries);
          render();
        });
      }
    }
    for (const a of list) {
      if (cardAction(a)) continue;
      button(cfg.label ? cfg.label(a, S, lang, msg) : a, a, a === "pass" ? "" : "opt");
    }
    if (selected.size) {
      const c = el("button", "", S.clear);
      c.dataset.action = "clear";
      c.onclick = () => { selected.clear(); render(); };
      bar.append(c);
    }
    if (cfg.autoPass) {
      const auto = el("label", "auto");
      const cb = el("input");
      cb.type = "checkbox";
      cb.id = "autopass";
      cb.checked = autoPass;
      cb.onchange = () => { autoPass = cb.checked; if (!autoPass) clearTimeout(passTimer); localStorage.setItem(autoKey, autoPass ? "1" : "0"); };
      auto.append(cb, " " + S.autopass);
      bar.append(auto);
      if (acting && autoPass && msg.turn !== passedTurn && cfg.autoPass(msg, list)) {
        // the same pause whether or not this seat could have answered, unless only bots watch
        passedTurn = msg.turn;
        const others = (msg.names || []).filter((_, s) => s !== me);
        const allBots = others.length > 0 && others.every((x) => String(x).startsWith("bot:"));
        // other seats answering the same window move seq on, not this seat's turn: the pass
        // is sent with the current seq and this turn
        const turn = msg.turn;
        passTimer = setTimeout(() => { if (msg.turn === turn && !msg.result) send("pass"); }, allBots ? 0 : 400 + Math.random() * 800);
      }
    }
    box.append(bar);
  }

  // select hand cards with the ranks of `text` (lowest copies first)
  function selectRanks(text, entries) {
    selected.clear();
    const free = [...entries];
    for (const r of text) {
      const i = free.findIndex((e) => rankOf(e.id) === r);
      if (i >= 0) selected.add(free.splice(i, 1)[0].key);
    }
  }

  return {
    update(m) {
      if (!msg || m.seq !== msg.seq) hintIndex = -1;
      msg = m;
      const sig = JSON.stringify(m.view.hand || []);
      if (sig !== handSig) {
        handSig = sig;
        const keys = new Set(handEntries(m.view).map((e) => e.key));
        for (const k of [...selected]) if (!keys.has(k)) selected.delete(k);
      }
      render();
    },
  };
}

/** A seat's latest entry of view.plays ([[seat, text]] or [[seat, text, card ids]]), for
 * cfg.last: the cards when the view names them, else the text (a rank string shown with 10 and
 * joker names; pass in words). */
export function lastFromPlays(v, s, lang, S) {
  let last = null;
  for (const p of v.plays || []) if (p[0] === s) last = p;
  if (!last) return null;
  const [, text, cards] = last;
  if (text.startsWith("pass")) return { text: S.pass };
  if (cards && cards.length) return { cards };
  const m = /^(?:(cha|gou) )?([2-9TJQKALB]+)$/.exec(text);
  if (m) return { text: (m[1] ? (S[m[1]] || m[1]) + " " : "") + ranksText(m[2], lang) };
  return { text };
}

/** A seat's finishing place as a badge, when view.finished (seats in the order they went out)
 * holds it. */
export function placeBadge(v, s, S) {
  const k = (v.finished || []).indexOf(s);
  return k >= 0 ? [[S.place(k + 1), "out"]] : [];
}
