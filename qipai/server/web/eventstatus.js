// An event's state in words, the same on every page that names it (the event list, a player's
// events, the event's own page): Entries open / Round 1 not started yet / Semi-finals in play /
// Finished. `ev` as the server gives it (eventphase.py: its stage, current_round and begun);
// its entrants a list (the event's page) or their number (the list, a profile).
import { t } from "./app.js";

export function roundName(ev, rnd) {
  const entrants = Array.isArray(ev.entrants) ? ev.entrants.length : ev.entrants || 0;
  if (ev.stage === "knockout") {
    const total = Math.ceil(Math.log2(Math.max(2, entrants)));
    const left = total - rnd;
    if (left === 0) return t("events.final");
    if (left === 1) return t("events.semifinal");
    if (left === 2) return t("events.quarterfinal");
  }
  // a table knockout's length depends on the tables' results: its final is known once played
  if (ev.stage === "table_knockout" && ev.status === "finished" && ev.rounds && rnd === ev.rounds.length) return t("events.final");
  return t("events.round", { n: rnd });
}

export function eventStatus(ev) {
  const rnd = ev.current_round;
  // begun, but no game of it started yet (its tables wait for the players): "Final: waiting for
  // the players", never "in play"
  const state = !ev.begun ? "waiting" : ev.playing === false ? "seating" : "playing";
  if (ev.status === "running" && rnd) return t(`events.state.${state}`, { round: roundName(ev, rnd) });
  return t(`status.${ev.status}`, null, ev.status);
}
