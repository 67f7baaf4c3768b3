#!/usr/bin/python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Peers for lsa: scikit-learn's TruncatedSVD (randomized, its default, and arpack) and gensim's LsiModel
against our lsa (a Lanczos solver, Spectra), on exactly our training documents' tf-idf matrix, at the same K,
side by side.

The split comes from `latent-cli heldout-split` (same --heldout and --seed as `fit`), so the peers factor the
very matrix that our fit trains on. X (training documents x words, counts) is read from train.ldac and weighted
as ours weights it (--weighting tfidf, the default): df_v = training documents holding word v,
weight_v = log(D / df_v) (natural log, 0 where df_v = 0), Y = X diag(weight), no row normalisation. The script
checks ||Y||_F^2 against our "train_squared_norm".

The peers, all on Y as a float64 CSR matrix (gensim: Y's rows as (id, value) lists, built before the clock starts):
  sklearn randomized  TruncatedSVD(n_components=K, algorithm='randomized', n_iter=5, random_state=--seed)
  sklearn arpack      TruncatedSVD(n_components=K, algorithm='arpack', tol=0): exact to machine precision
  gensim              LsiModel(corpus, num_topics=K, id2word=<dummy, V words>, chunksize=20000, random_seed=--seed),
                      otherwise gensim's defaults (onepass=True, power_iters=2, extra_samples=100, decay=1.0)
Objective: the captured share sum_k s_k^2 / ||Y||_F^2 of each method's K singular values (higher is better; the
exact truncated SVD gives the maximum), and the largest relative difference |s_k - ours_k| / ours_k over the K
singular values. Ours: the singular values of `latent-cli export --what singular-values` of the run, the share
recomputed from them here, with fit's "train_captured_share" beside it as a check.

Fit seconds: ours, the "seconds" of the (only) per-iteration JSON line, iteration 1: the whole solve from the
start of the fit, including the small held-out evaluation but not the final results and metrics (the final
line's "seconds", also printed per run, includes those). The peers: the fit call (sklearn's fit, which also
forms U Sigma; gensim's LsiModel construction).
Each peer runs --runs times alternating ours and the peer, so that machine noise hits both; medians reported.
Threads: OMP_NUM_THREADS, OPENBLAS_NUM_THREADS and MKL_NUM_THREADS are set to --threads by this script before
numpy is imported, so with --threads 1 the peers run on one thread like ours.

Usage (run by hand with Debian's /usr/bin/python3; packages python3-sklearn and python3-gensim):
  /usr/bin/python3 tests/benchmarks/peers/lsa_peers.py --cli build/app/cli/latent-cli \
      --project P.latent --dataset sotu --k 100 [--heldout 0.1] [--seed 1] [--threads 1] [--runs 3]
      [--peers randomized,arpack,gensim] [--our-options '...'] [--work DIR]
"""
import argparse
import os
import sys

parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
parser.add_argument("--cli", required=True)
parser.add_argument("--project", required=True)
parser.add_argument("--dataset", required=True)
parser.add_argument("--k", type=int, required=True)
parser.add_argument("--heldout", type=float, default=0.1)
parser.add_argument("--seed", type=int, default=1)
parser.add_argument("--threads", type=int, default=1)
parser.add_argument("--runs", type=int, default=3)
parser.add_argument("--peers", default="randomized,arpack,gensim", help="of randomized, arpack, gensim")
parser.add_argument("--our-options", default="", help="more options for our runs, e.g. '--tolerance 1e-8'")
parser.add_argument("--work", default=None, help="folder for the split (default: a temporary one)")
ARGS = parser.parse_args()
# Before numpy is imported: BLAS and OpenMP read these once, when they load.
for variable in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ[variable] = str(ARGS.threads)

import csv  # noqa: E402
import json  # noqa: E402
import logging  # noqa: E402
import statistics  # noqa: E402
import subprocess  # noqa: E402
import tempfile  # noqa: E402
import time  # noqa: E402

import numpy as np  # noqa: E402
import scipy.sparse as sp  # noqa: E402
import sklearn  # noqa: E402
from sklearn.decomposition import TruncatedSVD  # noqa: E402
import gensim  # noqa: E402
from gensim.matutils import Sparse2Corpus  # noqa: E402
from gensim.models import LsiModel  # noqa: E402

from split_matrix import training_matrix  # noqa: E402

logging.getLogger("gensim").setLevel(logging.WARNING)


def tfidf(X):
    """Y = X diag(log(D / df)), as our --weighting tfidf; words in every document (or none) weigh 0."""
    D = X.shape[0]
    df = np.bincount(X.indices, minlength=X.shape[1]).astype(float)
    weight = np.zeros(X.shape[1])
    weight[df > 0] = np.log(D / df[df > 0])
    Y = sp.csr_matrix(X @ sp.diags(weight))
    Y.eliminate_zeros()
    return Y


def run_ours():
    command = [ARGS.cli, "fit", "lsa", "--project", ARGS.project, "--dataset", ARGS.dataset, "--k", str(ARGS.k),
               "--heldout", str(ARGS.heldout), "--seed", str(ARGS.seed), "--threads", str(ARGS.threads),
               "--json"] + ARGS.our_options.split()
    run = subprocess.run(command, check=True, capture_output=True, text=True)
    lines = [json.loads(line) for line in run.stdout.splitlines() if line.strip()]
    final, steps = lines[-1], [line for line in lines if "iteration" in line]
    return {"seconds": steps[-1]["seconds"], "total_seconds": final["seconds"], "run": final["run"],
            "share": final["train_captured_share"], "norm": final["train_squared_norm"]}


def our_singular_values(run, work):
    path = os.path.join(work, f"singular-values-{run}.csv")
    subprocess.run([ARGS.cli, "export", "--project", ARGS.project, "--run", str(run), "--what", "singular-values",
                    "--out", path], check=True, capture_output=True)
    with open(path, encoding="utf-8") as f:
        return np.array([float(row["singular_value"]) for row in csv.DictReader(f)])


def run_peer(name, Y, corpus, id2word):
    if name == "gensim":
        start = time.perf_counter()
        model = LsiModel(corpus, num_topics=ARGS.k, id2word=id2word, chunksize=20000, random_seed=ARGS.seed)
        seconds = time.perf_counter() - start
        return {"seconds": seconds, "s": np.asarray(model.projection.s, dtype=float)}
    if name == "arpack":
        model = TruncatedSVD(n_components=ARGS.k, algorithm="arpack", tol=0.0)
    else:
        model = TruncatedSVD(n_components=ARGS.k, algorithm="randomized", n_iter=5, random_state=ARGS.seed)
    start = time.perf_counter()
    model.fit(Y)
    seconds = time.perf_counter() - start
    return {"seconds": seconds, "s": np.asarray(model.singular_values_, dtype=float)}


LABELS = {"randomized": "sklearn TruncatedSVD randomized (n_iter 5)", "arpack": "sklearn TruncatedSVD arpack (tol 0)",
          "gensim": "gensim LsiModel (onepass, power_iters 2)"}


def main():
    work = ARGS.work or tempfile.mkdtemp(prefix="lsa_peers_")
    X = training_matrix(ARGS.cli, ARGS.project, ARGS.dataset, ARGS.heldout, ARGS.seed, work)
    V = X.shape[1]
    Y = tfidf(X)
    norm2 = float(Y.data @ Y.data)
    corpus = list(Sparse2Corpus(Y, documents_columns=False))  # built before any clock starts
    id2word = {v: str(v) for v in range(V)}
    print(f"# {ARGS.dataset}: X {X.shape[0]} x {V}, {X.nnz} nonzeros, {X.sum():.0f} tokens, tf-idf Y {Y.nnz} "
          f"nonzeros, ||Y||_F^2 {norm2:.10g}; K = {ARGS.k}, heldout {ARGS.heldout:g}, seed {ARGS.seed}, threads "
          f"{ARGS.threads}, runs {ARGS.runs}; scikit-learn {sklearn.__version__}, gensim {gensim.__version__}, "
          f"numpy {np.__version__}", flush=True)
    rows, ours_s, all_ours = [], None, []
    for name in [p.strip() for p in ARGS.peers.split(",") if p.strip()]:
        ours, peers = [], []
        for r in range(ARGS.runs):
            ours.append(run_ours())
            peers.append(run_peer(name, Y, corpus, id2word))
            o, p = ours[-1], peers[-1]
            print(f"#   {name} run {r + 1}: ours {o['seconds']:.3f} s (whole fit {o['total_seconds']:.3f} s, run "
                  f"{o['run']}); {LABELS[name]} {p['seconds']:.3f} s", flush=True)
        o = ours[-1]
        if abs(o["norm"] - norm2) > 1e-9 * norm2:
            print(f"# WARNING: our ||Y||_F^2 is {o['norm']:.10g}, this script's {norm2:.10g}", flush=True)
        if ours_s is None:
            ours_s = our_singular_values(o["run"], work)
            print(f"#   ours: {len(ours_s)} singular values, share {float(ours_s @ ours_s) / norm2:.10f} (fit's "
                  f"train_captured_share {o['share']:.10f})", flush=True)
        all_ours += ours
        s = peers[-1]["s"]
        n = min(len(s), len(ours_s))
        difference = float(np.max(np.abs(s[:n] - ours_s[:n]) / ours_s[:n])) if n else float("nan")
        rows.append((LABELS[name], statistics.median(q["seconds"] for q in ours),
                     statistics.median(q["seconds"] for q in peers), float(s @ s) / norm2, difference,
                     [q["seconds"] for q in peers]))
    print(f"\n{ARGS.dataset}, K = {ARGS.k}, {ARGS.threads} thread(s), median of {ARGS.runs} run(s); share = sum of the K "
          f"squared singular values / ||Y||_F^2 of the training tf-idf matrix")
    print("| method | our fit s (paired) | fit s | s / our s | captured share | share - ours "
          "| max rel. diff. of s_k from ours | runs s |")
    print("|---|---|---|---|---|---|---|---|")
    our_share = float(ours_s @ ours_s) / norm2
    rows.insert(0, ("ours lsa (Lanczos, Spectra), all runs", None, statistics.median(q["seconds"] for q in all_ours),
                    our_share, 0.0, [q["seconds"] for q in all_ours]))
    for (label, paired, seconds, share, difference, runs) in rows:
        ratio = "" if paired is None else f"{seconds / paired:.2f}"
        paired = "" if paired is None else f"{paired:.3f}"
        print(f"| {label} | {paired} | {seconds:.3f} | {ratio} | {share:.10f} | {share - our_share:+.2e} "
              f"| {difference:.2e} | {', '.join(f'{t:.3f}' for t in runs)} |")


if __name__ == "__main__":
    sys.exit(main())
