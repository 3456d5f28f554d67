"""Real contexts: public datasets bundled with scikit-learn, as 2-D empirical context laws.

scikit-learn is an optional dependency (``pip install nbl[datasets]``); nothing is downloaded —
the datasets ship inside the scikit-learn wheel.

========================  =====================================================================
``breast-cancer``         Wisconsin diagnostic breast cancer (569 rows, 30 features;
                          ``sklearn.datasets.load_breast_cancer``)
``wine``                  UCI wine recognition (178 rows, 13 features;
                          ``sklearn.datasets.load_wine``)
========================  =====================================================================

Each becomes the 2-D context data of its first two principal components (:func:`dataset_array`;
``nbl_sim.beyond.contexts.load_dataset`` wraps it as an empirical law): the features are
z-scored, projected on the two leading right singular vectors (signs fixed so that the largest
|loading| of each component is positive), and each component is divided by its standard
deviation. The result has mean 0 and identity covariance, like the paper's N(0, I₂), so what
differs from the Gaussian theory is the *shape* of the law (skewness, heavy or light tails,
clusters), not its first two moments.
"""

from __future__ import annotations

import numpy as np

from nbl_theory.errors import NBLInputError

__all__ = ["DATASETS", "dataset_array", "principal_components"]

DATASETS = {"breast-cancer": "load_breast_cancer", "wine": "load_wine"}


def principal_components(features: np.ndarray, k: int = 2) -> np.ndarray:
    """The first ``k`` principal components of z-scored ``features``, each scaled to unit
    variance (population standard deviation), with deterministic signs."""
    x = np.asarray(features, dtype=float)
    sd = x.std(axis=0)
    keep = sd > 0
    z = (x[:, keep] - x[:, keep].mean(axis=0)) / sd[keep]
    _, _, vt = np.linalg.svd(z, full_matrices=False)
    vt = vt[:k]
    flip = np.sign(vt[np.arange(k), np.argmax(np.abs(vt), axis=1)])
    pcs = z @ (vt * flip[:, None]).T
    return pcs / pcs.std(axis=0)


def dataset_array(name: str) -> np.ndarray:
    """The (rows, 2) whitened principal components of a bundled dataset (module docstring)."""
    if name not in DATASETS:
        raise NBLInputError(f"unknown dataset {name!r} (known: {', '.join(DATASETS)})")
    try:
        from sklearn import datasets as skd
    except ImportError as exc:
        raise NBLInputError(
            f"dataset:{name} needs scikit-learn: pip install nbl[datasets]"
        ) from exc
    return principal_components(getattr(skd, DATASETS[name])().data)
