// SPDX-License-Identifier: GPL-3.0-or-later
// The process's peak resident memory so far, in MB (getrusage), as the benchmarks print it.
#pragma once

#include <sys/resource.h>

namespace latent::bench {

inline double peakRssMb() {
  rusage usage{};
  getrusage(RUSAGE_SELF, &usage);
  return static_cast<double>(usage.ru_maxrss) / 1024.0;
}

}  // namespace latent::bench
