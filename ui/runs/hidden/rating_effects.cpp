// SPDX-License-Identifier: GPL-3.0-or-later
// ratingUnitEffects: each item's expected rating with no unit on, and with each unit on alone.
#include "ui/runs/hidden/rating_effects.hpp"

#include <cmath>

namespace latent::ui {
namespace {

// sum_r level_r softmax_r(logits), the softmax taken stably (shifted by its largest logit).
double ratingEffectsExpectation(const Eigen::Ref<const Eigen::RowVectorXd>& logits, const Eigen::RowVectorXd& levels) {
  const double top = logits.maxCoeff();
  const Eigen::RowVectorXd p = (logits.array() - top).exp().matrix();
  return p.dot(levels) / p.sum();
}

}  // namespace

RatingEffects ratingUnitEffects(const Eigen::MatrixXd& ratingWeights, const Eigen::MatrixXd& visibleBias,
                                const std::vector<double>& levels) {
  RatingEffects out;
  const Eigen::Index I = visibleBias.rows(), R = visibleBias.cols(), K = ratingWeights.cols();
  if (R == 0 || static_cast<std::size_t>(R) != levels.size() || ratingWeights.rows() != I * R) return out;
  const Eigen::RowVectorXd level = Eigen::Map<const Eigen::RowVectorXd>(levels.data(), R);
  out.baseRating.resize(I);
  out.effects.resize(I, K);
  Eigen::RowVectorXd logits(R);
  for (Eigen::Index i = 0; i < I; ++i) {
    const double base = ratingEffectsExpectation(visibleBias.row(i), level);
    out.baseRating(i) = base;
    for (Eigen::Index k = 0; k < K; ++k) {
      for (Eigen::Index r = 0; r < R; ++r) logits(r) = visibleBias(i, r) + ratingWeights(i * R + r, k);
      out.effects(i, k) = ratingEffectsExpectation(logits, level) - base;
    }
  }
  return out;
}

}  // namespace latent::ui
