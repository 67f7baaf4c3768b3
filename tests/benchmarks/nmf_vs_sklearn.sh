#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# nmf against scikit-learn's NMF (peers/nmf_peers.py): fit seconds and training loss at the same K and the
# same number of iterations, for (kl, mu), (frobenius, mu) and (frobenius, hals = sklearn's cd), on
# the State of the Union sample and on Cora, imported into a temporary project. Needs Debian's
# /usr/bin/python3 with python3-sklearn (and libopenblas0-pthread). The Python script sets
# OMP/OPENBLAS/MKL_NUM_THREADS to THREADS before it imports numpy, so both sides use THREADS threads.
#
#   bash tests/benchmarks/nmf_vs_sklearn.sh build/app/cli/latent-cli [K] [ITERATIONS] [RUNS] [THREADS] [SEED] [DATASETS]
# DATASETS: comma-separated, of sotu and cora (default sotu,cora).
set -euo pipefail
cli=$(realpath "$1")
K=${2:-20} iterations=${3:-200} runs=${4:-3} threads=${5:-1} seed=${6:-1} datasets=${7:-sotu,cora}
here=$(dirname "$(realpath "$0")")
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cora=$here/../../../shared/datasets/cora
for dataset in ${datasets//,/ }; do
  case $dataset in
    sotu) "$cli" import corpus --project "$work/p.latent" --name sotu \
            --source "$here/../../resources/samples/sotu/sotu.jsonl" >/dev/null ;;
    cora) "$cli" import corpus --project "$work/p.latent" --name cora --format uci \
            --source "$cora/docword.cora.txt" --vocab "$cora/vocab.cora.txt" >/dev/null ;;
    *) echo "unknown dataset $dataset (sotu or cora)" >&2; exit 2 ;;
  esac
  /usr/bin/python3 "$here/peers/nmf_peers.py" --cli "$cli" --project "$work/p.latent" --dataset "$dataset" \
    --k "$K" --iterations "$iterations" --runs "$runs" --threads "$threads" --seed "$seed" --work "$work/split-$dataset"
done
