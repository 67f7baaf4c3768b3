// SPDX-License-Identifier: GPL-3.0-or-later
// The hidden-unit pages' numerics: top words, mean activations, PCA, the heat map's layout.
#include "ui/runs/hidden/hidden_analysis.hpp"

#include <algorithm>
#include <cmath>
#include <functional>

#include "core/util/symmetric_eigen.hpp"

namespace latent::ui {
namespace {

// The `count` rows of `column` that `before` ranks first, among those that `keep` accepts.
template <typename Keep, typename Before>
std::vector<int> hiddenRankedRows(const Eigen::Ref<const Eigen::VectorXd>& column, int count, Keep keep,
                                  Before before) {
  std::vector<int> rows;
  for (Eigen::Index v = 0; v < column.size(); ++v)
    if (keep(column(v))) rows.push_back(static_cast<int>(v));
  const auto n = std::min<std::size_t>(rows.size(), static_cast<std::size_t>(std::max(count, 0)));
  std::partial_sort(rows.begin(), rows.begin() + static_cast<std::ptrdiff_t>(n), rows.end(),
                    [&](int a, int b) { return column(a) != column(b) ? before(column(a), column(b)) : a < b; });
  rows.resize(n);
  return rows;
}

double hiddenCosine(const Eigen::VectorXd& a, const Eigen::VectorXd& b) {
  const double norms = a.norm() * b.norm();
  return norms > 0 ? a.dot(b) / norms : 0.0;
}

}  // namespace

std::vector<UnitWords> unitTopWords(const Eigen::MatrixXd& weights, int count) {
  std::vector<UnitWords> out(static_cast<std::size_t>(weights.cols()));
  for (Eigen::Index k = 0; k < weights.cols(); ++k) {
    auto& unit = out[static_cast<std::size_t>(k)];
    unit.positive = hiddenRankedRows(
        weights.col(k), count, [](double w) { return w > 0; }, std::greater<double>());
    unit.negative = hiddenRankedRows(
        weights.col(k), count, [](double w) { return w < 0; }, std::less<double>());
  }
  return out;
}

std::vector<double> meanActivations(const Eigen::MatrixXd& activations) {
  std::vector<double> out(static_cast<std::size_t>(activations.cols()), 0.0);
  if (activations.rows() == 0) return out;
  for (Eigen::Index k = 0; k < activations.cols(); ++k) out[static_cast<std::size_t>(k)] = activations.col(k).mean();
  return out;
}

ActivationProjection principalComponents(const Eigen::MatrixXd& activations) {
  ActivationProjection out;
  const Eigen::Index D = activations.rows(), K = activations.cols();
  out.points = Eigen::MatrixXd::Zero(D, 2);
  if (D < 2 || K == 0) return out;
  const Eigen::RowVectorXd mean = activations.colwise().mean();
  const Eigen::MatrixXd centred = activations.rowwise() - mean;
  const Eigen::MatrixXd covariance = (centred.transpose() * centred) / static_cast<double>(D - 1);
  const double total = covariance.trace();
  if (!(total > 0)) return out;
  const core::SymmetricEigen eigen = core::symmetricEigen(covariance);
  if (!eigen.converged) return out;
  // Eigenvalues come in ascending order: the largest are last. Variance below a billionth of the
  // total is rounding, not a direction the documents spread along.
  for (int c = 0; c < 2 && c < K; ++c) {
    const Eigen::Index at = K - 1 - c;
    const double variance = eigen.values(at);
    if (variance <= 1e-9 * total) break;
    Eigen::VectorXd loading = eigen.vectors.col(at);
    Eigen::Index largest = 0;
    loading.cwiseAbs().maxCoeff(&largest);
    if (loading(largest) < 0) loading = -loading;
    out.points.col(c) = centred * loading;
    out.explained[static_cast<std::size_t>(c)] = variance / total;
    out.components = c + 1;
  }
  return out;
}

WeightLayout weightLayout(const Eigen::MatrixXd& weights, int maxWords) {
  WeightLayout out;
  const Eigen::Index V = weights.rows(), K = weights.cols();
  if (V == 0 || K == 0 || maxWords <= 0) return out;

  // The words that matter most to some unit, strongest first (ties to the lower index).
  const Eigen::VectorXd strength = weights.cwiseAbs().rowwise().maxCoeff();
  std::vector<int> chosen = hiddenRankedRows(
      strength, maxWords, [](double) { return true; }, std::greater<double>());

  // Each chosen word's owner: the unit that raises it most.
  std::vector<int> owner(chosen.size());
  std::vector<int> owned(static_cast<std::size_t>(K), 0);
  for (std::size_t r = 0; r < chosen.size(); ++r) {
    Eigen::Index best = 0;
    weights.row(chosen[r]).maxCoeff(&best);
    owner[r] = static_cast<int>(best);
    ++owned[static_cast<std::size_t>(best)];
  }

  // Units in a chain of likeness over the chosen words, from the one that owns the most of them.
  std::vector<Eigen::VectorXd> columns(static_cast<std::size_t>(K));
  for (Eigen::Index k = 0; k < K; ++k) {
    auto& c = columns[static_cast<std::size_t>(k)];
    c.resize(static_cast<Eigen::Index>(chosen.size()));
    for (std::size_t r = 0; r < chosen.size(); ++r) c(static_cast<Eigen::Index>(r)) = weights(chosen[r], k);
  }
  std::vector<int> left;
  for (int k = 0; k < K; ++k)
    if (owned[static_cast<std::size_t>(k)] > 0) left.push_back(k);
  if (!left.empty()) {
    auto first = std::max_element(left.begin(), left.end(), [&](int a, int b) {
      return owned[static_cast<std::size_t>(a)] < owned[static_cast<std::size_t>(b)];
    });
    out.units.push_back(*first);
    left.erase(first);
  }
  while (!left.empty()) {
    const auto& last = columns[static_cast<std::size_t>(out.units.back())];
    auto next = std::max_element(left.begin(), left.end(), [&](int a, int b) {
      return hiddenCosine(last, columns[static_cast<std::size_t>(a)]) <
             hiddenCosine(last, columns[static_cast<std::size_t>(b)]);
    });
    out.units.push_back(*next);
    left.erase(next);
  }
  for (int k = 0; k < K; ++k)
    if (owned[static_cast<std::size_t>(k)] == 0) out.units.push_back(k);

  // Rows by group in the units' order, the most raised word of each group first.
  for (const int unit : out.units) {
    std::vector<int> group;
    for (std::size_t r = 0; r < chosen.size(); ++r)
      if (owner[r] == unit) group.push_back(chosen[r]);
    if (group.empty()) continue;
    std::sort(group.begin(), group.end(), [&](int a, int b) {
      return weights(a, unit) != weights(b, unit) ? weights(a, unit) > weights(b, unit) : a < b;
    });
    out.groupStarts.push_back(static_cast<int>(out.words.size()));
    for (const int w : group) {
      out.words.push_back(w);
      out.rowUnit.push_back(unit);
    }
  }
  for (const int w : out.words) out.maxAbsWeight = std::max(out.maxAbsWeight, strength(w));
  return out;
}

}  // namespace latent::ui
