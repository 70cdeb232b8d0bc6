"""No English prose in message parameters: a refusal or error that wraps another error says why
with a code both catalogues word (``why``, :func:`qipai.core.errors.why`), never the wrapped
error's English text, so the Chinese interface shows only Chinese."""

from __future__ import annotations

import ast
import re

import pytest

import qipai
from qipai import i18n
from qipai.core.errors import IllegalAction, Message, NotationError, why
from tests.server_helpers import client, post, signup

QIPAI = __import__("pathlib").Path(qipai.__file__).resolve().parent
_MESSAGE_CALLS = {"IllegalAction", "ApiError", "Message", "ws_error", "EventError"}


_PROSE_ATTRS = {"args", "reason", "message"}        # an error's attributes that hold its English text


def _names(node: ast.AST) -> set[str]:
    """The names ``node`` uses as themselves (``e``, ``str(e)``, ``e.reason``), not through a
    data attribute (``e.field``, ``e.valid``: values, not prose)."""
    through = {id(a.value) for a in ast.walk(node)
               if isinstance(a, ast.Attribute) and a.attr not in _PROSE_ATTRS}
    return {n.id for n in ast.walk(node) if isinstance(n, ast.Name) and id(n) not in through}


def test_no_raise_passes_a_caught_errors_text_as_a_parameter():
    """Inside ``except ... as e``, a message's parameters never carry ``e`` or ``str(e)``: its
    text is English. ``why(e, fallback)`` gives a code and parameters instead."""
    problems = []
    for path in sorted(QIPAI.rglob("*.py")):
        tree = ast.parse(path.read_text("utf-8"))
        for handler in ast.walk(tree):
            if not isinstance(handler, ast.ExceptHandler) or not handler.name:
                continue
            for node in ast.walk(handler):
                if not isinstance(node, ast.Call):
                    continue
                f = node.func
                if (getattr(f, "id", None) or getattr(f, "attr", None)) not in _MESSAGE_CALLS:
                    continue
                for kw in node.keywords:
                    value = kw.value
                    if kw.arg is None and isinstance(value, ast.Call) \
                            and getattr(value.func, "id", "").startswith("why"):
                        continue                          # **why(e, fallback): codes
                    if kw.arg == "params" and isinstance(value, ast.Dict):
                        parts = [v for k, v in zip(value.keys, value.values)
                                 if not (k is None and isinstance(v, ast.Call)
                                         and getattr(v.func, "id", "").startswith("why"))]
                    elif kw.arg == "params" and isinstance(value, ast.Call) \
                            and getattr(value.func, "id", "").startswith("why"):
                        continue
                    else:
                        parts = [value]
                    if any(handler.name in _names(p) for p in parts):
                        problems.append(f"{path.relative_to(QIPAI)}:{node.lineno}: {kw.arg or '**'} "
                                        f"carries {handler.name}")
    assert problems == []


def test_why_takes_a_messages_code_or_the_fallback():
    twice = ValueError(Message("x y", code="card.named_twice"))
    assert why(twice, "unreadable") == {"why": "card.named_twice"}
    e = NotationError(Message("off", code="gomoku.not_point", params={"point": "z9"}), "move")
    assert why(e, "unreadable") == {"point": "z9", "why": "gomoku.not_point"}
    assert why(ValueError("plain English"), "unreadable") == {"why": "unreadable"}
    assert i18n.t("refusal.bad_notation", {"text": "z9", **why(e, "unreadable")}, lang="zh") == \
        "看不懂 z9：z9 不是交叉点（a1 … o15）"


_PROSE = re.compile(r"[A-Za-z]{2,}[ ,;:]+[A-Za-z]{2,}")     # two English words in a row
# the words players type as moves (notation, shown as typed in both languages)
_COMMANDS = {"pass", "resign", "timeout", "discard", "win", "kong", "add", "pung", "chow", "penalty",
             "peel", "laizi", "bomb", "play", "bid", "bury", "declare", "accept", "decline"}


def _prose(value: str, typed: str) -> bool:
    for tok in typed.split():
        value = re.sub(re.escape(tok), " ", value, flags=re.I)
    words = re.sub(r"\b(" + "|".join(_COMMANDS) + r")\b", " ", value)
    return bool(_PROSE.search(words))
_TYPED = ["ZZ", "5X", "9Z", "QQ7Z", "1z", "0m", "z99", "5H5H", "a0", "i5", "D04", "T9", "8m8",
          "play ZZ", "declare 5X", "chow 1z", "bury 9Z", "bid ZZ", "1-2-3", "@@"]


def _latin_words(text: str, typed: str) -> list[str]:
    for tok in sorted(typed.split(), key=len, reverse=True):
        text = text.replace(tok, " ")
    return [w for w in re.findall(r"[A-Za-z]{4,}", text) if w not in _COMMANDS and not w.isupper()]


@pytest.mark.parametrize("game_id", [g.id for g in qipai.games() if not g.id.startswith("test-")])
def test_typed_garbage_is_refused_with_parameters_free_of_english(game_id):
    """Whatever a player types, the refusal's parameters hold codes, numbers and the player's
    own text, and its Chinese words hold no English."""
    game = qipai.load(game_id, **({"board_size": 9} if game_id == "go" else {}))
    state = game.new_state(seed=1)
    seat = state.to_act[0]
    met = set()
    for typed in _TYPED:
        try:
            state.clone().apply(typed, seat=seat)
        except IllegalAction as e:
            met.add(e.code)
            for name, value in e.params.items():
                for v in value if isinstance(value, list) else [value]:
                    assert not (isinstance(v, str) and _prose(v, typed)), \
                        (typed, e.code, name, v)
            zh = e.text("zh")
            assert _latin_words(zh, typed) == [], (typed, e.code, zh)
            assert "{" not in zh, (typed, zh)
    assert met, "nothing typed was refused"


def test_a_wrong_join_code_and_a_bad_event_say_why_in_chinese(tmp_path):
    with client(tmp_path, spectator_delay_ms=0, bot_delay_ms=0) as c:
        boss = signup(c, "boss")
        alice = signup(c, "alice")
        ev = post(c, boss, "/api/events", {"preset": "s3_xiangqi", "event_id": "open", "players": [],
                                             "registration": True}).json()
        assert ev["status"] == "registration"
        wrong = post(c, alice, "/api/events/open/join", {"code": "nope"}).json()
        assert wrong["error"] == "bad_join" and wrong["params"] == {"why": "event.wrong_code"}
        assert i18n.t("error.bad_join", wrong["params"], lang="zh") == "无法报名：报名码不对"
        again = post(c, boss, "/api/events", {"preset": "s3_xiangqi", "event_id": "open",
                                              "players": [], "registration": True}).json()
        assert again["error"] == "bad_event" and again["params"] == {"id": "open", "why": "event.exists"}
        assert i18n.t("error.bad_event", again["params"], lang="zh") == "无法创建比赛：已有名为 open 的赛事"
        bad = post(c, boss, "/api/events", {"preset": "s2_go", "players": ["boss"],
                                             "fields": {"game.ko_rule": "bogus"}}).json()
        assert bad["error"] == "bad_event"
        for value in bad["params"].values():
            assert not _prose(str(value), ""), bad["params"]
        # the option and its values in Chinese; only the value typed stays as typed
        zh = i18n.t("error.bad_event", bad["params"], lang="zh")
        assert _latin_words(zh, "bogus") == [] and i18n.t("option.go.ko_rule", lang="zh") in zh, zh


#: the modules of the referee's and organizer's acts on an event (its creation; results,
#: no-shows, withdrawals, disqualification, voided games, penalties, confirmations, corrections)
REFEREE_MODULES = ("ops.py", "penalties.py", "games.py", "results.py", "acts.py", "director.py",
                   "create.py")


def _coded(x: ast.AST | None, typed: set[str]) -> bool:
    """Whether ``x`` is a Message with a code (either branch of a conditional too) or a name in
    ``typed`` (parameters typed Message)."""
    return ((isinstance(x, ast.Call) and getattr(x.func, "id", None) == "Message"
             and any(k.arg == "code" for k in x.keywords))
            or (isinstance(x, ast.IfExp) and _coded(x.body, typed) and _coded(x.orelse, typed))
            or (isinstance(x, ast.Name) and x.id in typed))


def test_every_referee_refusal_has_its_own_code():
    """A refusal of a referee's act (``raise EventError(...)`` in the modules of the acts) is a
    ``Message`` with its own code, or a parameter typed ``Message``: never bare English text,
    which the pages could only word as a general "not now"."""
    problems = []
    for name in REFEREE_MODULES:
        path = QIPAI / "competition" / name
        tree = ast.parse(path.read_text("utf-8"))
        for fn in ast.walk(tree):
            if not isinstance(fn, ast.FunctionDef | ast.AsyncFunctionDef):
                continue
            typed = {a.arg for a in fn.args.args + fn.args.kwonlyargs
                     if a.annotation is not None and ast.unparse(a.annotation) == "Message"}
            for node in ast.walk(fn):
                if not (isinstance(node, ast.Raise) and isinstance(node.exc, ast.Call)
                        and getattr(node.exc.func, "id", None) == "EventError"):
                    continue
                first = node.exc.args[0] if node.exc.args else None
                ok = _coded(first, typed)
                if not ok:
                    problems.append(f"competition/{name}:{node.lineno}: EventError without a code")
    assert problems == []
