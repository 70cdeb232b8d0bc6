"""The message catalogues (qipai.i18n): both languages have every key, templates agree on
their parameters, and the server serves them and answers errors with codes."""

from __future__ import annotations

import ast
import json
import random
import re
from pathlib import Path

import pytest

import qipai
from qipai import i18n
from qipai.core.errors import IllegalAction, Message
from tests.server_helpers import client


def test_both_catalogues_have_the_same_keys():
    en, zh = i18n.catalogue("en"), i18n.catalogue("zh")
    assert sorted(set(en) - set(zh)) == [], "keys missing from zh.json"
    assert sorted(set(zh) - set(en)) == [], "keys missing from en.json"


def test_chinese_templates_use_only_parameters_the_english_ones_name():
    # a translation may leave a parameter out (an English word the sentence says otherwise),
    # never ask for one the message does not carry
    en, zh = i18n.catalogue("en"), i18n.catalogue("zh")
    differ = {k: (i18n.fields(en[k]), i18n.fields(zh[k])) for k in en
              if k in zh and not i18n.fields(zh[k]) <= i18n.fields(en[k])}
    assert differ == {}


def test_no_chinese_template_is_left_in_english():
    # a Chinese entry may hold notation or digits, never a sentence of English words
    zh = i18n.catalogue("zh")
    names = re.compile(r"OpenSpiel|RLCard|Botzone|qipai")     # names of things, not words
    english = {k: v for k, v in zh.items()
               if re.search(r"[A-Za-z]{4,}", names.sub("", i18n._FIELD.sub("", v)))
               and not re.search(r"[\u4e00-\u9fff]", v)}
    assert english == {}


def test_no_english_template_holds_chinese():
    en = i18n.catalogue("en")
    assert {k: v for k, v in en.items() if re.search(r"[\u3400-\u9fff]", v)} == {}


def test_fill_and_fallbacks():
    assert i18n.t("resign", lang="zh") == "认输"
    assert i18n.t("resign", lang="en") == "Resign"
    assert i18n.t("no.such.key", lang="zh") == "no.such.key"
    assert i18n.t("no.such.key", lang="zh", default="x") == "x"
    assert i18n.fill("{a} and {b}", {"a": 1}) == "1 and {b}"
    assert i18n.fill("{a}", {"a": [1, 2]}) == "1, 2"
    assert i18n.fill("{s|status}", {"s": "finished"}, "zh") == i18n.t("status.finished", lang="zh")
    assert i18n.language("zh-CN,zh;q=0.9,en;q=0.8") == "zh"
    assert i18n.language("en-GB") == "en" and i18n.language(None) == "en"
    with pytest.raises(KeyError):
        i18n.catalogue("fr")


def test_the_server_serves_the_catalogues(tmp_path):
    c = client(tmp_path)
    r = c.get("/api/i18n/zh")
    assert r.status_code == 200 and r.json() == i18n.catalogue("zh")
    r = c.get("/api/i18n/fr")
    assert r.status_code == 404
    body = r.json()
    assert body["error"] == body["code"] == "no_language" and body["params"] == {"lang": "fr"}
    assert i18n.has("error.no_language", "zh")


# ----- the referee's refusals and end reasons ---------------------------------------------------
QIPAI = Path(qipai.__file__).resolve().parent


def _refusal_sites():
    """Every ``raise IllegalAction(...)`` and ``Message(...)`` call in the package: (where, code
    literal or None, parameter names or None when not a dict literal, first argument node)."""
    for path in sorted(QIPAI.rglob("*.py")):
        tree = ast.parse(path.read_text("utf-8"))
        for node in ast.walk(tree):
            kind = getattr(node.func, "id", None) if isinstance(node, ast.Call) else None
            if kind not in ("IllegalAction", "Message"):
                continue
            kw = {k.arg: k.value for k in node.keywords}
            code = kw.get("code")
            params = kw.get("params")
            names = set()
            if params is not None:
                names = None      # not a literal dict, or one with ** parts: names unknown
                if isinstance(params, ast.Dict) and None not in params.keys:
                    names = {k.value for k in params.keys}
            yield (f"{path.relative_to(QIPAI)}:{node.lineno}", node.func.id,
                   code.value if isinstance(code, ast.Constant) else code, names,
                   node.args[0] if node.args else None)


def test_every_refusal_has_a_code_in_both_catalogues():
    en, zh = i18n.catalogue("en"), i18n.catalogue("zh")
    problems = []
    sites = list(_refusal_sites())
    assert len(sites) > 300
    for where, kind, code, names, first in sites:
        if kind == "IllegalAction" and code is None:
            # no code: the reason must be a computed Message, never literal text
            if isinstance(first, (ast.Constant, ast.JoinedStr)):
                problems.append(f"{where}: literal reason without code=")
            continue
        if not isinstance(code, str):
            problems.append(f"{where}: code is not a literal")
            continue
        for cat, lang in ((en, "en"), (zh, "zh")):
            key = f"refusal.{code}"
            if key not in cat:
                problems.append(f"{where}: {key} missing from {lang}.json")
            elif names is not None and not i18n.fields(cat[key]) <= names:
                problems.append(f"{where}: {lang}.json {key} names {i18n.fields(cat[key]) - names}, "
                                "which the raise does not give")
    assert problems == []


def _check_refusal(e: IllegalAction, seen: set[str]) -> None:
    seen.add(e.code)
    for lang in ("en", "zh"):
        key = f"refusal.{e.code}"
        assert i18n.has(key, lang), f"{key} ({e.reason!r}) missing from {lang}.json"
        text = e.text(lang)
        assert "{" not in text or "{" in e.reason, (key, text, e.params)


@pytest.mark.parametrize("game_id", [g.id for g in qipai.games() if not g.id.startswith("test-")])
def test_playouts_raise_catalogued_codes_and_end_reasons(game_id):
    """Seeded random playouts: every refusal met on the way (garbage text, another seat's turn,
    a finished game) and every end reason reached, resign and timeout included, has an entry in
    both catalogues, and the Chinese refusal leaves no parameter unfilled."""
    game = qipai.load(game_id, **({"board_size": 9} if game_id == "go" else {}))
    seen: set[str] = set()
    for seed in range(2):
        rng = random.Random(seed)
        state = game.new_state(seed=seed)
        for _ in range(600):
            if state.is_terminal():
                break
            seat = rng.choice(state.to_act)
            for text in ("@@", "bid 9", "h2h9", "99,99", "S", "pass"):
                try:
                    state.clone().apply(text, seat=seat)
                except IllegalAction as e:
                    _check_refusal(e, seen)
            others = [s for s in range(state.num_seats) if s not in state.to_act]
            if others:
                try:
                    state.clone().apply(state.legal_actions(seat)[0], seat=others[0])
                except IllegalAction as e:
                    _check_refusal(e, seen)
            state.apply(rng.choice(state.legal_actions(seat)), seat=seat)
        if state.is_terminal():
            for lang in ("en", "zh"):
                assert i18n.has(f"end.{state.result.reason}", lang), state.result.reason
            with pytest.raises(IllegalAction) as over:
                state.resign(0)
            _check_refusal(over.value, seen)
    for reason in ("resign", "timeout"):
        state = game.new_state(seed=3)
        state.forfeit(0, reason)
        for lang in ("en", "zh"):
            assert i18n.has(f"end.{state.result.reason}", lang), state.result.reason
    assert seen - {"illegal"}, "no refusal was met"


def test_an_illegal_action_carries_code_and_params():
    state = qipai.load("xiangqi").new_state()
    with pytest.raises(IllegalAction) as e:
        state.apply("a0a5")
    assert e.value.code and e.value.code != "illegal"
    assert e.value.text("zh") != e.value.reason
    assert json.loads(json.dumps(e.value.params)) == e.value.params
    m = Message("you must follow with suit S", code="shengji.must_follow", params={"suit_name": "S"})
    assert m == "you must follow with suit S"
    err = IllegalAction(m)
    assert (err.code, err.params, err.reason) == ("shengji.must_follow", {"suit_name": "S"}, m)
    assert err.text("zh") == "你必须跟黑桃"
    assert IllegalAction("free text").code == "illegal"


# ----- the server's error codes and close reasons ---------------------------------------------
_ERROR_CALLS = {"ApiError": 1, "refusal": 1, "ws_error": 0, "ChatRefused": 0, "_reply_error": 2}


def _server_codes():
    """(where, code, keyword names or None) of every error the server and the match layer
    answer with a literal code, and (where, reason) of every WebSocket close reason."""
    codes, closes = [], []
    for sub in ("server", "match"):
        for path in sorted((QIPAI / sub).rglob("*.py")):
            tree = ast.parse(path.read_text("utf-8"))
            rel = path.relative_to(QIPAI)
            for node in ast.walk(tree):
                if isinstance(node, ast.Call):
                    f = node.func
                    name = getattr(f, "id", None) or getattr(f, "attr", None)
                    i = _ERROR_CALLS.get(name)
                    if i is not None and len(node.args) > i and isinstance(node.args[i], ast.Constant):
                        names = {k.arg for k in node.keywords if k.arg not in ("headers", "status")}
                        if any(k.arg is None for k in node.keywords):
                            names = None
                        if name == "_reply_error":
                            names = set()
                            if len(node.args) > 3 and isinstance(node.args[3], ast.Dict):
                                names = {k.value for k in node.args[3].keys}
                        codes.append((f"{rel}:{node.lineno}", node.args[i].value, names))
                if isinstance(node, ast.Assign) and isinstance(node.targets[0], ast.Name) \
                        and node.targets[0].id.startswith("CLOSE_") and isinstance(node.value, ast.Tuple):
                    closes.append((f"{rel}:{node.lineno}", node.value.elts[1].value))
                if isinstance(node, ast.Dict):
                    keys = [k.value if isinstance(k, ast.Constant) else None for k in node.keys]
                    values = [getattr(v, "value", None) for v in node.values]
                    if "websocket.close" in values and "reason" in keys:
                        closes.append((f"{rel}:{node.lineno}", node.values[keys.index("reason")].value))
    return codes, closes


def test_every_server_error_and_close_reason_is_in_both_catalogues():
    from qipai.server.errors import HTTP_CODES

    codes, closes = _server_codes()
    assert len(codes) > 50 and len(closes) >= 8
    codes += [("errors.HTTP_CODES", c, set()) for c in HTTP_CODES.values()]
    problems = []
    for lang in ("en", "zh"):
        cat = i18n.catalogue(lang)
        for where, code, names in codes:
            key = f"error.{code}"
            if key not in cat:
                problems.append(f"{where}: {key} missing from {lang}.json")
            elif names is not None and not i18n.fields(cat[key]) <= names:
                problems.append(f"{where}: {lang}.json {key} needs {i18n.fields(cat[key]) - names}")
        problems += [f"{where}: close.{r} missing from {lang}.json" for where, r in closes
                     if f"close.{r}" not in cat]
    assert problems == []


# ----- options, clocks, presets ------------------------------------------------------------------
def test_every_option_value_clock_and_preset_has_words_in_both_languages():
    from qipai.competition.config import preset_names
    from qipai.match import CLOCK_PRESETS

    keys = []
    for info in qipai.games():
        if info.id.startswith("test-"):       # the tests' own games (tests/match_games.py)
            continue
        for o in info.to_json()["options"]:
            keys.append(f"option.{info.id}.{o['name']}")
            keys.append(f"optdoc.{info.id}.{o['name']}")      # the option's help, for players
            keys += [f"value.{info.id}.{o['name']}.{c}" for c in o.get("choices") or []
                     if isinstance(c, str) and not c.isdigit()]
    keys += [f"clock.{name}" for name in CLOCK_PRESETS]
    keys += [f"preset.{name}" for name in preset_names()]
    assert len(keys) > 250
    for lang in ("en", "zh"):
        assert [k for k in keys if not i18n.has(k, lang)] == [], lang


# ----- the web client's own words ----------------------------------------------------------------
WEB = QIPAI / "server" / "web"
_T_CALL = re.compile(r"""(?<![\w.])(ctx\.t|t|tr)\(\s*["']([\w.-]+)["']""")


def test_every_key_the_page_asks_for_is_in_both_catalogues():
    """Every literal key of a t("...") call in the web client, and every word a board asks its
    own table for (tr("...") in a board made with table("<prefix>"): key "<prefix>.<word>"), is in
    both catalogues. Keys built at run time (t(`status.${s}`)) are checked by the tests of what
    they name (statuses, options, end reasons ...)."""
    missing = []
    files = sorted([*WEB.glob("*.js"), *WEB.glob("boards/*.js")])
    assert len(files) > 20
    for path in files:
        src = path.read_text("utf-8")
        prefix = re.search(r"""table\(["']([\w-]+)["']\)""", src)
        for m in _T_CALL.finditer(src):
            fn, key = m.groups()
            if key.endswith((".", "_")):
                continue                      # the start of a key built at run time
            if fn == "tr" and prefix:
                key = f"{prefix.group(1)}.{key}"
            for lang in ("en", "zh"):
                if not i18n.has(key, lang):
                    missing.append(f"{path.name}: {key} ({lang})")
    assert missing == []
