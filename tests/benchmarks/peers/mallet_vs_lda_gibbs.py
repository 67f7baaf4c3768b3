#!/usr/bin/python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""lda-gibbs against MALLET's train-topics, one thread each, on exactly the same training documents,
both scored by the same document-completion code, in alternated rounds; prints the speed ratio.

The split comes from `latent-cli heldout-split` (same --heldout and --seed as `fit`). MALLET gets
the training documents' tokens (one line per document, its words separated by spaces, imported
with --keep-sequence --token-regex '\\S+' --preserve-case so that its word types are exactly our
vocabulary), the same K, the same number of sweeps, the same starting alpha (MALLET's --alpha is
the sum over topics) and beta, and the same hyperparameter schedule (--optimize-interval 20
--optimize-burn-in 50, as ours by default). Run MALLET without Java assertions (this script
empties MALLET_JAVA_OPTS, which upstream's launcher sets to -ea).

Seconds are each tool's training time as it reports it: ours, the `seconds` of the last
iteration's report less the run's `evaluation_seconds` (set-up, restarts and sweeps, not the
held-out evaluation that report carries, nor writing the project); MALLET's, the "Total time" it
prints (its sampling, not the JVM's start or the import).
The wall time of each whole process is printed beside them.

Scoring, the same code for both (heldout-scores, our C++ estimators): the topics each tool hands
its user (ours: the run's topic_word, averaged over the last fifth of the chain; MALLET's:
(n_kw + beta) / (n_k + V beta) of its final state, as --topic-word-weights-file writes them) and its
alpha, theta fitted on each held-out document's observed half by the Gibbs fold-in lda-gibbs reports
and by the variational fold-in, perplexity of the scored half (000 eq. 27.29). The Gibbs fold-in is
the one that agrees with the left-to-right reference (README.md, "Which held-out estimator").
Each tool is scored once (every round uses the same seed, so the same chain).

    /usr/bin/python3 tests/benchmarks/peers/mallet_vs_lda_gibbs.py --cli build/app/cli/latent-cli \\
        --project man.latent --dataset man1 --k 100 --sweeps 200 --rounds 3
    ... --k 1000 --sweeps 100 --rounds 3
"""
import argparse
import gzip
import json
import os
import re
import statistics
import subprocess
import sys
import tempfile
import time

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from lda_peers import default_scores_path, heldout_scores, load_split, read_matrix  # noqa: E402

MALLET = "/work/shared/peers/mallet/mallet"


def timed(command, env=None):
    """Runs a command under /usr/bin/time -v; returns stdout, stderr, wall seconds, peak RSS in MB."""
    start = time.perf_counter()
    run = subprocess.run(["/usr/bin/time", "-v"] + command, capture_output=True, text=True, env=env)
    wall = time.perf_counter() - start
    if run.returncode != 0:
        sys.exit(f"{command[0]} failed ({run.returncode}):\n{run.stderr[-2000:]}")
    rss = next((int(line.split(":")[1]) / 1024.0 for line in run.stderr.splitlines()
                if "Maximum resident set size" in line), float("nan"))
    return run.stdout, run.stderr, wall, rss


def run_ours(args, round_index):
    command = [args.cli, "fit", "lda-gibbs", "--project", args.project, "--dataset", args.dataset, "--k", str(args.k),
               "--iterations", str(args.sweeps), "--seed", str(args.seed), "--threads", "1", "--heldout",
               str(args.heldout), "--eval-every", str(args.sweeps + 1), "--json"] + args.our_options.split()
    stdout, _, wall, rss = timed(command)
    lines = [json.loads(line) for line in stdout.splitlines() if line.strip()]
    final = lines[-1]
    # The last report's seconds include the held-out evaluation of that sweep (the driver always
    # evaluates the last one); the run's evaluation_seconds say how long it took.
    reported = [line for line in lines if "iteration" in line][-1]["seconds"]
    seconds = reported - final.get("evaluation_seconds", 0.0)
    return {"seconds": seconds, "wall": wall, "rss": rss, "run": final["run"],
            "cpp_perplexity": final.get("heldout_perplexity")}


def mallet_seconds(stderr):
    """MALLET's "Total time: [N minutes ]S seconds"."""
    match = re.search(r"Total time:\s*(?:(\d+) minutes?\s*)?(\d+) seconds?", stderr)
    return float(match.group(1) or 0) * 60 + float(match.group(2)) if match else float("nan")


def mallet_alpha_sum(args):
    """MALLET's --alpha (the sum over topics) for the start per topic of --alpha, or lda-gibbs's default
    start: 0.1 per topic, a sum of 10 beyond 100 topics (LdaGibbsOptions::startAlpha)."""
    per_topic = args.alpha if args.alpha is not None else min(0.1, 10.0 / args.k)
    return per_topic * args.k


def run_mallet(args, work, round_index):
    env = dict(os.environ, MALLET_JAVA_OPTS="", MALLET_MEMORY=args.mallet_memory)
    state = os.path.join(work, "mallet-state.gz")
    command = [args.mallet, "train-topics", "--input", os.path.join(work, "train.mallet"), "--num-topics",
               str(args.k), "--num-iterations", str(args.sweeps), "--num-threads", "1", "--random-seed",
               str(args.seed), "--optimize-interval", "20", "--optimize-burn-in", "50", "--alpha",
               repr(mallet_alpha_sum(args)), "--beta", repr(args.beta), "--output-state", state]
    _, stderr, wall, rss = timed(command, env)
    return {"seconds": mallet_seconds(stderr), "wall": wall, "rss": rss, "state": state}


def mallet_topics(state, vocabulary, K):
    """phi and alpha of MALLET's final state, over our vocabulary's word order."""
    index = {word: i for i, word in enumerate(vocabulary)}
    counts = np.zeros((K, len(vocabulary)))
    alpha, beta = None, None
    with gzip.open(state, "rt", encoding="utf-8") as f:
        for line in f:
            if line.startswith("#alpha"):
                alpha = np.array([float(x) for x in line.split(":", 1)[1].split()])
            elif line.startswith("#beta"):
                beta = float(line.split(":", 1)[1])
            elif not line.startswith("#"):
                fields = line.split()  # doc source pos typeindex type topic
                counts[int(fields[5]), index[fields[4]]] += 1.0
    V = len(vocabulary)
    phi = (counts + beta) / (counts.sum(axis=1, keepdims=True) + V * beta)
    return phi, alpha


def write_mallet_input(args, work, vocabulary, train):
    text = os.path.join(work, "train.txt")
    with open(text, "w", encoding="utf-8") as f:
        for d in range(train.shape[0]):
            row = train.getrow(d)
            words = [vocabulary[w] for w, c in zip(row.indices, row.data) for _ in range(int(c))]
            f.write(f"d{d}\tX\t{' '.join(words)}\n")
    env = dict(os.environ, MALLET_JAVA_OPTS="", MALLET_MEMORY=args.mallet_memory)
    subprocess.run([args.mallet, "import-file", "--input", text, "--output", os.path.join(work, "train.mallet"),
                    "--keep-sequence", "--token-regex", r"\S+", "--preserve-case"], check=True, env=env,
                   capture_output=True)


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--cli", required=True)
    parser.add_argument("--project", required=True)
    parser.add_argument("--dataset", required=True)
    parser.add_argument("--k", type=int, default=100)
    parser.add_argument("--sweeps", type=int, default=200)
    parser.add_argument("--heldout", type=float, default=0.1)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--alpha", type=float, default=None,
                        help="MALLET's starting alpha per topic (default: ours', 0.1 or 10/K beyond 100 topics)")
    parser.add_argument("--beta", type=float, default=0.01)
    parser.add_argument("--our-options", default="--restarts 1", help="more options of our fit")
    parser.add_argument("--mallet", default=MALLET)
    parser.add_argument("--mallet-memory", default="6g")
    parser.add_argument("--work", default=None)
    parser.add_argument("--scores", default=None, help="heldout-scores (default: the build's, beside --cli)")
    args = parser.parse_args()
    args.scores = args.scores or default_scores_path(args.cli)

    work = args.work or tempfile.mkdtemp(prefix="mallet-vs-ours-")
    os.makedirs(work, exist_ok=True)
    subprocess.run([args.cli, "heldout-split", "--project", args.project, "--dataset", args.dataset, "--heldout",
                    str(args.heldout), "--seed", str(args.seed), "--out", work], check=True, capture_output=True)
    args.work = work
    vocabulary, train, _, _ = load_split(args)
    write_mallet_input(args, work, vocabulary, train)
    print(f"{train.shape[0]} training documents, {int(train.sum())} tokens, V = {len(vocabulary)}, K = {args.k}, "
          f"{args.sweeps} sweeps, 1 thread; work folder {work}", flush=True)

    ours, mallet = [], []
    for r in range(args.rounds):
        order = [("ours", run_ours), ("mallet", run_mallet)] if r % 2 == 0 else [("mallet", run_mallet),
                                                                                  ("ours", run_ours)]
        for name, runner in order:
            result = runner(args, work, r) if name == "mallet" else runner(args, r)
            (ours if name == "ours" else mallet).append(result)
            print(f"round {r + 1} {name:6s} {result['seconds']:8.1f} s (process {result['wall']:.1f} s, "
                  f"peak RSS {result['rss']:.0f} MB)", flush=True)

    phi = read_matrix(args.project, ours[0]["run"], "topic_word")
    alpha = read_matrix(args.project, ours[0]["run"], "alpha").ravel()
    our_scores = heldout_scores(args.scores, work, phi / phi.sum(axis=1, keepdims=True), alpha, args.seed)
    phi, alpha = mallet_topics(mallet[0]["state"], vocabulary, args.k)
    mallet_scores = heldout_scores(args.scores, work, phi, alpha, args.seed)

    our_median = statistics.median(r["seconds"] for r in ours)
    mallet_median = statistics.median(r["seconds"] for r in mallet)
    paired = statistics.median(m["seconds"] / o["seconds"] for o, m in zip(ours, mallet))
    for name, median, scores in [("ours", our_median, our_scores), ("MALLET", mallet_median, mallet_scores)]:
        print(f"{name + ':':7s} median {median:.1f} s, held-out perplexity {scores['perplexity_gibbs']:.1f} "
              f"(Gibbs fold-in), {scores['perplexity_variational']:.1f} (variational fold-in)")
    print(f"speed ratio (MALLET seconds / ours): {mallet_median / our_median:.2f} of the medians, "
          f"{paired:.2f} median of the {len(ours)} pairs")


if __name__ == "__main__":
    main()
