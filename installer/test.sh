#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# README command 2 (and all of CI): install what is missing, build with warnings as errors, run
# every test suite, then build the engine again with AddressSanitizer and UndefinedBehaviorSanitizer
# and run the engine's suites (core, io, store, models, jobs) under them.
set -euo pipefail
cd "$(dirname "$0")/.."
jobs=$(nproc)

bash installer/install-deps.sh

echo "== build and test (warnings are errors)"
cmake -S . -B build-test -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DLATENT_WERROR=ON
cmake --build build-test --parallel "$jobs"
(cd build-test && QT_QPA_PLATFORM=offscreen ctest --output-on-failure --parallel "$jobs")

echo "== engine tests under AddressSanitizer and UndefinedBehaviorSanitizer"
cmake -S . -B build-asan -G Ninja -DCMAKE_BUILD_TYPE=Debug -DLATENT_WERROR=ON -DLATENT_SANITIZE=ON \
  -DLATENT_BUILD_GUI=OFF
cmake --build build-asan --parallel "$jobs"
(cd build-asan && ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1 \
  ctest --output-on-failure --parallel "$jobs" -L 'core|io|store|models|jobs')

echo "== all tests passed"
