#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# The Gaussian RBM (rbm-gaussian) on a real numeric table against densities fitted to the same
# training rows: scikit-learn's copy of the UCI wine data (178 wines x 13 chemical measurements,
# three cultivars; Debian's python3-sklearn), 20% of the rows held out. Prints the held-out mean
# log-density per row of rbm-gaussian for several K (learnt and unit variances) and of independent
# Gaussians, one full-covariance Gaussian and Gaussian mixtures (peers/gaussian_densities.py).
#
#   bash tests/benchmarks/rbm_gaussian_wine.sh build/app/cli/latent-cli [ITERATIONS] [SEED]
set -euo pipefail
cli=$(realpath "$1")
iterations=${2:-200} seed=${3:-1}
here=$(dirname "$(realpath "$0")")
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
/usr/bin/python3 - "$work/wine.csv" <<'PY'
import csv, sys
from sklearn.datasets import load_wine
d = load_wine()
with open(sys.argv[1], "w", newline="") as f:
    w = csv.writer(f)
    w.writerow(["id"] + [n.replace("/", "_") for n in d.feature_names] + ["cultivar"])
    for i, (x, y) in enumerate(zip(d.data, d.target)):
        w.writerow([f"w{i}"] + [repr(float(v)) for v in x] + [int(y)])
PY
"$cli" import table --project "$work/p.latent" --name wine --source "$work/wine.csv" --id-column id \
  --label-column cultivar >/dev/null
"$cli" heldout-split --project "$work/p.latent" --dataset wine --heldout 0.2 --seed "$seed" --out "$work/split" >/dev/null
loglik() { tail -n 1 "$1" | grep -o '"heldout_loglik":[-0-9.e]*' | cut -d: -f2; }
for variance in true false; do
  for k in 2 5 10; do
    "$cli" fit rbm-gaussian --project "$work/p.latent" --dataset wine --heldout 0.2 --seed "$seed" --json \
      --k "$k" --iterations "$iterations" --learn_variance "$variance" >"$work/fit.jsonl"
    echo "rbm-gaussian k=$k learn_variance=$variance: $(loglik "$work/fit.jsonl")"
  done
done
/usr/bin/python3 "$here/peers/gaussian_densities.py" "$work/split/train.csv" "$work/split/heldout.csv" 13
