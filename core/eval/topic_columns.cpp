// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/eval/topic_columns.hpp"

namespace latent::core {

double topicDot(const double* theta, const double* phi, Eigen::Index topics) noexcept {
  // Four running sums, so that a term does not wait for the one before it.
  double s0 = 0.0, s1 = 0.0, s2 = 0.0, s3 = 0.0;
  Eigen::Index k = 0;
  for (; k + 3 < topics; k += 4) {
    s0 += theta[k] * phi[k];
    s1 += theta[k + 1] * phi[k + 1];
    s2 += theta[k + 2] * phi[k + 2];
    s3 += theta[k + 3] * phi[k + 3];
  }
  for (; k < topics; ++k) s0 += theta[k] * phi[k];
  return (s0 + s1) + (s2 + s3);
}

}  // namespace latent::core
