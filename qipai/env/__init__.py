"""Research doors: PettingZoo and Gymnasium environments for every qipai game.

``pip install "qipai[research]"`` installs what they need (pettingzoo, gymnasium, numpy); the
rest of qipai never imports this package, and importing it needs none of them until one of
the functions below is called.

* :func:`pettingzoo` — a PettingZoo AEC environment (every seat an agent);
* :func:`gymnasium` — a single-agent Gymnasium environment, one seat against built-in bots;
* :func:`encoder` — the game's observation tensor and action numbering alone;
* :mod:`qipai.env.selfplay` — many games in a process pool, written as replayable records.

The encodings (shapes, action numberings) are documented in ``docs/research.md``.
"""

from __future__ import annotations

from typing import Any


def pettingzoo(game_id: str, **options: Any):
    """A PettingZoo AEC environment of ``game_id``: see :class:`qipai.env.aec.QipaiAEC`
    (``num_seats``, ``max_steps``, ``render_mode`` and the game's own options)."""
    from .aec import QipaiAEC

    return QipaiAEC(game_id, **options)


def gymnasium(game_id: str, seat: int = 0, opponents: str = "rule", **options: Any):
    """A Gymnasium environment: ``seat`` of ``game_id`` against built-in bots named
    ``opponents`` (``rule``, ``greedy``, ``random``, ...; see :class:`qipai.env.single.QipaiGym`)."""
    from .single import QipaiGym

    return QipaiGym(game_id, seat=seat, opponents=opponents, **options)


def encoder(game_id: str, num_seats: int | None = None, **options: Any):
    """The :class:`~qipai.env.base.Encoder` of ``game_id`` with ``options``."""
    import qipai

    from .registry import make_encoder

    game = qipai.load(game_id, **options)
    return make_encoder(game, num_seats or game.seat_counts()[0])


__all__ = ["encoder", "gymnasium", "pettingzoo"]
