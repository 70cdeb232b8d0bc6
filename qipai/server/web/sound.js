// Sounds made with WebAudio (no sound files): the game's start, a move, a capture, a check
// (xiangqi), your turn, low time, the end of the game. play(kind) does nothing while the player has muted the page (prefs.js) or before
// the browser allows sound (it needs a click or key press on the page first). Each sound is a
// few short tones; window.qipaiSounds counts what was played (the browser tests read it).

import { muted } from "./prefs.js";

// kind -> [frequency Hz, start s, length s, wave, gain]
const TONES = {
  move: [[520, 0, 0.07, "triangle", 0.35]],
  capture: [[330, 0, 0.06, "square", 0.22], [220, 0.05, 0.1, "triangle", 0.35]],
  turn: [[660, 0, 0.09, "sine", 0.3], [880, 0.1, 0.12, "sine", 0.3]],
  lowtime: [[988, 0, 0.06, "square", 0.18], [988, 0.12, 0.06, "square", 0.18]],
  // a sharp two-tone alarm, unlike the turn's rising chime (the king is attacked)
  check: [[784, 0, 0.08, "sawtooth", 0.2], [622, 0.09, 0.16, "sawtooth", 0.22]],
  // the game begins: a short rising call of three notes
  start: [[392, 0, 0.1, "sine", 0.3], [523, 0.1, 0.1, "sine", 0.3], [659, 0.2, 0.18, "sine", 0.3]],
  end: [[523, 0, 0.14, "sine", 0.3], [659, 0.14, 0.14, "sine", 0.3], [784, 0.28, 0.3, "sine", 0.3]],
};

let ctx = null, gestured = false;
const played = (window.qipaiSounds = window.qipaiSounds || { count: {}, last: null });

// the AudioContext is made on the first gesture, never before: one made earlier only logs
// "AudioContext was not allowed to start" (every table did, before its first click)
function audio() {
  if (!gestured && !(navigator.userActivation && navigator.userActivation.hasBeenActive)) return null;
  if (!ctx) {
    const AC = window.AudioContext || window.webkitAudioContext;
    if (!AC) return null;
    ctx = new AC();
  }
  if (ctx.state === "suspended") ctx.resume().catch(() => {});
  return ctx;
}
// browsers start audio only after a gesture on the page
for (const ev of ["pointerdown", "keydown"]) window.addEventListener(ev, () => { gestured = true; audio(); }, { once: true, capture: true });

/** Play `kind` (start, move, capture, check, turn, lowtime, end) unless muted. Returns whether it played. */
export function play(kind) {
  if (muted() || !TONES[kind]) return false;
  // counted also before the page's first gesture, when no sound comes (the tests read it)
  played.count[kind] = (played.count[kind] || 0) + 1;
  played.last = kind;
  const a = audio();
  if (!a) return false;
  const t0 = a.currentTime + 0.01;
  for (const [freq, at, len, wave, gain] of TONES[kind]) {
    const osc = a.createOscillator();
    const g = a.createGain();
    osc.type = wave;
    osc.frequency.value = freq;
    g.gain.setValueAtTime(0.0001, t0 + at);
    g.gain.exponentialRampToValueAtTime(gain, t0 + at + 0.01);
    g.gain.exponentialRampToValueAtTime(0.0001, t0 + at + len);
    osc.connect(g).connect(a.destination);
    osc.start(t0 + at);
    osc.stop(t0 + at + len + 0.02);
  }
  return true;
}

// Whether the move that led to `view` took something: xiangqi's FEN has fewer pieces than
// before; go names the stones it took (last_captures).
function captured(prev, view) {
  if (!view) return false;
  if (Array.isArray(view.last_captures)) return view.last_captures.length > 0;
  const count = (v) => (v && typeof v.fen === "string" ? (v.fen.split(" ")[0].match(/[a-zA-Z]/g) || []).length : null);
  const a = count(prev), b = count(view);
  return a !== null && b !== null && b < a;
}

// a plain move sounds at most once in this many ms: a burst of states (a card deal asking each
// seat in turn, several bots moving at once) is one tone, not a rattle
export const MOVE_GAP_MS = 400;
let lastMove = -Infinity;

/** The sounds of a new state message `msg` after `prev` (the previous one, or null): the
 *  start of the game, its end, a check, a capture, your turn or a move (a move within
 *  MOVE_GAP_MS of the last move sound makes none). The page's first state is the game's start
 *  when `begun` (the page saw the table wait for its players) or it is the game's first
 *  position (seq 0: the table had just begun); otherwise (a reload, a game joined midway) it
 *  makes no sound. */
export function forState(prev, msg, begun = false) {
  if (!prev) {
    const starts = (begun || msg.seq === 0) && !msg.result && msg.status === "playing";
    return starts ? play("start") && "start" : null;
  }
  if (msg.result && !prev.result) return play("end") && "end";
  if (msg.seq <= prev.seq) return null;
  const mine = msg.seat !== null && msg.to_act && msg.to_act.includes(msg.seat);
  // xiangqi's view says when the side to move is in check: heard by both sides, over the
  // capture or the turn it also is
  const check = Boolean(msg.view && msg.view.in_check);
  const kind = check ? "check" : captured(prev.view, msg.view) ? "capture" : mine ? "turn" : "move";
  if (kind === "move") {
    const now = performance.now();
    if (now - lastMove < MOVE_GAP_MS) return null;
    lastMove = now;
  }
  return play(kind) && kind;
}
