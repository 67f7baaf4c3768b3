// SPDX-License-Identifier: GPL-3.0-or-later
// Counts, conditionals and sweeps of the collapsed SBM Gibbs sampler (see sbm_sampler.hpp).
#include "core/models/network/sbm_sampler.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

namespace latent::core::network {
namespace {

// Compressed lists from (owner, member) pairs.
void buildLists(std::int32_t n, const std::vector<std::pair<std::int32_t, std::int32_t>>& pairs,
                std::vector<std::int64_t>& start, std::vector<std::int32_t>& list) {
  start.assign(static_cast<std::size_t>(n) + 1, 0);
  for (const auto& [owner, member] : pairs) ++start[static_cast<std::size_t>(owner) + 1];
  for (std::size_t i = 1; i < start.size(); ++i) start[i] += start[i - 1];
  list.assign(pairs.size(), 0);
  std::vector<std::int64_t> next(start.begin(), start.end() - 1);
  for (const auto& [owner, member] : pairs)
    list[static_cast<std::size_t>(next[static_cast<std::size_t>(owner)]++)] = member;
}

double xLogX(double x) noexcept { return x > 0 ? x * std::log(x) : 0.0; }

}  // namespace

double sbmLogGamma(double x) noexcept {
  // Gamma(x) = Gamma(x + n) / (x (x + 1) ... (x + n - 1)) moves x to where the series is exact.
  double product = 1.0;
  while (x < 10.0) {
    product *= x;
    x += 1.0;
  }
  const double r = 1.0 / x, r2 = r * r;
  const double series = r * (1.0 / 12 - r2 * (1.0 / 360 - r2 * (1.0 / 1260 - r2 * (1.0 / 1680 - r2 / 1188))));
  const double value = (x - 0.5) * std::log(x) - x + 0.91893853320467274178 + series;
  return product == 1.0 ? value : value - std::log(product);
}

SbmGraph::SbmGraph(const Graph& train, const DyadSplit& split)
    : m_nodes(static_cast<std::int32_t>(train.nodeCount())), m_directed(train.directed) {
  m_edges = static_cast<std::int64_t>(train.edges.size());
  m_heldout = static_cast<std::int64_t>(split.heldout.size());
  std::vector<std::pair<std::int32_t, std::int32_t>> out, in, heldOut, heldIn;
  out.reserve(train.edges.size() * (m_directed ? 1 : 2));
  m_degree.assign(static_cast<std::size_t>(m_nodes), 0.0);
  for (const auto& e : train.edges) {
    out.emplace_back(e.source, e.target);
    if (m_directed)
      in.emplace_back(e.target, e.source);
    else
      out.emplace_back(e.target, e.source);
    m_degree[static_cast<std::size_t>(e.source)] += 1.0;
    m_degree[static_cast<std::size_t>(e.target)] += 1.0;
  }
  for (const auto& d : split.heldout) {
    heldOut.emplace_back(d.source, d.target);
    if (m_directed)
      heldIn.emplace_back(d.target, d.source);
    else
      heldOut.emplace_back(d.target, d.source);
  }
  buildLists(m_nodes, out, m_outStart, m_out);
  buildLists(m_nodes, heldOut, m_heldOutStart, m_heldOutList);
  if (m_directed) {
    buildLists(m_nodes, in, m_inStart, m_in);
    buildLists(m_nodes, heldIn, m_heldInStart, m_heldInList);
  }
}

double SbmGraph::observedPairs() const noexcept {
  const double n = m_nodes;
  return (m_directed ? n * (n - 1) : n * (n - 1) / 2) - static_cast<double>(m_heldout);
}

SbmSampler::SbmSampler(const SbmGraph& graph, int blocks, const SbmPriors& priors)
    : m_graph(graph), m_K(blocks), m_priors(priors) {
  const auto K = static_cast<std::size_t>(m_K);
  m_logBetaPrior =
      sbmLogGamma(priors.densityA) + sbmLogGamma(priors.densityB) - sbmLogGamma(priors.densityA + priors.densityB);
  m_rateConstant = priors.rateShape * std::log(priors.rateRate) - sbmLogGamma(priors.rateShape);
  m_n.assign(K, 0);
  m_e.assign(K * K, 0);
  m_h.assign(K * K, 0);
  m_kappa.assign(K, 0.0);
  m_s.assign(K, 0.0);
  m_w.assign(K * K, 0.0);
  m_term.assign(K * K, 0.0);
  m_edgeLogGamma.assign(K * K, 0.0);
  m_dOut.assign(K, 0);
  m_dIn.assign(K, 0);
  m_hOut.assign(K, 0);
  m_hIn.assign(K, 0);
  m_wOut.assign(K, 0.0);
  m_wIn.assign(K, 0.0);
  m_weights.assign(K, 0.0);
  m_z.assign(static_cast<std::size_t>(graph.nodeCount()), -1);
}

void SbmSampler::assign(std::span<const std::int32_t> blocks) {
  std::fill(m_n.begin(), m_n.end(), 0);
  std::fill(m_e.begin(), m_e.end(), 0);
  std::fill(m_h.begin(), m_h.end(), 0);
  std::fill(m_kappa.begin(), m_kappa.end(), 0.0);
  std::fill(m_s.begin(), m_s.end(), 0.0);
  std::fill(m_w.begin(), m_w.end(), 0.0);
  m_assigned = 0;
  m_degreeTerm = 0.0;
  m_z.assign(blocks.begin(), blocks.end());
  const bool directed = m_graph.directed();
  for (std::int32_t i = 0; i < m_graph.nodeCount(); ++i) {
    const int k = m_z[static_cast<std::size_t>(i)];
    if (k < 0) continue;
    ++m_assigned;
    ++m_n[static_cast<std::size_t>(k)];
    const double d = m_graph.degree(i);
    m_degreeTerm += xLogX(d);
    m_kappa[static_cast<std::size_t>(k)] += d;
    m_s[static_cast<std::size_t>(k)] += d * d;
    // Each edge and held-out pair once: from its source when directed, from the smaller end
    // when undirected (the lists of an undirected graph hold both ends).
    for (const auto j : m_graph.out(i)) {
      const int l = m_z[static_cast<std::size_t>(j)];
      if (l < 0 || (!directed && j < i)) continue;
      ++m_e[index(k, l)];
      if (!directed && k != l) ++m_e[index(l, k)];
    }
    for (const auto j : m_graph.heldOut(i)) {
      const int l = m_z[static_cast<std::size_t>(j)];
      if (l < 0 || (!directed && j < i)) continue;
      const double w = d * m_graph.degree(j);
      ++m_h[index(k, l)];
      m_w[index(k, l)] += w;
      if (!directed && k != l) {
        ++m_h[index(l, k)];
        m_w[index(l, k)] += w;
      }
    }
  }
  for (int k = 0; k < m_K; ++k) refreshTerms(k);
}

double SbmSampler::pairs(int k, int l) const noexcept {
  const double nk = static_cast<double>(m_n[static_cast<std::size_t>(k)]);
  if (k != l) return nk * static_cast<double>(m_n[static_cast<std::size_t>(l)]);
  return m_graph.directed() ? nk * (nk - 1) : nk * (nk - 1) / 2;
}

double SbmSampler::observedPairs(int k, int l) const noexcept {
  return pairs(k, l) - static_cast<double>(m_h[index(k, l)]);
}

double SbmSampler::exposure(bool diagonal, double kappaK, double kappaL, double sK, double w) const noexcept {
  if (!diagonal) return kappaK > 0 && kappaL > 0 ? std::max(0.0, 1.0 - w / (kappaK * kappaL)) : 0.0;
  if (!(kappaK > 0)) return 0.0;
  const double k2 = kappaK * kappaK;
  const double half = m_graph.directed() ? 1.0 : 0.5;  // each undirected pair once
  return std::max(0.0, half * (1.0 - sK / k2) - w / k2);
}

double SbmSampler::densityTerm(double edges, double nonEdges, double edgeLogGamma) const noexcept {
  const double a = m_priors.densityA, b = m_priors.densityB;
  if (edges == 0 && nonEdges == 0) return 0.0;
  const double lgEdges = std::isnan(edgeLogGamma) ? sbmLogGamma(edges + a) : edgeLogGamma;
  return lgEdges + sbmLogGamma(nonEdges + b) - sbmLogGamma(edges + nonEdges + a + b) - m_logBetaPrior;
}

double SbmSampler::rateTerm(double edges, double exposure, double edgeLogGamma) const noexcept {
  // No observed pair between the blocks (exposure 0) leaves omega at its prior: the term is 0.
  if (edges == 0 && exposure == 0) return 0.0;
  const double shape = m_priors.rateShape;
  const double lgEdges = std::isnan(edgeLogGamma) ? sbmLogGamma(edges + shape) : edgeLogGamma;
  return lgEdges + m_rateConstant - (edges + shape) * std::log(exposure + m_priors.rateRate);
}

double SbmSampler::pairTerm(int k, int l) const noexcept {
  const auto kl = index(k, l);
  const auto sk = static_cast<std::size_t>(k), sl = static_cast<std::size_t>(l);
  return termOf(k == l, static_cast<double>(m_n[sk]), static_cast<double>(m_n[sl]), static_cast<double>(m_e[kl]),
                static_cast<double>(m_h[kl]), m_kappa[sk], m_kappa[sl], m_s[sk], m_w[kl]);
}

void SbmSampler::refreshTerms(int k) {
  const double shift = m_priors.degreeCorrected ? m_priors.rateShape : m_priors.densityA;
  const auto refresh = [&](int x, int y) {
    m_term[index(x, y)] = pairTerm(x, y);
    m_edgeLogGamma[index(x, y)] = sbmLogGamma(static_cast<double>(m_e[index(x, y)]) + shift);
  };
  for (int l = 0; l < m_K; ++l) {
    refresh(k, l);
    if (m_graph.directed()) {
      refresh(l, k);
    } else {
      // Undirected: the matrix is symmetric, so the mirror entry is a copy.
      m_term[index(l, k)] = m_term[index(k, l)];
      m_edgeLogGamma[index(l, k)] = m_edgeLogGamma[index(k, l)];
    }
  }
}

void SbmSampler::gather(std::int32_t i) {
  std::fill(m_dOut.begin(), m_dOut.end(), 0);
  std::fill(m_dIn.begin(), m_dIn.end(), 0);
  std::fill(m_hOut.begin(), m_hOut.end(), 0);
  std::fill(m_hIn.begin(), m_hIn.end(), 0);
  const bool dc = m_priors.degreeCorrected;
  if (dc) {
    std::fill(m_wOut.begin(), m_wOut.end(), 0.0);
    std::fill(m_wIn.begin(), m_wIn.end(), 0.0);
  }
  for (const auto j : m_graph.out(i))
    if (const int l = m_z[static_cast<std::size_t>(j)]; l >= 0) ++m_dOut[static_cast<std::size_t>(l)];
  for (const auto j : m_graph.in(i))
    if (const int l = m_z[static_cast<std::size_t>(j)]; l >= 0) ++m_dIn[static_cast<std::size_t>(l)];
  for (const auto j : m_graph.heldOut(i))
    if (const int l = m_z[static_cast<std::size_t>(j)]; l >= 0) {
      ++m_hOut[static_cast<std::size_t>(l)];
      if (dc) m_wOut[static_cast<std::size_t>(l)] += m_graph.degree(j);
    }
  for (const auto j : m_graph.heldIn(i))
    if (const int l = m_z[static_cast<std::size_t>(j)]; l >= 0) {
      ++m_hIn[static_cast<std::size_t>(l)];
      if (dc) m_wIn[static_cast<std::size_t>(l)] += m_graph.degree(j);
    }
}

void SbmSampler::apply(std::int32_t i, int k, int sign) {
  const auto sk = static_cast<std::size_t>(k);
  const double d = m_graph.degree(i);
  m_n[sk] += sign;
  m_assigned += sign;
  m_degreeTerm += sign * xLogX(d);
  m_kappa[sk] += sign * d;
  m_s[sk] += sign * d * d;
  const bool directed = m_graph.directed();
  for (int l = 0; l < m_K; ++l) {
    const auto sl = static_cast<std::size_t>(l);
    // Out-pairs of i land in (k, l); in-pairs in (l, k). For an undirected graph both halves
    // of the symmetric matrix take the out counts, and the diagonal takes them once.
    m_e[index(k, l)] += sign * m_dOut[sl];
    m_h[index(k, l)] += sign * m_hOut[sl];
    m_w[index(k, l)] += sign * d * m_wOut[sl];
    if (directed) {
      m_e[index(l, k)] += sign * m_dIn[sl];
      m_h[index(l, k)] += sign * m_hIn[sl];
      m_w[index(l, k)] += sign * d * m_wIn[sl];
    } else if (l != k) {
      m_e[index(l, k)] += sign * m_dOut[sl];
      m_h[index(l, k)] += sign * m_hOut[sl];
      m_w[index(l, k)] += sign * d * m_wOut[sl];
    }
  }
  m_z[static_cast<std::size_t>(i)] = sign > 0 ? k : -1;
  refreshTerms(k);
}

// With node i unassigned and its counts gathered: log weight of block k = log(n_k + alpha) plus
// the change in every block-pair term (k, l) (and (l, k) when directed) that i's joining k
// brings. Only pairs that involve block k change, so a candidate costs O(K).
double SbmSampler::candidateWeight(std::int32_t i, int k) const {
  const bool directed = m_graph.directed();
  const double d = m_graph.degree(i);
  const auto sk = static_cast<std::size_t>(k);
  const double nk = static_cast<double>(m_n[sk]) + 1.0;  // block k with i in it
  const double kappaK = m_kappa[sk] + d;
  // log Gamma of a pair's edge count is cached; it changes only where i brings links.
  const auto cached = [&](std::size_t pair, std::int64_t links) {
    return links == 0 ? m_edgeLogGamma[pair] : std::numeric_limits<double>::quiet_NaN();
  };
  double w = std::log(static_cast<double>(m_n[sk]) + m_priors.alpha);
  if (m_priors.degreeCorrected) w += xLogX(m_kappa[sk]) - xLogX(kappaK);  // the edge term -kappa_k log kappa_k
  for (int l = 0; l < m_K; ++l) {
    const auto sl = static_cast<std::size_t>(l);
    const auto kl = index(k, l);
    if (l == k) {
      // i's pairs with the other members of k (both directions when directed) join (k, k).
      const auto links = m_dOut[sk] + (directed ? m_dIn[sk] : 0);
      const auto held = m_hOut[sk] + (directed ? m_hIn[sk] : 0);
      const double heldWeight = d * (m_wOut[sk] + (directed ? m_wIn[sk] : 0.0));
      w += termOf(true, nk, nk, static_cast<double>(m_e[kl] + links), static_cast<double>(m_h[kl] + held), kappaK,
                  kappaK, m_s[sk] + d * d, m_w[kl] + heldWeight, cached(kl, links)) -
           m_term[kl];
      continue;
    }
    const double nl = static_cast<double>(m_n[sl]);
    w += termOf(false, nk, nl, static_cast<double>(m_e[kl] + m_dOut[sl]), static_cast<double>(m_h[kl] + m_hOut[sl]),
                kappaK, m_kappa[sl], 0.0, m_w[kl] + d * m_wOut[sl], cached(kl, m_dOut[sl])) -
         m_term[kl];
    if (!directed) continue;
    const auto lk = index(l, k);
    w += termOf(false, nl, nk, static_cast<double>(m_e[lk] + m_dIn[sl]), static_cast<double>(m_h[lk] + m_hIn[sl]),
                m_kappa[sl], kappaK, 0.0, m_w[lk] + d * m_wIn[sl], cached(lk, m_dIn[sl])) -
         m_term[lk];
  }
  return w;
}

void SbmSampler::candidateWeights(std::int32_t i, std::span<double> logWeights, std::span<const int> candidates) const {
  if (candidates.empty()) {
    for (int k = 0; k < m_K; ++k) logWeights[static_cast<std::size_t>(k)] = candidateWeight(i, k);
  } else {
    for (const int k : candidates) logWeights[static_cast<std::size_t>(k)] = candidateWeight(i, k);
  }
}

void SbmSampler::conditional(std::int32_t i, std::span<double> logWeights) {
  gather(i);
  const int k = m_z[static_cast<std::size_t>(i)];
  if (k >= 0) apply(i, k, -1);
  candidateWeights(i, logWeights);
  if (k >= 0) apply(i, k, +1);
}

// Draws from m_weights (log weights of the candidates) raised to the inverse temperature.
int SbmSampler::draw(std::span<const int> candidates, double inverseTemperature, Rng& rng) {
  const auto count = candidates.empty() ? static_cast<std::size_t>(m_K) : candidates.size();
  const auto blockAt = [&](std::size_t c) { return candidates.empty() ? static_cast<int>(c) : candidates[c]; };
  double top = -std::numeric_limits<double>::infinity();
  for (std::size_t c = 0; c < count; ++c) top = std::max(top, m_weights[static_cast<std::size_t>(blockAt(c))]);
  double total = 0.0;
  for (std::size_t c = 0; c < count; ++c) {
    auto& w = m_weights[static_cast<std::size_t>(blockAt(c))];
    w = std::exp(inverseTemperature * (w - top));
    total += w;
  }
  double u = rng.uniform() * total;
  for (std::size_t c = 0; c < count; ++c) {
    u -= m_weights[static_cast<std::size_t>(blockAt(c))];
    if (u < 0) return blockAt(c);
  }
  return blockAt(count - 1);
}

void SbmSampler::resample(std::int32_t i, double inverseTemperature, Rng& rng) {
  gather(i);
  const int old = m_z[static_cast<std::size_t>(i)];
  if (old >= 0) apply(i, old, -1);
  candidateWeights(i, m_weights);
  apply(i, draw({}, inverseTemperature, rng), +1);
}

void SbmSampler::resampleAmong(std::int32_t i, std::span<const int> candidates, double inverseTemperature, Rng& rng) {
  gather(i);
  const int old = m_z[static_cast<std::size_t>(i)];
  if (old >= 0) apply(i, old, -1);
  candidateWeights(i, m_weights, candidates);
  apply(i, draw(candidates, inverseTemperature, rng), +1);
}

double SbmSampler::termOf(bool diagonal, double nk, double nl, double e, double h, double kappaK, double kappaL,
                          double sK, double w, double edgeLogGamma) const noexcept {
  if (m_priors.degreeCorrected) return rateTerm(e, exposure(diagonal, kappaK, kappaL, sK, w), edgeLogGamma);
  const double all = diagonal ? (m_graph.directed() ? nk * (nk - 1) : nk * (nk - 1) / 2) : nk * nl;
  return densityTerm(e, all - e - h, edgeLogGamma);
}

// Block b's nodes join a: the terms of every block pair that involves a or b are replaced by
// those of the merged block m (b's own become those of an empty block, which are 0).
double SbmSampler::mergeDelta(int a, int b) const {
  if (a == b) return 0.0;
  const bool directed = m_graph.directed();
  const auto sa = static_cast<std::size_t>(a), sb = static_cast<std::size_t>(b);
  const double n = static_cast<double>(m_n[sa] + m_n[sb]);
  const double kappa = m_kappa[sa] + m_kappa[sb];
  const double alpha = m_priors.alpha;
  double delta = sbmLogGamma(n + alpha) + sbmLogGamma(alpha) - sbmLogGamma(static_cast<double>(m_n[sa]) + alpha) -
                 sbmLogGamma(static_cast<double>(m_n[sb]) + alpha);
  if (m_priors.degreeCorrected) delta += xLogX(m_kappa[sa]) + xLogX(m_kappa[sb]) - xLogX(kappa);
  // Old terms: rows a and b, plus columns a and b of the other rows when directed; an
  // undirected (a, b) appears in both rows, so once too many.
  for (int l = 0; l < m_K; ++l) delta -= m_term[index(a, l)] + m_term[index(b, l)];
  if (directed) {
    for (int k = 0; k < m_K; ++k)
      if (k != a && k != b) delta -= m_term[index(k, a)] + m_term[index(k, b)];
  } else {
    delta += m_term[index(a, b)];
  }
  // New terms of the merged block with every other block, then with itself.
  for (int l = 0; l < m_K; ++l) {
    if (l == a || l == b) continue;
    const auto sl = static_cast<std::size_t>(l);
    const double nl = static_cast<double>(m_n[sl]);
    const auto al = index(a, l), bl = index(b, l);
    delta += termOf(false, n, nl, static_cast<double>(m_e[al] + m_e[bl]), static_cast<double>(m_h[al] + m_h[bl]), kappa,
                    m_kappa[sl], 0.0, m_w[al] + m_w[bl]);
    if (directed) {
      const auto la = index(l, a), lb = index(l, b);
      delta += termOf(false, nl, n, static_cast<double>(m_e[la] + m_e[lb]), static_cast<double>(m_h[la] + m_h[lb]),
                      m_kappa[sl], kappa, 0.0, m_w[la] + m_w[lb]);
    }
  }
  const auto aa = index(a, a), bb = index(b, b), ab = index(a, b), ba = index(b, a);
  double e = static_cast<double>(m_e[aa] + m_e[bb] + m_e[ab]);
  double h = static_cast<double>(m_h[aa] + m_h[bb] + m_h[ab]);
  double w = m_w[aa] + m_w[bb] + m_w[ab];
  if (directed) {
    e += static_cast<double>(m_e[ba]);
    h += static_cast<double>(m_h[ba]);
    w += m_w[ba];
  }
  delta += termOf(true, n, n, e, h, kappa, kappa, m_s[sa] + m_s[sb], w);
  return delta;
}

bool SbmSampler::sweep(std::span<const std::int32_t> order, double inverseTemperature, Rng& rng,
                       const std::stop_token& stop) {
  for (std::size_t t = 0; t < order.size(); ++t) {
    if (t % 256 == 0 && stop.stop_requested()) return false;
    resample(order[t], inverseTemperature, rng);
  }
  return true;
}

bool SbmSampler::sequentialStart(std::span<const std::int32_t> order, Rng& rng, const std::stop_token& stop) {
  std::vector<std::int32_t> none(static_cast<std::size_t>(m_graph.nodeCount()), -1);
  assign(none);
  return sweep(order, 1.0, rng, stop);
}

double SbmSampler::logPrior() const {
  // Dirichlet-categorical: log Gamma(K alpha) - log Gamma(n + K alpha) + sum_k [log Gamma(n_k + alpha) - log
  // Gamma(alpha)].
  const double alpha = m_priors.alpha;
  double value = sbmLogGamma(m_K * alpha) - sbmLogGamma(static_cast<double>(m_assigned) + m_K * alpha);
  const double logGammaAlpha = sbmLogGamma(alpha);
  for (const auto n : m_n) value += sbmLogGamma(static_cast<double>(n) + alpha) - logGammaAlpha;
  return value;
}

double SbmSampler::logLikelihood() const {
  double value = 0.0;
  for (int k = 0; k < m_K; ++k)
    for (int l = m_graph.directed() ? 0 : k; l < m_K; ++l) value += m_term[index(k, l)];
  if (m_priors.degreeCorrected) {
    value += m_degreeTerm;
    for (const double kappa : m_kappa) value -= xLogX(kappa);
  }
  return value;
}

double SbmSampler::logPosterior() const { return logPrior() + logLikelihood(); }

int SbmSampler::blocksUsed() const noexcept {
  return static_cast<int>(std::count_if(m_n.begin(), m_n.end(), [](std::int64_t n) { return n > 0; }));
}

Eigen::MatrixXd SbmSampler::densities() const {
  Eigen::MatrixXd out(m_K, m_K);
  const double a = m_priors.densityA, b = m_priors.densityB;
  for (int k = 0; k < m_K; ++k)
    for (int l = 0; l < m_K; ++l)
      out(k, l) = (static_cast<double>(m_e[index(k, l)]) + a) / (observedPairs(k, l) + a + b);
  return out;
}

Eigen::MatrixXd SbmSampler::rates() const {
  Eigen::MatrixXd out(m_K, m_K);
  for (int k = 0; k < m_K; ++k)
    for (int l = 0; l < m_K; ++l) {
      const auto sk = static_cast<std::size_t>(k), sl = static_cast<std::size_t>(l);
      // T_kl sums theta_i theta_j over the observed pairs (each undirected pair once), so
      // theta_i theta_j omega_kl is the expected number of links of the one pair (i, j).
      // Without an observed pair (an empty block) omega keeps its vague prior, whose mean (100)
      // means nothing here: 0 instead, since no pair of nodes is in those blocks.
      const double T = exposure(k == l, m_kappa[sk], m_kappa[sl], m_s[sk], m_w[index(k, l)]);
      const double e = static_cast<double>(m_e[index(k, l)]);
      out(k, l) = T > 0 || e > 0 ? (e + m_priors.rateShape) / (T + m_priors.rateRate) : 0.0;
    }
  return out;
}

Eigen::VectorXd SbmSampler::degreeFactors() const {
  Eigen::VectorXd theta = Eigen::VectorXd::Zero(m_graph.nodeCount());
  for (std::int32_t i = 0; i < m_graph.nodeCount(); ++i) {
    const int k = m_z[static_cast<std::size_t>(i)];
    if (k < 0) continue;
    const double kappa = m_kappa[static_cast<std::size_t>(k)];
    if (kappa > 0) theta[i] = m_graph.degree(i) / kappa;
  }
  return theta;
}

}  // namespace latent::core::network
