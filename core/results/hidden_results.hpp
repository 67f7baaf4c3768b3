// SPDX-License-Identifier: GPL-3.0-or-later
// What harmoniums store (the hidden-units family: rbm, rsm, rbm-ratings, gb-efh, rbm-gaussian): the
// names of their result matrices, read by the hidden-unit views and the exports, and the held-out
// metrics they report.
#pragma once

namespace latent::core::hidden {

// Matrix names in FitResult::matrices and snapshots (V visible units, K hidden units, D cases):
//   "weights" V x K          W of the energy (000 eq. 27.98 for binary units, eq. 27.129 for words)
//   "visible_bias" V x 1     b
//   "hidden_bias" K x 1      c (the replicated softmax scales it by the document's length)
//   "hidden_activations" D x K   E[h_k | v] of each case in data order (documents in corpus order;
//                                a held-out document's from all of its words)
// For text the visible units are the vocabulary in its order.
inline constexpr const char* kWeights = "weights";
inline constexpr const char* kVisibleBias = "visible_bias";
inline constexpr const char* kHiddenBias = "hidden_bias";
inline constexpr const char* kHiddenActivations = "hidden_activations";

// The Gaussian-Bernoulli harmonium (gb-efh, 004) adds, its W being posterior draws (Langevin):
//   "weights_sd" V x K        the draws' spread per weight (after rotating each onto the first,
//                              as W is identified only up to a rotation of the hidden units)
//   "prior_mean", "prior_sd" V x 1   the Gaussian prior on each visible unit's weights (004 eq. 7),
//                              as estimated by empirical Bayes when asked for (004 eq. 24-25)
//   "weight_trace" T x 4       W_11, W_12, W_21, W_22 after every iteration (004 Fig. 3)
// and "weights" is the draws' mean (rotated likewise), "hidden_bias" zero (004 §2: lambda = 0).
inline constexpr const char* kWeightsSd = "weights_sd";
inline constexpr const char* kPriorMean = "prior_mean";
inline constexpr const char* kPriorSd = "prior_sd";
inline constexpr const char* kWeightTrace = "weight_trace";

// The Gaussian RBM on a numeric table (rbm-gaussian) works on columns standardised on the
// training rows, and keeps how, with the variance of each column given the hidden units:
//   "column_mean", "column_sd" V x 1   each column's mean and spread (its weights, biases and
//                                      variances are in standard deviations of the column)
//   "visible_variance"         V x 1   s_r of p(v_r | h) = N(b_r + (W h)_r, s_r)
inline constexpr const char* kColumnMean = "column_mean";
inline constexpr const char* kColumnSd = "column_sd";
inline constexpr const char* kVisibleVariance = "visible_variance";

// The categorical RBM on ratings (rbm-ratings; 000 eq. 27.105) has R visible states per item, so
// its weights and visible biases are stored in place of "weights" and "visible_bias" (the
// family's `ratingsRequired`), with "hidden_bias" as above (U users, I items, R rating levels):
//   "rating_weights" (I R) x K        W_i^r, row i R + r (item i, level r, both 0-based)
//   "rating_visible_bias" I x R       b_i^r
//   "rating_levels" 1 x R             the rating value of each level, ascending
//   "hidden_activations" U x K        the hidden mean-field of each user's training ratings, users
//                                     in dataset order (what the predictions start from)
inline constexpr const char* kRatingWeights = "rating_weights";
inline constexpr const char* kRatingVisibleBias = "rating_visible_bias";
inline constexpr const char* kRatingLevels = "rating_levels";

// Held-out metrics. Replicated softmax reports the topic models' perplexity by document completion
// (topic::kHeldoutPerplexity), so the two compare on one split; the binary RBM, which models which
// words occur and not how often, the negative pseudo-log-likelihood of the held-out documents'
// occurrence vectors, per document (Besag 1975; lower is better, like every held-out metric here).
inline constexpr const char* kHeldoutPseudoNll = "heldout_pseudo_nll";
// On ratings the family reports the factor models' held-out RMSE (kHeldoutRmse,
// results/factor_results.hpp), so rbm-ratings and pmf compare on one split.

}  // namespace latent::core::hidden
