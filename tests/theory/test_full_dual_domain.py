"""The toolkit enforces eq:app_full_dual_domain: a potential whose dual domain phi'(I) does not
cover R cannot serve the Gaussian index (moved here from the claim ``burg-rejected-by-toolkit``:
it tests the toolkit, not the paper)."""

import pytest

from nbl_theory.errors import NBLInputError
from nbl_theory.families import make_family


def test_burg_entropy_is_rejected_naming_the_condition():
    # phi = -log r on (0, oo): phi'((0, oo)) = (-oo, 0), a restricted dual domain
    with pytest.raises(NBLInputError) as err:
        make_family("burg-entropy")
    msg = str(err.value)
    assert "dual domain" in msg and "app_full_dual_domain" in msg


def test_negative_entropy_is_accepted():
    # phi' = log r maps (0, oo) onto R (eq:app_full_dual_domain holds)
    assert make_family("negative-entropy") is not None
