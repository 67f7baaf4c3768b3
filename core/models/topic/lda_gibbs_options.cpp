// SPDX-License-Identifier: GPL-3.0-or-later
// lda-gibbs's options: the table (names, ranges, help, defaults and why) and what `auto` resolves to.
#include "core/models/topic/lda_gibbs.hpp"

#include "core/data/corpus.hpp"
#include "core/data/corpus_share.hpp"
#include "core/models/topic/topic_model_support.hpp"

namespace latent::core {

double tokenWeightedDocumentLength(double squaredLengths, std::int64_t tokens) {
  return tokens > 0 ? squaredLengths / static_cast<double>(tokens) : 0.0;
}

double tokenWeightedDocumentLength(const Corpus& corpus) {
  return tokenWeightedDocumentLength(squaredDocumentLengths(corpus), static_cast<std::int64_t>(corpus.tokenCount()));
}

int LdaGibbsOptions::partitionsFor(int processes, int threads) const {
  return static_cast<int>(partitions > 0 ? partitions : static_cast<std::int64_t>(processes) * std::max(1, threads));
}

LdaGibbsOptions LdaGibbsOptions::resolved(bool distributed, double documentLength) const {
  LdaGibbsOptions concrete = *this;
  if (sampler != Sampler::Auto) return concrete;
  concrete.sampler = documentLength <= kAutoWordwiseDocumentLength ? Sampler::Wordwise : Sampler::Sparse;
  if (topics >= kAutoOneStartTopics && !distributed && warpStart == 0) {
    if (restarts == 0) concrete.restarts = 1;
    if (topics >= kAutoWarpTopics)
      concrete.warpStart = kAutoWarpStartSweeps;
    else if (iterations < kAutoShortChainSweeps)
      concrete.warpStart = kAutoShortChainWarpStartSweeps;
  }
  return concrete;
}

// Why the defaults are what they are (measurements in tests/benchmarks/README.md, "lda-gibbs
// defaults"): 500 sweeps, because on the SOTU sample the log joint and the held-out perplexity
// settle within a few hundred with alpha optimisation on (MALLET's 1000 take twice as long for the
// same result); alpha 0.1 per topic as the start value of its optimisation (MALLET starts from
// 0.25 per topic at K = 20, Griffiths & Steyvers from 50/K, which blurs short documents over many
// topics), but a sum of 10 beyond 100 topics (as MALLET's and WarpLDA's start values, a sum
// whatever K), because 0.1 per topic at K in the thousands spreads every document over hundreds
// of topics in the first sweeps, and the re-estimation from there settles on worse topics than
// from the smaller start; 4 Metropolis-Hastings steps, because with 2 the alias sampler left two
// true topics of a generated corpus merged where the exact sampler separated them; six sparse
// starts of 25 sweeps with two finalists, because a single chain stays merged in about one run in
// five on generated corpora and one short round alone can keep a start that fell fast into a
// merged optimum; one start for the alias sampler, whose log joint after 50 sweeps still misleads;
// warp_start off, because the restarts were calibrated from random starts; sampler auto, which
// from 500 topics up runs one start, because restarts guard against two real topics merged, which
// matters less among hundreds of topics, and their early sweeps are dear; and from 2000 topics up
// starts with 200 warp sweeps, because at 3000 they reach every held-out perplexity measured
// sooner than sparse sweeps from a random start, while at 1000 (alpha starting at 10/K) the
// sparse chain from a random start caught up within 100 sweeps and ended better (120.4 against
// 124.2 after 300 on man1); but a chain shorter than that does not catch up, so below 2000 topics
// a chain of fewer than 100 sweeps starts with 100 warp sweeps (on man1 at K = 1000, 50 sweeps
// after them scored 130-136 where 50 from a random start scored 140-146, in less time); and
// the wordwise sampler as the exact one where a token's document holds at most
// 2500 tokens on average, else the sparse one, because a wordwise token costs its document's
// topics and a sparse one its word's: on man1 (1164 tokens) the wordwise sampler swept 1.16x as
// fast as the sparse one at K = 20, 1.37x at 100 and twice as fast at 1000 (a document held a
// quarter of the topics a word did), to the same held-out perplexity; on the SOTU sample (5166
// tokens) it took 1.3 times as long at K = 20, 1.9 times at 100 and 2.0 times at 1000.
const OptionTable<LdaGibbsOptions>& LdaGibbsOptions::table() {
  static const auto table = [] {
    OptionTable<LdaGibbsOptions> t;
    t.add(topic::topicsOption(), &LdaGibbsOptions::topics)
        .add(topic::iterationsOption("Sweeps over every word; the topics usually settle within a few hundred."),
             &LdaGibbsOptions::iterations)
        .add(realOption("alpha", 0.0, kNoMaximum, false,
                        "Prior on each document's topic mix: small values make documents stick to few topics. The "
                        "start value when optimize_every re-estimates it; 0 = 0.1 per topic up to 100 topics, 10/K "
                        "beyond (a sum of 10)."),
             &LdaGibbsOptions::alpha)
        .add(topic::betaOption(), &LdaGibbsOptions::beta)
        .add(choiceOption(
                 "sampler", {},
                 "How each word's topic is drawn: auto (wordwise where a word's document holds at most 2500 "
                 "words on average, else sparse; from 500 topics up from one start, as restarts 1, and after 100 "
                 "sweeps of warp when the iterations are fewer than 100; from 2000 up after 200 sweeps of warp, "
                 "as warp_start 200), sparse (exact Gibbs, document by document: a "
                 "token's cost follows its word's topics), wordwise (exact Gibbs, word by word: a token's cost "
                 "follows its document's topics, so it is faster than sparse unless the documents are long), alias "
                 "(exact Metropolis-Hastings; its cost per word does not grow with the number of topics) or warp "
                 "(WarpLDA's Metropolis-Hastings, approximate: the "
                 "counts it draws from are updated once per pass over the words and once per pass over the "
                 "documents; the fastest for several thousand topics)."),
             &LdaGibbsOptions::sampler,
             {{"auto", Sampler::Auto},
              {"sparse", Sampler::Sparse},
              {"wordwise", Sampler::Wordwise},
              {"alias", Sampler::Alias},
              {"warp", Sampler::Warp}})
        .add(integerOption("mh_steps", 1, 64,
                           "Alias and warp samplers: Metropolis-Hastings steps per word and sweep (each a word and a "
                           "document proposal). With warp, 1 step (WarpLDA's default) gets as far per second with a "
                           "thousand topics or more."),
             &LdaGibbsOptions::mhSteps)
        .add(integerOption("partitions", 0, 4096,
                           "Parts the documents are split into and sampled in parallel; 0 = one per thread. The same "
                           "number gives the same result on any number of threads."),
             &LdaGibbsOptions::partitions)
        .add(topic::optimizeEveryOption(), &LdaGibbsOptions::optimizeEvery)
        .add(integerOption("optimize_burn_in", 0, 1e7,
                           "Sweeps before alpha and beta are first re-estimated, so the topics have formed."),
             &LdaGibbsOptions::optimizeBurnIn)
        .add(topic::snapshotEveryOption(), &LdaGibbsOptions::snapshotEvery)
        .add(integerOption(
                 "left_to_right_particles", 0, 10000,
                 "Particles of the left-to-right estimate of held-out likelihood (accurate but slow); 0 = off."),
             &LdaGibbsOptions::leftToRightParticles)
        .add(integerOption("left_to_right_documents", 1, 1e7,
                           "Held-out documents the left-to-right estimate scores at most (its cost grows with length "
                           "squared)."),
             &LdaGibbsOptions::leftToRightDocuments)
        .add(
            integerOption("restarts", 0, 1000,
                          "Independent random starts, each sampled for restart_sweeps sweeps; the two with the highest "
                          "log joint get as many again, and the better continues for all the iterations. More starts "
                          "make it less likely that two real topics stay merged into one while another is split in "
                          "two; 1 = a single chain; 0 = 6 with the sparse sampler, 1 with the others."),
            &LdaGibbsOptions::restarts)
        .add(integerOption("restart_sweeps", 1, 1e6,
                           "Sweeps of each start per round of the restarts (with restarts above 1)."),
             &LdaGibbsOptions::restartSweeps)
        .add(
            integerOption("warp_start", 0, 1e6,
                          "Sweeps of the fast, approximate warp sampler (mh_steps 1) from each random start before the "
                          "chosen sampler takes over; its chain is then exact from there. It saves the exact "
                          "sampler's dearest sweeps, most with many topics: at 1000 topics, 200 sweeps before 100 "
                          "sparse ones gave a better perplexity in 60% of the time of 200 sparse sweeps. 0 = none."),
            &LdaGibbsOptions::warpStart);
    return t;
  }();
  return table;
}

}  // namespace latent::core
