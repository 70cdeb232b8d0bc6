// What a live table page adds around the board: the chat, sounds, the tab title on your turn,
// what happened to a draw offer, and the rematch (再来一局) at the end of a lobby game.
// tableExtras(ctx) -> {chat, note, onMessage(msg, prev), controls(last, info)}: the table page
// passes every socket message to onMessage (true: taken, the page ignores it) and appends
// controls(...) to its buttons.

import { tableChat } from "./chat.js";
import { icon } from "./icons.js";
import * as sound from "./sound.js";

export function tableExtras({ t, errorText, send, api, me, id, rerender }) {
  const chat = tableChat({ t, errorText, send });
  const note = document.createElement("div");
  note.className = "table-note";
  note.id = "table-note";
  note.setAttribute("role", "status");
  const baseTitle = document.title;
  let offered = null;          // my draw offer: "held" (goes with my move) or "sent"
  let rematch = null;          // {table, by} offered by another player
  let lowWarned = null;        // the turn whose low time was sounded
  const say = (key, params) => { note.textContent = key ? t(key, params) : ""; };

  function title(msg) {
    const mine = msg && msg.seat !== null && !msg.result && msg.to_act && msg.to_act.includes(msg.seat);
    document.title = mine ? `${t("title.yourturn")} · ${baseTitle}` : baseTitle;
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

  function onMessage(msg, prev) {
    if (chat.onMessage(msg)) return true;
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
      if (e.type.startsWith("draw_")) rerender();
      return false;
    }
    if (msg.type === "state") {
      window.qipaiLastState = msg;
      window.qipaiLastStateAt = performance.now();
      sound.forState(prev, msg);
      title(msg);
      if (offered === "held" && prev && msg.seq > prev.seq && msg.draw_offer === msg.seat) { offered = "sent"; say("draw.sent"); }
      if (msg.result && offered) { offered = null; }
    }
    return false;
  }

  function controls(last, info) {
    const out = [];
    const lobbyGame = info && !info.event && last && last.result && last.seat !== null && me;
    if (lobbyGame) {
      const ask = async () => {
        try { const tb = await api("POST", `/api/tables/${id}/rematch`, {}); location.href = `/tables/${tb.id}`; }
        catch (e) { say(null); note.textContent = errorText(e); }
      };
      const b = document.createElement("button");
      b.id = "rematch";
      b.className = "primary";
      b.append(icon("rematch"), " ", rematch ? t("rematch.join", { name: rematch.by }) : t("rematch.ask"));
      b.onclick = ask;
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

  return { chat: chat.root, note, onMessage, controls, offered: () => offered };
}
