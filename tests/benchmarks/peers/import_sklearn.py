#!/usr/bin/python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Peer for import_throughput.sh: scikit-learn's CountVectorizer on the same one-document-per-line
file, with English stop words and a token pattern close to ours (words of two or more letters or
digits). It tokenises and counts in memory and writes nothing, so it does less than an import
into a project file; its time is a lower bound for a Python pipeline.

Usage: /usr/bin/python3 tests/benchmarks/peers/import_sklearn.py CORPUS.txt
Prints seconds, MB/s and peak resident memory.
"""
import os
import resource
import sys
import time

from sklearn.feature_extraction.text import CountVectorizer


def main():
    path = sys.argv[1]
    size = os.path.getsize(path)
    start = time.perf_counter()
    with open(path, encoding="utf-8") as lines:
        vectorizer = CountVectorizer(stop_words="english", lowercase=True, dtype="int32")
        counts = vectorizer.fit_transform(lines)
    seconds = time.perf_counter() - start
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(f"sklearn CountVectorizer: {seconds:.2f} s, {size / 2**20 / seconds:.1f} MB/s, "
          f"{counts.sum() / 1e6 / seconds:.2f} M tokens/s, peak {peak:.0f} MB, "
          f"{counts.shape[0]} documents, vocabulary {counts.shape[1]}")


if __name__ == "__main__":
    main()
