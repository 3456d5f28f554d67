"""Transcriptions of app:tanh-geometry (outside proofs)."""

STEPS = {
    "text:app:tanh-geometry/b01/s01": dict(
        hash="92639992b32e", method="prose",
        note="a definition: the two-transition link g of the experiments (eq:link_tanh), "
             "with its parameters given in the text after it"),
}
