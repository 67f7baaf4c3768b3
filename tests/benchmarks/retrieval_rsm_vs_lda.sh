#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# Document retrieval of 000 Fig. 27.33 (Salakhutdinov & Hinton 2009 §5) on the State of the Union
# sample: replicated softmax against LDA, each held-out address a query against the training
# addresses by cosine similarity of rsm's hidden activations or LDA's topic proportions, relevant
# when of the same label (party by default, as the built-in sample imports it; or president).
# Both runs on one split (--heldout 0.2 --seed SEED); prints each MAP and the precision at a few
# recall levels (latent-cli retrieval; DESIGN §6).
#
#   bash tests/benchmarks/retrieval_rsm_vs_lda.sh build/app/cli/latent-cli [LABEL] [K] [RSM_EPOCHS] [LDA_ITERATIONS] [SEED]
set -euo pipefail
cli=$(realpath "$1")
label=${2:-party} K=${3:-50} epochs=${4:-50} iterations=${5:-300} seed=${6:-7}
here=$(dirname "$(realpath "$0")")
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# The built-in sample's import (core/jobs/samples.cpp), with the label field chosen here.
"$cli" import corpus --project "$work/p.latent" --name sotu --format jsonl \
  --source "$here/../../resources/samples/sotu/sotu.jsonl" --title-column title --time-column year \
  --id-column id --label-column "$label" --min-df 3 --max-df 0.9 >/dev/null
common=(--project "$work/p.latent" --dataset sotu --heldout 0.2 --seed "$seed" --k "$K" --eval-every 1000000 --json)
"$cli" fit rsm "${common[@]}" --iterations "$epochs" >"$work/rsm.jsonl"
"$cli" fit lda-gibbs "${common[@]}" --iterations "$iterations" >"$work/lda.jsonl"
run() { tail -n 1 "$1" | grep -o '"run":[0-9]*' | cut -d: -f2; }
rsm=$(run "$work/rsm.jsonl") lda=$(run "$work/lda.jsonl")
"$cli" retrieval --project "$work/p.latent" --runs "$rsm,$lda" --out "$work/pr.csv" --json >"$work/summary.jsonl"
echo "sotu, label $label, K $K, rsm $epochs epochs, lda-gibbs $iterations iterations, --heldout 0.2 --seed $seed:"
cat "$work/summary.jsonl"
echo "precision at recall:"
printf '%-10s' model
levels="0.01 0.1 0.2 0.5 0.8 1"
for r in $levels; do printf ' %8s' "$r"; done
echo
for id in "$rsm" "$lda"; do
  model=$(awk -F, -v id="$id" '$1 == id { print $2; exit }' "$work/pr.csv")
  printf '%-10s' "$model"
  for r in $levels; do
    printf ' %8.4f' "$(awk -F, -v id="$id" -v r="$r" '$1 == id && $3 + 0 == r + 0 { print $4 }' "$work/pr.csv")"
  done
  echo
done
