"""Doudizhu deals: bidding variants, play flow, scoring (§8 edge cases 18-25), views, records,
record formats, the rule bot and terminal play."""

import io
import json
import random
import re
from pathlib import Path

import pytest
from rich.console import Console

import qipai
from qipai.bots import make_bot
from qipai.cards import table_ids
from qipai.core.errors import IllegalAction, NotationError, RecordError
from qipai.core.formats import read_records
from qipai.core.record import Record, replay
from qipai.games.doudizhu import PASS
from qipai.games.doudizhu.formats import botzone_card, botzone_number, write_botzone
from qipai.games.doudizhu.match import Match, MatchScore, event_points
from tests.doudizhu_helpers import make_deal, new, play_out

TRACE = Path("/work/shared/data/doudizhu/openspiel_dou_dizhu_playthrough_0f6b8cea.txt")


def random_game(game, seed, bots=None):
    state = game.new_state(seed=seed)
    rng = random.Random(seed)
    while not state.is_terminal():
        p = state.current_player
        action = bots[p].choose(state, p) if bots else rng.choice(state.legal_actions())
        state.apply(action)
    return state


# ----- bidding ---------------------------------------------------------------------------

def test_edge18_bid_3_ends_bidding():
    s = new(make_deal(["*", "*", "*"], "345", first_bidder=1))
    play_out(s, ["bid 1", "bid 3"])
    assert (s.phase, s.landlord, s.base, s.current_player) == ("play", 2, 3, 2)
    assert [seat for seat, _ in s.bid_log] == [1, 2]                      # seat 0 never asked
    assert len(s.hand(2)) == 20 and all(c in s.hand(2) for c in s.kitty)


def test_edge19_all_pass_redeals_and_rotates_first_bidder():
    s = qipai.load("doudizhu").new_state(seed=11)
    first = s.first_bidder
    old = s.hand(0)
    play_out(s, ["pass", "pass", "pass"])
    assert s.redeals == 1 and s.phase == "bidding" and s.result is None
    assert s.first_bidder == (first + 1) % 3 == s.current_player
    assert s.hand(0) != old and len(s.deal) == 2


def test_edge20_bids_must_rise():
    s = new(make_deal(["*", "*", "*"], "345"))
    s.apply("bid 2")
    assert [str(a) for a in s.legal_actions()] == ["pass", "bid 3"]
    for bad in ("bid 1", "bid 2", "call", "333"):
        before = s.to_json()
        with pytest.raises(IllegalAction):
            s.apply(bad)
        assert s.to_json() == before


def test_points_bidding_highest_bid_wins_after_three():
    s = new(make_deal(["*", "*", "*"], "345"))
    play_out(s, ["bid 1", "pass", "bid 2"])
    assert (s.landlord, s.base) == (2, 2)


def test_edge24_seed002_call_four_times_and_two_bombs():
    deal = make_deal(["333444555889TTJQ2", "6666 7777 89TJQ KKAA", "*"], "345",
                     first_bidder=0, face_up="3")
    s = new(deal, preset="seed002")
    assert s.face_up is not None and s.first_bidder == 0
    play_out(s, ["call", "call", "call"])
    assert s.current_player == 0 and [str(a) for a in s.legal_actions()] == ["pass", "call"]
    s.apply("call")
    assert (s.landlord, s.base) == (0, 4)
    play_out(s, ["3", "6666", "pass", "pass", "7777", "pass", "pass", "89TJQ", "pass", "pass",
                 "KK", "pass", "pass", "AA"])
    assert s.is_terminal() and s.returns() == [-32, 16, 16]
    assert s.result.details["multiplier"] == 4 and not s.result.details["anti_spring"]


def test_edge25_seed002_first_caller_passes():
    s = new(make_deal(["*", "*", "*"], "345", face_up="3"), preset="seed002")
    play_out(s, ["pass", "call", "call", "pass"])
    assert (s.landlord, s.base) == (2, 2)


def test_seed002_single_caller_and_no_caller():
    s = new(make_deal(["*", "*", "*"], "345", face_up="3"), preset="seed002")
    play_out(s, ["pass", "call", "pass"])
    assert (s.landlord, s.base) == (1, 1)
    s = qipai.load("doudizhu", preset="seed002").new_state(seed=4)
    play_out(s, ["pass", "pass", "pass"])
    assert s.redeals == 1 and s.face_up is not None
    assert s.first_bidder == next(i for i, h in enumerate(s.deal_hands()) if s.face_up in h)


def test_openspiel_auction_and_void_end():
    s = new(make_deal(["*", "*", "*"], "345", face_up="3"), preset="openspiel")
    play_out(s, ["bid 1", "bid 2", "pass", "bid 3"])             # seat 0 bids again
    assert (s.landlord, s.base) == (0, 3)
    s = new(make_deal(["*", "*", "*"], "345", face_up="3"), preset="openspiel")
    play_out(s, ["pass", "pass", "bid 1", "pass", "pass"])
    assert (s.landlord, s.base) == (2, 1)
    s = new(make_deal(["*", "*", "*"], "345", face_up="3"), preset="openspiel")
    play_out(s, ["pass", "pass", "pass"])
    assert s.is_terminal() and s.returns() == [0, 0, 0] and s.result.reason == "no_bid"


def test_no_bidding_first_seat_is_landlord():
    s = new(make_deal(["*", "*", "*"], "345"), preset="rlcard")
    assert (s.phase, s.landlord, s.base, s.current_player) == ("play", 0, 1, 0)


# ----- play flow and scoring ---------------------------------------------------------------

def test_turn_flow_lead_cannot_pass_and_two_passes_end_a_trick():
    s = new(make_deal(["3456789TJQKA2LB 33", "*", "*"], "444"))
    play_out(s, ["bid 1", "pass", "pass"])
    with pytest.raises(IllegalAction, match="leader must play"):
        s.apply("pass")
    s.apply("3")
    assert s.legal_actions()[0] is PASS
    play_out(s, ["pass", "pass"])
    assert s.top is None and s.current_player == 0
    with pytest.raises(IllegalAction, match="not your|is not to act"):
        s.apply("pass", seat=1)


def test_edge21_bomb_and_rocket_double():
    deal = make_deal(["3333LB99TTJJQQKK4", "5", "*"], "A22")
    s = new(deal)
    play_out(s, ["bid 2", "pass", "pass", "3333", "pass", "pass", "LB", "pass", "pass",
                 "99TTJJQQKK", "pass", "pass", "4", "5", "pass", "2", "pass", "pass", "A", "pass", "pass",
                 "2"])
    assert s.returns() == [16, -8, -8]
    assert s.result.details == {"landlord": 0, "base": 2, "multiplier": 4, "bombs": 2, "spring": False,
                                "anti_spring": False, "out": 0}


def test_edge22_spring():
    s = new(make_deal(["3456789TJQKA33445", "*", "*"], "522"))
    play_out(s, ["bid 3", "3456789TJQKA", "pass", "pass", "334455", "pass", "pass", "22"])
    assert s.returns() == [12, -6, -6] and s.result.details["spring"]
    off = new(make_deal(["3456789TJQKA33445", "*", "*"], "522"), spring=False)
    play_out(off, ["bid 3", "3456789TJQKA", "pass", "pass", "334455", "pass", "pass", "22"])
    assert off.returns() == [6, -3, -3]


def test_edge23_anti_spring():
    s = new(make_deal(["3", "5555 6789TJQKA JJQQ", "*"], "444"))
    play_out(s, ["bid 1", "pass", "pass", "3", "5555", "pass", "pass", "6789TJQKA", "pass", "pass",
                 "JJ", "pass", "pass", "QQ"])
    assert s.returns() == [-8, 4, 4] and s.result.details["anti_spring"]
    assert s.result.winners == (1, 2) and s.sides() == [(0,), (1, 2)]


def test_edge8_four_with_two_does_not_double_but_a_bomb_does():
    s = new(make_deal(["KKKK45 A", "3333AAA6789TJQ22L", "*"], "789"))
    play_out(s, ["bid 1", "pass", "pass", "KKKK45"])
    assert s.bombs == 0
    assert [p.text for p in s.legal_actions() if p is not PASS] == ["3333"]   # AAA46 lacks an A
    s.apply("3333")
    assert s.bombs == 1


def test_edge12_rocket_forces_passes_and_rocket_doubling_option():
    for opt, want in ((True, 1), (False, 0)):
        s = new(make_deal(["LB3", "2222", "*"], "789"), rocket_doubles=opt)
        play_out(s, ["bid 1", "pass", "pass", "LB"])
        assert s.legal_actions() == [PASS]
        assert s.bombs == want
        with pytest.raises(IllegalAction, match="nothing beats the rocket"):
            s.apply("2222")


def test_illegal_plays_name_the_reason_and_leave_the_state():
    s = new(make_deal(["33344456789TJQKA2", "*", "*"], "TJQ"))
    play_out(s, ["bid 1", "pass", "pass"])
    for text, reason in (("3333", "not in your hand"), ("3334445", "kicker count"), ("34", "pair"),
                         ("AH", "not in your hand")):
        before = s.to_json()
        with pytest.raises(IllegalAction, match=reason):
            s.apply(text)
        assert s.to_json() == before
    s.apply("333444+56")
    before = s.to_json()
    with pytest.raises(IllegalAction, match="kicker count does not match airplane length"):
        s.apply("33344455566", seat=1)
    assert s.to_json() == before


def test_play_objects_of_another_rule_set_or_a_bomb_headed_chain_are_refused():
    """``apply`` takes a play object only if it is one of this game's table (by identity), in
    the hand, allowed by the chain-head rule and beating the play on the table; otherwise it
    raises and changes nothing."""
    from qipai.games.doudizhu.combos import ORDER, table

    s = new(make_deal(["33334567899TJQKA2", "*", "*"], "TJQ", face_up="3"), preset="openspiel")
    play_out(s, ["bid 3"])
    classic = table().readings(ORDER.parse_counts("333345"))[0]        # four_two_solo
    same_cards = [p for p in s.legal_actions() if p.code == classic.code]
    assert classic.type == "four_two_solo" and not same_cards
    straight = s.game.table.readings(ORDER.parse_counts("34567"))[0]
    for play, reason in ((classic, "not a combination under this game's options"),
                         (straight, "chain may not start at a rank you hold four of"),
                         (table().readings(ORDER.parse_counts("34567"))[0], "not a combination")):
        before = s.to_json()
        with pytest.raises(IllegalAction, match=reason):
            s.apply(play)
        assert s.to_json() == before
    s.apply(s.game.table.readings(ORDER.parse_counts("9"))[0])
    low = s.game.table.readings(ORDER.parse_counts("3"))[0]
    before = s.to_json()
    with pytest.raises(IllegalAction):
        s.apply(low)                              # seat 1 holds no 3 and a 3 does not beat a 9
    assert s.to_json() == before


def test_default_action_on_timeout():
    s = new(make_deal(["5 6 7", "*", "*"], "TJQ"))
    assert s.default_action(0) is PASS
    play_out(s, ["bid 1", "pass", "pass"])
    low = s.default_action(0)
    assert low.type == "single" and low.ranks == s.hand_ranks(0)[0]      # hand_ranks is lowest first
    s.apply(low)
    assert s.default_action(1) is PASS


def test_forfeit_scores_the_side():
    s = new(make_deal(["*", "*", "*"], "345"))
    play_out(s, ["bid 2", "pass", "pass"])
    s.forfeit(1, "timeout")
    assert s.returns() == [4, -2, -2] and s.result.reason == "timeout"


# ----- views -----------------------------------------------------------------------------------

@pytest.mark.parametrize("preset", ["classic", "seed002", "openspiel"])
def test_views_never_show_another_seats_cards(preset):
    game = qipai.load("doudizhu", preset=preset)
    for seed in range(6):
        s = game.new_state(seed=seed)
        rng = random.Random(seed)
        while True:
            for seat in (0, 1, 2, None):
                v = s.view(seat)
                text = json.dumps(v)
                allowed = set(v["hand"] or [])
                if s.landlord is not None:
                    allowed |= {c.id for c in s.kitty}
                if s.face_up is not None:
                    allowed.add(s.face_up.id)
                # laid face up, shown by the table's labels of their ranks (never the cards taken)
                allowed |= set(table_ids((c for cards in s.play_cards for c in cards), {}))
                if s.is_terminal():           # the deal over: every seat's cards left are shown
                    allowed |= {c.id for x in range(3) for c in s.hand(x)}
                shown = set(re.findall(r'"([2-9TJQKA][SHDC]\d|[LB]J\d)"', text))
                assert shown <= allowed, (seat, shown - allowed)
                if seat is not None:
                    assert v["hand"] == [c.id for c in s.hand(seat)]
                    assert v["counts"] == [len(s.hand(x)) for x in range(3)]
                    assert v["kitty"] is None or s.landlord is not None
            if s.is_terminal():
                break
            s.apply(rng.choice(s.legal_actions()))



@pytest.mark.parametrize("preset", ["classic", "seed002", "openspiel"])
def test_cards_held_and_played_are_the_lowest_ids_of_each_rank_taken_one_play_at_a_time(preset):
    """The state keeps rank counts only and reads the cards from the deal when asked: they
    must be the cards a referee takes one play after another (of each rank played, the lowest
    card ids the seat holds), whether read at every action, now and then, or from a copy."""
    from qipai.games.doudizhu.combos import ORDER

    game = qipai.load("doudizhu", preset=preset)
    for seed in range(8):
        s = game.new_state(seed=seed)
        rng = random.Random(seed)
        deals = 0
        while not s.is_terminal():
            if len(s.deal) != deals:                  # a new deal (a redeal after no bid)
                deals = len(s.deal)
                held = [sorted(h, key=ORDER.card_key) for h in s.deal_hands()]
                taken = []
                lord = None
            action = rng.choice(s.legal_actions())
            if s.phase == "play" and action is not PASS:
                seat, cards = s.turn, []
                for r, n in action.parts:
                    of_rank = [c for c in held[seat] if ORDER.index[c.rank] == r][:n]
                    cards += of_rank
                for c in cards:
                    held[seat].remove(c)
                taken.append(cards)
            copy = s.clone() if rng.random() < 0.2 else None
            s.apply(action)
            if s.landlord is not None and lord is None and len(s.deal) == deals:   # the kitty
                lord = s.landlord
                held[lord] = sorted(held[lord] + s.kitty, key=ORDER.card_key)
            if rng.random() < 0.3 or s.is_terminal():
                assert s.play_cards == taken
                assert [s.hand(x) for x in range(3)] == held
                assert [[c for per in h for c in per] for h in s.hands] == held
            if copy is not None:
                copy.apply(action)
                assert copy.play_cards == taken and [copy.hand(x) for x in range(3)] == held

# ----- records ----------------------------------------------------------------------------------

def test_json_round_trip_and_replay_from_deal_only():
    game = qipai.load("doudizhu")
    s = random_game(game, 3)
    data = s.to_json()
    assert data["deal"] and data["seed"] == 3
    again = game.state_from_json(json.loads(json.dumps(data)))
    assert again.log == s.log and again.returns() == s.returns() and again.view(1) == s.view(1)
    rec = Record.from_json(data)
    rec.seed = None
    assert replay(rec).returns() == s.returns()
    _, recs = read_records(json.dumps(data).encode(), "x.json")
    assert replay(recs[0]).returns() == s.returns()


def test_deal_must_match_the_seed_and_be_one_pack():
    game = qipai.load("doudizhu")
    s = game.new_state(seed=9)
    other = game.new_state(seed=10)
    with pytest.raises(NotationError, match="does not match the seed"):
        game.new_state(seed=9, deal=other.deal)
    bad = dict(s.deal[0])
    bad["kitty"] = bad["hands"][0][:3]
    with pytest.raises(NotationError, match="one 54-card pack"):
        game.new_state(deal=bad)


def test_replay_reports_the_bad_move():
    game = qipai.load("doudizhu")
    s = random_game(game, 5)
    rec = s.to_record()
    rec.actions[len(rec.actions) // 2] = "33333"
    with pytest.raises(RecordError) as e:
        replay(rec)
    assert e.value.move == len(rec.actions) // 2 + 1


def test_openspiel_trace_replays_to_its_returns():
    name, recs = read_records(TRACE.read_bytes(), TRACE.name)
    assert name == "openspiel-playthrough" and len(recs) == 1
    rec = recs[0]
    assert rec.options == {"preset": "openspiel"} and rec.deal["face_up"] == "2H0"
    assert rec.actions[:2] == ["pass", "bid 3"]
    state = replay(rec)
    assert state.returns() == [-6, 3, 3]
    assert state.landlord == 0 and state.result.winners == (1, 2)
    # the record written by qipai replays the same way
    assert replay(Record.from_json(state.to_json())).returns() == [-6, 3, 3]
    broken = TRACE.read_bytes().replace(b'# Apply action "9TJQKA"', b'# Apply action "9TJQKA2"')
    with pytest.raises(RecordError) as e:
        read_records(broken, "broken.txt")
    assert e.value.line is not None


def test_botzone_numbers():
    assert botzone_number(botzone_card(0)) == 0 and botzone_card(0).id == "3H0"
    assert botzone_card(1).id == "3D0" and botzone_card(51).id == "2C0"
    assert botzone_card(52).id == "LJ0" and botzone_card(53).id == "BJ0"
    with pytest.raises(ValueError):
        botzone_card(54)


@pytest.mark.parametrize("preset", ["classic", "rlcard"])
def test_botzone_log_write_and_read(preset):
    game = qipai.load("doudizhu", preset=preset)
    done = 0
    for seed in range(40):
        deal = qipai.games.doudizhu.draw_deal(qipai.core.DealRng(seed), "shuffle", 2)
        s = game.new_state(deal=deal)
        rng = random.Random(seed)
        while not s.is_terminal():
            s.apply(rng.choice(s.legal_actions()))
        if s.redeals:
            continue
        log = write_botzone(s)
        assert log[0]["output"]["command"] == "request" and log[-1]["output"]["command"] == "finish"
        name, recs = read_records(json.dumps({"log": log}).encode(), "bz.json")
        assert name == "botzone-fightthelandlord"
        again = replay(recs[0])
        assert again.returns() == s.returns() and again.log == s.log
        done += 1
    assert done >= 20


def test_botzone_log_errors():
    game = qipai.load("doudizhu")
    with pytest.raises(ValueError):
        write_botzone(qipai.load("doudizhu", preset="seed002").new_state(seed=1))
    deal = qipai.games.doudizhu.draw_deal(qipai.core.DealRng(1), "shuffle", 2)
    s = game.new_state(deal=deal)
    play_out(s, ["bid 1", "bid 2", "bid 3"])
    s.apply(s.default_action(2))
    log = write_botzone(s)
    name, recs = read_records(json.dumps(log).encode(), "ok.json")
    assert replay(recs[0]).log == s.log
    log.append({"output": {"command": "request", "content": {"0": {"history": [[], []]}}}})
    log.append({"0": {"response": [99], "verdict": "OK"}})
    with pytest.raises(RecordError, match="Botzone card number"):
        read_records(json.dumps(log).encode(), "bad.json")


# ----- bots, terminal play, match -----------------------------------------------------------

def test_rule_bot_plays_smallest_beating_and_keeps_bombs():
    s = new(make_deal(["3", "5 9 K 7777", "*"], "TJQ"))
    play_out(s, ["bid 1", "pass", "pass", "3"])
    bot = make_bot("doudizhu", "rule", 0)
    assert bot.choose(s, 1).text == "5"                 # smallest single, bomb kept
    s.apply("5")
    assert bot.choose(s, 2) is PASS                     # never over its partner
    game = qipai.load("doudizhu")
    total = [0, 0, 0]
    for seed in range(30):
        st = random_game(game, seed, [make_bot("doudizhu", "rule", 1), make_bot("doudizhu", "random", 2),
                                      make_bot("doudizhu", "random", 3)])
        total = [a + b for a, b in zip(total, st.returns())]
    assert total[0] > max(total[1], total[2])


def _scripted(buf: io.StringIO, bad_first: list[str]):
    queue = list(bad_first)

    def read_line(prompt: str) -> str:
        if queue:
            return queue.pop(0)
        text = buf.getvalue()
        last = text[text.rfind("Doudizhu"):]      # the last table drawn (its title)
        if "— bidding" in last:
            return "bid 3"
        if "to beat:" in last:
            return "pass"
        ranks = re.findall(r"as ranks: (\S+)", last)[-1]
        return ranks[0]

    return read_line


def test_terminal_play_whole_deal_with_bad_input():
    from qipai.games.doudizhu.play import run

    buf = io.StringIO()
    console = Console(file=buf, width=100, color_system=None)
    state = run(qipai.load("doudizhu"), bot="rule", seat=0, seed=12, console=console,
                read_line=_scripted(buf, ["", "hint", "moves", "help", "xyz", "bid 0"]))
    out = buf.getvalue()
    assert state.is_terminal()
    assert out.count("legal: ") >= 2          # 'moves' lists them as 'hint' does
    assert "Deal over" in out and "scores" in out and "Traceback" not in out
    assert out.count("not accepted:") == 2 and "legal: " in out
    assert "your hand (" in out
    # players by name: the bots by their place and kind, no "seat 1 (bot (rule))"
    assert "Right (Rule-based bot): " in out and "Left (Rule-based bot)" in out and "you: " in out
    assert "seat 1 (" not in out and "(bot (" not in out


def test_terminal_names_the_players_in_chinese():
    from qipai import i18n
    from qipai.games.doudizhu.play import run

    buf = io.StringIO()
    console = Console(file=buf, width=100, color_system=None)
    try:
        i18n.use("zh")
        # the human passes the bid, the bots bid after, and the human leaves at the next prompt
        answers = iter(["pass", "quit"])
        run(qipai.load("doudizhu"), bot="rule", seat=0, seed=12, console=console,
            read_line=lambda prompt: next(answers))
    finally:
        i18n.use("en")
    out = buf.getvalue()
    assert "下家（规则型机器人）：" in out and "上家（规则型机器人）：" in out and "你：" in out
    assert "号位" not in out and "（机器人（" not in out


@pytest.mark.parametrize("lang, words", [("en", "Nobody bid"), ("zh", "没有人叫地主")])
def test_terminal_says_nobody_bid_in_words_not_the_option_code(lang, words):
    """With no_bid=end a deal nobody bids on ends scoreless; the terminal says so in the
    reader's language, without the option's code ("no_bid = end")."""
    from qipai import i18n
    from qipai.games.doudizhu.play import run

    buf = io.StringIO()
    lines = ["pass"] * 3
    i18n.use(lang)
    try:
        state = run(qipai.load("doudizhu", no_bid="end"), bot="random", seat=0, seed=28,
                    console=Console(file=buf, width=100, color_system=None),
                    read_line=lambda prompt: lines.pop(0))
    finally:
        i18n.use("en")
    out = buf.getvalue()
    assert state.is_terminal() and state.result.reason == "no_bid"
    line = next(x for x in out.splitlines() if words in x)
    assert "no_bid" not in out and "=" not in line, line


def test_terminal_play_end_of_input_and_quit():
    from qipai.games.doudizhu.play import run

    for script in (["bid 3", "33X"], ["quit"]):
        buf = io.StringIO()
        lines = list(script)

        def read_line(prompt, lines=lines):
            if not lines:
                raise EOFError
            return lines.pop(0)

        state = run(qipai.load("doudizhu"), bot="random", seat=1, seed=3,
                    console=Console(file=buf, width=100), read_line=read_line)
        assert not state.is_terminal()
        assert "Traceback" not in buf.getvalue()


def test_match_scoring():
    m = MatchScore("first_to_100")
    for r in ([64, -32, -32], [48, -24, -24]):
        m.add(r)
    assert m.winner() == 0 and m.totals == [112, -56, -56]
    tie = MatchScore("first_to_100")
    tie.add([100, 100, -200])
    assert tie.winner() is None
    tie.time_up()
    assert tie.winner() is None
    tie.add([2, -4, 2])
    assert tie.winner() == 0
    five = MatchScore("five_deals")
    for _ in range(4):
        five.add([2, -1, -1])
    five.add([0, 0, 0])                                  # scoreless void deals do not count
    assert five.winner() is None and five.played == 4
    five.add([-2, 1, 1])
    assert five.played == 5 and five.winner() == 0
    fixed = MatchScore("fixed_n", deals=2)
    fixed.add([2, -1, -1])
    fixed.add([-2, 1, 1])
    assert fixed.winner() is None                       # three-way tie at 0: play on
    assert [event_points(p) for p in (1, 2, 3, 7)] == [5, 3, 1, 1]
    game = qipai.load("doudizhu", match="fixed_n", match_deals=2)
    match = Match(game, "m1")
    firsts = []
    for _ in range(3):
        st = match.next_state()
        firsts.append(st.first_bidder)
        rng = random.Random(len(firsts))
        while not st.is_terminal():
            st.apply(rng.choice(st.legal_actions()))
        match.record(st)
    assert firsts[1] == (match.states[0].first_bidder + 1) % 3
    assert firsts[2] == (match.states[1].first_bidder + 1) % 3


def test_the_cards_left_are_shown_to_all_only_once_the_deal_is_over():
    """At the end every seat's cards left are in every view (as the table shows them), never
    before: a view in play holds no other seat's hand."""
    import random

    import qipai

    state = qipai.load("doudizhu").new_state(seed=5)
    rng = random.Random(5)
    while not state.is_terminal():
        for seat in (0, 1, 2, None):
            assert "remaining" not in state.view(seat)
        seat = state.to_act[0]
        state.apply(rng.choice(list(state.legal_actions(seat))), seat=seat)
    left = [[c.id for c in state.hand(s)] for s in range(3)]
    assert sum(map(len, left)) > 0
    for seat in (0, 1, 2, None):
        assert state.view(seat)["remaining"] == left
