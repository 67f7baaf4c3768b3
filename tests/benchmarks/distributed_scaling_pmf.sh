#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# Strong scaling of pmf --distributed with ALS (issue 22): ratings drawn from a planted low-rank
# model (as pmf-speed's: 20,000 users, 10,000 items, K = 5, noise sd 0.5; RATINGS of them, default
# 1M), fitted by one process without mpirun, then by mpirun -np 1, 2 and 4 processes (one thread
# each), every run the same fit bit for bit (the script checks the training objective and the
# held-out RMSE). Prints each run's solver seconds (wall), process 0's solver CPU seconds (its share
# of the work, plus Open MPI's spinning while it waits without yield), the speed-up over the
# one-process run and the bytes process 0 sent per sweep (its blocks of users and items).
# With implicit feedback (IMPLICIT true, pmf's default) the y_j step, a sequential pass over the
# items, runs whole on every process: only the user and item halves divide (docs/DISTRIBUTED.md).
# On a 2-core machine 2 processes can show at most the 2x of two cores and 4 are oversubscribed;
# the runs marked "yield" add --mca mpi_yield_when_idle 1 (see distributed_scaling.sh).
#
#   bash tests/benchmarks/distributed_scaling_pmf.sh build/app/cli/latent-cli [K] [SWEEPS] [IMPLICIT] [RATINGS]
set -euo pipefail
cli=$(realpath "$1")
k=${2:-20} sweeps=${3:-10} implicit=${4:-false} ratings=${5:-1000000}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
/usr/bin/python3 - "$work/ratings.csv" "$ratings" <<'PY'
import sys
import numpy as np
path, n = sys.argv[1], int(sys.argv[2])
users, items, k, rng = 20000, 10000, 5, np.random.default_rng(1)
cells = rng.choice(users * items, size=n, replace=False)
u, i = cells // items, cells % items
U = rng.normal(0, 1 / np.sqrt(np.sqrt(k)), (users, k))
V = rng.normal(0, 1 / np.sqrt(np.sqrt(k)), (items, k))
r = 3.5 + rng.normal(0, 0.3, users)[u] + rng.normal(0, 0.3, items)[i] + (U[u] * V[i]).sum(1) + rng.normal(0, 0.5, n)
with open(path, "w") as f:
    f.write("user,item,rating\n")
    f.writelines(f"u{a},i{b},{c:.4f}\n" for a, b, c in zip(u, i, r))
PY
"$cli" import ratings --project "$work/p.latent" --name planted --source "$work/ratings.csv" \
  --user-column user --item-column item --rating-column rating >/dev/null
fit=(fit pmf --project "$work/p.latent" --dataset planted --k "$k" --iterations "$sweeps" --implicit "$implicit"
     --threads 1 --heldout 0.1 --seed 1 --eval-every "$sweeps" --snapshot-every 0 --json)
printf '%-22s %9s %9s %8s %16s %20s\n' run solver_s cpu_s speedup bytes_per_sweep heldout_rmse
base="" rmse=""
for run in 0 1 2 4 2y 4y; do
  np=${run%y} extra=()
  [[ $run == *y ]] && extra=(--mca mpi_yield_when_idle 1)
  if [[ $np == 0 ]]; then
    name="one process"
    line=$("$cli" "${fit[@]}" | tail -1)
  else
    name="mpirun -np $np${extra:+ (yield)}"
    line=$(mpirun --oversubscribe --allow-run-as-root "${extra[@]}" -np "$np" "$cli" "${fit[@]}" --distributed |
      tail -1)
  fi
  read -r seconds cpu bytes held < <(/usr/bin/python3 -c "
import json, sys
j = json.loads(sys.argv[1])
print(j['solver_seconds'], j['solver_cpu_seconds'], j.get('communicated_bytes_per_sweep', 0),
      repr(j['heldout_rmse']) + '/' + repr(j['train_objective']))" "$line")
  base=${base:-$seconds}
  rmse=${rmse:-$held}
  [[ $held == "$rmse" ]] || { echo "held-out RMSE/objective $held differ from the one-process run's $rmse" >&2; exit 1; }
  printf '%-22s %9.2f %9.2f %8.2f %16.0f %20s\n' "$name" "$seconds" "$cpu" \
    "$(/usr/bin/python3 -c "print($base / $seconds)")" "$bytes" "${held%%/*}"
done
