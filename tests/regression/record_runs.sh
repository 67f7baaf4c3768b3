#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# Records a fixed list of runs (every model, fixed seeds, 1 and 2 threads) with their exported
# matrices and final metrics, so that a change to the machinery around the models can be shown to
# leave their numbers as they were: record before, record after, compare the two folders.
#
#   bash tests/regression/record_runs.sh build/app/cli/latent-cli OUT_DIR
#   diff -r BEFORE_DIR AFTER_DIR && echo identical
#   (cd OUT_DIR && sha256sum --quiet -c /path/to/repo/tests/regression/runs.sha256)  # against the list
#   recorded from dcefd39 (before the model seam), with the optimised build of installer/test.sh
#
# Timings are removed (the `seconds` column of metrics exports and every final key that measures
# time or speed); everything else is written with the shortest exact decimal of each double.
set -euo pipefail
cli=$(realpath "$1")
out=$2
rm -rf "$out"
mkdir -p "$out"
out=$(realpath "$out")
project="$out/runs.latent"
samples=$(dirname "$0")/../../resources/samples

"$cli" import sample --project "$project" --sample cora >/dev/null
"$cli" import sample --project "$project" --sample sampson >/dev/null
"$cli" import sample --project "$project" --sample karate >/dev/null
"$cli" import sample --project "$project" --sample insteval >/dev/null
: "$samples"

# name | model | dataset | options | exports
runs=(
  "unigram|unigram|cora|--heldout 0.1|topic-word"
  "mixture-em|mixture|cora|--k 8 --iterations 30 --heldout 0.1|topic-word doc-topic assignments"
  "mixture-vb|mixture|cora|--k 8 --iterations 30 --heldout 0.1 --method vb|topic-word doc-topic"
  "plsa|plsa|cora|--k 8 --iterations 30 --heldout 0.1|topic-word doc-topic"
  "plsa-tempered|plsa|cora|--k 8 --iterations 30 --heldout 0.1 --method tem|topic-word doc-topic"
  "lda-gibbs-sparse|lda-gibbs|cora|--k 10 --iterations 60 --heldout 0.1 --restarts 3 --restart-sweeps 5|topic-word doc-topic assignments"
  "lda-gibbs-alias|lda-gibbs|cora|--k 10 --iterations 40 --heldout 0.1 --sampler alias|topic-word doc-topic"
  "lda-gibbs-warp|lda-gibbs|cora|--k 10 --iterations 40 --heldout 0.1 --sampler warp|topic-word doc-topic"
  "lda-vb|lda-vb|cora|--k 8 --iterations 15 --heldout 0.1|topic-word doc-topic assignments"
  "lda-online|lda-online|cora|--k 8 --iterations 5 --heldout 0.1|topic-word doc-topic"
  "nmf-kl|nmf|cora|--k 8 --iterations 30 --heldout 0.1|topic-word doc-topic"
  "nmf-hals|nmf|cora|--k 8 --iterations 30 --heldout 0.1 --loss frobenius|topic-word doc-topic"
  "mpca|mpca|cora|--k 8 --iterations 30 --heldout 0.1|topic-word doc-topic assignments"
  "gap|gap|cora|--k 8 --iterations 30 --heldout 0.1|topic-word doc-topic"
  "ctm|ctm|cora|--k 8 --iterations 20 --heldout 0.1|topic-word doc-topic topic-correlations"
  "lsa|lsa|cora|--k 20 --heldout 0.1|word-embeddings doc-embeddings singular-values"
  "lda-hmm|lda-hmm|cora|--k 8 --classes 4 --iterations 20 --anneal-sweeps 10 --heldout 0.1|topic-word doc-topic class-word class-transitions token-classes"
  "epca|epca|cora|--k 5 --iterations 30 --heldout 0.1|word-embeddings singular-values"
  "sbm|sbm|karate|--k 2 --iterations 60 --heldout 0.1|blocks block-matrix"
  "sbm-dc|sbm|karate|--k 2 --iterations 60 --degree-corrected true|blocks block-matrix"
  "mmsb|mmsb|sampson|--k 3 --iterations 80 --heldout 0.1|memberships block-matrix"
  "irm|irm|sampson|--iterations 60 --heldout 0.1|blocks block-matrix"
  "pmf-als|pmf|insteval|--k 5 --iterations 6 --heldout 0.1|factors"
  "pmf-sgd|pmf|insteval|--k 5 --iterations 6 --heldout 0.1 --solver sgd --implicit false|factors"
  "rbm|rbm|cora|--k 8 --iterations 3 --heldout 0.1|hidden-weights hidden-activations"
  "rsm|rsm|cora|--k 8 --iterations 3 --heldout 0.1|hidden-weights hidden-activations"
  "rbm-ratings|rbm-ratings|insteval|--k 5 --iterations 3 --heldout 0.1|hidden-activations"
)

# Drops the keys that measure time or speed from a final --json line, sorts the rest.
strip_timing() {
  sed -E 's/"[a-z_]*(seconds|per_second|per_cpu_second)[a-z_]*":[^,}]*,?//g; s/,}/}/' |
    tr ',' '\n' | sort
}

for entry in "${runs[@]}"; do
  IFS='|' read -r name model dataset options exports <<<"$entry"
  for threads in 1 2; do
    tag="$name-t$threads"
    # shellcheck disable=SC2086
    "$cli" fit "$model" --project "$project" --dataset "$dataset" --seed 7 --threads "$threads" --json $options \
      >"$out/$tag.jsonl"
    run=$(tail -n 1 "$out/$tag.jsonl" | sed -E 's/.*"run":([0-9]+).*/\1/')
    tail -n 1 "$out/$tag.jsonl" | strip_timing >"$out/$tag.final.txt"
    # Per-evaluation lines without their timings.
    head -n -1 "$out/$tag.jsonl" | sed -E 's/"seconds":[^,}]*,?//' >"$out/$tag.reports.jsonl"
    rm "$out/$tag.jsonl"
    for what in $exports; do
      "$cli" export --project "$project" --run "$run" --what "$what" --out "$out/$tag.$what.csv" 2>/dev/null
    done
    "$cli" export --project "$project" --run "$run" --what metrics --out - |
      awk -F, 'NR == 1 { for (i = 1; i <= NF; ++i) if ($i == "seconds") col = i } { $col = ""; print }' OFS=, \
        >"$out/$tag.metrics.csv"
  done
done
rm -f "$project" "$project-wal" "$project-shm"
(cd "$out" && sha256sum -- * >SHA256SUMS)
echo "recorded ${#runs[@]} runs x 2 thread counts in $out"
