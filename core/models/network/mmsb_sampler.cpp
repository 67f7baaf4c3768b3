// SPDX-License-Identifier: GPL-3.0-or-later
// MMSB chain: the units it visits (exact or sampled non-edges), Gibbs sweeps, training likelihood.
#include "core/models/network/mmsb_sampler.hpp"

#include <algorithm>
#include <cmath>

namespace latent::core::network {
namespace {

// Units between two looks at the stop token: well under a millisecond of work.
constexpr std::int64_t kUnitsPerStopCheck = 4096;

}  // namespace

std::int64_t trainingDyadCount(const Graph& train, const DyadSplit& split) {
  const auto n = static_cast<std::int64_t>(train.nodeCount());
  const std::int64_t pairs = train.directed ? n * (n - 1) : n * (n - 1) / 2;
  return pairs - static_cast<std::int64_t>(split.heldout.size());
}

MmsbChain::MmsbChain(const Graph& train, const DyadSplit& split, const MmsbChainSettings& settings,
                     const std::stop_token& stop)
    : m_train(train),
      m_split(split),
      m_mode(settings.mode),
      m_counts(static_cast<std::int64_t>(train.nodeCount()), settings.hyper),
      m_rng(settings.seed, settings.stream),
      m_swapMoves(settings.swapMoves),
      m_startSharpness(settings.startSharpness) {
  const auto n = static_cast<std::int32_t>(train.nodeCount());
  const bool directed = train.directed;
  const auto K = settings.hyper.blocks;
  m_scratch.assign(static_cast<std::size_t>(K * K + 1), 0.0);
  m_edgeCount = static_cast<std::int64_t>(train.edges.size());
  if (m_startSharpness > 0.0)
    for (std::int32_t i = 0; i < n; ++i)
      m_startBlock.push_back(static_cast<std::uint16_t>(m_rng.below(static_cast<std::uint64_t>(K))));
  m_nonEdgeUnits = static_cast<double>(trainingDyadCount(train, split) - m_edgeCount);

  if (m_mode == NonEdgeMode::Exact) {
    // Every training dyad in row-major order; the edges and the held-out keys are sorted the same
    // way (source, target), so one merge marks them.
    m_units.reserve(static_cast<std::size_t>(trainingDyadCount(train, split)));
    std::size_t e = 0, h = 0;
    const auto& keys = split.sortedKeys;
    for (std::int32_t i = 0; i < n; ++i) {
      if (i % 64 == 0 && stop.stop_requested()) return;
      for (std::int32_t j = directed ? 0 : i + 1; j < n; ++j) {
        if (i == j) continue;
        const auto key = static_cast<std::uint64_t>(i) * static_cast<std::uint64_t>(n) + static_cast<std::uint64_t>(j);
        while (h < keys.size() && keys[h] < key) ++h;
        if (h < keys.size() && keys[h] == key) continue;  // held out: missing, neither edge nor non-edge
        while (e < train.edges.size() &&
               (train.edges[e].source < i || (train.edges[e].source == i && train.edges[e].target < j)))
          ++e;
        DyadUnit unit;
        unit.source = i;
        unit.target = j;
        unit.edge = e < train.edges.size() && train.edges[e].source == i && train.edges[e].target == j;
        randomIndicators(unit);
        m_counts.change(unit, 1.0, +1);
        m_units.push_back(unit);
      }
    }
    buildIncidence();
    m_started = true;
    return;
  }

  // Sampled mode: the edges as units, a sorted neighbour list for rejecting edges, and U_i.
  m_drawnStart.assign(static_cast<std::size_t>(n) + 1, 0);  // no draws yet (also if stopped early)
  m_units.reserve(train.edges.size());
  for (const auto& edge : train.edges) {
    if (m_units.size() % kUnitsPerStopCheck == 0 && stop.stop_requested()) return;
    DyadUnit unit;
    unit.source = edge.source;
    unit.target = edge.target;
    unit.edge = true;
    randomIndicators(unit);
    m_counts.change(unit, 1.0, +1);
    m_units.push_back(unit);
  }
  std::vector<std::int64_t> degree(static_cast<std::size_t>(n) + 1, 0);
  for (const auto& edge : train.edges) {
    ++degree[static_cast<std::size_t>(edge.source)];
    if (!directed) ++degree[static_cast<std::size_t>(edge.target)];
  }
  m_adjacencyStart.assign(static_cast<std::size_t>(n) + 1, 0);
  for (std::int32_t i = 0; i < n; ++i)
    m_adjacencyStart[static_cast<std::size_t>(i) + 1] =
        m_adjacencyStart[static_cast<std::size_t>(i)] + degree[static_cast<std::size_t>(i)];
  m_adjacency.assign(static_cast<std::size_t>(m_adjacencyStart.back()), 0);
  std::vector<std::int64_t> fill(m_adjacencyStart.begin(), m_adjacencyStart.end() - 1);
  for (const auto& edge : train.edges) {
    m_adjacency[static_cast<std::size_t>(fill[static_cast<std::size_t>(edge.source)]++)] = edge.target;
    if (!directed) m_adjacency[static_cast<std::size_t>(fill[static_cast<std::size_t>(edge.target)]++)] = edge.source;
  }
  for (std::int32_t i = 0; i < n; ++i)
    std::sort(m_adjacency.begin() + m_adjacencyStart[static_cast<std::size_t>(i)],
              m_adjacency.begin() + m_adjacencyStart[static_cast<std::size_t>(i) + 1]);
  std::vector<std::int64_t> heldoutOf(static_cast<std::size_t>(n), 0);
  for (const auto& pair : split.heldout) {
    ++heldoutOf[static_cast<std::size_t>(pair.source)];
    if (!directed) ++heldoutOf[static_cast<std::size_t>(pair.target)];
  }
  m_nonEdgesOf.assign(static_cast<std::size_t>(n), 0.0);
  for (std::int32_t i = 0; i < n; ++i)
    m_nonEdgesOf[static_cast<std::size_t>(i)] =
        static_cast<double>(n - 1 - degree[static_cast<std::size_t>(i)] - heldoutOf[static_cast<std::size_t>(i)]);
  // w: the same for every drawn non-edge, so that every non-edge is drawn with the same chance
  // and weighs the same. At least 1 (never more draws than non-edges).
  const double wanted = std::max(1.0, settings.nonEdgeRatio * static_cast<double>(m_edgeCount));
  m_weight = m_nonEdgeUnits > 0 ? std::max(1.0, m_nonEdgeUnits / wanted) : 1.0;

  // The first sample, with random indicators like the edges.
  for (std::int32_t i = 0; i < n; ++i) {
    if (i % 256 == 0 && stop.stop_requested()) {
      // Stopped: the nodes not reached have no draws (m_drawnStart stays flat for them).
      for (std::int32_t k = i; k < n; ++k)
        m_drawnStart[static_cast<std::size_t>(k) + 1] = static_cast<std::int64_t>(m_drawn.size());
      return;
    }
    const double expected = m_nonEdgesOf[static_cast<std::size_t>(i)] / (directed ? m_weight : 2.0 * m_weight);
    auto count = static_cast<std::int64_t>(std::floor(expected + m_rng.uniform()));
    if (m_nonEdgesOf[static_cast<std::size_t>(i)] <= 0) count = 0;
    for (std::int64_t s = 0; s < count; ++s) {
      DyadUnit unit;
      unit.source = i;
      unit.target = drawPartner(i);
      randomIndicators(unit);
      m_counts.change(unit, m_weight, +1);
      m_drawn.push_back(unit);
    }
    m_drawnStart[static_cast<std::size_t>(i) + 1] = static_cast<std::int64_t>(m_drawn.size());
  }
  m_started = true;
}

void MmsbChain::randomIndicators(DyadUnit& unit) {
  const auto K = static_cast<std::uint64_t>(m_counts.blocks());
  const auto draw = [&](std::int32_t node) {
    if (!m_startBlock.empty() && m_rng.uniform() < m_startSharpness)
      return m_startBlock[static_cast<std::size_t>(node)];
    return static_cast<std::uint16_t>(m_rng.below(K));
  };
  unit.sender = draw(unit.source);
  unit.receiver = draw(unit.target);
  const double rho = m_counts.hyper().rho;
  unit.background = !unit.edge && rho > 0.0 && m_rng.uniform() < rho;
}

bool MmsbChain::isNeighbour(std::int32_t i, std::int32_t j) const {
  const auto first = m_adjacency.begin() + m_adjacencyStart[static_cast<std::size_t>(i)];
  const auto last = m_adjacency.begin() + m_adjacencyStart[static_cast<std::size_t>(i) + 1];
  return std::binary_search(first, last, j);
}

std::int32_t MmsbChain::drawPartner(std::int32_t node) {
  // Rejection: a uniform other node until it is neither linked to `node` nor held out with it.
  // Only called when the node has a non-edge, and in a sparse graph almost every draw is kept.
  const auto n = static_cast<std::uint64_t>(m_train.nodeCount());
  for (;;) {
    const auto j = static_cast<std::int32_t>(m_rng.below(n));
    if (j == node || isNeighbour(node, j) || m_split.isHeldout(node, j)) continue;
    return j;
  }
}

void MmsbChain::drawUnit(DyadUnit& unit) {
  const int K = m_counts.blocks();
  const double total = m_counts.conditional(unit.source, unit.target, unit.edge, m_scratch);
  double u = m_rng.uniform() * total;
  const int last = K * K;
  int chosen = last;  // background, unless a block pair takes the draw first
  for (int c = 0; c < last; ++c) {
    u -= m_scratch[static_cast<std::size_t>(c)];
    if (u < 0) {
      chosen = c;
      break;
    }
  }
  if (chosen == last && m_scratch[static_cast<std::size_t>(last)] <= 0.0) {
    // Rounding left u just above the sum: take the last block pair with any weight.
    for (chosen = last - 1; chosen > 0 && m_scratch[static_cast<std::size_t>(chosen)] <= 0.0; --chosen) {
    }
  }
  if (chosen == last) {
    unit.background = true;  // the indicators are still one draw from each theta
    double rowTotal = 0.0, colTotal = 0.0;
    const double alpha = m_counts.hyper().alpha;
    for (int p = 0; p < K; ++p) rowTotal += m_counts.membershipCount(unit.source, p) + alpha;
    for (int q = 0; q < K; ++q) colTotal += m_counts.membershipCount(unit.target, q) + alpha;
    double a = m_rng.uniform() * rowTotal, b = m_rng.uniform() * colTotal;
    int p = 0, q = 0;
    for (; p < K - 1; ++p)
      if ((a -= m_counts.membershipCount(unit.source, p) + alpha) < 0) break;
    for (; q < K - 1; ++q)
      if ((b -= m_counts.membershipCount(unit.target, q) + alpha) < 0) break;
    unit.sender = static_cast<std::uint16_t>(p);
    unit.receiver = static_cast<std::uint16_t>(q);
  } else {
    unit.background = false;
    unit.sender = static_cast<std::uint16_t>(chosen / K);
    unit.receiver = static_cast<std::uint16_t>(chosen % K);
  }
}

void MmsbChain::redrawNonEdges(std::int32_t node, std::vector<DyadUnit>& next) {
  const auto from = m_drawnStart[static_cast<std::size_t>(node)], to = m_drawnStart[static_cast<std::size_t>(node) + 1];
  // The node's previous draws leave the counts together; the new ones enter one at a time, each
  // drawn given the others so far (a blocked Gibbs step for the node's sampled non-edges).
  for (auto d = from; d < to; ++d) m_counts.change(m_drawn[static_cast<std::size_t>(d)], m_weight, -1);
  const double U = m_nonEdgesOf[static_cast<std::size_t>(node)];
  if (U <= 0) return;
  const double expected = U / (m_train.directed ? m_weight : 2.0 * m_weight);
  const auto count = static_cast<std::int64_t>(std::floor(expected + m_rng.uniform()));
  for (std::int64_t s = 0; s < count; ++s) {
    DyadUnit unit;
    unit.source = node;
    unit.target = drawPartner(node);
    drawUnit(unit);
    m_counts.change(unit, m_weight, +1);
    next.push_back(unit);
  }
}

bool MmsbChain::sweep(const std::stop_token& stop) {
  // A chain whose start a stop request cut short never sweeps.
  if (!m_started || stop.stop_requested()) return false;
  // Edges (exact mode: every dyad): remove, draw from 001 eq. 3, put back.
  for (std::size_t d = 0; d < m_units.size(); ++d) {
    if (d % kUnitsPerStopCheck == 0 && stop.stop_requested()) return false;
    auto& unit = m_units[d];
    m_counts.change(unit, 1.0, -1);
    drawUnit(unit);
    m_counts.change(unit, 1.0, +1);
  }
  if (m_mode == NonEdgeMode::Exact) return swapMoves(stop);

  // A fresh sample of non-edges, node by node.
  const auto n = static_cast<std::int32_t>(m_train.nodeCount());
  std::vector<DyadUnit> next;
  next.reserve(m_drawn.size() + m_drawn.size() / 8);
  std::vector<std::int64_t> nextStart(static_cast<std::size_t>(n) + 1, 0);
  std::int64_t sinceCheck = 0;
  bool stopped = false;
  for (std::int32_t i = 0; i < n; ++i) {
    if (!stopped && sinceCheck >= kUnitsPerStopCheck) {
      sinceCheck = 0;
      stopped = stop.stop_requested();
    }
    if (stopped) {
      // Keep the previous draws of the nodes not reached, so each non-edge group is counted once.
      const auto from = m_drawnStart[static_cast<std::size_t>(i)], to = m_drawnStart[static_cast<std::size_t>(i) + 1];
      next.insert(next.end(), m_drawn.begin() + from, m_drawn.begin() + to);
    } else {
      const auto before = next.size();
      redrawNonEdges(i, next);
      sinceCheck += static_cast<std::int64_t>(next.size() - before) + 1;
    }
    nextStart[static_cast<std::size_t>(i) + 1] = static_cast<std::int64_t>(next.size());
  }
  m_drawn.swap(next);
  m_drawnStart.swap(nextStart);
  if (stopped) return false;
  buildIncidence();
  return swapMoves(stop);
}

void MmsbChain::buildIncidence() {
  if (!m_swapMoves || m_counts.blocks() < 2) return;
  const auto n = static_cast<std::size_t>(m_train.nodeCount());
  const auto total = static_cast<std::int64_t>(m_units.size() + m_drawn.size());
  m_incidenceStart.assign(n + 1, 0);
  for (std::int64_t r = 0; r < total; ++r) {
    const auto& unit = unitAt(r);
    ++m_incidenceStart[static_cast<std::size_t>(unit.source) + 1];
    ++m_incidenceStart[static_cast<std::size_t>(unit.target) + 1];
  }
  for (std::size_t i = 0; i < n; ++i) m_incidenceStart[i + 1] += m_incidenceStart[i];
  m_incidence.resize(static_cast<std::size_t>(m_incidenceStart[n]));
  std::vector<std::int64_t> fill(m_incidenceStart.begin(), m_incidenceStart.end() - 1);
  for (std::int64_t r = 0; r < total; ++r) {
    const auto& unit = unitAt(r);
    m_incidence[static_cast<std::size_t>(fill[static_cast<std::size_t>(unit.source)]++)] = 2 * r;
    m_incidence[static_cast<std::size_t>(fill[static_cast<std::size_t>(unit.target)]++)] = 2 * r + 1;
  }
}

bool MmsbChain::swapMoves(const std::stop_token& stop) {
  // Single-indicator Gibbs moves a node's memberships slowly: with a small alpha, each indicator
  // is pulled towards the node's other indicators, so moving a node from block p to block q takes
  // many improbable steps, and a chain started at random keeps two groups merged for hundreds of
  // sweeps: on Sampson's monks 29% of chains (from independent random indicators) split the
  // factions right after 200 sweeps and 78% after 1000; with this move 91% and 93%. This
  // Metropolis-Hastings move proposes, for one node, to exchange blocks p and q in all its
  // indicators at once. Under a symmetric Dirichlet the node's own term of the log joint (001
  // eq. 1) does not change, so the acceptance ratio is that of the block-pair terms (times the
  // proposal ratio). Each node gets two proposals per sweep: (p, q) uniform, and a guided one.
  // Why the guided one: a uniform pair includes the node's own block with chance 2/K and then the
  // right other block with chance 1/(K-1), so with many blocks a node waits about K^2/2 sweeps
  // for the move it needs. On a generated 10000-node SBM (K = 10, mean degree 20, sampled
  // non-edges, one chain) the uniform move alone was at NMI 0.48 after 300 sweeps.
  const int K = m_counts.blocks();
  if (!m_swapMoves || K < 2) return true;
  const auto KK = static_cast<std::size_t>(K) * static_cast<std::size_t>(K);
  m_deltaLinked.assign(KK, 0.0);
  m_deltaUnlinked.assign(KK, 0.0);
  m_isTouched.assign(KK, 0);
  m_linkedBlocks.assign(static_cast<std::size_t>(K), 0.0);
  const auto n = static_cast<std::int32_t>(m_train.nodeCount());
  for (std::int32_t i = 0; i < n; ++i) {
    if (i % 256 == 0 && stop.stop_requested()) return false;
    const auto p = static_cast<int>(m_rng.below(static_cast<std::uint64_t>(K)));
    auto q = static_cast<int>(m_rng.below(static_cast<std::uint64_t>(K - 1)));
    if (q >= p) ++q;
    trySwap(i, p, q, 0.0);
    if (K > 2) guidedSwap(i);  // with two blocks it is the uniform proposal again
  }
  return true;
}

void MmsbChain::guidedSwap(std::int32_t i) {
  // p is one of the node's own blocks, drawn with chance a_p = (m_ip + 1) / (M_i + K); q != p one
  // of the blocks its links lead to, with chance g_p(q) = w_q / (W - w_p), where w_b = 1 + the
  // links of i whose other end's indicator is b, W = sum_b w_b. The same swap also comes from
  // drawing q first, so it is proposed with chance a_p g_p(q) + a_q g_q(p). The swap exchanges
  // m_ip and m_iq (so a_p and a_q) and leaves w alone (the other ends' indicators are not the
  // node's): the way back has chance a_q g_p(q) + a_p g_q(p).
  const int K = m_counts.blocks();
  const auto from = m_incidenceStart[static_cast<std::size_t>(i)],
             to = m_incidenceStart[static_cast<std::size_t>(i) + 1];
  std::fill(m_linkedBlocks.begin(), m_linkedBlocks.end(), 1.0);
  double W = K;
  for (auto e = from; e < to; ++e) {
    const auto entry = m_incidence[static_cast<std::size_t>(e)];
    const auto& unit = unitAt(entry / 2);
    if (!unit.edge) continue;
    m_linkedBlocks[entry % 2 != 0 ? unit.sender : unit.receiver] += 1.0;
    W += 1.0;
  }
  double total = K;
  for (int b = 0; b < K; ++b) total += m_counts.membershipCount(i, b);
  double u = m_rng.uniform() * total;
  int p = 0;
  for (; p < K - 1; ++p)
    if ((u -= m_counts.membershipCount(i, p) + 1.0) < 0) break;
  const double wp = m_linkedBlocks[static_cast<std::size_t>(p)];
  double v = m_rng.uniform() * (W - wp);
  int q = p == K - 1 ? K - 2 : K - 1;  // rounding: the last block other than p
  for (int b = 0; b < K; ++b) {
    if (b == p) continue;
    if ((v -= m_linkedBlocks[static_cast<std::size_t>(b)]) < 0) {
      q = b;
      break;
    }
  }
  const double wq = m_linkedBlocks[static_cast<std::size_t>(q)];
  const double ap = m_counts.membershipCount(i, p) + 1.0, aq = m_counts.membershipCount(i, q) + 1.0;
  const double gpq = wq / (W - wp), gqp = wp / (W - wq);
  trySwap(i, p, q, std::log(aq * gpq + ap * gqp) - std::log(ap * gpq + aq * gqp));
}

bool MmsbChain::trySwap(std::int32_t i, int p, int q, double logProposalRatio) {
  const int K = m_counts.blocks();
  const auto edges = static_cast<std::int64_t>(m_units.size());
  const auto swapped = [&](int b) { return b == p ? q : b == q ? p : b; };
  m_touched.clear();
  const auto from = m_incidenceStart[static_cast<std::size_t>(i)],
             to = m_incidenceStart[static_cast<std::size_t>(i) + 1];
  for (auto e = from; e < to; ++e) {
    const auto entry = m_incidence[static_cast<std::size_t>(e)];
    const auto& unit = unitAt(entry / 2);
    const bool asTarget = entry % 2 != 0;
    const int own = asTarget ? unit.receiver : unit.sender;
    if ((own != p && own != q) || unit.background) continue;
    const int s = asTarget ? unit.sender : swapped(unit.sender);
    const int r = asTarget ? swapped(unit.receiver) : unit.receiver;
    const double w = entry / 2 < edges ? 1.0 : m_weight;
    auto& delta = unit.edge ? m_deltaLinked : m_deltaUnlinked;
    const auto before = m_counts.cellOf(unit.sender, unit.receiver), after = m_counts.cellOf(s, r);
    if (before == after) continue;
    delta[before] -= w;
    delta[after] += w;
    for (const auto c : {before, after})
      if (!m_isTouched[c]) {
        m_isTouched[c] = 1;
        m_touched.push_back(c);
      }
  }
  double change = logProposalRatio;
  for (const auto c : m_touched) {
    const int a = static_cast<int>(c / static_cast<std::size_t>(K)),
              b = static_cast<int>(c % static_cast<std::size_t>(K));
    change += m_counts.blockTerm(a, b, m_deltaLinked[c], m_deltaUnlinked[c]) - m_counts.blockTerm(a, b, 0.0, 0.0);
    m_deltaLinked[c] = m_deltaUnlinked[c] = 0.0;
    m_isTouched[c] = 0;
  }
  if (!(change >= 0.0 || std::log(m_rng.uniform()) < change)) return false;
  for (auto e = from; e < to; ++e) {
    const auto entry = m_incidence[static_cast<std::size_t>(e)];
    auto& unit = unitAt(entry / 2);
    const bool asTarget = entry % 2 != 0;
    const int own = asTarget ? unit.receiver : unit.sender;
    if (own != p && own != q) continue;
    const double w = entry / 2 < edges ? 1.0 : m_weight;
    m_counts.change(unit, w, -1);
    (asTarget ? unit.receiver : unit.sender) = static_cast<std::uint16_t>(swapped(own));
    m_counts.change(unit, w, +1);
  }
  return true;
}

double MmsbChain::trainingLogLikelihood(const Eigen::MatrixXd& theta, const Eigen::MatrixXd& blockMatrix,
                                        double scale) const {
  const Eigen::MatrixXd thetaB = theta * blockMatrix;  // row i: sum_p theta_ip B_pq
  const auto logP = [&](const DyadUnit& unit) {
    const double p = std::clamp(scale * thetaB.row(unit.source).dot(theta.row(unit.target)), 1e-300, 1.0);
    return unit.edge ? std::log(p) : std::log1p(-std::min(p, 1.0 - 1e-16));
  };
  double sum = 0.0;
  for (const auto& unit : m_units) sum += logP(unit);
  for (const auto& unit : m_drawn) sum += m_weight * logP(unit);
  return sum;
}

}  // namespace latent::core::network
