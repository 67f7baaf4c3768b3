// SPDX-License-Identifier: GPL-3.0-or-later
// Seeding and the non-uniform draws of Rng.
#include "core/util/random.hpp"

#include <cmath>

namespace latent::core {
namespace {

std::uint64_t splitmix64(std::uint64_t& state) noexcept {
  std::uint64_t z = (state += 0x9E3779B97F4A7C15ULL);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
  return z ^ (z >> 31);
}

}  // namespace

Rng::Rng(std::uint64_t seed, std::uint64_t stream) noexcept {
  // Mix the stream index in through a second SplitMix64 so that (seed, stream) pairs that are
  // close together still start far apart.
  std::uint64_t state = seed;
  std::uint64_t mixed = splitmix64(state);
  state = mixed ^ (stream * 0xD1B54A32D192ED03ULL + 0x8CB92BA72F3D8DD7ULL);
  for (auto& word : m_s) word = splitmix64(state);
}

double Rng::normal() noexcept {
  if (m_haveSpare) {
    m_haveSpare = false;
    return m_spare;
  }
  double u, v, s;
  do {
    u = 2.0 * uniform() - 1.0;
    v = 2.0 * uniform() - 1.0;
    s = u * u + v * v;
  } while (s >= 1.0 || s == 0.0);
  const double factor = std::sqrt(-2.0 * std::log(s) / s);
  m_spare = v * factor;
  m_haveSpare = true;
  return u * factor;
}

double Rng::gamma(double shape) noexcept {
  if (shape < 1.0) {
    // Boost small shapes: Gamma(a) = Gamma(a + 1) * U^(1/a).
    const double u = uniform();
    return gamma(shape + 1.0) * std::pow(u > 0.0 ? u : 0x1.0p-53, 1.0 / shape);
  }
  const double d = shape - 1.0 / 3.0;
  const double c = 1.0 / std::sqrt(9.0 * d);
  for (;;) {
    double x, v;
    do {
      x = normal();
      v = 1.0 + c * x;
    } while (v <= 0.0);
    v = v * v * v;
    const double u = uniform();
    if (u < 1.0 - 0.0331 * x * x * x * x) return d * v;
    if (std::log(u) < 0.5 * x * x + d * (1.0 - v + std::log(v))) return d * v;
  }
}

}  // namespace latent::core
