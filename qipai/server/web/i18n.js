// The page's language and its words. The catalogues are qipai/i18n/<lang>.json, served at
// /api/i18n/<lang>: flat key -> template, "{name}" filled from params, "{name|ns}" filled with
// the text of key "ns.<value>" (see qipai/i18n/__init__.py). The page speaks the language the
// player picked (localStorage "lang"), else the browser's: zh for any zh-*, else en.

import { ccCell } from "./movetext.js";

export const lang = localStorage.getItem("lang") || ((navigator.language || "zh").toLowerCase().startsWith("zh") ? "zh" : "en");

async function fetchCatalogue(l) {
  try {
    const r = await fetch(`/api/i18n/${l}`, { credentials: "same-origin" });
    return r.ok ? await r.json() : {};
  } catch { return {}; }
}
const [mine, english] = await Promise.all([fetchCatalogue(lang), lang === "en" ? null : fetchCatalogue("en")]);
const CAT = mine, EN = english || mine;

/** Items of a list in the page's words: "ann、bob" in Chinese, "ann, bob" in English. */
export const LIST_SEP = lang === "zh" ? "、" : ", ";
const text = (v) => (Array.isArray(v) ? v.map(text).join(LIST_SEP) : String(v));

/** Cards written in the games' codes ("9H TH0 LJ", a play in ranks "AL") in the page's words:
 *  Chinese names each card (红桃9、红桃10、小王; "A 小王"), English writes each as its face reads
 *  on the table, a joker by name (♥9, ♥10, Small Joker; "A Small Joker"); a template's {name|cards} (as
 *  qipai/i18n/__init__.py card_words). */
export function cardWords(v) {
  const s = text(v);
  const zh = lang === "zh";
  const joker = (r) => t(`term.joker.${r}`);
  const suit = (x) => (zh ? t(`term.suit.${x}`) : SUIT_SIGN[x]);
  const rank = (r) => (r === "T" ? "10" : r === "L" || r === "B" ? joker(r) : r);
  return s.replace(/,/g, " ").split(/\s+/).filter(Boolean).map((tok) => {
    let m = /^(10|[2-9TJQKA])([SHCD])\d?$/.exec(tok);
    if (m) return suit(m[2]) + rank(m[1]);
    m = /^([LB])J\d?$/.exec(tok);
    if (m) return rank(m[1]);
    if (/^(?:[2-9TJQKALB+]+|10)$/.test(tok)) return [...tok.replace(/10/g, "T")].map((c) => (c === "+" ? (zh ? "＋" : "+") : rank(c))).join(" ");
    return tok;
  }).join(zh ? "、" : ", ");
}
const SUIT_SIGN = { S: "♠", H: "♥", D: "♦", C: "♣" };

/** Mahjong tiles written in their codes ("5m", "E", a run "345p", a flower "f1") by their
 *  names from the catalogue's tile.* entries: 五万、东风 in Chinese, "5 crak", "East wind"
 *  in English (the suit words the tile faces carry: crak, dot, bam); a template's {name|tiles} (as qipai/i18n/__init__.py tile_words). */
export function tileWords(v) {
  const run = /([1-9]+)([mps])|([ESWNCFP])|f([1-8])/g;
  return text(v).replace(/,/g, " ").split(/\s+/).filter(Boolean).flatMap((tok) => {
    if (tok.replace(run, "") !== "") return [tok];
    return [...tok.matchAll(run)].flatMap((m) => (m[1] ? [...m[1]].map((r) => t(`tile.${m[2]}`, { rank: Number(r) }))
      : m[3] ? [t(`tile.${m[3]}`)] : [t("tile.f", { n: Number(m[4]) })]));
  }).join(lang === "zh" ? "、" : ", ");
}

/** A Chinese checkers hole "q,r" by its cell name ("-1,5" is q4, as the board names it); a
 *  template's {name|cell} (as qipai/i18n/__init__.py cell_word). */
function cellWord(v) {
  const m = /^(-?\d+),(-?\d+)$/.exec(text(v).trim());
  const q = m && Number(m[1]), r = m && Number(m[2]), s = m && -q - r;
  const on = m && ((q >= -4 && r >= -4 && s >= -4) || (q <= 4 && r <= 4 && s <= 4));   // a hole of the star
  return on ? ccCell(`${q},${r}`) : text(v);
}

/** A seat index (0-based) by its player's name from `names` (the table's seats in order, a bot's
 *  seat in words), else by its number, "seat 2" / "座位 2"; a template's {name|seat} (as
 *  qipai/i18n/__init__.py seat_word). */
function seatWord(v, names) {
  const name = Number.isInteger(v) && Array.isArray(names) ? names[v] : null;
  return name ? seatName(name) : t("seatno", { n: text(v) });
}

// a filled field set off by a space where a Latin word in it meets a Chinese character of the
// template ("carol 胜", "由 Ann 中止"), as Chinese pages write a Latin name in a sentence; a number
// alone ("3步") keeps its text (qipai/i18n spaced(), the same rule)
const CJK = /[\u3400-\u9fff\uf900-\ufaff]/;
const EDGE = /[A-Za-z0-9]/;
export function spaced(v, before, after) {
  if (!/[A-Za-z]/.test(v)) return v;
  if (v && EDGE.test(v[v.length - 1]) && after && CJK.test(after)) v += " ";
  if (v && EDGE.test(v[0]) && before && CJK.test(before)) v = " " + v;
  return v;
}

/** A go komi given in points (B − W, SGF KM) as the stones of an area count, half the points in
 *  quarters (8 → "4", 7.5 → "3¾"); a template's {name|stones} (as qipai/i18n/__init__.py komi_stones). */
export function komiStones(points) {
  const q = Math.round(Math.abs(Number(points)) * 2);
  return `${Math.floor(q / 4) || (q % 4 ? "" : "0")}${["", "¼", "½", "¾"][q % 4]}`;
}

// `within`: the keys being worded, so a message that names its own kind ends (as in Python)
function fill(template, params, within = []) {
  return template.replace(/\{(\w+)(?:\|([\w.-]+)(?:\+(\w+))?)?\}/g, (all, ...m) => {
    const at = m[m.length - 2];
    const v = field(all, ...m);
    const named = !m[1] || m[1] === "seat";   // a plain field or a seat's name, not cards or a word
    return lang === "zh" && named ? spaced(v, template.slice(at - 1, at), template.slice(at + all.length, at + all.length + 1)) : v;
  });

  function field(all, name, ns, under) {
    if (!params || !(name in params) || (under && !(under in params))) return all;
    const v = params[name];
    if (!ns) return text(v);
    if (ns === "cards") return cardWords(v);
    if (ns === "tiles") return tileWords(v);
    if (ns === "cell") return cellWord(v);
    if (ns === "stones") return komiStones(v);
    if (ns === "seat") return seatWord(v, params.names);
    if (under) ns = `${ns}.${params[under]}`;    // {value|value+label}: keys value.<label>.<value>
    return (Array.isArray(v) ? v : [v]).map((x) => (within.includes(`${ns}.${x}`) ? String(x)
      : word(`${ns}.${x}`, params, String(x), within))).join(lang === "zh" ? "、" : ", ");
  }
}

/** Whether the catalogue of the page's language has `key` (one template or plural forms). */
export const has = (key) => key in CAT || `${key}.other` in CAT;

// plural forms, as qipai/i18n/__init__.py picks them: a message that counts has "key.one" and
// "key.other" (Chinese: "other" only); the count is params.n, else the first numeric parameter
const num = (v) => (typeof v === "boolean" || v === null || v === "" || !Number.isFinite(Number(v)) ? null : Number(v));
function template(cat, key, params, l) {
  if (key in cat) return cat[key];
  const other = cat[`${key}.other`];
  if (other === undefined) return undefined;
  let n = params && "n" in params ? params.n : null;
  if (n === null && params) for (const m of other.matchAll(/\{(\w+)/g)) if (m[1] in params && num(params[m[1]]) !== null) { n = params[m[1]]; break; }
  const form = l === "en" && num(n) === 1 ? "one" : "other";
  return cat[`${key}.${form}`] ?? other;
}

/** The text of `key` with `params` filled in: the page's language, else English, else
 *  `fallback`, else the key itself. */
export function t(key, params, fallback) { return word(key, params, fallback, []); }

function word(key, params, fallback, within) {
  const tpl = template(CAT, key, params, lang) ?? template(EN, key, params, "en");
  if (tpl === undefined) return fallback ?? key;
  return fill(tpl, params, [...within, key]);
}

/** The words of a refusal or error the server sent ({error, code, params, refusal, message}):
 *  the referee's "refusal.<refusal>" when the game refused a move, else "error.<code>", else
 *  the English message. A rate limit says how long to wait. */
/** `s` as a sentence: its first letter a capital (a server's message, worded for a log, starts
 *  in lower case: "no such account"); Chinese is unchanged. */
export const sentence = (s) => (s ? s.charAt(0).toUpperCase() + s.slice(1) : s);

/** An error or refusal in the page's language, as a sentence. */
export function errorText(e) {
  return sentence(errorWords(e));
}

/** A time the server gave (ISO, UTC: a chat mute's `until`) as the reader's date and time. */
export function localTime(iso) {
  const d = new Date(iso);
  return isNaN(d) ? String(iso) : d.toLocaleString(lang === "zh" ? "zh-CN" : "en-GB",
    { month: "short", day: "numeric", hour: "2-digit", minute: "2-digit" });
}

function errorWords(e) {
  if (!e) return "";
  let params = e.params || {};
  if (params.until) params = { ...params, until: localTime(params.until) };
  if (e.refusal && has(`refusal.${e.refusal}`)) return t(`refusal.${e.refusal}`, params);
  const code = e.code || e.error;
  if (code && has(`error.${code}`)) {
    const wait = params.retry_after ?? e.retry_after;
    // a limit with words of its own: "Too many sign-ups from this network; try again in 40 s"
    const own = params.limit ? `${code}.${params.limit}` : null;
    if (own && has(own)) return t(own, { ...params, seconds: Math.max(1, Math.ceil(wait || 0)) });
    return t(`error.${code}`, params) + (wait ? (lang === "zh" ? "" : " ") + t("retry_in", { seconds: Math.max(1, Math.ceil(wait)) }) : "");
  }
  return e.message || String(code || "");
}

/** `s` in brackets after a word: full-width （…） in Chinese, " (…)" in English; `l` another
 *  language than the page's (result.js words a result in the language it is given). */
export const paren = (s, l = lang) => (l === "zh" ? `（${s}）` : ` (${s})`);

/** `name` with `note` in brackets after it; a name already ending in brackets (a bot's
 *  "机器人（规则型）") takes the note inside them: 机器人（规则型，下家）, "Bot (Rule-based, Right)",
 *  never two brackets in a row (as qipai/i18n/results.py with_note). */
export function withNote(name, note, l = lang) {
  const s = String(name);
  if (l === "zh" && s.endsWith("）")) return `${s.slice(0, -1)}，${note}）`;
  if (l !== "zh" && s.endsWith(")")) return `${s.slice(0, -1)}, ${note})`;
  return s + paren(note, l);
}

/** The words of an end reason (Result.reason). */
export const endText = (reason) => t(`end.${reason}`, null, reason);

/** A seat's name as people read it: a bot's seat ("bot:rule") in words ("机器人（规则型）"),
 *  an engine's ("engine:fsf") as "引擎 fsf",
 *  anyone else's name as it is. */
export function seatName(name) {
  const m = /^bot:(\w+)$/.exec(String(name ?? ""));
  if (m) return t("botseat", { bot: m[1] });
  const e = /^engine:(.+)$/.exec(String(name ?? ""));    // an engine the server offers
  return e ? t("bot.engine", { name: e[1] }) : name;
}

/** Seats' names in words, a name two seats share (bots of one kind at a lobby table) told apart
 *  by a number in seat order, "机器人（规则型）2" / "Bot (Rule-based) 2" (`say`: a t(key, params),
 *  the page's by default; as qipai.i18n seat_names). */
export function numberShared(words, say = t) {
  const seen = {};
  return words.map((w) => {
    if (!w || words.filter((x) => x === w).length < 2) return w;
    seen[w] = (seen[w] || 0) + 1;
    return say("seatnameNo", { name: w, n: seen[w] });
  });
}

/** Every seat's name as people read it (seatName), bots of one kind numbered (numberShared). */
export const seatNames = (names) => numberShared((names || []).map((x) => (x ? seatName(x) : x)));

/** The catalogue's entries under `prefix.` as a nested object, templates unfilled (a board's
 *  own words): "go.black" is table("go").black, "junqi.seatNames.siguo.0" is
 *  table("junqi").seatNames.siguo[0]. Entries missing in the page's language come from English. */
export function table(prefix) {
  const out = {};
  for (const cat of [EN, CAT]) {
    for (const [key, text] of Object.entries(cat)) {
      if (!key.startsWith(prefix + ".")) continue;
      const path = key.slice(prefix.length + 1).split(".");
      let node = out;
      for (const part of path.slice(0, -1)) node = node[part] ??= {};
      node[path[path.length - 1]] = text;
    }
  }
  return out;
}
