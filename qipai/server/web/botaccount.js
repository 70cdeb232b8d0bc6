// Bots and API tokens (/account/bots): the signed-in account and the bot accounts it created,
// making one (or marking one's own account a bot, for good), and their tokens: made with scopes
// and a note, the secret shown once, revoked. Everything goes through /api/account/... (the
// cookie session; a token cannot manage tokens).

import { api, el, errorText, t } from "./app.js";
import { localDate } from "./history.js";     // in the page's language, as the history says it
import { ask } from "./ask.js";

export async function botsPage(app, { me }) {
  if (!me) { app.replaceChildren(el("a", { href: "/login?next=/account/bots" }, t("bots.signin"))); return; }
  const status = el("div", { class: "error", role: "alert", id: "bots-error" });
  const secretBox = el("div", { id: "bots-secret" });
  const accountsBox = el("section", { class: "card-box", id: "bots-accounts" });
  const tokensBox = el("section", { class: "card-box", id: "bots-tokens" });
  const newBox = el("section", { class: "card-box", id: "bots-new-token" });
  const fail = (e) => { status.textContent = errorText(e); };

  async function load() {
    status.textContent = "";
    const data = await api("GET", "/api/account/tokens");
    const own = data.accounts.find((a) => a.own);
    accountsBox.replaceChildren(...[el("h3", {}, t("bots.accounts")),     // no null: it would read "null"
      el("ul", {}, data.accounts.map((a) => el("li", { "data-account": a.username }, a.username, " ",
        el("span", { class: "badge" }, a.bot ? t("bots.isbot") : t("bots.person")),
        a.own ? el("span", { class: "muted" }, " · ", t("bots.you")) : null))),
      own && !own.bot ? el("p", {}, el("button", { id: "mark-bot", onclick: async () => {
        if (!await ask({ text: t("bots.markbot.confirm"), yes: t("bots.markbot"), no: t("cancel") })) return;
        try { await api("POST", "/api/account/bot"); await load(); } catch (e) { fail(e); }
      } }, t("bots.markbot"))) : null,
      own && !own.bot ? newBotForm() : null].filter(Boolean));
    tokensBox.replaceChildren(el("h3", {}, t("bots.tokens")), data.tokens.length ? el("div", { class: "scroll" },
      el("table", { class: "list", id: "token-list" },
        el("thead", {}, el("tr", {}, el("th", {}, t("bots.account")), el("th", {}, t("bots.scopes")),
          el("th", {}, t("bots.description")), el("th", {}, ""), el("th", {}, ""))),
        el("tbody", {}, data.tokens.map((tok) => el("tr", { "data-token": tok.id },
          el("td", {}, tok.account), el("td", { title: tok.scopes.map((s) => t(`bots.scope.${s}.doc`)).join("\n") }, tok.scopes.map((s) => t(`bots.scope.${s}`)).join(t("bots.scope.sep"))), el("td", {}, tok.description),
          el("td", { class: "muted date" }, t("bots.created", { date: localDate(tok.created) })),
          el("td", { class: "actions" }, el("button", { onclick: async () => {
            if (!await ask({ text: t("bots.revoke.confirm"), yes: t("bots.revoke"), no: t("cancel") })) return;
            try { await api("DELETE", `/api/account/tokens/${tok.id}`); secretBox.replaceChildren(); await load(); } catch (e) { fail(e); }
          } }, t("bots.revoke")))))))) : el("p", { class: "muted" }, t("bots.none")));
    newBox.replaceChildren(el("h3", {}, t("bots.newtoken")), tokenForm(data));
  }

  function newBotForm() {
    const name = el("input", { name: "username", required: true, maxlength: 32, autocomplete: "off" });
    return el("form", { id: "new-bot", onsubmit: async (ev) => {
      ev.preventDefault();
      try { await api("POST", "/api/account/bots", { username: name.value }); name.value = ""; await load(); } catch (e) { fail(e); }
    } }, el("h3", {}, t("bots.newbot")), el("div", { class: "form-grid" },
      el("label", { class: "field" }, el("span", {}, t("bots.username")), name)),
    el("button", { type: "submit" }, t("bots.create")));
  }

  function tokenForm(data) {
    const account = el("select", { name: "account" }, data.accounts.map((a) => el("option", { value: a.username }, a.username)));
    const note = el("input", { name: "description", maxlength: 100, autocomplete: "off" });
    // each scope in words, what it lets the token do in the tooltip (docs/server.md has the codes)
    const boxes = data.scopes.map((s) => el("label", { title: t(`bots.scope.${s}.doc`) }, el("input", { type: "checkbox", name: "scope", value: s }), " ",
      t(`bots.scope.${s}`)));
    // what is wrong with this form is said beside it, not at the top of the page
    const said = el("div", { class: "error", role: "alert", id: "token-form-error" });
    return el("form", { id: "token-form", onsubmit: async (ev) => {
      ev.preventDefault();
      said.textContent = "";
      const scopes = boxes.map((b) => b.querySelector("input")).filter((i) => i.checked).map((i) => i.value);
      if (!scopes.length) { said.textContent = t("bots.scopes.none"); boxes[0].querySelector("input").focus(); return; }
      try {
        const made = await api("POST", "/api/account/tokens", { account: account.value, scopes, description: note.value });
        await load();
        secretBox.replaceChildren(el("section", { class: "card-box" }, el("p", {}, t("bots.secret")),
          el("p", {}, el("code", { id: "token-secret", class: "secret" }, made.token)), el("p", { class: "muted" }, t("bots.secret.once"))));
      } catch (e) { said.textContent = errorText(e); }
    } }, el("div", { class: "form-grid" },
      el("label", { class: "field" }, el("span", {}, t("bots.account")), account),
      el("label", { class: "field wide" }, el("span", {}, t("bots.description")), note),
      el("div", { class: "field wide" }, el("span", {}, t("bots.scopes")), ...boxes)),
    said, el("button", { type: "submit", class: "primary" }, t("bots.make")));
  }

  app.replaceChildren(el("h2", {}, t("bots.title")), el("p", { class: "muted" }, t("bots.intro")), status, secretBox,
    accountsBox, tokensBox, newBox);
  await load().catch(fail);
}
