"""Helpers shared by the go tests and benchmark: positions from GTP lists, OpenSpiel lockstep."""

from __future__ import annotations

import random

import qipai
from qipai.games.go.coords import PASS, from_gtp, to_gtp, to_sgf


def position(size: int, black=(), white=(), to_move: str = "B") -> str:
    """An SGF setup position from GTP point lists (``AB[..]AW[..]PL[..]``)."""
    ab = "".join(f"[{to_sgf(from_gtp(t, size), size)}]" for t in black)
    aw = "".join(f"[{to_sgf(from_gtp(t, size), size)}]" for t in white)
    out = ""
    if ab:
        out += "AB" + ab
    if aw:
        out += "AW" + aw
    return out + f"PL[{to_move}]"


def column(letter: str, rows) -> list[str]:
    return [f"{letter}{r}" for r in rows]


def os_action_to_point(action: int, size: int) -> int:
    """OpenSpiel's go action (row from the bottom * size + col; size*size = pass) as our point."""
    if action == size * size:
        return PASS
    row_from_bottom, col = divmod(action, size)
    return (size - 1 - row_from_bottom) * size + col


def point_to_os_action(point: int, size: int) -> int:
    if point == PASS:
        return size * size
    r, c = divmod(point, size)
    return (size - 1 - r) * size + c


def os_board_rows(os_state, size: int) -> list[str]:
    """OpenSpiel's board as rows from the top (X Black, O White, . empty)."""
    text = str(os_state).splitlines()
    rows = {}
    for line in text:
        parts = line.split()
        if len(parts) == 2 and parts[0].isdigit() and len(parts[1]) == size:
            rows[int(parts[0])] = parts[1].replace("+", ".")
    return [rows[r] for r in range(size, 0, -1)]


_OS_GAMES: dict = {}


def os_game(size: int, komi: float, max_len: int | None = None):
    import pyspiel

    key = (size, komi, max_len)
    if key not in _OS_GAMES:
        params = {"board_size": size, "komi": float(komi)}
        if max_len is not None:
            params["max_game_length"] = max_len
        _OS_GAMES[key] = pyspiel.load_game("go", params)
    return _OS_GAMES[key]


def lockstep_game(size: int, seed: int, komi: float = 7.5, handicap: int = 0) -> dict:
    """Play one uniformly random game in qipai (simple ko, all stones alive, OpenSpiel's
    length guard) and OpenSpiel side by side. At every position the legal-move sets must be
    equal; at the end the boards and the scores. Raises AssertionError on a difference.

    OpenSpiel ends a game as a draw when a play repeats an earlier whole-board position; we
    check that our positional superko forbids exactly that play, and stop there.
    """
    rng = random.Random(seed)
    max_len = 2 * size * size
    game = qipai.load("go", board_size=size, ko_rule="simple_ko", end_procedure="all_alive",
                      scoring="free_komi", komi=komi, max_moves=max_len, handicap=handicap)
    ours = game.new_state()
    params_game = os_game(size, komi)
    if handicap:
        import pyspiel

        params_game = pyspiel.load_game("go", {"board_size": size, "komi": float(komi),
                                               "handicap": handicap})
    theirs = params_game.new_initial_state()
    assert os_board_rows(theirs, size) == ours.rows(), "start positions differ"
    plies = 0
    while True:
        if theirs.is_terminal():
            break
        legal_os = sorted(os_action_to_point(a, size) for a in theirs.legal_actions())
        legal_us = sorted(ours.legal_points() + [PASS])
        assert legal_os == legal_us, (f"seed {seed} ply {plies}: legal moves differ: only OpenSpiel "
                                      f"{[to_gtp(p, size) for p in set(legal_os) - set(legal_us)]}, only "
                                      f"qipai {[to_gtp(p, size) for p in set(legal_us) - set(legal_os)]}")
        assert not ours.is_terminal(), f"seed {seed}: qipai ended the game, OpenSpiel did not"
        p = rng.choice(legal_us)
        superko_clash = p != PASS and ours.board.play_hash(p, ours.to_move) in ours.seen
        ours.play_point(p)
        theirs.apply_action(point_to_os_action(p, size))
        plies += 1
        if superko_clash:
            assert theirs.is_terminal() and theirs.returns() == [0.0, 0.0], \
                f"seed {seed}: a repetition that OpenSpiel does not end"
            return {"plies": plies, "superko": True}
        if theirs.is_terminal() and not ours.is_terminal():
            raise AssertionError(f"seed {seed} ply {plies}: OpenSpiel ended the game, qipai did not")
    assert ours.is_terminal()
    assert os_board_rows(theirs, size) == ours.rows(), f"seed {seed}: final boards differ"
    det = ours.result.details
    diff = det["black"] - det["white"]
    # exact score: replay the same actions in OpenSpiel with komi = our difference -> a draw
    exact = os_game(size, diff - (handicap if handicap >= 2 else 0)).new_initial_state() \
        if not handicap else None
    if exact is not None:
        for a in theirs.history():
            exact.apply_action(a)
        assert exact.is_terminal() and exact.returns() == [0.0, 0.0], \
            f"seed {seed}: OpenSpiel's area difference is not {diff}"
    win = ours.returns()
    assert [float(x) for x in theirs.returns()] == [2 * w - 1 for w in win], \
        f"seed {seed}: results differ: {theirs.returns()} vs {ours.result}"
    return {"plies": plies, "superko": False, "diff": diff}
