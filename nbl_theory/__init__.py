"""nbl_theory: exact and high-precision theory of Natural Boundary Learning."""

from .errors import DivergentIntegralError, NBLInputError
from .links import Link

__all__ = ["Link", "NBLInputError", "DivergentIntegralError"]
