#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# Checks that every C++ file git tracks (*.cpp, *.hpp) is formatted as the repository's .clang-format
# says, with Debian 12's clang-format (14); exits non-zero naming the files that are not.
# `clang-format -i FILE...` formats them. installer/test.sh runs this first.
set -euo pipefail
cd "$(dirname "$0")/.."

if ! command -v clang-format >/dev/null; then
  echo "format-check: clang-format is missing (bash installer/install-deps.sh installs it)" >&2
  exit 1
fi

mapfile -t files < <(git ls-files '*.cpp' '*.hpp')
if [[ ${#files[@]} -eq 0 ]]; then
  echo "format-check: git lists no C++ files here" >&2
  exit 1
fi

if report=$(clang-format --dry-run -Werror "${files[@]}" 2>&1); then
  echo "format-check: ${#files[@]} files formatted"
  exit 0
fi

# Each difference is reported as "FILE:LINE:COLUMN: error: code should be clang-formatted".
mapfile -t off < <(sed -n 's/^\(.*\):[0-9]*:[0-9]*: error: code should be clang-formatted.*/\1/p' <<<"$report" | sort -u)
if [[ ${#off[@]} -eq 0 ]]; then
  echo "$report" >&2
  echo "format-check: clang-format failed" >&2
  exit 1
fi
echo "format-check: ${#off[@]} of ${#files[@]} files are not formatted (clang-format -i FILE...):" >&2
printf '  %s\n' "${off[@]}" >&2
exit 1
