#!/usr/bin/python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Peer for rbm_speed.sh: scikit-learn's BernoulliRBM (persistent CD, one chain per case of a
minibatch) on the same split that `latent-cli fit rbm` uses, written by `latent-cli heldout-split`:
the training documents' word occurrences, and the held-out documents whole (observed and scored
halves together), as the rbm model sees them.

Both models are scored here by the same exact pseudo-log-likelihood (Besag): for each held-out
document, the sum over every vocabulary unit of log p(v_r | v_-r) = log sigm(F(v with r flipped)
- F(v)), F(v) = -b.v - sum_k softplus(c_k + W_:k . v). scikit-learn's own score_samples flips
one random unit per case, so it is not used. With WEIGHTS_CSV (`latent-cli export --what
hidden-weights`) the same score is computed for our fitted model, to check the number fit reports.

Usage: /usr/bin/python3 tests/benchmarks/peers/rbm_sklearn.py SPLIT_DIR K EPOCHS LEARNING_RATE BATCH [WEIGHTS_CSV]
Prints one JSON line: fit seconds, documents per second per epoch, held-out pseudo-NLL per document.
"""
import csv
import json
import sys
import time

import numpy as np
from scipy import sparse
from sklearn.neural_network import BernoulliRBM


def read_ldac(path, vocabulary):
    rows, cols = [], []
    with open(path) as lines:
        for d, line in enumerate(lines):
            for pair in line.split()[1:]:
                word = int(pair.split(":")[0])
                rows.append(d)
                cols.append(word)
        documents = d + 1
    data = np.ones(len(rows))
    matrix = sparse.csr_matrix((data, (rows, cols)), shape=(documents, vocabulary))
    matrix.data[:] = 1.0  # occurrences, not counts
    return matrix


def pseudo_nll(weights, visible_bias, hidden_bias, v):
    """Mean over rows of -sum_r log p(v_r | v_-r), exactly."""
    total = 0.0
    for row in v:
        x = row.toarray().ravel()
        activation = hidden_bias + x @ weights  # K
        free = -visible_bias @ x - np.logaddexp(0, activation).sum()
        sign = 1 - 2 * x  # +1 where the unit is off (flipping turns it on)
        flipped = activation[None, :] + sign[:, None] * weights  # R x K
        free_flipped = -(visible_bias @ x + sign * visible_bias) - np.logaddexp(0, flipped).sum(axis=1)
        # log sigm(F(flipped) - F(v))
        total += -np.logaddexp(0, -(free_flipped - free)).sum()
    return -total / v.shape[0]


def read_weights(path, vocabulary_words):
    index = {w: i for i, w in enumerate(vocabulary_words)}
    hidden, visible, entries = {}, {}, []
    with open(path) as f:
        for row in csv.DictReader(f):
            if row["unit"] == "bias":
                visible[index[row["word"]]] = float(row["weight"])
            elif row["word"] == "":
                hidden[int(row["unit"])] = float(row["weight"])
            else:
                entries.append((index[row["word"]], int(row["unit"]), float(row["weight"])))
    K = len(hidden)
    W = np.zeros((len(vocabulary_words), K))
    for w, k, value in entries:
        W[w, k] = value
    return W, np.array([visible[i] for i in range(len(vocabulary_words))]), np.array([hidden[k] for k in range(K)])


def main():
    folder, K, epochs, rate, batch = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), float(sys.argv[4]), int(sys.argv[5])
    with open(f"{folder}/vocab.txt") as f:
        words = [line.rstrip("\n") for line in f]
    train = read_ldac(f"{folder}/train.ldac", len(words))
    heldout = (read_ldac(f"{folder}/observed.ldac", len(words)) + read_ldac(f"{folder}/scored.ldac", len(words)))
    heldout.data[:] = 1.0
    rbm = BernoulliRBM(n_components=K, learning_rate=rate, batch_size=batch, n_iter=epochs, random_state=1)
    start = time.perf_counter()
    rbm.fit(train)
    seconds = time.perf_counter() - start
    out = {
        "peer": "sklearn BernoulliRBM",
        "seconds": seconds,
        "documents_per_second_per_epoch": train.shape[0] * epochs / seconds,
        "heldout_pseudo_nll": pseudo_nll(rbm.components_.T, rbm.intercept_visible_, rbm.intercept_hidden_, heldout),
    }
    if len(sys.argv) > 6:
        W, b, c = read_weights(sys.argv[6], words)
        out["ours_heldout_pseudo_nll_recomputed"] = pseudo_nll(W, b, c, heldout)
    print(json.dumps(out))


if __name__ == "__main__":
    main()
