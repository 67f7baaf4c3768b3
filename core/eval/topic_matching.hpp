// SPDX-License-Identifier: GPL-3.0-or-later
// Matching estimated topics (or blocks) to true ones, since a model may number them in any order.
#pragma once

#include <vector>

#include <Eigen/Core>

namespace latent::core {

// The assignment minimising the total cost (Hungarian method, Kuhn-Munkres, O(n^3)).
// cost is n x m with n <= m; result[i] is the column given to row i, all distinct.
std::vector<int> minimumCostAssignment(const Eigen::MatrixXd& cost);

// Total-variation distance between two distributions: half the L1 distance.
double totalVariation(const Eigen::Ref<const Eigen::VectorXd>& p, const Eigen::Ref<const Eigen::VectorXd>& q);

struct TopicMatch {
  std::vector<int> truthForEstimate;  // estimated topic k matches true topic truthForEstimate[k]
  double meanTotalVariation = 0.0;    // over the matched pairs
  double maxTotalVariation = 0.0;
};

// Rows of `estimated` and `truth` are distributions over the same support (K_est <= K_true).
TopicMatch matchTopics(const Eigen::MatrixXd& estimated, const Eigen::MatrixXd& truth);

}  // namespace latent::core
