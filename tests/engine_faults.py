"""A faulty engine for the door tests: runs a real engine and passes its lines through, but
misbehaves at the N-th move request (UCI/UCCI ``go``, GTP ``genmove``, Gomocup ``BEGIN`` /
``TURN`` / ``DONE``).

    python tests/engine_faults.py PROTOCOL FAULT N [--from] [--once FILE] -- ENGINE ARGS...

FAULT: ``crash`` (exit without answering; ``latecrash``: after thinking 300 ms), ``hang``
(never answer), ``illegal`` (answer a move the referee refuses: UCI ``e1e3`` / UCCI
``e0e2``, the red king two points ahead in Fairy-Stockfish's and in ICCS ranks; GTP the point
just played; Gomocup the last stone),
``garbage`` (answer text that is no move). ``--from``: every request from the N-th on.
``--once FILE``: misbehave only if FILE does not exist yet (it is made then), so a restarted
engine plays on.
"""

from __future__ import annotations

import os
import subprocess
import sys
import threading
import time


def main() -> None:
    args = sys.argv[1:]
    cut = args.index("--")
    opts, engine = args[:cut], args[cut + 1:]
    protocol, fault, n = opts[0], opts[1], int(opts[2])
    every = "--from" in opts
    once = opts[opts.index("--once") + 1] if "--once" in opts else None
    child = subprocess.Popen(engine, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1)
    lock = threading.Lock()

    def out(line: str) -> None:
        with lock:
            sys.stdout.write(line + "\n")
            sys.stdout.flush()

    def pump() -> None:
        for line in child.stdout:
            out(line.rstrip("\n"))

    threading.Thread(target=pump, daemon=True).start()
    requests = 0
    last = ""                         # the last stone or point named to the engine
    for raw in sys.stdin:
        line = raw.strip()
        words = line.split()
        request = bool(words) and (
            (protocol in ("uci", "ucci") and words[0] == "go")
            or (protocol == "gtp" and words[0] == "genmove")
            or (protocol == "gomocup" and words[0].upper() in ("BEGIN", "TURN", "DONE")))
        if protocol == "gtp" and words[:1] == ["play"] and len(words) == 3:
            last = words[2]
        if protocol == "gomocup" and words[:1] == ["TURN"]:
            last = words[1]
        if protocol == "gomocup" and line.count(",") == 2:
            last = ",".join(line.split(",")[:2])
        if request:
            requests += 1
            hit = requests == n or (every and requests >= n)
            if hit and once is not None:
                hit = not os.path.exists(once)
                if hit:
                    open(once, "w").close()
            if hit:
                if fault in ("crash", "latecrash"):
                    if fault == "latecrash":
                        time.sleep(0.3)
                    child.kill()
                    os._exit(3)
                if fault == "hang":
                    while True:
                        time.sleep(60)
                if fault == "illegal":
                    out({"uci": "bestmove e1e3", "ucci": "bestmove e0e2", "gtp": f"= {last}\n",
                         "gomocup": last}[protocol])
                    continue
                if fault == "garbage":
                    out({"uci": "bestmove xyzzy", "ucci": "bestmove xyzzy", "gtp": "= hello\n",
                         "gomocup": "hello"}[protocol])
                    continue
        child.stdin.write(line + "\n")
        child.stdin.flush()
        if line in ("quit", "END"):
            break
    try:
        child.wait(2)
    except subprocess.TimeoutExpired:
        child.kill()


if __name__ == "__main__":
    main()
