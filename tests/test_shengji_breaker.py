"""Bad input to shengji gets a clear error and loses nothing: garbage text, wrong seat, out of
turn, cards not held, wrong counts, wrong phase, bad deals, positions and records."""

from __future__ import annotations

import json
from collections import Counter

import pytest

import qipai
from qipai.core.errors import IllegalAction, NotationError, RecordError
from qipai.core.record import Record, replay
from tests.shengji_helpers import position


def _snap(state):
    return json.dumps(state.to_json(), sort_keys=True)


def _at_play(seed=11):
    st = qipai.load("shengji").new_state(seed=seed)
    while st.phase != "play":
        st.apply(st.default_action(st.current_player))
    return st


@pytest.mark.parametrize("text,match", [
    ("", "empty"), ("@@ nope", "cannot read"), ("declare", "needs cards"), ("pass 2H", "no cards"),
    ("ZZ", "cannot read"), ("2H3", "does not exist"), ("fault play 0", "fault is"),
    (42, "not a shengji action"),
])
def test_garbage_text_is_refused_with_reason(text, match):
    st = _at_play()
    before = _snap(st)
    with pytest.raises(IllegalAction, match=match):
        st.apply(text)
    assert _snap(st) == before


def test_wrong_seat_and_out_of_turn():
    st = _at_play()
    before = _snap(st)
    seat = st.current_player
    for bad in (4, -1, "1", 7):
        with pytest.raises(IllegalAction, match="no seat"):
            st.apply(st.default_action(seat), bad)
    with pytest.raises(IllegalAction, match="not to act"):
        st.apply(st.default_action(seat), (seat + 1) % 4)
    with pytest.raises(IllegalAction, match="no seat"):
        st.view(9)
    assert _snap(st) == before


def test_wrong_phase_actions():
    st = qipai.load("shengji").new_state(seed=11)
    assert st.phase in ("deal", "window")
    with pytest.raises(IllegalAction, match="declaration prompt"):
        st.apply("bury 2S")
    while st.phase != "bury":
        st.apply("pass")
    with pytest.raises(IllegalAction, match="buries 8 cards"):
        st.apply("pass")
    with pytest.raises(IllegalAction, match="not in your hand"):
        st.apply("bury " + " ".join(["BJ"] * 3 + ["LJ"] * 3 + ["AS"] * 2))
    st.apply(st.default_action(st.dealer))
    with pytest.raises(IllegalAction, match="name the cards"):
        st.apply("declare 2H")


def test_plays_refused_with_reasons():
    st = position(["9H 9H 5C", "3H 4S 4S", "2C 3C 4C", "2D 3D 4D"], 2, "S")
    with pytest.raises(IllegalAction, match="not in your hand"):
        st.apply("AH")
    with pytest.raises(IllegalAction, match="one effective suit"):
        st.apply("9H 5C")
    st.apply("9H 9H")
    for text, match in (("3H", "exactly 2"), ("3H 4S 4S", "exactly 2"), ("4S 4S", "all your suit H"),
                        ("3H 3H", "not in your hand")):
        before = _snap(st)
        with pytest.raises(IllegalAction, match=match):
            st.apply(text)
        assert _snap(st) == before


def test_bad_deals_and_positions():
    game = qipai.load("shengji")
    with pytest.raises(NotationError, match="order"):
        game.new_state(deal={"cards": []})
    with pytest.raises(NotationError, match="full 108-card pack"):
        game.new_state(deal={"order": ["2S0"] * 108})
    good = game.new_state(seed=1).deal
    with pytest.raises(NotationError, match="does not match the seed"):
        game.new_state(seed=2, deal=good)
    with pytest.raises(NotationError, match="provisional_dealer"):
        game.new_state(deal={**good, "provisional_dealer": 9})
    with pytest.raises(NotationError, match="kitty_flip"):
        game.new_state(deal={**good, "kitty_flip": [0, 0]})
    with pytest.raises(NotationError, match="bad shengji position"):
        game.new_state(position="{not json")
    with pytest.raises(NotationError, match="equal size"):
        game.new_state(position=json.dumps({"hands": [["2S"], [], ["3S"], ["4S"]], "level": 2,
                                            "trump": "S", "dealer": 0}))
    with pytest.raises(NotationError, match="more than 2 copies"):
        game.new_state(position=json.dumps({"hands": [["2S"], ["2S"], ["2S"], ["4S"]], "level": 2,
                                            "trump": "S", "dealer": 0}))
    with pytest.raises(NotationError, match="trump"):
        game.new_state(position=json.dumps({"hands": [["2S"], ["3S"], ["5S"], ["4S"]], "level": 2,
                                            "trump": "X", "dealer": 0}))


def test_bad_record_names_the_move():
    st = _at_play()
    rec = st.to_record().to_json()
    rec["actions"] = rec["actions"][:3] + ["AS AS AS"] + rec["actions"][4:]
    with pytest.raises(RecordError, match="move 4"):
        replay(Record.from_json(rec))


def test_record_round_trip_with_external_ending():
    st = _at_play()
    st.resign(1)
    assert st.result.text == "forfeit by 1+3" and st.result.winners == (0, 2)
    again = qipai.load("shengji").state_from_json(st.to_json())
    assert again.result.text == "forfeit by 1+3" and again.result.reason == "resign"
    with pytest.raises(IllegalAction):
        st.apply("pass")
    fresh = _at_play()
    with pytest.raises(IllegalAction, match="forfeit by"):
        fresh.end_by_result_text("1-0", "timeout")
    with pytest.raises(IllegalAction, match="no drawn ending"):
        fresh.agree_draw()


# ----- breaker findings ------------------------------------------------------------------------
def _attacker_to_act(profile="seed000", seed=11, **options):
    st = qipai.load("shengji", profile=profile, **options).new_state(seed=seed)
    while st.phase != "play":
        st.apply(st.default_action(st.current_player))
    while st.current_player % 2 == st.dealer % 2:
        st.apply(st.default_action(st.current_player))
    return st


@pytest.mark.parametrize("text", ["fault bury {dt}", "fault count {dt}", "fault follow {dt}",
                                  "fault play {dt} 20"])
def test_a_seat_cannot_enter_a_fault_against_the_other_team(text):
    """A fault entry is a sanction, never a player's move: an attacker on turn who sends
    ``fault bury <dealer team>`` must not end the hand as "take over" (nor pile count or
    follow errors or penalty points on the opponents)."""
    st = _attacker_to_act()
    seat, dt = st.current_player, st.dealer % 2
    before = _snap(st)
    with pytest.raises(IllegalAction, match="fault"):
        st.apply(text.format(dt=dt), seat)
    assert _snap(st) == before and st.result is None


def test_play_and_bury_faults_need_the_s000_sanctions():
    """§5.3: only count and follow errors may be entered whatever ``strict`` says; the s000
    play penalty and the wrong-size-bury ending exist only with strict s000 sanctions, so a
    dealer cannot end a bad hand as a 0-level "take over" by entering a bury fault."""
    st = qipai.load("shengji").new_state(seed=4)
    while st.phase != "bury":
        st.apply("pass")
    before = _snap(st)
    with pytest.raises(IllegalAction, match="strict"):
        st.apply(f"fault bury {st.dealer % 2}", st.dealer)
    assert _snap(st) == before
    st.apply(st.default_action(st.dealer))
    seat = st.current_player
    with pytest.raises(IllegalAction, match="strict"):
        st.apply(f"fault play {seat % 2} 3", seat)
    strict = qipai.load("shengji", strict=True).new_state(seed=4)
    while strict.phase != "bury":
        strict.apply("pass")
    other = (strict.dealer + 1) % 4
    with pytest.raises(IllegalAction):           # only the dealer's team, in the bury phase
        strict.apply(f"fault bury {other % 2}", other)
    strict.apply(f"fault bury {strict.dealer % 2}", strict.dealer)
    assert strict.result.reason == "bury_fault"


def test_referee_entries_for_a_team_replay():
    """Count and follow errors (§5.3, entered by a referee whatever ``strict`` says) are made in
    the name of a seat of the faulted team, on turn or not, and replay from the record."""
    st = _attacker_to_act(profile="seed002", seed=3)
    not_on_turn = (st.current_player + 2) % 4
    st.apply(f"fault follow {not_on_turn % 2}", not_on_turn)
    st.apply(f"fault count {st.current_player % 2}")
    assert st.follow_errors[not_on_turn % 2] == 1 and st.count_errors[st.current_player % 2] == 1
    again = qipai.load("shengji", profile="seed002").state_from_json(st.to_json())
    assert again.follow_errors == st.follow_errors and again.count_errors == st.count_errors
    assert _snap(again) == _snap(st)


@pytest.mark.parametrize("extra", [
    {"trick_points": "abc"}, {"trick_points": None}, {"trick_points": 2.5}, {"levels": [1]},
    {"levels": "xy"}, {"levels": 5}, {"levels": [99, 2]}, {"levels": [2, None]}, {"level": 2.5},
    {"dealer": True}, {"leader": "0"}, {"buried": ["9S2"]}, {"hands": [["2S2"], ["3S"], ["5S"], ["4S"]]},
])
def test_bad_position_fields_are_notation_errors(extra):
    """Every malformed position field is a NotationError naming the position, not a crash or
    a silently accepted level 99 / deck index beyond the packs."""
    data = {"hands": [["2S"], ["3S"], ["5S"], ["4S"]], "level": 2, "trump": "S", "dealer": 1, **extra}
    with pytest.raises(NotationError, match="position"):
        qipai.load("shengji").new_state(position=json.dumps(data))


@pytest.mark.parametrize("options", [{"must_play_levels": "10,x"}, {"profile": ["seed000"]},
                                     {"profile": {"a": 1}}])
def test_bad_options_are_option_errors(options):
    from qipai.core.errors import OptionError
    with pytest.raises(OptionError):
        qipai.load("shengji", **options)


# ----- independent check of §3.7 following and §3.8 trick winners (2 decks) ---------------------
def _runs_in(counts, pos, maxlen):
    """Every tractor (faces, top first) of 2..maxlen pairs available in ``counts``; pairs of
    equal pos are different faces and may sit in different runs."""
    faces = [f for f, c in counts.items() if c >= 2]
    out = []

    def grow(seq):
        if len(seq) >= 2:
            out.append(tuple(seq))
        if len(seq) < maxlen:
            for g in faces:
                if pos[g] == pos[seq[-1]] - 1:
                    grow(seq + [g])
    for f in faces:
        grow([f])
    return out


def _coverage(counts, pos, lengths):
    best = 0

    def rec(i, cnt, acc):
        nonlocal best
        best = max(best, acc)
        if i < len(lengths):
            rec(i + 1, cnt, acc)
            for run in _runs_in(cnt, pos, lengths[i]):
                rec(i + 1, {f: c - 2 * (f in run) for f, c in cnt.items()}, acc + len(run))
    rec(0, dict(counts), 0)
    return best


def _my_follow_ok(play, hand, eff, pos, suit, fmt, n):
    he = {f: c for f, c in hand.items() if c and eff[f] == suit}
    if sum(he.values()) <= n:
        return all(play.get(f, 0) >= c for f, c in he.items())
    if any(eff[f] != suit for f in play):
        return False
    lengths = sorted((ln for k, ln in fmt if k == "tractor"), reverse=True)
    pf = sum(ln if k == "tractor" else 1 for k, ln in fmt if k in ("tractor", "pair"))
    pairs = lambda x: sum(1 for c in x.values() if c >= 2)  # noqa: E731
    return (_coverage(play, pos, lengths) == _coverage(he, pos, lengths)
            and min(pairs(play), pf) == min(pairs(he), pf))


def _my_key(play, fmt, pos):
    """Highest top of the key-shape component over every split of ``play`` into ``fmt``."""
    order = {"tractor": 0, "pair": 1, "single": 2}
    key = min(fmt, key=lambda s: (order[s[0]], -s[1]))
    best = None

    def split(cnt, shapes, tops):
        nonlocal best
        if not shapes:
            if not any(cnt.values()):
                top = max(t for s, t in tops if s == key)
                best = top if best is None else max(best, top)
            return
        (kind, ln), rest = shapes[0], shapes[1:]
        if kind == "tractor":
            parts = [tuple(x for f in r for x in (f, f)) for r in _runs_in(cnt, pos, ln) if len(r) == ln]
        else:
            parts = [(f,) * (2 if kind == "pair" else 1) for f, c in cnt.items()
                     if c >= (2 if kind == "pair" else 1)]
        for part in parts:
            left = dict(cnt)
            for f in part:
                left[f] -= 1
            split(left, rest, tops + [((kind, ln), max(pos[f] for f in part))])
    split(dict(play), list(fmt), [])
    return best


def _my_winner(plays, fmt, eff, pos):
    from qipai.games.shengji.trump import TRUMP
    (leader, lead), suit = plays[0], eff[plays[0][1][0]]
    win, key, wsuit = leader, _my_key(Counter(lead), fmt, pos), suit
    for seat, cards in plays[1:]:
        suits = {eff[f] for f in cards}
        s = suits.pop()
        if suits or s not in (suit, TRUMP):
            continue
        k = _my_key(Counter(cards), fmt, pos)
        if k is None:
            continue
        if s == TRUMP and wsuit != TRUMP:
            win, key, wsuit = seat, k, TRUMP
        elif s == wsuit and k > key:
            win, key = seat, k
    return win


@pytest.mark.parametrize("seed,profile,two", [(1, "seed000", False), (2, "seed001", True),
                                              (3, "seed003", False), (4, "seed002", True)])
def test_follow_sets_and_winners_match_an_independent_check(seed, profile, two):
    """Random hands with structured leads (pairs, tractors, throws): at every follow the
    legal set equals every N-card choice that an independent §3.7 check accepts, and every
    trick's winner equals an independent §3.8 key comparison."""
    import random

    from qipai.cards.submultisets import SubMultisets

    rng = random.Random(seed)
    st = qipai.load("shengji", profile=profile, two_always_trump=two).new_state(seed=seed)
    checked = 0
    while not st.is_terminal():
        seat = st.current_player
        if st.phase != "play":
            st.apply(st.default_action(seat), seat)
            continue
        eff, pos = st.trump.eff, st.trump.pos
        if st.trick:
            hand = dict(st.hands[seat])
            every = SubMultisets(sorted(hand.items()), st.lead_n, lambda t: t)
            if len(every) <= 3000:
                legal = {tuple(sorted(a.faces)) for a in st.legal_actions(seat)}
                mine = {tuple(sorted(t)) for t in every
                        if _my_follow_ok(Counter(t), hand, eff, pos, st.lead_suit, st.lead_fmt, st.lead_n)}
                assert legal == mine, (st.trump, st.lead_fmt, hand)
                checked += 1
            acts = st.legal_actions(seat)
            st.apply(acts[rng.randrange(len(acts))], seat)
        else:
            groups: dict[str, list[str]] = {}
            for f, c in st.hands[seat].items():
                groups.setdefault(eff[f], []).extend([f] * c)
            cards = groups[rng.choice(sorted(groups))]
            pairs = sorted({f for f in cards if cards.count(f) >= 2})
            rng.shuffle(pairs)
            pick = [x for f in pairs[:rng.randint(0, 3)] for x in (f, f)] or rng.sample(cards, 1)
            st.apply(" ".join(pick), seat)
        if not st.trick and st.tricks:
            t = st.tricks[-1]
            plays = [(s, tuple(fs)) for s, fs in t["plays"]]
            assert t["winner"] == _my_winner(plays, [tuple(x) for x in t["format"]], eff, pos), t
    assert checked > 40


def test_tractor_coverage_counts_two_runs_through_equal_pos_faces():
    """§3.7 TC: runs are disjoint sets of pairs, and two level pairs of equal pos may sit in two
    different runs. Level T, NT, 常主: the led throw is two tractors (TC TC 2C 2C, TD TD 2D 2D),
    seat 1 holds 2S 2S TS TS and 2H 2H TH TH (two tractors) plus BJ BJ, so TC = 4 and the only
    legal follow is both tractors; ``2S 2S TS TS 2H 2H BJ BJ`` (TC 2) is refused."""
    st = position(["TC TC 2C 2C TD TD 2D 2D 3S 4S", "2S 2S TS TS 2H 2H TH TH BJ BJ",
                   "LJ 3C 4C 5C 6C 7C 8C 9C JC QC", "LJ 3D 4D 5D 6D 7D 8D 9D JD QD"], 10, "NT",
                  two_always_trump=True)
    st.apply("TC TC 2C 2C TD TD 2D 2D")
    assert st.lead_fmt == [("tractor", 2), ("tractor", 2)] and not st.failed_throws
    assert [str(a) for a in st.legal_actions(1)] == ["TS TS TH TH 2S 2S 2H 2H"]
    before = _snap(st)
    with pytest.raises(IllegalAction, match="tractors"):
        st.apply("2S 2S TS TS 2H 2H BJ BJ")
    assert _snap(st) == before
    st.apply("2S 2S TS TS 2H 2H TH TH")


def test_tractor_coverage_matches_a_run_by_run_search():
    """TC of random trump holdings (level cards and 常主 2s of several suits share a pos)
    against the independent search above, for one to three led tractors."""
    import random

    from qipai.games.shengji import combos as cb
    from qipai.games.shengji.trump import Trump

    rng = random.Random(5)
    for _ in range(400):
        trump = Trump(rng.choice([5, 10, 13]), rng.choice(["S", "H", None]), two_always=rng.random() < 0.6)
        faces = [f for f in trump.eff if trump.eff[f] == "TRUMP"]
        holding = {f: 2 for f in rng.sample(faces, rng.randint(2, min(10, len(faces))))}
        lengths = tuple(sorted((rng.randint(2, 4) for _ in range(rng.randint(1, 3))), reverse=True))
        mine = _coverage(holding, trump.pos, list(lengths))
        assert cb.tractor_coverage(holding, trump.pos, lengths) == mine, (trump, holding, lengths)


# ----- one deck: an option that does not fit one pack is refused in words that fit it --------------
@pytest.mark.parametrize("options,says", [
    ({"profile": "seed001", "decks": 1}, "one deck has a 6-card kitty"),
    ({"profile": "titanic", "decks": 1}, "one deck uses ladder2 or bao"),
    ({"decks": 1, "score_table": "t000"}, "one deck uses no other"),
    ({"profile": "one_deck", "decks": 2}, "2 decks have an 8-card kitty"),
    ({"decks": 3, "kitty_size": 6}, "3 decks use grab3"),
    ({"decks": 2, "declaration": "grab3"}, "2 decks use ladder2 or bao"),
])
def test_deck_count_refusals_name_the_deck_count_given(options, says):
    from qipai.core.errors import OptionError

    with pytest.raises(OptionError) as e:
        qipai.load("shengji", **options)
    text = str(e.value)
    assert says in text
    assert "1 decks" not in text and "a 8-card" not in text
    if options["decks"] == 1:                      # the way to a one-deck game is named
        assert "profile='one_deck'" in text
