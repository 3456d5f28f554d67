"""``python -m proofs_check.cli ...`` is ``nbl ...``."""

import sys

from . import main

sys.exit(main())
