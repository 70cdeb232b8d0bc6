"""4A4 speed. No public library implements 4A4 / 四幺四 (none on PyPI), so there is no peer to
run beside it; this prints qipai's own rates, measured as ``benchmarks/wakeng.py`` does:
random deals per second (叉/勾 windows answered by every asked seat), rule-bot deals per
second, and legal-action generations per second.

Run: ``.venv/bin/python benchmarks/fouafour.py [seconds per measurement]``.
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from wakeng import report  # noqa: E402

if __name__ == "__main__":
    report("fouafour", float(sys.argv[1]) if len(sys.argv) > 1 else 2.0)
