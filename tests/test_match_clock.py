"""The clock model of competition.md §4, in virtual time, exact to the millisecond."""

from __future__ import annotations

import pytest

from qipai.core.errors import OptionError
from qipai.match import ClockSpec, SeatClock, clock_preset, duration_ms
from qipai.match.clock import FIRST_LEAD, Byoyomi, Canadian, Consequence
from qipai.match.presets import CLOCK_PRESETS

MIN = 60_000


def test_s3_example_exactly_five_minutes_left_enters_byoyomi():
    # §4.2: S3 clock with exactly 5:00 of game time left: both run out at 5:00, the seat
    # enters 读秒 and may still move until 8:00.
    c = SeatClock(clock_preset("xq_s3"))
    c.bank_left = 5 * MIN
    c.start_turn(0)
    assert c.deadline() == 5 * MIN
    out = c.expire()
    assert (out.kind, out.at, out.deadline) == ("overtime", 5 * MIN, "bank")
    assert c.deadline() == 8 * MIN
    assert c.act(8 * MIN) == 8 * MIN          # inclusive deadline: in time
    assert c.bank_left == 0
    # the next turn starts in overtime with a fresh period, no move cap any more
    c.start_turn(10 * MIN)
    assert c.deadline() == 13 * MIN


def test_a_first_move_grace_charges_nothing_and_loses_past_its_limit():
    # a lobby table's first move (lichess): the bank stands until the seat's first move
    c = SeatClock(ClockSpec(bank=5 * MIN, move_cap=MIN))
    c.first_move_cap = 30_000
    c.start_turn(0)
    assert c.deadline() == 30_000 and c.snapshot() == {"bank": 5 * MIN, "deadline": 30_000,
                                                        "first_move": True}
    c.act(20_000)
    assert c.bank_left == 5 * MIN                # the first move's time is not charged
    c.start_turn(25_000)                         # from the second move on the clock runs
    assert c.deadline() == 25_000 + MIN and "first_move" not in c.snapshot()
    late = SeatClock(ClockSpec(bank=5 * MIN))
    late.first_move_cap = 30_000
    late.start_turn(0)
    out = late.expire()
    assert (out.kind, out.at, late.bank_left) == ("lose", 30_000, 5 * MIN)


def test_s3_example_five_minutes_and_one_ms_loses_on_move_time():
    # with 5:01 of game time left the 5-minute move cap runs out first (at 5:00): loss
    c = SeatClock(clock_preset("xq_s3"))
    c.bank_left = 5 * MIN + 1000
    c.start_turn(0)
    assert c.deadline() == 5 * MIN
    out = c.expire()
    assert (out.kind, out.deadline) == ("lose", "cap")


def test_byoyomi_sequence_exact_remaining_time():
    # board_default: 10 min bank + 3 x 30 s byo-yomi
    c = SeatClock(clock_preset("board_default"))
    t = 0
    for think in (123_456, 200_000, 276_544):      # exactly 10 min in three moves
        c.start_turn(t)
        t += think
        c.act(t)
    assert c.bank_left == 0
    c.start_turn(t)                                # a turn never starts in bank with 0 left
    assert c.mode == "overtime" and c.deadline() == t + 30_000
    assert c.expire().kind == "period" and c.periods_left == 2
    assert c.deadline() == t + 60_000
    c.act(t + 45_001)                              # inside the second period: nothing consumed
    assert c.periods_left == 2
    c.start_turn(t + 50_000)
    assert c.deadline() == t + 80_000
    assert c.snapshot() == {"bank": 0, "periods": 2, "deadline": t + 80_000}
    assert c.expire().kind == "period"
    out = c.expire()
    assert out.kind == "lose" and out.at == t + 50_000 + 60_000 and c.periods_left == 0


def test_bank_drains_then_overtime_mid_turn():
    c = SeatClock(clock_preset("board_default"))
    c.bank_left = 7_000
    c.start_turn(1_000)
    assert c.deadline() == 8_000
    assert c.expire().kind == "overtime"
    assert c.deadline() == 38_000
    c.act(20_000)
    assert c.bank_left == 0 and c.periods_left == 3


def test_warnings_fresh_cap_and_loss_on_third():
    c = SeatClock(clock_preset("xq_s0_rapid"))
    c.start_turn(0)
    assert c.deadline() == 20_000
    w = c.expire()
    assert (w.kind, w.count) == ("warn", 1)
    assert c.deadline() == 40_000                 # a fresh 20 s from the warning
    c.act(25_000)
    c.start_turn(30_000)
    assert c.expire().kind == "warn" and c.warnings == 2
    assert c.expire().kind == "lose" and c.warnings == 3


def test_per_move_cap_loses_at_first_overrun():
    c = SeatClock(clock_preset("xq_s2_15s"))
    c.start_turn(500)
    assert c.deadline() == 15_500
    assert c.act(15_500) == 15_000               # exactly at the deadline is in time
    c.start_turn(20_000)
    assert c.expire().kind == "lose"


def test_skip_strikes_and_fifth_loses():
    c = SeatClock(clock_preset("junqi_default"))
    kinds = []
    for i in range(5):
        c.start_turn(i * 100_000)
        kinds.append(c.expire().kind)
    assert kinds == ["skip"] * 4 + ["lose"]
    # the layout phase has its own allowance
    c2 = SeatClock(clock_preset("junqi_default"))
    c2.start_turn(0, phase="layout")
    assert c2.deadline() == 180_000


def test_auto_and_trusteeship_after_two_in_a_row():
    c = SeatClock(clock_preset("card_default"))
    c.start_turn(0, phase=FIRST_LEAD)
    assert c.deadline() == 60_000
    assert c.expire().kind == "auto" and not c.trusteeship
    c.start_turn(60_000, phase="bid")
    assert c.deadline() == 90_000
    assert c.expire().kind == "auto" and c.trusteeship
    c.start_turn(100_000)
    c.act(101_000)                               # acting resets the count of timeouts in a row
    assert c.consecutive_timeouts == 0


def test_fischer_increment_cap_and_delay():
    spec = ClockSpec(bank=60_000, increment=5_000, bank_cap=62_000, delay=2_000)
    c = SeatClock(spec)
    c.start_turn(0)
    assert c.deadline() == 62_000               # delay + bank
    c.act(1_500)                                 # inside the delay: nothing charged, +5 s capped
    assert c.bank_left == 62_000
    c.start_turn(10_000)
    c.act(22_000)                                # 12 s used, 2 s free: -10 s, +5 s
    assert c.bank_left == 57_000


def test_canadian_overtime_blocks():
    spec = ClockSpec(bank=1_000, overtime=Canadian(moves=2, period=10_000))
    c = SeatClock(spec)
    c.start_turn(0)
    assert c.expire().kind == "overtime"        # at 1 000 the first block starts
    c.act(4_000)                                 # 3 s of the block used
    assert c.canadian_moves_left == 1 and c.canadian_time_left == 7_000
    c.start_turn(5_000)
    assert c.deadline() == 12_000
    c.act(11_000)                                # block done: fresh block
    assert (c.canadian_moves_left, c.canadian_time_left) == (2, 10_000)
    c.start_turn(20_000)
    assert c.expire().kind == "lose" and c.expire is not None


def test_presets_all_build_and_round_trip():
    for name in CLOCK_PRESETS:
        spec = clock_preset(name)
        assert ClockSpec.from_dict(spec.to_dict()) == spec
    assert clock_preset("xq_s3").overtime == Byoyomi(1, 180_000)
    assert clock_preset("wakeng_s4").on_cap == Consequence("auto")


def test_bad_clock_input_is_refused():
    with pytest.raises(OptionError, match="valid"):
        clock_preset("no_such_clock")
    with pytest.raises(OptionError, match="unknown clock part"):
        ClockSpec.from_dict({"bank": "1m", "bonus": "1s"})
    with pytest.raises(OptionError, match="bad duration"):
        duration_ms("ten minutes")
    with pytest.raises(OptionError, match="needs a maximum count from 1 to 1000"):
        Consequence("warn")
    assert duration_ms("1.5h") == 5_400_000 and duration_ms("1500ms") == 1500 and duration_ms(7) == 7
