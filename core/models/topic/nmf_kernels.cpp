// SPDX-License-Identifier: GPL-3.0-or-later
// NMF kernels: seeded start, multiplicative updates (Lee & Seung 2001) for the KL and Frobenius
// losses, HALS for the Frobenius loss, the losses themselves, the factors read as topics, and
// the Frobenius folding-in. Words are updated word by word and documents in the fixed blocks of
// DocWordCounts, and every sum is added in an order fixed by the data, so the numbers do not
// depend on the thread count.
#include "core/models/topic/nmf_kernels.hpp"

#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>

#include <algorithm>
#include <atomic>
#include <cmath>
#include <limits>
#include <memory>

#include "core/models/topic/plsa_kernels.hpp"

namespace latent::core::topic {
namespace {

// Denominators below this are taken as this: a reconstruction or a factor column that has
// underflowed to zero must not turn an update into 0/0.
constexpr double kNmfTiny = 1e-300;
// Row blocks of a Gram matrix: a fixed count, so the partial sums (and their order) depend on the
// data alone, and at most this many K x K partial matrices are held at once.
constexpr Eigen::Index kNmfGramBlocks = 16;

double nmfNaN() { return std::numeric_limits<double>::quiet_NaN(); }

// m^T m, summed over fixed row blocks in parallel and added in block order.
bool nmfGram(const RowMatrix& m, Eigen::MatrixXd& gram, std::stop_token stop) {
  const Eigen::Index rows = m.rows(), K = m.cols();
  const Eigen::Index per = std::max<Eigen::Index>(1, (rows + kNmfGramBlocks - 1) / kNmfGramBlocks);
  const Eigen::Index blocks = (rows + per - 1) / per;
  std::vector<Eigen::MatrixXd> partial(static_cast<std::size_t>(blocks));
  std::atomic<bool> halted{false};
  tbb::parallel_for(Eigen::Index{0}, blocks, [&](Eigen::Index b) {
    if (halted.load(std::memory_order_relaxed) || stop.stop_requested()) {
      halted.store(true, std::memory_order_relaxed);
      return;
    }
    const Eigen::Index begin = b * per, count = std::min(rows, begin + per) - begin;
    auto& g = partial[static_cast<std::size_t>(b)];
    g = Eigen::MatrixXd::Zero(K, K);
    g.selfadjointView<Eigen::Lower>().rankUpdate(m.middleRows(begin, count).transpose());
  });
  if (halted.load()) return false;
  Eigen::MatrixXd lower = Eigen::MatrixXd::Zero(K, K);
  for (const auto& g : partial) lower += g;
  gram = lower.selfadjointView<Eigen::Lower>();
  return true;
}

double squaredCounts(const DocWordCounts& counts) {
  double sum = 0.0;
  for (const double x : counts.counts) sum += x * x;
  return sum;
}

Eigen::RowVectorXd flooredColumnSums(const RowMatrix& m) { return m.colwise().sum().cwiseMax(kNmfTiny); }

// Row `v` of X^T W: sum over the documents holding word v of x_dv W_d.
template <typename Out>
void wordProduct(const DocWordCounts& counts, const RowMatrix& w, std::int64_t v, Out&& out) {
  out.setZero();
  const auto first = counts.wordStart[static_cast<std::size_t>(v)];
  const auto last = counts.wordStart[static_cast<std::size_t>(v) + 1];
  for (auto i = first; i < last; ++i) {
    const auto e = static_cast<std::size_t>(counts.wordEntry[static_cast<std::size_t>(i)]);
    out.noalias() += counts.counts[e] * w.row(counts.wordDoc[static_cast<std::size_t>(i)]);
  }
}

// Row `d` of X H: sum over the document's words of x_dv H_v.
template <typename Out>
void documentProduct(const DocWordCounts& counts, const RowMatrix& h, std::int64_t d, Out&& out) {
  out.setZero();
  const auto first = static_cast<std::size_t>(counts.docStart[static_cast<std::size_t>(d)]);
  const auto last = static_cast<std::size_t>(counts.docStart[static_cast<std::size_t>(d) + 1]);
  for (auto e = first; e < last; ++e) out.noalias() += counts.counts[e] * h.row(counts.words[e]);
}

// One exact coordinate-descent pass over a row x >= 0 minimising 0.5 x G x^T - b x^T, the
// coordinates in order (HALS's update of one row of a factor). The residual b - x G is kept up to
// date and changed only by coordinates that move: most entries of a factor row stay at zero, so
// a pass costs one product with G and then little more. `residual` is the caller's buffer.
template <typename Row, typename Rhs>
void coordinateDescentRow(Row&& x, const Rhs& b, const Eigen::MatrixXd& gram, Eigen::RowVectorXd& residual) {
  residual.noalias() = b - x * gram;
  for (Eigen::Index k = 0; k < x.size(); ++k) {
    const double g = gram(k, k);
    if (g <= 0.0) continue;  // a factor column that is all zero: nothing to fit with
    const double next = std::max(0.0, x[k] + residual[k] / g);
    const double delta = next - x[k];
    if (delta == 0.0) continue;
    x[k] = next;
    residual.noalias() -= delta * gram.col(k).transpose();  // G is symmetric
  }
}

// Document d's ratios x / (W H) at the current pair, into `ratio`; with `withLoss`, returns its
// part of sum x log(x / (W H)) (else 0: the logarithms are most of this pass's cost).
double klDocumentRatios(const DocWordCounts& counts, NmfState& state, std::int64_t d, bool withLoss) {
  const auto row = state.w.row(d);
  double sum = 0.0;
  for (auto e = static_cast<std::size_t>(counts.docStart[static_cast<std::size_t>(d)]);
       e < static_cast<std::size_t>(counts.docStart[static_cast<std::size_t>(d) + 1]); ++e) {
    const double z = std::max(row.dot(state.h.row(counts.words[e])), kNmfTiny);
    state.ratio[e] = counts.counts[e] / z;
    if (withLoss) sum += counts.counts[e] * std::log(counts.counts[e] / z);
  }
  return sum;
}

// The KL loss from its data term: sum x log(x / (W H)) - x + sum_k (sum_d W_dk)(sum_v H_vk).
double klFromDivergence(const DocWordCounts& counts, const NmfState& state, double divergence) {
  return divergence - counts.tokens + state.w.colwise().sum().dot(state.h.colwise().sum());
}

// The KL loss at `state` (fills `ratio`).
double klLoss(const DocWordCounts& counts, NmfState& state, std::stop_token stop) {
  state.ratio.resize(counts.entries());
  bool stopped = false;
  const double divergence = sumOverBlocks(counts.blocks(), stop, stopped, [&](std::size_t b) {
    double sum = 0.0;
    for (auto d = counts.blockStart[b]; d < counts.blockStart[b + 1]; ++d)
      sum += klDocumentRatios(counts, state, d, true);
    return sum;
  });
  return stopped ? nmfNaN() : klFromDivergence(counts, state, divergence);
}

// Half the squared Frobenius error from its parts: 0.5 (||X||^2 - 2 <X, W H> + <W^T W, H^T H>).
double frobeniusFromParts(const DocWordCounts& counts, double cross, const Eigen::MatrixXd& wGram,
                          const Eigen::MatrixXd& hGram) {
  return 0.5 * std::max(0.0, squaredCounts(counts) - 2.0 * cross + wGram.cwiseProduct(hGram).sum());
}

// <X, W H> = sum_d W_d . (X H)_d, over document blocks.
double frobeniusCross(const DocWordCounts& counts, const NmfState& state, std::stop_token stop, bool& stopped) {
  const auto K = state.w.cols();
  return sumOverBlocks(counts.blocks(), stop, stopped, [&](std::size_t b) {
    Eigen::RowVectorXd product(K);
    double sum = 0.0;
    for (auto d = counts.blockStart[b]; d < counts.blockStart[b + 1]; ++d) {
      documentProduct(counts, state.h, d, product);
      sum += state.w.row(d).dot(product);
    }
    return sum;
  });
}

double frobeniusLoss(const DocWordCounts& counts, NmfState& state, std::stop_token stop) {
  Eigen::MatrixXd hGram;
  bool stopped = false;
  if (!nmfGram(state.w, state.wGram, stop) || !nmfGram(state.h, hGram, stop)) return nmfNaN();
  const double cross = frobeniusCross(counts, state, stop, stopped);
  return stopped ? nmfNaN() : frobeniusFromParts(counts, cross, state.wGram, hGram);
}

// Lee & Seung's KL updates: H_vk *= sum_d W_dk x_dv / (W H)_dv / sum_d W_dk, then
// W_dk *= sum_v H_vk x_dv / (W H)_dv / sum_v H_vk with the new H. `ratio` arrives for the
// current pair and leaves for the new one.
double klSweep(const DocWordCounts& counts, NmfState& state, bool withLoss, std::stop_token stop) {
  const auto K = state.w.cols();
  const auto V = static_cast<std::int64_t>(counts.vocabulary);
  const Eigen::RowVectorXd wSum = flooredColumnSums(state.w);
  bool stopped = false;
  forEachWordRange(V, stop, stopped, [&](std::int64_t begin, std::int64_t end) {
    Eigen::RowVectorXd acc(K);
    for (auto v = begin; v < end; ++v) {
      acc.setZero();
      for (auto i = counts.wordStart[static_cast<std::size_t>(v)];
           i < counts.wordStart[static_cast<std::size_t>(v) + 1]; ++i) {
        const auto e = static_cast<std::size_t>(counts.wordEntry[static_cast<std::size_t>(i)]);
        acc.noalias() += state.ratio[e] * state.w.row(counts.wordDoc[static_cast<std::size_t>(i)]);
      }
      state.h.row(v).array() *= acc.array() / wSum.array();
    }
  });
  if (stopped) return nmfNaN();
  // Each document's row of W, then at once (its entries still in cache) its ratios at the new pair.
  const Eigen::RowVectorXd hSum = flooredColumnSums(state.h);
  const double divergence = sumOverBlocks(counts.blocks(), stop, stopped, [&](std::size_t b) {
    Eigen::RowVectorXd acc(K);
    double sum = 0.0;
    for (auto d = counts.blockStart[b]; d < counts.blockStart[b + 1]; ++d) {
      auto row = state.w.row(d);
      acc.setZero();
      for (auto e = static_cast<std::size_t>(counts.docStart[static_cast<std::size_t>(d)]);
           e < static_cast<std::size_t>(counts.docStart[static_cast<std::size_t>(d) + 1]); ++e) {
        const auto h = state.h.row(counts.words[e]);
        acc.noalias() += counts.counts[e] / std::max(row.dot(h), kNmfTiny) * h;
      }
      row.array() *= acc.array() / hSum.array();
      sum += klDocumentRatios(counts, state, d, withLoss);
    }
    return sum;
  });
  if (stopped) return nmfNaN();
  return withLoss ? klFromDivergence(counts, state, divergence) : 0.0;
}

// The Frobenius updates: H from A = X^T W and B = W^T W (kept from the last sweep), then W from
// C = X H and G = H^T H of the new H. Multiplicative: H_v *= A_v / (H_v B), W_d *= C_d / (W_d G);
// HALS: one coordinate-descent pass over each row.
double frobeniusSweep(const DocWordCounts& counts, NmfSolver solver, NmfState& state, std::stop_token stop) {
  const auto K = state.w.cols();
  const auto V = static_cast<std::int64_t>(counts.vocabulary);
  const bool hals = solver == NmfSolver::Hals;
  const Eigen::MatrixXd& wGram = state.wGram;
  bool stopped = false;
  forEachWordRange(V, stop, stopped, [&](std::int64_t begin, std::int64_t end) {
    Eigen::RowVectorXd a(K), denominator(K);
    for (auto v = begin; v < end; ++v) {
      wordProduct(counts, state.w, v, a);
      auto h = state.h.row(v);
      if (hals) {
        coordinateDescentRow(h, a, wGram, denominator);
      } else {
        denominator.noalias() = h * wGram;
        h.array() *= a.array() / denominator.array().max(kNmfTiny);
      }
    }
  });
  Eigen::MatrixXd hGram;
  if (stopped || !nmfGram(state.h, hGram, stop)) return nmfNaN();
  const double cross = sumOverBlocks(counts.blocks(), stop, stopped, [&](std::size_t b) {
    Eigen::RowVectorXd c(K), denominator(K);
    double sum = 0.0;
    for (auto d = counts.blockStart[b]; d < counts.blockStart[b + 1]; ++d) {
      documentProduct(counts, state.h, d, c);
      auto w = state.w.row(d);
      if (hals) {
        coordinateDescentRow(w, c, hGram, denominator);
      } else {
        denominator.noalias() = w * hGram;
        w.array() *= c.array() / denominator.array().max(kNmfTiny);
      }
      sum += w.dot(c);
    }
    return sum;
  });
  if (stopped || !nmfGram(state.w, state.wGram, stop)) return nmfNaN();
  return frobeniusFromParts(counts, cross, state.wGram, hGram);
}

}  // namespace

double initNmf(const DocWordCounts& counts, std::int64_t K, NmfLoss loss, std::uint64_t seed, NmfState& state,
               std::stop_token stop) {
  PlsaState start;
  const bool complete = initPlsa(counts, K, seed, 0, PlsaSettings{}, start, stop);
  state.h = std::move(start.phi);
  state.w.resize(static_cast<Eigen::Index>(counts.documents()), K);
  for (Eigen::Index d = 0; d < state.w.rows(); ++d)
    state.w.row(d).setConstant(counts.docLength[static_cast<std::size_t>(d)] / static_cast<double>(K));
  if (!complete) return nmfNaN();
  if (loss == NmfLoss::KullbackLeibler) return klLoss(counts, state, stop);
  // Least-squares scale: c = <X, W H> / ||W H||^2, shared equally by the two factors.
  Eigen::MatrixXd hGram;
  bool stopped = false;
  if (!nmfGram(state.w, state.wGram, stop) || !nmfGram(state.h, hGram, stop)) return nmfNaN();
  const double cross = frobeniusCross(counts, state, stop, stopped);
  const double norm = state.wGram.cwiseProduct(hGram).sum();
  if (stopped) return nmfNaN();
  if (cross > 0.0 && norm > 0.0) {
    const double root = std::sqrt(cross / norm);
    state.w *= root;
    state.h *= root;
  }
  return frobeniusLoss(counts, state, stop);
}

double nmfSweep(const DocWordCounts& counts, NmfLoss loss, NmfSolver solver, NmfState& state, bool withLoss,
                std::stop_token stop) {
  if (loss == NmfLoss::KullbackLeibler) return klSweep(counts, state, withLoss, stop);
  return frobeniusSweep(counts, solver, state, stop);
}

double nmfLoss(const DocWordCounts& counts, NmfLoss loss, NmfState& state, std::stop_token stop) {
  return loss == NmfLoss::KullbackLeibler ? klLoss(counts, state, stop) : frobeniusLoss(counts, state, stop);
}

Eigen::MatrixXd nmfTopics(const NmfState& state, double smoothing) {
  const Eigen::RowVectorXd topicMass = state.w.colwise().sum();
  const auto K = state.h.cols(), V = state.h.rows();
  Eigen::MatrixXd topics(K, V);
  for (Eigen::Index k = 0; k < K; ++k) {
    topics.row(k) = (state.h.col(k).transpose() * topicMass[k]).array() + smoothing;
    const double total = topics.row(k).sum();
    if (total > 0.0)
      topics.row(k) /= total;
    else
      topics.row(k).setConstant(1.0 / static_cast<double>(V));
  }
  return topics;
}

Eigen::MatrixXd nmfDocumentMixes(const NmfState& state) {
  const Eigen::RowVectorXd wordMass = state.h.colwise().sum();
  const auto D = state.w.rows(), K = state.w.cols();
  Eigen::MatrixXd mixes(D, K);
  for (Eigen::Index d = 0; d < D; ++d) {
    mixes.row(d) = state.w.row(d).cwiseProduct(wordMass);
    const double total = mixes.row(d).sum();
    if (total > 0.0)
      mixes.row(d) /= total;
    else
      mixes.row(d).setConstant(1.0 / static_cast<double>(K));
  }
  return mixes;
}

FoldIn frobeniusFoldIn(const RowMatrix& h, int iterations) {
  struct Fixed {
    RowMatrix h;
    Eigen::MatrixXd gram;
    Eigen::RowVectorXd wordMass;
  };
  auto fixed = std::make_shared<Fixed>();
  fixed->h = h;
  fixed->gram = h.transpose() * h;
  fixed->wordMass = h.colwise().sum();
  return [fixed = std::shared_ptr<const Fixed>(fixed), iterations](std::span<const std::int32_t> words, std::uint64_t,
                                                                   Eigen::Ref<Eigen::VectorXd> theta) {
    const auto K = fixed->h.cols();
    Eigen::RowVectorXd b = Eigen::RowVectorXd::Zero(K), w = Eigen::RowVectorXd::Zero(K), before(K), residual(K);
    for (const auto v : words) b += fixed->h.row(v);
    for (int iteration = 0; iteration < iterations; ++iteration) {
      before = w;
      coordinateDescentRow(w, b, fixed->gram, residual);
      if ((w - before).cwiseAbs().maxCoeff() <= 1e-12 * std::max(1.0, w.cwiseAbs().maxCoeff())) break;
    }
    theta = w.cwiseProduct(fixed->wordMass).transpose();
    const double total = theta.sum();
    if (total > 0.0)
      theta /= total;
    else
      theta.setConstant(1.0 / static_cast<double>(K));
  };
}

}  // namespace latent::core::topic
