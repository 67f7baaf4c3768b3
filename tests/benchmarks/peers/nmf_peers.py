#!/usr/bin/python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Peers for nmf: scikit-learn's NMF (multiplicative updates for the KL and Frobenius losses, coordinate
descent for Frobenius) against our three (loss, solver) pairs, on exactly our training documents, with the
same K and the same number of iterations, side by side.

The split comes from `latent-cli heldout-split` (same --heldout and --seed as `fit`), so the peers factor
the very matrix X (training documents x words, counts) that our fit trains on. Both sides run exactly
--iterations iterations (our --tolerance 0; sklearn tol=0, which never stops early) and no regularisation
(sklearn's alpha_W = alpha_H = 0). The starts differ: ours is the seeded PLSA-style start of
core/models/topic/nmf_kernels.hpp, sklearn's is nndsvda (random_state = --seed).

Loss, the same formula for both: the generalised KL divergence sum x log(x / y) - x + y over X and
Y = W H (the log term over X's nonzeros, sum(Y) = W.sum(0) @ H.sum(1)), or HALF the squared Frobenius error
0.5 (||X||^2 - 2 <X, Y> + trace((W'W)(HH'))). Ours: "train_loss" of fit's final JSON line; the peers: this
script's numpy code on their W and H, with sklearn's own reconstruction_err_ beside it as a check
(err^2 / 2 should equal the loss for both losses).

Fit seconds: ours, the "seconds" of the last per-iteration JSON line: from the start of the fit, so the
seeded start, the snapshots (--snapshot-every, default 25) and the held-out evaluation that the last
iteration always does are included, but not the final results and metrics; the per-run lines also show
iteration 1 (start + one sweep) and the one before last (no held-out evaluation). The peers: their
fit_transform call (nndsvda included).
Each pair runs --runs times alternating ours and the peer, so that machine noise hits both; medians reported.
Threads: OMP_NUM_THREADS, OPENBLAS_NUM_THREADS and MKL_NUM_THREADS are set to --threads by this script
before numpy is imported, so with --threads 1 the peers run on one thread like ours.

Usage (run by hand with Debian's /usr/bin/python3; package python3-sklearn, and libopenblas0-pthread so
that numpy does not use the reference BLAS):
  /usr/bin/python3 tests/benchmarks/peers/nmf_peers.py --cli build/app/cli/latent-cli \
      --project P.latent --dataset sotu --k 20 [--iterations 200] [--heldout 0.1] [--seed 1] [--threads 1]
      [--runs 3] [--pairs kl-mu,frobenius-mu,frobenius-hals] [--our-options '...'] [--work DIR]
"""
import argparse
import os
import sys

parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
parser.add_argument("--cli", required=True)
parser.add_argument("--project", required=True)
parser.add_argument("--dataset", required=True)
parser.add_argument("--k", type=int, required=True)
parser.add_argument("--iterations", type=int, default=200)
parser.add_argument("--heldout", type=float, default=0.1)
parser.add_argument("--seed", type=int, default=1)
parser.add_argument("--threads", type=int, default=1)
parser.add_argument("--runs", type=int, default=3)
parser.add_argument("--pairs", default="kl-mu,frobenius-mu,frobenius-hals", help="our (loss, solver) pairs to run")
parser.add_argument("--our-options", default="", help="more options for our runs, e.g. '--snapshot-every 0'")
parser.add_argument("--work", default=None, help="folder for the split (default: a temporary one)")
ARGS = parser.parse_args()
# Before numpy is imported: BLAS and OpenMP read these once, when they load.
for variable in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ[variable] = str(ARGS.threads)

import json  # noqa: E402
import statistics  # noqa: E402
import subprocess  # noqa: E402
import tempfile  # noqa: E402
import time  # noqa: E402
import warnings  # noqa: E402

import numpy as np  # noqa: E402
import sklearn  # noqa: E402
from sklearn.decomposition import NMF  # noqa: E402

from split_matrix import training_matrix  # noqa: E402

# Our (loss, solver) -> sklearn's (solver, beta_loss).
PEERS = {("kl", "mu"): ("mu", "kullback-leibler"), ("frobenius", "mu"): ("mu", "frobenius"),
         ("frobenius", "hals"): ("cd", "frobenius")}


def reconstruction_at_nonzeros(X, W, H, chunk=200000):
    """(W H)_dv at each stored entry of CSR X, in X's order, in chunks of entries."""
    rows = np.repeat(np.arange(X.shape[0]), np.diff(X.indptr))
    out = np.empty(X.nnz)
    for start in range(0, X.nnz, chunk):
        end = min(start + chunk, X.nnz)
        out[start:end] = np.einsum("ij,ji->i", W[rows[start:end]], H[:, X.indices[start:end]])
    return out


def loss(X, W, H, kind):
    """Generalised KL divergence D(X || WH), or half the squared Frobenius error, as ours computes them."""
    y = reconstruction_at_nonzeros(X, W, H)
    x = X.data
    if kind == "kl":
        return float(np.sum(x * np.log(x / y) - x) + W.sum(axis=0) @ H.sum(axis=1))
    return float(0.5 * (x @ x - 2.0 * (x @ y) + np.sum((W.T @ W) * (H @ H.T))))


def run_ours(loss_kind, solver):
    command = [ARGS.cli, "fit", "nmf", "--project", ARGS.project, "--dataset", ARGS.dataset, "--k", str(ARGS.k),
               "--iterations", str(ARGS.iterations), "--tolerance", "0", "--heldout", str(ARGS.heldout),
               "--seed", str(ARGS.seed), "--threads", str(ARGS.threads), "--eval-every", "1000000", "--json",
               "--loss", loss_kind, "--solver", solver] + ARGS.our_options.split()
    run = subprocess.run(command, check=True, capture_output=True, text=True)
    lines = [json.loads(line) for line in run.stdout.splitlines() if line.strip()]
    final, steps = lines[-1], [line for line in lines if "iteration" in line]
    tokens = final["train_loss"] / final["train_objective"]
    # steps[0]: the start and one sweep; steps[-2]: before the held-out evaluation of the last iteration.
    return {"seconds": steps[-1]["seconds"], "loss": final["train_loss"], "iterations": steps[-1]["iteration"],
            "total_seconds": final["seconds"], "tokens": tokens, "first": steps[0]["seconds"],
            "before_last": steps[-2]["seconds"] if len(steps) > 1 else float("nan")}


def run_peer(X, solver, beta_loss):
    model = NMF(n_components=ARGS.k, init="nndsvda", solver=solver, beta_loss=beta_loss, tol=0.0,
                max_iter=ARGS.iterations, random_state=ARGS.seed, alpha_W=0.0, alpha_H=0.0)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # ConvergenceWarning: max_iter reached, as intended
        start = time.perf_counter()
        W = model.fit_transform(X)
        seconds = time.perf_counter() - start
    return {"seconds": seconds, "W": W, "H": model.components_, "iterations": model.n_iter_,
            "err": model.reconstruction_err_}


def main():
    work = ARGS.work or tempfile.mkdtemp(prefix="nmf_peers_")
    X = training_matrix(ARGS.cli, ARGS.project, ARGS.dataset, ARGS.heldout, ARGS.seed, work)
    V = X.shape[1]
    print(f"# {ARGS.dataset}: X {X.shape[0]} x {V}, {X.nnz} nonzeros, {X.sum():.0f} tokens; K = {ARGS.k}, "
          f"{ARGS.iterations} iterations, heldout {ARGS.heldout:g}, seed {ARGS.seed}, threads {ARGS.threads}, "
          f"runs {ARGS.runs}; scikit-learn {sklearn.__version__}, numpy {np.__version__}", flush=True)
    rows = []
    for pair in [p.strip() for p in ARGS.pairs.split(",") if p.strip()]:
        loss_kind, solver = pair.rsplit("-", 1)
        peer_solver, beta_loss = PEERS[(loss_kind, solver)]
        ours, peers = [], []
        for r in range(ARGS.runs):
            ours.append(run_ours(loss_kind, solver))
            peers.append(run_peer(X, peer_solver, beta_loss))
            o, p = ours[-1], peers[-1]
            print(f"#   {pair} run {r + 1}: ours {o['seconds']:.3f} s (iteration 1 at {o['first']:.3f} s, the one "
                  f"before last at {o['before_last']:.3f} s, whole fit {o['total_seconds']:.3f} s; "
                  f"{o['iterations']} iterations, loss {o['loss']:.6g}, {o['tokens']:.0f} tokens); sklearn "
                  f"{peer_solver}/{beta_loss} {p['seconds']:.3f} s ({p['iterations']} iterations)", flush=True)
        if abs(ours[-1]["tokens"] - X.sum()) > 0.5:
            print(f"# WARNING: our fit saw {ours[-1]['tokens']:.0f} tokens, X has {X.sum():.0f}", flush=True)
        p = peers[-1]
        peer_loss = loss(X, p["W"], p["H"], loss_kind)
        our_seconds = statistics.median(o["seconds"] for o in ours)
        peer_seconds = statistics.median(q["seconds"] for q in peers)
        rows.append((pair, f"sklearn {peer_solver}/{beta_loss}", ours[-1]["iterations"], p["iterations"],
                     our_seconds, peer_seconds, ours[-1]["loss"], peer_loss, 0.5 * p["err"] ** 2,
                     [o["seconds"] for o in ours], [q["seconds"] for q in peers]))
    print(f"\n{ARGS.dataset}, K = {ARGS.k}, {ARGS.iterations} iterations, {ARGS.threads} thread(s), median of "
          f"{ARGS.runs} run(s); loss = D_KL(X || WH) or 0.5 ||X - WH||^2 on the training matrix")
    print("| ours (loss/solver) | peer | iterations ours/peer | our fit s | peer fit s | peer s / our s "
          "| our loss | peer loss | loss ours/peer | peer err^2/2 (sklearn) | runs ours s | runs peer s |")
    print("|---|---|---|---|---|---|---|---|---|---|---|---|")
    for (pair, peer, our_it, peer_it, our_s, peer_s, our_loss, peer_loss, sk_loss, our_runs, peer_runs) in rows:
        print(f"| nmf {pair} | {peer} | {our_it}/{peer_it} | {our_s:.3f} | {peer_s:.3f} | {peer_s / our_s:.2f} "
              f"| {our_loss:.6g} | {peer_loss:.6g} | {our_loss / peer_loss:.4f} | {sk_loss:.6g} "
              f"| {', '.join(f'{s:.3f}' for s in our_runs)} | {', '.join(f'{s:.3f}' for s in peer_runs)} |")


if __name__ == "__main__":
    sys.exit(main())
