// The account's settings (/settings, linked from the header's account links): the display
// (language, theme, sound, board coordinates, chat shown or hidden, xiangqi notation: kept in this
// browser as the header's buttons keep them, prefs.js, and in step with those buttons), the alerts of a table in a background tab on
// your turn (the tab's icon marked; a desktop notification, off until turned on here, which asks
// the browser's permission: tabalert.js), and the password (the current one asked first: POST /api/me/password, which ends
// the account's other sessions). The account has no display name apart from its username.

import { api, el, errorText, lang, t } from "./app.js";
import { paren } from "./i18n.js";
import { chatShown, coordsShown, muted, notifyOn, onPrefs, setChatShown, setCoords, setMuted, setNotify, setTabMark, setTheme,
  setXiangqiNotation, tabMark, themeChoice, xiangqiNotation, XQ_NOTATIONS } from "./prefs.js";
import { askNotify, notifyPermission, notifySupported } from "./tabalert.js";

export function settingsPage(app, { me }) {
  if (!me) { app.replaceChildren(el("p", {}, el("a", { href: "/login?next=/settings" }, t("settings.signin")))); return; }
  const field = (label, input, hint) => el("label", { class: "field" }, el("span", {}, label), input,
    hint ? el("small", { class: "muted" }, hint) : null);
  // the language: kept in this browser (as the header's 中文 / EN button), the page redrawn in it
  const pick = el("select", { id: "settings-lang", name: "lang" },
    el("option", { value: "zh", selected: lang === "zh" ? true : null }, "中文"),
    el("option", { value: "en", selected: lang === "en" ? true : null }, "English"));
  pick.onchange = () => { localStorage.setItem("lang", pick.value); location.reload(); };
  // the theme, the sound and the coordinates, as the header's buttons and the boards' switch set
  // them: a change here shows there at once, and the other way round
  const choose = (id, options, value, set) => {
    const sel = el("select", { id }, options.map(([v, label]) => el("option", { value: v }, label)));
    sel.value = value();
    sel.onchange = () => set(sel.value);
    onPrefs(() => { sel.value = value(); });
    return sel;
  };
  const theme = choose("settings-theme", ["auto", "dark", "light"].map((v) => [v, t(`settings.theme.${v}`)]),
    themeChoice, setTheme);
  const sound = choose("settings-sound", [["on", t("settings.on")], ["off", t("settings.off")]],
    () => (muted() ? "off" : "on"), (v) => setMuted(v === "off"));
  const coords = choose("settings-coords", [["on", t("settings.shown")], ["off", t("settings.hidden")]],
    () => (coordsShown() ? "on" : "off"), (v) => setCoords(v === "on"));
  const chat = choose("settings-chat", [["on", t("settings.shown")], ["off", t("settings.hidden")]],
    () => (chatShown() ? "on" : "off"), (v) => setChatShown(v === "on"));
  // the xiangqi notation of the move list and the replays: Chinese, WXF or ICCS (by default the
  // page language's)
  const example = { zh: "炮二平五", wxf: "C2=5", iccs: "h2e2" };
  const xq = choose("settings-xq-notation", XQ_NOTATIONS.map((v) => [v, t(`settings.xqNotation.${v}`) + paren(example[v])]),
    () => xiangqiNotation(lang), setXiangqiNotation);
  const language = el("section", { class: "card-box", id: "settings-language" },
    el("h3", {}, t("settings.display")),
    el("form", { class: "stack auth-form", id: "display-form", onsubmit: (e) => e.preventDefault() }, field(t("settings.language"), pick, t("settings.languagehint")),
      field(t("settings.theme"), theme), field(t("sound.label"), sound),
      field(t("coords"), coords, t("settings.coordshint")), field(t("settings.chat"), chat, t("settings.chathint")),
      field(t("settings.xqNotation"), xq, t("settings.xqNotationhint"))));
  // your turn in a background tab: the tab's icon marked (on by default); a desktop notification
  // (off by default: turned on, the browser asks its permission; refused, it stays off and says why)
  const mark = choose("settings-tabmark", [["on", t("settings.on")], ["off", t("settings.off")]],
    () => (tabMark() ? "on" : "off"), (v) => setTabMark(v === "on"));
  const notifySaid = el("small", { class: "muted", id: "settings-notify-said", role: "status" },
    notifySupported() ? t("settings.notifyhint") : t("settings.notifyNone"));
  const notify = choose("settings-notify", [["on", t("settings.on")], ["off", t("settings.off")]],
    () => (notifyOn() && notifySupported() ? "on" : "off"), async (v) => {
      if (v !== "on") { setNotify(false); return; }
      const answer = await askNotify();
      setNotify(answer === "granted");
      permitted(answer);
    });
  // what the browser allows: turned on but no longer allowed (the site's permission taken back
  // in the browser), the row says off and why
  const permitted = (answer) => {
    if (answer !== "granted") notify.value = "off";
    notifySaid.textContent = t(answer === "granted" || answer === "default" ? "settings.notifyhint"
      : answer === "unsupported" ? "settings.notifyNone" : "settings.notifyBlocked");
    notifySaid.className = answer === "granted" || answer === "default" ? "muted" : "error";
  };
  if (!notifySupported()) notify.disabled = true;
  else if (notifyOn()) notifyPermission().then(permitted);
  const alerts = el("section", { class: "card-box", id: "settings-alerts" },
    el("h3", {}, t("settings.alerts")),
    el("form", { class: "stack auth-form", id: "alerts-form", onsubmit: (e) => e.preventDefault() },
      field(t("settings.tabmark"), mark, t("settings.tabmarkhint")),
      el("label", { class: "field" }, el("span", {}, t("settings.notify")), notify, notifySaid)));
  const pw = (name, auto) => el("input", { type: "password", name, autocomplete: auto, required: true, maxLength: 200 });
  const current = pw("current", "current-password"), fresh = pw("new", "new-password"), again = pw("again", "new-password");
  fresh.minLength = again.minLength = 8;
  const said = el("div", { role: "status", id: "settings-said" });
  const submit = el("button", { class: "primary", type: "submit", id: "settings-save" }, t("settings.change"));
  const form = el("form", { class: "stack auth-form", id: "password-form" },
    el("input", { type: "text", name: "username", autocomplete: "username", value: me.username, hidden: true }),
    field(t("settings.current"), current), field(t("settings.new"), fresh, t("auth.passwordhint")),
    field(t("settings.again"), again), submit, said);
  form.onsubmit = async (ev) => {
    ev.preventDefault();
    said.className = "error";
    if (fresh.value !== again.value) { said.textContent = t("settings.mismatch"); return; }
    submit.disabled = true;
    try {
      await api("POST", "/api/me/password", { current: current.value, new: fresh.value });
      form.reset();
      said.className = "ok";
      said.textContent = t("settings.changed");
    } catch (e) {
      said.textContent = errorText(e);
    } finally {
      submit.disabled = false;
    }
  };
  app.replaceChildren(el("h2", {}, t("settings.title")), language, alerts,
    el("section", { class: "card-box", id: "settings-password" }, el("h3", {}, t("settings.password")), form));
}
