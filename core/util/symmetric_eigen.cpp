// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/util/symmetric_eigen.hpp"

#include <Eigen/Eigenvalues>

namespace latent::core {

SymmetricEigen symmetricEigen(const Eigen::MatrixXd& a) {
  const Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd> solver(a);
  SymmetricEigen out;
  out.converged = solver.info() == Eigen::Success;
  out.values = solver.eigenvalues();
  out.vectors = solver.eigenvectors();
  return out;
}

}  // namespace latent::core
