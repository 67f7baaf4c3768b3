// SPDX-License-Identifier: GPL-3.0-or-later
// log(sum_i exp(v_i)) of an Eigen vector, by Eigen's vectorised exp: the softmax normaliser of the
// models that take it over a whole vocabulary or every topic many times a document (ctm, epca's
// variational fit, rsm, slda). util/special_functions.hpp has the scalar version for a span.
#pragma once

#include <cmath>

#include <Eigen/Core>

namespace latent::core {

// Shifted by the largest entry, so it cannot overflow. The entries must be finite.
inline double logSumExp(const Eigen::Ref<const Eigen::VectorXd>& v) {
  const double top = v.maxCoeff();
  return top + std::log((v.array() - top).exp().sum());
}

}  // namespace latent::core
