// SPDX-License-Identifier: GPL-3.0-or-later
// The thin singular value decomposition of a dense matrix, by LAPACK's divide and conquer
// (dgesdd), the algorithm of Eigen's BDCSVD, without BDCSVD's templates: they took about 40 s to
// compile in each build that instantiated them.
#pragma once

#include <Eigen/Core>

namespace latent::core {

// A = U diag(s) V^T with p = min(rows, cols): U rows x p and V cols x p with orthonormal columns,
// s descending and non-negative. The signs of each pair of singular vectors are LAPACK's.
struct ThinSvd {
  Eigen::MatrixXd u;
  Eigen::VectorXd singularValues;
  Eigen::MatrixXd v;
};

// Throws std::runtime_error when LAPACK reports that it did not converge.
ThinSvd thinSvd(const Eigen::MatrixXd& a);

}  // namespace latent::core
