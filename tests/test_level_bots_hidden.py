"""Levels 3-5 of junqi, shengji and baohuang (both rule sets; shengji with one deck too): the
bots play only legal actions, the decision depends on the seat's view alone (a twin state
whose hidden cards or pieces are sampled anew shows the same view and gives the same job,
samples and move), determinizations agree with the view and vary, a live search keeps to its
time, level 3 beats random, and the lobby's levels reach the new bots."""

from __future__ import annotations

import random

import pytest

import qipai
from qipai.bots import bot_levels, make_bot
from qipai.bots.baohuang import _tribute_rank
from qipai.bots.mcts import Budget
from qipai.bots.search import SearchBot, searcher_for
from qipai.games.junqi import parse_layout
from qipai.games.junqi.notation import Layout

from . import level_helpers
from .server_helpers import client, post, signup

#: case -> (game id, options)
CASES = {
    "baohuang": ("baohuang", {}),
    "baohuang-sdbh": ("baohuang", {"ruleset": "sdbh.provisional"}),
    "shengji": ("shengji", {}),
    "shengji-1deck": ("shengji", {"profile": "one_deck"}),
    "junqi": ("junqi", {}),
    "junqi-siguo": ("junqi", {"variant": "siguo"}),
}
SMALL = Budget(8)


def hidden(state, seat: int) -> tuple:
    """What ``seat`` holds that others cannot see: its cards (ids or faces, sorted)."""
    if state.game.id == "shengji":
        return tuple(sorted(state.hand_faces(seat)))
    if state.game.id == "junqi":                       # its pieces' identities, by point
        return tuple((p, state.kind[p]) for p in range(state.board.n) if state.own[p] == seat)
    return tuple(sorted(c.id for c in state.hand(seat)))


def play_to_search(case: str, seed: int, plies: int) -> tuple[object, int]:
    game_id, options = CASES[case]
    return level_helpers.play_to_search(qipai.load(game_id, **options), seed, plies)


def small_bot(game_id: str, seed: int) -> SearchBot:
    bot = make_bot(game_id, "mcts3", seed=seed)
    bot.budget = SMALL
    return bot


@pytest.mark.parametrize("case", list(CASES))
def test_search_bot_plays_only_legal_actions(case):
    game_id, options = CASES[case]
    state = qipai.load(game_id, **options).new_state(seed=11)
    bots = [small_bot(game_id, s) for s in range(state.num_seats)]
    for bot in bots:
        bot.budget = Budget(4)
    bots[1] = make_bot(game_id, "random", seed=1)
    for _ in range(30):
        if state.is_terminal():
            break
        seat = state.to_act[0]
        action = bots[seat].choose(state, seat)
        if isinstance(action, Layout):      # junqi's own layout: any legal one (rules §4)
            parse_layout(state.board, seat, action.text)
        else:
            assert action in state.legal_actions(seat)
        state.apply(action, seat)


@pytest.mark.parametrize("case", list(CASES))
def test_decision_depends_only_on_the_seats_view(case):
    game_id, _ = CASES[case]
    searcher = searcher_for(game_id)
    differ = 0
    for seed in range(3):
        real, me = play_to_search(case, seed, plies=2 + 3 * seed)
        view = real.view(me)
        other = searcher.determinize(real.game, view, random.Random(seed))
        differ += level_helpers.check_twin(real, other, me, hidden, SMALL)
    assert differ == 3


@pytest.mark.parametrize("case", list(CASES))
def test_determinizations_agree_with_the_view_and_vary(case):
    real, me = play_to_search(case, 5, plies=5)
    assert level_helpers.sampled(real, me, hidden, 12) >= 10


def test_baohuang_determinization_keeps_the_tribute_and_the_void_deals():
    """A deal after a decisive one starts with the tribute (the givers' largest cards, from the
    ``previous`` basis in the view) and may follow void deals; samples agree with both."""
    from qipai.games.baohuang.match import Match

    game = qipai.load("baohuang")
    searcher = searcher_for("baohuang")
    checked = 0
    for seed in range(2, 4):
        match = Match(game, seed)
        for deal in range(2):
            state = match.next_state()
            bots = [make_bot("baohuang", "rule", seed=s) for s in range(5)]
            if deal == 1:
                while state.voids < 2:          # every candidate declines twice over
                    seat = state.to_act[0]
                    state.apply(next(a for a in state.legal_actions(seat) if str(a).startswith("decline")))
            plays = 0
            while not state.is_terminal() and (deal == 0 or plays < 15):
                seat = state.to_act[0]
                plays += state.phase == "play"
                state.apply(bots[seat].choose(state, seat), seat)
            if deal == 0:
                match.record(state)
                continue
            view = state.view(seat)
            assert view["previous"] is not None and view["tribute"] and view["voids"] == 2
            for k in range(4):
                d = searcher.determinize(game, view, random.Random(k))
                assert d.view(seat) == view
                for giver in {g for g, _, _ in view["tribute"]}:    # it gave its largest cards
                    gave = [c for g, _, c in view["tribute"] if g == giver]
                    dealt = d.dealt[-1]["hands"][giver]
                    # (by face: a view's labels number copies, they name no pack)
                    assert min(_tribute_rank(c)[:2] for c in dealt) == min(_tribute_rank(c)[:2] for c in gave)
            checked += 1
    assert checked == 2


@pytest.mark.parametrize("variant", ["luzhan", "siguo"])
def test_junqi_identities_agree_with_the_battles_and_the_layout_rules(variant):
    """Sampled identities of the hidden pieces fit every battle the seat saw against its own
    pieces (a piece that beat its 38 is a 39 or 40), a piece that moved is no mine or flag,
    mines stand in the last two rows and the flag on a headquarters; a piece that turned on
    the railway is an engineer (and was one)."""
    from qipai.bots.junqi_hidden import trace
    from qipai.games.junqi.pieces import ENGINEER, FLAG, MINE, combat

    game = qipai.load("junqi", variant=variant)
    state = game.new_state(seed=4)
    bots = [make_bot("junqi", "greedy", seed=s) for s in range(state.num_seats)]
    true: dict[tuple, int] = {}
    while not state.is_terminal() and len(state.history) < 40:
        if state.phase == "play" and not true:
            true = {(state.own[p], p): state.kind[p] for p in range(state.board.n) if state.own[p] >= 0}
        seat = state.to_act[0]
        state.apply(bots[seat].choose(state, seat), seat)
    me = state.to_act[0]
    view = state.view(me)
    board = state.board
    now, battles, moved, engineers = trace(board, view["history"], state.num_seats)
    mine = [b for b in battles if me in (b[0][0], b[1][0])]
    assert len(mine) >= 5
    assert all(true[pid] == ENGINEER for pid in engineers)
    for k in range(6):
        d = searcher_for("junqi").determinize(game, view, random.Random(k))
        kind = {now[p]: d.kind[p] for p in range(board.n) if d.own[p] >= 0}
        for a, b, outcome in mine:
            ka = true[a] if a[0] == me else kind.get(a)
            kb = true[b] if b[0] == me else kind.get(b)
            if ka is not None and kb is not None:
                assert combat(ka, kb) == outcome
        for pid, k2 in kind.items():
            if pid[0] == me:
                assert k2 == true[pid]
                continue
            p = pid[1]                                 # where it started
            assert k2 != MINE or (board.local[p][0] >= 5 and pid not in moved)
            assert k2 != FLAG or (board.hq[p] and pid not in moved)
            assert k2 == ENGINEER or pid not in engineers


@pytest.mark.parametrize("case", list(CASES))
def test_live_search_keeps_to_its_time(case):
    level_helpers.check_live_search_time(*play_to_search(case, 3, plies=2))


def test_shengji_playouts_stay_cheap():
    """Level 3's 300 playouts fit its 1.5 s: a playout's lead is the rule bot's, read from the
    hand without building the lead's legal set (every part of every suit), a follow is chosen
    among a few spread plays, and a determinization gives up rejecting whole shuffles after a few
    (a plain kitty and the voids reject nearly all) and fills the constrained places first."""
    from qipai.bots import shengji as sj
    from qipai.cards.sample import deal_unseen

    state, me = play_to_search("shengji", 4, plies=12)
    while state.trick:                                 # on to the next lead
        seat = state.to_act[0]
        state.apply(make_bot("shengji", "rule").choose(state, seat), seat)
    seat = state.to_act[0]
    expected = make_bot("shengji", "rule").choose(state, seat)

    class NoRandom(random.Random):
        def random(self):
            return 0.99                                # never the playout's random action

    def no_legal_set(*a, **k):
        raise AssertionError("a playout's lead built the legal set")

    state.legal_actions = state._leads = no_legal_set
    assert sj.SEARCHER.policy(state, seat, NoRandom(1)) == expected
    # a follow by a seat short in the led suit plays all of it without the legal set
    state, _ = play_to_search("shengji", 5, plies=0)
    rule = make_bot("shengji", "rule")
    while True:
        seat = state.to_act[0]
        held = sum(state._suit_holding(seat, state.lead_suit).values()) if state.trick else 0
        if 0 < held < state.lead_n or (0 < held == state.lead_n > 1):
            break
        state.apply(rule.choose(state, seat), seat)
    legal = state.legal_actions(seat)
    state._follows = no_legal_set
    assert sj.SEARCHER.policy(state, seat, NoRandom(1)) in legal
    assert sj.PLAYOUT_SAMPLE < sj.SAMPLE and sj.SHUFFLES <= 8
    shuffles = []

    class Counting(random.Random):
        def shuffle(self, x):
            shuffles.append(1)
            super().shuffle(x)

    # a constraint nearly every shuffle breaks (the first place holds only even cards)
    dealt = deal_unseen(list(range(40)), {0: 10, 1: 30}, {}, [], Counting(2),
                        lambda p, c: p != 0 or c % 2 == 0, tries=sj.SHUFFLES)
    assert all(c % 2 == 0 for c in dealt[0]) and len(shuffles) <= sj.SHUFFLES + 1


class RandomPlay:
    """The rule bot's choices outside the searched phases (bidding, selection, layout), a
    random legal action in them: the baseline of a duplicate deal, so the seat keeps the role
    it has with the search bot."""

    def __init__(self, game_id: str, seed: int) -> None:
        self.rule = make_bot(game_id, bot_levels(game_id)[2], seed=seed)
        self.random = make_bot(game_id, "random", seed=seed)
        self.searcher = searcher_for(game_id)

    def choose(self, state, seat):
        bot = self.random if self.searcher.searched(state, seat) else self.rule
        return bot.choose(state, seat)


def duplicate(case: str, seeds: range, playouts: int) -> list[tuple[int, int]]:
    """Per seed, the :func:`score` of one seat (going round) played by level 3 (``playouts``)
    and, in the same deal, by :class:`RandomPlay`, against random seats."""
    game_id, options = CASES[case]
    game = qipai.load(game_id, **options)
    out = []
    for i in seeds:
        pair = []
        for searched in (True, False):
            state = game.new_state(seed=i)
            me = i % state.num_seats
            bots = [make_bot(game_id, "random", seed=100 * i + s) for s in range(state.num_seats)]
            bots[me] = make_bot(game_id, "mcts3", seed=i) if searched else RandomPlay(game_id, i)
            if searched:
                bots[me].budget = Budget(playouts)
            while not state.is_terminal():
                seat = state.to_act[0]
                state.apply(bots[seat].choose(state, seat), seat)
            pair.append(score(state, me))
        out.append((pair[0], pair[1]))
    return out


def score(state, me: int) -> float:
    """What the searched seat plays for: its returns; in shengji its side's share of the
    points (the attackers' total, negated for the dealer's side), which the levels follow in
    steps."""
    if state.game.id == "shengji":
        d = state.result.details
        return d["attack_total"] if me % 2 != d["dealer"] % 2 else -d["attack_total"]
    return state.returns()[me]


# baohuang: 8 deals, as three were too few to tell the level from random once the plays show
# their ranks only (qipai.cards.table_ids): over seeds 6..15 level 3 scored more in 7, less in 2;
# shengji: 20 playouts, as with fewer the search keeps the rule bot's play (its duel needs a few)
@pytest.mark.parametrize(("case", "deals", "playouts"), [("baohuang", 8, 4), ("baohuang-sdbh", 4, 12),
                                                         ("shengji", 4, 20), ("shengji-1deck", 12, 4)])
def test_level_3_beats_random(case, deals, playouts):
    """Duplicate deals: the searched seat scores more than random play from the same seat and
    role in most deals, and more in all."""
    pairs = duplicate(case, range(deals), playouts)
    better = sum(a > b for a, b in pairs)
    worse = sum(a < b for a, b in pairs)
    assert better > worse and sum(a for a, _ in pairs) > sum(b for _, b in pairs), pairs


def test_level_3_beats_random_in_junqi():
    # 30 playouts (the level plays 300): at 6 or 12 its value alone leads it into positions with no
    # piece free to move, and random wins some of those (no_move)
    assert level_helpers.two_seat_games(qipai.load("junqi"), 2, 30) == [True, True]


def test_lobby_levels_reach_the_new_search_bots(tmp_path):
    for game_id in sorted({g for g, _ in CASES.values()}):
        assert bot_levels(game_id) == {1: "random", 2: bot_levels(game_id)[2], 3: "mcts3", 4: "mcts4",
                                       5: "mcts5"}
    with client(tmp_path, bot_delay_ms=0) as c:
        me = signup(c, "alice")
        levels = {g["id"]: g["levels"] for g in c.get("/api/games").json()}
        for game_id in sorted({g for g, _ in CASES.values()}):
            assert levels[game_id]["5"] == "mcts5"
        r = post(c, me, "/api/tables", {"game": "shengji", "bots": 3, "level": 5})
        assert r.status_code == 201, r.text
        assert [s.get("bot") for s in r.json()["seats"]].count("mcts5") == 3
        r = post(c, me, "/api/tables", {"game": "baohuang", "bots": 0})
        assert r.status_code == 201, r.text
        tid = r.json()["id"]
        r = post(c, me, f"/api/tables/{tid}/bot", {"level": 3})
        assert r.status_code == 200, r.text
        r = post(c, me, f"/api/tables/{tid}/fill", {"level": 4})
        assert r.status_code == 200, r.text
        bots = [s.get("bot") for s in r.json()["seats"]]
        assert bots.count("mcts3") == 1 and bots.count("mcts4") == 3, bots
        r = post(c, me, "/api/tables", {"game": "junqi", "bots": 0})
        assert r.status_code == 201, r.text
        r = post(c, me, f"/api/tables/{r.json()['id']}/bot", {"level": 5})
        assert r.status_code == 200 and "mcts5" in [s.get("bot") for s in r.json()["seats"]], r.text
