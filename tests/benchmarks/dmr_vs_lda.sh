#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# dmr against lda-gibbs at equal K and sweeps on the same split: held-out perplexity by document
# completion on the State of the Union sample (time = year, label = party), for several seeds
# (each seed its own 20% of held-out documents, the same for both models), with the medians.
# dmr's features are FEATURES (default "time,label"); both models otherwise at their defaults.
#
#   bash tests/benchmarks/dmr_vs_lda.sh build/app/cli/latent-cli [K] [ITERATIONS] [SEEDS] [FEATURES] [DMR_OPTIONS]
# SEEDS comma-separated (default 1,2,3,4,5); DMR_OPTIONS further flags for dmr (e.g. "--time-bins 4").
set -euo pipefail
cli=$(realpath "$1")
k=${2:-20} iterations=${3:-500} seeds=${4:-1,2,3,4,5} features=${5:-time,label} extra=${6:-}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
"$cli" import sample --project "$work/p.latent" --sample sotu >/dev/null
printf '%-9s %-4s %-5s %10s %8s\n' model K seed perplexity seconds
for seed in ${seeds//,/ }; do
  for model in dmr lda-gibbs; do
    flags=()
    if [ "$model" = dmr ]; then
      flags=(--features "$features")
      # shellcheck disable=SC2206
      [ -n "$extra" ] && flags+=($extra)
    fi
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
for model in ('dmr', 'lda-gibbs'):
    values = [float(r[3]) for r in rows if r[0] == model]
    print('median %-9s %10.1f  (%d seeds)' % (model, statistics.median(values), len(values)))
wins = sum(1 for a, b in zip(rows[0::2], rows[1::2]) if float(a[3]) < float(b[3]))
print('dmr below lda-gibbs on %d of %d seeds' % (wins, len(rows) // 2))
PY
