"""qipai as an engine: its bots and referee behind UCI/UCCI (``qipai uci xiangqi``), GTP
(``qipai gtp``) and Gomocup (``qipai gomocup``), for GUIs and tournament managers.

Each brain reads commands from a text stream and writes answers to another, one command at a
time, and answers at once (the bots think in well under a second). Every position it is given is
checked by qipai's referee: an illegal move is refused as the protocol says (GTP ``? illegal
move``, Gomocup ``ERROR``, UCI: an ``info string`` and the moves after it are dropped).
"""

from __future__ import annotations

import random
import re
from typing import Any, TextIO

from qipai.bots import make_bot
from qipai.core.errors import IllegalAction, QipaiError
from qipai.core.registry import load


class Brain:
    """A command loop: :meth:`handle` answers one line; :meth:`run` reads until ``quit``."""

    name = "qipai"

    def __init__(self, out: TextIO, bot: str = "greedy", seed: int | None = None) -> None:
        self.out = out
        self.bot_name = bot
        self.seed = seed
        self.done = False
        self._bots: dict[str, Any] = {}

    def say(self, text: str) -> None:
        self.out.write(text + "\n")
        self.out.flush()

    def handle(self, line: str) -> None:
        raise NotImplementedError

    def run(self, inp: TextIO) -> None:
        for line in inp:
            line = line.strip()
            if line:
                self.handle(line)
            if self.done:
                return

    def choose(self, game_id: str, state: Any, banned: set[str] = frozenset()) -> Any:
        key = f"{game_id}/{self.bot_name}"
        if key not in self._bots:
            self._bots[key] = make_bot(game_id, self.bot_name, seed=self.seed)
        bot = self._bots[key]
        action = bot.choose(state, state.current_player)
        if str(action) in banned:
            rest = [a for a in state.legal_actions() if str(a) not in banned]
            action = random.Random(self.seed).choice(rest) if rest else action
        return action


# ----- UCI / UCCI (xiangqi) ---------------------------------------------------------------------


class UciBrain(Brain):
    """UCI (ranks 0-9, as Pikafish) or UCCI (when greeted with ``ucci``) for xiangqi."""

    def __init__(self, out: TextIO, options: dict[str, Any] | None = None, **kw: Any) -> None:
        super().__init__(out, **kw)
        # the program driving the brain referees repetition and the move limit (UCCI banmoves)
        self.options = {"repetition_rule": "none", "no_capture_plies": 0, **dict(options or {})}
        self.game = load("xiangqi", **self.options)
        self.state = self.game.new_state()
        self.ucci = False
        self.banned: set[str] = set()

    def handle(self, line: str) -> None:
        words = line.split()
        cmd = words[0]
        if cmd in ("uci", "ucci"):
            self.ucci = cmd == "ucci"
            self.say(f"id name {self.name} ({self.bot_name})")
            self.say("id author the qipai authors")
            self.say(f"option {'' if self.ucci else 'name '}Bot type string default {self.bot_name}")
            self.say("ucciok" if self.ucci else "uciok")
        elif cmd == "isready":
            self.say("readyok")
        elif cmd == "setoption":
            m = re.match(r"setoption\s+(?:name\s+)?(\S+)\s+(?:value\s+)?(.*)$", line)
            if m and m.group(1).lower() == "bot":
                self.bot_name = m.group(2).strip()
        elif cmd == "ucinewgame":
            self.state = self.game.new_state()
        elif cmd == "position":
            self._position(words[1:])
        elif cmd == "banmoves":
            self.banned = {w.lower() for w in words[1:]}
        elif cmd == "go":
            self._go()
        elif cmd == "quit":
            self.done = True

    def _position(self, words: list[str]) -> None:
        self.banned = set()
        moves: list[str] = []
        if "moves" in words:
            i = words.index("moves")
            words, moves = words[:i], words[i + 1:]
        try:
            if words and words[0] == "startpos":
                state = self.game.new_state()
            else:
                state = self.game.new_state(position=" ".join(words[1:]))
        except QipaiError as e:
            self.say(f"info string bad position: {e}")
            return
        for m in moves:
            try:
                state.apply(m)
            except IllegalAction as e:
                self.say(f"info string illegal move {m}: {e.reason}")
                break
        self.state = state

    def _go(self) -> None:
        state = self.state
        if state.is_terminal() or not state.legal_actions():
            self.say("nobestmove" if self.ucci else "bestmove (none)")
            return
        move = self.choose("xiangqi", state, self.banned)
        self.say(f"bestmove {move}")


# ----- GTP (go) ---------------------------------------------------------------------------------


GTP_COMMANDS = ("protocol_version", "name", "version", "known_command", "list_commands", "quit",
                "boardsize", "clear_board", "komi", "play", "genmove", "undo", "time_settings",
                "kgs-time_settings", "time_left", "final_score", "final_status_list", "showboard")


class GtpBrain(Brain):
    """GTP v2 for go; the referee's rules are the game's options (``ko_rule`` ...), every stone
    alive at the end unless ``final_status_list`` is asked (the dead-stone proposer)."""

    def __init__(self, out: TextIO, options: dict[str, Any] | None = None, **kw: Any) -> None:
        super().__init__(out, **kw)
        self.options = {"scoring": "free_komi", "komi": 7.5, "max_moves": 100_000,
                        **dict(options or {})}
        self.history: list[Any] = []
        self._new()

    def _new(self, position: str | None = None) -> None:
        self.game = load("go", **self.options)
        self.state = self.game.new_state(position=position)
        self.history = []

    def _ok(self, ident: str, text: str = "") -> None:
        self.say(f"={ident} {text}".rstrip() + "\n")

    def _err(self, ident: str, text: str) -> None:
        self.say(f"?{ident} {text}\n")

    def handle(self, line: str) -> None:
        line = line.split("#", 1)[0].strip()
        if not line:
            return
        words = line.split()
        ident = ""
        if words[0].isdigit():
            ident, words = words[0], words[1:]
        if not words:
            return
        cmd, args = words[0].lower(), words[1:]
        try:
            answer = self._command(cmd, args)
        except (QipaiError, ValueError, IndexError) as e:
            self._err(ident, str(getattr(e, "reason", e)) or "syntax error")
            return
        if answer is None:
            self._err(ident, "unknown command")
        else:
            self._ok(ident, answer)

    def _command(self, cmd: str, args: list[str]) -> str | None:
        if cmd == "protocol_version":
            return "2"
        if cmd == "name":
            return self.name
        if cmd == "version":
            from qipai import __version__

            return __version__
        if cmd == "known_command":
            return "true" if args and args[0] in GTP_COMMANDS else "false"
        if cmd == "list_commands":
            return "\n".join(GTP_COMMANDS)
        if cmd == "quit":
            self.done = True
            return ""
        if cmd == "boardsize":
            size = int(args[0])
            try:
                self.options["board_size"] = size
                self._new()
            except QipaiError:
                self.options.pop("board_size")
                raise ValueError("unacceptable size") from None
            return ""
        if cmd == "clear_board":
            self._new()
            return ""
        if cmd == "komi":
            self.options["komi"] = float(args[0])
            self.game = load("go", **self.options)
            self._rebuild(self.state.to_move)
            return ""
        if cmd == "play":
            self._play(args[0], args[1])
            return ""
        if cmd == "genmove":
            return self._genmove(args[0])
        if cmd == "undo":
            if not self.history:
                raise ValueError("cannot undo")
            self.state = self.history.pop()
            return ""
        if cmd in ("time_settings", "kgs-time_settings", "time_left"):
            return ""
        if cmd == "final_score":
            return self._score()
        if cmd == "final_status_list":
            return self._status(args[0])
        if cmd == "showboard":
            return "\n" + "\n".join(self.state.rows())
        return None

    def _colour(self, text: str) -> int:
        c = text.lower()
        if c in ("b", "black"):
            return 1
        if c in ("w", "white"):
            return 2
        raise ValueError("invalid color")

    def _rebuild(self, colour: int) -> None:
        """A new state holding the current board with ``colour`` to move (GTP lets any colour
        play at any time; the referee's states alternate)."""
        from qipai.games.go.coords import to_sgf

        board = self.state.board
        size = self.state.size
        setup = "".join(f"{tag}" + "".join(f"[{to_sgf(p, size)}]" for p in range(size * size)
                                             if board.color[p] == c)
                        for tag, c in (("AB", 1), ("AW", 2)) if c in board.color)
        self.game = load("go", **self.options)
        self.state = self.game.new_state(position=f"{setup}PL[{'B' if colour == 1 else 'W'}]")

    def _ready(self, colour: int) -> None:
        if self.state.is_terminal() or self.state.phase != "play" or self.state.to_move != colour:
            self._rebuild(colour)

    def _play(self, colour_text: str, vertex: str) -> None:
        colour = self._colour(colour_text)
        before = self.state.clone()
        self._ready(colour)
        try:
            self.state.apply(vertex)
        except IllegalAction as e:
            self.state = before
            raise ValueError(f"illegal move ({e.reason})") from None
        self.history.append(before)

    def _genmove(self, colour_text: str) -> str:
        colour = self._colour(colour_text)
        before = self.state.clone()
        self._ready(colour)
        move = self.choose("go", self.state)
        self.state.apply(move)
        self.history.append(before)
        return str(move)

    def _dead(self) -> list[int]:
        return self.state.dead_proposal()

    def _score(self) -> str:
        b, w = self.state.count(frozenset(self._dead()))
        margin = b - w - (self.game.komi_points() + self.game.options["handicap"])
        return "0" if margin == 0 else f"{'B' if margin > 0 else 'W'}+{abs(margin):g}"

    def _status(self, which: str) -> str:
        from qipai.games.go.coords import to_gtp

        size = self.state.size
        dead = set(self._dead())
        board = self.state.board
        if which == "dead":
            pts = sorted(dead)
        elif which == "alive":
            pts = [p for p in range(size * size) if board.color[p] and p not in dead]
        elif which == "seki":
            pts = []
        else:
            raise ValueError("invalid status")
        return " ".join(to_gtp(p, size) for p in pts)


# ----- Gomocup (gomoku / renju) --------------------------------------------------------------------

GOMOCUP_RULES = {0: "freestyle", 1: "standard", 4: "renju"}


class GomocupBrain(Brain):
    """The Piskvork protocol on the 15x15 board; ``INFO rule`` picks the rule set (0
    freestyle, 1 exactly five, 4 renju; other bits are not played)."""

    def __init__(self, out: TextIO, options: dict[str, Any] | None = None, **kw: Any) -> None:
        super().__init__(out, **kw)
        self.options = {"ruleset": "freestyle", **dict(options or {})}
        self.stones: list[tuple[int, int]] = []     # (1 own / 2 opponent, point)
        self.board_lines: list[str] | None = None
        self._new()

    def _new(self) -> None:
        self.game = load("gomoku", **self.options)
        self.state = self.game.new_state()
        self.stones = []

    def handle(self, line: str) -> None:
        if self.board_lines is not None:
            if line.upper() == "DONE":
                lines, self.board_lines = self.board_lines, None
                self._board(lines)
            else:
                self.board_lines.append(line)
            return
        words = line.split()
        cmd = words[0].upper()
        if cmd == "START":
            if len(words) < 2 or words[1] != "15":
                self.say("ERROR only the 15x15 board is played")
                return
            self._new()
            self.say("OK")
        elif cmd == "RESTART":
            self._new()
            self.say("OK")
        elif cmd == "INFO" and len(words) >= 3:
            if words[1].lower() == "rule" and words[2].isdigit():
                rule = GOMOCUP_RULES.get(int(words[2]) & 5)
                if rule:
                    self.options["ruleset"] = rule
        elif cmd == "BEGIN":
            self._new()
            self._move()
        elif cmd == "TURN":
            self._turn(words[1] if len(words) > 1 else "")
        elif cmd == "BOARD":
            self.board_lines = []
        elif cmd == "ABOUT":
            self.say(f'name="{self.name}", version="1", author="the qipai authors", country="CN"')
        elif cmd == "END":
            self.done = True
        else:
            self.say(f"UNKNOWN {cmd}")

    def _parse_xy(self, text: str) -> int:
        from qipai.games.gomoku.board import SIZE, point

        x, y = (int(v) for v in text.split(",")[:2])
        if not (0 <= x < SIZE and 0 <= y < SIZE):
            raise ValueError(f"{text} is off the board")
        return point(x, SIZE - 1 - y)

    def _turn(self, xy: str) -> None:
        try:
            p = self._parse_xy(xy)
            self._position(self.stones + [(2, p)])
        except (ValueError, QipaiError) as e:
            self.say(f"ERROR {getattr(e, 'reason', e)}")
            return
        self._move()

    def _board(self, lines: list[str]) -> None:
        stones = []
        try:
            for ln in lines:
                parts = ln.split(",")
                stones.append((int(parts[2]), self._parse_xy(ln)))
            self._position(stones)
        except (ValueError, IndexError, QipaiError) as e:
            self.say(f"ERROR {getattr(e, 'reason', e)}")
            return
        self._move()

    def _position(self, stones: list[tuple[int, int]]) -> None:
        """The state of ``stones`` with the brain to move (own stones are Black when both
        sides have as many stones)."""
        from qipai.games.gomoku.board import point_name

        own = [p for f, p in stones if f == 1]
        opp = [p for f, p in stones if f != 1]
        black, white = (own, opp) if len(own) == len(opp) else (opp, own)
        to_move = "b" if len(own) == len(opp) else "w"
        if len(black) - len(white) not in (0, 1):
            raise ValueError("the stone counts do not alternate")
        self.game = load("gomoku", **self.options)
        self.state = self.game.new_state(position=" ".join(map(point_name, black)) + " / "
                                         + " ".join(map(point_name, white)) + f" / {to_move}")
        if self.state.is_terminal():
            raise ValueError(f"the game is over ({self.state.result.reason})")
        self.stones = stones

    def _move(self) -> None:
        from qipai.games.gomoku.board import SIZE

        action = self.choose("gomoku", self.state)
        p = getattr(action, "points", ())
        if not p:
            self.say("ERROR no move to play")
            return
        self.stones = self.stones + [(1, p[0])]
        self.say(f"{p[0] % SIZE},{SIZE - 1 - p[0] // SIZE}")
