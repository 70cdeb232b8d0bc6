"""The seek pool (qipai.server.seeks) on virtual time: pairing within range, the range widening
with waiting, the nearest rating first, tables of more seats, the bot offer and expiry."""

from __future__ import annotations

from qipai.server import seeks
from qipai.server.seeks import Seek, SeekPool


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def seek(pool: SeekPool, uid: int, rating: float, *, game="xiangqi", seats=2, clock="board_default",
         rated=True) -> Seek:
    s = Seek(id=f"s{uid}", user_id=uid, username=f"u{uid}", rating=rating, game=game, options={},
             num_seats=seats, clock=clock, rated=rated, created=pool.clock())
    pool.add(s)
    return s


def keep_polling(pool: SeekPool, *ss: Seek) -> None:
    for s in ss:
        pool.status(s.id, s.user_id)


def test_two_seeks_pair_once_their_ranges_reach_each_other():
    clock = Clock()
    pool = SeekPool(clock)
    a, b = seek(pool, 1, 1500), seek(pool, 2, 1750)
    assert pool.match() == []
    assert pool.status("s1", 1)["range"] == seeks.BASE_RANGE
    # 250 points apart: the range reaches 250 after 15 s (100 + 10 a second)
    for _ in range(14):
        clock.now += 1
        keep_polling(pool, a, b)
        assert pool.match() == []
    clock.now += 0.9
    assert pool.match() == []
    clock.now += 0.1
    (group,) = pool.match()
    assert {s.user_id for s in group} == {1, 2}
    st = pool.status("s1", 1)
    assert st["status"] == "paired" and st["partners"] == ["u2"]
    assert pool.status("s1", 2) is None                    # not theirs


def test_the_nearest_rating_is_chosen_and_keys_must_agree():
    clock = Clock()
    pool = SeekPool(clock)
    seek(pool, 1, 1500)
    seek(pool, 2, 1590, clock="xq_s2_15s")                 # another clock: never
    seek(pool, 3, 1560, rated=False)                       # casual: never with a rated seek
    seek(pool, 4, 1440, game="go")
    seek(pool, 5, 1580)
    seek(pool, 6, 1530)
    groups = pool.match()
    assert [sorted(s.user_id for s in g) for g in groups] == [[1, 6]]
    clock.now += 5                                        # 5 could meet 1's range, but 1 is gone
    assert pool.match() == []
    assert sorted(pool.waiting) == ["s2", "s3", "s4", "s5"]


def test_the_range_stops_at_its_maximum_and_casual_seeks_take_anyone():
    clock = Clock()
    pool = SeekPool(clock)
    a, b = seek(pool, 1, 1000), seek(pool, 2, 1000 + seeks.MAX_RANGE + 1)
    for _ in range(120):
        clock.now += 1
        keep_polling(pool, a, b)
        assert pool.match() == []
    assert pool.status("s1", 1)["range"] == seeks.MAX_RANGE
    c, d = seek(pool, 3, 800, rated=False), seek(pool, 4, 2400, rated=False)
    assert [sorted(s.user_id for s in g) for g in pool.match()] == [[3, 4]]
    assert pool.status(c.id, 3)["range"] is None and d.table is None


def test_a_table_of_three_waits_for_three_who_all_fit():
    clock = Clock()
    pool = SeekPool(clock)
    a = seek(pool, 1, 1500, game="doudizhu", seats=3, clock="card_default")
    b = seek(pool, 2, 1580, game="doudizhu", seats=3, clock="card_default")
    assert pool.match() == []
    c = seek(pool, 3, 1420, game="doudizhu", seats=3, clock="card_default")   # 160 from b
    assert pool.match() == []
    for _ in range(6):                                    # range 160 after 6 s
        clock.now += 1
        keep_polling(pool, a, b, c)
    (group,) = pool.match()
    assert sorted(s.user_id for s in group) == [1, 2, 3]


def test_a_long_wait_is_offered_a_bot_and_a_seek_no_one_asks_about_expires():
    clock = Clock()
    pool = SeekPool(clock)
    a = seek(pool, 1, 1500)
    clock.now += seeks.BOT_OFFER_AFTER - 1
    keep_polling(pool, a)
    assert pool.status("s1", 1)["offer_bot"] is False
    clock.now += 1
    assert pool.status("s1", 1)["offer_bot"] is True
    seek(pool, 2, 3000)
    clock.now += seeks.SEEK_TTL + 1                       # neither asked since
    pool.match()
    assert pool.waiting == {}


def test_a_new_seek_replaces_the_owners_old_one_and_no_one_meets_themselves():
    clock = Clock()
    pool = SeekPool(clock)
    seek(pool, 1, 1500)
    again = Seek(id="t1", user_id=1, username="u1", rating=1500, game="xiangqi", options={}, num_seats=2,
                 clock="board_default", rated=True, created=clock())
    pool.add(again)
    assert list(pool.waiting) == ["t1"] and pool.match() == []
    assert pool.cancel("t1", 2) is False and pool.cancel("t1", 1) is True
