#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# The binary RBM against scikit-learn's BernoulliRBM on Cora's word occurrences, same split, same
# hidden size, epochs and learning rate, alternating the two; both scored by the same exact
# held-out pseudo-log-likelihood (peers/rbm_sklearn.py, which also recomputes ours from the
# exported weights as a check of the number fit reports).
#
#   bash tests/benchmarks/rbm_speed.sh build/app/cli/latent-cli [K] [EPOCHS] [RATE] [BATCH] [REPEATS]
set -euo pipefail
cli=$(realpath "$1")
K=${2:-50} epochs=${3:-10} rate=${4:-0.05} batch=${5:-100} repeats=${6:-3}
here=$(dirname "$(realpath "$0")")
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cora=$here/../../../shared/datasets/cora
"$cli" import corpus --project "$work/p.latent" --name cora --format uci --source "$cora/docword.cora.txt" \
  --vocab "$cora/vocab.cora.txt" >/dev/null
"$cli" heldout-split --project "$work/p.latent" --dataset cora --heldout 0.1 --seed 7 --out "$work/split" >/dev/null
for ((i = 1; i <= repeats; ++i)); do
  # Held-out scoring only at the end; the per-epoch time is the last iteration's clock minus the
  # final evaluation's, read from the metrics export.
  "$cli" fit rbm --project "$work/p.latent" --dataset cora --k "$K" --iterations "$epochs" --heldout 0.1 --seed 7 \
    --threads 1 --persistent true --particles "$batch" --batch_size "$batch" --learning_rate "$rate" \
    --eval-every 1000000 --json >"$work/ours.jsonl"
  run=$(tail -n 1 "$work/ours.jsonl" | sed -E 's/.*"run":([0-9]+).*/\1/')
  training=$(sed -n "${epochs}p" "$work/ours.jsonl" | sed -E 's/.*"seconds":([0-9.e+-]+).*/\1/')
  previous=$(sed -n "$((epochs - 1))p" "$work/ours.jsonl" | sed -E 's/.*"seconds":([0-9.e+-]+).*/\1/')
  "$cli" export --project "$work/p.latent" --run "$run" --what hidden-weights --out "$work/w.csv" >/dev/null
  echo "ours: training $(awk -v a="$previous" -v n="$epochs" 'BEGIN { printf "%.2f", a * n / (n - 1) }') s" \
    "(epochs 1-$((epochs - 1)): $previous s; with the final scoring $training s)," \
    "$(tail -n 1 "$work/ours.jsonl" | grep -o '"heldout_pseudo_nll":[0-9.]*')"
  OPENBLAS_NUM_THREADS=1 OMP_NUM_THREADS=1 /usr/bin/python3 "$here/peers/rbm_sklearn.py" "$work/split" "$K" "$epochs" "$rate" "$batch" "$work/w.csv"
done
