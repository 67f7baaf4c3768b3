#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# Installs the Debian 12 packages Latent Studio needs to build, test and run, and nothing else.
# Idempotent: packages already installed are left alone, and apt is not touched when none is
# missing. Runs apt through sudo when not root.
set -euo pipefail

packages=(
  # toolchain
  g++ cmake ninja-build pkg-config
  # the formatting check (installer/format-check.sh)
  clang-format
  # Qt 6 widgets, charts (which needs the OpenGL dev package) and SVG
  qt6-base-dev qt6-charts-dev libqt6opengl6-dev qt6-svg-dev
  # the engine's libraries
  libeigen3-dev libspectra-dev libtbb-dev libsqlite3-dev libicu-dev libigraph-dev nlohmann-json3-dev libcli11-dev zlib1g-dev
  liblapack-dev
  # Open MPI: latent-cli fit --distributed and its tests (mpicxx, mpirun)
  libopenmpi-dev openmpi-bin
  # a real window without a screen, and a font to draw it with
  xvfb xauth fonts-dejavu-core
)

missing=()
for p in "${packages[@]}"; do
  status=$(dpkg-query -W -f='${Status}' "$p" 2>/dev/null || true)
  [[ "$status" == "install ok installed" ]] || missing+=("$p")
done

if [[ ${#missing[@]} -eq 0 ]]; then
  echo "install-deps: all ${#packages[@]} packages are installed"
  exit 0
fi

if [[ $(id -u) -eq 0 ]]; then
  sudo=()
elif command -v sudo >/dev/null; then
  sudo=(sudo)
else
  echo "install-deps: missing packages (${missing[*]}) and no root rights; install them as root" >&2
  exit 1
fi

echo "install-deps: installing ${missing[*]}"
export DEBIAN_FRONTEND=noninteractive
"${sudo[@]}" apt-get update -q
"${sudo[@]}" apt-get install -y -q --no-install-recommends "${missing[@]}"
