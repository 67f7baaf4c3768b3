#!/usr/bin/python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Peers for lda-vb and lda-online: scikit-learn's LatentDirichletAllocation (batch and online) and
gensim's LdaModel (batch and online), trained on exactly our training documents and scored on exactly
our document-completion test, side by side with our own runs.

The split comes from `latent-cli heldout-split` (same --heldout and --seed as `fit`), so every method
trains on the same documents. Every method, ours included, is then scored by the SAME code: this
script's numpy copy of our variational fold-in (core/eval/topic_evaluation.cpp, variationalFoldIn:
gamma fitted on each held-out document's observed half with the method's normalised topics fixed,
the method's alpha as the prior, 100 iterations at most) and the same perplexity of the scored half,
p(w) = sum_k theta_k phi_kw (000 eq. 27.29, documents weighted equally; token-weighted beside it).
Our own runs also report the number our C++ scorer computed ("ours C++"), a check that both agree.
The peers' own inference (sklearn transform, gensim inference) on the observed half is shown too.

Every method runs in its own process under /usr/bin/time -v for its peak resident memory (for the
peers that includes the Python interpreter and the libraries, about 100-150 MB). Fit seconds: ours,
the time of the last iteration's report (before the final held-out evaluation); the peers, the time
of their fit call. Documents per second = training documents x passes / fit seconds.

Usage (run by hand with Debian's /usr/bin/python3; python3-sklearn and python3-gensim):
  /usr/bin/python3 tests/benchmarks/peers/lda_peers.py --cli build/app/cli/latent-cli \
      --project P.latent --dataset sotu --k 20 [--passes 100] [--heldout 0.1] [--seed 1] [--threads 2]
      [--alpha A] [--eta E] [--online-passes N] [--batch-size 256] [--tau0 10] [--kappa 0.7]
      [--ours lda-vb,lda-vb-fixed,lda-online,lda-online-fixed]
      [--peers sklearn-batch,sklearn-online,gensim-batch,gensim-online] [--work DIR]
alpha defaults to 1/K and eta to 0.01 (the peers get these; ours run with their defaults, which
optimise alpha and eta from these starting values, and "-fixed" keeps them fixed).
"""
import argparse
import json
import math
import os
import subprocess
import sys
import tempfile
import time

import numpy as np

from split_matrix import read_ldac


def perplexities(theta, phi, scored):
    """000 eq. 27.29 and the token-weighted perplexity of the scored halves."""
    per_document, total_log, total_tokens = [], 0.0, 0.0
    for d in range(scored.shape[0]):
        row = scored.getrow(d)
        words, counts = row.indices, row.data
        p = theta[d] @ phi[:, words]
        log_lik = float(np.sum(counts * np.log(p)))
        per_document.append(log_lik / counts.sum())
        total_log += log_lik
        total_tokens += counts.sum()
    return math.exp(-np.mean(per_document)), math.exp(-total_log / total_tokens)


def heldout_scores(scores, work, phi, alpha, seed):
    """Document-completion perplexity (000 eq. 27.29) of topics `phi` (K x V) and `alpha` on the split in
    `work` (observed.ldac, scored.ldac) by our C++ estimators through `scores` (the heldout-scores
    benchmark): the Gibbs fold-in lda-gibbs reports and the variational fold-in."""
    with tempfile.TemporaryDirectory(dir=work) as folder:
        np.ascontiguousarray(phi, dtype="<f8").tofile(os.path.join(folder, "phi"))
        np.savetxt(os.path.join(folder, "alpha"), np.asarray(alpha, dtype=float).ravel())
        result = subprocess.run([scores, "--topic-word", os.path.join(folder, "phi"), "--alpha",
                                 os.path.join(folder, "alpha"), "--observed", os.path.join(work, "observed.ldac"),
                                 "--scored", os.path.join(work, "scored.ldac"), "--estimators", "gibbs,variational",
                                 "--seed", str(seed)], check=True, capture_output=True, text=True)
    out = json.loads(result.stdout)
    return {"perplexity_gibbs": out["gibbs_fold_in"]["perplexity"],
            "perplexity_variational": out["variational_fold_in"]["perplexity"]}


def default_scores_path(cli):
    """heldout-scores of the build that holds `cli` (build/app/cli/latent-cli)."""
    return os.path.join(os.path.dirname(os.path.abspath(cli)), "..", "..", "tests", "benchmarks", "heldout-scores")


def to_bow(matrix):
    return [list(zip(matrix.getrow(d).indices.tolist(), matrix.getrow(d).data.tolist())) for d in range(matrix.shape[0])]


def variational_fold_in(phi, alpha, observed, iterations=100, tolerance=1e-5):
    """Our variationalFoldIn (core/eval/topic_evaluation.cpp) in numpy, to check the scoring."""
    from scipy.special import digamma
    K = phi.shape[0]
    theta = np.zeros((observed.shape[0], K))
    for d in range(observed.shape[0]):
        row = observed.getrow(d)
        words, counts = row.indices, row.data
        gamma = alpha + counts.sum() / K
        b = phi[:, words]
        for _ in range(iterations):
            t = np.exp(digamma(gamma) - digamma(gamma.sum()))
            p = b * t[:, None]
            fresh = alpha + p @ (counts / p.sum(axis=0))
            change = np.mean(np.abs(fresh - gamma))
            gamma = fresh
            if change < tolerance:
                break
        theta[d] = gamma / gamma.sum()
    return theta


def run_sklearn(method, args, train, observed, K, alpha, eta, passes):
    from sklearn.decomposition import LatentDirichletAllocation
    model = LatentDirichletAllocation(n_components=K, doc_topic_prior=alpha, topic_word_prior=eta,
                                      learning_method=method, max_iter=passes, batch_size=args.batch_size,
                                      learning_offset=args.tau0, learning_decay=args.kappa, evaluate_every=-1,
                                      max_doc_update_iter=100, mean_change_tol=1e-3, random_state=args.seed,
                                      total_samples=train.shape[0], n_jobs=args.threads)
    start = time.perf_counter()
    model.fit(train)
    seconds = time.perf_counter() - start
    phi = model.components_ / model.components_.sum(axis=1, keepdims=True)
    theta = model.transform(observed)  # normalised doc-topic distributions
    return phi, theta, seconds


def run_gensim(online, args, train, observed, K, alpha, eta, passes):
    import logging
    logging.disable(logging.WARNING)
    from gensim.models import LdaModel
    corpus = to_bow(train)
    id2word = {i: str(i) for i in range(train.shape[1])}
    options = dict(num_topics=K, id2word=id2word, alpha=np.full(K, alpha), eta=eta, passes=passes, iterations=100,
                   gamma_threshold=1e-3, random_state=args.seed, eval_every=None)
    if online:
        options.update(update_every=1, chunksize=args.batch_size, offset=args.tau0, decay=args.kappa)
    else:
        options.update(update_every=0, chunksize=len(corpus))
    start = time.perf_counter()
    model = LdaModel(corpus, **options)
    seconds = time.perf_counter() - start
    phi = model.get_topics()
    gamma, _ = model.inference(to_bow(observed))
    theta = gamma / gamma.sum(axis=1, keepdims=True)
    return phi, theta, seconds


def peak_rss_mb(stderr):
    for line in stderr.splitlines():
        if "Maximum resident set size" in line:
            return int(line.split(":")[1]) / 1024.0
    return float("nan")


def run_ours(name, args, K, alpha, eta, vocabulary):
    """Runs `latent-cli fit` under /usr/bin/time -v; returns phi, alpha, C++ perplexity, seconds, passes, MB."""
    model = name.replace("-fixed", "")
    passes = args.online_passes if model == "lda-online" else args.passes
    command = ["/usr/bin/time", "-v", args.cli, "fit", model, "--project", args.project, "--dataset", args.dataset,
               "--k", str(K), "--iterations", str(passes), "--seed", str(args.seed), "--threads", str(args.threads),
               "--heldout", str(args.heldout), "--eval-every", str(passes + 1), "--json", "--alpha", repr(alpha),
               "--beta", repr(eta)]
    if model == "lda-online":
        command += ["--batch_size", str(args.batch_size), "--tau0", repr(args.tau0), "--kappa", repr(args.kappa)]
    if name.endswith("-fixed"):
        command += ["--optimize_every", "0"]
    command += args.our_options.split()
    run = subprocess.run(command, check=True, capture_output=True, text=True)
    lines = [json.loads(line) for line in run.stdout.splitlines() if line.strip()]
    final = lines[-1]
    seconds = [line for line in lines if "iteration" in line][-1]["seconds"]
    phi = read_matrix(args.project, final["run"], "topic_word")
    phi /= phi.sum(axis=1, keepdims=True)
    fitted_alpha = read_matrix(args.project, final["run"], "alpha").ravel()
    return phi, fitted_alpha, final["heldout_perplexity"], seconds, passes, peak_rss_mb(run.stderr)


def read_matrix(project, run, name):
    """A final result matrix of a run, read from the project file: column-major little-endian doubles,
    or floats where its element is 'f32' (schema 15), in one blob or in parts (run_matrix_parts,
    schema 13), or sparse where its element is 'sparse' (schema 16: lda-gibbs's snapshots; see
    resources/sql/016_sparse_matrices.sql), a large one in parts too (schema 17). Returned as doubles."""
    import sqlite3
    with sqlite3.connect(f"file:{project}?mode=ro", uri=True) as db:
        columns = {row[1] for row in db.execute("PRAGMA table_info(run_matrices)")}
        element = "element" if "element" in columns else "'f64'"
        iteration, rows, cols, kind, data = db.execute(
            f"SELECT iteration, rows, cols, {element}, data FROM run_matrices WHERE run_id = ? AND name = ? "
            "ORDER BY iteration LIMIT 1", (run, name)).fetchone()
        if len(data) == 0 and rows * cols > 0:
            data = b"".join(part for (part,) in db.execute(
                "SELECT data FROM run_matrix_parts WHERE run_id = ? AND name = ? AND iteration = ? ORDER BY part",
                (run, name, iteration)))
    if kind == "sparse":
        return sparse_matrix(data, rows, cols)
    values = np.frombuffer(data, dtype="<f4" if kind == "f32" else "<f8").astype(np.float64)
    return values.reshape((cols, rows)).T.copy()


def sparse_matrix(data, rows, cols):
    """The dense matrix of a blob of element 'sparse': the rows' fills, the columns' starts, the
    entries' rows and their values."""
    fill = np.frombuffer(data, dtype="<f8", count=rows)
    starts = np.frombuffer(data, dtype="<i8", count=cols + 1, offset=8 * rows)
    entries = int(starts[-1])
    at = 8 * rows + 8 * (cols + 1)
    entry_rows = np.frombuffer(data, dtype="<i4", count=entries, offset=at)
    values = np.frombuffer(data, dtype="<f8", count=entries, offset=at + 4 * entries)
    if at + 12 * entries != len(data):
        raise ValueError(f"a sparse {rows} x {cols} matrix of {len(data)} bytes")
    dense = np.repeat(fill.reshape(rows, 1), cols, axis=1)
    dense[entry_rows, np.repeat(np.arange(cols), np.diff(starts))] = values
    return dense


def load_split(args):
    with open(os.path.join(args.work, "vocab.txt"), encoding="utf-8") as f:
        vocabulary = [line.rstrip("\n") for line in f]
    V = len(vocabulary)
    return (vocabulary, read_ldac(os.path.join(args.work, "train.ldac"), V),
            read_ldac(os.path.join(args.work, "observed.ldac"), V), read_ldac(os.path.join(args.work, "scored.ldac"), V))


def peer_child(args):
    """In a child process (so that /usr/bin/time measures this peer alone): fit, save phi and theta."""
    _, train, observed, _ = load_split(args)
    K = args.k
    alpha = args.alpha if args.alpha is not None else 1.0 / K
    peer = args.child
    online = peer.endswith("online")
    passes = args.online_passes if online else args.passes
    if peer.startswith("sklearn"):
        phi, theta, seconds = run_sklearn("online" if online else "batch", args, train, observed, K, alpha, args.eta,
                                          passes)
    elif peer.startswith("gensim"):
        phi, theta, seconds = run_gensim(online, args, train, observed, K, alpha, args.eta, passes)
    else:
        sys.exit(f"unknown peer {peer}")
    np.savez(os.path.join(args.work, f"{peer}.npz"), phi=phi, theta=theta, seconds=seconds, passes=passes)


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--cli", required=True)
    parser.add_argument("--project", required=True)
    parser.add_argument("--dataset", required=True)
    parser.add_argument("--k", type=int, default=20)
    parser.add_argument("--passes", type=int, default=100, help="passes of the batch methods")
    parser.add_argument("--online-passes", type=int, default=50, help="passes of the online methods")
    parser.add_argument("--heldout", type=float, default=0.1)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--alpha", type=float, default=None)
    parser.add_argument("--eta", type=float, default=0.01)
    parser.add_argument("--batch-size", type=int, default=256)
    parser.add_argument("--tau0", type=float, default=10.0)
    parser.add_argument("--kappa", type=float, default=0.7)
    parser.add_argument("--ours", default="lda-vb,lda-vb-fixed,lda-online,lda-online-fixed")
    parser.add_argument("--our-options", default="", help="more options for our runs, e.g. '--init random'")
    parser.add_argument("--peers", default="sklearn-batch,sklearn-online,gensim-batch,gensim-online")
    parser.add_argument("--work", default=None, help="folder for the split (default: a temporary one)")
    parser.add_argument("--child", default=None, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        peer_child(args)
        return
    K = args.k
    alpha = args.alpha if args.alpha is not None else 1.0 / K
    args.work = args.work or tempfile.mkdtemp(prefix="lda_peers_")
    subprocess.run([args.cli, "heldout-split", "--project", args.project, "--dataset", args.dataset, "--heldout",
                    str(args.heldout), "--seed", str(args.seed), "--out", args.work], check=True, capture_output=True)
    vocabulary, train, observed, scored = load_split(args)
    D = train.shape[0]
    print(f"# {args.dataset}: {D} training documents, {observed.shape[0]} held out, V = {len(vocabulary)}, K = {K}, "
          f"alpha = {alpha:g}, eta = {args.eta:g}, batch passes {args.passes}, online passes {args.online_passes}, "
          f"batch size {args.batch_size}, tau0 {args.tau0:g}, kappa {args.kappa:g}, threads {args.threads}, "
          f"seed {args.seed}", flush=True)
    rows = []
    for name in [n.strip() for n in args.ours.split(",") if n.strip()]:
        phi, fitted_alpha, ours_cpp, seconds, passes, rss = run_ours(name, args, K, alpha, args.eta, vocabulary)
        perplexity, per_token = perplexities(variational_fold_in(phi, fitted_alpha, observed), phi, scored)
        rows.append((f"ours {name}", passes, perplexity, per_token, f"{ours_cpp:.2f} (ours C++)", seconds,
                     D * passes / seconds, rss))
        print(rows[-1], flush=True)
    for peer in [p.strip() for p in args.peers.split(",") if p.strip()]:
        command = ["/usr/bin/time", "-v", sys.executable, os.path.abspath(__file__), "--child", peer]
        for key in ("cli", "project", "dataset", "k", "passes", "online_passes", "heldout", "seed", "threads", "eta",
                    "batch_size", "tau0", "kappa", "work"):
            command += ["--" + key.replace("_", "-"), str(getattr(args, key))]
        if args.alpha is not None:
            command += ["--alpha", repr(args.alpha)]
        run = subprocess.run(command, check=True, capture_output=True, text=True)
        saved = np.load(os.path.join(args.work, f"{peer}.npz"))
        phi, theta, seconds, passes = saved["phi"], saved["theta"], float(saved["seconds"]), int(saved["passes"])
        perplexity, per_token = perplexities(variational_fold_in(phi, np.full(K, alpha), observed), phi, scored)
        own = perplexities(theta, phi, scored)[0]
        rows.append((peer, passes, perplexity, per_token, f"{own:.2f} (own inference)", seconds, D * passes / seconds,
                     peak_rss_mb(run.stderr)))
        print(rows[-1], flush=True)
    print("| method | K | passes | held-out perplexity (eq. 27.29) | per token | other scorer | fit s | documents/s "
          "| peak RSS MB |")
    print("|---|---|---|---|---|---|---|---|---|")
    for name, passes, perplexity, per_token, other, seconds, rate, rss in rows:
        print(f"| {name} | {K} | {passes} | {perplexity:.2f} | {per_token:.2f} | {other} | {seconds:.2f} | {rate:.0f} "
              f"| {rss:.0f} |")


if __name__ == "__main__":
    main()
