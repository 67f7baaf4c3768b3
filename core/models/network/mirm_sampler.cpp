// SPDX-License-Identifier: GPL-3.0-or-later
// Collapsed Gibbs and split-merge moves for the multi-relational IRM: O(R K^2 + C + degree) work per
// node move for R relations, K node blocks and C feature clusters; O(N + K C) per feature move.
#include "core/models/network/mirm_sampler.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <unordered_map>

#include "core/util/errors.hpp"
#include "core/util/special_functions.hpp"

namespace latent::core::network {
namespace {

// Entries of each log Gamma table; larger counts fall back to lgamma.
constexpr std::int64_t kMirmLogGammaTableLength = 1 << 18;

double mirmLogCrp(double alpha, std::int64_t members, std::span<const std::int64_t> sizes, std::span<const int> ids) {
  if (members == 0) return 0.0;
  // Ewens' formula: alpha^K prod_k (n_k - 1)! Gamma(alpha) / Gamma(alpha + n).
  double sum = static_cast<double>(ids.size()) * std::log(alpha) + logGamma(alpha) -
               logGamma(alpha + static_cast<double>(members));
  for (const int k : ids) sum += logGamma(static_cast<double>(sizes[static_cast<std::size_t>(k)]));
  return sum;
}

int mirmSample(std::span<const double> logWeights, Rng& rng) {
  const double top = *std::max_element(logWeights.begin(), logWeights.end());
  double total = 0.0;
  for (const double w : logWeights) total += std::exp(w - top);
  double u = rng.uniform() * total;
  for (std::size_t c = 0; c < logWeights.size(); ++c) {
    u -= std::exp(logWeights[c] - top);
    if (u <= 0.0) return static_cast<int>(c);
  }
  return static_cast<int>(logWeights.size()) - 1;
}

}  // namespace

MirmSampler::MirmSampler(const MirmData& data, MirmPriors priors) : m_data(data), m_priors(priors) {
  m_logBetaPrior = logBeta(priors.a, priors.b);
  const std::int64_t n = std::max<std::int64_t>(data.nodes, data.features);
  const auto length = static_cast<std::size_t>(std::min<std::int64_t>(n * n + 1, kMirmLogGammaTableLength));
  m_logGammaA.resize(length);
  m_logGammaB.resize(length);
  m_logGammaAB.resize(length);
  for (std::size_t x = 0; x < length; ++x) {
    m_logGammaA[x] = logGamma(priors.a + static_cast<double>(x));
    m_logGammaB[x] = logGamma(priors.b + static_cast<double>(x));
    m_logGammaAB[x] = logGamma(priors.a + priors.b + static_cast<double>(x));
  }
  m_z.assign(static_cast<std::size_t>(data.nodes), -1);
  m_w.assign(static_cast<std::size_t>(data.features), -1);
  m_counts.resize(data.relations.size());
  const std::size_t relations = data.relations.size();
  m_out.resize(relations);
  m_in.resize(relations);
  m_missOut.resize(relations);
  m_missIn.resize(relations);
  m_order.resize(static_cast<std::size_t>(data.nodes));
  for (std::int32_t v = 0; v < data.nodes; ++v) m_order[static_cast<std::size_t>(v)] = v;
  m_featureOrder.resize(static_cast<std::size_t>(data.features));
  for (std::int32_t f = 0; f < data.features; ++f) m_featureOrder[static_cast<std::size_t>(f)] = f;
  growFeatures(static_cast<std::size_t>(std::max(1, data.features)) + 1);
  grow(16);
}

void MirmSampler::grow(std::size_t capacity) {
  const std::size_t old = m_capacity;
  if (capacity <= old) return;
  const auto regrid = [&](std::vector<std::int64_t>& values, std::size_t oldColumns, std::size_t newColumns) {
    std::vector<std::int64_t> next(capacity * newColumns, 0);
    for (std::size_t k = 0; k < old; ++k)
      std::copy_n(values.begin() + static_cast<std::ptrdiff_t>(k * oldColumns), std::min(oldColumns, newColumns),
                  next.begin() + static_cast<std::ptrdiff_t>(k * newColumns));
    values.swap(next);
  };
  for (auto& counts : m_counts) {
    regrid(counts.links, old, capacity);
    regrid(counts.missing, old, capacity);
  }
  regrid(m_featureCounts.links, m_featureCapacity, m_featureCapacity);
  regrid(m_featureCounts.missing, m_featureCapacity, m_featureCapacity);
  m_capacity = capacity;
  m_size.resize(capacity, 0);
  m_open.resize(capacity, 0);
  m_isTouched.resize(capacity, 0);
  for (std::size_t r = 0; r < m_counts.size(); ++r) {
    m_out[r].resize(capacity, 0);
    m_in[r].resize(capacity, 0);
    m_missOut[r].resize(capacity, 0);
    m_missIn[r].resize(capacity, 0);
  }
  m_columnOnes.resize(capacity, 0);
  m_columnMissing.resize(capacity, 0);
}

void MirmSampler::growFeatures(std::size_t capacity) {
  const std::size_t old = m_featureCapacity;
  if (capacity <= old) return;
  const auto regrid = [&](std::vector<std::int64_t>& values) {
    std::vector<std::int64_t> next(m_capacity * capacity, 0);
    for (std::size_t k = 0; k < m_capacity; ++k)
      std::copy_n(values.begin() + static_cast<std::ptrdiff_t>(k * old), old,
                  next.begin() + static_cast<std::ptrdiff_t>(k * capacity));
    values.swap(next);
  };
  regrid(m_featureCounts.links);
  regrid(m_featureCounts.missing);
  m_featureCapacity = capacity;
  m_featureSize.resize(capacity, 0);
  m_featureOpen.resize(capacity, 0);
  m_featureOnes.resize(capacity, 0);
  m_featureMissing.resize(capacity, 0);
}

int MirmSampler::openBlock() {
  int id = 0;
  while (static_cast<std::size_t>(id) < m_capacity && m_open[static_cast<std::size_t>(id)]) ++id;
  if (static_cast<std::size_t>(id) >= m_capacity) grow(2 * m_capacity);
  m_open[static_cast<std::size_t>(id)] = 1;
  m_size[static_cast<std::size_t>(id)] = 0;
  m_blocks.push_back(id);
  return id;
}

int MirmSampler::openFeatureBlock() {
  int id = 0;
  while (static_cast<std::size_t>(id) < m_featureCapacity && m_featureOpen[static_cast<std::size_t>(id)]) ++id;
  if (static_cast<std::size_t>(id) >= m_featureCapacity) growFeatures(2 * m_featureCapacity);
  m_featureOpen[static_cast<std::size_t>(id)] = 1;
  m_featureSize[static_cast<std::size_t>(id)] = 0;
  m_featureBlocks.push_back(id);
  return id;
}

void MirmSampler::clearState() {
  std::fill(m_z.begin(), m_z.end(), -1);
  std::fill(m_w.begin(), m_w.end(), -1);
  std::fill(m_size.begin(), m_size.end(), 0);
  std::fill(m_open.begin(), m_open.end(), 0);
  std::fill(m_featureSize.begin(), m_featureSize.end(), 0);
  std::fill(m_featureOpen.begin(), m_featureOpen.end(), 0);
  for (auto& counts : m_counts) {
    std::fill(counts.links.begin(), counts.links.end(), 0);
    std::fill(counts.missing.begin(), counts.missing.end(), 0);
  }
  std::fill(m_featureCounts.links.begin(), m_featureCounts.links.end(), 0);
  std::fill(m_featureCounts.missing.begin(), m_featureCounts.missing.end(), 0);
  m_blocks.clear();
  m_featureBlocks.clear();
}

void MirmSampler::assign(std::span<const int> nodeLabels, std::span<const int> featureLabels) {
  if (nodeLabels.size() != static_cast<std::size_t>(m_data.nodes) ||
      featureLabels.size() != static_cast<std::size_t>(m_data.features))
    throw UsageError("irm-multi: a partition needs one block per node and one cluster per feature");
  for (const int l : nodeLabels)
    if (l < 0) throw UsageError("irm-multi: block labels must not be negative");
  for (const int l : featureLabels)
    if (l < 0) throw UsageError("irm-multi: feature cluster labels must not be negative");
  clearState();
  // Features first, with no node placed yet, so that their clusters hold no counts; each node then
  // adds its pairs with the nodes already placed (gather skips unplaced nodes) and its feature values.
  std::unordered_map<int, int> featureIdOf;
  for (std::int32_t f = 0; f < m_data.features; ++f) {
    const int label = featureLabels[static_cast<std::size_t>(f)];
    auto at = featureIdOf.find(label);
    if (at == featureIdOf.end()) at = featureIdOf.emplace(label, openFeatureBlock()).first;
    m_w[static_cast<std::size_t>(f)] = at->second;
    ++m_featureSize[static_cast<std::size_t>(at->second)];
  }
  std::unordered_map<int, int> idOf;
  for (std::int32_t v = 0; v < m_data.nodes; ++v) {
    const int label = nodeLabels[static_cast<std::size_t>(v)];
    auto at = idOf.find(label);
    if (at == idOf.end()) at = idOf.emplace(label, openBlock()).first;
    moveNode(v, at->second);
  }
}

void MirmSampler::assignRandom(Rng& rng, int nodeBlocks, int featureBlocks) {
  std::vector<int> z(static_cast<std::size_t>(m_data.nodes)), w(static_cast<std::size_t>(m_data.features));
  const auto k = static_cast<std::uint64_t>(std::clamp(nodeBlocks, 1, std::max(1, m_data.nodes)));
  const auto c = static_cast<std::uint64_t>(std::clamp(featureBlocks, 1, std::max(1, m_data.features)));
  for (auto& l : z) l = static_cast<int>(rng.below(k));
  for (auto& l : w) l = static_cast<int>(rng.below(c));
  assign(z, w);
}

double MirmSampler::cellLog(std::int64_t links, std::int64_t nonLinks) const noexcept {
  const auto lookup = [](const std::vector<double>& table, double base, std::int64_t x) {
    return static_cast<std::size_t>(x) < table.size() ? table[static_cast<std::size_t>(x)]
                                                      : logGamma(base + static_cast<double>(x));
  };
  return lookup(m_logGammaA, m_priors.a, links) + lookup(m_logGammaB, m_priors.b, nonLinks) -
         lookup(m_logGammaAB, m_priors.a + m_priors.b, links + nonLinks) - m_logBetaPrior;
}

double MirmSampler::cellGain(std::int64_t pairs, std::int64_t links, std::int64_t missing, std::int64_t addPairs,
                             std::int64_t addLinks, std::int64_t addMissing) const noexcept {
  if (addPairs == addMissing) return 0.0;  // nothing observed is added
  const std::int64_t nonLinks = pairs - links - missing;
  const std::int64_t addNonLinks = addPairs - addLinks - addMissing;
  return cellLog(links + addLinks, nonLinks + addNonLinks) - cellLog(links, nonLinks);
}

std::int64_t MirmSampler::pairs(const IrmRelation& relation, int k, int l) const noexcept {
  const std::int64_t nk = m_size[static_cast<std::size_t>(k)], nl = m_size[static_cast<std::size_t>(l)];
  if (k != l) return nk * nl;
  return relation.directed ? nk * (nk - 1) : nk * (nk - 1) / 2;
}

void MirmSampler::gather(std::int32_t i) {
  const auto touch = [&](int b) {
    if (!m_isTouched[static_cast<std::size_t>(b)]) {
      m_isTouched[static_cast<std::size_t>(b)] = 1;
      m_touched.push_back(b);
    }
  };
  const auto count = [&](std::span<const std::int32_t> partners, std::vector<std::int64_t>& into) {
    for (const auto u : partners) {
      const int b = m_z[static_cast<std::size_t>(u)];
      if (b < 0) continue;
      touch(b);
      ++into[static_cast<std::size_t>(b)];
    }
  };
  for (std::size_t r = 0; r < m_data.relations.size(); ++r) {
    const auto& relation = m_data.relations[r];
    count(relation.outOf(i), m_out[r]);
    count(relation.inOf(i), m_in[r]);
    count(relation.missingOutOf(i), m_missOut[r]);
    count(relation.missingInOf(i), m_missIn[r]);
  }
  for (std::int32_t f = 0; f < m_data.features; ++f) {
    const int c = m_w[static_cast<std::size_t>(f)];
    const std::int8_t value = m_data.feature(i, f);
    if (value == 1) ++m_featureOnes[static_cast<std::size_t>(c)];
    if (value < 0) ++m_featureMissing[static_cast<std::size_t>(c)];
  }
}

void MirmSampler::clearScratch() {
  for (const int b : m_touched) {
    const auto bi = static_cast<std::size_t>(b);
    m_isTouched[bi] = 0;
    for (std::size_t r = 0; r < m_data.relations.size(); ++r)
      m_out[r][bi] = m_in[r][bi] = m_missOut[r][bi] = m_missIn[r][bi] = 0;
  }
  m_touched.clear();
  for (const int c : m_featureBlocks)
    m_featureOnes[static_cast<std::size_t>(c)] = m_featureMissing[static_cast<std::size_t>(c)] = 0;
}

// Adds (+1) or removes (-1) the gathered node i to or from block k's counts. Undirected counts are
// kept in both (k, l) and (l, k).
void MirmSampler::apply(std::int32_t, int k, int sign) {
  for (std::size_t r = 0; r < m_data.relations.size(); ++r) {
    auto& counts = m_counts[r];
    const bool directed = m_data.relations[r].directed;
    for (const int b : m_touched) {
      const auto bi = static_cast<std::size_t>(b);
      counts.links[cell(k, b)] += sign * m_out[r][bi];
      counts.missing[cell(k, b)] += sign * m_missOut[r][bi];
      if (directed) {
        counts.links[cell(b, k)] += sign * m_in[r][bi];
        counts.missing[cell(b, k)] += sign * m_missIn[r][bi];
      } else if (b != k) {
        counts.links[cell(b, k)] += sign * m_out[r][bi];
        counts.missing[cell(b, k)] += sign * m_missOut[r][bi];
      }
    }
  }
  for (const int c : m_featureBlocks) {
    const auto ci = static_cast<std::size_t>(c);
    m_featureCounts.links[featureCell(k, c)] += sign * m_featureOnes[ci];
    m_featureCounts.missing[featureCell(k, c)] += sign * m_featureMissing[ci];
  }
  m_size[static_cast<std::size_t>(k)] += sign;
}

void MirmSampler::detach(std::int32_t i) {
  const int k = m_z[static_cast<std::size_t>(i)];
  apply(i, k, -1);
  m_z[static_cast<std::size_t>(i)] = -1;
}

void MirmSampler::attach(std::int32_t i, int k) {
  apply(i, k, +1);
  m_z[static_cast<std::size_t>(i)] = k;
}

void MirmSampler::moveNode(std::int32_t i, int k) {
  const int from = m_z[static_cast<std::size_t>(i)];
  gather(i);
  if (from >= 0) detach(i);
  attach(i, k);
  clearScratch();
  if (from >= 0 && from != k && m_size[static_cast<std::size_t>(from)] == 0) {
    m_open[static_cast<std::size_t>(from)] = 0;
    m_blocks.erase(std::find(m_blocks.begin(), m_blocks.end(), from));
  }
}

double MirmSampler::nodeGain(int k) const {
  const std::int64_t nk = k >= 0 ? m_size[static_cast<std::size_t>(k)] : 0;
  double gain = 0.0;
  for (std::size_t r = 0; r < m_data.relations.size(); ++r) {
    const auto& relation = m_data.relations[r];
    const auto& counts = m_counts[r];
    const auto& out = m_out[r];
    const auto& missOut = m_missOut[r];
    for (const int l : m_blocks) {
      if (l == k) continue;
      const auto li = static_cast<std::size_t>(l);
      const std::int64_t nl = m_size[li];
      const std::int64_t p = nk * nl;
      const std::int64_t kl = k >= 0 ? counts.links[cell(k, l)] : 0, km = k >= 0 ? counts.missing[cell(k, l)] : 0;
      gain += cellGain(p, kl, km, nl, out[li], missOut[li]);
      if (relation.directed) {
        const std::int64_t lk = k >= 0 ? counts.links[cell(l, k)] : 0, lm = k >= 0 ? counts.missing[cell(l, k)] : 0;
        gain += cellGain(p, lk, lm, nl, m_in[r][li], m_missIn[r][li]);
      }
    }
    if (k >= 0 && nk > 0) {
      const auto ki = static_cast<std::size_t>(k);
      const std::int64_t p = pairs(relation, k, k);
      const std::int64_t addLinks = out[ki] + (relation.directed ? m_in[r][ki] : 0);
      const std::int64_t addMissing = missOut[ki] + (relation.directed ? m_missIn[r][ki] : 0);
      gain += cellGain(p, counts.links[cell(k, k)], counts.missing[cell(k, k)], relation.directed ? 2 * nk : nk,
                       addLinks, addMissing);
    }
  }
  for (const int c : m_featureBlocks) {
    const auto ci = static_cast<std::size_t>(c);
    const std::int64_t mc = m_featureSize[ci];
    const std::int64_t ones = k >= 0 ? m_featureCounts.links[featureCell(k, c)] : 0;
    const std::int64_t missing = k >= 0 ? m_featureCounts.missing[featureCell(k, c)] : 0;
    gain += cellGain(nk * mc, ones, missing, mc, m_featureOnes[ci], m_featureMissing[ci]);
  }
  return gain;
}

void MirmSampler::nodeStep(std::int32_t i, Rng& rng) {
  const int from = m_z[static_cast<std::size_t>(i)];
  gather(i);
  detach(i);
  m_candidates.clear();
  m_weights.clear();
  for (const int k : m_blocks) {
    if (m_size[static_cast<std::size_t>(k)] == 0) continue;  // i's own block, now empty: the new block stands for it
    m_candidates.push_back(k);
    m_weights.push_back(std::log(static_cast<double>(m_size[static_cast<std::size_t>(k)])) + nodeGain(k));
  }
  // At the cap a new block is not offered (a truncated CRP), which bounds the K x K tables.
  const bool offerNew = blockCount() < kIrmMaxBlocks || m_size[static_cast<std::size_t>(from)] == 0;
  if (offerNew) m_weights.push_back(std::log(m_priors.concentration) + nodeGain(-1));
  const auto choice = static_cast<std::size_t>(mirmSample(m_weights, rng));
  int k = 0;
  if (choice < m_candidates.size()) {
    k = m_candidates[choice];
  } else if (m_size[static_cast<std::size_t>(from)] == 0) {
    k = from;  // a new block: i's emptied one serves
  } else {
    // openBlock may grow the tables, which keeps the gathered scratch (it only appends).
    k = openBlock();
  }
  attach(i, k);
  clearScratch();
  if (k != from && m_size[static_cast<std::size_t>(from)] == 0) {
    m_open[static_cast<std::size_t>(from)] = 0;
    m_blocks.erase(std::find(m_blocks.begin(), m_blocks.end(), from));
  }
}

std::vector<IrmCandidate> MirmSampler::conditional(std::int32_t i) {
  const int from = m_z[static_cast<std::size_t>(i)];
  gather(i);
  detach(i);
  std::vector<IrmCandidate> out;
  std::vector<double> logWeights;
  for (const int k : m_blocks) {
    if (m_size[static_cast<std::size_t>(k)] == 0) continue;
    out.push_back({k, 0.0});
    logWeights.push_back(std::log(static_cast<double>(m_size[static_cast<std::size_t>(k)])) + nodeGain(k));
  }
  out.push_back({-1, 0.0});
  logWeights.push_back(std::log(m_priors.concentration) + nodeGain(-1));
  const double top = *std::max_element(logWeights.begin(), logWeights.end());
  double total = 0.0;
  for (const double w : logWeights) total += std::exp(w - top);
  for (std::size_t c = 0; c < out.size(); ++c) out[c].probability = std::exp(logWeights[c] - top) / total;
  attach(i, from);  // i's block stayed open while empty
  clearScratch();
  return out;
}

std::vector<IrmCandidate> MirmSampler::featureConditional(std::int32_t f) {
  const int from = m_w[static_cast<std::size_t>(f)];
  gatherFeature(f);
  applyFeature(from, -1);
  std::vector<IrmCandidate> out;
  std::vector<double> logWeights;
  for (const int c : m_featureBlocks) {
    if (m_featureSize[static_cast<std::size_t>(c)] == 0) continue;
    out.push_back({c, 0.0});
    logWeights.push_back(std::log(static_cast<double>(m_featureSize[static_cast<std::size_t>(c)])) + featureGain(c));
  }
  out.push_back({-1, 0.0});
  logWeights.push_back(std::log(m_priors.featureConcentration) + featureGain(-1));
  const double top = *std::max_element(logWeights.begin(), logWeights.end());
  double total = 0.0;
  for (const double w : logWeights) total += std::exp(w - top);
  for (std::size_t c = 0; c < out.size(); ++c) out[c].probability = std::exp(logWeights[c] - top) / total;
  applyFeature(from, +1);
  return out;
}

void MirmSampler::gatherFeature(std::int32_t f) {
  for (const int k : m_blocks)
    m_columnOnes[static_cast<std::size_t>(k)] = m_columnMissing[static_cast<std::size_t>(k)] = 0;
  for (std::int32_t v = 0; v < m_data.nodes; ++v) {
    const int k = m_z[static_cast<std::size_t>(v)];
    const std::int8_t value = m_data.feature(v, f);
    if (value == 1) ++m_columnOnes[static_cast<std::size_t>(k)];
    if (value < 0) ++m_columnMissing[static_cast<std::size_t>(k)];
  }
}

void MirmSampler::applyFeature(int c, int sign) {
  for (const int k : m_blocks) {
    const auto ki = static_cast<std::size_t>(k);
    m_featureCounts.links[featureCell(k, c)] += sign * m_columnOnes[ki];
    m_featureCounts.missing[featureCell(k, c)] += sign * m_columnMissing[ki];
  }
  m_featureSize[static_cast<std::size_t>(c)] += sign;
}

double MirmSampler::featureGain(int c) const {
  double gain = 0.0;
  const std::int64_t mc = c >= 0 ? m_featureSize[static_cast<std::size_t>(c)] : 0;
  for (const int k : m_blocks) {
    const auto ki = static_cast<std::size_t>(k);
    const std::int64_t nk = m_size[ki];
    const std::int64_t ones = c >= 0 ? m_featureCounts.links[featureCell(k, c)] : 0;
    const std::int64_t missing = c >= 0 ? m_featureCounts.missing[featureCell(k, c)] : 0;
    gain += cellGain(nk * mc, ones, missing, nk, m_columnOnes[ki], m_columnMissing[ki]);
  }
  return gain;
}

void MirmSampler::featureStep(std::int32_t f, Rng& rng) {
  const int from = m_w[static_cast<std::size_t>(f)];
  gatherFeature(f);
  applyFeature(from, -1);
  m_candidates.clear();
  m_weights.clear();
  for (const int c : m_featureBlocks) {
    if (m_featureSize[static_cast<std::size_t>(c)] == 0) continue;
    m_candidates.push_back(c);
    m_weights.push_back(std::log(static_cast<double>(m_featureSize[static_cast<std::size_t>(c)])) + featureGain(c));
  }
  m_weights.push_back(std::log(m_priors.featureConcentration) + featureGain(-1));
  const auto choice = static_cast<std::size_t>(mirmSample(m_weights, rng));
  int c = 0;
  if (choice < m_candidates.size())
    c = m_candidates[choice];
  else if (m_featureSize[static_cast<std::size_t>(from)] == 0)
    c = from;
  else
    c = openFeatureBlock();
  applyFeature(c, +1);
  m_w[static_cast<std::size_t>(f)] = c;
  if (c != from && m_featureSize[static_cast<std::size_t>(from)] == 0) {
    m_featureOpen[static_cast<std::size_t>(from)] = 0;
    m_featureBlocks.erase(std::find(m_featureBlocks.begin(), m_featureBlocks.end(), from));
  }
}

bool MirmSampler::gibbsSweep(Rng& rng, std::stop_token stop) {
  rng.shuffle(std::span<std::int32_t>(m_order));
  for (std::size_t n = 0; n < m_order.size(); ++n) {
    // A stop is seen within 64 moves: well under the 200 ms the job runtime allows.
    if ((n & 63) == 0 && stop.stop_requested()) return false;
    nodeStep(m_order[n], rng);
  }
  rng.shuffle(std::span<std::int32_t>(m_featureOrder));
  for (std::size_t n = 0; n < m_featureOrder.size(); ++n) {
    if ((n & 63) == 0 && stop.stop_requested()) return false;
    featureStep(m_featureOrder[n], rng);
  }
  return true;
}

bool MirmSampler::restrictedScan(std::span<const std::int32_t> members, int x, int y, Rng& rng, double* logQ,
                                 const std::vector<int>* forced, std::stop_token stop) {
  for (std::size_t m = 0; m < members.size(); ++m) {
    if ((m & 63) == 0 && stop.stop_requested()) return false;
    const std::int32_t u = members[m];
    gather(u);
    detach(u);  // its block keeps its anchor node, so it stays open
    const double wx = std::log(static_cast<double>(m_size[static_cast<std::size_t>(x)])) + nodeGain(x);
    const double wy = std::log(static_cast<double>(m_size[static_cast<std::size_t>(y)])) + nodeGain(y);
    const double top = std::max(wx, wy);
    const double logNorm = top + std::log(std::exp(wx - top) + std::exp(wy - top));
    const bool toX = forced ? (*forced)[m] == x : rng.uniform() < std::exp(wx - logNorm);
    if (logQ) *logQ += (toX ? wx : wy) - logNorm;
    attach(u, toX ? x : y);
    clearScratch();
  }
  return true;
}

// The launch of a split-merge proposal, as the irm's (irm_sampler.cpp): the members are taken out
// and put back one at a time in a random order by the restricted conditional (Dahl 2005).
bool MirmSampler::sequentialLaunch(std::span<const std::int32_t> members, int x, int y, Rng& rng,
                                   std::stop_token stop) {
  m_launchOrder.assign(members.begin(), members.end());
  rng.shuffle(std::span<std::int32_t>(m_launchOrder));
  for (const auto u : m_launchOrder) {
    gather(u);
    detach(u);
    clearScratch();
  }
  for (std::size_t m = 0; m < m_launchOrder.size(); ++m) {
    if ((m & 63) == 0 && stop.stop_requested()) return false;
    const std::int32_t u = m_launchOrder[m];
    gather(u);
    const double wx = std::log(static_cast<double>(m_size[static_cast<std::size_t>(x)])) + nodeGain(x);
    const double wy = std::log(static_cast<double>(m_size[static_cast<std::size_t>(y)])) + nodeGain(y);
    const double top = std::max(wx, wy);
    const bool toX = rng.uniform() < std::exp(wx - top - std::log(std::exp(wx - top) + std::exp(wy - top)));
    attach(u, toX ? x : y);
    clearScratch();
  }
  return true;
}

bool MirmSampler::proposeSplitMerge(Rng& rng, int scans, std::stop_token stop) {
  const auto n = static_cast<std::uint64_t>(m_data.nodes);
  const auto i = static_cast<std::int32_t>(rng.below(n));
  auto j = static_cast<std::int32_t>(rng.below(n - 1));
  if (j >= i) ++j;
  const int ci = m_z[static_cast<std::size_t>(i)], cj = m_z[static_cast<std::size_t>(j)];
  if (ci == cj && blockCount() >= kIrmMaxBlocks) return false;
  std::vector<std::int32_t> others;
  for (std::int32_t u = 0; u < m_data.nodes; ++u)
    if (u != i && u != j && (m_z[static_cast<std::size_t>(u)] == ci || m_z[static_cast<std::size_t>(u)] == cj))
      others.push_back(u);
  const double before = logJoint();

  if (ci == cj) {
    // Split: i opens a block, the others settle between i's and j's blocks; the last restricted
    // scan's probability is the proposal's (Jain & Neal 2004, eq. 3.7).
    const int si = openBlock();
    moveNode(i, si);
    bool complete = sequentialLaunch(others, si, cj, rng, stop);
    for (int s = 0; s < scans && complete; ++s) complete = restrictedScan(others, si, cj, rng, nullptr, nullptr, stop);
    double logQ = 0.0;
    complete = complete && restrictedScan(others, si, cj, rng, &logQ, nullptr, stop);
    if (complete && std::log(rng.uniform()) < logJoint() - before - logQ) return true;
    for (const auto u : others)
      if (m_z[static_cast<std::size_t>(u)] != cj) moveNode(u, cj);
    moveNode(i, cj);
    return false;
  }

  // Merge: the reverse proposal's probability is that of the restricted scans producing the split.
  std::vector<int> original(others.size());
  for (std::size_t m = 0; m < others.size(); ++m) original[m] = m_z[static_cast<std::size_t>(others[m])];
  bool complete = sequentialLaunch(others, ci, cj, rng, stop);
  for (int s = 0; s < scans && complete; ++s) complete = restrictedScan(others, ci, cj, rng, nullptr, nullptr, stop);
  double logQ = 0.0;
  complete = complete && restrictedScan(others, ci, cj, rng, &logQ, &original, stop);
  if (!complete) {
    for (std::size_t m = 0; m < others.size(); ++m) moveNode(others[m], original[m]);
    return false;
  }
  for (const auto u : others)
    if (m_z[static_cast<std::size_t>(u)] == ci) moveNode(u, cj);
  moveNode(i, cj);  // closes ci
  if (std::log(rng.uniform()) < logJoint() - before + logQ) return true;
  // Rejected: ci reopens under its old id (it is free again) and takes its members back.
  m_open[static_cast<std::size_t>(ci)] = 1;
  m_size[static_cast<std::size_t>(ci)] = 0;
  m_blocks.push_back(ci);
  moveNode(i, ci);
  for (std::size_t m = 0; m < others.size(); ++m)
    if (original[m] == ci) moveNode(others[m], ci);
  return false;
}

SplitMergeTally MirmSampler::splitMerge(Rng& rng, int proposals, int scans, std::stop_token stop) {
  SplitMergeTally tally;
  if (m_data.nodes < 2) return tally;
  for (int p = 0; p < proposals; ++p) {
    if (stop.stop_requested()) break;
    ++tally.proposed;
    if (proposeSplitMerge(rng, scans, stop)) ++tally.accepted;
  }
  return tally;
}

double MirmSampler::logJoint() const {
  double sum = mirmLogCrp(m_priors.concentration, m_data.nodes, m_size, m_blocks) +
               mirmLogCrp(m_priors.featureConcentration, m_data.features, m_featureSize, m_featureBlocks);
  for (std::size_t r = 0; r < m_data.relations.size(); ++r) {
    const auto& relation = m_data.relations[r];
    const auto& counts = m_counts[r];
    for (std::size_t x = 0; x < m_blocks.size(); ++x)
      for (std::size_t y = relation.directed ? 0 : x; y < m_blocks.size(); ++y) {
        const int k = m_blocks[x], l = m_blocks[y];
        const auto c = cell(k, l);
        sum += cellLog(counts.links[c], pairs(relation, k, l) - counts.links[c] - counts.missing[c]);
      }
  }
  for (const int k : m_blocks)
    for (const int c : m_featureBlocks) {
      const auto at = featureCell(k, c);
      const std::int64_t p = m_size[static_cast<std::size_t>(k)] * m_featureSize[static_cast<std::size_t>(c)];
      sum += cellLog(m_featureCounts.links[at], p - m_featureCounts.links[at] - m_featureCounts.missing[at]);
    }
  return sum;
}

std::vector<int> MirmSampler::labels() const {
  std::vector<int> label(m_capacity, -1), out(m_z.size(), 0);
  int next = 0;
  for (std::size_t v = 0; v < m_z.size(); ++v) {
    auto& l = label[static_cast<std::size_t>(m_z[v])];
    if (l < 0) l = next++;
    out[v] = l;
  }
  return out;
}

std::vector<int> MirmSampler::featureLabels() const {
  std::vector<int> label(m_featureCapacity, -1), out(m_w.size(), 0);
  int next = 0;
  for (std::size_t f = 0; f < m_w.size(); ++f) {
    auto& l = label[static_cast<std::size_t>(m_w[f])];
    if (l < 0) l = next++;
    out[f] = l;
  }
  return out;
}

Eigen::MatrixXd MirmSampler::blockMatrix(std::size_t r) const {
  const auto compact = labels();
  std::vector<int> label(m_capacity, -1);
  for (std::size_t v = 0; v < m_z.size(); ++v) label[static_cast<std::size_t>(m_z[v])] = compact[v];
  const auto& relation = m_data.relations[r];
  const auto& counts = m_counts[r];
  Eigen::MatrixXd B = Eigen::MatrixXd::Zero(blockCount(), blockCount());
  for (const int k : m_blocks)
    for (const int l : m_blocks) {
      const auto c = cell(k, l);
      const auto links = static_cast<double>(counts.links[c]);
      const auto nonLinks = static_cast<double>(pairs(relation, k, l) - counts.links[c] - counts.missing[c]);
      B(label[static_cast<std::size_t>(k)], label[static_cast<std::size_t>(l)]) =
          (m_priors.a + links) / (m_priors.a + m_priors.b + links + nonLinks);
    }
  return B;
}

Eigen::MatrixXd MirmSampler::featureBlockMatrix() const {
  const auto compact = labels();
  std::vector<int> label(m_capacity, -1);
  for (std::size_t v = 0; v < m_z.size(); ++v) label[static_cast<std::size_t>(m_z[v])] = compact[v];
  const auto compactFeatures = featureLabels();
  std::vector<int> featureLabel(m_featureCapacity, -1);
  for (std::size_t f = 0; f < m_w.size(); ++f) featureLabel[static_cast<std::size_t>(m_w[f])] = compactFeatures[f];
  Eigen::MatrixXd B = Eigen::MatrixXd::Zero(blockCount(), featureBlockCount());
  for (const int k : m_blocks)
    for (const int c : m_featureBlocks) {
      const auto at = featureCell(k, c);
      const std::int64_t p = m_size[static_cast<std::size_t>(k)] * m_featureSize[static_cast<std::size_t>(c)];
      const auto ones = static_cast<double>(m_featureCounts.links[at]);
      const auto zeros = static_cast<double>(p - m_featureCounts.links[at] - m_featureCounts.missing[at]);
      B(label[static_cast<std::size_t>(k)], featureLabel[static_cast<std::size_t>(c)]) =
          (m_priors.a + ones) / (m_priors.a + m_priors.b + ones + zeros);
    }
  return B;
}

}  // namespace latent::core::network
