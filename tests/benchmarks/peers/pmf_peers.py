#!/usr/bin/python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Peer for pmf: Funk's biased SGD matrix factorisation with scikit-surprise's SVD defaults,
written out in numpy (scikit-surprise itself is not packaged for Debian), trained and scored on
exactly our held-out split of a rating set, beside the global-mean and bias-only baselines.

The split comes from `pmf-speed --mode insteval --write-split DIR` (train.csv and test.csv:
user,item,rating with our dense indices; same --heldout and --seed as the runs it is compared to).

What surprise.SVD does with its defaults, and so does this script:
  n_factors=100, n_epochs=20, biased=True, init_mean=0, init_std_dev=0.1, lr_all=0.005,
  reg_all=0.02; factors p_u, q_i ~ N(0, 0.1^2), biases 0, mu the mean training rating;
  every epoch visits the training ratings user by user (users in order of first appearance in the
  training file, each user's ratings in file order), and for each rating
      e = r - (mu + b_u + b_i + q_i . p_u)
      b_u += lr (e - reg b_u);  b_i += lr (e - reg b_i)
      p_u += lr (e q_i - reg p_u);  q_i += lr (e p_u - reg q_i)   (both with the old values)
  predictions are clipped to the rating scale (here the training range).
The bias-only baseline is ridge regression on the biases alone, fitted by alternating exact
updates with the penalty given by --bias-lambda (once per user and item, as pmf's default).

Usage: /usr/bin/python3 tests/benchmarks/peers/pmf_peers.py DIR [--epochs 20] [--factors 100]
       [--lr 0.005] [--reg 0.02] [--init-std 0.1] [--seed 0] [--bias-lambda 10]
Prints one JSON line per method with its held-out RMSE (000 eq. 27.84) and fit seconds.
"""
import argparse
import csv
import json
import time

import numpy as np


def load(path):
    with open(path, newline="") as f:
        rows = list(csv.reader(f))[1:]
    users = np.array([int(r[0]) for r in rows], dtype=np.int64)
    items = np.array([int(r[1]) for r in rows], dtype=np.int64)
    values = np.array([float(r[2]) for r in rows])
    return users, items, values


def rmse(actual, predicted, low, high):
    return float(np.sqrt(np.mean((actual - np.clip(predicted, low, high)) ** 2)))


def bias_only(tu, ti, tr, nu, ni, mu, lam, sweeps=100):
    bu, bi = np.zeros(nu), np.zeros(ni)
    nu_count = np.bincount(tu, minlength=nu)
    ni_count = np.bincount(ti, minlength=ni)
    for _ in range(sweeps):
        bu = np.bincount(tu, tr - mu - bi[ti], nu) / (nu_count + lam)
        bi = np.bincount(ti, tr - mu - bu[tu], ni) / (ni_count + lam)
    return bu, bi


def funk_sgd(tu, ti, tr, nu, ni, mu, args, test, low, high):
    rng = np.random.default_rng(args.seed)
    p = rng.normal(0.0, args.init_std, (nu, args.factors))
    q = rng.normal(0.0, args.init_std, (ni, args.factors))
    bu, bi = np.zeros(nu), np.zeros(ni)
    # surprise's trainset.all_ratings(): users in order of first appearance, their ratings in order.
    first = {}
    for k, u in enumerate(tu.tolist()):
        first.setdefault(u, k)
    order = sorted(range(len(tu)), key=lambda k: (first[int(tu[k])], k))
    uu, ii, rr = tu[order].tolist(), ti[order].tolist(), tr[order].tolist()
    lr, reg = args.lr, args.reg
    epochs = []
    start = time.time()
    for epoch in range(args.epochs):
        for u, i, r in zip(uu, ii, rr):
            pu, qi = p[u], q[i]
            e = r - (mu + bu[u] + bi[i] + qi @ pu)
            bu[u] += lr * (e - reg * bu[u])
            bi[i] += lr * (e - reg * bi[i])
            new_pu = pu + lr * (e * qi - reg * pu)
            q[i] = qi + lr * (e * pu - reg * qi)
            p[u] = new_pu
        su, si, sr = test
        pred = mu + bu[su] + bi[si] + np.sum(p[su] * q[si], axis=1)
        epochs.append(rmse(sr, pred, low, high))
    return epochs, time.time() - start


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("split")
    ap.add_argument("--epochs", type=int, default=20)
    ap.add_argument("--factors", type=int, default=100)
    ap.add_argument("--lr", type=float, default=0.005)
    ap.add_argument("--reg", type=float, default=0.02)
    ap.add_argument("--init-std", type=float, default=0.1)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--bias-lambda", type=float, default=10.0)
    args = ap.parse_args()
    tu, ti, tr = load(f"{args.split}/train.csv")
    su, si, sr = load(f"{args.split}/test.csv")
    nu = int(max(tu.max(), su.max())) + 1
    ni = int(max(ti.max(), si.max())) + 1
    mu, low, high = float(tr.mean()), float(tr.min()), float(tr.max())
    print(json.dumps({"method": "global-mean", "heldout_rmse": rmse(sr, np.full(len(sr), mu), low, high)}))
    bu, bi = bias_only(tu, ti, tr, nu, ni, mu, args.bias_lambda)
    print(json.dumps({"method": "bias-only", "bias_lambda": args.bias_lambda,
                      "heldout_rmse": rmse(sr, mu + bu[su] + bi[si], low, high)}))
    epochs, seconds = funk_sgd(tu, ti, tr, nu, ni, mu, args, (su, si, sr), low, high)
    print(json.dumps({"method": "funk-sgd-surprise-defaults", "factors": args.factors, "epochs": args.epochs,
                      "lr": args.lr, "reg": args.reg, "heldout_rmse": epochs[-1],
                      "best_epoch_rmse": min(epochs), "best_epoch": int(np.argmin(epochs)) + 1,
                      "per_epoch": [round(x, 5) for x in epochs], "seconds": seconds}))


if __name__ == "__main__":
    main()
