// SPDX-License-Identifier: GPL-3.0-or-later
// Collapsed Gibbs and split-merge moves for the IRM, with O(degree + K^2) work per node.
#include "core/models/network/irm_sampler.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <unordered_map>

#include "core/util/errors.hpp"
#include "core/util/special_functions.hpp"

namespace latent::core::network {
namespace {

// Entries of each log Gamma table: 3 x 2 MiB at most; larger counts fall back to lgamma.
constexpr std::int64_t kLogGammaTableLength = 1 << 18;

}  // namespace

IrmLogGammaTables::IrmLogGammaTables(const IrmPriors& priors, std::int64_t nodes)
    : a(priors.a), b(priors.b), logBetaPrior(logBeta(priors.a, priors.b)) {
  const auto length = static_cast<std::size_t>(std::min<std::int64_t>(nodes * nodes + 1, kLogGammaTableLength));
  logGammaA.resize(length);
  logGammaB.resize(length);
  logGammaAB.resize(length);
  for (std::size_t x = 0; x < length; ++x) {
    logGammaA[x] = logGamma(priors.a + static_cast<double>(x));
    logGammaB[x] = logGamma(priors.b + static_cast<double>(x));
    logGammaAB[x] = logGamma(priors.a + priors.b + static_cast<double>(x));
  }
}

IrmSampler::IrmSampler(const IrmRelation& relation, IrmPriors priors, std::shared_ptr<const IrmLogGammaTables> tables)
    : m_rel(relation), m_priors(priors), m_tables(std::move(tables)) {
  if (!m_tables) m_tables = std::make_shared<const IrmLogGammaTables>(priors, relation.nodes);
  m_logBetaPrior = m_tables->logBetaPrior;
  m_z.assign(static_cast<std::size_t>(relation.nodes), -1);
  m_nodesOfType.resize(relation.twoTypes() ? 2 : 1);
  for (std::int32_t v = 0; v < relation.nodes; ++v)
    m_nodesOfType[relation.twoTypes() ? relation.type(v) : 0].push_back(v);
  m_order.resize(static_cast<std::size_t>(relation.nodes));
  for (std::int32_t v = 0; v < relation.nodes; ++v) m_order[static_cast<std::size_t>(v)] = v;
  grow(16);
}

void IrmSampler::grow(std::size_t capacity) {
  const std::size_t old = m_capacity;
  if (capacity <= old) return;
  const auto regrid = [&](auto& values) {
    std::remove_reference_t<decltype(values)> next(capacity * capacity, 0);
    for (std::size_t k = 0; k < old; ++k)
      std::copy_n(values.begin() + static_cast<std::ptrdiff_t>(k * old), old,
                  next.begin() + static_cast<std::ptrdiff_t>(k * capacity));
    values.swap(next);
  };
  regrid(m_links);
  regrid(m_missing);
  regrid(m_cellLog);
  m_capacity = capacity;
  m_size.resize(capacity, 0);
  m_blockType.resize(capacity, 0);
  m_open.resize(capacity, 0);
  m_linkOut.resize(capacity, 0);
  m_linkIn.resize(capacity, 0);
  m_missOut.resize(capacity, 0);
  m_missIn.resize(capacity, 0);
}

void IrmSampler::clearState() {
  std::fill(m_z.begin(), m_z.end(), -1);
  std::fill(m_size.begin(), m_size.end(), 0);
  std::fill(m_open.begin(), m_open.end(), 0);
  std::fill(m_links.begin(), m_links.end(), 0);
  std::fill(m_missing.begin(), m_missing.end(), 0);
  std::fill(m_cellLog.begin(), m_cellLog.end(), 0.0);
  m_blocksOfType[0].clear();
  m_blocksOfType[1].clear();
}

void IrmSampler::assign(std::span<const int> labels) {
  if (labels.size() != static_cast<std::size_t>(m_rel.nodes))
    throw UsageError("irm: a partition needs one block per node");
  // Checked first, so that a bad partition leaves the state as it was.
  std::unordered_map<int, std::uint8_t> typeOf;
  for (std::int32_t v = 0; v < m_rel.nodes; ++v) {
    const int label = labels[static_cast<std::size_t>(v)];
    if (label < 0) throw UsageError("irm: block labels must not be negative");
    const auto [at, added] = typeOf.emplace(label, m_rel.type(v));
    if (!added && at->second != m_rel.type(v)) throw UsageError("irm: a block cannot hold nodes of both types");
  }
  clearState();
  std::unordered_map<int, int> idOf;
  for (std::int32_t v = 0; v < m_rel.nodes; ++v) {
    const int label = labels[static_cast<std::size_t>(v)];
    auto at = idOf.find(label);
    if (at == idOf.end()) at = idOf.emplace(label, openBlock(m_rel.type(v))).first;
    // Pairs are counted once, when their second node joins: gather() skips unplaced nodes.
    moveNode(v, at->second);
  }
}

void IrmSampler::assignOneBlockPerType() {
  std::vector<int> labels(static_cast<std::size_t>(m_rel.nodes));
  for (std::int32_t v = 0; v < m_rel.nodes; ++v) labels[static_cast<std::size_t>(v)] = m_rel.type(v);
  assign(labels);
}

void IrmSampler::assignRandom(Rng& rng, int blocksPerType) {
  std::vector<int> labels(static_cast<std::size_t>(m_rel.nodes), 0);
  int first = 0;
  for (const auto& nodes : m_nodesOfType) {
    const auto k = static_cast<std::uint64_t>(
        std::clamp<std::size_t>(static_cast<std::size_t>(blocksPerType), 1, std::max<std::size_t>(1, nodes.size())));
    for (const auto v : nodes) labels[static_cast<std::size_t>(v)] = first + static_cast<int>(rng.below(k));
    first += static_cast<int>(k);
  }
  assign(labels);
}

std::int64_t IrmSampler::pairs(int k, int l) const noexcept {
  if (m_rel.twoTypes() && m_blockType[static_cast<std::size_t>(k)] == m_blockType[static_cast<std::size_t>(l)])
    return 0;
  const std::int64_t nk = m_size[static_cast<std::size_t>(k)], nl = m_size[static_cast<std::size_t>(l)];
  if (k != l) return nk * nl;
  return m_rel.directed ? nk * (nk - 1) : nk * (nk - 1) / 2;
}

const std::vector<int>& IrmSampler::partnerBlocks(int type) const noexcept {
  return m_rel.twoTypes() ? m_blocksOfType[1 - type] : m_blocksOfType[0];
}

int IrmSampler::openBlock(std::uint8_t type, int id) {
  if (id < 0) {
    id = 0;
    while (static_cast<std::size_t>(id) < m_capacity && m_open[static_cast<std::size_t>(id)]) ++id;
  }
  if (static_cast<std::size_t>(id) >= m_capacity)
    grow(std::max<std::size_t>(2 * m_capacity, static_cast<std::size_t>(id) + 1));
  const auto k = static_cast<std::size_t>(id);
  m_open[k] = 1;
  m_size[k] = 0;
  m_blockType[k] = type;
  m_blocksOfType[type].push_back(id);
  return id;
}

void IrmSampler::closeBlock(int k) {
  // An empty block's counts are all zero already; its cached terms are reset for the next user.
  for (const int l : partnerBlocks(m_blockType[static_cast<std::size_t>(k)])) {
    m_cellLog[cell(k, l)] = 0.0;
    m_cellLog[cell(l, k)] = 0.0;
  }
  m_cellLog[cell(k, k)] = 0.0;
  auto& list = m_blocksOfType[m_blockType[static_cast<std::size_t>(k)]];
  list.erase(std::find(list.begin(), list.end(), k));
  m_open[static_cast<std::size_t>(k)] = 0;
}

void IrmSampler::refreshCell(int k, int l) {
  const std::int64_t p = pairs(k, l);
  double value = 0.0;
  if (p > 0) {
    const auto c = cell(k, l);
    value = cellLog(m_links[c], p - m_links[c] - m_missing[c]);
  }
  m_cellLog[cell(k, l)] = value;
  if (!m_rel.directed) m_cellLog[cell(l, k)] = value;
}

void IrmSampler::refreshBlock(int k) {
  for (const int l : partnerBlocks(m_blockType[static_cast<std::size_t>(k)])) {
    refreshCell(k, l);
    if (m_rel.directed && l != k) refreshCell(l, k);
  }
}

void IrmSampler::gather(std::int32_t i) {
  const auto count = [&](std::span<const std::int32_t> partners, std::vector<std::int64_t>& into) {
    for (const auto u : partners) {
      const int b = m_z[static_cast<std::size_t>(u)];
      if (b < 0) continue;
      if (m_linkOut[static_cast<std::size_t>(b)] == 0 && m_linkIn[static_cast<std::size_t>(b)] == 0 &&
          m_missOut[static_cast<std::size_t>(b)] == 0 && m_missIn[static_cast<std::size_t>(b)] == 0)
        m_touched.push_back(b);
      ++into[static_cast<std::size_t>(b)];
    }
  };
  count(m_rel.outOf(i), m_linkOut);
  count(m_rel.inOf(i), m_linkIn);
  count(m_rel.missingOutOf(i), m_missOut);
  count(m_rel.missingInOf(i), m_missIn);
}

void IrmSampler::clearScratch() {
  for (const int b : m_touched) {
    const auto k = static_cast<std::size_t>(b);
    m_linkOut[k] = m_linkIn[k] = m_missOut[k] = m_missIn[k] = 0;
  }
  m_touched.clear();
}

void IrmSampler::apply(int k, int sign) {
  for (const int b : m_touched) {
    const auto bi = static_cast<std::size_t>(b);
    if (m_rel.directed) {
      if (b != k) {
        m_links[cell(k, b)] += sign * m_linkOut[bi];
        m_links[cell(b, k)] += sign * m_linkIn[bi];
        m_missing[cell(k, b)] += sign * m_missOut[bi];
        m_missing[cell(b, k)] += sign * m_missIn[bi];
      } else {
        m_links[cell(k, k)] += sign * (m_linkOut[bi] + m_linkIn[bi]);
        m_missing[cell(k, k)] += sign * (m_missOut[bi] + m_missIn[bi]);
      }
    } else {
      m_links[cell(k, b)] += sign * m_linkOut[bi];
      m_missing[cell(k, b)] += sign * m_missOut[bi];
      if (b != k) {
        m_links[cell(b, k)] += sign * m_linkOut[bi];
        m_missing[cell(b, k)] += sign * m_missOut[bi];
      }
    }
  }
  m_size[static_cast<std::size_t>(k)] += sign;
  if (m_size[static_cast<std::size_t>(k)] == 0)
    closeBlock(k);
  else
    refreshBlock(k);
}

void IrmSampler::detach(std::int32_t i) {
  const int k = m_z[static_cast<std::size_t>(i)];
  m_z[static_cast<std::size_t>(i)] = -1;
  apply(k, -1);
}

void IrmSampler::attach(std::int32_t i, int k) {
  apply(k, +1);
  m_z[static_cast<std::size_t>(i)] = k;
}

void IrmSampler::moveNode(std::int32_t i, int k) {
  if (m_z[static_cast<std::size_t>(i)] == k) return;
  if (!m_open[static_cast<std::size_t>(k)]) openBlock(m_rel.type(i), k);
  gather(i);
  if (m_z[static_cast<std::size_t>(i)] >= 0) detach(i);
  attach(i, k);
  clearScratch();
}

double IrmSampler::cellLog(std::int64_t links, std::int64_t nonLinks) const noexcept {
  const auto x = static_cast<std::size_t>(links), y = static_cast<std::size_t>(nonLinks);
  const auto& t = *m_tables;
  const std::size_t length = t.logGammaA.size();
  if (x < length && y < length && x + y < length)
    return t.logGammaA[x] + t.logGammaB[y] - t.logGammaAB[x + y] - m_logBetaPrior;
  return logBeta(m_priors.a + static_cast<double>(links), m_priors.b + static_cast<double>(nonLinks)) - m_logBetaPrior;
}

double IrmSampler::cellGain(int k, int l, std::int64_t addLinks, std::int64_t addNonLinks) const {
  if (addLinks == 0 && addNonLinks == 0) return 0.0;
  if (k < 0 || l < 0) return cellLog(addLinks, addNonLinks);
  const auto c = cell(k, l);
  const std::int64_t links = m_links[c];
  const std::int64_t nonLinks = pairs(k, l) - links - m_missing[c];
  return cellLog(links + addLinks, nonLinks + addNonLinks) - m_cellLog[c];
}

// The node's pairs with block l: n_l of them in each direction, less the held-out ones; its links
// among them come from its neighbour lists (gather), the rest are non-links.
double IrmSampler::likelihoodGain(int k, std::uint8_t type) const {
  double gain = 0.0;
  for (const int l : partnerBlocks(type)) {
    const auto li = static_cast<std::size_t>(l);
    const std::int64_t nl = m_size[li];
    if (m_rel.directed) {
      if (l != k) {
        gain += cellGain(k, l, m_linkOut[li], nl - m_missOut[li] - m_linkOut[li]);
        gain += cellGain(l, k, m_linkIn[li], nl - m_missIn[li] - m_linkIn[li]);
      } else {
        const std::int64_t add = m_linkOut[li] + m_linkIn[li];
        gain += cellGain(k, k, add, 2 * nl - m_missOut[li] - m_missIn[li] - add);
      }
    } else {
      gain += cellGain(k, l, m_linkOut[li], nl - m_missOut[li] - m_linkOut[li]);
    }
  }
  return gain;
}

int IrmSampler::sample(std::span<const double> logWeights, Rng& rng) const {
  const double top = *std::max_element(logWeights.begin(), logWeights.end());
  double total = 0.0;
  for (const double w : logWeights) total += std::exp(w - top);
  double u = rng.uniform() * total;
  for (std::size_t c = 0; c + 1 < logWeights.size(); ++c) {
    u -= std::exp(logWeights[c] - top);
    if (u < 0.0) return static_cast<int>(c);
  }
  return static_cast<int>(logWeights.size()) - 1;
}

void IrmSampler::gibbsStep(std::int32_t i, Rng& rng) {
  const std::uint8_t t = m_rel.type(i);
  gather(i);
  detach(i);
  m_candidates.assign(m_blocksOfType[t].begin(), m_blocksOfType[t].end());
  m_weights.clear();
  for (const int k : m_candidates)
    m_weights.push_back(std::log(static_cast<double>(m_size[static_cast<std::size_t>(k)])) + likelihoodGain(k, t));
  // At the cap a new block is not offered (a truncated CRP), which bounds the K x K tables.
  if (blockCount() < kIrmMaxBlocks) m_weights.push_back(std::log(m_priors.concentration) + likelihoodGain(-1, t));
  const int choice = sample(m_weights, rng);
  const int k = static_cast<std::size_t>(choice) < m_candidates.size() ? m_candidates[static_cast<std::size_t>(choice)]
                                                                       : openBlock(t);
  attach(i, k);
  clearScratch();
}

bool IrmSampler::gibbsSweep(Rng& rng, std::stop_token stop) {
  rng.shuffle(std::span<std::int32_t>(m_order));
  for (std::size_t n = 0; n < m_order.size(); ++n) {
    // A stop is seen within 64 node updates: well under the 200 ms the job runtime allows.
    if ((n & 63) == 0 && stop.stop_requested()) return false;
    gibbsStep(m_order[n], rng);
  }
  return true;
}

std::vector<IrmCandidate> IrmSampler::conditional(std::int32_t i) {
  const std::uint8_t t = m_rel.type(i);
  const int original = m_z[static_cast<std::size_t>(i)];
  gather(i);
  detach(i);
  std::vector<IrmCandidate> out;
  std::vector<double> logWeights;
  for (const int k : m_blocksOfType[t]) {
    out.push_back({k, 0.0});
    logWeights.push_back(std::log(static_cast<double>(m_size[static_cast<std::size_t>(k)])) + likelihoodGain(k, t));
  }
  out.push_back({-1, 0.0});
  logWeights.push_back(std::log(m_priors.concentration) + likelihoodGain(-1, t));
  const double top = *std::max_element(logWeights.begin(), logWeights.end());
  double total = 0.0;
  for (const double w : logWeights) total += std::exp(w - top);
  for (std::size_t c = 0; c < out.size(); ++c) out[c].probability = std::exp(logWeights[c] - top) / total;
  if (!m_open[static_cast<std::size_t>(original)]) openBlock(t, original);
  attach(i, original);
  clearScratch();
  return out;
}

bool IrmSampler::restrictedScan(std::span<const std::int32_t> members, int x, int y, Rng& rng, double* logQ,
                                const std::vector<int>* forced, std::stop_token stop) {
  for (std::size_t m = 0; m < members.size(); ++m) {
    if ((m & 63) == 0 && stop.stop_requested()) return false;
    const std::int32_t u = members[m];
    gather(u);
    detach(u);  // its block keeps its anchor node, so it stays open
    const double wx =
        std::log(static_cast<double>(m_size[static_cast<std::size_t>(x)])) + likelihoodGain(x, m_rel.type(u));
    const double wy =
        std::log(static_cast<double>(m_size[static_cast<std::size_t>(y)])) + likelihoodGain(y, m_rel.type(u));
    const double top = std::max(wx, wy);
    const double logNorm = top + std::log(std::exp(wx - top) + std::exp(wy - top));
    const bool toX = forced ? (*forced)[m] == x : rng.uniform() < std::exp(wx - logNorm);
    if (logQ) *logQ += (toX ? wx : wy) - logNorm;
    attach(u, toX ? x : y);
    clearScratch();
  }
  return true;
}

// The launch state of a split-merge proposal. Jain & Neal launch from a uniformly random split, which
// on a graph leaves both blocks alike and the scans rarely separate them; here the members are
// taken out and put back one at a time in a random order, each by the restricted conditional given
// those already placed (the sequential allocation of Dahl 2005). It does not look at the members'
// present blocks, so the launch is the same random procedure for a split and for a merge, as the
// reverse probability of a merge requires.
bool IrmSampler::sequentialLaunch(std::span<const std::int32_t> members, int x, int y, Rng& rng, std::stop_token stop) {
  m_launchOrder.assign(members.begin(), members.end());
  rng.shuffle(std::span<std::int32_t>(m_launchOrder));
  for (const auto u : m_launchOrder) {
    gather(u);
    detach(u);
    clearScratch();
  }
  for (std::size_t m = 0; m < m_launchOrder.size(); ++m) {
    // Members not yet placed are put back by the caller's rejection.
    if ((m & 63) == 0 && stop.stop_requested()) return false;
    const std::int32_t u = m_launchOrder[m];
    gather(u);
    const double wx =
        std::log(static_cast<double>(m_size[static_cast<std::size_t>(x)])) + likelihoodGain(x, m_rel.type(u));
    const double wy =
        std::log(static_cast<double>(m_size[static_cast<std::size_t>(y)])) + likelihoodGain(y, m_rel.type(u));
    const double top = std::max(wx, wy);
    const bool toX = rng.uniform() < std::exp(wx - top - std::log(std::exp(wx - top) + std::exp(wy - top)));
    attach(u, toX ? x : y);
    clearScratch();
  }
  return true;
}

bool IrmSampler::proposeSplitMerge(Rng& rng, int scans, std::stop_token stop) {
  const auto i = static_cast<std::int32_t>(rng.below(static_cast<std::uint64_t>(m_rel.nodes)));
  const std::uint8_t t = m_rel.type(i);
  const auto& nodes = m_nodesOfType[m_rel.twoTypes() ? t : 0];
  if (nodes.size() < 2) return false;
  std::size_t r = rng.below(nodes.size() - 1);
  if (nodes[r] == i) r = nodes.size() - 1;
  const std::int32_t j = nodes[r];
  const int ci = m_z[static_cast<std::size_t>(i)], cj = m_z[static_cast<std::size_t>(j)];
  if (ci == cj && blockCount() >= kIrmMaxBlocks) return false;
  std::vector<std::int32_t> others;
  for (const auto u : nodes)
    if (u != i && u != j && (m_z[static_cast<std::size_t>(u)] == ci || m_z[static_cast<std::size_t>(u)] == cj))
      others.push_back(u);
  const double before = logJoint();

  if (ci == cj) {
    // Split: i opens a block, the others are launched between i's and j's blocks and settle by
    // restricted Gibbs scans; the last scan's probability is the proposal's (Jain & Neal 2004, eq. 3.7).
    // A stop part way rejects the proposal.
    const int si = openBlock(t);
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

  // Merge: the probability that the restricted scans from a launch would have produced the present
  // split is the reverse proposal's; the merge itself is deterministic.
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
  moveNode(i, cj);
  if (std::log(rng.uniform()) < logJoint() - before + logQ) return true;
  moveNode(i, ci);
  for (std::size_t m = 0; m < others.size(); ++m)
    if (original[m] == ci) moveNode(others[m], ci);
  return false;
}

SplitMergeTally IrmSampler::splitMerge(Rng& rng, int proposals, int scans, std::stop_token stop) {
  SplitMergeTally tally;
  if (m_rel.nodes < 2) return tally;
  for (int p = 0; p < proposals; ++p) {
    if (stop.stop_requested()) break;
    ++tally.proposed;
    if (proposeSplitMerge(rng, scans, stop)) ++tally.accepted;
  }
  return tally;
}

double IrmSampler::logPrior() const {
  const double alpha = m_priors.concentration;
  double sum = 0.0;
  for (std::size_t t = 0; t < m_nodesOfType.size(); ++t) {
    const auto n = static_cast<double>(m_nodesOfType[t].size());
    if (n == 0) continue;
    // Ewens' formula: alpha^K prod_k (n_k - 1)! Gamma(alpha) / Gamma(alpha + n).
    sum += static_cast<double>(m_blocksOfType[t].size()) * std::log(alpha) + logGamma(alpha) - logGamma(alpha + n);
    for (const int k : m_blocksOfType[t]) sum += logGamma(static_cast<double>(m_size[static_cast<std::size_t>(k)]));
  }
  return sum;
}

double IrmSampler::logLikelihood() const {
  double sum = 0.0;
  if (!m_rel.twoTypes()) {
    const auto& blocks = m_blocksOfType[0];
    for (std::size_t x = 0; x < blocks.size(); ++x)
      for (std::size_t y = m_rel.directed ? 0 : x; y < blocks.size(); ++y) sum += m_cellLog[cell(blocks[x], blocks[y])];
    return sum;
  }
  for (const int k : m_blocksOfType[0])
    for (const int l : m_blocksOfType[1]) sum += m_cellLog[cell(k, l)] + (m_rel.directed ? m_cellLog[cell(l, k)] : 0.0);
  return sum;
}

int IrmSampler::blockCount() const { return static_cast<int>(m_blocksOfType[0].size() + m_blocksOfType[1].size()); }

int IrmSampler::blockCount(int type) const { return static_cast<int>(m_blocksOfType[type].size()); }

std::vector<int> IrmSampler::labels() const {
  std::vector<int> label(m_capacity, -1), out(static_cast<std::size_t>(m_rel.nodes), 0);
  int next = 0;
  for (const auto& nodes : m_nodesOfType)
    for (const auto v : nodes) {
      auto& l = label[static_cast<std::size_t>(m_z[static_cast<std::size_t>(v)])];
      if (l < 0) l = next++;
      out[static_cast<std::size_t>(v)] = l;
    }
  return out;
}

Eigen::MatrixXd IrmSampler::blockMatrix() const {
  std::vector<int> label(m_capacity, -1);
  int next = 0;
  for (const auto& nodes : m_nodesOfType)
    for (const auto v : nodes) {
      auto& l = label[static_cast<std::size_t>(m_z[static_cast<std::size_t>(v)])];
      if (l < 0) l = next++;
    }
  Eigen::MatrixXd B = Eigen::MatrixXd::Zero(next, next);
  for (std::size_t k = 0; k < m_capacity; ++k) {
    if (!m_open[k]) continue;
    for (std::size_t l = 0; l < m_capacity; ++l) {
      if (!m_open[l]) continue;
      if (m_rel.twoTypes() && m_blockType[k] == m_blockType[l]) continue;
      const auto ki = static_cast<int>(k), li = static_cast<int>(l);
      // Posterior mean of Beta(a + links, b + non-links); the prior mean where the pair has no data.
      const auto linksKl = static_cast<double>(links(ki, li));
      B(label[k], label[l]) =
          (m_priors.a + linksKl) / (m_priors.a + m_priors.b + linksKl + static_cast<double>(nonLinks(ki, li)));
    }
  }
  return B;
}

}  // namespace latent::core::network
