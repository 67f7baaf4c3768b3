#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
# What the rotating block schedule of lda-gibbs allows with P partitions, from the corpus alone
# (issue 22, threads). A sweep has P rounds; in round r partition p samples its document range's
# tokens of word group (p + r) mod P, and the round ends when its slowest partition does. So the
# most a chain of P partitions can run at, against P partitions that never wait, is
#     (total work / P) / sum over rounds of the round's largest block.
# The work of a token is its word's expected list length from a uniform start, K (1 - exp(-f/K))
# (core/models/topic/lda_gibbs_state.cpp, sparseStartCost). The ranges follow the sampler's rule
# (contiguous document ranges of about equal work); the groups two rules, each shown by work and
# by plain tokens:
# - "by totals", the rule before issue 22's sixteenth session: words dealt most frequent first to
#   the group with the fewest tokens so far;
# - "by blocks", balancedWordGroups: the 4096 words of most work each to the group whose largest
#   block relative to its range's share stays smallest, the rest spread like the ranges' work.
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


WORDS_PLACED_BY_RANGE = 4096


def groups_by_blocks(range_work, share, total, groups):
    """range_work: ranges x words work; share: a block's share of each range; total: each word's."""
    order = np.argsort(-total, kind="stable")
    placed = order[:WORDS_PLACED_BY_RANGE]
    group_of = np.zeros(len(total), np.int64)
    block = np.zeros((len(share), groups))
    for w in placed:
        largest = ((block + range_work[:, w][:, None]) / share[:, None]).max(axis=0)
        g = int(np.argmin(largest))
        block[:, g] += range_work[:, w]
        group_of[w] = g
    per_work = groups / total.sum()
    lightest = [(float(x), g) for g, x in enumerate((block / share[:, None]).max(axis=0))]
    heapq.heapify(lightest)
    for w in order[WORDS_PLACED_BY_RANGE:]:
        largest, g = heapq.heappop(lightest)
        group_of[w] = g
        heapq.heappush(lightest, (largest + total[w] * per_work, g))
    return group_of


def groups_by_totals(frequency, groups):
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
    print(f"{'K':>6} {'P':>4} {'by totals: work':>16} {'tokens':>7} {'by blocks: work':>16} {'tokens':>7}")
    for k in topics:
        cost = k * (1.0 - np.exp(-frequency / k))
        work_per_document = np.array([cost[d].sum() for d in documents])
        for parts in (2, 4, 8, 16, 32):
            cuts = document_ranges(work_per_document, parts)
            range_work = np.zeros((parts, vocabulary))
            range_tokens = np.zeros((parts, vocabulary))
            for p in range(parts):
                for d in documents[cuts[p]:cuts[p + 1]]:
                    np.add.at(range_work[p], d, cost[d])
                    np.add.at(range_tokens[p], d, 1.0)
            row = f"{k:>6} {parts:>4}"
            for group_of in (groups_by_totals(frequency, parts),
                             groups_by_blocks(range_work, range_work.sum(axis=1) / parts, range_work.sum(axis=0),
                                              parts)):
                work = np.stack([np.bincount(group_of, weights=range_work[p], minlength=parts) for p in range(parts)])
                tokens = np.stack([np.bincount(group_of, weights=range_tokens[p], minlength=parts)
                                   for p in range(parts)])
                row += f" {barrier_efficiency(work):>16.3f} {barrier_efficiency(tokens):>7.3f}"
            print(row)


if __name__ == "__main__":
    main()
