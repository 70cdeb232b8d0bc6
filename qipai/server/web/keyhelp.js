// The keyboard's shortcuts, shown by "?" (as lichess and OGS do): a small modal <dialog> in the
// page's language listing what the keys do on a table or replay page (the move list's arrows,
// Home and End, the board's own keys) and on every page (Tab, the skip link). Escape or its
// button closes it and the focus goes back where it was. Not while typing in a field.

import { el } from "./app.js";

const KEYS = [
  ["← →", "keys.prevnext"],
  ["Home End", "keys.firstlast"],
  ["Tab", "keys.tab"],
  ["↑ ↓ ← →", "keys.board"],
  ["Enter / Space", "keys.act"],
  ["?", "keys.help"],
];

/** Open the shortcuts' dialog (#key-help); `t` translates. Pressed again, "?" closes it. */
export function showKeyHelp(t) {
  const open = document.getElementById("key-help");
  if (open) { open.close(); return; }
  const back = document.activeElement;
  // each key a <kbd>; "/" between two keys stays a word ("Enter / Space")
  const keysOf = (keys) => keys.split(" ").flatMap((k) => (k === "/" ? [" / "] : [el("kbd", {}, k), " "]));
  const close = el("button", { type: "button", class: "primary", onclick: () => d.close() }, t("keys.close"));
  const d = el("dialog", { id: "key-help", class: "ask key-help", "aria-labelledby": "key-help-title" },
    el("h2", { id: "key-help-title" }, t("keys.title")),
    el("dl", {}, KEYS.flatMap(([keys, what]) => [el("dt", {}, keysOf(keys)), el("dd", {}, t(what))])),
    close);
  d.addEventListener("close", () => { d.remove(); if (back && back.focus) back.focus(); });
  document.body.append(d);
  d.showModal();
  close.focus();
}

/** Listen for "?" on the whole page (not in a text field, not with Ctrl/Alt/Meta). */
export function keyHelpOn(t) {
  document.addEventListener("keydown", (e) => {
    if (e.key !== "?" || e.ctrlKey || e.altKey || e.metaKey || e.isComposing) return;
    const tag = (e.target && e.target.tagName) || "";
    if (tag === "INPUT" || tag === "TEXTAREA" || tag === "SELECT" || (e.target && e.target.isContentEditable)) return;
    e.preventDefault();
    showKeyHelp(t);
  });
}
