"""Server settings: where data lives and the limits the server enforces.

Every field has a working default, so ``qipai serve`` needs no set-up: the database is the
SQLite file of :func:`qipai.competition.db.database_url` (``$QIPAI_DATA_DIR/qipai.db``).
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field

#: sign-ups per client address in :data:`SIGNUP_WINDOW` seconds, at once or spread out
SIGNUPS_PER_ADDRESS = 30
SIGNUP_WINDOW = 600


def signup_limit(n: int | str) -> tuple[float, int]:
    """The sign-up bucket of ``n`` sign-ups per address in 10 minutes: ``n`` at once, then
    refilled at ``n`` per 10 minutes. ValueError for anything but a whole number from 1."""
    try:
        count = int(n)
    except (TypeError, ValueError):
        count = 0
    if count < 1 or str(n).strip() != str(count):
        raise ValueError(f"sign-ups per address is a whole number from 1, not {n!r}")
    return (count / SIGNUP_WINDOW, count)


@dataclass
class Limits:
    """Rate limits (token buckets: ``rate`` per second, ``burst`` at once) and sizes."""

    login_ip: tuple[float, int] = (0.2, 10)        # 10 tries, then one per 5 s, per client IP
    login_account: tuple[float, int] = (0.1, 5)    # 5 tries, then one per 10 s, per username
    # sign-ups per client address: a school's or club's room signs up together behind one
    # address, so 30 at once, then 3 a minute (30 per 10 minutes); an operator raises it with
    # ``qipai serve --signups-per-address N`` or $QIPAI_SIGNUPS_PER_ADDRESS (N per 10 minutes)
    signup_ip: tuple[float, int] = field(default_factory=lambda: signup_limit(
        os.environ.get("QIPAI_SIGNUPS_PER_ADDRESS") or SIGNUPS_PER_ADDRESS))
    moves_account: tuple[float, int] = (10.0, 20)  # WebSocket messages per signed-in account
    # WebSocket messages of signed-out sockets per client IP (never a signed-in one's: many
    # players share one address at a venue)
    moves_ip: tuple[float, int] = (50.0, 100)
    api_ip: tuple[float, int] = (50.0, 200)        # other POST requests per client IP
    bot_games_account: tuple[float, int] = (1 / 30, 20)  # games of bots alone an account starts
    chat_account: tuple[float, int] = (0.5, 5)     # chat lines per account (5, then one per 2 s)
    # chat lines an account reports (5, then one a minute): each is kept for a referee or admin
    report_account: tuple[float, int] = (1 / 60, 5)
    # disputes per account (3, then one per 30 s): each is announced at the table and kept in
    # the game's log and record
    dispute_account: tuple[float, int] = (1 / 30, 3)
    bot_token: tuple[float, int] = (20.0, 60)      # Bot API requests per account
    # tries at an event's join code per account (20, then one per 30 s): a code is 8 hex
    # digits, and a try of the right code counts too (it is checked only after the limit)
    join_account: tuple[float, int] = (1 / 30, 20)
    # tries at a private table's code per account (20, then one per 30 s), as at an event's join
    # code: counted before the code is checked (qipai.server.tablecodes)
    table_code_account: tuple[float, int] = (1 / 30, 20)
    # and per client address (60, then one per 10 s): accounts are cheap (30 sign-ups per
    # address per 10 minutes), and each one's own tries add up
    table_code_ip: tuple[float, int] = (0.1, 60)
    # replays (every position of a game, /api/records/{id}/steps and an event game's) per client
    # IP: 30, then one per 2 s; a long game's steps take seconds to compute and are megabytes
    replay_ip: tuple[float, int] = (0.5, 30)
    # go score estimates worked out for a client IP (a position already estimated is free):
    # 30, then one per 2 s; each is a tenth of a second of a core on a 19x19 board
    estimate_ip: tuple[float, int] = (0.5, 30)
    ws_message_bytes: int = 4096                   # larger WebSocket messages are refused
    ws_flood: int = 100                            # rate-limited messages at once (then a tenth
                                                   # of it per second) before a socket is closed
    body_bytes: int = 65536                        # larger HTTP bodies are refused
    # open table sockets (a worker's count) past which no more are opened to watch: per
    # account, and per client address (signed in or not); a seat's own socket is never refused
    ws_open_account: int = 50
    ws_open_ip: int = 500


@dataclass
class Settings:
    database_url: str | None = None    # None: the default SQLite file in the data directory
    limits: Limits = field(default_factory=Limits)
    # a commit slower than this (s) pauses the games; $QIPAI_STORAGE_STALL_SECONDS
    storage_stall: float = field(default_factory=lambda: env_ms("QIPAI_STORAGE_STALL_SECONDS", 2000) / 1000)
    storage_wait: float = 3.0          # a request retries failing writes this long (s), then 503
    storage_faults: bool = False       # test hook: writes fail while <database>.fault exists
    # where group commits run: "thread" (a worker thread) or "process" (a writer process of its
    # own, see qipai/server/writer.py; an in-memory SQLite database falls back to a thread)
    storage_writer: str = "thread"
    spectator_delay_ms: int = 10_000   # default delay for spectators of hidden-information games
    bot_delay_ms: int = 600            # default thinking time shown by built-in bots
    # the least time a private window (4A4's 叉/勾) stays open, whoever could answer it; answers
    # are applied only then, so its closing time does not tell who could claim (fouafour §3.4)
    private_window_ms: int = 2000
    # the least time of each prompt of a deal (shengji's deal_prompt="every_card" asks the seat
    # dealt each card, about 100 prompts): the same short hold for every one of them, whoever
    # could declare, so a two-deck deal lasts about 30 s as in a card room; never more than
    # private_window_ms. Default: $QIPAI_DEAL_WINDOW_SECONDS, else 0.28
    deal_window_ms: int = field(default_factory=lambda: env_ms("QIPAI_DEAL_WINDOW_SECONDS", 280))
    # how long a table waits, after sending its seats the commitment to its match secret, for
    # their nonces before it deals (competition.md §6.1: 10 s); 0 deals at once
    nonce_window_ms: int = 10_000
    # how often the lobby and event pages ask for changes (ms, at least 50); the pages' other
    # refreshes keep their proportion to it (the referee panel's is half of it)
    page_poll_ms: int = 2000
    # start the events' worker process with the server, not at the first change of an event
    # (its start, a Python process importing the competition code, held the first event made on
    # a server 1-3 s, 5-8 s on a loaded machine, "Creating the event…" all along). On by default;
    # $QIPAI_EVENT_WORKER_AT_START=0 (set by the tests, most of whose servers make no event) starts
    # it at the first change. Its start does not hold the server's own start (events.start_worker)
    event_worker_at_start: bool = field(
        default_factory=lambda: os.environ.get("QIPAI_EVENT_WORKER_AT_START") != "0")
    # load every game before serving (``warm_games``: doudizhu builds its table of plays, 0.5-0.8 s
    # of CPU, which would otherwise stall every table when its first table is made); False
    # ($QIPAI_WARM_GAMES=0, set by the tests, most of whose servers play no doudizhu) builds a
    # game's tables when its first table needs them
    warm_games: bool = field(default_factory=lambda: os.environ.get("QIPAI_WARM_GAMES") != "0")
    organizers: tuple[str, ...] = ()   # usernames that get the organizer role when they sign up
    first_user_organizer: bool = True  # the first account of a fresh server is an organizer
    max_open_tables: int = 10          # tables an account created that are open or playing
    table_idle_timeout: float = 86_400.0   # seconds: an idle table with no change is aborted
    # a lobby board game of two: a person's clock with main time starts at that person's first
    # move (as on lichess); the first move must come within this (ms), else the game is aborted
    first_move_ms: int = 30_000
    # a lobby junqi table's first decision is the layout of 25 pieces: it has this long instead
    # (as the junqi_default preset's layout phase, competition.md §4.5; QQ gives minutes too)
    first_layout_ms: int = 180_000
    # an event's games (competition.md §5.6, §4.3; qipai/server/eventstart.py): a match's first
    # game with a person seated starts when every person is at the table, or after this grace
    # (``no_show_grace``, ms; 0: at once); a later game after this pause (``between_games``);
    # $QIPAI_READY_GRACE_SECONDS, $QIPAI_BETWEEN_GAMES_SECONDS
    event_ready_grace_ms: int = field(
        default_factory=lambda: env_ms("QIPAI_READY_GRACE_SECONDS", 600_000, True))
    event_between_games_ms: int = field(
        default_factory=lambda: env_ms("QIPAI_BETWEEN_GAMES_SECONDS", 60_000, True))
    # origins (scheme://host[:port]) whose pages may act on this server besides its own (a site
    # behind a proxy that rewrites Host); default: $QIPAI_ALLOWED_ORIGINS, comma-separated
    allowed_origins: tuple[str, ...] = field(default_factory=lambda: env_list("QIPAI_ALLOWED_ORIGINS"))
    # addresses of reverse proxies whose X-Forwarded-For / X-Forwarded-Proto are believed
    # (uvicorn's forwarded_allow_ips: comma-separated addresses or networks, "*" for any);
    # None: $FORWARDED_ALLOW_IPS, else 127.0.0.1 and ::1
    forwarded_allow_ips: str | None = None
    # several workers (docs/deploy.md): the Redis that holds the tables' leases and carries
    # sign-outs between them; None: one process alone. Default: $QIPAI_REDIS_URL
    redis_url: str | None = field(default_factory=lambda: os.environ.get("QIPAI_REDIS_URL") or None)
    # the name its Redis keys start with (several clusters may share a Redis); $QIPAI_CLUSTER_NAME
    cluster_name: str = field(default_factory=lambda: os.environ.get("QIPAI_CLUSTER_NAME") or "qipai")
    # a table's lease (ms): a stopped worker's tables move after it; $QIPAI_LEASE_SECONDS
    lease_ms: int = field(default_factory=lambda: env_ms("QIPAI_LEASE_SECONDS", 2000))
    # how long (ms) a worker's event loop may be busy before its leases are left to lapse and
    # its tables taken over (leases.Keeper); $QIPAI_STALL_SECONDS
    stall_ms: int = field(default_factory=lambda: env_ms("QIPAI_STALL_SECONDS", 30_000))
    # where a worker of a cluster takes requests relayed by the others (a port of its own is
    # chosen); another host's workers must reach it: its private address on a network of several
    internal_host: str = "127.0.0.1"
    probe_file: str | None = None      # load tests: write the event loop's lag here (server/probe.py)
    # engines the lobby offers as opponents (``qipai serve --engine NAME=CMD``), each a
    # qipai.engines.EngineSpec with its protocol known: seated as the bot "engine:NAME"
    engines: tuple = ()


def env_list(name: str) -> tuple[str, ...]:
    """The comma- or space-separated items of the environment variable ``name``."""
    return tuple(os.environ.get(name, "").replace(",", " ").split())


def env_ms(name: str, default: int, zero: bool = False) -> int:
    """The seconds in the environment variable ``name`` as milliseconds (``default`` when it is
    not set). Raises ValueError naming the variable for a value that is not a positive number
    (``zero``: or 0)."""
    raw = os.environ.get(name)
    if not raw:
        return default
    try:
        ms = round(float(raw) * 1000)
    except ValueError:
        ms = -1
    if ms < 0 or (ms == 0 and not zero):
        raise ValueError(f"{name} must be a positive number of seconds, not {raw!r}")
    return ms
