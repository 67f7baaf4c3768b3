#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""How many topics a token's document and a token's word hold in a run's final assignments.

The SparseLDA sampler (--sampler sparse) walks the token's word's topics for every token; the
wordwise sampler walks the token's document's topics. Weighted by tokens, these two numbers are
what each pays per token. Reads the run's token topics and the dataset's word ids from the project:

    /usr/bin/python3 tests/benchmarks/topics_per_token.py man.latent RUN_ID
"""
import sqlite3
import sys

import numpy as np


def main():
    project, run = sys.argv[1], int(sys.argv[2])
    db = sqlite3.connect(project)
    dataset, = db.execute("SELECT dataset_id FROM runs WHERE id = ?", (run,)).fetchone()
    words = dict(db.execute("SELECT doc_index, word_ids FROM tokens WHERE dataset_id = ?", (dataset,)))
    w, z, d = [], [], []
    for doc, blob in db.execute("SELECT doc_index, topics FROM token_topics WHERE run_id = ?", (run,)):
        topics = np.frombuffer(blob, dtype=np.int32)
        ids = np.frombuffer(words[doc], dtype=np.int32)
        assert len(ids) == len(topics)
        w.append(ids)
        z.append(topics)
        d.append(np.full(len(topics), doc, dtype=np.int64))
    w, z, d = np.concatenate(w).astype(np.int64), np.concatenate(z).astype(np.int64), np.concatenate(d)
    K = int(z.max()) + 1
    per_document = np.bincount(np.unique(d * K + z) // K)
    per_word = np.bincount(np.unique(w * K + z) // K)
    print(f"{len(z)} tokens; topics of the token's document: mean {per_document[d].mean():.1f}, "
          f"median {np.median(per_document[d]):.0f}; of the token's word: mean {per_word[w].mean():.1f}, "
          f"median {np.median(per_word[w]):.0f}")


if __name__ == "__main__":
    main()
