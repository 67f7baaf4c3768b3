// SPDX-License-Identifier: GPL-3.0-or-later
// What factor models store (the factors family: pmf): the names of their result matrices, read by
// the factor views, the exports, rating prediction and recommendations.
#pragma once

namespace latent::core {

// Matrix names in FitResult::matrices and snapshots (U users, I items, K factors):
//   "user_factors" U x K, "item_factors" I x K   (000 eq. 27.86: r_ui ~ u_u . v_i)
//   "user_bias" U x 1, "item_bias" I x 1, "global_mean" 1 x 1   (000 eq. 27.93)
//   "rating_range" 1 x 2   the smallest and largest training rating; predictions are clipped to it
//   "regularization" 1 x 3 (optional) lambda, lambda_bias and the penalty (0: once per user, the
//                          prior of eq. 27.92; 1: per rating): what foldInUser needs to treat a new
//                          user as the fit treated every user
//   "item_implicit" I x K (optional) y_j of implicit feedback (SVD++, Koren 2008): the fit's user
//                          factors already include |N(u)|^-1/2 sum_{j in N(u)} y_j, so predictions
//                          need it only to fold in a new user, whose N(u) is the items given
inline constexpr const char* kUserFactors = "user_factors";
inline constexpr const char* kItemFactors = "item_factors";
inline constexpr const char* kUserBias = "user_bias";
inline constexpr const char* kItemBias = "item_bias";
inline constexpr const char* kGlobalMean = "global_mean";
inline constexpr const char* kRatingRange = "rating_range";
inline constexpr const char* kRegularization = "regularization";
inline constexpr const char* kItemImplicit = "item_implicit";

// The held-out metric of the family: RMSE of the held-out ratings (000 eq. 27.84).
inline constexpr const char* kHeldoutRmse = "heldout_rmse";

}  // namespace latent::core
