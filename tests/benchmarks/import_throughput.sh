#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# Import throughput and peak memory of `latent-cli import corpus` on a generated corpus.
# Usage: tests/benchmarks/import_throughput.sh [MEGABYTES=200] [RUNS=3]
# Prints, per run, seconds, MB/s, tokens/s and peak resident memory, then the medians.
set -euo pipefail
cd "$(dirname "$0")/../.."
megabytes=${1:-200}
runs=${2:-3}

cmake -S . -B build-bench -G Ninja -DCMAKE_BUILD_TYPE=Release -DLATENT_BUILD_GUI=OFF -DLATENT_BUILD_TESTS=OFF \
  -DLATENT_BUILD_BENCHMARKS=ON >/dev/null
cmake --build build-bench --parallel >/dev/null

data=tests/benchmarks/data
mkdir -p "$data"
corpus="$data/corpus-${megabytes}mb.txt"
[[ -f "$corpus" ]] || build-bench/tests/benchmarks/generate-corpus "$corpus" "$megabytes"
bytes=$(stat -c %s "$corpus")

results=()
for i in $(seq 1 "$runs"); do
  project="$data/bench.latent"
  rm -f "$project" "$project-wal" "$project-shm"
  /usr/bin/time -f "%e %M" -o "$data/time.txt" \
    build-bench/app/cli/latent-cli import corpus --project "$project" --name bench --source "$corpus" \
    --format lines --json > "$data/import.json"
  read -r seconds kib < "$data/time.txt"
  tokens=$(grep -o '"tokens_seen":[0-9]*' "$data/import.json" | cut -d: -f2)
  line=$(awk -v s="$seconds" -v b="$bytes" -v t="$tokens" -v k="$kib" \
    'BEGIN { printf "%.2f s  %.1f MB/s  %.2f M tokens/s  peak %.0f MB", s, b/1048576/s, t/1e6/s, k/1024 }')
  echo "run $i: $line"
  results+=("$seconds $kib $tokens")
done
printf '%s\n' "${results[@]}" | sort -n | awk -v b="$bytes" -v n="$runs" '
  { s[NR]=$1; k[NR]=$2; t=$3 } END {
    m=s[int((n+1)/2)]; printf "median of %d: %.2f s, %.1f MB/s, %.2f M tokens/s (input %.0f MB, %.1f M tokens)\n", n, m, b/1048576/m, t/1e6/m, b/1048576, t/1e6 }'
sort -n -k2 <(printf '%s\n' "${results[@]}") | tail -1 | awk '{ printf "peak resident memory (worst run): %.0f MB\n", $2/1024 }'
