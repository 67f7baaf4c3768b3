#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# README command 2 (and all of CI): install what is missing, check the formatting
# (installer/format-check.sh, first, so a misformatted file fails in seconds), then compile and run
# every test suite once, with warnings as errors:
# - optimised (-O2, no debug information): the engine and the evidence suites (the long statistical
#   checks); the front ends (latent_ui, latent-studio, latent-cli) and tests_ui at -O0, since they
#   only arrange and ask for the engine's work, which halves their compile time
#   (LATENT_FRONT_END_FLAGS); the cli suite;
# - with AddressSanitizer and UndefinedBehaviorSanitizer at -Og: the engine and its suites (core,
#   io, store, models, jobs), which are correctness checks and gain most from the sanitizers. The
#   engine is instrumented; the suites' own code is linked with the sanitizers but not instrumented
#   (tests/CMakeLists.txt says why).
# Both builds are unity builds (LATENT_UNITY_BUILD), which halves the time they take to compile.
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

# GCC collects its own garbage whenever its heap has grown by a fraction of its size, which took 5-6%
# of a unit's compile time (-ftime-report's "garbage collection"); these let a unit's heap grow to
# 2 GB first, and a unit peaks at about 2 GB instead of 1.7 GB.
compiler_heap="--param=ggc-min-expand=400 --param=ggc-min-heapsize=2097152"

engine=(core io store models jobs)
engine_folders="$(IFS=';'; echo "${engine[*]}")"
engine_labels="^($(IFS='|'; echo "${engine[*]}"))\$"

echo "== build and test (optimised, warnings are errors): applications, evidence, cli, ui"
cmake -S . -B build-test -G Ninja -DCMAKE_BUILD_TYPE=Release -DCMAKE_CXX_FLAGS="$compiler_heap" \
  -DCMAKE_CXX_FLAGS_RELEASE="-O2 -DNDEBUG" \
  -DLATENT_WERROR=ON -DLATENT_UNITY_BUILD=ON -DLATENT_TEST_FOLDERS="evidence;cli;ui" -DLATENT_FRONT_END_FLAGS=-O0
cmake --build build-test --parallel "$jobs"
(cd build-test && QT_QPA_PLATFORM=offscreen ctest --output-on-failure --parallel "$jobs")

echo "== engine tests under AddressSanitizer and UndefinedBehaviorSanitizer: ${engine[*]}"
# GCC's maybe-uninitialized misfires at -Og (on std::stop_source); the optimised build keeps it for the engine.
cmake -S . -B build-asan -G Ninja -DCMAKE_BUILD_TYPE=Debug -DCMAKE_CXX_FLAGS="$compiler_heap" \
  -DCMAKE_CXX_FLAGS_DEBUG="-Og -g1 -Wno-maybe-uninitialized" \
  -DLATENT_WERROR=ON -DLATENT_SANITIZE=ON -DLATENT_BUILD_GUI=OFF -DLATENT_UNITY_BUILD=ON -DLATENT_TEST_FOLDERS="$engine_folders"
cmake --build build-asan --parallel "$jobs" --target "${engine[@]/#/tests_}"
(cd build-asan && ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1 \
  ctest --output-on-failure --parallel "$jobs" -L "$engine_labels")

echo "== all tests passed"
