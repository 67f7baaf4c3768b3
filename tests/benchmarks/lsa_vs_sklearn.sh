#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# lsa against scikit-learn's TruncatedSVD (randomized and arpack) and gensim's LsiModel (peers/lsa_peers.py):
# fit seconds, captured share of the squared Frobenius norm and the singular values at the same K, on the
# training documents' tf-idf matrix of the State of the Union sample and of Cora, imported into a temporary
# project. Needs Debian's /usr/bin/python3 with python3-sklearn and python3-gensim (and libopenblas0-pthread).
# The Python script sets OMP/OPENBLAS/MKL_NUM_THREADS to THREADS before it imports numpy, so both sides use
# THREADS threads.
#
#   bash tests/benchmarks/lsa_vs_sklearn.sh build/app/cli/latent-cli [KS] [RUNS] [THREADS] [SEED] [DATASETS] [PEERS]
# KS: comma-separated K values (default 100,20). DATASETS: comma-separated, of sotu and cora (default sotu,cora).
# PEERS: comma-separated, of randomized, arpack and gensim (default all three).
set -euo pipefail
cli=$(realpath "$1")
ks=${2:-100,20} runs=${3:-3} threads=${4:-1} seed=${5:-1} datasets=${6:-sotu,cora}
peers=${7:-randomized,arpack,gensim}
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
  for K in ${ks//,/ }; do
    /usr/bin/python3 "$here/peers/lsa_peers.py" --cli "$cli" --project "$work/p.latent" --dataset "$dataset" \
      --k "$K" --runs "$runs" --threads "$threads" --seed "$seed" --peers "$peers" --work "$work/split-$dataset"
  done
done
