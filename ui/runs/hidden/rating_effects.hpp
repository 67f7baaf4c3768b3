// SPDX-License-Identifier: GPL-3.0-or-later
// What a categorical RBM on ratings (rbm-ratings; 000 §27.7.1.2, eq. 27.105-27.107) says each hidden
// unit does to the items, without Qt so that it is tested and run off the GUI thread: the change in
// each item's expected rating when the unit turns on alone, the others off and everything else at
// the biases. That I x K matrix stands in for a harmonium's V x K weights on the hidden-unit pages.
#pragma once

#include <Eigen/Core>

#include <vector>

namespace latent::ui {

struct RatingEffects {
  // E[r_i | h = 0] = sum_r level_r softmax_r(b_i^r): each item's expected rating with every unit off.
  Eigen::VectorXd baseRating;  // I
  // E[r_i | h = e_k] - E[r_i | h = 0], with p(v_i = r | h) = softmax_r(b_i^r + sum_k h_k W_ik^r)
  // (eq. 27.106): how far unit k, on alone, moves item i's expected rating.
  Eigen::MatrixXd effects;  // I x K
};

// From the stored "rating_weights" ((I R) x K, row i R + r), "rating_visible_bias" (I x R) and the
// R rating levels. Empty (0 rows) when the shapes disagree.
RatingEffects ratingUnitEffects(const Eigen::MatrixXd& ratingWeights, const Eigen::MatrixXd& visibleBias,
                                const std::vector<double>& levels);

}  // namespace latent::ui
