// SPDX-License-Identifier: GPL-3.0-or-later
// The thin SVD by LAPACK (core/util/dense_svd.hpp) against its definition, on matrices built from
// known singular values (tall, wide, square, rank-deficient) and empty ones. (Eigen's own SVDs are
// not compiled in for a reference: sparing their compile time is what the wrapper is for.)
#include <QtTest>

#include <algorithm>
#include <cmath>
#include <utility>

#include "core/util/dense_svd.hpp"
#include "core/util/random.hpp"
#include "test_case.hpp"

using namespace latent;

namespace {

Eigen::MatrixXd normalMatrix(Eigen::Index rows, Eigen::Index cols, std::uint64_t seed) {
  core::Rng rng(seed, 0);
  Eigen::MatrixXd m(rows, cols);
  for (Eigen::Index i = 0; i < m.size(); ++i) m.data()[i] = rng.normal();
  return m;
}

double maxAbs(const Eigen::MatrixXd& m) { return m.size() == 0 ? 0.0 : m.cwiseAbs().maxCoeff(); }

// The first p columns of a Householder reflection I - 2 v v^T / v^T v: orthonormal.
Eigen::MatrixXd orthonormalColumns(Eigen::Index n, Eigen::Index p, std::uint64_t seed) {
  const Eigen::VectorXd v = normalMatrix(n, 1, seed);
  const Eigen::MatrixXd reflection = Eigen::MatrixXd::Identity(n, n) - 2.0 * v * v.transpose() / v.squaredNorm();
  return reflection.leftCols(p);
}

// rows x cols with the given singular values (descending, as many as the smaller side).
Eigen::MatrixXd withSingularValues(Eigen::Index rows, Eigen::Index cols, const Eigen::VectorXd& values,
                                   std::uint64_t seed) {
  const auto p = values.size();
  return orthonormalColumns(rows, p, seed) * values.asDiagonal() * orthonormalColumns(cols, p, seed + 1).transpose();
}

// A = U S V^T with U and V orthonormal and the values descending; the values are the given ones.
void checkDecomposition(const Eigen::MatrixXd& a, const Eigen::VectorXd& values) {
  const auto svd = core::thinSvd(a);
  const auto p = std::min(a.rows(), a.cols());
  QCOMPARE(svd.u.rows(), a.rows());
  QCOMPARE(svd.u.cols(), p);
  QCOMPARE(svd.v.rows(), a.cols());
  QCOMPARE(svd.v.cols(), p);
  QCOMPARE(svd.singularValues.size(), p);
  const double scale = std::max(1.0, maxAbs(a));
  QVERIFY(maxAbs(svd.u * svd.singularValues.asDiagonal() * svd.v.transpose() - a) < 1e-12 * scale);
  QVERIFY(maxAbs(svd.u.transpose() * svd.u - Eigen::MatrixXd::Identity(p, p)) < 1e-12);
  QVERIFY(maxAbs(svd.v.transpose() * svd.v - Eigen::MatrixXd::Identity(p, p)) < 1e-12);
  for (Eigen::Index i = 1; i < p; ++i) QVERIFY(svd.singularValues[i] <= svd.singularValues[i - 1]);
  QVERIFY(maxAbs(svd.singularValues - values) < 1e-12 * scale);
}

}  // namespace

class DenseSvdTest : public QObject {
  Q_OBJECT

 private Q_SLOTS:
  void tallWideAndSquare() {
    Eigen::VectorXd seven(7);
    seven << 9.0, 5.5, 3.0, 2.0, 1.0, 0.25, 1e-3;
    checkDecomposition(withSingularValues(40, 7, seven, 1), seven);
    checkDecomposition(withSingularValues(7, 40, seven, 3), seven);
    const Eigen::VectorXd thirty = Eigen::VectorXd::LinSpaced(30, 30.0, 1.0);
    checkDecomposition(withSingularValues(30, 30, thirty, 5), thirty);
    checkDecomposition(Eigen::MatrixXd::Constant(1, 1, -2.0), Eigen::VectorXd::Constant(1, 2.0));
  }

  // Rank 2 in a 12 x 9 matrix: seven zero values, the vectors still orthonormal.
  void rankDeficient() {
    Eigen::VectorXd values = Eigen::VectorXd::Zero(9);
    values.head(2) << 4.0, 1.5;
    checkDecomposition(withSingularValues(12, 9, values, 7), values);
  }

  void emptyMatrices() {
    for (const auto& [rows, cols] : {std::pair<Eigen::Index, Eigen::Index>{0, 0}, {0, 4}, {5, 0}}) {
      const auto svd = core::thinSvd(Eigen::MatrixXd(rows, cols));
      QCOMPARE(svd.singularValues.size(), Eigen::Index{0});
      QCOMPARE(svd.u.rows(), rows);
      QCOMPARE(svd.v.rows(), cols);
    }
  }
};

LATENT_TEST_CASE(DenseSvdTest)
#include "tst_dense_svd.moc"
