#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# The ordering of 000 Fig. 27.32 on real text: replicated softmax against LDA and the unigram model
# on one split, by the same document-completion perplexity (heldout_perplexity of fit's final
# line), on Cora and on the State of the Union sample.
#
#   bash tests/benchmarks/rsm_vs_lda.sh build/app/cli/latent-cli [K] [RSM_EPOCHS] [LDA_ITERATIONS] [SEED]
set -euo pipefail
cli=$(realpath "$1")
K=${2:-50} epochs=${3:-50} iterations=${4:-300} seed=${5:-7}
here=$(dirname "$(realpath "$0")")
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cora=$here/../../../shared/datasets/cora
"$cli" import corpus --project "$work/p.latent" --name cora --format uci --source "$cora/docword.cora.txt" \
  --vocab "$cora/vocab.cora.txt" >/dev/null
"$cli" import corpus --project "$work/p.latent" --name sotu --source "$here/../../resources/samples/sotu/sotu.jsonl" >/dev/null
perplexity() { tail -n 1 "$1" | grep -o '"heldout_perplexity":[0-9.]*' | cut -d: -f2; }
for dataset in cora sotu; do
  common=(--project "$work/p.latent" --dataset "$dataset" --heldout 0.1 --seed "$seed" --json)
  "$cli" fit unigram "${common[@]}" >"$work/unigram.jsonl"
  start=$(date +%s.%N)
  "$cli" fit rsm "${common[@]}" --k "$K" --iterations "$epochs" --eval-every 1000000 >"$work/rsm.jsonl"
  rsmSeconds=$(echo "$(date +%s.%N) - $start" | bc)
  start=$(date +%s.%N)
  "$cli" fit lda-gibbs "${common[@]}" --k "$K" --iterations "$iterations" --eval-every 1000000 >"$work/lda.jsonl"
  ldaSeconds=$(echo "$(date +%s.%N) - $start" | bc)
  echo "$dataset: unigram $(perplexity "$work/unigram.jsonl")," \
    "rsm-$K ($epochs epochs, ${rsmSeconds%.*} s) $(perplexity "$work/rsm.jsonl")," \
    "lda-gibbs-$K ($iterations iterations, ${ldaSeconds%.*} s) $(perplexity "$work/lda.jsonl")"
done
