#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# Strong scaling of lda-gibbs --distributed (issue 22): one chain of P partitions (default 4) on
# the State of the Union sample, run by one process without mpirun, then by mpirun -np 1, 2 and
# 4 processes (one thread each), all the same chain bit for bit (the script checks the log
# joints agree). Prints each run's sampling seconds, tokens per second, speed-up over the
# one-process run, process 0's sampling CPU seconds (its share of the work, plus Open MPI's
# spinning when it waits without yield) and the bytes process 0 sent per sweep (ring shifts and
# totals' sums).
# On a 2-core machine 2 processes can show at most the 2x of two cores and 4 processes are
# oversubscribed: what it shows is the communication's overhead, not a cluster's scaling
# (docs/DISTRIBUTED.md has the model for that). The runs marked "yield" add
# --mca mpi_yield_when_idle 1: Open MPI otherwise spins while a process waits for the others,
# taking the core a process of the same run (or another job) needs.
#
#   bash tests/benchmarks/distributed_scaling.sh build/app/cli/latent-cli [K] [SWEEPS] [PARTITIONS]
set -euo pipefail
cli=$(realpath "$1")
k=${2:-100} sweeps=${3:-100} partitions=${4:-4}
here=$(dirname "$(realpath "$0")")
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
"$cli" import corpus --project "$work/p.latent" --name sotu \
  --source "$here/../../resources/samples/sotu/sotu.jsonl" >/dev/null
fit=(fit lda-gibbs --project "$work/p.latent" --dataset sotu --k "$k" --iterations "$sweeps" --restarts 1
     --partitions "$partitions" --threads 1 --heldout 0.1 --seed 1 --eval-every "$sweeps" --json)
printf '%-26s %9s %9s %12s %8s %14s %12s\n' run sampling_s cpu_s tokens_per_s speedup bytes_per_sweep log_joint
base="" joint=""
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
  read -r seconds cpu rate bytes lj < <(/usr/bin/python3 -c "
import json, sys
j = json.loads(sys.argv[1])
print(j['sampling_seconds'], j['sampling_cpu_seconds'], j['tokens_per_second'],
      j.get('communicated_bytes_per_sweep', 0), repr(j['log_joint']))" "$line")
  base=${base:-$seconds}
  joint=${joint:-$lj}
  [[ $lj == "$joint" ]] || { echo "log joint $lj differs from the one-process run's $joint" >&2; exit 1; }
  printf '%-26s %9.2f %9.2f %12.0f %8.2f %14.0f %12s\n' "$name" "$seconds" "$cpu" "$rate" \
    "$(/usr/bin/python3 -c "print($base / $seconds)")" "$bytes" "$lj"
done
