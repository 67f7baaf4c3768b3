// SPDX-License-Identifier: GPL-3.0-or-later
// Implicit feedback for pmf (SVD++; Koren 2008, "Factorization meets the neighborhood", KDD):
// which items a user rated says something about the user beyond the ratings themselves, so the
// user factor becomes
//   u_u = p_u + |N(u)|^-1/2 sum_{j in N(u)} y_j,   N(u) = the items u rated in training,
// and the objective of pmf.cpp gains the penalty lambda |y_j|^2 (per item, scaled like v_i's).
// On InstEval this is what lifts pmf clearly above the bias-only model (tests/benchmarks/peers/
// pmf_variants.py, svdpp; tests/evidence/tst_pmf_evidence.cpp): held-out RMSE 1.1-1.4% below
// bias-only against 0.2-0.3% without it, as its students' ratings share little beyond their
// biases while the set of lecturers each student rated is informative.
#pragma once

#include <atomic>
#include <cstdint>
#include <stop_token>

#include "core/models/ratings/pmf_state.hpp"

namespace latent::core::pmf {

// |N(u)|^-1/2, and 0 for a user with no training rating.
double implicitWeight(std::int64_t ratedItems) noexcept;

// z_u = |N(u)|^-1/2 sum_{j in N(u)} y_j for every user into params.implicitSums (users in
// parallel; each row summed in a fixed order).
void updateImplicitSums(const TrainingRatings& data, Parameters& params);

// The exact minimiser of the objective over each y_j in turn (block coordinate descent, items in
// index order), p_u, q_i and the biases fixed. With e_ui the current residuals,
//   g_u = sum_{i in R(u)} e_ui q_i,   G_u = sum_{i in R(u)} q_i q_i^T,
// y_j moves by d solving (ridge_j I + sum_{u: j in N(u)} w_u^2 G_u) d = sum_u w_u g_u - ridge_j y_j,
// after which g_u -= w_u G_u d for those users. The matrices are built in parallel, the updates
// run sequentially over items, so the result does not depend on the thread count. O(ratings K^2)
// per call plus (U + I) K^2 doubles of working space (about 6 times a plain ALS sweep's time on a
// generated 1M-rating set at K = 20, one thread).
// Afterwards implicitSums match the new y and users = p + z with p unchanged.
// `stop` is looked at every few users or items in each of the three passes (one item of many
// raters is itself long at a large K). A stop while the matrices are built changes nothing; a stop
// in the sequential pass keeps the y_j already moved (each an exact block minimisation) and still
// brings implicitSums and users up to date, so the parameters stay consistent.
// Returns true when the step ran to its end. `finished`, when given, counts the y_j done (in
// index order) as they are done, for whoever watches the work from another thread.
bool alsImplicitStep(const TrainingRatings& data, const Regularization& reg, Parameters& params,
                     std::stop_token stop = {}, std::atomic<std::int64_t>* finished = nullptr);

}  // namespace latent::core::pmf
