// SPDX-License-Identifier: GPL-3.0-or-later
// Classical scaling of correlation distances and the overlap removal after it.
#include "core/eval/correlation_map.hpp"

#include <algorithm>
#include <cmath>
#include <functional>
#include <vector>

#include "core/util/symmetric_eigen.hpp"

namespace latent::core {

Eigen::MatrixX2d correlationMap(const Eigen::MatrixXd& correlation, double separation) {
  const auto K = correlation.rows();
  Eigen::MatrixX2d map = Eigen::MatrixX2d::Constant(K, 2, 0.5);
  if (K < 2) return map;
  // With squared distances 2 (1 - r), the doubly centred -D^2 / 2 is the centred correlation
  // matrix; its two leading eigenvectors, scaled by the roots of their eigenvalues, are the map.
  const Eigen::MatrixXd centre =
      Eigen::MatrixXd::Identity(K, K) - Eigen::MatrixXd::Constant(K, K, 1.0 / static_cast<double>(K));
  const Eigen::MatrixXd inner = centre * correlation * centre;
  const SymmetricEigen eigen = symmetricEigen(0.5 * (inner + inner.transpose()));
  for (int axis = 0; axis < 2 && axis < K; ++axis) {
    const Eigen::Index index = K - 1 - axis;  // eigenvalues ascend
    Eigen::VectorXd v = eigen.vectors.col(index) * std::sqrt(std::max(eigen.values[index], 0.0));
    // The eigenvector's sign is arbitrary: fix it so the same matrix always gives the same picture.
    Eigen::Index largest = 0;
    v.cwiseAbs().maxCoeff(&largest);
    if (v[largest] < 0) v = -v;
    map.col(axis) = v;
  }
  // Each axis stretched over the unit square: the second axis usually explains much less than the
  // first, and kept to scale it would leave the drawing a thin band with its labels on top of one
  // another. Groups and neighbours stay; distances across the two axes are no longer comparable.
  for (int axis = 0; axis < 2; ++axis) {
    const double low = map.col(axis).minCoeff(), span = map.col(axis).maxCoeff() - low;
    if (span > 1e-12)
      map.col(axis) = ((map.col(axis).array() - low) / span).matrix();
    else
      map.col(axis).setConstant(0.5);
  }
  // Uncorrelated topics all land near the centre: push pairs apart to the separation, each by
  // half the shortfall along the line between them (a fixed nudge for coincident ones), then
  // clamp into the square.
  for (int pass = 0; pass < 100; ++pass) {
    bool moved = false;
    for (Eigen::Index a = 0; a < K; ++a)
      for (Eigen::Index b = a + 1; b < K; ++b) {
        Eigen::RowVector2d delta = map.row(b) - map.row(a);
        double distance = delta.norm();
        if (distance >= separation) continue;
        if (distance < 1e-9) {
          const double angle = 2.399963 * static_cast<double>(b);  // the golden angle: no two alike
          delta = Eigen::RowVector2d(std::cos(angle), std::sin(angle)) * 1e-3;
          distance = 1e-3;
        }
        const Eigen::RowVector2d push = delta * (0.5 * (separation - distance) / distance);
        map.row(a) -= push;
        map.row(b) += push;
        moved = true;
      }
    map = map.cwiseMax(0.0).cwiseMin(1.0);
    if (!moved) break;
  }
  return map;
}

double strongestCorrelationsThreshold(const Eigen::MatrixXd& correlation, int edges) {
  std::vector<double> positive;
  for (Eigen::Index a = 0; a < correlation.rows(); ++a)
    for (Eigen::Index b = a + 1; b < correlation.cols(); ++b)
      if (correlation(a, b) > 0.0) positive.push_back(correlation(a, b));
  if (positive.empty() || edges <= 0) return 1.0;
  std::sort(positive.begin(), positive.end(), std::greater<>());
  if (static_cast<std::size_t>(edges) >= positive.size()) return positive.back();
  // Just above the first correlation left out, so that ties with it are not shown either.
  return std::nextafter(positive[static_cast<std::size_t>(edges)], 2.0);
}

}  // namespace latent::core
