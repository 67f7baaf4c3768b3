#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# dmr against lda-gibbs at equal K and sweeps on the same split: held-out perplexity by document
# completion on the State of the Union sample (time = year, label = party), for several seeds
# (each seed its own 20% of held-out documents, the same for both models), with the medians.
# dmr's features are FEATURES (default "time,label"); both models otherwise at their defaults.
#
#   bash tests/benchmarks/dmr_vs_lda.sh build/app/cli/latent-cli [K] [ITERATIONS] [SEEDS] [FEATURES] [OPTIONS] [MODELS]
# SEEDS comma-separated (default 1,2,3,4,5); OPTIONS further flags for every model fitted (e.g. "--time-bins 4" with MODELS dmr);
# MODELS the models to fit (default dmr,lda-gibbs; the comparison lines need both).
set -euo pipefail
cli=$(realpath "$1")
k=${2:-20} iterations=${3:-500} seeds=${4:-1,2,3,4,5} features=${5:-time,label} extra=${6:-} models=${7:-dmr,lda-gibbs}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
"$cli" import sample --project "$work/p.latent" --sample sotu >/dev/null
printf '%-9s %-4s %-5s %10s %8s\n' model K seed perplexity seconds
for seed in ${seeds//,/ }; do
  for model in ${models//,/ }; do
    flags=()
    [ "$model" = dmr ] && flags=(--features "$features")
    # shellcheck disable=SC2206
    [ -n "$extra" ] && flags+=($extra)
    "$cli" fit "$model" --project "$work/p.latent" --dataset sotu --k "$k" --iterations "$iterations" \
      --seed "$seed" --heldout 0.2 "${flags[@]}" --json | tail -1 |
      /usr/bin/python3 -c "
import json, sys
j = json.loads(sys.stdin.read())
print('%-9s %-4s %-5s %10.1f %8.1f' % ('$model', $k, $seed, j['heldout_perplexity'], j['seconds']))"
  done
done | tee "$work/rows.txt"
/usr/bin/python3 - "$work/rows.txt" <<'PY'
import statistics, sys
rows = [line.split() for line in open(sys.argv[1])]
by_model = {}
for r in rows:
    by_model.setdefault(r[0], {})[r[2]] = float(r[3])
for model, values in by_model.items():
    print('median %-9s %10.1f  (%d seeds)' % (model, statistics.median(values.values()), len(values)))
if len(by_model) == 2:
    (a, x), (b, y) = by_model.items()
    seeds = sorted(set(x) & set(y))
    print('%s below %s on %d of %d seeds' % (a, b, sum(1 for s in seeds if x[s] < y[s]), len(seeds)))
PY
