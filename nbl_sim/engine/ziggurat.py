"""The tables of numpy's ziggurat for standard normals (256 layers), as data.

numpy's ``Generator.standard_normal`` (``random_standard_normal`` of numpy's
``distributions.c``) draws with the ziggurat of Marsaglia and Tsang using the tables
``ki_double``, ``wi_double`` and ``fi_double`` and the constants ``ziggurat_nor_r`` and
``ziggurat_nor_inv_r`` of numpy's ``numpy/random/src/distributions/ziggurat_constants.h``
(Copyright (c) the NumPy Developers; numpy's BSD-3-Clause licence covers this copy). They ship as
data with the package (``nbl_sim/engine/data/ziggurat.json``) so that the compiled stream
(:mod:`nbl_sim.engine.pcg64`) imports no private module of numba or numpy: transcribed once from
numba's own copy of numpy's header (``numba/np/random/_constants.py``, numba 0.68.1), the 52-bit
thresholds as hexadecimal strings and the floats as Python ``repr`` (which round-trips every
float64 exactly through ``json``).

Checked, not trusted: the compiled normals drawn with these tables must equal numpy's own
``standard_normal`` values (:func:`nbl_sim.engine.pcg64.compiled_pcg_agrees` once per process, and
``tests/sim/test_engine_pin.py`` over every layer, the slow paths and the tail), so a wrong
entry is caught.
"""

import json
from importlib import resources

import numpy as np

__all__ = ["ki_double", "wi_double", "fi_double", "ziggurat_nor_r", "ziggurat_nor_inv_r"]

_TABLES = json.loads(
    resources.files(__package__).joinpath("data", "ziggurat.json").read_text(encoding="utf-8")
)

#: numpy's ``ziggurat_nor_r``: the start of the tail, r
ziggurat_nor_r: float = _TABLES["ziggurat_nor_r"]
#: numpy's ``ziggurat_nor_inv_r``: 1/r
ziggurat_nor_inv_r: float = _TABLES["ziggurat_nor_inv_r"]
#: numpy's ``ki_double``: the 52-bit acceptance thresholds of the 256 layers
ki_double = np.array([int(x, 16) for x in _TABLES["ki_double"]], dtype=np.uint64)
#: numpy's ``wi_double``: the widths of the layers (scale of the 52-bit draw)
wi_double = np.array(_TABLES["wi_double"], dtype=np.float64)
#: numpy's ``fi_double``: the density at the layer edges, exp(−x²/2)
fi_double = np.array(_TABLES["fi_double"], dtype=np.float64)
