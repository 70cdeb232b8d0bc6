"""The game contract, exercised on a small game defined here (independent of any real game).

The test game has three seats, a seeded chance deal, a simultaneous sealed-bid phase and
score results, so every part of the contract that real games rely on is covered.
"""

from __future__ import annotations

import json

import pytest

import qipai
from qipai.core import DealRng, Game, IllegalAction, Option, Record, Result, State, commitment, verify
from qipai.core.errors import OptionError, RecordError
from qipai.core.registry import _GAMES, _MODULES, register


class BidState(State):
    """Deal one card 1..9 to each seat; all bid 0-2 at once; then each in turn says 'show'.
    Score: the highest card wins the sum of bids; others lose their bid."""

    def __init__(self, game, **kw):
        super().__init__(game, **kw)
        if self.deal is None:
            rng = DealRng(self.seed if self.seed is not None else 0)
            cards = rng.shuffle(list(range(1, 10)))
            self.deal = cards[: self.num_seats]
        self.cards = list(self.deal)
        self.bids: dict[int, int] = {}
        self.shown = 0

    @property
    def to_act(self):
        if self.result is not None:
            return ()
        if len(self.bids) < self.num_seats:
            return tuple(s for s in range(self.num_seats) if s not in self.bids)
        return (self.shown,)

    def _legal_actions(self, seat):
        if len(self.bids) < self.num_seats:
            return [f"bid{n}" for n in range(self.game.options["max_bid"] + 1)]
        return ["show"]

    def _apply(self, action, seat):
        if action not in self._legal_actions(seat):
            raise IllegalAction("not a legal action here", action)
        if action == "show":
            self.shown += 1
            if self.shown == self.num_seats:
                top = max(range(self.num_seats), key=lambda s: self.cards[s])
                pot = sum(self.bids.values())
                rets = tuple(float(pot - self.bids[s]) if s == top else float(-self.bids[s])
                             for s in range(self.num_seats))
                self.result = Result(rets, "showdown", f"seat {top}", (top,))
        else:
            self.bids[seat] = int(action[3:])

    def view(self, seat):
        return {"my_card": self.cards[seat] if seat is not None else None,
                "bid_made": sorted(self.bids), "shown": self.shown}


@register
class BidGame(Game):
    id = "test-bid"
    name_zh = "测试"
    name_en = "Test bid"
    seats = (3, 4)
    option_spec = (Option("max_bid", 2, kind=int, minimum=0, doc="highest bid"),
                   Option("style", "plain", choices=("plain", "fancy")))

    def new_state(self, *, seed=None, deal=None, position=None, num_seats=None):
        return BidState(self, seed=seed, deal=deal, position=position, num_seats=num_seats)

    def parse_action(self, text, state=None):
        ok = isinstance(text, str) and (text == "show" or (text.startswith("bid") and text[3:].isdigit()))
        if not ok:
            raise IllegalAction("cannot read action", text)
        return text


_MODULES["test-bid"] = __name__


def play_out(state):
    for s in list(state.to_act):
        state.apply("bid1", seat=s)
    while not state.is_terminal():
        state.apply("show")
    return state


def test_options_defaults_and_errors():
    g = qipai.load("test-bid")
    assert g.options == {"max_bid": 2, "style": "plain"}
    assert qipai.load("test-bid", max_bid="3").options["max_bid"] == 3
    with pytest.raises(OptionError, match="valid options: max_bid, style"):
        qipai.load("test-bid", colour="red")
    with pytest.raises(OptionError, match="valid values: 'plain', 'fancy'"):
        qipai.load("test-bid", style="odd")
    with pytest.raises(OptionError, match=">= 0"):
        qipai.load("test-bid", max_bid=-1)
    with pytest.raises(OptionError, match="valid games"):
        qipai.load("no-such-game")


def test_games_lists_every_game():
    ids = {info.id for info in qipai.games()}
    assert "test-bid" in ids and "xiangqi" in ids
    info = next(i for i in qipai.games() if i.id == "test-bid")
    assert info.seats == (3, 4) and info.name_zh == "测试"
    assert json.loads(json.dumps(info.to_json()))["options"][0]["default"] == 2


def test_simultaneous_phase_and_seats():
    st = qipai.load("test-bid").new_state(seed=5)
    assert st.to_act == (0, 1, 2) and st.current_player is None
    with pytest.raises(IllegalAction, match="name the seat"):
        st.apply("bid1")
    st.apply("bid2", seat=1)
    assert st.to_act == (0, 2)
    with pytest.raises(IllegalAction, match="not to act"):
        st.apply("bid1", seat=1)
    with pytest.raises(IllegalAction, match="no seat"):
        st.apply("bid1", seat=7)
    assert st.legal_actions(1) == []
    assert st.legal_actions(0) == ["bid0", "bid1", "bid2"]


def test_illegal_action_changes_nothing():
    st = qipai.load("test-bid", max_bid=1).new_state(seed=1)
    before = st.to_json()
    for bad in ("bid2", "dance", "show"):
        with pytest.raises(IllegalAction) as exc:
            st.apply(bad, seat=0)
        assert exc.value.reason
    for seat in (True, False, 1.0, "0", -1, 99):        # a bool is not a seat number
        with pytest.raises(IllegalAction, match="no seat"):
            st.apply(st.legal_actions(0)[0], seat=seat)
    assert st.to_json() == before


def test_seeded_deal_is_reproducible_and_verifiable():
    a = qipai.load("test-bid").new_state(seed="abc")
    b = qipai.load("test-bid").new_state(seed="abc")
    assert a.cards == b.cards
    assert verify("abc", commitment("abc")) and not verify("abd", commitment("abc"))
    # the stream is fixed by the seed alone, independent of platform
    assert DealRng(7).shuffle(list(range(10))) == DealRng(7).shuffle(list(range(10)))
    counts = [0] * 3
    rng = DealRng(1)
    for _ in range(3000):
        counts[rng.below(3)] += 1
    assert all(900 < c < 1100 for c in counts)


def test_explicit_deal_and_scores():
    st = play_out(qipai.load("test-bid").new_state(deal=[3, 9, 1]))
    assert st.result.reason == "showdown" and st.result.winners == (1,)
    assert st.returns() == [-1.0, 2.0, -1.0]
    assert st.legal_actions() == []
    with pytest.raises(IllegalAction, match="over"):
        st.apply("show")


def test_json_round_trip_and_record_replay():
    st = qipai.load("test-bid", max_bid=2).new_state(seed=11, num_seats=4)
    st.apply("bid2", seat=3)
    st.apply("bid0", seat=0)
    data = json.loads(json.dumps(st.to_json()))
    back = qipai.load("test-bid", max_bid=2).state_from_json(data)
    assert back.to_json() == st.to_json() and back.num_seats == 4 and back.bids == st.bids
    play_out(st)
    rec = st.to_record(seats=["a", "b", "c", "d"])
    again = qipai.replay(Record.loads(rec.dumps()))
    assert again.returns() == st.returns() and again.result == st.result


def test_replay_reports_the_bad_move():
    st = play_out(qipai.load("test-bid").new_state(deal=[1, 2, 3]))
    data = st.to_json()
    data["actions"][3] = "dance"
    with pytest.raises(RecordError) as exc:
        qipai.replay(Record.from_json(data))
    assert exc.value.move == 4 and exc.value.text == "dance" and "move 4" in str(exc.value)
    data = st.to_json()
    data["result"]["text"] = "seat 0"
    with pytest.raises(RecordError, match="recorded result"):
        qipai.replay(Record.from_json(data))
    with pytest.raises(RecordError, match="not valid JSON"):
        Record.loads("{oops", source="x.json")
    with pytest.raises(RecordError, match="unknown record format"):
        Record.from_json({"format": "other/9", "game": "xiangqi"})


def test_clone_is_independent():
    st = qipai.load("test-bid").new_state(seed=3)
    c = st.clone()
    c.apply("bid1", seat=0)
    assert st.bids == {} and c.bids == {0: 1}


def teardown_module():
    _GAMES.pop("test-bid", None)
    _MODULES.pop("test-bid", None)
