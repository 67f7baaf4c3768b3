// SPDX-License-Identifier: GPL-3.0-or-later
// Latent Dirichlet allocation fitted by collapsed Gibbs sampling (Griffiths & Steyvers 2004;
// 000 §27.3.4 eq. 27.37; 001 eq. 4-9) with two exact samplers, SparseLDA (Yao, Mimno & McCallum
// 2009) and Metropolis-Hastings with alias tables (LightLDA, Yuan et al. 2015), parallel over
// blocks of documents and words (Yan, Xu & Qi 2009) and over documents as AD-LDA (Newman,
// Asuncion, Smyth & Welling 2009) respectively; an approximate third, WarpLDA's
// Metropolis-Hastings with counts updated once per pass (Chen et al. 2016); hyperparameters
// optimised as MALLET does (Minka 2000; Wallach 2008), and the evidence estimators of Wallach,
// Murray, Salakhutdinov & Mimno (2009).
#pragma once

#include <algorithm>
#include <cstdint>
#include <memory>

#include "core/models/model.hpp"
#include "core/models/option_table.hpp"
#include "core/results/topic_results.hpp"

namespace latent::core {

struct Corpus;

struct LdaGibbsOptions {
  enum class Sampler { Auto, Sparse, Wordwise, Alias, Warp };

  std::int64_t topics = 20;
  // Sweeps over every token. LdaGibbsOptions::table() in lda_gibbs_options.cpp says why each default.
  std::int64_t iterations = 500;
  double alpha = 0.0;  // symmetric start value of the asymmetric alpha (per topic); 0: startAlpha()
  double beta = 0.01;
  Sampler sampler = Sampler::Auto;  // see resolved()
  std::int64_t mhSteps = 4;     // alias and warp samplers: word+document proposal cycles per token (see ldaGibbsInfo)
  std::int64_t partitions = 0;  // 0: one per thread
  std::int64_t optimizeEvery = 20;   // 0: alpha and beta stay fixed
  std::int64_t optimizeBurnIn = 50;  // no optimisation before this iteration
  std::int64_t snapshotEvery = 50;
  std::int64_t leftToRightParticles = 0;    // 0: no left-to-right estimate
  std::int64_t leftToRightDocuments = 100;  // held-out documents it scores at most
  std::int64_t restarts = 0;                // short chains from distinct starts, the best continues; 0: starts()
  std::int64_t restartSweeps = 25;          // sweeps of each start per round of the restarts
  std::int64_t warpStart = 0;               // sweeps of the warp sampler from each random start; 0: none

  // alpha's start value per topic: `alpha`, or for 0 kDefaultAlpha up to kDefaultAlphaSum /
  // kDefaultAlpha topics and a sum of kDefaultAlphaSum beyond (see table() in lda_gibbs_options.cpp for why).
  double startAlpha() const noexcept {
    return alpha > 0.0 ? alpha : std::min(kDefaultAlpha, kDefaultAlphaSum / static_cast<double>(topics));
  }
  static constexpr double kDefaultAlpha = 0.1;
  static constexpr double kDefaultAlphaSum = 10.0;

  // The number of starts: `restarts`, or for 0 six with the exact samplers (sparse, wordwise) and
  // one with the others (see table() in lda_gibbs_options.cpp for why).
  std::int64_t starts() const noexcept {
    if (restarts > 0) return restarts;
    return sampler == Sampler::Sparse || sampler == Sampler::Wordwise || sampler == Sampler::Auto ? 6 : 1;
  }

  // `auto` made concrete: the wordwise sampler when a token's document holds at most
  // kAutoWordwiseDocumentLength tokens on average (`documentLength`, from
  // tokenWeightedDocumentLength()), else the sparse one: the wordwise sampler's token costs its
  // document's topics and the sparse one's its word's, and long documents hold many; from
  // kAutoOneStartTopics topics up (in one process) from one start unless `restarts` asks for more,
  // and from kAutoWarpTopics up after kAutoWarpStartSweeps sweeps of the warp sampler. With
  // thousands of topics the exact sampler's first sweeps from a random start are its dearest (a
  // document still holds most topics), and the warp sampler's cost does not grow with them; at a
  // thousand the warm-up's head start is lost by a hundred exact sweeps, so there only a chain of
  // fewer than kAutoShortChainSweeps gets one, of kAutoShortChainWarpStartSweeps (table() in
  // lda_gibbs_options.cpp says why).
  LdaGibbsOptions resolved(bool distributed, double documentLength) const;
  // The chain's partitions: `partitions`, or by default `threads` per process.
  int partitionsFor(int processes, int threads) const;
  static constexpr double kAutoWordwiseDocumentLength = 2500.0;
  static constexpr std::int64_t kAutoOneStartTopics = 500;
  static constexpr std::int64_t kAutoWarpTopics = 2000;
  static constexpr std::int64_t kAutoWarpStartSweeps = 200;
  static constexpr std::int64_t kAutoShortChainSweeps = 100;
  static constexpr std::int64_t kAutoShortChainWarpStartSweeps = 100;

  static const OptionTable<LdaGibbsOptions>& table();
};

// The mean length of a token's document, sum_d L_d^2 / sum_d L_d (0 without tokens): what `auto`
// chooses the exact sampler by (LdaGibbsOptions::resolved).
double tokenWeightedDocumentLength(const Corpus& corpus);
// The same from a corpus's squared document lengths and tokens (data/corpus_share.hpp: of the whole
// corpus where a process holds a share of it).
double tokenWeightedDocumentLength(double squaredLengths, std::int64_t tokens);

// The chain's random start (results/topic_results.hpp) is kept for corpora of at most this many tokens.
using topic::kInitialTokenTopics;
inline constexpr std::int64_t kMaxInitialStateTokens = 10000;

ModelDefinition ldaGibbsModel();

}  // namespace latent::core
