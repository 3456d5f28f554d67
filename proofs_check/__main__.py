"""``python -m proofs_check [--quick] [--out DIR]``: run the claims, write the report
(the same as ``nbl check``)."""

import sys

from .cli import main

sys.exit(main(["check", *sys.argv[1:]]))
