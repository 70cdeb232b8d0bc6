"""qipai as an engine, driven through the doors: qipai against itself over UCI/UCCI, GTP and
Gomocup, and the UCI brain's answers line by line."""

from __future__ import annotations

import io

import qipai
from qipai.core import replay
from qipai.engines.brains import UciBrain
from qipai.engines.gomocup import GomocupPlayer
from qipai.engines.gtp import GtpPlayer
from qipai.engines.uci import UciPlayer
from tests.engine_helpers import QIPAI, play


def test_qipai_against_itself_over_uci_and_ucci():
    uci = UciPlayer(QIPAI + ["uci", "xiangqi", "--seed", "1"], movetime=20)
    ucci = UciPlayer(QIPAI + ["uci", "xiangqi", "--bot", "random", "--seed", "2"], ucci=True, movetime=20)
    out = play(qipai.load("xiangqi", no_capture_plies=60), [uci, ucci], clock={"bank": "60s"})
    assert out.result is not None and replay(out.record).result.text == out.result.text
    assert uci.errors == ucci.errors == [] and ucci.engine_name == "qipai (random)"


def test_qipai_against_itself_over_gtp_with_dead_stones_marked():
    game = qipai.load("go", board_size=5, end_procedure="agreement", scoring="free_komi", komi=0.5)
    players = [GtpPlayer(QIPAI + ["gtp", "--seed", str(s)]) for s in (1, 2)]
    out = play(game, players)
    assert out.result.reason == "counted" and replay(out.record).result.text == out.result.text
    assert all(p.advice for p in players)          # each brain's own count, kept as advice


def test_qipai_against_itself_over_gomocup_under_renju():
    players = [GomocupPlayer(QIPAI + ["gomocup", "--seed", str(s)]) for s in (1, 2)]
    out = play(qipai.load("gomoku"), players, clock={"bank": "60s"})
    assert out.result is not None and replay(out.record).result.text == out.result.text
    assert "INFO rule 4" in [s[2:] for s in players[0].engine.transcript]


def test_the_uci_brain_answers_line_by_line():
    out = io.StringIO()
    brain = UciBrain(out, seed=1)
    for line in ("uci", "isready", "position startpos moves h2e2 h9g7 zz", "go movetime 10",
                 "setoption name Bot value random", "ucci",
                 "position fen 4k4/9/9/9/9/9/4P4/9/9/3K5 w - - 0 1",
                 "banmoves d0e0 d0d1", "go depth 1",
                 "position fen 3k5/4R4/3R5/9/9/9/9/9/9/4K4 b - - 0 1", "go depth 1", "quit"):
        brain.handle(line)
    lines = out.getvalue().splitlines()
    assert lines[:4] == ["id name qipai (greedy)", "id author the qipai authors",
                         "option name Bot type string default greedy", "uciok"]
    assert lines[4] == "readyok" and lines[5].startswith("info string illegal move zz")
    after = qipai.load("xiangqi").new_state()
    for m in ("h2e2", "h9g7"):                        # the moves before the illegal one were kept
        after.apply(m)
    assert lines[6].split()[1] in {str(m) for m in after.legal_moves()}
    assert lines[10] == "ucciok" and lines[11] == "bestmove e3e4"      # the only move not banned
    assert lines[12] == "nobestmove" and brain.done                     # mated: no move
