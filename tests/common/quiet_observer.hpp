// SPDX-License-Identifier: GPL-3.0-or-later
// An observer for fits whose progress a test does not look at: it never stops the fit.
#pragma once

#include "core/models/training.hpp"

namespace latent::test {

class QuietObserver final : public core::TrainingObserver {
 public:
  bool onReport(const core::IterationReport& r) override {
    last = r;
    return true;
  }
  core::IterationReport last;  // the latest report
};

}  // namespace latent::test
