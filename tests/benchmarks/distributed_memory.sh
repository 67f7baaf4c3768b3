#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# Peak memory of each process of lda-gibbs --distributed (issue 22): one sparse chain of K topics
# and SWEEPS sweeps (one start, one thread per process, 10% held out, seed 1) on a copy of PROJECT's
# DATASET, run by `mpirun -np` each of the process counts given, with /usr/bin/time around each
# process. Prints each process's peak resident set (MB), mpirun's wall seconds, the bytes process 0
# sent of the dataset and the log joint (the same for a given seed and process count, whatever
# the binary: a way to check that two binaries sample the same chain).
#
#   bash tests/benchmarks/distributed_memory.sh CLI PROJECT DATASET K SWEEPS NP...
set -euo pipefail
cli=$(realpath "$1") project=$(realpath "$2") dataset=$3 k=$4 sweeps=$5
shift 5
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
printf '%-4s %-40s %8s %14s %22s\n' np peak_mb_per_process wall_s dataset_bytes log_joint
for np in "$@"; do
  sqlite3 "$project" ".backup $work/p.latent"
  start=$(date +%s.%N)
  mpirun --oversubscribe --allow-run-as-root --mca mpi_yield_when_idle 1 -np "$np" bash -c \
    "/usr/bin/time -f %M -o $work/peak_\$OMPI_COMM_WORLD_RANK $cli fit lda-gibbs --project $work/p.latent \
     --dataset $dataset --k $k --iterations $sweeps --restarts 1 --sampler sparse --threads 1 --seed 1 \
     --heldout 0.1 --eval-every $sweeps --distributed --json" >"$work/out.json"
  end=$(date +%s.%N)
  peaks=""
  for ((r = 0; r < np; ++r)); do peaks+="$(awk '{printf "%.1f", $1 / 1000}' "$work/peak_$r") "; done
  /usr/bin/python3 - "$np" "$peaks" "$start" "$end" "$work/out.json" <<'PY'
import json, sys
np, peaks, start, end, out = sys.argv[1:]
final = json.loads(open(out).read().strip().splitlines()[-1])
sent = final.get("dataset_sent_bytes", final.get("dataset_broadcast_bytes", 0))
print(f"{np:<4} {peaks:<40} {float(end) - float(start):8.2f} {sent:14d} {final['log_joint']:22.9f}")
PY
  rm -f "$work/p.latent" "$work/p.latent-wal" "$work/p.latent-shm"
done
