#!/usr/bin/python3
# SPDX-License-Identifier: GPL-3.0-or-later
# The linear baselines (core/eval/linear_baselines.hpp, run by linear-baselines-bench) beside
# scikit-learn's RidgeCV / LogisticRegressionCV on the same features (log(1 + count), unit length)
# and the same split (every EVERY-th document held out). Not run in CI.
#
#   baselines_vs_sklearn.py BENCH DOCWORD LABELS numeric|categorical [EVERY]
import json
import subprocess
import sys
import time

import numpy as np
from scipy.sparse import coo_matrix
from sklearn.linear_model import LogisticRegressionCV, RidgeCV
from sklearn.metrics import accuracy_score, f1_score, log_loss, mean_squared_error, r2_score, roc_auc_score
from sklearn.preprocessing import normalize

bench, docword, labels_path, kind = sys.argv[1:5]
every = int(sys.argv[5]) if len(sys.argv) > 5 else 4

ours = json.loads(subprocess.run([bench, docword, labels_path, kind, str(every)], check=True,
                                 capture_output=True, text=True).stdout)

with open(docword) as f:
    D, W, _ = (int(f.readline()) for _ in range(3))
    rows = np.loadtxt(f, dtype=np.int64).reshape(-1, 3)
X = coo_matrix((np.log1p(rows[:, 2].astype(float)), (rows[:, 0] - 1, rows[:, 1] - 1)), shape=(D, W)).tocsr()
X = normalize(X)
labels = [line.rstrip("\n") for line in open(labels_path)][:D]
test = np.arange(D) % every == 0
train = ~test

start = time.time()
theirs = {}
if kind == "numeric":
    y = np.array([float(v) for v in labels])
    model = RidgeCV(alphas=10.0 ** np.arange(3, -3.01, -0.5), cv=5).fit(X[train], y[train])
    p = model.predict(X[test])
    theirs = {"rmse": mean_squared_error(y[test], p) ** 0.5, "r2": r2_score(y[test], p)}
    ours_view = {"rmse": ours["baseline_response_rmse_ridge"], "r2": ours["baseline_response_r2_ridge"]}
else:
    classes = sorted(set(labels[i] for i in np.flatnonzero(train)))
    code = {c: i for i, c in enumerate(classes)}
    y = np.array([code.get(v, -1) for v in labels])
    keep = test & (y >= 0)
    # Our penalty lambda on the mean log loss is C = 1 / (lambda n) on the summed one.
    n = int(train.sum())
    Cs = 1.0 / (n * 10.0 ** np.arange(-1, -5.01, -0.5))
    # Scored by accuracy in its CV: its log-loss scorer fails on folds that miss a class.
    model = LogisticRegressionCV(Cs=Cs, cv=5, max_iter=2000).fit(X[train], y[train])
    p = model.predict_proba(X[keep])
    pred = p.argmax(axis=1)
    theirs = {"accuracy": accuracy_score(y[keep], pred), "macro_f1": f1_score(y[keep], pred, average="macro"),
              "log_loss": log_loss(y[keep], p, labels=list(range(len(classes)))),
              "auc": roc_auc_score(y[keep], p, multi_class="ovr", labels=list(range(len(classes))))
              if len(classes) > 2 else roc_auc_score(y[keep], p[:, 1])}
    ours_view = {k: ours["baseline_%s_logistic" % k] for k in theirs}
seconds = time.time() - start
print(json.dumps({"latent": ours_view, "latent_seconds": ours["seconds"], "sklearn": theirs,
                  "sklearn_seconds": seconds}, indent=2))
