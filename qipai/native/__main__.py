"""``python -m qipai.native build|status|clean``: see :mod:`qipai.native`."""

import sys

from qipai.native import main

sys.exit(main())
