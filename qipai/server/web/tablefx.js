// What a live table page adds around the board: the chat, sounds, the tab title on your turn
// (and in a hidden tab a marked icon and, when turned on, a desktop notification: tabalert.js),
// what happened to a draw offer, the rematch (再来一局) at the end of a lobby game, a text
// alternative of the board for screen readers (the last move, whose turn, the result) and a
// field to type a move (any notation the game reads, its legal moves offered as suggestions), so
// every game can be played with the keyboard alone.
// tableExtras(ctx) -> {chat, note, boardText, entry, onMessage(msg, prev), controls(last, info)}:
// the table page passes every socket message to onMessage (true: taken, the page ignores it)
// and appends controls(...) to its buttons.

import { el, markingText } from "./app.js";
import { resultText } from "./result.js";
import { seatName } from "./i18n.js";
import { ccCell, moveFormat } from "./movetext.js";
import { eventChat, tableChat } from "./chat.js";
import { icon } from "./icons.js";
import * as sound from "./sound.js";
import { tabAlert } from "./tabalert.js";

//: games whose seat the computer can play by the default action (托管, competition.md §4.6)
const ENTRUSTABLE = new Set(["doudizhu", "shengji", "baohuang", "wakeng", "fouafour", "sandayi", "mahjong-gb", "laizi-mahjong", "baibian-bajue"]);
//: tile games: their typed-input box takes a discard or a claim, not a board game's move
const TILE_GAMES = new Set(["mahjong-gb", "laizi-mahjong", "baibian-bajue"]);

/** The words of the typed-input box and its button: a board game's move (输入着法 / 走), a card
 * game's play (输入出牌 / 出牌), a tile game's discard or claim (输入打牌或吃碰杠 / 确定). */
export function entryWords(game) {
  if (TILE_GAMES.has(game)) return ["a11y.typeTile", "a11y.playTile"];
  if (ENTRUSTABLE.has(game)) return ["a11y.typePlay", "a11y.playCards"];
  return ["a11y.typeMove", "a11y.playMove"];
}

/** Whether the computer plays my seat now (托管, competition.md §4.6): the status, the tab title
 * and the screen-reader text then never say "your turn". */
export function entrusted(msg) {
  const c = msg && msg.seat !== null && msg.seat !== undefined && msg.clocks && msg.clocks[msg.seat];
  return Boolean(c && c.trustee && !c.held);
}

export function tableExtras({ t, errorText, send, api, me, id, rerender, move, lang, event, game }) {
  const [typeKey, playKey] = entryWords(game);
  let referee = false;          // the reader referees the event (its chat says): may mute chat
  const chat = tableChat({ t, errorText, send, me, api, table: id, event, referee: () => referee });
  // at an event's table, its chat with the referees too (open while the table's chat is off)
  const chats = document.createElement("div");
  chats.className = "chats";
  chats.append(chat.root);
  if (event) chats.append(eventChat({ t, api, id: event, me, errorText, onReferee: (r) => { referee = r; chat.redraw(); } }));
  const boardText = el("div", { class: "sr-only", id: "board-text", "aria-live": "polite" });
  const entry = document.createElement("form");
  entry.className = "move-entry row";
  entry.id = "move-entry";
  entry.hidden = true;
  const entryLabel = document.createElement("label");
  entryLabel.textContent = t(typeKey) + " ";
  const entryInput = document.createElement("input");
  entryInput.name = "move";
  entryInput.autocomplete = "off";
  entryInput.setAttribute("list", "legal-moves");
  entryInput.size = 12;
  entryLabel.append(entryInput);
  const legalList = document.createElement("datalist");
  legalList.id = "legal-moves";
  const entryBtn = document.createElement("button");
  entryBtn.type = "submit";
  entryBtn.textContent = t(playKey);
  // under the box: the referee's refusal of the move typed (why, and the count), and before any
  // is typed, that an illegal move counts (xiangqi §4.4: the limit'th loses the game)
  const entryRefused = el("p", { class: "error entry-line", id: "move-refused", role: "alert" });
  const entryHint = el("p", { class: "muted small entry-line", id: "move-hint", hidden: true });
  entry.append(entryLabel, legalList, entryBtn, entryRefused, entryHint);
  let typedAt = null;          // the seq a typed move answered: its refusal is said under the box
  entry.onsubmit = (ev) => {
    ev.preventDefault();
    const text = entryInput.value.trim();
    entryRefused.textContent = "";
    if (text) {                // typed: a slip that is no move never counts
      typedAt = window.qipaiLastState ? window.qipaiLastState.seq : 0;
      move(text, { typed: true }); entryInput.value = "";
      return;
    }
    // pressed with the box empty: what to type, with one of the moves open now as the example
    // (a play or a bid rather than a pass)
    const open = [...legalList.options].map((o) => o.value);
    const example = open.find((x) => x !== "pass") || open[0] || null;
    entryRefused.textContent = example ? t("entry.empty", { example }) : t("entry.emptyno");
    entryInput.focus();
  };
  /** Whether a typed move's refusal (with its illegal-move count) is said under the box now. */
  const refusalShown = () => typedAt !== null && entryRefused.textContent !== "";
  /** Say a refusal under the box when it answers a typed move (true), else leave it to the page. */
  function typedRefusal(text) {
    if (typedAt === null) return false;
    entryRefused.textContent = text;
    entryHint.hidden = true;       // the refusal says the count: one line under the box
    return true;
  }
  const note = document.createElement("div");
  note.className = "table-note";
  note.id = "table-note";
  note.setAttribute("role", "status");
  const baseTitle = document.title;
  const turnAlert = tabAlert();
  let sawOpen = false;        // the table waited for its players on this page: its first state is the start
  let offered = null;          // my draw offer: "held" (goes with my move) or "sent"
  let rematch = null;          // {table, by} offered by another player
  let lowWarned = null;        // the turn whose low time was sounded
  let said = null;            // the key of the note shown
  let offerAt = null;         // the move count of the position an offer's note was said in (set by its first state)
  let leaving = false;        // Leave was pressed: the lobby once the computer has the seat
  const toLobby = () => { location.href = "/"; };
  const say = (key, params) => { said = key; offerAt = null; note.classList.remove("error"); note.textContent = key ? t(key, params) : ""; };
  // a refusal in the note looks like an error (the note's own colour is a success's)
  const sayError = (text) => { said = null; note.classList.add("error"); note.textContent = text; };
  // notes about play (托管, a pending draw offer) go when the game is over
  const PLAY_NOTES = /^(trustee\.|draw\.(sent|received|held)$)/;
  // a note about an offer (a draw offered or declined, a takeback done or declined) holds for the
  // position it was said in: the next move, or the game's end, takes it away
  const OFFER_NOTES = /^(draw\.(sent|received|held|declined|declinedMine)|takeback\.(done|declined|declinedMine))$/;
  const moveCount = (msg) => (msg.moves && Array.isArray(msg.moves.list) ? msg.moves.from + msg.moves.list.length
    : msg.view && typeof msg.view.moves === "number" ? msg.view.moves : msg.seq);

  function title(msg) {
    const mine = msg && msg.seat !== null && !msg.result && msg.status !== "aborted" && msg.to_act && msg.to_act.includes(msg.seat)
      && !(msg.view && msg.view.phase === "marking")       // go's dead-stone marking is no turn
      && !entrusted(msg);
    document.title = mine ? `${t("title.yourturn")} · ${baseTitle}` : baseTitle;
    // in a hidden tab: the icon marked, a notification (its text: the title, the last move)
    const list = msg && msg.moves && msg.moves.list;
    turnAlert.turn(Boolean(mine), `${id}:${msg && msg.seq}`, mine ? {
      title: document.title,
      body: list && list.length ? lastMoveText(msg, list) : t("notify.body"),
    } : null);
  }

  // low time: once per turn, when my own clock passes under 10 s
  setInterval(() => {
    const last = window.qipaiLastState;
    if (!last || last.seat === null || last.result || !last.to_act || !last.to_act.includes(last.seat)) return;
    const c = last.clocks && last.clocks[last.seat];
    if (!c || c.deadline === undefined) return;
    const left = c.deadline - (last.now + (performance.now() - (window.qipaiLastStateAt || 0)));
    if (left < 10000 && left > 0 && lowWarned !== last.seq) { lowWarned = last.seq; sound.play("lowtime"); }
  }, 500);

  // the last move in a sentence, as the move list words it: a placement "Move 6: alice played
  // 马2进1"; an act that is no placement said as itself ("Move 134: alice passed"), and go's
  // dead-stone marking, which is no move, without a number ("alice submitted the dead stones")
  function lastMoveText(msg, list) {
    const m = list[list.length - 1];
    const f = moveFormat(msg.game, t, lang);
    const name = seatName((msg.names || [])[m.seat] || "");
    const e = f.format(m);
    const aside = (f.aside && f.aside(m)) || (f.setup && f.setup(m));      // no move: no number
    let n = msg.moves.from + list.length;
    if (f.aside && msg.view && typeof msg.view.moves === "number") n = msg.view.moves;   // go: the board's count
    if (e.said) {
      const what = t(e.said, { name, point: e.point || "" });
      return aside ? what : t("a11y.lastSaid", { n, what });
    }
    return t("a11y.lastMove", { n, name, move: e.text || "" });
  }
  function describe(msg) {
    const names = msg.names || [];
    const parts = [];
    const list = msg.moves && msg.moves.list;
    if (list && list.length) parts.push(lastMoveText(msg, list));
    if (msg.result) parts.push(t("result") + t("colon") + resultText(msg.result, { game: msg.game, seat: msg.seat, names: names.map(seatName), view: msg.view, t, lang }));
    else if (msg.status === "aborted") { /* aborted: nobody's turn (the status line says why) */ }
    else if (msg.view && msg.view.phase === "marking") parts.push(markingText(msg));     // go's dead stones: nobody's turn
    else if (msg.to_act && msg.to_act.length) {
      const mine = msg.seat !== null && msg.to_act.includes(msg.seat);
      if (entrusted(msg)) parts.push(t("yourturn.entrusted"));
      else parts.push(mine ? t("title.yourturn") : t("a11y.toMove", { name: msg.to_act.map((s) => names[s]).join(lang === "zh" ? "、" : ", ") }));
    }
    boardText.textContent = parts.join(lang === "zh" ? "。" : ". ");      // Chinese full stops in Chinese
  }
  function legalOf(msg) {
    const v = msg.view || {};
    const list = msg.legal || v.legal_moves || (Array.isArray(v.legal) ? v.legal : null) || [];
    return list.filter((x) => typeof x === "string").slice(0, 400);
  }

  function onMessage(msg, prev) {
    if (chat.onMessage(msg)) return true;
    if ((msg.type === "hello" || msg.type === "table") && msg.table && msg.table.status === "open") sawOpen = true;
    if (msg.type === "rematch") {
      if (!me || msg.by === me.username) return true;
      rematch = msg;
      say("rematch.offered", { name: msg.by });
      rerender();
      return true;
    }
    if (msg.type === "event") {
      const e = msg.event, mineSeat = prev ? prev.seat : null;
      if (e.type === "draw_offer_held") { offered = "held"; say("draw.held"); }
      else if (e.type === "draw_offer" && e.seat === mineSeat && mineSeat !== null) { offered = "sent"; say("draw.sent"); }
      else if (e.type === "draw_offer" && mineSeat !== null) say("draw.received");
      else if (e.type === "draw_declined") { say(offered ? "draw.declinedMine" : "draw.declined"); offered = null; }
      else if (e.type === "draw_accepted") { say("draw.accepted"); offered = null; }
      if (e.type === "takeback_declined") say(e.seat === mineSeat ? "takeback.declined" : "takeback.declinedMine");
      else if (e.type === "takeback") say("takeback.done", { moves: e.moves });
      if (e.type === "trusteeship") {
        const name = (prev && prev.names && prev.names[e.seat]) || "";
        if (e.seat === mineSeat && e.on && leaving) toLobby();
        // the clock ran out (at a lobby table the first time): said so, with how to take it back
        else if (e.seat === mineSeat) say(e.on ? (e.why === "timeouts" ? "trustee.timeout" : "trustee.mine") : "trustee.back");
        else say(e.on ? "trustee.other" : "trustee.otherBack", { name });
      }
      if (e.type === "disqualified") {    // a referee's disqualification (§2.7), with the reason
        const name = (prev && prev.names && prev.names[e.seat]) || "";
        const key = e.seat === mineSeat ? `ref.dq.mine.${e.effect}` : `ref.dq.other.${e.effect}`;
        say(key, { name, reason: e.reason || "" });
      }
      if (e.type === "aborted") {                         // nothing more to type, nobody's turn
        entry.hidden = true;
        if (said && OFFER_NOTES.test(said)) say(null);
        if (prev) { const over = { ...prev, status: "aborted", to_act: [] }; title(over); describe(over); }
      }
      if (e.type.startsWith("draw_") || e.type.startsWith("takeback")) rerender();
      return false;
    }
    if (msg.type === "state") {
      if (msg.result && said && PLAY_NOTES.test(said)) say(null);
      if (said && OFFER_NOTES.test(said)) {
        if (msg.result || msg.status === "aborted") { say(null); offerAt = null; }
        else if (offerAt === null) offerAt = moveCount(msg);
        else if (moveCount(msg) !== offerAt) { say(null); offerAt = null; }
      }
      window.qipaiLastState = msg;
      window.qipaiLastStateAt = performance.now();
      sound.forState(prev, msg, sawOpen);
      title(msg);
      describe(msg);
      const mine = msg.seat !== null && !msg.result && msg.status !== "aborted" && msg.to_act && msg.to_act.includes(msg.seat);
      // go's dead-stone marking takes no typed move: its board's clicks and buttons do it
      const marking = !!(msg.view && msg.view.phase === "marking");
      entry.hidden = msg.seat === null || !!msg.result || msg.status === "aborted" || marking;
      entryInput.disabled = entryBtn.disabled = !mine || marking;
      if (typedAt !== null && msg.seq > typedAt) { typedAt = null; entryRefused.textContent = ""; }   // a move was made since
      entryHint.hidden = !msg.illegal_limit || !!msg.result || marking || refusalShown();
      if (msg.illegal_limit) entryHint.textContent = t("illegal.hint", { limit: msg.illegal_limit });
      if (mine) {
        // the moves to pick from, as the move list writes them (Chinese checkers by cell names, q4>p5)
        const typed = (x) => (msg.game === "chinese-checkers" && x.includes(">") ? x.split(">").map(ccCell).join(">") : x);
        const legal = legalOf(msg);
        legalList.replaceChildren(...legal.map((x) => { const o = document.createElement("option"); o.value = typed(x); return o; }));
      }
      if (offered === "held" && prev && msg.seq > prev.seq && msg.draw_offer === msg.seat) { offered = "sent"; say("draw.sent"); offerAt = moveCount(msg); }
      if (msg.result && offered) { offered = null; }
    }
    return false;
  }

  function controls(last, info) {
    const out = [];
    // a lobby game over, or aborted once begun (nobody made the first move): play it again
    const lobbyGame = info && !info.event && last && (last.result || info.status === "aborted") && last.seat !== null && me;
    if (lobbyGame) {
      const ask = async () => {
        // the page becomes the rematch's (replace: reload and back do not bring the old game back)
        try { const tb = await api("POST", `/api/tables/${id}/rematch`, {}); location.replace(`/tables/${tb.id}`); }
        catch (e) { sayError(errorText(e)); }
      };
      if (info.rematch && !rematch) {        // asked for already (this page opened later): a link to it
        const a = document.createElement("a");
        a.id = "rematch-link";
        a.className = "button primary";
        a.href = `/tables/${info.rematch}`;
        a.append(icon("rematch"), " ", t("rematch.go"));
        out.push(a);
        return out;
      }
      const b = document.createElement("button");
      b.id = "rematch";
      b.className = "primary";
      b.append(icon("rematch"), " ", rematch ? t("rematch.join", { name: rematch.by }) : t("rematch.ask"));
      b.onclick = ask;
      out.push(b);
    }
    const myClock = last && last.seat !== null && last.clocks ? last.clocks[last.seat] : null;
    if (last && last.seat !== null && last.status === "playing" && !last.result && info && ENTRUSTABLE.has(info.game)
        && !(myClock && myClock.trustee)) {
      const b = document.createElement("button");
      b.id = "entrust";
      b.textContent = t("trustee.ask");
      b.title = t("trustee.askHint");
      b.onclick = () => send({ type: "entrust" });
      out.push(b);
    }
    // Leave (离开) at a lobby card or tile table in play: the computer plays the seat (托管, seen
    // by all) and the player goes back to the lobby; back at the table, 取消托管 takes it back
    if (last && last.seat !== null && last.status === "playing" && !last.result && info && !info.event
        && ENTRUSTABLE.has(info.game)) {
      const b = document.createElement("button");
      b.id = "leave-table";
      b.textContent = t("trustee.leave");
      b.title = t("trustee.leaveHint");
      b.onclick = () => {
        if (myClock && myClock.trustee) { toLobby(); return; }
        leaving = true;
        send({ type: "entrust" });
        setTimeout(toLobby, 3000);        // refused (asked again too soon): its clock hands it over
      };
      out.push(b);
    }
    if (last && last.seat !== null && !last.result && offered) {
      const s = document.createElement("span");
      s.className = "muted";
      s.id = "draw-pending";
      s.textContent = t(offered === "held" ? "draw.heldShort" : "draw.sentShort");
      out.push(s);
    }
    return out;
  }

  return { chat: chats, note, boardText, entry, onMessage, controls, offered: () => offered, typedRefusal, refusalShown };
}
