#!/usr/bin/python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Time to a held-out perplexity: lda-gibbs against WarpLDA and MALLET, one thread each, on exactly the
same training documents, every fit scored by the same document-completion code.

Each system is fitted several times with more and more sweeps (a fit of S sweeps is what a user who
asks for S sweeps gets: ours averages the topics of its last fifth, MALLET and WarpLDA hand over their
final state). Every fit's topics and alpha are scored by heldout-scores (tests/benchmarks, our C++
estimators): document completion (theta fitted on each held-out document's observed half, perplexity of
its scored half, 000 eq. 27.29) with the Gibbs fold-in lda-gibbs reports and with the variational
fold-in. Both are recorded; --scorer picks the one the time table uses, the Gibbs fold-in by default:
with the small alpha that re-estimation reaches at large K the variational fold-in falls into poor
local optima and ranks fits in the wrong order against the left-to-right reference (README.md, "Which
held-out estimator"). Then for each target perplexity, the best any fit reached times 1.02 and coarser
ones, the table gives each system's least training time among its fits that reached the target.

Training seconds: ours, the `seconds` of the last iteration's report (restarts, warm-up, sweeps and
snapshots) less its `evaluation_seconds` (our own held-out evaluation at the report, which the peers
do not do), not storing the run; MALLET, its "Total time"; WarpLDA, the sum of
its per-iteration times. The whole process's wall time and peak RSS are recorded beside them.

The split comes from `latent-cli heldout-split` (same --heldout and --seed as `fit`). MALLET gets the
training documents' tokens with our word types (mallet_vs_lda_gibbs.py), the same starting alpha and
beta and the same hyperparameter schedule (optimised every 20 sweeps after 50, as ours). WarpLDA keeps
alpha and beta fixed (it cannot optimise them); --warplda-settings lists the (alpha sum, beta) pairs to
try, each a family of its own in the table.

    /usr/bin/python3 tests/benchmarks/peers/time_to_perplexity.py --cli build/app/cli/latent-cli \\
        --project man.latent --dataset man1 --k 1000 \\
        --ours 'sparse|--restarts 1 --sampler sparse|50,100,200;warp start 200|--restarts 1 --warp-start 200|20,50,100' \\
        --mallet-sweeps 100,200,400 --warplda-sweeps 100,200,400,800 --warplda-settings 50:0.01,100:0.01
Re-analyse the runs of a work folder (fits.json) without fitting again: --analyse-only --work DIR
[--scorer variational]; add fits to it, skipping those it holds: --resume --work DIR.
"""
import argparse
import json
import os
import re
import subprocess
import sys
import tempfile

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from lda_peers import default_scores_path, heldout_scores, load_split, read_matrix  # noqa: E402
from mallet_vs_lda_gibbs import MALLET, mallet_alpha_sum, mallet_seconds, mallet_topics, timed, write_mallet_input  # noqa: E402

WARPLDA = "/tmp/warp/build/src"


def score(args, phi, alpha):
    return heldout_scores(args.scores, args.work, phi, alpha, args.seed)


def fit_ours(args, options, sweeps):
    command = [args.cli, "fit", "lda-gibbs", "--project", args.project, "--dataset", args.dataset, "--k", str(args.k),
               "--iterations", str(sweeps), "--seed", str(args.seed), "--threads", "1", "--heldout", str(args.heldout),
               "--eval-every", str(sweeps + 1), "--json"] + options.split()
    stdout, _, wall, rss = timed(command)
    lines = [json.loads(line) for line in stdout.splitlines() if line.strip()]
    # The last report's seconds include our own held-out evaluation; the peers are scored outside.
    seconds = [line for line in lines if "iteration" in line][-1]["seconds"] - lines[-1].get("evaluation_seconds", 0.0)
    run = lines[-1]["run"]
    phi = read_matrix(args.project, run, "topic_word")
    alpha = read_matrix(args.project, run, "alpha").ravel()
    return {"seconds": seconds, "wall": wall, "rss": rss, **score(args, phi, alpha),
            "cpp_perplexity": lines[-1].get("heldout_perplexity"), "run": run}


def fit_mallet(args, sweeps, vocabulary):
    env = dict(os.environ, MALLET_JAVA_OPTS="", MALLET_MEMORY=args.mallet_memory)
    state = os.path.join(args.work, "mallet-state.gz")
    command = [args.mallet, "train-topics", "--input", os.path.join(args.work, "train.mallet"), "--num-topics",
               str(args.k), "--num-iterations", str(sweeps), "--num-threads", "1", "--random-seed", str(args.seed),
               "--optimize-interval", "20", "--optimize-burn-in", "50", "--alpha", repr(mallet_alpha_sum(args)),
               "--beta", repr(args.beta), "--output-state", state]
    _, stderr, wall, rss = timed(command, env)
    phi, alpha = mallet_topics(state, vocabulary, args.k)
    return {"seconds": mallet_seconds(stderr), "wall": wall, "rss": rss, **score(args, phi, alpha)}


def write_warplda_input(args, vocabulary, train):
    text = os.path.join(args.work, "warplda-train.txt")
    with open(text, "w", encoding="utf-8") as f:
        for d in range(train.shape[0]):
            row = train.getrow(d)
            words = [vocabulary[w] for w, c in zip(row.indices, row.data) for _ in range(int(c))]
            f.write(f"d{d} X {' '.join(words)}\n")
    subprocess.run([os.path.join(args.warplda, "format"), "-input", text, "-prefix",
                    os.path.join(args.work, "warplda")], check=True, capture_output=True)


def fit_warplda(args, sweeps, alpha_sum, beta, vocabulary):
    prefix = os.path.join(args.work, "warplda")
    command = [os.path.join(args.warplda, "warplda"), "--prefix", prefix, "--k", str(args.k), "--niter", str(sweeps),
               "--alpha", repr(alpha_sum), "--beta", repr(beta), "--dumpz=false", "--ntop", "1"]
    stdout, stderr, wall, rss = timed(command, dict(os.environ, OMP_NUM_THREADS="1"))
    seconds = sum(float(m.group(1)) for m in re.finditer(r"Iteration \d+, ([0-9.eE+-]+) s", stdout + stderr))
    # The model: a "V K alpha beta" line, then one line per word of warplda.vocab: "n topic:count ...".
    with open(prefix + ".vocab", encoding="utf-8") as f:
        words = [line.rstrip("\n") for line in f]
    index = {word: i for i, word in enumerate(vocabulary)}
    counts = np.zeros((args.k, len(vocabulary)))
    with open(prefix + ".model", encoding="utf-8") as f:
        header = f.readline().split()
        alpha, model_beta = float(header[2]), float(header[3])
        for word, line in zip(words, f):
            w = index[word]
            for entry in line.split()[1:]:
                k, c = entry.split(":")
                counts[int(k), w] += float(c)
    V = len(vocabulary)
    phi = (counts + model_beta) / (counts.sum(axis=1, keepdims=True) + V * model_beta)
    return {"seconds": seconds, "wall": wall, "rss": rss, **score(args, phi, np.full(args.k, alpha))}


def analyse(fits, targets, scorer):
    """The table of fits, then each system's least training time to each target, by `scorer`'s figures
    (fits.json written before both scorers existed holds the variational one as "perplexity")."""
    def value(fit, name):
        return fit.get(f"perplexity_{name}", fit.get("perplexity") if name == "variational" else None)

    fits = [f for f in fits if value(f, scorer) is not None]
    best = min(value(f, scorer) for f in fits)
    families = list(dict.fromkeys(f["family"] for f in fits))
    print("\n| fit | sweeps | training s | process s | peak RSS MB | held-out perplexity, Gibbs fold-in | "
          "variational fold-in |")
    print("|---|---|---|---|---|---|---|")
    for f in fits:
        gibbs, variational = value(f, "gibbs"), value(f, "variational")
        print(f"| {f['family']} | {f['sweeps']} | {f['seconds']:.1f} | {f['wall']:.1f} | {f['rss']:.0f} | "
              f"{'-' if gibbs is None else f'{gibbs:.1f}'} | {'-' if variational is None else f'{variational:.1f}'} |")
    levels = [best * t for t in targets]
    print(f"\nTraining seconds to reach a held-out perplexity by the {scorer} fold-in (best of all fits: {best:.1f}; "
          "'-' not reached):")
    print("| system | " + " | ".join(f"{level:.1f} ({100 * (t - 1):+.0f}%)" for level, t in zip(levels, targets)) + " |")
    print("|---|" + "---|" * len(levels))
    for family in families:
        cells = []
        for level in levels:
            reached = [f["seconds"] for f in fits if f["family"] == family and value(f, scorer) <= level]
            cells.append(f"{min(reached):.1f}" if reached else "-")
        print(f"| {family} | " + " | ".join(cells) + " |")


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--cli")
    parser.add_argument("--project")
    parser.add_argument("--dataset")
    parser.add_argument("--k", type=int, default=1000)
    parser.add_argument("--heldout", type=float, default=0.1)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--alpha", type=float, default=None,
                        help="MALLET's starting alpha per topic (default: ours', 0.1 or 10/K beyond 100 topics)")
    parser.add_argument("--beta", type=float, default=0.01)
    parser.add_argument("--ours", default="sparse|--restarts 1 --sampler sparse|50,100,200",
                        help="families 'name|options|sweeps,...' separated by ';'")
    parser.add_argument("--mallet-sweeps", default="100,200,400", help="'' for none")
    parser.add_argument("--warplda-sweeps", default="100,200,400,800", help="'' for none")
    parser.add_argument("--warplda-settings", default="50:0.01", help="alpha sum:beta pairs, ',' separated")
    parser.add_argument("--targets", default="1.02,1.05,1.10,1.20", help="multiples of the best perplexity")
    parser.add_argument("--mallet", default=MALLET)
    parser.add_argument("--mallet-memory", default="6g")
    parser.add_argument("--warplda", default=WARPLDA, help="folder of WarpLDA's warplda and format")
    parser.add_argument("--work", default=None)
    parser.add_argument("--scores", default=None, help="heldout-scores (default: beside the build's latent-cli, "
                        "build/tests/benchmarks/heldout-scores)")
    parser.add_argument("--scorer", choices=["gibbs", "variational"], default="gibbs",
                        help="the fold-in whose figures make the time table (both are recorded)")
    parser.add_argument("--analyse-only", action="store_true")
    parser.add_argument("--resume", action="store_true", help="keep the fits in the work folder's fits.json and "
                        "run only the others")
    args = parser.parse_args()
    targets = [float(t) for t in args.targets.split(",")]
    if args.analyse_only:
        with open(os.path.join(args.work, "fits.json")) as f:
            analyse(json.load(f), targets, args.scorer)
        return
    args.scores = args.scores or default_scores_path(args.cli)

    args.work = args.work or tempfile.mkdtemp(prefix="time-to-perplexity-")
    os.makedirs(args.work, exist_ok=True)
    subprocess.run([args.cli, "heldout-split", "--project", args.project, "--dataset", args.dataset, "--heldout",
                    str(args.heldout), "--seed", str(args.seed), "--out", args.work], check=True, capture_output=True)
    vocabulary, train, _, _ = load_split(args)
    print(f"{train.shape[0]} training documents, {int(train.sum())} tokens, V = {len(vocabulary)}, K = {args.k}, "
          f"1 thread; work folder {args.work}", flush=True)

    sweeps_of = lambda text: [int(s) for s in text.split(",") if s.strip()]  # noqa: E731
    jobs = []
    for family in filter(None, args.ours.split(";")):
        name, options, sweeps = family.split("|")
        jobs += [(f"ours, {name}", s, lambda s, o=options: fit_ours(args, o, s)) for s in sweeps_of(sweeps)]
    if sweeps_of(args.mallet_sweeps):
        write_mallet_input(args, args.work, vocabulary, train)
        jobs += [("MALLET", s, lambda s: fit_mallet(args, s, vocabulary))
                 for s in sweeps_of(args.mallet_sweeps)]
    if sweeps_of(args.warplda_sweeps):
        write_warplda_input(args, vocabulary, train)
        for setting in args.warplda_settings.split(","):
            alpha_sum, beta = (float(x) for x in setting.split(":"))
            jobs += [(f"WarpLDA, alpha sum {alpha_sum:g}, beta {beta:g}", s,
                      lambda s, a=alpha_sum, b=beta: fit_warplda(args, s, a, b, vocabulary))
                     for s in sweeps_of(args.warplda_sweeps)]
    # Interleave the systems so that a change in the machine's load falls on all of them.
    by_family = {}
    for job in jobs:
        by_family.setdefault(job[0], []).append(job)
    order = []
    while any(by_family.values()):
        for queue in by_family.values():
            if queue:
                order.append(queue.pop(0))

    fits = []
    if args.resume and os.path.exists(os.path.join(args.work, "fits.json")):
        with open(os.path.join(args.work, "fits.json")) as f:
            fits = json.load(f)
    done = {(f["family"], f["sweeps"]) for f in fits}
    for family, sweeps, fit in order:
        if (family, sweeps) in done:
            continue
        result = fit(sweeps)
        result.update(family=family, sweeps=sweeps)
        fits.append(result)
        print(f"{family:40s} {sweeps:5d} sweeps {result['seconds']:8.1f} s (process {result['wall']:.1f} s, "
              f"peak RSS {result['rss']:.0f} MB) perplexity {result['perplexity_gibbs']:.1f} (Gibbs fold-in), "
              f"{result['perplexity_variational']:.1f} (variational)", flush=True)
        with open(os.path.join(args.work, "fits.json"), "w") as f:
            json.dump(fits, f, indent=1)
    fits.sort(key=lambda f: (f["family"], f["sweeps"]))
    analyse(fits, targets, args.scorer)


if __name__ == "__main__":
    main()
