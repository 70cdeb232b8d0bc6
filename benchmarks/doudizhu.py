"""Doudizhu speed: qipai beside RLCard and OpenSpiel, in one run.

Every comparison interleaves its sides in rounds and reports medians of CPU-time rates
(benchmarks/timing.py: the machine is shared).

1. Random full games per second, every legal action generated at every turn:
   qipai (bidding to scoring, classic rules), RLCard's ``DoudizhuGame`` (rules only, no
   observation encoding; RLCard has no bidding) and OpenSpiel's C++ ``dou_dizhu`` through pyspiel
   (chance deal, bidding, play).
2. Legal-action generation per second on fixed sets of 1,000 situations (hand + play to beat):
   qipai vs RLCard's generator on situations from RLCard games, and qipai vs OpenSpiel's
   ``legal_actions()`` on OpenSpiel states (qipai with the ``openspiel`` rules).

Run: ``.venv/bin/python benchmarks/doudizhu.py [CPU seconds per side and round] [rounds]``.
"""

from __future__ import annotations

import random
import sys
from pathlib import Path
from types import SimpleNamespace

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from timing import build_note, compare  # noqa: E402  (benchmarks/timing.py)

import qipai  # noqa: E402
from qipai.games.doudizhu.combos import ORDER, PACKER, KickerRules, table  # noqa: E402
from tests.doudizhu_peers import norm, openspiel_situations  # noqa: E402


def qipai_games():
    game = qipai.load("doudizhu")
    rng = random.Random(1)
    counter = iter(range(10**9))

    def one() -> int:
        state = game.new_state(seed=next(counter))
        while state.result is None:
            state.apply(rng.choice(state.legal_actions()))
        return 1

    return one


def rlcard_games():
    import numpy as np
    from rlcard.games.doudizhu.game import DoudizhuGame

    rng = random.Random(1)
    g = DoudizhuGame()
    g.np_random = np.random.RandomState(1)

    def one() -> int:
        state, _ = g.init_game()
        while not g.is_over():
            state, _ = g.step(rng.choice(list(state["actions"])))
        return 1

    return one


def openspiel_games():
    import pyspiel

    game = pyspiel.load_game("dou_dizhu")
    rng = random.Random(1)

    def one() -> int:
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                state.apply_action(rng.choice(state.chance_outcomes())[0])
            else:
                state.apply_action(rng.choice(state.legal_actions()))
        return 1

    return one


def rlcard_situations_1000():
    """1,000 fixed situations from RLCard games, with RLCard's own player objects."""
    import numpy as np
    from rlcard.games.doudizhu.game import DoudizhuGame

    rng = random.Random(3)
    out = []
    seed = 0
    while len(out) < 1000:
        g = DoudizhuGame()
        g.np_random = np.random.RandomState(seed)
        seed += 1
        state, pid = g.init_game()
        while not g.is_over() and len(out) < 1000:
            player = g.players[pid]
            greater = g.round.greater_player
            lead = greater is None or greater.player_id == pid
            snap = SimpleNamespace(current_hand=list(player.current_hand), player_id=pid)
            top = None if lead else SimpleNamespace(played_cards=greater.played_cards,
                                                    player_id=greater.player_id)
            out.append((snap, top))
            state, pid = g.step(rng.choice(list(state["actions"])))
    return out


def legal_rates(seconds: float, rounds: int) -> list[tuple[str, float, float]]:
    from rlcard.games.doudizhu.judger import DoudizhuJudger
    from rlcard.games.doudizhu.utils import cards2str, get_gt_cards

    sits = rlcard_situations_1000()
    t = table()
    ours_in = []
    for snap, top in sits:
        hand = norm(cards2str(snap.current_hand).replace("B", "L").replace("R", "B"))
        code = PACKER.pack(ORDER.parse_counts(hand))
        play = None
        if top is not None:
            ranks = norm(top.played_cards.replace("B", "L").replace("R", "B"))
            play = t.readings(ORDER.parse_counts(ranks))[0]
        ours_in.append((code, play))

    def ours_rl() -> int:
        for code, play in ours_in:
            if play is None:
                t.leads(code)
            else:
                t.answers(code, play)
        return len(ours_in)

    def peer_rl() -> int:
        for snap, top in sits:
            if top is None:
                DoudizhuJudger.playable_cards_from_hand(cards2str(snap.current_hand))
            else:
                get_gt_cards(snap, top)
        return len(sits)

    runs = compare({"qipai": ours_rl, "peer": peer_rl}, seconds, rounds)
    results = [("legal action sets / s, 1,000 RLCard situations", runs.median("qipai"),
                runs.median("peer"), runs.ratio("qipai", "peer"))]

    import pyspiel

    game = pyspiel.load_game("dou_dizhu")
    rng = random.Random(4)
    states = []
    while len(states) < 1000:
        st = game.new_initial_state()
        while not st.is_terminal() and len(states) < 1000:
            if st.is_chance_node():
                st.apply_action(rng.choice(st.chance_outcomes())[0])
                continue
            texts = [st.action_to_string(st.current_player(), a) for a in st.legal_actions()]
            if not any(x.startswith("Bid") for x in texts):
                states.append(st.clone())
            st.apply_action(rng.choice(st.legal_actions()))
    os_rules = KickerRules(adjacent_trio_wings=True, four_with_two=False, chain_from_bomb_rank=False,
                           bomb_answers_rocket=True)
    t2 = table(os_rules)
    os_in = []
    for hand, top, _ in openspiel_situations(1000, seed=4):
        code = PACKER.pack(ORDER.parse_counts(hand))
        play = None
        if top is not None:
            cands = t2.readings(ORDER.parse_counts(top[0]))
            play = next((p for p in cands if bool(p.kickers) == (top[1] == "kicker")), cands[0])
        os_in.append((code, play))

    def ours_os() -> int:
        for code, play in os_in:
            if play is None:
                t2.leads(code)
            else:
                t2.answers(code, play)
        return len(os_in)

    def peer_os() -> int:
        for st in states:
            st.legal_actions()
        return len(states)

    runs = compare({"qipai": ours_os, "peer": peer_os}, seconds, rounds)
    results.append(("legal action sets / s, 1,000 OpenSpiel situations", runs.median("qipai"),
                    runs.median("peer"), runs.ratio("qipai", "peer")))
    return results


def main() -> None:
    seconds = float(sys.argv[1]) if len(sys.argv) > 1 else 2.0
    rounds = int(sys.argv[2]) if len(sys.argv) > 2 else 5
    runs = compare({"qipai": qipai_games(), "RLCard": rlcard_games(),
                    "OpenSpiel": openspiel_games()}, seconds, rounds)
    q, r, o = (runs.median(k) for k in ("qipai", "RLCard", "OpenSpiel"))
    print(build_note())
    print(f"random full games / CPU s (all legal actions generated every turn; {rounds} "
          f"interleaved rounds of {seconds:g} s per side, median)")
    print(f"  qipai      {q:9.0f}")
    print(f"  RLCard     {r:9.0f}   qipai / RLCard    = {runs.ratio('qipai', 'RLCard'):5.1f}x  "
          "(RLCard: no bidding)")
    print(f"  OpenSpiel  {o:9.0f}   qipai / OpenSpiel = {runs.ratio('qipai', 'OpenSpiel'):5.2f}x  "
          "(both: deal, bidding, play)")
    for label, ours, peer, ratio in legal_rates(seconds, rounds):
        print(f"{label}:  qipai {ours:9.0f}   peer {peer:9.0f}   ratio {ratio:5.2f}x")


if __name__ == "__main__":
    main()
