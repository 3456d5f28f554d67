"""
NBL on your own data
====================

NBL and Greedy Logistic are also objects you can run on any stream of contexts and rewards
(:mod:`nbl_sim.policies.objects`): ``choose(x)`` returns the arm, ``update(x, a, y)`` learns
from the reward of the arm played, and ``state()`` saves the policy as plain data.

Here the stream is scikit-learn's breast-cancer data set replayed as a bandit: each round
draws a patient at random, the context x is the patient's two whitened principal components
(``nbl_sim.beyond.datasets``) and the two arms are the two diagnoses — arm +1 pays 1 when the
tumour is benign, arm −1 when it is malignant. A policy that knew every label would earn 1
per round; the regret below counts the rounds a policy got wrong. (Needs scikit-learn:
``pip install nbl[datasets]``.)
"""

import json
import os
import sys

import matplotlib.pyplot as plt
import numpy as np
from sklearn.datasets import load_breast_cancer
from sklearn.linear_model import LogisticRegression

from nbl_sim.beyond.datasets import dataset_array
from nbl_sim.policies import NBL, GreedyLogistic

QUICK = bool(os.environ.get("NBL_EXAMPLES_QUICK"))  # the tests' quick form: fewer rounds

# %%
# The stream
# ----------
# Rows drawn with replacement from a seeded generator, so every run sees the same stream.
X_all = dataset_array("breast-cancer")  # (569, 2), whitened principal components
labels = load_breast_cancer().target  # 1 = benign, 0 = malignant
n = 600 if QUICK else 3000
rng = np.random.default_rng(2024)
rows = rng.integers(0, len(labels), size=n)
X, Y = X_all[rows], np.stack([1.0 - labels[rows], labels[rows] * 1.0], axis=1)  # Y[:, a>0]

# %%
# Running the policies
# --------------------
# Both start with the same n0 = 100 randomized rounds (the same coins, from ``seed``).
policies = {"NBL": NBL(2, n0=100, seed=7), "Greedy Logistic": GreedyLogistic(2, n0=100, seed=7)}
mistakes = {}
for name, policy in policies.items():
    wrong = np.empty(n)
    for t in range(n):
        a = policy.choose(X[t])
        y = Y[t, 1 if a > 0 else 0]
        policy.update(X[t], a, y)
        wrong[t] = 1.0 - y
    mistakes[name] = np.cumsum(wrong)
    print(
        f"{name:16s} wrong in {int(wrong.sum())} of {n} rounds ({wrong.mean():.1%}); "
        f"after the 100 randomized rounds: {wrong[100:].mean():.1%}"
    )

# %%
# What they learned. NBL's boundary is the direction v (its normal); Greedy Logistic's is the
# difference of its two fitted score vectors. The offline reference: one logistic regression
# fitted on the whole data set at once.
v = policies["NBL"].direction
gl = policies["Greedy Logistic"].theta
w_gl = gl[1, :2] - gl[0, :2]
ref = LogisticRegression().fit(X_all, labels)
w_ref = ref.coef_[0]
for name, w in (("NBL", v), ("Greedy Logistic", w_gl), ("offline logistic", w_ref)):
    angle = np.degrees(np.arctan2(w[1], w[0]))
    print(f"{name:16s} boundary normal at {angle:7.2f} deg from the first component")
print(f"offline logistic accuracy on the whole data set: {ref.score(X_all, labels):.1%}")

# %%
# Saving and resuming: the state is plain data (``json.dumps`` writes it), and a restored
# policy continues exactly where it stopped.
state = json.loads(json.dumps(policies["NBL"].state()))
again = NBL.from_state(state)
same = all(again.choose(x) == policies["NBL"].choose(x) for x in X[:50])
print(f"restored NBL chooses as the original on 50 contexts: {same}")

fig, ax = plt.subplots(figsize=(6.4, 3.6))
t = np.arange(1, n + 1)
for i, (name, m) in enumerate(mistakes.items()):
    ax.plot(t, m, color=f"C{i}", label=name)
ax.axvline(100, color="0.6", lw=0.8, ls=":")
ax.set_xlabel("round t")
ax.set_ylabel("rounds wrong (regret against the labels)")
ax.set_title("breast-cancer data replayed as a bandit")
ax.legend(fontsize=8)
fig.tight_layout()
if "sphinx_gallery" not in sys.modules:  # run on its own: the figure goes to a file
    fig.savefig("plot_6_policies_on_your_data.png", dpi=110)
    print("figure written to plot_6_policies_on_your_data.png")
