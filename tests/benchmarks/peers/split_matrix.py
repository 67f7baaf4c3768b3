# SPDX-License-Identifier: GPL-3.0-or-later
"""The training documents of `latent-cli heldout-split` as a scipy CSR count matrix, so that a peer
factors exactly the matrix our fit trains on (same --heldout and --seed). Shared by the peers' scripts
(lda, nmf, lsa); import it after the thread variables are set, as it loads numpy."""
import os
import subprocess

import numpy as np
import scipy.sparse as sp


def read_ldac(path, vocabulary):
    """LDA-C lines 'N id:count ...' (0-based ids) as a CSR matrix of counts."""
    indptr, indices, data = [0], [], []
    with open(path, encoding="utf-8") as lines:
        for line in lines:
            fields = line.split()
            if not fields:
                continue
            for pair in fields[1:]:
                word, count = pair.split(":")
                indices.append(int(word))
                data.append(float(count))
            indptr.append(len(indices))
    return sp.csr_matrix((np.array(data), np.array(indices, dtype=np.int64), np.array(indptr, dtype=np.int64)),
                         shape=(len(indptr) - 1, vocabulary))


def training_matrix(cli, project, dataset, heldout, seed, work):
    """Writes the split into `work` and returns the training documents' counts (documents x words)."""
    subprocess.run([cli, "heldout-split", "--project", project, "--dataset", dataset, "--heldout", str(heldout),
                    "--seed", str(seed), "--out", work], check=True, capture_output=True)
    with open(os.path.join(work, "vocab.txt"), encoding="utf-8") as f:
        vocabulary = sum(1 for _ in f)
    return read_ldac(os.path.join(work, "train.ldac"), vocabulary)
