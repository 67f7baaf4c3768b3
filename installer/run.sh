#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# README command 1: install what is missing, build, and start Latent Studio on its built-in sample.
# Without a display, says so and runs the same sample headless through latent-cli instead.
set -euo pipefail
cd "$(dirname "$0")/.."

bash installer/install-deps.sh
cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=Release -DLATENT_BUILD_TESTS=OFF
cmake --build build --parallel

if [[ -n "${DISPLAY:-}" || -n "${WAYLAND_DISPLAY:-}" ]]; then
  exec build/app/gui/latent-studio --demo corpus-unigram
fi

echo
echo "No display is available, so the window cannot open. Running the same sample headless:"
echo "the State of the Union corpus, fitted with the unigram model, 10% of the documents held out."
echo
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cli=build/app/cli/latent-cli
project="$work/demo.latent"
"$cli" import sample --project "$project" --sample sotu
"$cli" fit unigram --project "$project" --dataset sotu --heldout 0.1 --seed 1
echo
echo "The 15 most probable words:"
"$cli" export --project "$project" --run 1 --what topic-word --out "$work/words.csv"
# awk reads to the end (no head): under pipefail an early close would fail the pipeline with SIGPIPE.
tail -n +2 "$work/words.csv" | sort -t, -k3 -g -r | awk -F, 'NR <= 15 { printf "  %-14s %.4f\n", $2, $3 }'
