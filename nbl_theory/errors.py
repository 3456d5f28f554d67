"""Exception types of the toolkit.

Every error that a user can trigger with bad input is an :class:`NBLInputError`; its message
is one line naming the condition that failed, so the ``nbl`` command can print it verbatim.
"""

__all__ = ["NBLInputError", "DivergentIntegralError"]


class NBLInputError(ValueError):
    """Bad input: malformed expression, non-monotone link, Δ out of range, ..."""


class DivergentIntegralError(NBLInputError):
    """A Gaussian expectation required by the theory does not converge for this link."""
