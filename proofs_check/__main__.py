"""``python -m proofs_check`` runs the ``nbl`` command."""

import sys

from .cli import main

sys.exit(main())
