"""Transcriptions of app:stochastic-nbl (outside proofs)."""

STEPS = {
    "text:app:stochastic-nbl/b01/s01": dict(
        hash="372bdff1ecd8",
        method="prose",
        note="a definition: the signed angle alpha_t from v* to v_t (the quantity the "
        "experiments report), introduced here ('we define')",
    ),
}
