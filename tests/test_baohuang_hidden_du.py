"""Hidden 独 stays hidden (rules/baohuang.md §2.5, [D4]): the four copies of a card are identical,
so their pack indices (7H0..7H3) must tell no seat whether the emperor holds the fourth copy."""

from __future__ import annotations

import pytest

import qipai
from tests.baohuang_helpers import make_deal

DECLARED = ["7H1", "7H2", "7H3"]


def _declared(du: bool, written: str):
    """Seat 3 is emperor holding ``DECLARED`` (and 7H0 too when ``du``, else seat 1 holds it),
    declares them and leads one ♥7 written as ``written``."""
    fixed = {3: DECLARED + (["7H0"] if du else [])}
    if not du:
        fixed[1] = ["7H0"]
    state = qipai.load("baohuang").new_state(deal=make_deal(fixed, c0=3))
    state.apply("accept")
    state.apply("declare " + " ".join(DECLARED))
    assert state.mode == ("hidden_du" if du else "normal")
    state.apply(written)
    return state


@pytest.mark.parametrize("written", ["7H3", "7H0", "7H"])
def test_declared_copies_and_played_copies_look_alike_with_and_without_a_guard(written):
    du, guard = _declared(True, written), _declared(False, written if written != "7H0" else "7H3")
    for seat in (None, 0, 2, 4):
        a, b = du.view(seat), guard.view(seat)
        assert a["revealed"] == b["revealed"] == ["7H0", "7H1", "7H2"]
        # a play shows its ranks only (the first 7 laid: 7S0), never the named card's face
        assert a["plays"] == b["plays"] == [[3, "7", ["7S0"]]]
        assert a["mode"] == b["mode"] == "declared" and a["hidden_du"] is b["hidden_du"] is None


def test_the_emperor_plays_his_revealed_copies_before_the_fourth():
    state = _declared(True, "7H3")               # he asked for the copy he did not reveal
    assert "7H3" in {c.id for c in state.hand(3)}   # and keeps it: the public saw a revealed copy
    assert state.view(3)["hidden_du"] is True and state.view(0)["hidden_du"] is None


def test_the_guard_keeps_the_label_left_over_and_the_record_replays():
    state = _declared(False, "7H")
    assert state.view(1)["guard"] == 1 and "7H3" in {c.id for c in state.hand(1)}
    assert state.log[-2] == "declare 7H1 7H2 7H3"          # the record keeps what was written
    again = qipai.load("baohuang").new_state(deal=state.dealt[0])
    for entry in state.log:
        again.apply(entry)
    assert again.view(None) == state.view(None)


# ----- §2.4: a forced decline looks like any other -------------------------------------------

def test_every_candidate_is_asked_and_each_decline_is_one_action():
    """A candidate without a qualifying triple must decline (§2.4 step 2), but the engine no
    longer declines for him inside the previous seat's action: each action adds exactly one
    entry to the public selection, and the seat asked next says nothing about its hand."""
    forced = 0
    for seed in range(12):
        state = qipai.load("baohuang").new_state(seed=seed)
        while state.phase == "select":
            seat, dealt, before = state.current_player, len(state.dealt), len(state.view(None)["selection"])
            legal = state.legal_actions()
            if not state.triples(seat):
                forced += 1
                assert [str(a) for a in legal] == [str(state.default_action(seat))]
            state.apply(legal[-1])
            assert len(state.dealt) > dealt or len(state.view(None)["selection"]) == before + 1
    assert forced > 12


def test_the_runner_answers_a_forced_candidate_on_the_schedule_of_any_other():
    """At a table, a forced decline takes the same time as a decline by choice: the runner
    answers for the candidate whose only action is the decline and applies it when the
    private hold is over, and the bots' answers with a choice are held as long."""
    import asyncio

    from qipai.bots import make_bot
    from qipai.match import BotPlayer
    from qipai.match.runner import GameRunner
    from qipai.match.timesource import VirtualTime

    hold = 1500

    class Watched(GameRunner):
        def __init__(self, *a, **kw):
            super().__init__(*a, **kw)
            self.asked: tuple | None = None
            self.decisions: list[tuple[bool, int]] = []

        def _sync_turns(self, t, acted):
            st = self.state
            key = (len(st.dealt), len(st.selection)) if st.phase == "select" else None
            if self.asked is not None and key != self.asked[0]:
                self.decisions.append((self.asked[1], t - self.asked[2]))
                self.asked = None
            if key is not None and self.asked is None:
                self.asked = (key, not st.triples(st.current_player), t)
            super()._sync_turns(t, acted)

    seen = set()
    for seed in range(3):
        game = qipai.load("baohuang")
        players = [BotPlayer(make_bot("baohuang", "random", seed=seed * 10 + s)) for s in range(5)]
        runner = Watched(game, players, clock="card_default", time=VirtualTime(), seed=f"bh{seed}",
                         private_hold=hold)
        asyncio.run(runner.run())
        assert runner.decisions and {d for _, d in runner.decisions} == {hold}
        seen |= {f for f, _ in runner.decisions}
    assert seen == {True, False}
