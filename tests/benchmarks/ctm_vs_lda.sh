#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# ctm against lda-vb at equal K on the same split: held-out perplexity by document completion (and
# fit seconds, iterations, the topics' pseudo-count each ended with) on the State of the Union
# sample and on Cora, for several K and seeds (each seed its own 10% of held-out documents, the
# same for both models), imported into a temporary project. Both at their defaults; then the median
# perplexity over the seeds of each dataset, K and model.
#
#   bash tests/benchmarks/ctm_vs_lda.sh build/app/cli/latent-cli [KS] [SEEDS] [DATASETS] [CTM_OPTIONS]
# KS and SEEDS comma-separated (default 5,10,20,40 and 1,2,3,4,5); DATASETS of sotu and cora;
# CTM_OPTIONS more options for ctm alone, such as "--shrinkage 0.5".
set -euo pipefail
cli=$(realpath "$1")
ks=${2:-5,10,20,40} seeds=${3:-1,2,3,4,5} datasets=${4:-sotu,cora}
read -r -a ctm_options <<<"${5:-}"
here=$(dirname "$(realpath "$0")")
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cora=$here/../../../shared/datasets/cora
printf '%-6s %-4s %-5s %-7s %10s %8s %6s %8s\n' dataset K seed model perplexity seconds iters beta
for dataset in ${datasets//,/ }; do
  case $dataset in
    sotu) "$cli" import corpus --project "$work/p.latent" --name sotu \
            --source "$here/../../resources/samples/sotu/sotu.jsonl" >/dev/null ;;
    cora) "$cli" import corpus --project "$work/p.latent" --name cora --format uci \
            --source "$cora/docword.cora.txt" --vocab "$cora/vocab.cora.txt" >/dev/null ;;
    *) echo "unknown dataset $dataset (sotu or cora)" >&2; exit 2 ;;
  esac
  for k in ${ks//,/ }; do
    for seed in ${seeds//,/ }; do
      for model in ctm lda-vb; do
        extra=()
        [ "$model" = ctm ] && extra=("${ctm_options[@]}")
        "$cli" fit "$model" --project "$work/p.latent" --dataset "$dataset" --k "$k" --seed "$seed" \
          --heldout 0.1 "${extra[@]}" --json | tail -1 |
          /usr/bin/python3 -c "
import json, sys
j = json.loads(sys.stdin.read())
beta = j.get('beta', j.get('eta', float('nan')))
print('%-6s %-4s %-5s %-7s %10.1f %8.1f %6d %8.4f' % ('$dataset', $k, $seed, '$model', j['heldout_perplexity'],
      j['seconds'], j['iterations'], beta))" | tee -a "$work/rows"
      done
    done
  done
done
echo
echo "median held-out perplexity over seeds $seeds"
/usr/bin/python3 - "$work/rows" <<'PY'
import statistics, sys
cells = {}
for line in open(sys.argv[1]):
    dataset, k, _, model, perplexity = line.split()[:5]
    cells.setdefault((dataset, int(k)), {}).setdefault(model, []).append(float(perplexity))
print('%-6s %-4s %10s %10s %8s' % ('dataset', 'K', 'ctm', 'lda-vb', 'ctm/lda'))
for (dataset, k), models in sorted(cells.items()):
    ctm, lda = statistics.median(models['ctm']), statistics.median(models['lda-vb'])
    print('%-6s %-4s %10.1f %10.1f %8.4f' % (dataset, k, ctm, lda, ctm / lda))
PY
