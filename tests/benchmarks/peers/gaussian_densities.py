# SPDX-License-Identifier: GPL-3.0-or-later
# Reference densities for rbm-gaussian's held-out log-likelihood: fitted to heldout-split's
# train.csv, scored on heldout.csv (mean log-density per row, natural log, the table's own units).
#   /usr/bin/python3 gaussian_densities.py train.csv heldout.csv FEATURES
import csv
import sys

import numpy as np
from scipy.stats import multivariate_normal
from sklearn.mixture import GaussianMixture


def load(path, features):
    with open(path) as f:
        rows = list(csv.reader(f))[1:]
    return np.array([[float(v) for v in row[1:1 + features]] for row in rows])


train = load(sys.argv[1], int(sys.argv[3]))
heldout = load(sys.argv[2], int(sys.argv[3]))
mean, var = train.mean(0), train.var(0)
independent = np.mean(np.sum(-0.5 * np.log(2 * np.pi * var) - 0.5 * (heldout - mean) ** 2 / var, 1))
print(f"independent Gaussians: {independent:.4f}")
full = multivariate_normal(mean, np.cov(train.T)).logpdf(heldout).mean()
print(f"one full-covariance Gaussian: {full:.4f}")
for k in (2, 3, 4, 6):
    for kind in ("diag", "full"):
        gmm = GaussianMixture(k, covariance_type=kind, random_state=0, n_init=5).fit(train)
        print(f"Gaussian mixture k={k} {kind}: {gmm.score(heldout):.4f}")
