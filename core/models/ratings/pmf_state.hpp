// SPDX-License-Identifier: GPL-3.0-or-later
// What both pmf solvers work on: the training ratings laid out per user and per item, the
// parameters of 000 eq. 27.93 in contiguous float rows, the regularised objective (eq. 27.92 with
// biases) and the error measures (eq. 27.84).
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include <Eigen/Core>

#include "core/data/ratings.hpp"
#include "core/models/training.hpp"

namespace latent::core::pmf {

// Rows are padded to a multiple of this many floats so that the inner loops run over whole
// SIMD registers (4 floats = one SSE register) with no tail; the padding stays zero.
inline constexpr int kLanes = 4;
int paddedStride(int factors) noexcept;

// K latent factors per row, rows contiguous (row-major), each `stride` floats long.
struct FactorTable {
  std::int64_t rows = 0;
  int factors = 0;
  int stride = 0;
  std::vector<float> values;

  void resize(std::int64_t rowCount, int factorCount);
  float* row(std::int64_t r) noexcept { return values.data() + r * stride; }
  const float* row(std::int64_t r) const noexcept { return values.data() + r * stride; }
};

// How the penalties of eq. 27.92 scale with a user's (item's) number of ratings n.
enum class Penalty {
  Prior,      // lambda ||u||^2 once per user: the Gaussian prior of eq. 27.90-27.92 (MAP)
  PerRating,  // lambda n ||u||^2: the penalty taken at every rating, as Funk's SGD and ALS-WR do
};

struct Regularization {
  double factors = 0.0;  // lambda_U = lambda_V (eq. 27.92)
  double biases = 0.0;   // the same for b_u and b_i (eq. 27.93)
  Penalty penalty = Penalty::Prior;
  // The ridge a row with n ratings carries in the objective.
  double factorRidge(std::int64_t n) const noexcept {
    return penalty == Penalty::Prior ? factors : factors * double(n);
  }
  double biasRidge(std::int64_t n) const noexcept { return penalty == Penalty::Prior ? biases : biases * double(n); }
};

// The training ratings, centred on their mean, once per user and once per item (compressed rows).
struct TrainingRatings {
  std::int32_t users = 0, items = 0;
  double mean = 0.0;             // mu of eq. 27.93: the mean training rating
  double low = 0.0, high = 0.0;  // smallest and largest training rating
  std::int64_t count = 0;
  std::vector<std::int64_t> userStart, itemStart;  // users + 1, items + 1 offsets
  std::vector<std::int32_t> userItems, itemUsers;  // the other side of each rating
  std::vector<float> userValues, itemValues;       // r - mean, in the same order

  static TrainingRatings build(std::span<const Rating> ratings, std::int32_t users, std::int32_t items);
  std::int64_t userDegree(std::int32_t u) const noexcept { return userStart[u + 1] - userStart[u]; }
  std::int64_t itemDegree(std::int32_t i) const noexcept { return itemStart[i + 1] - itemStart[i]; }
};

// mu + b_u + b_i + u_u . v_i (000 eq. 27.93). With implicit feedback (SVD++, Koren 2008;
// pmf_implicit.hpp) the user factor is u_u = p_u + |N(u)|^-1/2 sum_{j in N(u)} y_j, N(u) the items
// u rated in training: `users` holds that sum u_u (what every prediction uses), `implicitSums` the
// second term z_u (so p_u = u_u - z_u) and `implicit` the y_j. Both tables are empty without it.
struct Parameters {
  FactorTable users, items;
  FactorTable implicit, implicitSums;
  std::vector<float> userBias, itemBias;
  double mean = 0.0;
  double low = 0.0, high = 0.0;  // predictions are clipped to the training range

  // Factors ~ N(0, initScale^2) from Rng(seed, stream), biases zero; rows with no training
  // rating start (and stay) at zero.
  // With `implicit` the y_j start at zero (so u_u = p_u at first).
  static Parameters initial(const TrainingRatings& data, int factors, double initScale, std::uint64_t seed,
                            bool implicit = false);
  bool hasImplicit() const noexcept { return implicit.rows > 0; }
  double interaction(std::int32_t u, std::int32_t i) const noexcept;
  double predictRaw(std::int32_t u, std::int32_t i) const noexcept {
    return mean + userBias[u] + itemBias[i] + interaction(u, i);
  }
  double predict(std::int32_t u, std::int32_t i) const noexcept;  // clipped
};

// One SIMD register's worth of a row. Eigen vectorises fixed-size arrays explicitly, which the
// compiler does not do for plain loops at -O2.
using Lane = Eigen::Array<float, kLanes, 1>;

// u . v over padded rows: the one dot product both solvers and the predictions use.
inline float dotRows(const float* a, const float* b, int stride) noexcept {
  Lane sum = Lane::Zero();
  for (int c = 0; c < stride; c += kLanes) sum += Eigen::Map<const Lane>(a + c) * Eigen::Map<const Lane>(b + c);
  return sum.sum();
}

// Training fit at the current parameters, summed in a fixed order (same numbers for any thread count).
struct TrainingFit {
  double rmse = 0.0;       // eq. 27.84 over the training ratings, predictions clipped
  double objective = 0.0;  // eq. 27.92 with biases: squared errors + penalties, divided by the ratings
};
TrainingFit trainingFit(const TrainingRatings& data, const Parameters& params, const Regularization& reg);

// Root mean squared error (eq. 27.84) of the clipped predictions on `ratings`; 0 when empty.
double heldoutRmse(std::span<const Rating> ratings, const Parameters& params);

// The parameters as the result matrices of factor_model_results.hpp (doubles, unpadded):
// "user_factors" are the whole u_u, so predictions need nothing else; "item_implicit" the y_j.
std::vector<NamedMatrix> toMatrices(const Parameters& params);

}  // namespace latent::core::pmf
