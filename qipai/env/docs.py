"""The per-game encoding tables of ``docs/research.md``, generated from the encoders
(``python -m qipai.env.docs`` prints them; a test checks the document holds them)."""

from __future__ import annotations

from typing import Any

#: the games and options the document shows (short games where a game has a length option)
DOCUMENTED: list[tuple[str, dict[str, Any]]] = [
    ("go", {"board_size": 9}), ("gomoku", {}), ("xiangqi", {}), ("chinese-checkers", {}), ("junqi", {}),
    ("doudizhu", {}), ("wakeng", {}), ("fouafour", {}), ("baohuang", {}), ("shengji", {}), ("sandayi", {}),
    ("mahjong-gb", {}), ("laizi-mahjong", {}), ("baibian-bajue", {}),
]


def game_markdown(game_id: str, **options: Any) -> str:
    """The observation parts and the action space of ``game_id`` as a Markdown section."""
    from . import encoder

    d = encoder(game_id, **options).describe()
    label = game_id + (" (" + ", ".join(f"{k}={v}" for k, v in options.items()) + ")" if options else "")
    lines = [f"### {label}", "",
             f"Observation `float32` {tuple(d['observation_shape'])}, every element in `[0, high]`.", "",
             "| part | shape | holds |", "|---|---|---|"]
    lines += [f"| `{name}` | {shape} | {doc} |" for name, shape, doc in d["parts"]]
    lines += ["", f"Actions ({d['action_kind']}): {d['actions']}.", ""]
    return "\n".join(lines)


def markdown() -> str:
    return "\n".join(game_markdown(g, **o) for g, o in DOCUMENTED)


if __name__ == "__main__":
    print(markdown())
