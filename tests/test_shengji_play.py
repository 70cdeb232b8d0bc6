"""Terminal play (``qipai play shengji``): a scripted human plays a whole match with rule bots,
typing garbage, hints and help first; quitting and end of input leave it unfinished."""

from __future__ import annotations

import io

from rich.console import Console

import qipai
from qipai.games.shengji import play as shengji_play
from qipai.games.shengji.match import Match


def _reader(seat: int, junk: list[str]):
    """Types ``junk`` first, then always the seat's default action in the current hand."""
    items = iter(junk)
    seen: list = []
    real_next = Match.next_state

    def tracking(self):
        st = real_next(self)
        seen.append(st)
        return st

    def read_line(prompt: str) -> str:
        nxt = next(items, None)
        if nxt is not None:
            return nxt
        return str(seen[-1].default_action(seat))
    return read_line, tracking


def test_a_whole_match_in_the_terminal(monkeypatch):
    out = io.StringIO()
    read_line, tracking = _reader(1, ["@@", "hint", "help", "", "AS AS AS AS"])
    monkeypatch.setattr(Match, "next_state", tracking)
    game = qipai.load("shengji", profile="seed003")
    state = shengji_play.run(game, seat=1, seed=3, console=Console(file=out, width=120), read_line=read_line)
    text = out.getvalue()
    assert state.is_terminal()
    assert "not accepted" in text and "legal:" in text and "Type 'pass'" in text
    assert ("Game over: the other team (seats 1 & 3) wins" in text
            or "Game over: your team (seats 2 & 4) wins" in text)
    assert "You win" in text or "You lose" in text
    assert "Hand over: the declarers (seats" in text or "Hand over: the attackers (seats" in text


def test_quit_and_end_of_input_leave_the_match_unfinished():
    out = io.StringIO()
    st = shengji_play.run(qipai.load("shengji"), seat=0, seed=1, console=Console(file=out),
                          read_line=lambda p: "quit")
    assert not st.is_terminal() and "Game abandoned" in out.getvalue()

    def eof(prompt):
        raise EOFError

    st = shengji_play.run(qipai.load("shengji"), seat=2, seed=1, console=Console(file=out), read_line=eof)
    assert not st.is_terminal() and "end of input" in out.getvalue()


def test_resign_loses_the_match():
    out = io.StringIO()
    st = shengji_play.run(qipai.load("shengji"), seat=1, seed=2, console=Console(file=out),
                          read_line=lambda p: "resign")
    assert st.result.reason == "resign" and st.result.winners == (0, 2)
    assert "Game over: the other team (seats 1 & 3) wins (forfeit)" in out.getvalue()
    assert "You lose" in out.getvalue()


def test_every_card_asks_the_person_only_where_there_is_a_choice():
    """With ``deal_prompt="every_card"`` the person's prompts with ``pass`` alone answer
    themselves: the first line read is at a prompt with a declaration to make."""
    out = io.StringIO()
    st = shengji_play.run(qipai.load("shengji", deal_prompt="every_card"), seat=0, seed=1,
                          console=Console(file=out), read_line=lambda p: "quit")
    assert st.phase in ("deal", "window") and st.current_player == 0
    assert len(st.legal_actions(0)) > 1 and st.dealt > 1
