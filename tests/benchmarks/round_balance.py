#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
# What the rotating block schedule of lda-gibbs allows with P partitions, from the corpus alone
# (issue 22, threads). A sweep has P rounds; in round r partition p samples its document range's
# tokens of word group (p + r) mod P, and the round ends when its slowest partition does. So the
# most a chain of P partitions can run at, against P partitions that never wait, is
#     (total work / P) / sum over rounds of the round's largest block.
# The work of a token is its word's expected list length from a uniform start, K (1 - exp(-f/K))
# (core/models/topic/lda_gibbs_state.cpp, sparseStartCost), and plain tokens are shown beside it.
# The ranges and groups follow the sampler's rules: contiguous document ranges of about equal work,
# words dealt most frequent first to the group with the fewest tokens so far.
#
#   /usr/bin/python3 tests/benchmarks/round_balance.py PROJECT.latent DATASET_ID [K ...]
import heapq
import sqlite3
import sys

import numpy as np


def read_documents(path, dataset):
    con = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    rows = con.execute("SELECT word_ids FROM tokens WHERE dataset_id = ? ORDER BY doc_index", (dataset,))
    return [np.frombuffer(blob, dtype=np.int32) for (blob,) in rows]


def document_ranges(work_per_document, parts):
    cumulative = np.cumsum(work_per_document)
    cuts = [int(np.searchsorted(cumulative, cumulative[-1] * i / parts)) + 1 for i in range(1, parts)]
    return [0] + cuts + [len(work_per_document)]


def word_groups(frequency, groups):
    lightest = [(0, g) for g in range(groups)]
    group_of = np.zeros(len(frequency), np.int64)
    for w in np.argsort(-frequency, kind="stable"):
        load, g = heapq.heappop(lightest)
        group_of[w] = g
        heapq.heappush(lightest, (load + int(frequency[w]), g))
    return group_of


def barrier_efficiency(blocks):
    parts = len(blocks)
    rounds = sum(max(blocks[p][(p + r) % parts] for p in range(parts)) for r in range(parts))
    return blocks.sum() / parts / rounds


def main():
    if len(sys.argv) < 3:
        sys.exit("usage: round_balance.py PROJECT.latent DATASET_ID [K ...]")
    documents = read_documents(sys.argv[1], int(sys.argv[2]))
    topics = [int(k) for k in sys.argv[3:]] or [100, 1000]
    vocabulary = max(int(d.max()) for d in documents if len(d)) + 1
    frequency = np.bincount(np.concatenate(documents), minlength=vocabulary)
    print(f"{len(documents)} documents, {frequency.sum()} tokens, V = {vocabulary}, "
          f"most frequent word {frequency.max() / frequency.sum():.4f} of the tokens")
    print(f"{'K':>6} {'P':>4} {'by work':>8} {'by tokens':>10} {'largest block / mean':>21}")
    for k in topics:
        cost = k * (1.0 - np.exp(-frequency / k))
        work_per_document = np.array([cost[d].sum() for d in documents])
        for parts in (2, 4, 8, 16, 32):
            cuts = document_ranges(work_per_document, parts)
            group_of = word_groups(frequency, parts)
            work = np.zeros((parts, parts))
            tokens = np.zeros((parts, parts))
            for p in range(parts):
                for d in documents[cuts[p]:cuts[p + 1]]:
                    np.add.at(work[p], group_of[d], cost[d])
                    np.add.at(tokens[p], group_of[d], 1.0)
            print(f"{k:>6} {parts:>4} {barrier_efficiency(work):>8.3f} {barrier_efficiency(tokens):>10.3f} "
                  f"{work.max() / work.mean():>21.2f}")


if __name__ == "__main__":
    main()
