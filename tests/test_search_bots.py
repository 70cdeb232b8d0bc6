"""The search bots (levels 3-5): MCTS finds forced wins, the determinization of a hidden-card
game reads only the seat's view, levels are accepted and refused, and the server answers while
a level-5 bot thinks in its worker process."""

from __future__ import annotations

import random
import time

import pytest

import qipai
from qipai.bots import bot_levels, level_bot, make_bot
from qipai.bots.doudizhu import bid_brackets, breaks_bound, determinize, hand_strength, pass_bounds
from qipai.bots.mcts import Budget, Searcher, search
from qipai.bots.search import SearchBot, live_ms, searcher_for
from qipai.cards.sample import sample_hands, unseen
from qipai.core.errors import OptionError

from .server_helpers import client, post, signup


# ----- forced wins ------------------------------------------------------------------------------
def test_gomoku_completes_its_five_and_makes_an_open_four():
    game = qipai.load("gomoku", ruleset="standard")
    five = game.new_state(position="h8 h9 h10 h11 / a1 a3 a5 / b")
    assert str(make_bot("gomoku", "mcts3", seed=1).choose(five, 0)) in ("h7", "h12")
    # an open three on an empty side of the board: only f8 and j8 win in two (an open four)
    three = game.new_state(position="g8 h8 i8 / a1 a3 o15 / b")
    bot = make_bot("gomoku", "mcts3", seed=2)
    assert str(bot.choose(three, 0)) in ("f8", "j8")


#: a xiangqi position whose only mate in one is g5g9 (found by play between the level 1-2 bots)
MATE_IN_ONE = "r1bk5/5R3/3a3C1/4p4/p5R2/4P4/P1P3P2/9/9/2rAK1B2 w - - 3 31"


class _TreeOnly(Searcher):
    """Every legal move and no playout at all (every leaf is worth a draw): what finds the mate
    is the tree search of qipai.bots.mcts alone."""

    game_id = "xiangqi"

    def playout(self, state, rng):
        return [0.5, 0.5]


def test_mcts_core_finds_mate_in_one_and_the_bot_plays_it():
    state = qipai.load("xiangqi").new_state(position=MATE_IN_ONE)
    assert len(state.legal_moves()) > 40
    base = state.clone()
    found = search(_TreeOnly(), lambda rng: base.clone(), 0, Budget(150), random.Random(3))
    assert found.action == "g5g9" and found.stats["g5g9"][1] == 1.0
    assert str(make_bot("xiangqi", "mcts3", seed=4).choose(state, 0)) == "g5g9"


# ----- hidden information -----------------------------------------------------------------------
def _swap_unplayed(state, a: int, b: int, n: int) -> dict:
    """The deal of ``state`` with ``n`` cards swapped between seats ``a`` and ``b``, taken
    among ranks nobody has played yet (so that the same actions stay legal and take the same
    cards)."""
    played_ranks = {c[:-2] for e in state.view(None)["plays"] if len(e) == 3 for c in e[2]}
    deal = {**state.deal[-1], "hands": [list(h) for h in state.deal[-1]["hands"]]}
    ha = [c for c in deal["hands"][a] if c[:-2] not in played_ranks and c not in deal["kitty"]]
    hb = [c for c in deal["hands"][b] if c[:-2] not in played_ranks and c not in deal["kitty"]]
    ha = [c for c in ha if c[:-2] not in {x[:-2] for x in hb}][:n]
    hb = [c for c in hb if c[:-2] not in {x[:-2] for x in ha}][:len(ha)]
    for x, y in zip(ha, hb):
        deal["hands"][a][deal["hands"][a].index(x)] = y
        deal["hands"][b][deal["hands"][b].index(y)] = x
    return deal


def test_doudizhu_decision_inputs_depend_only_on_the_seats_view():
    game = qipai.load("doudizhu", bidding="none")         # the first bidder is the landlord
    checked = 0
    for seed in range(12):
        a = game.new_state(seed=seed)
        rule = make_bot("doudizhu", "rule")
        for _ in range(4 + seed % 5):                      # a few plays, the same on both deals
            a.apply(rule.choose(a, a.current_player))
        me = a.current_player
        others = [s for s in range(3) if s != me]
        deal_b = _swap_unplayed(a, *others, n=3)
        if deal_b["hands"] == a.deal[-1]["hands"]:
            continue
        b = game.new_state(deal=deal_b)
        for text in a.log:
            b.apply(text)
        assert a.hand(others[0]) != b.hand(others[0])     # the hidden hands differ ...
        assert a.view(me) == b.view(me)                    # ... the seat's view does not
        bot_a, bot_b = (SearchBot(searcher_for("doudizhu"), rule, Budget(30), 5, 3) for _ in "ab")
        assert bot_a.job(a, me) == bot_b.job(b, me)        # everything the search is given
        assert str(bot_a.choose(a, me)) == str(bot_b.choose(b, me))
        checked += 1
    assert checked >= 8


def test_determinization_agrees_with_the_view_and_varies_the_hidden_cards():
    game = qipai.load("doudizhu")
    state = game.new_state(seed=11)
    rule = make_bot("doudizhu", "rule")
    while state.phase == "bidding" or len(state.view(None)["plays"]) < 6:
        state.apply(rule.choose(state, state.current_player))
    me = state.current_player
    view = state.view(me)
    strip = [e[:2] for e in view["plays"]]
    hands = set()
    for k in range(20):
        d = determinize(game, view, random.Random(k))
        dv = d.view(me)
        assert dv["hand"] == view["hand"] and dv["counts"] == view["counts"] and dv["bids"] == view["bids"]
        assert [e[:2] for e in dv["plays"]] == strip and dv["landlord"] == view["landlord"]
        hands.add(tuple(sorted(c.id for c in d.hand((me + 1) % 3))))
    assert len(hands) > 10                                 # the unseen cards are really sampled


def test_doudizhu_samples_keep_what_the_rule_bots_passes_show():
    # a seat that passed on an opponent's single, pair or trio held nothing above it: against
    # rule bots this is never wrong, and every determinization keeps it
    game = qipai.load("doudizhu")
    rule = make_bot("doudizhu", "rule")
    bound = 0
    for seed in range(4):
        state = game.new_state(seed=seed)
        while not state.is_terminal():
            me = state.current_player
            if state.phase == "play":
                view = state.view(me)
                bounds = pass_bounds(view)
                for s, b in bounds.items():
                    assert s != me and not breaks_bound(state.view(s)["hand"], b)
                    bound += 1
                if bounds and bound % 7 == 1:
                    d = determinize(game, view, random.Random(bound))
                    assert not any(breaks_bound(d.view(s)["hand"], b) for s, b in bounds.items())
            state.apply(rule.choose(state, me))
    assert bound > 30


def _bid_strength(state, seat: int, kitty: list[str]) -> int:
    """The :func:`hand_strength` of the cards ``seat`` was dealt (its hand and plays, less the
    kitty when it is the landlord)."""
    ranks = list(state.view(seat)["hand_ranks"])
    ranks += [c[0] for e in state.view(None)["plays"] if e[0] == seat and len(e) == 3 for c in e[2]]
    if seat == state.landlord:
        for c in kitty:
            ranks.remove(c[0])
    return hand_strength("".join(ranks))


def test_doudizhu_samples_fit_what_the_rule_bots_bids_show():
    game = qipai.load("doudizhu")
    rule = make_bot("doudizhu", "rule")
    fits = total = 0
    for seed in range(8):
        state = game.new_state(seed=seed)
        while state.phase == "bidding" or len(state.view(None)["plays"]) < 3:
            state.apply(rule.choose(state, state.current_player))
        me = state.current_player
        view = state.view(me)
        brackets = bid_brackets(view)
        assert me not in brackets
        for s, (lo, hi) in brackets.items():
            assert lo <= _bid_strength(state, s, view["kitty"]) < hi       # never wrong
        for k in range(5):
            d = determinize(game, view, random.Random(k))
            for s, (lo, hi) in brackets.items():
                fits += lo <= _bid_strength(d, s, view["kitty"]) < hi
                total += 1
    assert total > 40 and fits >= 0.9 * total


def test_card_sampling_keeps_sizes_and_constraints():
    assert unseen("AABBC", "AB") == list("ABC")
    with pytest.raises(ValueError, match="not in the pack"):
        unseen("AB", "AC")
    rng = random.Random(1)
    cards = [f"{s}{r}" for s in "SH" for r in range(6)]
    out = sample_hands(cards, {1: 6, 2: 6}, rng, allowed=lambda p, c: p == 1 or c[0] != "S")
    assert sorted(out[1] + out[2]) == sorted(cards) and all(c[0] == "H" for c in out[2])
    with pytest.raises(ValueError):
        sample_hands(cards, {1: 5, 2: 6}, rng)
    with pytest.raises(ValueError):
        sample_hands(cards, {1: 6, 2: 6}, rng, allowed=lambda p, c: c[0] == "H", tries=3)


# ----- levels --------------------------------------------------------------------------------------
def without_search(monkeypatch, game_id: str) -> None:
    """Take ``game_id``'s search bots out of the bot registry for one test: every game has a
    searcher now, and the refusal of a level a game lacks is still the rule for one without."""
    import qipai.bots as bots

    bots._load(game_id)
    for key in [k for k in bots._BOTS if k[0] == game_id and k[1].startswith("mcts")]:
        monkeypatch.delitem(bots._BOTS, key)


def test_levels_are_named_accepted_and_refused(monkeypatch):
    assert bot_levels("xiangqi") == {1: "random", 2: "greedy", 3: "mcts3", 4: "mcts4", 5: "mcts5"}
    assert bot_levels("doudizhu")[2] == "rule" and level_bot("renju", 5) == "mcts5"
    without_search(monkeypatch, "junqi")
    assert bot_levels("junqi") == {1: "random", 2: "greedy"}
    for bad in (0, 6, "3", 2.0, True, None):
        with pytest.raises(OptionError, match="integer 1-5"):
            level_bot("go", bad)
    with pytest.raises(OptionError, match="junqi has no level 3 bot; levels: 1, 2"):
        level_bot("junqi", 3)
    assert searcher_for("go").game_id == "go"
    assert live_ms(Budget(10, 4000), None) == 4000 and live_ms(Budget(10, 4000), 10_400) == 2500
    assert live_ms(Budget(10, 4000), 300) == 50


def test_event_entrants_may_name_a_level():
    from qipai.competition.config import load_preset
    from qipai.competition.event import EventError, check_players

    cfg = load_preset("s2_doudizhu")
    out = check_players(cfg, [{"id": "a", "level": 3}, {"id": "b", "level": 2}, {"id": "c", "bot": "random"}])
    assert [p["bot"] for p in out] == ["mcts3", "rule", "random"]
    with pytest.raises(EventError, match="player a: a bot level is an integer 1-5"):
        check_players(cfg, [{"id": "a", "level": 8}], enough=False)
    with pytest.raises(EventError, match="player a: give a bot or a level, not both"):
        check_players(cfg, [{"id": "a", "level": 3, "bot": "rule"}], enough=False)


def test_cli_play_refuses_a_bad_level(tmp_path, monkeypatch):
    from typer.testing import CliRunner

    from qipai.cli import app

    without_search(monkeypatch, "junqi")
    r = CliRunner().invoke(app, ["play", "xiangqi", "--level", "9"])
    assert r.exit_code == 2 and "a bot level is an integer 1-5" in r.output
    r = CliRunner().invoke(app, ["play", "junqi", "--level", "4"])
    assert r.exit_code == 2 and "junqi has no level 4 bot" in r.output


# ----- the server while a bot thinks ---------------------------------------------------------------
def test_server_answers_while_a_level_5_bot_thinks(tmp_path, monkeypatch):
    """The real app (its event loop in the test client's thread): a level-5 xiangqi bot plays
    Red under a 15 s move cap, so it thinks for about 3.6 s in its worker process; requests are
    answered quickly all along, and a bad level is refused."""
    monkeypatch.setenv("QIPAI_BOT_WORKERS", "1")
    without_search(monkeypatch, "junqi")
    with client(tmp_path, bot_delay_ms=0) as c:
        me = signup(c, "alice")
        bad = post(c, me, "/api/tables", {"game": "xiangqi", "bots": 1, "level": 6})
        assert bad.status_code == 400 and bad.json()["error"] == "bad_level"
        assert bad.json()["valid"] == [1, 2, 3, 4, 5] and c.get("/api/tables").json() == []
        bad = post(c, me, "/api/tables", {"game": "junqi", "bots": 1, "level": 3})
        assert bad.json()["error"] == "bad_level" and bad.json()["valid"] == [1, 2]
        levels = {g["id"]: g["levels"] for g in c.get("/api/games").json()}
        assert levels["go"]["5"] == "mcts5" and levels["junqi"] == {"1": "random", "2": "greedy"}
        r = post(c, me, "/api/tables", {"game": "xiangqi", "seat": 1, "bots": 1, "level": 5,
                                        "settings": {"clock": "xq_s2_15s"}})
        assert r.status_code == 201, r.text
        table = r.json()
        assert table["seats"][0]["bot"] == "mcts5"
        lags, t0 = [], time.monotonic()
        while time.monotonic() - t0 < 60:
            t = time.monotonic()
            summary = c.get(f"/api/tables/{table['id']}").json()
            lags.append(time.monotonic() - t)
            if summary["plies"]:
                break
            time.sleep(0.05)
        took = time.monotonic() - t0
    assert summary["plies"] == 1, "the bot never moved"
    assert took > 2.0 and len(lags) > 20            # it thought for seconds, and we asked often
    # a bot on the event loop would hold one request for about the whole thinking time
    assert max(lags) < min(2.0, took / 2), (max(lags), took)


# ----- priors -----------------------------------------------------------------------------------
class _OneChoice:
    """A toy position: seat 0 picks a, b or c, and the playout scores the pick."""

    num_seats = 2
    to_act = (0,)

    def __init__(self) -> None:
        self.picked = None

    def is_terminal(self) -> bool:
        return False

    def apply(self, action, seat) -> None:
        self.picked = action


class _Scored(Searcher):
    VALUES = {"a": 0.45, "b": 0.55, "c": 0.5}

    def candidates(self, state, seat):
        return ["a", "b", "c"] if state.picked is None else []

    def playout(self, state, rng):
        v = self.VALUES[state.picked]
        return [v, 1 - v]


def test_progressive_bias_follows_the_candidates_order_until_the_search_overrules_it():
    plain, biased = _Scored(), _Scored()
    biased.bias = 5.0
    roots = lambda rng: _OneChoice()                               # noqa: E731
    assert search(plain, roots, 0, Budget(60), random.Random(1)).action == "b"
    small = search(biased, roots, 0, Budget(60), random.Random(1))
    assert small.action == "a" and small.stats["a"][0] > small.stats["b"][0]
    assert search(biased, roots, 0, Budget(20_000), random.Random(1)).action == "b"


def test_doudizhu_candidates_keep_one_kicker_choice_and_the_rule_bots_order():
    from qipai.bots.doudizhu import DoudizhuSearcher

    game = qipai.load("doudizhu", bidding="none")
    state = game.new_state(deal={"hands": [
        "3S 3H 3D 4S 5S 5H 8S 9S TS JS QS KS AS 2S 2H LJ BJ".split(),
        "4H 4D 4C 6S 6H 6D 7S 7H 7D 8H 9H TH JH QH KH AH 2D".split(),
        "5D 5C 6C 7C 3C 8C 9D 9C TD TC JD JC QD QC KD KC AD".split()],
        "kitty": "8D AC 2C".split(), "first_bidder": 0})
    s = DoudizhuSearcher()
    lead = [str(a) for a in s.candidates(state, 0)]
    assert len(lead) < len(state.legal_actions(0))
    # the trio of 3s with one single: the lone 4 (not a 5 from the pair, not a 2)
    assert sorted(t for t in lead if t.startswith("333+")) == ["333+4", "333+55"]
    assert lead[:3] == ["333+55", "333+4", "333"] and lead[-1] == "LB"  # lowest, longest first
    state.apply("4", 0)
    answer = [str(a) for a in s.candidates(state, 1)]
    assert answer[0] == "6" and answer.index("pass") > answer.index("A")
    state.apply("pass", 1)
    assert str(s.candidates(state, 2)[0]) == "5"       # the partner has not played: beat the landlord
