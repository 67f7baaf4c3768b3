#!/usr/bin/env bash
# RTM on Cora, ours against R lda's rtm.collapsed.gibbs.sampler (Chang's CRAN package 1.5.2): the
# same training documents, training links (either direction) and hidden pairs (the split of
# tests/evidence/tst_rtm_evidence.cpp, --heldout 0.1, split seed 1; run r seeds both chains with r), K = 20, alpha = 0.1, topic-word
# prior 0.01, the same number of sweeps. Runs alternate, ours then R's; prints each run's held-out
# AUC, precision at 10 and seconds, then the medians and the time ratio. Ours is timed over its
# whole fit (sweeps, link-weight fits, final scoring, no baselines); R's over its sampler alone,
# with its link weights fixed at the package default 3 (rtm.em's initial.beta): R's sampler does
# not fit them, and rtm.em restarts the chain from scratch at every M step.
# Needs: an optimised build (tests_evidence), R with lda built by /work/shared/peers/r-lda/build.sh.
# Usage: rtm_vs_r_lda.sh [BUILD_DIR] [CORA_DIR] [SWEEPS] [RUNS] [LINK]
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
build=${1:-build}
cora=${2:-/work/shared/datasets/cora}
sweeps=${3:-200}
runs=${4:-3}
link=${5:-exponential}
rlib=${R_LDA_LIB:-/tmp/r-lda-lib}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
results="$work/results.txt"
: > "$results"
for run in $(seq "$runs"); do
  LATENT_CORA_DIR="$cora" LATENT_RTM_PEER_DIR="$work" LATENT_RTM_SWEEPS="$sweeps" LATENT_RTM_LINK="$link" LATENT_RTM_SEED="$run" \
    "$build/tests/tests_evidence" RtmEvidenceTest coraBeatsBothBaselines > "$work/ours.log" 2>&1 ||
    { cat "$work/ours.log"; exit 1; }
  python3 - "$work/ours.json" >> "$results" <<'P'
import json, sys
m = json.load(open(sys.argv[1]))
print("ours auc %.4f precision_at_10 %.4f seconds %.3f" % (m["heldout_auc"], m["heldout_precision_at_10"], m["seconds"]))
P
  R_LIBS="$rlib" Rscript "$here/rtm_r_lda.R" "$work" 20 "$sweeps" 0.1 0.01 3 "$run" >> "$results"
  tail -n 2 "$results"
done
python3 - "$results" "$sweeps" "$link" <<'P'
import statistics, sys
rows = [l.split() for l in open(sys.argv[1]) if l.strip()]
med = {}
for who in ("ours", "r-lda"):
    r = [x for x in rows if x[0] == who]
    med[who] = {k: statistics.median(float(x[i]) for x in r) for k, i in (("auc", 2), ("p10", 4), ("s", 6))}
    print("median %-5s auc %.4f precision_at_10 %.4f seconds %.3f (%d runs)" % (who, med[who]["auc"], med[who]["p10"], med[who]["s"], len(r)))
print("sweeps %s, ours link %s; time ratio r-lda / ours: %.2f" % (sys.argv[2], sys.argv[3], med["r-lda"]["s"] / med["ours"]["s"]))
P
