"""升级 declaration prompts are private (rules/shengji.md §2.7): the deal stops to ask a seat only
when the card it just got gives it a new declaration, and the final window asks only seats that
can declare, so showing who is asked would tell everyone who holds level cards or jokers. Each
seat's view says only whether it is asked itself; a spectator's, nobody; and during the deal the
card counts do not name the seat dealt last."""

from __future__ import annotations

import qipai
from qipai.games.shengji.seats import SEATS


def test_only_the_seat_asked_sees_that_it_is_asked_and_counts_do_not_name_it():
    game = qipai.load("shengji")
    asked = 0
    for seed in range(6):
        st = game.new_state(seed=seed)
        while st.phase in ("deal", "window", "bao", "fan"):
            s = st.current_player
            assert st.turns_private()
            assert st.view(s)["to_act"] == [s] and st.view(s)["legal"]
            others = [o for o in range(SEATS) if o != s] + [None]
            for o in others:
                v = st.view(o)
                assert v["to_act"] == [] and "legal" not in v
                if st.phase == "deal":
                    shown = [c for i, c in enumerate(v["counts"]) if i != o]
                    assert shown == [st.dealt // SEATS] * len(shown)   # the same for every seat
            asked += 1
            # passing keeps the deal going; the spread of prompts over seeds covers every seat
            st.apply("pass")
        assert not st.turns_private()
        v = st.view(None)
        # burying and play are public turns, with the exact counts
        assert v["to_act"] == [st.dealer] == list(st.to_act)
        assert v["counts"] == [sum(h.values()) for h in st.hands]
    assert asked >= 20


BIDDING = ("deal", "window", "bao", "fan")


def test_a_table_tells_no_seat_and_no_spectator_who_else_is_asked(tmp_path):
    """Through the real app: a person with three bots and a spectator. Every state message while
    trump is declared names at most the person's own seat (to_act and the view's), the
    spectator's nobody; the person is asked at least once (a fresh deal until it is)."""
    from .server_helpers import client, next_state, post, signup, ws

    with client(tmp_path, spectator_delay_ms=0, bot_delay_ms=0) as c:
        token = signup(c, "ann")
        # random bots often declare a pair before the person gets a level card (a single one is
        # then no declaration): up to ten deals, which ends at the first where it is asked
        for _ in range(10):
            tid = post(c, token, "/api/tables", {"game": "shengji", "bots": 3, "bot": "random",
                                                 "settings": {"clock": "none"}}).json()["id"]
            asked = 0
            with ws(c, None, tid) as spec, ws(c, token, tid) as sock:
                msg = next_state(sock)
                while msg["view"]["phase"] in BIDDING:
                    assert set(msg["to_act"]) <= {0} and msg["view"]["to_act"] == msg["to_act"]
                    if 0 in msg["to_act"]:
                        asked += 1
                        sock.send_json({"type": "move", "seq": msg["seq"], "turn": msg["turn"],
                                        "action": "pass"})
                    msg = next_state(sock)
                seen = next_state(spec)
                while seen["view"]["phase"] in BIDDING:
                    assert seen["to_act"] == [] and seen["view"]["to_act"] == []
                    seen = next_state(spec)
            # a person at the table: it plays the people's schedule (a prompt after every card)
            assert c.get(f"/api/tables/{tid}").json()["options"]["deal_prompt"] == "every_card"
            if asked:
                break
        assert asked


# ----- deal_prompt="every_card": the prompts follow the cards, not the hands ------------------------
def _schedule(deal, **options):
    """Every prompt of the declarations, everyone passing: (seat asked, cards dealt, phase,
    legal texts), until the dealer buries."""
    st = qipai.load("shengji", **options).new_state(deal=deal)
    out = []
    while st.phase in BIDDING:
        s = st.current_player
        out.append((s, st.dealt, st.phase, [str(a) for a in st.legal_actions(s)]))
        st.apply("pass")
    return out


def test_every_card_asks_after_each_card_whoever_got_a_level_card():
    """Seat 1 gets a 2H as its third card in one deal and not in the other. Asked only when
    able, the prompts differ (one more, in the deal's third round: everyone learns that
    somebody got a level card); asked after every card, the seat asked and the number of cards
    dealt are the same prompt by prompt, and only seat 1's own legal set shows its 2H."""
    from .shengji_helpers import level_card_deals

    without, with_2h = level_card_deals()
    able = [_schedule(d) for d in (without, with_2h)]
    assert [x[:3] for x in able[0]] != [x[:3] for x in able[1]]
    assert (1, 12, "deal") in [x[:3] for x in able[1]] and len(able[1]) == len(able[0]) + 2
    every = [_schedule(d, deal_prompt="every_card") for d in (without, with_2h)]
    assert [x[:3] for x in every[0]] == [x[:3] for x in every[1]]
    # one prompt a card, to the seat that got it (deal-start seat 2), then the final window
    # asks all four seats from the deal-start seat
    assert [x[:2] for x in every[0][:100]] == [((2 + i) % SEATS, i + 1) for i in range(100)]
    assert [(x[0], x[2]) for x in every[0][100:]] == [(2, "window"), (3, "window"), (0, "window"),
                                                       (1, "window")]
    differ = [(a, b) for a, b in zip(every[0], every[1]) if a != b]
    assert differ and all(a[0] == 1 and a[3] == ["pass"] and "declare 2H" in b[3] for a, b in differ)
    # the bots' and the other seats' prompts: pass is their only action
    assert all(x[3] == ["pass"] for x in every[1] if x[0] in (2, 3))


def test_every_card_asks_every_seat_after_a_declaration_and_in_bao():
    """After an accepted declaration every other seat is asked (rule 2), not only those that can
    overcall; under 报主 (bao) every seat is asked in the 报主 round."""
    from .shengji_helpers import level_card_deals

    _, with_2h = level_card_deals()
    st = qipai.load("shengji", deal_prompt="every_card").new_state(deal=with_2h)
    while st.dealt < 12:
        st.apply("pass")
    assert st.current_player == 1
    st.apply("declare 2H")
    asked = []
    for _ in range(3):
        asked.append((st.current_player, st.dealt, [str(a) for a in st.legal_actions()]))
        st.apply("pass")
    assert asked == [(2, 12, ["pass"]), (3, 12, ["pass"]), (0, 12, ["pass"])]
    assert st.current_player == 2 and st.dealt == 13       # the deal goes on
    bao = qipai.load("shengji", profile="seed002", deal_prompt="every_card").new_state(deal=with_2h)
    seen = []
    while bao.phase in BIDDING:
        seen.append(bao.current_player)
        bao.apply("pass")
    assert seen == [2, 3, 0, 1]
    # when able: seat 0 alone (报主 is a level card with the joker of its colour)
    assert [x[0] for x in _schedule(with_2h, profile="seed002")] == [0]


HOLD = 40      # the server's private_window_ms in the two-person test
DEAL = 10      # and its deal_window_ms


def _person(sock, seen: list) -> None:
    """A person at a table: answers ``pass`` to every prompt of its own and keeps each state
    message, until the declarations are over (the first message of another phase not kept)."""
    import json

    answered = set()
    while True:
        msg = json.loads(sock.receive_text())
        if msg["type"] != "state":
            continue
        if msg["view"]["phase"] not in BIDDING:
            return
        seen.append(msg)
        turn = msg.get("turn")
        if msg["seat"] in msg["to_act"] and turn not in answered:
            answered.add(turn)
            sock.send_json({"type": "move", "seq": msg["seq"], "turn": turn, "action": "pass"})


def _legal(msg: dict) -> list:
    return msg["view"].get("legal", {}).get("actions", [])


def _as_shown(messages: list) -> list:
    """The messages without the clock readings (``now``, ``clocks``) and the table's id; a
    message repeating the position of the seat's own prompt (``seq`` unchanged: the server's
    word that its answer is taken and held to the window's end, sent or not depending on
    whether the answer came before that end) is left out."""
    out = []
    for m in messages:
        if out and m["seq"] == out[-1]["seq"] and m["seat"] in out[-1]["to_act"]:
            continue
        out.append({k: v for k, v in m.items() if k not in ("now", "clocks", "table")})
    return out


def test_a_person_sees_the_same_deal_whether_or_not_the_other_person_got_a_level_card(tmp_path):
    """Through the real app, two people (seats 0 and 1) and two bots: seat 1 gets a 2H as its
    third card in one deal and not in the other (seat 0's cards are the same). The table plays
    ``deal_prompt="every_card"`` (two people), and every state message seat 0 is sent while
    trump is declared is the same in both deals — the prompts, their positions, the counts,
    its own turns — while seat 1 was offered ``declare 2H`` in the second. Only the order of
    messages is compared (no timing): the prompts' minimum time is the runner's
    (tests/test_server_private_windows.py)."""
    import threading

    from .server_helpers import client, post, signup, ws
    from .shengji_helpers import level_card_deals

    seen: list[dict] = []
    with client(tmp_path, private_window_ms=HOLD, deal_window_ms=DEAL, spectator_delay_ms=0) as c:
        ann, bob = signup(c, "ann"), signup(c, "bob")
        for deal in level_card_deals():
            tid = post(c, ann, "/api/tables", {"game": "shengji", "seat": 0,
                                               "settings": {"clock": "none", "bot_delay_ms": 0}}).json()["id"]
            post(c, bob, f"/api/tables/{tid}/sit", {"seat": 1})
            # the deal an event would give its table (eventwork), here chosen by the test
            c.app.state.hub.get(tid).settings["origin"] = {"seed": None, "deal": deal}
            logs: dict[int, list] = {0: [], 1: []}
            with ws(c, ann, tid) as a, ws(c, bob, tid) as b:
                failed: list[BaseException] = []

                def bob_plays(sock=b, seen=logs[1], failed=failed):
                    try:
                        _person(sock, seen)
                    except BaseException as e:     # told below, not lost in the thread
                        failed.append(e)

                other = threading.Thread(target=bob_plays, daemon=True)
                other.start()
                for seat in (2, 3):
                    post(c, ann, f"/api/tables/{tid}/bot", {"seat": seat, "bot": "rule"})
                _person(a, logs[0])
                other.join(30)
                assert not other.is_alive() and not failed, failed
            assert c.get(f"/api/tables/{tid}").json()["options"]["deal_prompt"] == "every_card"
            seen.append(logs)
    offered = [any("declare 2H" in _legal(m) for m in logs[1]) for logs in seen]
    assert offered == [False, True]
    first, second = (_as_shown(logs[0]) for logs in seen)
    assert [m["seq"] for m in first] == [m["seq"] for m in second] and first == second
    assert len(first) >= 104
    # each prompt was held the minimum time, a lone pass too (the table's clock, in ms): the
    # deal's hundred prompts DEAL each, then the final window's prompts HOLD each (the last
    # message kept opens the fourth)
    assert all(logs[0][-1]["now"] - logs[0][0]["now"] >= 100 * DEAL + 3 * HOLD for logs in seen)
    # seat 0 was asked itself (it holds 2S 2D LJ BJ), and never saw another seat asked
    assert any(m["to_act"] == [0] and len(_legal(m)) > 1 for m in first)
    # ... and only where it had a choice: a prompt with pass alone is answered by the server
    # (the person clicks 5 times in a deal of 100 prompts, not 25)
    assert all(len(_legal(m)) > 1 for m in first if m["to_act"] == [0])
    assert all(m["to_act"] in ([], [0]) for m in first)


def test_a_person_alone_with_bots_is_dealt_card_by_card(tmp_path):
    """A person with three bots that answer at once: the deal is paced as in a card room, each
    of its hundred prompts held ``deal_window_ms`` (the bots' too), so the person sees its hand
    grow card by card and has the deal to declare in. It was dealt in a flash ("when_able", the
    bots answering at once, no hold at a table with one person): the table was at its first trick
    2.5 s after it opened, the person never asked."""
    from .server_helpers import client, post, signup, ws

    deal = 30
    with client(tmp_path, private_window_ms=300, deal_window_ms=deal, spectator_delay_ms=0) as c:
        ann = signup(c, "ann")
        tid = post(c, ann, "/api/tables", {"game": "shengji", "seat": 0, "bots": 3,
                                           "settings": {"clock": "none", "bot_delay_ms": 0}}).json()["id"]
        seen: list = []
        with ws(c, ann, tid) as sock:
            _person(sock, seen)
        assert c.get(f"/api/tables/{tid}").json()["options"]["deal_prompt"] == "every_card"
    dealing = [m for m in seen if m["view"]["phase"] == "deal"]
    sizes = []
    for m in dealing:
        n = len(m["view"]["hand"])
        if not sizes or sizes[-1] != n:
            sizes.append(n)
    # the hand grows one card at a time, most of its 25 cards seen arriving
    assert len(sizes) >= 20 and all(b - a == 1 for a, b in zip(sizes, sizes[1:])), sizes
    # the deal took its hundred prompts' holds (the table's clock, ms)
    assert dealing[-1]["now"] - dealing[0]["now"] >= 90 * deal


def test_a_restarted_server_plays_the_people_options_again(tmp_path):
    """The options a two-person table plays with are kept in its settings: after a restart the
    game rebuilt from its log still asks after every card (the deal stands at its first prompt,
    held by a long minimum time: the deal's own hold too, which applies from the first person's
    sitting, before the second sits)."""
    from .server_helpers import client, post, signup

    held = {"private_window_ms": 600_000, "deal_window_ms": 600_000}
    with client(tmp_path, **held) as c:
        ann, bob = signup(c, "ann"), signup(c, "bob")
        tid = post(c, ann, "/api/tables", {"game": "shengji", "bots": 2, "bot": "rule",
                                           "settings": {"clock": "none"}}).json()["id"]
        assert c.get(f"/api/tables/{tid}").json()["options"]["deal_prompt"] == "when_able"
        post(c, bob, f"/api/tables/{tid}/sit")
        table = c.app.state.hub.get(tid)
        assert table.settings["people_options"] == {"deal_prompt": "every_card"}
        assert table.runner.state.dealt == 1
    with client(tmp_path, **held) as c:
        table = c.app.state.hub.get(tid)
        assert table.game.options["deal_prompt"] == "every_card"
        assert table.runner.state.dealt == 1 and table.runner.state.log == []
        assert c.get(f"/api/tables/{tid}").json()["options"]["deal_prompt"] == "every_card"


# ----- the deal's pace: every prompt of the deal held the same short time ------------------------
DEAL_HOLD, WINDOW_HOLD = 250, 2000


def _deal_times(deal) -> tuple[int, int, int]:
    """Virtual time at which the deal's last card is dealt and the declarations end, and how
    many prompts the deal had, with deal_hold and private_hold as a two-person table sets them."""
    from .shengji_helpers import deal_pace

    seen = deal_pace(deal, DEAL_HOLD // 2, DEAL_HOLD, WINDOW_HOLD)
    return seen["dealt"], seen["declared"], seen["prompts"]


def test_a_deal_lasts_the_same_short_time_whoever_got_a_level_card():
    """Under ``deal_hold`` every prompt of the deal is held the same time whether the seat asked
    could declare or not (a seat with a choice answers within the hold here), so the deal lasts
    exactly 100 holds in both deals — seat 1 gets a 2H in one — and the four prompts of the
    final window keep the longer ``private_hold``."""
    from .shengji_helpers import level_card_deals

    seen = [_deal_times(d) for d in level_card_deals()]
    assert seen[0] == seen[1]
    dealt, declared, prompts = seen[0]
    assert prompts == 104
    assert dealt == 100 * DEAL_HOLD                       # 25 s at 250 ms, not 200 s
    assert declared == dealt + 4 * WINDOW_HOLD
