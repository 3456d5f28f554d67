"""The derivations of app:tanh-geometry outside proofs."""

STEPS = {
    "text:app:tanh-geometry/b01/s01": dict(
        hash="92639992b32e", method="prose", note="a definition: the two-transition tanh link "
                                      "(eq:link_tanh)"),
}
