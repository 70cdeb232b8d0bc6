"""A small Gomocup (Piskvork protocol) engine written for the door tests: it answers START,
INFO, BEGIN, TURN, BOARD ... DONE, RESTART, ABOUT and END, keeps its own board, and plays the
free point nearest the centre that lengthens its own longest line (no search: it only has to be
protocol-correct, and it is not qipai's own brain)."""

from __future__ import annotations

import sys

SIZE = 15


def main() -> None:
    board: dict[tuple[int, int], int] = {}
    reading_board = False

    def say(text: str) -> None:
        sys.stdout.write(text + "\n")
        sys.stdout.flush()

    def run(x: int, y: int, who: int) -> int:
        best = 0
        for dx, dy in ((1, 0), (0, 1), (1, 1), (1, -1)):
            n = 1
            for sign in (1, -1):
                k = 1
                while board.get((x + sign * k * dx, y + sign * k * dy)) == who:
                    n += 1
                    k += 1
            best = max(best, n)
        return best

    def move() -> None:
        free = [(x, y) for x in range(SIZE) for y in range(SIZE) if (x, y) not in board]
        if not free:
            say("ERROR board full")
            return
        c = SIZE // 2
        x, y = max(free, key=lambda p: (run(p[0], p[1], 1), run(p[0], p[1], 2),
                                        -abs(p[0] - c) - abs(p[1] - c), -p[0], -p[1]))
        board[(x, y)] = 1
        say(f"{x},{y}")

    for raw in sys.stdin:
        line = raw.strip()
        if not line:
            continue
        if reading_board:
            if line.upper() == "DONE":
                reading_board = False
                move()
            else:
                x, y, f = (int(v) for v in line.split(","))
                board[(x, y)] = 1 if f == 1 else 2
            continue
        cmd, _, rest = line.partition(" ")
        cmd = cmd.upper()
        if cmd == "START":
            board.clear()
            say("OK" if rest.strip() == str(SIZE) else "ERROR only 15x15")
        elif cmd == "RESTART":
            board.clear()
            say("OK")
        elif cmd == "INFO":
            pass
        elif cmd == "BEGIN":
            move()
        elif cmd == "TURN":
            x, y = (int(v) for v in rest.split(","))
            board[(x, y)] = 2
            move()
        elif cmd == "BOARD":
            board.clear()
            reading_board = True
        elif cmd == "ABOUT":
            say('name="test-gomocup", version="1"')
        elif cmd == "END":
            return
        else:
            say(f"UNKNOWN {cmd}")


if __name__ == "__main__":
    main()
