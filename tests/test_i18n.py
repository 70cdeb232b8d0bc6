"""The message catalogues (qipai.i18n): both languages have every key, templates agree on
their parameters, and the server serves them and answers errors with codes."""

from __future__ import annotations

import ast
import functools
import json
import random
import re
from pathlib import Path

import pytest

import qipai
from qipai import i18n
from qipai.core.errors import IllegalAction, Message
from tests.refusals import playout_turns, refusals_at
from tests.server_helpers import client, post, signup


def _plural_forms(cat: dict[str, str], form: str) -> set[str]:
    """The keys of ``cat`` that are the ``form`` plural form of a message with an ``other`` one."""
    return {k for k in cat if k.endswith(f".{form}") and f"{k[:-len(form)]}other" in cat}


def _fields(cat: dict[str, str], key: str) -> set[str]:
    """The parameters ``key``'s template names, over all its plural forms."""
    if key in cat:
        return i18n.fields(cat[key])
    return {f for form in ("one", "other") for f in i18n.fields(cat.get(f"{key}.{form}", ""))}


def test_both_catalogues_have_the_same_keys():
    # a plural message has the forms its language has: English one and other, Chinese other only
    en, zh = i18n.catalogue("en"), i18n.catalogue("zh")
    assert sorted(set(en) - set(zh) - _plural_forms(en, "one")) == [], "keys missing from zh.json"
    assert sorted(set(zh) - set(en)) == [], "keys missing from en.json"
    assert _plural_forms(zh, "one") == set(), "Chinese has no singular form"


_NOUN = re.compile(r"\{(\w+)\} (?:[a-z-]+ )?(cards|points|tricks|players|pairs|warnings|strikes|periods|"
                   r"timeouts|events|entrants|deals|melds|copies|passes|fans|trios|minutes|"
                   r"destinations|tokens|accounts|streams)\b")


def test_english_counts_agree_with_their_number():
    """"1 tricks" never: an English message that counts a noun has a singular form; the page and
    the server pick the form of the count."""
    en = i18n.catalogue("en")
    counting = {k for k, v in en.items() if _NOUN.search(v) and not k.endswith(".other")
                and not re.search(r"\((\w+ )?\d|at least \{", v)}
    # a count that is never 1 (seats of a game, a table's size, a pack) keeps one template
    never_one = {"lobby.players", "refusal.game.seats", "refusal.shengji.bury_exactly_cards_not",
                 "refusal.shengji.dealer_buries_cards_bury", "refusal.sandayi.bury_exactly_different_cards"}
    assert sorted(counting - never_one) == []
    assert [k for k, v in en.items() if re.search(r"\w\(s\)", v)] == []
    assert i18n.t("sdy.won", {"n": 1}) == "1 trick" and i18n.t("sdy.won", {"n": 2}) == "2 tricks"
    assert i18n.t("sdy.won", {"n": 1}, lang="zh") == i18n.t("sdy.won", {"n": 2}, lang="zh").replace("2", "1")
    assert i18n.t("ddz.bid", {"n": "1"}) == "1 point"             # a count given as text
    # no n: the first number counts
    assert i18n.t("clk.canadian", {"moves": 1, "time": "5:00"}) == "1 move in 5:00"
    assert i18n.has("sdy.won", "zh") and i18n.has("sdy.won", "en") and not i18n.has("sdy.wo")


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


def test_english_statuses_are_capitalised():
    """A status stands alone (a table's status line, the lobby's and the event list's status
    column, an event's heading, the referee's and the registration's lists): in English it starts
    with a capital, as "Your turn" does ("waiting" beside "Your turn" read as a slip). The pills
    beside a name ("casual", "playing", "disqualified") stay lower case, as badges are."""
    en = i18n.catalogue("en")
    line = ("open", "playing", "finished", "aborted", "spectator", "waiting", "yourturn")
    keys = [k for k in en if k in line or k.startswith(("status.", "ref.status.", "reg.status."))]
    assert len(keys) > 20
    assert {k: en[k] for k in keys if not en[k][:1].isupper()} == {}


def test_a_chosen_value_fits_a_phones_select():
    """The words of a value chosen in a box (the new-event form's fields, a game's options, a
    clock, a preset's name before its colon) fit the box on a 390 px phone: 286 px of text in
    Chromium, about 37 letters (a Han character is two). "extra games one at a time until one is
    won" stood cut off in the form's "When a match ends level"."""
    import unicodedata

    def width(text):
        return sum(2 if unicodedata.east_asian_width(c) in "WF" else 1 for c in text)

    long = {}
    for lang in i18n.LANGS:
        for k, v in i18n.catalogue(lang).items():
            if k.startswith(("fieldvalue.", "value.", "clock.", "preset.")):
                shown = re.split(r"[:：]", v)[0] if k.startswith("preset.") else v
                if width(shown) > 37:
                    long[f"{lang} {k}"] = shown
    assert long == {}


HAN = r"[\u3400-\u9fff\u3000-\u303f\uff00-\uffef]"       # Han characters and Chinese punctuation


def test_chinese_templates_use_full_width_brackets():
    """Chinese text takes （）: no ASCII bracket touches a Han character or holds one. Notation in
    ASCII brackets after a space stays: "暗杠写作 (5555p)"."""
    zh = i18n.catalogue("zh")
    touching = re.compile(rf"{HAN}[()]|[()]{HAN}|\([^()]*{HAN}[^()]*\)")
    assert {k: v for k, v in zh.items() if touching.search(v)} == {}
    spaced = re.compile(r"（\s|\s）")                  # "机器人（ 规则型 ）": nothing spaced inside
    assert {k: v for k, v in zh.items() if spaced.search(v)} == {}


def test_the_page_brackets_words_through_paren():
    """The web client puts a word after a name in brackets with i18n.js's paren (（…） in Chinese),
    never with a literal " (${...})" that shows ASCII brackets in the Chinese page, at the start of
    a template or inside one (junqi's legend "司令 (40)")."""
    literal = re.compile(r" \(\$\{")
    found = [f"{p.name}: {line.strip()}" for p in sorted([*WEB.glob("*.js"), *WEB.glob("boards/*.js")])
             for line in p.read_text("utf-8").splitlines() if literal.search(line) and "paren" not in line]
    assert found == []


def test_chinese_templates_use_full_width_punctuation():
    """Chinese text takes ：。，；: no ASCII ':' '.' ',' ';' follows a Han character or a
    placeholder that ends a Chinese phrase ("下载:", "马2进1. 轮到你了"), and the page's colon is
    full width. Notation stays ASCII: "{q},{r}" between two numbers, "1.5"."""
    zh = i18n.catalogue("zh")
    after = re.compile(rf"{HAN}[:.,;]")
    assert {k: v for k, v in zh.items() if after.search(v)} == {}
    assert zh["colon"] == "："


def test_the_page_joins_a_label_and_its_words_with_the_catalogues_colon():
    """A label and what follows it ("你: …", "上一步: 北 e9–e4") are joined with t("colon") (： in
    Chinese), never with a literal ": " after a word of the catalogue in a template or a sum."""
    literal = re.compile(r"\}: \$\{|\) \+ \": \"|\? \": \" :|\"chat-sep\", \": \"")
    found = [f"{p.name}: {line.strip()}" for p in sorted([*WEB.glob("*.js"), *WEB.glob("boards/*.js")])
             for line in p.read_text("utf-8").splitlines() if literal.search(line)]
    assert found == []


def test_the_page_has_one_paren():
    """One JavaScript paren, i18n.js's (it takes a language where a module words text in another
    than the page's, as result.js does); qipai.i18n.results keeps the Python twin."""
    defining = [p.name for p in sorted([*WEB.glob("*.js"), *WEB.glob("boards/*.js")])
                if re.search(r"(?:const|let|var|function)\s+paren\b", p.read_text("utf-8"))]
    assert defining == ["i18n.js"]


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


_CODED = ("IllegalAction", "Message", "OptionError", "NotationError")


def _message_makers(tree: ast.AST) -> set[str]:
    """The names of a module's functions that return a Message (``-> Message``)."""
    return {f.name for f in ast.walk(tree) if isinstance(f, ast.FunctionDef)
            and f.returns is not None and ast.unparse(f.returns) == "Message"}


@functools.cache
def _tree(path: Path) -> ast.Module:
    """The parsed source of one of the package's files, parsed once per test process."""
    return ast.parse(path.read_text("utf-8"))


def _refusal_sites():
    """Every ``IllegalAction(...)``, ``OptionError(...)``, ``NotationError(...)`` and
    ``Message(...)`` call in the package: (where, kind, code literal or None, parameter names or
    None when not a dict literal, first argument node). A first argument made by a function of
    the module that returns a Message counts as a Message."""
    for path in sorted(QIPAI.rglob("*.py")):
        if path == QIPAI / "core" / "errors.py":
            continue                # where a given code becomes a Message (OptionError(code=...))
        tree = _tree(path)
        makers = _message_makers(tree)
        for node in ast.walk(tree):
            kind = getattr(node.func, "id", None) if isinstance(node, ast.Call) else None
            if kind not in _CODED:
                continue
            first = node.args[0] if node.args else None
            if isinstance(first, ast.Call) and getattr(first.func, "id", None) in makers:
                continue            # the maker's own Message(...) call is the site
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
        if kind in ("OptionError", "NotationError") and code is None:
            # the English text is for Python users; a reader of the page needs a code
            if not (isinstance(first, ast.Call) and getattr(first.func, "id", None) == "Message"):
                problems.append(f"{where}: {kind} without code=")
            continue
        if kind == "IllegalAction" and code is None:
            # no code: the reason must be a computed Message, never literal text
            if isinstance(first, (ast.Constant, ast.JoinedStr)):
                problems.append(f"{where}: literal reason without code=")
            continue
        codes = [code] if isinstance(code, str) else _prefixed_codes(where, code)
        if not codes:
            problems.append(f"{where}: code is not a literal")
            continue
        for one in codes:
            for cat, lang in ((en, "en"), (zh, "zh")):
                key = f"refusal.{one}"
                if not i18n.has(key, lang):
                    problems.append(f"{where}: {key} missing from {lang}.json")
                elif names is not None and not _fields(cat, key) <= names:
                    problems.append(f"{where}: {lang}.json {key} names {_fields(cat, key) - names}, "
                                    "which the raise does not give")
    assert problems == []


def _prefixed_codes(where: str, code: ast.AST) -> list[str]:
    """The codes of a shared helper's refusal whose code is ``f"{prefix}.what"`` with ``prefix``
    the helper's first parameter (:func:`qipai.cards.beats.why_not_higher`): ``<game>.what`` for
    the literal first argument of every call of that helper in the package. Empty when the code
    is not of that shape or nothing calls the helper."""
    if not (isinstance(code, ast.JoinedStr) and len(code.values) == 2
            and isinstance(code.values[0], ast.FormattedValue) and isinstance(code.values[0].value, ast.Name)
            and isinstance(code.values[1], ast.Constant)):
        return []
    path, line = where.rsplit(":", 1)
    tree = _tree(QIPAI / path)
    helper = next((f for f in ast.walk(tree) if isinstance(f, ast.FunctionDef)
                   and f.lineno <= int(line) <= f.end_lineno and f.args.args
                   and f.args.args[0].arg == code.values[0].value.id), None)
    if helper is None:
        return []
    trees = [_tree(p) for p in QIPAI.rglob("*.py")]
    prefixes = {node.args[0].value for t in trees for node in ast.walk(t)
                if isinstance(node, ast.Call) and getattr(node.func, "id", None) == helper.name
                and node.args and isinstance(node.args[0], ast.Constant)}
    return [f"{x}{code.values[1].value}" for x in sorted(prefixes)]


def _check_refusal(e: IllegalAction, seen: set[str]) -> None:
    seen.add(e.code)
    for lang in ("en", "zh"):
        key = f"refusal.{e.code}"
        assert i18n.has(key, lang), f"{key} ({e.reason!r}) missing from {lang}.json"
        text = e.text(lang)
        assert "{" not in text or "{" in e.reason, (key, text, e.params)


def test_every_declared_end_reason_has_words():
    """A game's END_REASONS (xiangqi's) each have words in both catalogues: a reason a random
    playout rarely reaches (xiangqi's insufficient material) read as its code on the event page
    ("draw — insufficient_material")."""
    missing = []
    for path in sorted((QIPAI / "games").rglob("*.py")):
        m = re.search(r"^END_REASONS\s*=\s*\(([^)]*)\)", path.read_text("utf-8"), re.M)
        for reason in re.findall(r'"([\w-]+)"', m.group(1)) if m else []:
            missing += [f"{lang} end.{reason}" for lang in i18n.LANGS if not i18n.has(f"end.{reason}", lang)]
    assert missing == []


@pytest.mark.parametrize("game_id", [g.id for g in qipai.games() if not g.id.startswith("test-")])
def test_playouts_raise_catalogued_codes_and_end_reasons(game_id):
    """Seeded random playouts: every refusal met on the way (garbage text, another seat's turn,
    a finished game) and every end reason reached, resign and timeout included, has an entry in
    both catalogues, and the Chinese refusal leaves no parameter unfilled."""
    game = qipai.load(game_id, **({"board_size": 9} if game_id == "go" else {}))
    seen: set[str] = set()
    for state, seat in playout_turns(game, 600):
        if seat is None:                    # a playout's end
            if state.is_terminal():
                for lang in ("en", "zh"):
                    assert i18n.has(f"end.{state.result.reason}", lang), state.result.reason
                with pytest.raises(IllegalAction) as over:
                    state.resign(0)
                _check_refusal(over.value, seen)
            continue
        tries = [(text, seat) for text in ("@@", "bid 9", "h2h9", "99,99", "S", "pass")]
        others = [s for s in range(state.num_seats) if s not in state.to_act]
        if others:
            tries.append((state.legal_actions(seat)[0], others[0]))
        for _, e in refusals_at(state, tries):
            _check_refusal(e, seen)
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
            tree = _tree(path)
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
                        reason = node.values[keys.index("reason")]
                        # a literal is checked here; CLOSE_X[1] where its CLOSE_X tuple is made; the
                        # relay passes on the owning worker's own close, checked where that is made
                        if isinstance(reason, ast.Constant):
                            closes.append((f"{rel}:{node.lineno}", reason.value))
                        else:
                            named = isinstance(reason, ast.Subscript) and isinstance(reason.value, ast.Name) \
                                and reason.value.id.startswith("CLOSE_")
                            where = f"{rel}:{node.lineno}: {ast.unparse(reason)}"
                            assert named or str(rel) == "server/relay.py", where
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
            if not i18n.has(key, lang):
                problems.append(f"{where}: {key} missing from {lang}.json")
            elif names is not None and not _fields(cat, key) <= names:
                problems.append(f"{where}: {lang}.json {key} needs {_fields(cat, key) - names}")
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


def test_every_option_the_lobby_form_shows_empty_says_what_empty_means():
    """An option of the lobby's table form whose box starts empty (no default value, no list of
    values to pick from: shengji's team levels, dealer, provisional dealer and must-play levels)
    says what empty means in both languages ("optempty.<game>.<option>", the box's placeholder
    or its first choice): a newcomer never meets a blank box with no words."""
    from qipai.server.tabledefaults import LOBBY_MATCH_ONLY

    keys = []
    for info in qipai.games():
        if info.id.startswith("test-"):
            continue
        for o in info.to_json()["options"]:
            if o["name"] in LOBBY_MATCH_ONLY.get(info.id, ()) or o.get("choices") or o["type"] == "bool":
                continue
            if o["default"] is None or o["default"] == []:
                keys.append(f"optempty.{info.id}.{o['name']}")
    assert "optempty.shengji.dealer" in keys and len(keys) >= 5
    for lang in ("en", "zh"):
        assert [k for k in keys if not i18n.has(k, lang)] == [], lang


def test_sandayis_lone_player_is_the_declarer_in_the_catalogues_and_the_docs():
    """Sandayi's lone player (the highest bidder, 庄家; the rule file's "dealer", ``dealer`` in
    the view and the result) is "declarer" wherever a person reads of it in English: the page's
    words, the referee's refusals, the terminal's, the option help and docs/games/sandayi.md
    (the view's and the result's field names apart); 庄家 in Chinese."""
    en, zh = i18n.catalogue("en"), i18n.catalogue("zh")
    prefixes = ("sdy.", "result.sdy.", "term.sdy.", "refusal.sandayi.", "optdoc.sandayi.",
                "term.help.sandayi")
    keys = [k for k in en if k.startswith(prefixes)]
    assert len(keys) > 40
    assert [k for k in keys if re.search(r"\bdealer", en[k], re.I)] == []
    assert en["sdy.dealer"] == "Declarer" and zh["sdy.dealer"] == "庄家"
    assert all("庄" in zh[k] for k in keys if "declarer" in en[k].lower())        # 庄家, 坐庄
    doc = (QIPAI.parent / "docs" / "games" / "sandayi.md").read_text("utf-8")
    prose = re.sub(r'`[^`]*`|"[^"]*"', "", doc)         # field names and quoted words apart
    assert re.findall(r"\bdealer\w*", prose, re.I) == []
    assert prose.count("declarer") > 10


def test_no_terminal_text_shows_an_option_code():
    """The terminal's words (term.*) never show an option as its code ("no_bid = end") or any
    other snake_case code; notation the player types ("T = ten", "C2=5") stays."""
    names = {o["name"] for info in qipai.games() if not info.id.startswith("test-")
             for o in info.to_json()["options"]}
    code = re.compile(rf"\b({'|'.join(map(re.escape, sorted(names)))})\s*=|\b[a-z]+_[a-z_]+\b")
    for lang in ("en", "zh"):
        cat = i18n.catalogue(lang)
        leaks = {k: v for k, v in cat.items()
                 if k.startswith("term.") and code.search(i18n._FIELD.sub("", v))}
        assert leaks == {}, lang



def test_no_refusal_a_player_meets_names_an_option_by_its_code():
    """A game's refusal (shown at the table: "you must play (must_beat_if_able)") names a rule
    option in words, never by its snake_case code; the organizer's event refusals may name a
    preset's fields."""
    snake = re.compile(r"\b[a-z]+_[a-z_]+\b")
    games = {info.id for info in qipai.games()} | {"mahjong", "sdbh"}
    for lang in ("en", "zh"):
        cat = i18n.catalogue(lang)
        leaks = {k: v for k, v in cat.items() if k.startswith("refusal.") and k.split(".")[1] in games
                 and snake.search(i18n._FIELD.sub("", v))}
        assert leaks == {}, lang

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


# ----- option, setting and notation errors -------------------------------------------------------
@pytest.mark.parametrize("game_id, options, code, zh_word", [
    ("go", {"komi": "abc"}, "option.not_number", "贴目"),
    ("go", {"ko_rule": "bogus"}, "option.not_in_choices", "简单劫"),
    ("xiangqi", {"no_such": 1}, "option.unknown", "没有选项"),
    ("sandayi", {"bids": "60,x"}, "option.bad_list", "递增"),
])
def test_a_bad_option_carries_a_code_worded_in_both_languages(game_id, options, code, zh_word):
    """A bad option value names its fault with a code and the option's catalogue key, so the
    Chinese reader sees the option, its values and the fault in Chinese."""
    with pytest.raises(qipai.OptionError) as e:
        qipai.load(game_id, **options)
    assert e.value.code == code
    zh = i18n.t(f"refusal.{code}", e.value.params, lang="zh")
    en = i18n.t(f"refusal.{code}", e.value.params, lang="en")
    assert zh_word in zh and "{" not in zh + en and not re.search(r"[\u4e00-\u9fff]", en)


def test_notation_errors_carry_codes_and_travel_between_processes():
    import pickle

    with pytest.raises(qipai.NotationError) as e:
        qipai.load("doudizhu").new_state(deal={"hands": [[]]})
    assert e.value.code == "notation.deal_number" and e.value.field == "deal"
    assert e.value.params == {"deal": 1, "inner": "notation.deal_cards"}
    assert i18n.t("refusal.notation.deal_number", e.value.params, lang="zh") == \
        "第 1 副：这副牌不是本游戏按规则发出的牌"
    back = pickle.loads(pickle.dumps(e.value))
    assert (back.code, back.field, str(back)) == (e.value.code, "deal", str(e.value))
    opt = pickle.loads(pickle.dumps(qipai.OptionError("x", code="game.seats", params={"seats": 3})))
    assert (opt.code, opt.params) == ("game.seats", {"seats": 3})


def test_a_message_that_wraps_its_own_kind_is_worded_once():
    # config.in wraps another setting's fault; its own code as the inner one must not loop
    assert i18n.t("refusal.config.in", {"field": "x", "inner": "config.in"}, lang="zh") == "x：config.in"
    assert i18n.fill("{v|value+label}", {"v": "simple_ko", "label": "go.ko_rule"}, "zh") == "简单劫"
    assert i18n.fill("{v|value+label}", {"v": "z"}) == "{v|value+label}"
    assert i18n.fields("{v|value+label} {n}") == {"v", "label", "n"}


def test_the_server_answers_a_bad_option_with_its_code(tmp_path):
    c = client(tmp_path)
    token = signup(c, "ann")
    r = post(c, token, "/api/tables", {"game": "go", "options": {"komi": "abc"}})
    body = r.json()
    assert r.status_code == 400 and body["error"] == "bad_options"
    assert body["params"]["why"] == "option.not_number" and body["params"]["label"] == "go.komi"
    zh = i18n.t("error.bad_options", body["params"], lang="zh")
    assert zh == "规则选项有误：贴目必须是数字，不能是 abc"


@pytest.mark.parametrize("options", [{}, {"deals_per_match": 2}])
def test_shandong_baohuang_end_reasons_are_worded(options):
    """山东保皇 (baohuang's experimental rule set) ends a deal when a seat goes out and a match
    when its deals are played: both reasons have words in both languages."""
    game = qipai.load("baohuang", ruleset="sdbh.provisional", **options)
    rng = random.Random(5)
    state = game.new_state(seed=5)
    while not state.is_terminal():
        seat = state.to_act[0]
        state.apply(rng.choice(state.legal_actions(seat)), seat=seat)
    for lang in ("en", "zh"):
        assert i18n.has(f"end.{state.result.reason}", lang), state.result.reason


def test_a_pair_event_counts_its_entrants_as_pairs(tmp_path):
    """The event page's header counts a pair event's entrants as pairs ("2 pairs", "2对选手"),
    not players: the event says so (``pairs``)."""
    with client(tmp_path, spectator_delay_ms=0, bot_delay_ms=0) as c:
        boss = signup(c, "boss")
        for preset, pairs in (("s2_tuolaji", True), ("s3_xiangqi", False)):
            ev = post(c, boss, "/api/events", {"preset": preset, "event_id": preset, "players": [],
                                                "registration": True}).json()
            assert ev["pairs"] is pairs, ev
            assert c.get(f"/api/events/{preset}").json()["pairs"] is pairs
        listed = {e["id"]: e["pairs"] for e in c.get("/api/events").json()}
        assert listed == {"s2_tuolaji": True, "s3_xiangqi": False}
    assert i18n.t("events.pairs", {"n": 2}) == "2 pairs" and i18n.t("events.pairs", {"n": 1}) == "1 pair"
    assert i18n.t("events.pairs", {"n": 2}, lang="zh") == "2对选手"


def test_go_options_read_in_players_words():
    """Go's rule options name no seat by its number ("seat 1 takes Black") and no time rule by
    a bare "wall time": a player reads who takes Black and what the 60-minute rule does."""
    for lang in i18n.LANGS:
        words = {k: v for k, v in i18n.catalogue(lang).items() if k.startswith(("option.go.", "value.go."))}
        assert not {k: v for k, v in words.items() if re.search(r"\bseat \d|座位|wall time|总用时", v)}, lang


# ----- a reason's parameters are values, never words ---------------------------------------------
#: a literal run of two English words (the text of an f-string or a constant given as a parameter)
_PROSE = re.compile(r"[A-Za-z]{2,} [A-Za-z]{2,}")
#: a parameter holding a game's id: its template words it by the game's one name (gamename)
_GAME_ID = re.compile(r"(^|\.)game\.id$|\.game_id$")


def _coded_calls():
    """Every call of the package that gives a message its code: ``code="..."`` with its
    ``params`` dict (a refusal, ``refusal.<code>``), and the server's ``ApiError(status, "code",
    text, **params)`` (``error.<code>``): (where, catalogue key, {parameter: value node})."""
    for path in sorted(QIPAI.rglob("*.py")):
        for node in ast.walk(_tree(path)):
            if not isinstance(node, ast.Call):
                continue
            kw = {k.arg: k.value for k in node.keywords}
            where = f"{path.relative_to(QIPAI)}:{node.lineno}"
            if isinstance(kw.get("code"), ast.Constant) and isinstance(kw.get("params"), ast.Dict):
                pairs = zip(kw["params"].keys, kw["params"].values)
                named = {k.value: v for k, v in pairs if isinstance(k, ast.Constant)}
                yield where, f"refusal.{kw['code'].value}", named
            elif (getattr(node.func, "id", None) == "ApiError" and len(node.args) > 1
                  and isinstance(node.args[1], ast.Constant)):
                yield where, f"error.{node.args[1].value}", {k: v for k, v in kw.items() if k}


def test_no_reason_carries_english_words_in_its_parameters():
    """A refusal or reason is a code with parameters that are values (a count, a point, a tile
    code, a player's name): words in a parameter would be shown as they are in the Chinese
    interface. An f-string or a constant of English words or a text made by ``describe()``
    given as a parameter the template shows is such a leak (the SGF reader's recount, "area
    count: Black 13, ...", went into the Chinese "recorded result disagrees" reason so)."""
    problems = []
    for where, key, params in _coded_calls():
        shown = set().union(*(_fields(i18n.catalogue(lang), key) for lang in i18n.LANGS))
        for name, value in params.items():
            if name not in shown:
                continue                 # (a parameter for the machine reader, not worded)
            words = [v.value for v in ast.walk(value) if isinstance(getattr(v, "value", None), str)]
            calls = {getattr(c.func, "attr", None) for c in ast.walk(value) if isinstance(c, ast.Call)}
            if any(_PROSE.search(w) for w in words) or calls & {"describe"}:
                problems.append(f"{where}: {key} parameter {name} = {ast.unparse(value)}")
    assert problems == []


def test_a_game_named_in_a_reason_is_worded_by_its_name():
    """A reason that names a game gives its id as a parameter; the template words it by the
    game's one name (``{game|gamename}``), never the bare id (“mahjong-gb 的座位是 0..3”)."""
    problems = []
    for where, key, params in _coded_calls():
        for name, value in params.items():
            if not _GAME_ID.search(ast.unparse(value)):
                continue
            for lang in i18n.LANGS:
                cat = i18n.catalogue(lang)
                for k in (key, f"{key}.one", f"{key}.other"):
                    if k in cat and f"{{{name}}}" in cat[k]:
                        problems.append(f"{where}: {lang}.json {k} shows {{{name}}}, the game's id")
    assert problems == []
