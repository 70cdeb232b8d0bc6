"""Ratings (qipai.server.ratings): Glickman's worked example, the paper's algorithm at other
ratings, OpenSkill teams and ranks, time classes of every clock preset, what is rated."""

from __future__ import annotations

import math

import pytest

from qipai.match import CLOCK_PRESETS
from qipai.server import ratings


def paper_glicko2(r: float, rd: float, sigma: float, opp: list[tuple[float, float]],
                  scores: list[float], tau: float = 0.5) -> tuple[float, float, float]:
    """Glickman, "Example of the Glicko-2 system" (2012), steps 1-8, written out here as the
    reference (the Illinois algorithm of step 5 with ε = 0.000001)."""
    k = 173.7178
    mu, phi = (r - 1500) / k, rd / k
    g = lambda p: 1 / math.sqrt(1 + 3 * p * p / math.pi ** 2)  # noqa: E731
    E = lambda mj, pj: 1 / (1 + math.exp(-g(pj) * (mu - mj)))  # noqa: E731
    o = [((rj - 1500) / k, dj / k) for rj, dj in opp]
    v = 1 / sum(g(pj) ** 2 * E(mj, pj) * (1 - E(mj, pj)) for mj, pj in o)
    delta = v * sum(g(pj) * (s - E(mj, pj)) for (mj, pj), s in zip(o, scores))
    a = math.log(sigma ** 2)

    def f(x: float) -> float:
        ex = math.exp(x)
        return ex * (delta ** 2 - phi ** 2 - v - ex) / (2 * (phi ** 2 + v + ex) ** 2) - (x - a) / tau ** 2
    A = a
    if delta ** 2 > phi ** 2 + v:
        B = math.log(delta ** 2 - phi ** 2 - v)
    else:
        n = 1
        while f(a - n * tau) < 0:
            n += 1
        B = a - n * tau
    fA, fB = f(A), f(B)
    while abs(B - A) > 0.000001:
        C = A + (A - B) * fA / (fB - fA)
        fC = f(C)
        if fC * fB <= 0:
            A, fA = B, fB
        else:
            fA /= 2
        B, fB = C, fC
    sigma2 = math.exp(A / 2)
    phi_star = math.sqrt(phi ** 2 + sigma2 ** 2)
    phi2 = 1 / math.sqrt(1 / phi_star ** 2 + 1 / v)
    mu2 = mu + phi2 ** 2 * sum(g(pj) * (s - E(mj, pj)) for (mj, pj), s in zip(o, scores))
    return 1500 + k * mu2, k * phi2, sigma2


def test_glickmans_worked_example():
    r, rd, vol = ratings.glicko2_update((1500, 200, 0.06), [(1400, 30), (1550, 100), (1700, 300)], [1, 0, 0])
    assert round(r, 2) == pytest.approx(1464.06, abs=0.01)
    assert round(rd, 2) == pytest.approx(151.52, abs=0.01)
    assert vol == pytest.approx(0.05999, abs=0.00001)


@pytest.mark.parametrize("me", [(1800, 200, 0.06), (1200, 80, 0.09), (2300, 40, 0.05), (1500, 350, 0.06)])
def test_glicko2_follows_the_paper_away_from_1500(me):
    opp, scores = [(1400, 30), (1550, 100), (1700, 300)], [1, 0, 0.5]
    got = ratings.glicko2_update(me, opp, scores)
    want = paper_glicko2(*me, opp, scores)
    assert got == pytest.approx(want, rel=1e-6)


def test_the_package_alone_differs_from_the_paper_away_from_1500():
    """Why Glicko2Player overrides step 5: the package's f uses μ² for φ²."""
    import glicko2

    p = glicko2.Player(2300, 40, 0.05)
    p.update_player([1400, 1550, 1700], [30, 100, 300], [1, 0, 0.5])
    want = paper_glicko2(2300, 40, 0.05, [(1400, 30), (1550, 100), (1700, 300)], [1, 0, 0.5])
    assert p.vol != pytest.approx(want[2], rel=1e-6)


def test_openskill_partners_share_their_result_and_unequal_sides_are_ranked():
    start = [(1500.0, 500.0)] * 4
    new = ratings.openskill_update(start, [2, -2, 2, -2])          # shengji: 0 and 2 won together
    assert new[0] == new[2] and new[1] == new[3]
    assert new[0][0] > 1500 > new[1][0]
    assert new[0][0] - 1500 == pytest.approx(1500 - new[1][0])
    three = ratings.openskill_update(start[:3], [-2, 4, -2])        # doudizhu: the landlord won
    assert three[1][0] > 1500 > three[0][0] and three[0] == three[2]
    four = ratings.openskill_update(start, [24, -8, -8, -8])         # mahjong: one winner, ties
    assert four[0][0] > 1500 and four[1] == four[2] == four[3]
    assert all(sig < 500 for _, sig in four)


def test_time_classes_of_the_clock_presets():
    want = {"xq_s2_15s": "rapid", "xq_s0_slow": "slow", "xq_s0_rapid": "rapid", "xq_s3": "slow",
            "go_s2": "slow", "go_s2_walltime": "slow", "board_default": "slow", "card_default": "rapid",
            "bot_default_board": "bullet", "bot_default_cards": "bullet", "none": "slow"}
    for name, tc in want.items():
        assert ratings.time_class(name) == tc, name
    assert set(CLOCK_PRESETS) >= set(want)
    assert ratings.time_class({"bank": "1m", "increment": "0s"}) == "bullet"
    assert ratings.time_class({"bank": "2m", "increment": "1s"}) == "bullet"     # 120 + 40 s
    assert ratings.expected_seconds({"bank": "2m", "increment": "1s"}) == 160
    assert ratings.time_class({"bank": "3m", "increment": "2s"}) == "blitz"      # 180 + 80
    assert ratings.time_class({"bank": "10m", "increment": "5s"}) == "rapid"     # 600 + 200
    assert ratings.time_class({"bank": "25m"}) == "slow"
    byo = {"bank": "5m", "overtime": {"byoyomi": {"periods": 2, "period": "10s"}}}
    assert ratings.expected_seconds(byo) == 300 + 25 * 2 * 10
    assert ratings.expected_seconds({"move_cap": "5s"}) == 200


def test_what_is_rated():
    a, b = {"user": 1, "name": "a"}, {"user": 2, "name": "b"}
    res = {"returns": [1, -1], "winners": [0]}
    assert ratings.unrated_reason(True, [a, b], 4, res) is None
    assert ratings.unrated_reason(False, [a, b], 40, res) == "casual"
    assert ratings.unrated_reason(True, [a, {"bot": "random", "name": "bot:random"}], 40, res) == "bot"
    bot_account = {"user": 3, "name": "b0t", "bot_account": True}
    assert ratings.unrated_reason(True, [a, bot_account], 40, res) == "bot"
    assert ratings.unrated_reason(True, [a, a], 40, res) == "same_player"
    assert ratings.unrated_reason(True, [a, b], 3, res) == "too_short"
    assert ratings.unrated_reason(True, [a, b], 40, None) == "no_result"
    p = ratings.plan("xiangqi", 2, 2, "board_default", True, [a, b], 40, res, [0])
    assert p == {"game": "xiangqi", "time_class": "slow", "system": "glicko2", "users": [1, 2],
                 "returns": [1, -1], "winners": [0]}
    three = ratings.plan("chinese-checkers", 3, 2, "tiaoqi_multi", True,
                         [a, b, {"user": 3, "name": "c"}], 40, {"returns": [1, 0, 0]}, [0])
    assert three["game"] == "chinese-checkers.3" and three["system"] == "openskill"


def test_time_without_games_widens_the_deviation_as_glicko2_step_6():
    assert ratings.idle_deviation(50, 0.06, 0) == 50
    year = ratings.idle_deviation(50, 0.06, 365)
    phi2 = (50 / 173.7178) ** 2 + 365 * ratings.PERIODS_PER_DAY * 0.06 ** 2
    assert year == pytest.approx(173.7178 * math.sqrt(phi2)) and 100 < year < 110
    assert ratings.idle_deviation(50, 0.06, 36500) == 350


def test_a_player_back_after_a_year_moves_further(tmp_path):
    from qipai.competition.db import open_db
    from qipai.server.models import RatingRow, RecordRow, UserRow

    db = open_db(f"sqlite:///{tmp_path / 'r.db'}")
    plan = {"game": "go", "time_class": "slow", "system": "glicko2", "users": [1, 2],
            "returns": [1, -1], "winners": [0]}
    moved = {}
    for last_game in ("2026-12-03T12:00:00+00:00", "2025-12-01T12:00:00+00:00"):
        with db.begin() as s:
            for uid in (1, 2):
                if s.get(UserRow, uid) is None:
                    s.add(UserRow(id=uid, username=f"u{uid}", username_key=f"u{uid}", password_hash="x"))
                row = s.get(RatingRow, (uid, "go", "slow"))
                if row is not None:
                    s.delete(row)
                s.flush()
                s.add(RatingRow(user_id=uid, game="go", time_class="slow", system="glicko2", rating=1600,
                                deviation=50, volatility=0.06, games=40, updated=last_game))
            rec = RecordRow(game="go", players=[1, 2], names=["u1", "u2"], result={}, record={})
            s.add(rec)
            s.flush()
            (winner, _) = ratings.rate_record(s, rec.id, plan)
            moved[last_game] = winner["after"] - winner["before"]
    recent, year_ago = moved.values()
    assert year_ago > recent > 0
