"""proofs_check: the claim registry, the verification report and the ``nbl`` command."""

__all__: list[str] = []
