"""The collector as a serving process sets it (:func:`qipai.server.tune_gc`): young collections
come often and each looks at few objects, so none pauses every table for long (at a first
threshold of 200,000 one paused a 500-game server 96 and 115 ms)."""

from __future__ import annotations

import gc

from qipai.server import tune_gc

#: the most objects one young collection, and one middle collection, may look at: about 4 and
#: 20 ms of pause on the 2-core development machine under load (200,000 took about 90 ms)
YOUNG_MOST, MIDDLE_MOST = 20_000, 60_000


def test_young_collections_look_at_few_objects_each():
    before = gc.get_threshold()
    seen: list[tuple[int, int]] = []

    def note(phase, info):
        if phase == "start" and info["generation"] < 2:
            seen.append((info["generation"], sum(gc.get_count()[:info["generation"] + 1])))

    tune_gc()
    gc.callbacks.append(note)
    try:
        kept = [[i] for i in range(120_000)]       # long-lived, as a server's new tables
    finally:
        gc.callbacks.remove(note)
        gc.unfreeze()
        gc.set_threshold(*before)
    assert len(kept) == 120_000
    young = [n for g, n in seen if g == 0]
    assert len(young) >= 4, seen              # collected as they came, not all at once later
    # what one collection looks at: the young objects, and for a middle one, those too
    assert max(n for _, n in seen) <= MIDDLE_MOST
    assert max(young) <= YOUNG_MOST
