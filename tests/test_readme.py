"""What README.md tells a newcomer to type works as written."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

README = Path(__file__).resolve().parent.parent / "README.md"


def test_research_doors_after_a_bare_import_qipai():
    """README: ``qipai.env.pettingzoo("doudizhu")`` and ``qipai.env.gymnasium("xiangqi",
    opponents="greedy")`` after ``import qipai`` alone (it raised AttributeError: module 'qipai'
    has no attribute 'env'). A fresh interpreter, so no other test has imported qipai.env."""
    calls = re.findall(r"`(qipai\.env\.\w+\([^`]*\))`", README.read_text())
    assert len(calls) >= 2
    code = "import qipai, sys\nassert 'qipai.env' not in sys.modules\n" + "".join(
        f"e = {c}\ne.reset(seed=1)\n" for c in calls)
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
