"""The junqi event presets (s0_junqi: siguo pairs; s2_junqi: luzhan best of three) run to a
champion with the greedy bot in every seat."""

from __future__ import annotations

from qipai.competition import create_event, open_db, run_event


def test_presets_run_to_a_champion(tmp_path):
    db = open_db(f"sqlite:///{tmp_path / 'ev.db'}")
    create_event(db, "s2_junqi", [{"id": f"p{i:02d}", "bot": "greedy"} for i in range(1, 6)],
                 event_id="lz")
    lz = run_event(db, "lz")
    assert lz["status"] == "finished" and lz["outcome"]["champion"]
    assert sorted(lz["outcome"]["placement_points"].values()) == [1.0, 1.0, 1.0, 3.0, 5.0]
    pairs = [{"id": f"q{i:02d}", "bot": "greedy", "members": [f"q{i:02d}a", f"q{i:02d}b"]}
             for i in range(1, 5)]
    create_event(db, "s0_junqi", pairs, event_id="sg")
    sg = run_event(db, "sg")
    assert sg["status"] == "finished" and sg["outcome"]["champion"] in {p["id"] for p in pairs}
