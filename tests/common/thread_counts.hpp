// SPDX-License-Identifier: GPL-3.0-or-later
// The check that a fit gives the same numbers whatever the number of threads.
#pragma once

#include <tbb/task_arena.h>

#include <string>

#include <Eigen/Core>

#include "core/models/model.hpp"
#include "result_matrix.hpp"

namespace latent::test {

// Whether `fit()` (returning a FitResult) gives the matrix `name` equal to the last bit on one
// thread and on two.
template <typename Fit>
bool sameOnOneAndTwoThreads(Fit&& fit, const std::string& name) {
  Eigen::MatrixXd first;
  for (const int threads : {1, 2}) {
    tbb::task_arena arena(threads);
    core::FitResult result;
    arena.execute([&] { result = fit(); });
    const auto& values = resultMatrix(result, name);
    if (threads == 1)
      first = values;
    else if (!(values == first))
      return false;
  }
  return true;
}

}  // namespace latent::test
