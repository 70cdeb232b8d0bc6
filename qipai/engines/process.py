"""One engine process: started, fed lines, read line by line with timeouts, stopped.

:class:`EngineProcess` is the shared layer under every door (UCI/UCCI, GTP, Gomocup). It never
blocks the event loop: every read has a timeout, a process that stops answering raises
:class:`EngineTimeout`, one that exits (or closes its output) raises :class:`EngineDied`, and
:meth:`EngineProcess.stop` always ends the process (asking it politely first, then killing its
process group). The last lines exchanged are kept in :attr:`EngineProcess.transcript` for the
record and for error messages.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import shlex
import signal
from collections import deque
from collections.abc import Callable, Sequence

from qipai.core.errors import QipaiError

#: the longest line an engine may send (a longer one is malformed output)
LINE_LIMIT = 1 << 20


class EngineError(QipaiError):
    """An engine could not be started, broke its protocol, died or stopped answering."""


class EngineDied(EngineError):
    """The engine process exited or closed its output."""


class EngineTimeout(EngineError):
    """The engine did not answer in time."""


def command_argv(command: str | Sequence[str]) -> list[str]:
    """The argument list of an engine command (a shell-like string or a list)."""
    argv = shlex.split(command) if isinstance(command, str) else [str(a) for a in command]
    if not argv:
        raise EngineError("empty engine command")
    return argv


class EngineProcess:
    """An engine program talking lines over its standard input and output."""

    def __init__(self, command: str | Sequence[str], *, cwd: str | None = None,
                 env: dict[str, str] | None = None, keep: int = 400) -> None:
        self.argv = command_argv(command)
        self.cwd = cwd
        self.env = env
        self.proc: asyncio.subprocess.Process | None = None
        #: the last lines exchanged: ``"> line"`` sent, ``"< line"`` received, ``"# note"``
        self.transcript: deque[str] = deque(maxlen=keep)
        self.starts = 0
        #: received lines starting with one of these are left out of the transcript (UCI's
        #: ``info`` lines: hundreds a move)
        self.mute: tuple[str, ...] = ()

    @property
    def alive(self) -> bool:
        return self.proc is not None and self.proc.returncode is None

    @property
    def pid(self) -> int | None:
        return self.proc.pid if self.proc is not None else None

    async def start(self) -> None:
        """Start the process (stopping an old one first). Raises :class:`EngineError` when the
        program cannot be run."""
        if self.proc is not None:
            await self.stop()
        try:
            self.proc = await asyncio.create_subprocess_exec(
                *self.argv, stdin=asyncio.subprocess.PIPE, stdout=asyncio.subprocess.PIPE,
                stderr=asyncio.subprocess.DEVNULL, cwd=self.cwd, env=self.env, limit=LINE_LIMIT,
                start_new_session=True)
        except OSError as e:
            raise EngineError(f"cannot start engine {self.argv[0]!r}: {e.strerror or e}") from None
        self.starts += 1
        self.transcript.append(f"# started {shlex.join(self.argv)} (pid {self.proc.pid})")

    async def send(self, line: str) -> None:
        """Send one line. Raises :class:`EngineDied` when the process is gone."""
        if not self.alive or self.proc.stdin is None:
            raise EngineDied(self._why_dead())
        self.transcript.append(f"> {line}")
        try:
            self.proc.stdin.write((line + "\n").encode())
            await self.proc.stdin.drain()
        except (BrokenPipeError, ConnectionResetError) as e:
            raise EngineDied(f"engine closed its input: {e}") from None

    async def readline(self, timeout: float | None) -> str:
        """The next line (without its end), waiting at most ``timeout`` seconds (None: no
        limit). Raises :class:`EngineTimeout`, :class:`EngineDied` or :class:`EngineError`
        (a line past :data:`LINE_LIMIT`)."""
        if self.proc is None or self.proc.stdout is None:
            raise EngineDied("the engine is not running")
        try:
            raw = await asyncio.wait_for(self.proc.stdout.readline(), timeout)
        except TimeoutError:
            raise EngineTimeout(f"no answer within {timeout:.1f} s") from None
        except (ValueError, asyncio.LimitOverrunError):
            raise EngineError(f"the engine sent a line longer than {LINE_LIMIT} bytes") from None
        if not raw:
            await self._reap()
            raise EngineDied(self._why_dead())
        line = raw.decode("utf-8", errors="replace").rstrip("\r\n")
        if not line.startswith(self.mute) or not self.mute:
            self.transcript.append(f"< {line}")
        return line

    async def read_until(self, done: Callable[[str], bool], timeout: float | None) -> list[str]:
        """Read lines until one satisfies ``done`` (it is the last of the list), within
        ``timeout`` seconds for all of them."""
        loop = asyncio.get_running_loop()
        end = None if timeout is None else loop.time() + timeout
        lines = []
        while True:
            left = None if end is None else max(0.0, end - loop.time())
            line = await self.readline(left)
            lines.append(line)
            if done(line):
                return lines

    async def stop(self, quit_line: str | None = None, grace: float = 1.0) -> None:
        """End the process: send ``quit_line`` (if any) and wait up to ``grace`` seconds, then
        kill its process group. Never raises."""
        proc = self.proc
        if proc is None:
            return
        if proc.returncode is None and quit_line is not None:
            with contextlib.suppress(EngineError, OSError):
                await self.send(quit_line)
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(proc.wait(), grace)
        if proc.returncode is None:
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.killpg(proc.pid, signal.SIGKILL)
            with contextlib.suppress(ProcessLookupError):
                proc.kill()
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(proc.wait(), 5)
        if proc.stdin is not None:
            with contextlib.suppress(Exception):
                proc.stdin.close()
        self.transcript.append(f"# stopped (exit status {proc.returncode})")

    async def _reap(self) -> None:
        if self.proc is not None and self.proc.returncode is None:
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self.proc.wait(), 0.5)

    def _why_dead(self) -> str:
        code = self.proc.returncode if self.proc is not None else None
        return "the engine is not running" if code is None else f"the engine exited (status {code})"
