// Doudizhu table: your hand sorted, click cards to select, play or pass; bidding buttons from
// the legal actions; each seat's last play and card count; the landlord, the revealed kitty,
// the base and the multiplier. Cards carry data-card="<card id>" (e.g. 3H0, LJ0).
const ORDER = "3456789TJQKA2LB";
const SUIT = { S: "♠", H: "♥", C: "♣", D: "♦" };
const rankOf = (id) => id[0];
const sortCards = (ids) => [...ids].sort((a, b) => ORDER.indexOf(rankOf(a)) - ORDER.indexOf(rankOf(b)) || a.localeCompare(b));

function cardEl(id, small, lang) {
  const c = document.createElement("span");
  const r = rankOf(id);
  c.className = "c" + (small ? " small" : "");
  c.dataset.card = id;
  if (r === "L" || r === "B") {
    c.textContent = lang === "zh" ? (r === "B" ? "大王" : "小王") : (r === "B" ? "BJ" : "LJ");
    if (r === "B") c.classList.add("red");
  } else {
    const s = id[1];
    c.append(r === "T" ? "10" : r, document.createElement("br"), SUIT[s] || s);
    if (s === "H" || s === "D") c.classList.add("red");
  }
  return c;
}

function playText(text, t) {
  if (text === "pass") return t("pass");
  if (text.startsWith("bid ")) return `${t("bid")} ${text.slice(4)}`;
  return text.replace(/T/g, "10");
}

export function mount(root, ctx) {
  const { t, lang } = ctx;
  const box = document.createElement("div");
  box.className = "ddz";
  root.replaceChildren(box);
  let msg = null, hintIndex = -1;
  const selected = new Set();

  // select cards of the hand that make the play written `text` (ranks, "+" before the wings)
  function selectRanks(text, hand) {
    selected.clear();
    const free = sortCards(hand);
    for (const r of text.replace(/[^0-9TJQKA2LB]/g, "")) {
      const i = free.findIndex((id) => rankOf(id) === r);
      if (i >= 0) selected.add(free.splice(i, 1)[0]);
    }
  }

  function lastPlays(v) {
    const out = [null, null, null];
    for (const [s, a] of v.plays || []) out[s] = a;
    return out;
  }

  function seatBox(v, s, me, views) {
    const d = document.createElement("div");
    d.className = "pl" + ((v.to_act || []).includes(s) && !v.result ? " act" : "");
    d.dataset.seatbox = s;
    const names = msg.names || [];
    const head = document.createElement("div");
    head.innerHTML = "";
    head.append(`${s}${names[s] ? " " + names[s] : ""}`);
    if (v.landlord === s) { const l = document.createElement("span"); l.className = "lord role-mark"; l.textContent = t("landlord"); head.append(" ", l); }
    head.append(` · ${v.counts[s]} ${t("cards")}`);
    d.append(head);
    const lp = lastPlays(v)[s];
    const last = document.createElement("div");
    last.className = "lastplay";
    last.dataset.lastplay = s;
    last.textContent = lp ? playText(lp, t) : "";
    d.append(last);
    if (views && views[s] && views[s].hand && s !== me) {
      const hand = document.createElement("div");
      hand.className = "cards";
      for (const id of sortCards(views[s].hand)) hand.append(cardEl(id, true, lang));
      d.append(hand);
    }
    return d;
  }

  function render() {
    const v = msg.view;
    const me = msg.seat;
    box.replaceChildren();
    const others = document.createElement("div");
    others.className = "others";
    const order = me === null || me === undefined ? [0, 1, 2] : [(me + 1) % 3, (me + 2) % 3];
    for (const s of order) others.append(seatBox(v, s, me, msg.views));
    box.append(others);

    const info = document.createElement("div");
    info.className = "info";
    const mult = v.result && v.result.details && v.result.details.multiplier !== undefined ? v.result.details.multiplier : 2 ** (v.bombs || 0);
    info.innerHTML = "";
    const add = (k, val, id) => { const s = document.createElement("span"); s.dataset.info = id; s.textContent = `${t(k)}: ${val}`; info.append(s); };
    add("base", v.base || "-", "base");
    add("multiplier", "×" + mult, "multiplier");
    add("bombs", v.bombs || 0, "bombs");
    if (v.bids && v.bids.length) add("bid", v.bids.map(([s, b]) => `${s}:${playText(b, t)}`).join(" "), "bids");
    box.append(info);
    if (v.kitty) {
      const k = document.createElement("div");
      k.className = "cards kitty";
      k.append(`${t("kitty")}: `);
      for (const id of sortCards(v.kitty)) k.append(cardEl(id, true, lang));
      box.append(k);
    }
    if (me === null || me === undefined) return;

    const mine = seatBox(v, me, -1, null);
    const hand = document.createElement("div");
    hand.className = "cards hand";
    hand.id = "hand";
    for (const id of sortCards(v.hand || [])) {
      const c = cardEl(id, false, lang);
      if (selected.has(id)) c.classList.add("sel");
      c.onclick = () => { if (selected.has(id)) selected.delete(id); else selected.add(id); render(); };
      hand.append(c);
    }
    mine.append(hand);
    box.append(mine);

    const acting = !msg.replay && (msg.to_act || []).includes(me) && !msg.result;
    const legal = msg.legal || [];
    const buttons = document.createElement("div");
    buttons.className = "row";
    buttons.id = "actions";
    const btn = (label, action, id) => {
      const b = document.createElement("button");
      b.textContent = label;
      b.dataset.action = id || action;
      b.disabled = !acting;
      b.onclick = () => { ctx.send(action); selected.clear(); };
      buttons.append(b);
      return b;
    };
    if (v.phase === "bidding" || v.phase === "bid") {
      for (const a of legal) btn(a === "pass" ? t("nobid") : a === "call" ? t("landlord") : playText(a, t), a);
    } else if (v.phase !== "over") {
      const play = document.createElement("button");
      play.className = "primary";
      play.textContent = t("play");
      play.dataset.action = "play";
      play.disabled = !acting || selected.size === 0;
      play.onclick = () => { ctx.send(sortCards([...selected]).join(" ")); selected.clear(); };
      buttons.append(play);
      if (legal.includes("pass")) btn(t("pass"), "pass");
      const plays = legal.filter((a) => a !== "pass");
      const hint = document.createElement("button");
      hint.textContent = t("hint");
      hint.dataset.action = "hint";
      hint.disabled = !acting || plays.length === 0;
      hint.onclick = () => { hintIndex = (hintIndex + 1) % plays.length; selectRanks(plays[hintIndex], v.hand || []); render(); };
      buttons.append(hint);
    }
    box.append(buttons);
  }

  return {
    update(m) {
      if (!msg || m.seq !== msg.seq) hintIndex = -1;
      msg = m;
      const hand = new Set(m.view.hand || []);
      for (const id of [...selected]) if (!hand.has(id)) selected.delete(id);
      box.dataset.seq = m.seq;
      render();
    },
  };
}
