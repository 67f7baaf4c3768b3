// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/util/dense_svd.hpp"

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <limits>
#include <stdexcept>
#include <string>
#include <vector>

// LAPACK's Fortran entry point (liblapack): arguments by reference, matrices column-major, and
// the length of the character argument last, as gfortran passes it.
extern "C" void dgesdd_(const char* jobz, const int* m, const int* n, double* a, const int* lda, double* s, double* u,
                        const int* ldu, double* vt, const int* ldvt, double* work, const int* lwork, int* iwork,
                        int* info, std::size_t jobzLength);

namespace latent::core {

namespace {

int lapackSize(Eigen::Index n) {
  if (n > std::numeric_limits<int>::max()) throw std::runtime_error("matrix too large for LAPACK's 32-bit sizes");
  return static_cast<int>(n);
}

}  // namespace

ThinSvd thinSvd(const Eigen::MatrixXd& a) {
  const int m = lapackSize(a.rows()), n = lapackSize(a.cols());
  const int p = std::min(m, n);
  ThinSvd out;
  out.singularValues.resize(p);
  out.u.resize(m, p);
  out.v.resize(n, p);
  if (p == 0) return out;
  Eigen::MatrixXd work = a;  // dgesdd overwrites its input
  Eigen::MatrixXd vt(p, n);
  const char jobz = 'S';
  const int lda = std::max(1, m), ldu = std::max(1, m), ldvt = std::max(1, p);
  std::vector<int> iwork(8 * static_cast<std::size_t>(p));
  int info = 0, lwork = -1;
  double optimal = 0;
  dgesdd_(&jobz, &m, &n, work.data(), &lda, out.singularValues.data(), out.u.data(), &ldu, vt.data(), &ldvt, &optimal,
          &lwork, iwork.data(), &info, 1);
  if (info == 0) {
    lwork = static_cast<int>(std::ceil(optimal));  // LAPACK returns the size as a double
    std::vector<double> scratch(static_cast<std::size_t>(std::max(1, lwork)));
    dgesdd_(&jobz, &m, &n, work.data(), &lda, out.singularValues.data(), out.u.data(), &ldu, vt.data(), &ldvt,
            scratch.data(), &lwork, iwork.data(), &info, 1);
  }
  if (info != 0)
    throw std::runtime_error("the singular value decomposition did not converge (LAPACK dgesdd info " +
                             std::to_string(info) + ")");
  out.v = vt.transpose();
  return out;
}

}  // namespace latent::core
