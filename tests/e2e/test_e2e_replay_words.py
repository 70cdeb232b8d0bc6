"""Every game's replay list words its steps: a game played at random server-side (every game of
the registry), its steps listed as the replay page lists them (gamenav.replayNav with the
board's own entry, the one a card game falls back to when its hand has no rounds to list), and
no entry shows a raw action code ("accept", "declare 6H1 6H2", "bid 3", "discard 5m"), in
either language; cards and tiles are drawn, not written as codes."""

from __future__ import annotations

import random
import re

import pytest

import qipai
from qipai.core.registry import _MODULES
from qipai.server import movetext

#: a card id (6H1, QD, LJ2) or a tile code (5m, 3s) written as text (a rank string's jokers read
#: LJ / BJ in English, as the card table writes them)
CODE = re.compile(r"(?<![\w♠♥♣♦])(?:[2-9TJQKA][SHCD]\d?|[LB]J\d|[1-9][mps])(?!\w)")


def _steps(game_id: str, seed: int, cap: int = 160) -> list[dict]:
    state = qipai.load(game_id).new_state(seed=seed)
    rng = random.Random(seed)
    listed = movetext.has_moves(game_id)
    steps: list[dict] = [{"action": None}]
    while not state.is_terminal() and len(steps) <= cap:
        seat = rng.choice(state.to_act)
        if getattr(state, "phase", None) == "bury":      # every choice of a kitty: the default one
            action = state.default_action(seat)
        else:
            action = rng.choice(list(state.legal_actions(seat)))
        text = action if isinstance(action, str) else state._action_text(action)
        move = movetext.describe(state, seat, text) if listed else None
        state.apply(text, seat=seat)
        steps.append({"action": text, "seat": seat, **({"move": move} if move else {})})
    return steps


#: the replay page's list of each game's steps, as entry texts
LIST = """async (games) => {
  const { t, lang } = await import("/static/i18n.js");
  const { replayNav } = await import("/static/gamenav.js");
  const out = {};
  for (const g of games) {
    const root = document.createElement("div"), side = document.createElement("div");
    document.body.append(root, side);
    const mod = await import(`/static/boards/${g.game}.js`);
    const board = mod.mount(root, { t, lang, send: () => {}, ask: () => {} });
    const entry = board.moveEntry ? (e) => board.moveEntry(e, g.names) : null;
    replayNav({ host: side, game: g.game, steps: g.steps, names: g.names, seats: g.names.length, t, lang,
      show: () => {}, entry });
    out[g.game] = [...side.querySelectorAll("li.ml-move")]
      .map((li) => li.innerText.replace(/\\s+/g, " ").trim());
    root.remove(); side.remove();
  }
  return out;
}"""


#: qipai's own games, as the package registers them (a test module of the same worker may add
#: test-only games such as test-nim to the registry: they have no board)
OWN_GAMES = [gid for gid, module in _MODULES.items() if module.startswith("qipai.games.")]


def test_the_games_walked_are_qipais_own():
    from tests import match_games  # noqa: F401  (registers test-nim, test-pairs, test-high)
    assert "test-nim" in _MODULES and "test-nim" not in OWN_GAMES
    assert {"xiangqi", "doudizhu", "baibian-bajue"} <= set(OWN_GAMES)


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_no_replay_entry_shows_a_raw_action_code(server, browser, lang):
    games = []
    for gid in OWN_GAMES:
        steps = _steps(gid, 3)
        seats = qipai.load(gid).new_state(seed=3).num_seats
        games.append({"game": gid, "steps": steps, "names": [f"P{s}" for s in range(seats)]})
    ctx = browser.new_context(locale="zh-CN" if lang == "zh" else "en-US")
    ctx.add_init_script(f"localStorage.setItem('lang', '{lang}')")
    page = ctx.new_page()
    page.goto(server + "/")
    got = page.evaluate(LIST, games)
    ctx.close()
    bad = []
    for g in games:
        texts = got[g["game"]]
        assert len(texts) == len(g["steps"]) - 1, g["game"]
        listed = movetext.has_moves(g["game"])
        for step, text in zip(g["steps"][1:], texts, strict=True):
            raw = step["action"]
            if lang == "zh" and re.search(r"[a-z]{3,}", text):          # every action code is English
                bad.append((g["game"], raw, text))
            elif not listed and (CODE.search(text) or (" " in raw and raw in text)):
                bad.append((g["game"], raw, text))
    assert bad == [], bad[:20]
