// SPDX-License-Identifier: GPL-3.0-or-later
// Progress, cancellation and early stop (for previews), shared by every importer.
#pragma once

#include <cstdint>
#include <functional>
#include <stop_token>

#include "core/util/errors.hpp"

namespace latent::core {

struct ImportControl {
  // Bytes done and bytes in all (0 when unknown). Importers call it at most every megabyte or so.
  std::function<void(std::uint64_t done, std::uint64_t total)> progress;
  std::stop_token stop;
  // Previews stop after this many documents / records; -1 reads everything.
  std::int64_t maxRecords = -1;

  void report(std::uint64_t done, std::uint64_t total) const {
    if (progress) progress(done, total);
  }
  // Throws Cancelled when a stop was requested.
  void checkStop() const {
    if (stop.stop_requested()) throw Cancelled();
  }
};

// Calls ImportControl::report when at least `step` more bytes were consumed since the last call.
class ProgressThrottle {
 public:
  explicit ProgressThrottle(const ImportControl& control, std::uint64_t step = std::uint64_t{1} << 20)
      : m_control(control), m_step(step) {}
  void update(std::uint64_t done, std::uint64_t total) {
    if (done >= m_last + m_step || done == total) {
      m_last = done;
      m_control.report(done, total);
      m_control.checkStop();
    }
  }

 private:
  const ImportControl& m_control;
  std::uint64_t m_step;
  std::uint64_t m_last = 0;
};

}  // namespace latent::core
