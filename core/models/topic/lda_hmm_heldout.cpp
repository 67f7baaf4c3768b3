// SPDX-License-Identifier: GPL-3.0-or-later
// LDA-HMM's held-out scoring: the sequence fold-in and the forward algorithm over the classes.
//
// Why not the FoldIn and scoreHeldout of eval/topic_evaluation.hpp: they score each held-out word
// by theta . phi_w, a bag of words. Under LDA-HMM a word's probability depends on its neighbours'
// classes, and most words (the function words) come from the classes, not from theta: the honest
// predictive sums over the class chain, which needs each word's place in its document
// (HeldoutDocuments' positions). The estimate is then
//   log p(w_scored | w_observed) ~ log p(w_scored | w_observed, theta^, phi^, psi^, A^),
// the same plug-in as the other topic models' document completion (theta^ fitted to the observed
// half, the global parameters at their posterior means), with the sum over every position's class
// done exactly by the forward algorithm rather than approximated.
#include "core/models/topic/lda_hmm_heldout.hpp"

#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>

#include <algorithm>
#include <cmath>

#include "core/eval/perplexity.hpp"
#include "core/util/random.hpp"

namespace latent::core::topic {
namespace {

constexpr std::uint64_t kLdaHmmFoldInStream = 0x4C48464F4C44494EULL;  // "LHFOLDIN"

struct LdaHmmFoldInScratch {
  std::vector<int> classes, topics;
  std::vector<double> topicMass, classMass, topicCounts;
};

// Whether document i's halves carry valid positions.
bool ldaHmmHasPositions(const HeldoutDocuments& h) {
  return h.observedPositions.size() == h.observed.tokenCount() && h.scoredPositions.size() == h.scored.tokenCount();
}

}  // namespace

void heldoutSequence(const HeldoutDocuments& heldout, std::size_t i, HeldoutProtocol protocol, LdaHmmSequence& out) {
  const auto observed = heldout.observed.document(i);
  const auto scored = heldout.scored.document(i);
  const std::size_t n = observed.size() + scored.size();
  const bool full = protocol == HeldoutProtocol::FullFoldingIn;
  out.words.assign(n, 0);
  out.given.assign(n, 0);
  out.target.assign(n, 0);
  const auto place = [&](std::size_t position, std::int32_t word, bool fromObserved) {
    out.words[position] = word;
    out.given[position] = fromObserved || full ? 1 : 0;
    out.target[position] = !fromObserved || full ? 1 : 0;
  };
  bool placed = false;
  if (ldaHmmHasPositions(heldout)) {
    const auto o = static_cast<std::size_t>(heldout.observed.offsets[i]);
    const auto s = static_cast<std::size_t>(heldout.scored.offsets[i]);
    const auto inRange = [n](std::int32_t p) { return p >= 0 && static_cast<std::size_t>(p) < n; };
    placed =
        std::all_of(heldout.observedPositions.begin() + static_cast<std::ptrdiff_t>(o),
                    heldout.observedPositions.begin() + static_cast<std::ptrdiff_t>(o + observed.size()), inRange) &&
        std::all_of(heldout.scoredPositions.begin() + static_cast<std::ptrdiff_t>(s),
                    heldout.scoredPositions.begin() + static_cast<std::ptrdiff_t>(s + scored.size()), inRange);
    if (placed) {
      for (std::size_t j = 0; j < observed.size(); ++j)
        place(static_cast<std::size_t>(heldout.observedPositions[o + j]), observed[j], true);
      for (std::size_t j = 0; j < scored.size(); ++j)
        place(static_cast<std::size_t>(heldout.scoredPositions[s + j]), scored[j], false);
    }
  }
  if (!placed) {
    for (std::size_t j = 0; j < observed.size(); ++j) place(j, observed[j], true);
    for (std::size_t j = 0; j < scored.size(); ++j) place(observed.size() + j, scored[j], false);
  }
}

void foldInSequence(const LdaHmmParameters& parameters, const LdaHmmSequence& sequence, std::uint64_t seed,
                    Eigen::Ref<Eigen::VectorXd> theta, int sweeps, int burnIn) {
  const auto K = static_cast<int>(parameters.topicWord.rows());
  const auto C = static_cast<int>(parameters.transitions.rows());
  const std::size_t n = sequence.words.size();
  const double alpha = parameters.alpha, kAlpha = K * alpha;
  const Eigen::MatrixXd& A = parameters.transitions;
  thread_local LdaHmmFoldInScratch s;  // reused across documents: nothing is allocated per token
  s.classes.assign(n, 0);
  s.topics.assign(n, -1);
  s.topicMass.resize(static_cast<std::size_t>(K));
  s.classMass.resize(static_cast<std::size_t>(C));
  s.topicCounts.assign(static_cast<std::size_t>(K), 0.0);
  double semantic = 0.0;  // given words in class 0
  Rng rng(seed);

  // Position i's class (and topic) from its conditional given the others; `withNext`: the class
  // after it is known (not in the first, left-to-right pass).
  const auto draw = [&](std::size_t i, bool withNext) {
    const bool given = sequence.given[i] != 0;
    const auto w = static_cast<Eigen::Index>(sequence.words[i]);
    double topicTotal = 0.0;
    if (given) {
      const double* phi = parameters.topicWord.col(w).data();
      for (int k = 0; k < K; ++k) s.topicMass[k] = topicTotal += (s.topicCounts[k] + alpha) * phi[k];
    }
    const bool next = withNext && i + 1 < n;
    double total = 0.0;
    for (int c = 0; c < C; ++c) {
      double weight = i == 0 ? parameters.start[c] : A(s.classes[i - 1], c);
      if (next) weight *= A(c, s.classes[i + 1]);
      if (given) weight *= c == 0 ? topicTotal / (semantic + kAlpha) : parameters.classWord(c, w);
      s.classMass[c] = total += weight;
    }
    int c = 0;
    if (total > 0.0) {
      const double u = rng.uniform() * total;
      while (c + 1 < C && s.classMass[c] <= u) ++c;
    } else {
      c = static_cast<int>(rng.below(static_cast<std::uint64_t>(C)));  // a word no class can emit
    }
    s.classes[i] = c;
    if (c == 0 && given && topicTotal > 0.0) {
      const double u = rng.uniform() * topicTotal;
      int k = 0;
      while (k + 1 < K && s.topicMass[k] <= u) ++k;
      s.topics[i] = k;
      s.topicCounts[k] += 1.0;
      semantic += 1.0;
    } else {
      s.topics[i] = -1;
    }
  };

  for (std::size_t i = 0; i < n; ++i) draw(i, false);
  theta.setZero();
  int kept = 0;
  for (int sweep = 0; sweep < sweeps; ++sweep) {
    for (std::size_t i = 0; i < n; ++i) {
      if (s.topics[i] >= 0) {
        s.topicCounts[s.topics[i]] -= 1.0;
        semantic -= 1.0;
      }
      draw(i, true);
    }
    if (sweep >= burnIn) {
      for (int k = 0; k < K; ++k) theta[k] += (s.topicCounts[k] + alpha) / (semantic + kAlpha);
      ++kept;
    }
  }
  if (kept == 0)
    for (int k = 0; k < K; ++k) theta[k] = (s.topicCounts[k] + alpha) / (semantic + kAlpha);
  else
    theta /= kept;
}

double logPredictiveSequence(const LdaHmmParameters& parameters, const LdaHmmSequence& sequence,
                             const Eigen::Ref<const Eigen::VectorXd>& theta) {
  const auto C = parameters.transitions.rows();
  const std::size_t n = sequence.words.size();
  const Eigen::MatrixXd transposed = parameters.transitions.transpose();
  // log F(counted words): the forward recursion, scaled to sum to one at each position.
  const auto forward = [&](bool withTargets) {
    Eigen::VectorXd f(C), emission(C);
    double logLikelihood = 0.0;
    for (std::size_t i = 0; i < n; ++i) {
      if (i == 0)
        f = parameters.start;
      else
        f = transposed * f;
      // Conditioned on the given words that are not scored: under full folding-in every word is
      // both, and its score is then log p(all words | theta) itself.
      const bool counted = sequence.target[i] != 0 ? withTargets : sequence.given[i] != 0;
      if (counted) {
        const auto w = static_cast<Eigen::Index>(sequence.words[i]);
        emission = parameters.classWord.col(w);
        emission[0] = theta.dot(parameters.topicWord.col(w));
        f.array() *= emission.array();
      }
      const double scale = f.sum();
      logLikelihood += std::log(scale);
      f /= scale;
    }
    return logLikelihood;
  };
  return forward(true) - forward(false);
}

TopicHeldoutScore scoreLdaHmmHeldout(const HeldoutDocuments& heldout, const LdaHmmParameters& parameters,
                                     HeldoutProtocol protocol, std::uint64_t seed) {
  const std::size_t D = heldout.size();
  const auto K = parameters.topicWord.rows();
  std::vector<double> logLik(D, 0.0);
  std::vector<std::int64_t> lengths(D, 0);
  tbb::parallel_for(tbb::blocked_range<std::size_t>(0, D, 4), [&](const auto& range) {
    LdaHmmSequence sequence;
    Eigen::VectorXd theta(K);
    for (std::size_t d = range.begin(); d != range.end(); ++d) {
      heldoutSequence(heldout, d, protocol, sequence);
      foldInSequence(parameters, sequence,
                     seed ^ (kLdaHmmFoldInStream + static_cast<std::uint64_t>(heldout.documents[d])), theta);
      logLik[d] = logPredictiveSequence(parameters, sequence, theta);
      lengths[d] = std::count(sequence.target.begin(), sequence.target.end(), 1);
    }
  });
  TopicHeldoutScore result;
  result.perplexity = perplexityPerDocument(logLik, lengths);
  result.perplexityPerToken = perplexityPerToken(logLik, lengths);
  result.documents = static_cast<std::int64_t>(D);
  for (const auto n : lengths) result.tokens += n;
  return result;
}

Eigen::MatrixXd foldInHeldoutDocuments(const HeldoutDocuments& heldout, const LdaHmmParameters& parameters,
                                       std::uint64_t seed) {
  Eigen::MatrixXd theta(static_cast<Eigen::Index>(heldout.size()), parameters.topicWord.rows());
  tbb::parallel_for(tbb::blocked_range<std::size_t>(0, heldout.size(), 4), [&](const auto& range) {
    LdaHmmSequence sequence;
    Eigen::VectorXd row(parameters.topicWord.rows());
    for (std::size_t d = range.begin(); d != range.end(); ++d) {
      heldoutSequence(heldout, d, HeldoutProtocol::FullFoldingIn, sequence);
      foldInSequence(parameters, sequence,
                     seed ^ (kLdaHmmFoldInStream + static_cast<std::uint64_t>(heldout.documents[d])), row);
      theta.row(static_cast<Eigen::Index>(d)) = row.transpose();
    }
  });
  return theta;
}

}  // namespace latent::core::topic
