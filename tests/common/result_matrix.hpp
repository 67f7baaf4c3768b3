// SPDX-License-Identifier: GPL-3.0-or-later
// A fit's matrix by name, for the suites that check what a model returned.
#pragma once

#include <stdexcept>
#include <string>

#include <Eigen/Core>

#include "core/models/model.hpp"

namespace latent::test {

// The matrix `name` of `result`; a missing one throws, which Qt Test reports as the test's failure.
inline const Eigen::MatrixXd& resultMatrix(const core::FitResult& result, const std::string& name) {
  for (const auto& m : result.matrices)
    if (m.name == name) return m.values;
  throw std::runtime_error("the fit returned no matrix " + name);
}

}  // namespace latent::test
