// SPDX-License-Identifier: GPL-3.0-or-later
// The eigendecomposition of a dense symmetric matrix by Eigen's SelfAdjointEigenSolver, compiled
// once here rather than in each of the five sources that use it (about 4 s of compile time each,
// in each build).
#pragma once

#include <Eigen/Core>

namespace latent::core {

// a = vectors diag(values) vectors^T: the values ascending, the vectors' columns orthonormal (each
// one's sign as the solver leaves it). Only the lower triangle of `a` is read.
struct SymmetricEigen {
  Eigen::VectorXd values;
  Eigen::MatrixXd vectors;
  bool converged = true;  // false: the solver's iteration did not converge (values and vectors unreliable)
};

SymmetricEigen symmetricEigen(const Eigen::MatrixXd& a);

}  // namespace latent::core
