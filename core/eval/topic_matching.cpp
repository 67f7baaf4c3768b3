// SPDX-License-Identifier: GPL-3.0-or-later
// Hungarian method with potentials (the e-maxx formulation) and topic matching on top of it.
#include "core/eval/topic_matching.hpp"

#include <limits>
#include <stdexcept>

namespace latent::core {

std::vector<int> minimumCostAssignment(const Eigen::MatrixXd& cost) {
  const auto n = static_cast<int>(cost.rows()), m = static_cast<int>(cost.cols());
  if (n > m) throw std::invalid_argument("minimumCostAssignment needs rows <= columns");
  const double inf = std::numeric_limits<double>::infinity();
  // 1-based arrays: u, v potentials; p[j] the row matched to column j; way[j] the previous column.
  std::vector<double> u(static_cast<std::size_t>(n) + 1, 0.0), v(static_cast<std::size_t>(m) + 1, 0.0);
  std::vector<int> p(static_cast<std::size_t>(m) + 1, 0), way(static_cast<std::size_t>(m) + 1, 0);
  for (int i = 1; i <= n; ++i) {
    p[0] = i;
    int j0 = 0;
    std::vector<double> minv(static_cast<std::size_t>(m) + 1, inf);
    std::vector<char> used(static_cast<std::size_t>(m) + 1, 0);
    do {
      used[static_cast<std::size_t>(j0)] = 1;
      const int i0 = p[static_cast<std::size_t>(j0)];
      double delta = inf;
      int j1 = 0;
      for (int j = 1; j <= m; ++j) {
        if (used[static_cast<std::size_t>(j)]) continue;
        const double cur = cost(i0 - 1, j - 1) - u[static_cast<std::size_t>(i0)] - v[static_cast<std::size_t>(j)];
        if (cur < minv[static_cast<std::size_t>(j)]) {
          minv[static_cast<std::size_t>(j)] = cur;
          way[static_cast<std::size_t>(j)] = j0;
        }
        if (minv[static_cast<std::size_t>(j)] < delta) {
          delta = minv[static_cast<std::size_t>(j)];
          j1 = j;
        }
      }
      for (int j = 0; j <= m; ++j) {
        if (used[static_cast<std::size_t>(j)]) {
          u[static_cast<std::size_t>(p[static_cast<std::size_t>(j)])] += delta;
          v[static_cast<std::size_t>(j)] -= delta;
        } else {
          minv[static_cast<std::size_t>(j)] -= delta;
        }
      }
      j0 = j1;
    } while (p[static_cast<std::size_t>(j0)] != 0);
    do {
      const int j1 = way[static_cast<std::size_t>(j0)];
      p[static_cast<std::size_t>(j0)] = p[static_cast<std::size_t>(j1)];
      j0 = j1;
    } while (j0 != 0);
  }
  std::vector<int> result(static_cast<std::size_t>(n), -1);
  for (int j = 1; j <= m; ++j)
    if (p[static_cast<std::size_t>(j)] != 0)
      result[static_cast<std::size_t>(p[static_cast<std::size_t>(j)] - 1)] = j - 1;
  return result;
}

double totalVariation(const Eigen::Ref<const Eigen::VectorXd>& p, const Eigen::Ref<const Eigen::VectorXd>& q) {
  return 0.5 * (p - q).cwiseAbs().sum();
}

TopicMatch matchTopics(const Eigen::MatrixXd& estimated, const Eigen::MatrixXd& truth) {
  if (estimated.cols() != truth.cols()) throw std::invalid_argument("matchTopics: different supports");
  Eigen::MatrixXd cost(estimated.rows(), truth.rows());
  for (Eigen::Index a = 0; a < estimated.rows(); ++a)
    for (Eigen::Index b = 0; b < truth.rows(); ++b)
      cost(a, b) = totalVariation(estimated.row(a).transpose(), truth.row(b).transpose());
  TopicMatch match;
  match.truthForEstimate = minimumCostAssignment(cost);
  for (Eigen::Index a = 0; a < estimated.rows(); ++a) {
    const double tv = cost(a, match.truthForEstimate[static_cast<std::size_t>(a)]);
    match.meanTotalVariation += tv;
    match.maxTotalVariation = std::max(match.maxTotalVariation, tv);
  }
  if (estimated.rows() > 0) match.meanTotalVariation /= static_cast<double>(estimated.rows());
  return match;
}

}  // namespace latent::core
