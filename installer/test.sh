#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# README command 2 (and all of CI): install what is missing, check the formatting
# (installer/format-check.sh, first, so a misformatted file fails in seconds), build optimised (-O2,
# no debug information) with warnings as errors and run every test suite, then build the engine's
# test folders again with AddressSanitizer and UndefinedBehaviorSanitizer at -O1 and run those
# (core, io, store, models, jobs) under them. The evidence suites (the long statistical checks), cli
# and ui run once, in the optimised build; the sanitizer build compiles nothing it does not run.
#
# For local use only: LATENT_SKIP_FORMAT_CHECK=1 skips the formatting check (to time or try the rest
# on a tree that is not formatted yet). CI (.ci/run) never sets it.
set -euo pipefail
cd "$(dirname "$0")/.."
jobs=$(nproc)

bash installer/install-deps.sh

if [[ "${LATENT_SKIP_FORMAT_CHECK:-}" == 1 ]]; then
  echo "== formatting check skipped (LATENT_SKIP_FORMAT_CHECK=1, local use only)"
else
  echo "== formatting check"
  bash installer/format-check.sh
fi

echo "== build and test (optimised, warnings are errors)"
cmake -S . -B build-test -G Ninja -DCMAKE_BUILD_TYPE=Release -DCMAKE_CXX_FLAGS_RELEASE="-O2 -DNDEBUG" \
  -DLATENT_WERROR=ON
cmake --build build-test --parallel "$jobs"
(cd build-test && QT_QPA_PLATFORM=offscreen ctest --output-on-failure --parallel "$jobs")

echo "== engine tests under AddressSanitizer and UndefinedBehaviorSanitizer"
engine=(core io store models jobs)
cmake -S . -B build-asan -G Ninja -DCMAKE_BUILD_TYPE=Debug -DCMAKE_CXX_FLAGS_DEBUG="-O1 -g1" -DLATENT_WERROR=ON \
  -DLATENT_SANITIZE=ON -DLATENT_BUILD_GUI=OFF
cmake --build build-asan --parallel "$jobs" --target "${engine[@]/#/tests_}"
(cd build-asan && ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1 \
  ctest --output-on-failure --parallel "$jobs" -L "^($(IFS='|'; echo "${engine[*]}"))\$")

echo "== all tests passed"
