#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# rbm-ratings against pmf on InstEval (000 §27.7.3.2: the categorical RBM alone about matches a
# factor model, and the average of the two beats each): both fitted with their defaults on the
# same held-out split and seed, the held-out pairs predicted with each through `latent-cli
# predict`, and the RMSE of each and of their average computed here from the predictions.
#
#   bash tests/benchmarks/ratings_rbm_vs_pmf.sh build/app/cli/latent-cli [SEED] [rbm-ratings options...]
set -euo pipefail
cli=$(realpath "$1")
seed=${2:-1}
shift $(($# < 2 ? $# : 2))
here=$(dirname "$(realpath "$0")")
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
insteval=$here/../../../shared/datasets/insteval/ratings.csv
[[ -f $insteval ]] || insteval=$here/../../resources/samples/insteval/ratings.csv
"$cli" import ratings --project "$work/p.latent" --name insteval --source "$insteval" --format csv \
  --user-column student --item-column lecturer --rating-column rating >/dev/null
"$cli" heldout-split --project "$work/p.latent" --dataset insteval --heldout 0.1 --seed "$seed" \
  --out "$work/split" >/dev/null
cut -d, -f1,2 "$work/split/heldout.csv" >"$work/pairs.csv"
for model in pmf rbm-ratings; do
  extra=()
  [[ $model == rbm-ratings ]] && extra=("$@")
  "$cli" fit "$model" --project "$work/p.latent" --dataset insteval --heldout 0.1 --seed "$seed" --threads 1 \
    --json "${extra[@]}" >"$work/$model.jsonl"
  run=$(tail -n 1 "$work/$model.jsonl" | sed -E 's/.*"run":([0-9]+).*/\1/')
  echo "$model: fit reports $(tail -n 1 "$work/$model.jsonl" | grep -o '"heldout_rmse":[0-9.]*')," \
    "$(tail -n 1 "$work/$model.jsonl" | grep -o '"seconds":[0-9.]*' | head -n 1)"
  "$cli" predict --project "$work/p.latent" --run "$run" --pairs "$work/pairs.csv" --out "$work/$model.csv"
done
# heldout.csv and both predictions list the pairs in the same order: user,item,rating | ...,prediction
paste -d, <(tail -n +2 "$work/split/heldout.csv") <(tail -n +2 "$work/pmf.csv" | cut -d, -f3) \
  <(tail -n +2 "$work/rbm-ratings.csv" | cut -d, -f3) |
  awk -F, '{ n++; p = $3 - $4; r = $3 - $5; a = $3 - ($4 + $5) / 2; sp += p * p; sr += r * r; sa += a * a }
    END { printf "held-out ratings %d (seed '"$seed"')\npmf         RMSE %.4f\nrbm-ratings RMSE %.4f\naverage     RMSE %.4f\n",
          n, sqrt(sp / n), sqrt(sr / n), sqrt(sa / n) }'
