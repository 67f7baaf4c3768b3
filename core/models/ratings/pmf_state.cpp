// SPDX-License-Identifier: GPL-3.0-or-later
// Layout of the training ratings, the starting parameters, and the fit measures of pmf.
#include "core/models/ratings/pmf_state.hpp"

#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>

#include <algorithm>
#include <array>
#include <cmath>

#include "core/models/ratings/factor_model_results.hpp"
#include "core/util/random.hpp"

namespace latent::core::pmf {
namespace {

constexpr std::uint64_t kUserStream = 0x504D465553455253ULL;  // "PMFUSERS"
constexpr std::uint64_t kItemStream = 0x504D464954454D53ULL;  // "PMFITEMS"
// Sums over ratings are taken per chunk of this many and the chunks added in order, so that the
// result does not depend on how many threads computed the chunks.
constexpr std::int64_t kChunk = 8192;

template <typename Term>
double orderedSum(std::int64_t n, const Term& term) {
  const std::int64_t chunks = (n + kChunk - 1) / kChunk;
  std::vector<double> partial(static_cast<std::size_t>(chunks), 0.0);
  tbb::parallel_for(tbb::blocked_range<std::int64_t>(0, chunks, 1), [&](const auto& range) {
    for (std::int64_t c = range.begin(); c != range.end(); ++c) {
      double s = 0.0;
      for (std::int64_t k = c * kChunk, end = std::min(n, (c + 1) * kChunk); k < end; ++k) s += term(k);
      partial[static_cast<std::size_t>(c)] = s;
    }
  });
  double total = 0.0;
  for (const double p : partial) total += p;
  return total;
}

void fillNormal(FactorTable& table, double scale, Rng rng) {
  for (std::int64_t r = 0; r < table.rows; ++r) {
    float* row = table.row(r);
    for (int f = 0; f < table.factors; ++f) row[f] = static_cast<float>(scale * rng.normal());
  }
}

double squaredNorm(const float* row, int factors) {
  double s = 0.0;
  for (int f = 0; f < factors; ++f) s += double(row[f]) * double(row[f]);
  return s;
}

// |u - z|^2: the penalised part p_u of an implicit-feedback user factor (pmf_state.hpp).
double squaredDistance(const float* row, const float* offset, int factors) {
  double s = 0.0;
  for (int f = 0; f < factors; ++f) s += (double(row[f]) - double(offset[f])) * (double(row[f]) - double(offset[f]));
  return s;
}

}  // namespace

int paddedStride(int factors) noexcept { return (factors + kLanes - 1) / kLanes * kLanes; }

void FactorTable::resize(std::int64_t rowCount, int factorCount) {
  rows = rowCount;
  factors = factorCount;
  stride = paddedStride(factorCount);
  values.assign(static_cast<std::size_t>(rows * stride), 0.0f);
}

TrainingRatings TrainingRatings::build(std::span<const Rating> ratings, std::int32_t users, std::int32_t items) {
  TrainingRatings d;
  d.users = users;
  d.items = items;
  d.count = static_cast<std::int64_t>(ratings.size());
  double sum = 0.0;
  d.low = ratings.empty() ? 0.0 : ratings.front().value;
  d.high = d.low;
  for (const auto& r : ratings) {
    sum += r.value;
    d.low = std::min(d.low, r.value);
    d.high = std::max(d.high, r.value);
  }
  d.mean = ratings.empty() ? 0.0 : sum / double(ratings.size());
  // Counting sort into both layouts; within a row the ratings keep their input order.
  d.userStart.assign(static_cast<std::size_t>(users) + 1, 0);
  d.itemStart.assign(static_cast<std::size_t>(items) + 1, 0);
  for (const auto& r : ratings) {
    ++d.userStart[static_cast<std::size_t>(r.user) + 1];
    ++d.itemStart[static_cast<std::size_t>(r.item) + 1];
  }
  for (std::size_t u = 0; u < static_cast<std::size_t>(users); ++u) d.userStart[u + 1] += d.userStart[u];
  for (std::size_t i = 0; i < static_cast<std::size_t>(items); ++i) d.itemStart[i + 1] += d.itemStart[i];
  d.userItems.resize(ratings.size());
  d.itemUsers.resize(ratings.size());
  d.userValues.resize(ratings.size());
  d.itemValues.resize(ratings.size());
  std::vector<std::int64_t> userNext(d.userStart.begin(), d.userStart.end() - 1);
  std::vector<std::int64_t> itemNext(d.itemStart.begin(), d.itemStart.end() - 1);
  for (const auto& r : ratings) {
    const auto centred = static_cast<float>(r.value - d.mean);
    const auto u = static_cast<std::size_t>(userNext[static_cast<std::size_t>(r.user)]++);
    d.userItems[u] = r.item;
    d.userValues[u] = centred;
    const auto i = static_cast<std::size_t>(itemNext[static_cast<std::size_t>(r.item)]++);
    d.itemUsers[i] = r.user;
    d.itemValues[i] = centred;
  }
  return d;
}

Parameters Parameters::initial(const TrainingRatings& data, int factors, double initScale, std::uint64_t seed,
                               bool implicit) {
  Parameters p;
  p.users.resize(data.users, factors);
  p.items.resize(data.items, factors);
  if (implicit && factors > 0) {
    p.implicit.resize(data.items, factors);
    p.implicitSums.resize(data.users, factors);
  }
  fillNormal(p.users, initScale, Rng(seed, kUserStream));
  fillNormal(p.items, initScale, Rng(seed, kItemStream));
  // A row without training ratings has its prior mean, zero, as MAP estimate; SGD never visits it.
  for (std::int32_t u = 0; u < data.users; ++u)
    if (data.userDegree(u) == 0) std::fill(p.users.row(u), p.users.row(u) + p.users.stride, 0.0f);
  for (std::int32_t i = 0; i < data.items; ++i)
    if (data.itemDegree(i) == 0) std::fill(p.items.row(i), p.items.row(i) + p.items.stride, 0.0f);
  p.userBias.assign(static_cast<std::size_t>(data.users), 0.0f);
  p.itemBias.assign(static_cast<std::size_t>(data.items), 0.0f);
  p.mean = data.mean;
  p.low = data.low;
  p.high = data.high;
  return p;
}

double Parameters::interaction(std::int32_t u, std::int32_t i) const noexcept {
  return users.stride == 0 ? 0.0 : double(dotRows(users.row(u), items.row(i), users.stride));
}

double Parameters::predict(std::int32_t u, std::int32_t i) const noexcept {
  return std::clamp(predictRaw(u, i), low, high);
}

TrainingFit trainingFit(const TrainingRatings& data, const Parameters& params, const Regularization& reg) {
  TrainingFit fit;
  if (data.count == 0) return fit;
  // Per chunk of users: squared errors (raw and clipped) and the users' penalties; chunks of users
  // are fixed, so the sums come out the same for any thread count.
  constexpr std::int32_t kUsersPerChunk = 256;
  const std::int32_t chunks = (data.users + kUsersPerChunk - 1) / kUsersPerChunk;
  std::vector<std::array<double, 3>> partial(static_cast<std::size_t>(chunks));
  tbb::parallel_for(tbb::blocked_range<std::int32_t>(0, chunks, 1), [&](const auto& range) {
    for (std::int32_t c = range.begin(); c != range.end(); ++c) {
      std::array<double, 3> s{0.0, 0.0, 0.0};
      for (std::int32_t u = c * kUsersPerChunk, last = std::min(data.users, u + kUsersPerChunk); u < last; ++u) {
        for (auto k = data.userStart[u]; k < data.userStart[u + 1]; ++k) {
          const auto idx = static_cast<std::size_t>(k);
          const auto i = data.userItems[idx];
          const double actual = params.mean + double(data.userValues[idx]);
          const double raw = params.predictRaw(u, i);
          const double clipped = std::clamp(raw, params.low, params.high);
          s[0] += (actual - raw) * (actual - raw);
          s[1] += (actual - clipped) * (actual - clipped);
        }
        const auto n = data.userDegree(u);
        const double own = params.hasImplicit()
                               ? squaredDistance(params.users.row(u), params.implicitSums.row(u), params.users.factors)
                               : squaredNorm(params.users.row(u), params.users.factors);
        s[2] += reg.factorRidge(n) * own + reg.biasRidge(n) * double(params.userBias[u]) * double(params.userBias[u]);
      }
      partial[static_cast<std::size_t>(c)] = s;
    }
  });
  double squares = 0.0, clippedSquares = 0.0, penalty = 0.0;
  for (const auto& s : partial) {
    squares += s[0];
    clippedSquares += s[1];
    penalty += s[2];
  }
  for (std::int32_t i = 0; i < data.items; ++i) {
    const auto n = data.itemDegree(i);
    penalty += reg.factorRidge(n) * squaredNorm(params.items.row(i), params.items.factors) +
               reg.biasRidge(n) * double(params.itemBias[i]) * double(params.itemBias[i]);
    // y_j carries the item's factor penalty (Koren 2008 penalises p, q and y alike).
    if (params.hasImplicit()) penalty += reg.factorRidge(n) * squaredNorm(params.implicit.row(i), params.items.factors);
  }
  fit.rmse = std::sqrt(clippedSquares / double(data.count));
  fit.objective = (squares + penalty) / double(data.count);
  return fit;
}

double heldoutRmse(std::span<const Rating> ratings, const Parameters& params) {
  if (ratings.empty()) return 0.0;
  const double squares = orderedSum(static_cast<std::int64_t>(ratings.size()), [&](std::int64_t k) {
    const auto& r = ratings[static_cast<std::size_t>(k)];
    const double e = r.value - params.predict(r.user, r.item);
    return e * e;
  });
  return std::sqrt(squares / double(ratings.size()));
}

std::vector<NamedMatrix> toMatrices(const Parameters& params) {
  auto table = [](const FactorTable& t) {
    Eigen::MatrixXd m(t.rows, t.factors);
    for (std::int64_t r = 0; r < t.rows; ++r)
      for (int f = 0; f < t.factors; ++f) m(r, f) = t.row(r)[f];
    return m;
  };
  auto column = [](const std::vector<float>& v) {
    Eigen::MatrixXd m(static_cast<Eigen::Index>(v.size()), 1);
    for (std::size_t k = 0; k < v.size(); ++k) m(static_cast<Eigen::Index>(k), 0) = v[k];
    return m;
  };
  std::vector<NamedMatrix> out;
  out.push_back({kUserFactors, table(params.users)});
  out.push_back({kItemFactors, table(params.items)});
  if (params.hasImplicit()) out.push_back({kItemImplicit, table(params.implicit)});
  out.push_back({kUserBias, column(params.userBias)});
  out.push_back({kItemBias, column(params.itemBias)});
  out.push_back({kGlobalMean, Eigen::MatrixXd::Constant(1, 1, params.mean)});
  Eigen::MatrixXd range(1, 2);
  range << params.low, params.high;
  out.push_back({kRatingRange, range});
  return out;
}

}  // namespace latent::core::pmf
