// SPDX-License-Identifier: GPL-3.0-or-later
// Seeded random streams that give the same numbers on every platform and thread schedule.
#pragma once

#include <cstdint>
#include <span>
#include <utility>

namespace latent::core {

// xoshiro256++ (Blackman & Vigna 2019) seeded through SplitMix64. The standard library's
// distributions differ between implementations, so the draws we need are written here.
// Each data partition takes its own stream, Rng(seed, partition), so that results depend on the
// seed and the partitioning, never on which thread ran which partition (STYLE §3).
class Rng {
 public:
  explicit Rng(std::uint64_t seed, std::uint64_t stream = 0) noexcept;

  // Always inlined, as are uniform() and SparseCounts::add: the samplers call them once a token from
  // large token steps, where GCC otherwise calls them out of line and spills registers around it.
  [[gnu::always_inline]] std::uint64_t next() noexcept {
    const std::uint64_t result = rotl(m_s[0] + m_s[3], 23) + m_s[0];
    const std::uint64_t t = m_s[1] << 17;
    m_s[2] ^= m_s[0];
    m_s[3] ^= m_s[1];
    m_s[1] ^= m_s[2];
    m_s[0] ^= m_s[3];
    m_s[2] ^= t;
    m_s[3] = rotl(m_s[3], 45);
    return result;
  }

  // Uniform in [0, 1) with 53 random bits.
  [[gnu::always_inline]] double uniform() noexcept { return static_cast<double>(next() >> 11) * 0x1.0p-53; }

  // Uniform integer in [0, n) without modulo bias (Lemire 2019), n > 0.
  std::uint64_t below(std::uint64_t n) noexcept {
    unsigned __int128 m = static_cast<unsigned __int128>(next()) * n;
    auto low = static_cast<std::uint64_t>(m);
    if (low < n) {
      const std::uint64_t threshold = -n % n;
      while (low < threshold) {
        m = static_cast<unsigned __int128>(next()) * n;
        low = static_cast<std::uint64_t>(m);
      }
    }
    return static_cast<std::uint64_t>(m >> 64);
  }

  // Fisher-Yates shuffle.
  template <typename T>
  void shuffle(std::span<T> items) noexcept {
    for (std::size_t i = items.size(); i > 1; --i) std::swap(items[i - 1], items[below(i)]);
  }

  // Standard normal (Marsaglia's polar method; the spare value is kept).
  double normal() noexcept;

  // Gamma(shape, 1) (Marsaglia & Tsang 2000), shape > 0.
  double gamma(double shape) noexcept;

 private:
  static std::uint64_t rotl(std::uint64_t x, int k) noexcept { return (x << k) | (x >> (64 - k)); }
  std::uint64_t m_s[4];
  bool m_haveSpare = false;
  double m_spare = 0.0;
};

}  // namespace latent::core
