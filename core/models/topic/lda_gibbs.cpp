// SPDX-License-Identifier: GPL-3.0-or-later
// LDA by collapsed Gibbs sampling: the chain (sweeps, hyperparameters, reports, snapshots, stop) and
// its results, for any sampler kernel. The restarts are in lda_gibbs_restarts.hpp, the steps they
// share with the chain in lda_gibbs_steps.hpp, the options in lda_gibbs_options.cpp.
#include "core/models/topic/lda_gibbs.hpp"

#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>

#include <algorithm>
#include <cmath>
#include <ctime>
#include <limits>
#include <memory>
#include <optional>
#include <string>

#include "core/eval/harmonic_mean.hpp"
#include "core/eval/left_to_right.hpp"
#include "core/eval/topic_evaluation.hpp"
#include "core/models/fit_driver.hpp"
#include "core/models/topic/dirichlet_hyperparameters.hpp"
#include "core/models/topic/lda_gibbs_alias_kernel.hpp"
#include "core/models/topic/lda_gibbs_distribution.hpp"
#include "core/models/topic/lda_gibbs_restarts.hpp"
#include "core/models/topic/lda_gibbs_sparse_kernel.hpp"
#include "core/models/topic/lda_gibbs_state.hpp"
#include "core/models/topic/lda_gibbs_steps.hpp"
#include "core/models/topic/lda_gibbs_topic_word.hpp"
#include "core/models/topic/lda_gibbs_warp_kernel.hpp"
#include "core/models/topic/lda_gibbs_wordwise_kernel.hpp"
#include "core/models/topic/topic_model_support.hpp"
#include "core/models/topic/topic_word_average.hpp"
#include "core/util/clock.hpp"
#include "core/util/communicator.hpp"
#include "core/util/errors.hpp"
#include "core/util/random.hpp"

namespace latent::core {
namespace {

using topic::chooseStart;
using topic::ChosenStart;
using topic::countHistogram;
using topic::fillTopicWord;
using topic::hyperparametersDue;
using topic::initialTopics;
using topic::LdaGibbsState;
using topic::logJoint;
using topic::reestimateHyperparameters;
using topic::SampledTopicColumns;
using topic::sparseTopicWord;
using topic::Start;
using topic::synchronizeState;

// The harmonic-mean estimate uses log P(W | Z) at every 10th of the last 100 iterations (and only
// in the second half of the run, so that early samples far from the posterior are left out).
constexpr std::int64_t kHarmonicThin = 10;
constexpr std::int64_t kHarmonicWindow = 100;

void checkDocumentsPerPartition(std::size_t documents, int partitions) {
  if (documents < static_cast<std::size_t>(partitions))
    throw UsageError("a distributed fit needs at least one document per partition (" + std::to_string(partitions) +
                     ")");
}

// The sparse sampler's tokens cost what their words' lists hold (after a warp warm-up, too: the
// sparse sweeps are most of such a fit); the others' cost about the same each.
topic::PartitionBalance balanceOf(const LdaGibbsOptions& options) {
  return options.sampler == LdaGibbsOptions::Sampler::Sparse ? topic::PartitionBalance::WordTopics
                                                             : topic::PartitionBalance::Tokens;
}

// The corpus's mean document length weighted by tokens, of every document also where this process
// holds a share of them.
double documentLengthOf(const FitData& data) {
  return data.share == nullptr ? tokenWeightedDocumentLength(*data.corpus)
                               : tokenWeightedDocumentLength(data.share->squaredLengths, data.share->tokens);
}

ModelInfo ldaGibbsInfo() {
  ModelInfo info;
  info.name = "lda-gibbs";
  info.kind = DataKind::Corpus;
  info.family = ResultFamily::Topics;
  info.title = "LDA (collapsed Gibbs sampling)";
  info.description =
      "Each document mixes a few topics and each topic is a distribution over words; the sampler "
      "assigns every word to a topic in turn, given all the others. The per-word topics it ends with "
      "are shown in the document view, and the topics are averaged from them.";
  info.objectiveName = "log joint log P(W, Z | alpha, beta) per token (nats; 001 eq. 3)";

  info.options = LdaGibbsOptions::table().specs();
  // Word-topic counts (4 bytes) and the topic_word result (4 or 8, as matrix_precision.hpp
  // holds it); doc_topic; two ints per token.
  info.needs = [](const FitData& data, const nlohmann::json& options) {
    const auto K = options.at("k").get<std::uint64_t>();
    const auto V = static_cast<std::uint64_t>(data.corpus->vocabularySize());
    const auto D = static_cast<std::uint64_t>(data.fullDocumentCount);
    const auto N = static_cast<std::uint64_t>(data.corpus->tokenCount());
    const auto bytes = [](const char* name, std::uint64_t rows, std::uint64_t cols) {
      return rows * cols *
             (isFloat32Matrix(name, static_cast<std::int64_t>(rows), static_cast<std::int64_t>(cols)) ? 4 : 8);
    };
    const auto topicWord = bytes(topic::kTopicWord, K, V), docTopic = bytes(topic::kDocTopic, D, K);
    return ResourceNeeds{K * V * 4 + topicWord + docTopic + N * 8, std::max(topicWord, docTopic)};
  };
  info.distributed = [](const nlohmann::json& options, int processes) -> std::string {
    const auto sampler = options.value("sampler", std::string("auto"));
    if (sampler != "sparse" && sampler != "wordwise" && sampler != "auto")
      return "only the sparse and wordwise samplers run distributed (--sampler sparse or wordwise)";
    if (options.value("warp_start", std::int64_t{0}) > 0) return "warp_start does not run distributed";
    const auto partitions = options.value("partitions", std::int64_t{0});
    if (partitions > 0 && partitions % processes != 0)
      return "--partitions (" + std::to_string(partitions) + ") must be a multiple of the processes (" +
             std::to_string(processes) + ")";
    return "";
  };
  info.planCorpus = [](const Corpus& training, const nlohmann::json& json, int processes, int threads) {
    const auto options =
        LdaGibbsOptions::table().parse(json, "lda-gibbs").resolved(true, tokenWeightedDocumentLength(training));
    const int partitions = options.partitionsFor(processes, threads);
    checkDocumentsPerPartition(training.documentCount(), partitions);
    return topic::planChain(training, static_cast<int>(options.topics), partitions, balanceOf(options));
  };
  return info;
}

// The chain the run keeps, under the fit driver. Reports come only at evaluations (the log joint
// takes a pass over the counts).
template <typename Kernel>
class GibbsChain final : public FitChain {
 public:
  GibbsChain(Kernel& kernel, LdaGibbsState& state, const LdaGibbsOptions& options, const FitData& data,
             const FitSettings& settings, std::stop_token stop)
      : m_kernel(kernel),
        m_state(state),
        m_options(options),
        m_data(data),
        m_settings(settings),
        m_stop(std::move(stop)),
        m_tokens(static_cast<double>(state.tokenCount())),
        m_root(settings.communicator == nullptr || settings.communicator->rank() == 0),
        // Process 0 returns the average; every process scores its held-out documents with it.
        m_keepsAverage(m_root || (data.heldout != nullptr && !data.heldout->empty())),
        // The topics returned are phi averaged over every sweep of the last fifth of the chain:
        // the posterior mean E[phi | W] estimated from many samples of Z instead of one. One
        // sample's phi carries the Monte Carlo noise of every token's draw (on a 100k-token corpus
        // drawn from LDA with K = 20 the mean total-variation distance to the true topics was 0.101
        // for one sample, 0.093 for the average). The log joint and tokenTopics stay the last sample's.
        m_averageFrom(options.iterations - std::max<std::int64_t>(1, options.iterations / 5) + 1),
        // The burn-in is there so that the topics have formed before alpha and beta are first
        // re-estimated; a warm-up by the warp sampler (warp_start) has formed them, so the schedule
        // counts its sweeps (hyperparametersDue). Without this, a short chain after the warm-up
        // kept its start values.
        m_warmUpSweeps(options.sampler == LdaGibbsOptions::Sampler::Warp ? 0 : options.warpStart),
        m_average(state.topics(), state.vocabularySize()) {}

  bool step(const StepPlan& plan, IterationReport& report) override {
    const std::int64_t it = plan.iteration, last = plan.last;
    const bool due = plan.evaluate;
    const bool harmonicDue = (last - it) % kHarmonicThin == 0 && last - it < kHarmonicWindow && 2 * it > last;
    const int V = m_state.vocabularySize();
    const Stopwatch sweepClock;
    const std::clock_t cpuBefore = std::clock();
    const bool complete = m_kernel.sweep(m_stop, due, m_logPriorParts);
    m_samplingSeconds += sweepClock.seconds();
    m_samplingCpuSeconds += static_cast<double>(std::clock() - cpuBefore) / CLOCKS_PER_SEC;
    if (!complete) return false;
    ++m_sweeps;
    const bool optimizeDue = hyperparametersDue(m_options, m_warmUpSweeps + it) && m_tokens > 0;
    if (due || harmonicDue || optimizeDue || it >= m_averageFrom) synchronizeState(m_kernel, false);

    std::vector<std::int64_t> histogram;
    double logWords = 0.0;
    if (due || harmonicDue) {
      histogram = countHistogram(m_kernel, m_state);
      logWords = topic::logLikelihoodOfWords(topic::topicWordHistograms(histogram, m_kernel.topicTotals()),
                                             m_kernel.topicTotals(), m_state.beta(), V);
    }
    if (harmonicDue) m_harmonicSamples.push_back(logWords);
    if (m_keepsAverage && it >= m_averageFrom) m_average.add(m_kernel, m_kernel.topicTotals(), m_state.beta());
    if (due) {
      double logPrior = 0.0;
      for (const double part : m_logPriorParts) logPrior += part;  // partition order
      m_lastLogJoint = logWords + logPrior;
      report.trainObjective = m_tokens > 0 ? m_lastLogJoint / m_tokens : std::numeric_limits<double>::quiet_NaN();
      // Within the averaging stretch the report scores the running average: the topics the run
      // would return if it stopped here (so the last report equals the final metric).
      const Stopwatch evaluationClock;
      report.heldout = heldoutPerplexity();
      m_evaluationSeconds += evaluationClock.seconds();
    }

    if (optimizeDue) reestimateHyperparameters(m_kernel, m_state, std::move(histogram));
    report.extras.emplace_back("alpha_sum", m_state.alphaSum());
    report.extras.emplace_back("beta", m_state.beta());
    return true;
  }

  // A snapshot's topics go sparse (sparseSnapshot): the dense K x V, written out and stored, made
  // snapshots at K in the thousands cost as much as the sweeps between them.
  std::vector<NamedMatrix> snapshot(const StepPlan&) override { return {}; }
  std::vector<NamedSparseMatrix> sparseSnapshot(const StepPlan&) override {
    synchronizeState(m_kernel, false);
    std::vector<NamedSparseMatrix> matrices;
    matrices.push_back({topic::kTopicWord, sparseTopicWord(m_kernel, m_state)});
    return matrices;
  }

  // Results: the state reached, also when stopped (the average of the samples taken so far, or
  // the last sample's phi when the chain stopped before the averaging stretch).
  void finish(FitResult& result) override {
    synchronizeState(m_kernel, true);
    // The fold-ins and scores read the topics as the reports read them (withTopicColumns), the
    // values the result holds, so that the last report's perplexity is the final one.
    withTopicColumns([&](const TopicColumns& columns) {
      // The other processes of a distributed fit store nothing, so they build no result: at
      // K = 1000 on a million documents its document topics alone would be gigabytes on every
      // node. They fold in their own held-out documents for process 0's.
      if (!m_root) {
        finishShare(columns, result);
        return;
      }
      finishWith(columns, result);
      if (topicsGoSparse()) {
        result.sparseMatrices.push_back({topic::kTopicWord, filledTopics(columns, m_state.vocabularySize())});
        return;
      }
      result.matrices.insert(result.matrices.begin(),
                             m_average.samples() > 0 ? averagedTopicWord() : sampledTopicWord());
    });
  }

 private:
  // topic_word as the results hold it (matrix_precision.hpp): floats when it is large.
  NamedMatrix emptyTopicWord() const {
    NamedMatrix phi;
    phi.name = topic::kTopicWord;
    return phi;
  }
  bool topicWordAsFloats() const {
    return isFloat32Matrix(topic::kTopicWord, m_state.topics(), m_state.vocabularySize(),
                           m_settings.float32MatrixBytes);
  }
  // Whether the result's topics are handed over sparse, each topic's fill and each word's topics
  // that hold it (FilledSparseMatrix; the values rounded to floats, as a dense float topic_word
  // holds them): where they are large, so that no K x V is formed for the result (1.5 GB at
  // K = 5000 and V = 74k, and most of the time of storing it).
  bool topicsGoSparse() const { return topicWordAsFloats(); }
  // The held-out perplexity of the topics the run would return if it stopped here (within the
  // averaging stretch the running average, before it this sample's phi), read from the table or
  // the average without forming phi. Collective in a distributed fit: each process scores its
  // own held-out documents (topic::heldoutPerplexity); only process 0 reports it.
  std::optional<double> heldoutPerplexity() const {
    return withTopicColumns([&](const TopicColumns& phi) {
      return topic::heldoutPerplexity(m_data, phi, gibbsFoldIn(phi, m_state.alphaVector()), m_settings.seed,
                                      m_settings.communicator);
    });
  }
  // f(phi) with the topics the run would return if it stopped here, read a column at a time: the
  // running average within the averaging stretch, before it this sample's phi from the table (which
  // must be current). Either is a fill per topic and overrides per word, from which a fold-in makes
  // the columns of a long document that it does not keep in the time of their entries.
  template <typename F>
  auto withTopicColumns(F&& f) const {
    const bool asFloats = topicWordAsFloats();
    if (m_average.samples() > 0) return f(m_average.meanColumns(asFloats));
    return f(SampledTopicColumns<Kernel>(m_kernel, m_state, asFloats));
  }
  // The mean of the samples' phi since m_averageFrom.
  NamedMatrix averagedTopicWord() const {
    NamedMatrix phi = emptyTopicWord();
    if (topicWordAsFloats())
      phi.floats = m_average.meanAs<float>();
    else
      phi.values = m_average.meanAs<double>();
    return phi;
  }
  // This sample's phi.
  NamedMatrix sampledTopicWord() const {
    NamedMatrix phi = emptyTopicWord();
    if (topicWordAsFloats())
      fillTopicWord(m_kernel, m_state, phi.floats);
    else
      fillTopicWord(m_kernel, m_state, phi.values);
    return phi;
  }

  // Results: the state reached, also when stopped (the average of the samples taken so far, or
  // the last sample's phi when the chain stopped before the averaging stretch), phi read through
  // `columns`.
  void finishWith(const TopicColumns& columns, FitResult& result) {
    if (stoppedOnAnyProcess(result)) result.status = FitStatus::Cancelled;
    const bool cancelled = result.status == FitStatus::Cancelled;
    const double N = m_tokens;
    const Eigen::VectorXd alpha = m_state.alphaVector();
    const FoldIn foldIn = gibbsFoldIn(columns, alpha);
    const Stopwatch evaluationClock;
    result.matrices.push_back(documentTopics(foldIn));
    result.matrices.push_back({topic::kAlpha, alpha.transpose()});
    result.tokenTopics = m_state.tokenTopics();

    auto& metrics = result.finalMetrics;
    if (std::isfinite(m_lastLogJoint)) {
      metrics["log_joint"] = m_lastLogJoint;
      metrics["train_objective"] = m_lastLogJoint / N;
    }
    metrics["alpha_sum"] = m_state.alphaSum();
    metrics["beta"] = m_state.beta();
    metrics["topic_word_samples"] = m_average.samples();  // sweeps averaged into topic_word
    metrics["topic_word_sum_bytes"] = static_cast<std::int64_t>(m_average.memoryBytes());
    metrics["sampler"] = m_options.sampler == LdaGibbsOptions::Sampler::Sparse     ? "sparse"
                         : m_options.sampler == LdaGibbsOptions::Sampler::Wordwise ? "wordwise"
                         : m_options.sampler == LdaGibbsOptions::Sampler::Alias    ? "alias"
                                                                                   : "warp";
    metrics["partitions"] = static_cast<std::int64_t>(m_state.partitions().size());
    if (m_settings.communicator != nullptr && m_settings.communicator->size() > 1) {
      metrics["processes"] = m_settings.communicator->size();
      if constexpr (requires { m_kernel.communicatedBytesPerSweep(); })
        metrics["communicated_bytes_per_sweep"] = m_kernel.communicatedBytesPerSweep();
      if constexpr (requires { m_kernel.synchronizationBytes(); })
        metrics["synchronization_bytes"] = m_kernel.synchronizationBytes();
    }
    metrics["train_tokens"] = m_state.tokenCount();
    metrics["sampling_seconds"] = m_samplingSeconds;
    // Inside the reports' seconds: the held-out evaluations (benchmarks against peers, which are
    // scored outside, take it off).
    metrics["evaluation_seconds"] = m_evaluationSeconds;
    metrics["sampling_cpu_seconds"] = m_samplingCpuSeconds;
    if (m_samplingSeconds > 0) metrics["tokens_per_second"] = N * static_cast<double>(m_sweeps) / m_samplingSeconds;
    if (m_samplingCpuSeconds > 0)
      metrics["tokens_per_cpu_second"] = N * static_cast<double>(m_sweeps) / m_samplingCpuSeconds;
    metrics["sampler_memory_bytes"] =
        static_cast<std::int64_t>(m_kernel.memoryBytes() + m_state.assignments().size_bytes());
    if (!m_harmonicSamples.empty()) {
      const double evidence = harmonicMeanLogEvidence(m_harmonicSamples);
      metrics["harmonic_mean_log_evidence"] = evidence;
      metrics["harmonic_mean_log_evidence_per_token"] = N > 0 ? evidence / N : std::numeric_limits<double>::quiet_NaN();
      metrics["harmonic_mean_samples"] = static_cast<std::int64_t>(m_harmonicSamples.size());
      metrics["harmonic_mean_note"] =
          "log P(W) of the training words by the harmonic mean of P(W|Z) (001 eq. 9): a biased estimator that "
          "overestimates (Wallach et al. 2009); not a held-out perplexity";
    }
    if (!cancelled) {
      topic::addFinalHeldoutMetrics(metrics, m_data, columns, foldIn, m_settings.seed, m_settings.communicator);
      if (m_options.leftToRightParticles > 0 && m_data.heldout && !m_data.heldout->empty()) {
        const auto score =
            leftToRightHeldout(*m_data.heldout, columns, alpha, static_cast<int>(m_options.leftToRightParticles),
                               static_cast<std::size_t>(m_options.leftToRightDocuments), m_settings.seed, m_stop);
        if (score.complete) {
          metrics["heldout_perplexity_left_to_right"] = score.perplexity;
          metrics["left_to_right_log_likelihood"] = score.logLikelihood;
          metrics["left_to_right_documents"] = score.documents;
          metrics["left_to_right_tokens"] = score.tokens;
          metrics["heldout_perplexity_left_to_right_completion"] = score.completionPerplexity;
          metrics["left_to_right_completion_tokens"] = score.completionTokens;
          metrics["left_to_right_particles"] = m_options.leftToRightParticles;
        } else {
          result.status = FitStatus::Cancelled;
        }
      }
    }
    // After the reports' evaluations: doc_topic's held-out rows and the final scores.
    metrics["final_evaluation_seconds"] = evaluationClock.seconds();
  }

  // A process other than 0 of a distributed fit: its part of finishWith's collectives, in the same
  // order (the stop agreed on, doc_topic's held-out rows, the final held-out scores), each on its
  // own held-out documents.
  void finishShare(const TopicColumns& columns, const FitResult& result) {
    const bool cancelled = stoppedOnAnyProcess(result);
    const FoldIn foldIn = gibbsFoldIn(columns, m_state.alphaVector());
    documentTopics(foldIn);
    nlohmann::json none;
    if (!cancelled)
      topic::addFinalHeldoutMetrics(none, m_data, columns, foldIn, m_settings.seed, m_settings.communicator);
  }
  // Whether the chain was stopped on this process or any other (collective in a distributed fit):
  // a stop that reached one process only after the last sweep ends the others' final scores too,
  // so that every process skips them together.
  bool stoppedOnAnyProcess(const FitResult& result) const {
    std::int64_t stopped = result.status == FitStatus::Cancelled ? 1 : 0;
    if (m_settings.communicator != nullptr && m_settings.communicator->size() > 1)
      m_settings.communicator->allReduceSum(std::span<std::int64_t>(&stopped, 1));
    return stopped > 0;
  }

  // doc_topic in corpus order, written straight into the form it is held in: training rows from
  // the state, held-out rows folded in (in a distributed fit by the process that holds them).
  NamedMatrix documentTopics(const FoldIn& foldIn) const {
    NamedMatrix theta;
    theta.name = topic::kDocTopic;
    const auto K = static_cast<Eigen::Index>(m_state.topics());
    // The whole corpus's count on every process of a distributed fit (a share's corpus holds only
    // the training documents), so that all of them hold the rows they send in the same precision.
    const std::int64_t D = m_data.trainDocuments.empty() && m_data.share == nullptr
                               ? static_cast<std::int64_t>(m_data.corpus->documentCount())
                               : m_data.fullDocumentCount;
    const auto fill = [&](auto& full, std::span<const std::int64_t> rows) { m_state.documentTopics(full, rows); };
    Communicator* group = m_settings.communicator;
    if (isFloat32Matrix(topic::kDocTopic, D, K, m_settings.float32MatrixBytes))
      theta.floats = topic::assembleDocTopicAs<float>(m_data, K, fill, foldIn, m_settings.seed, group);
    else
      theta.values = topic::assembleDocTopicAs<double>(m_data, K, fill, foldIn, m_settings.seed, group);
    return theta;
  }

  Kernel& m_kernel;
  LdaGibbsState& m_state;
  const LdaGibbsOptions& m_options;
  const FitData& m_data;
  const FitSettings& m_settings;
  std::stop_token m_stop;
  double m_tokens;
  bool m_root;  // this process writes the run (the only one, unless distributed)
  bool m_keepsAverage;
  std::int64_t m_averageFrom;
  std::int64_t m_warmUpSweeps;  // the warp sampler's sweeps before this chain (warp_start)
  std::int64_t m_sweeps = 0;
  double m_samplingSeconds = 0.0;
  double m_evaluationSeconds = 0.0;   // held-out evaluations at reports
  double m_samplingCpuSeconds = 0.0;  // processor time of all threads: what the sweeps cost on a busy machine
  double m_lastLogJoint = std::numeric_limits<double>::quiet_NaN();
  std::vector<double> m_harmonicSamples;
  std::vector<double> m_logPriorParts;
  // The topics returned: phi averaged over the sweeps from m_averageFrom on.
  topic::TopicWordAverage m_average;
};

// The restarts, then the chain from the chosen start, with kernels of type Kernel.
template <typename Kernel, typename MakeKernel, typename MakeState>
FitResult fitWith(std::unique_ptr<LdaGibbsState> first, const MakeKernel& makeKernel, const MakeState& makeState,
                  const LdaGibbsOptions& options, const FitData& data, const FitSettings& settings,
                  TrainingObserver& observer, const std::stop_token& stop, const Stopwatch& clock) {
  ChosenStart start =
      chooseStart<Kernel>(std::move(first), makeKernel, makeState, options.starts(), options.restartSweeps,
                          options.sampler == LdaGibbsOptions::Sampler::Warp ? 0 : options.warpStart, options, settings,
                          observer, stop, clock);
  Start& kept = start.start;
  FitResult result = [&] {
    Kernel kernel = makeKernel(*kept.state);
    GibbsChain<Kernel> chain(kernel, *kept.state, options, data, settings, stop);
    const ChainSchedule schedule{options.iterations, options.snapshotEvery, false};
    return driveChain(chain, schedule, settings, observer, stop, clock, start.cancelled);
  }();
  if (options.starts() > 1) {
    auto& metrics = result.finalMetrics;
    metrics["restart_log_joints_per_token"] = start.logJointsPerToken;
    metrics["restart_finalists"] = start.finalists;
    metrics["restart_final_log_joints_per_token"] = start.finalLogJointsPerToken;
    metrics["restart_chosen"] = kept.index;
    metrics["restart_sweeps"] = options.restartSweeps;
    metrics["restart_seconds"] = start.seconds;
  }
  if (options.warpStart > 0 && options.sampler != LdaGibbsOptions::Sampler::Warp) {
    result.finalMetrics["warp_start_sweeps"] = options.warpStart;
    result.finalMetrics["warp_start_seconds"] = start.warpStartSeconds;
  }
  if (kept.initial) result.matrices.push_back({kInitialTokenTopics, std::move(*kept.initial)});
  return result;
}

class LdaGibbsModel final : public DescribedModel<&ldaGibbsInfo> {
 public:
  FitResult fit(const FitData& data, const FitSettings& settings, TrainingObserver& observer,
                std::stop_token stop) override {
    const Stopwatch clock;
    // Distributed: every process runs this fit, sampling its share of the partitions
    // (lda_gibbs_process_ring.hpp) and holding only their documents' tokens but on process 0
    // (FitData::share); by default `threads` partitions per process.
    Communicator* group = settings.communicator;
    const int processes = group != nullptr ? group->size() : 1;
    const auto options =
        LdaGibbsOptions::table().parse(settings.options, info().name).resolved(processes > 1, documentLengthOf(data));
    if (processes > 1) {
      const std::string refusal = info().distributed(settings.options, processes);
      if (!refusal.empty()) throw UsageError(refusal);
    }
    // A distributed chain's partitions are those process 0 planned (ldaGibbsInfo's planCorpus).
    const int partitions = data.share != nullptr ? static_cast<int>(data.share->plan.partitionEnds.size())
                                                 : options.partitionsFor(processes, settings.threads);
    if (processes > 1) checkDocumentsPerPartition(data.corpus->documentCount(), partitions);
    topic::GibbsDistribution distribution{group, stop, {}};
    topic::GibbsDistribution* const distributed = processes > 1 ? &distribution : nullptr;
    if (distributed != nullptr) stop = distribution.agreed.get_token();
    const auto balance = balanceOf(options);
    const auto makeState = [&](std::uint64_t seed) {
      return std::make_unique<LdaGibbsState>(*data.corpus, static_cast<int>(options.topics), options.startAlpha(),
                                             options.beta, partitions, seed, balance, data.share);
    };
    auto first = makeState(settings.seed);
    if (options.sampler == LdaGibbsOptions::Sampler::Alias) {
      const auto makeKernel = [&](LdaGibbsState& s) {
        return topic::AliasGibbsKernel(s, static_cast<int>(options.mhSteps));
      };
      return fitWith<topic::AliasGibbsKernel>(std::move(first), makeKernel, makeState, options, data, settings,
                                              observer, stop, clock);
    }
    if (options.sampler == LdaGibbsOptions::Sampler::Warp) {
      const auto makeKernel = [&](LdaGibbsState& s) {
        return topic::WarpGibbsKernel(s, static_cast<int>(options.mhSteps));
      };
      return fitWith<topic::WarpGibbsKernel>(std::move(first), makeKernel, makeState, options, data, settings, observer,
                                             stop, clock);
    }
    if (options.sampler == LdaGibbsOptions::Sampler::Wordwise) {
      if (topic::WordwiseGibbsKernel<std::uint32_t>::fits(first->topics(), first->maxCount())) {
        const auto makeKernel = [distributed](LdaGibbsState& s) {
          return topic::WordwiseGibbsKernel<std::uint32_t>(s, distributed);
        };
        return fitWith<topic::WordwiseGibbsKernel<std::uint32_t>>(std::move(first), makeKernel, makeState, options,
                                                                  data, settings, observer, stop, clock);
      }
      const auto makeKernel = [distributed](LdaGibbsState& s) {
        return topic::WordwiseGibbsKernel<std::uint64_t>(s, distributed);
      };
      return fitWith<topic::WordwiseGibbsKernel<std::uint64_t>>(std::move(first), makeKernel, makeState, options, data,
                                                                settings, observer, stop, clock);
    }
    if (topic::SparseGibbsKernel<std::uint32_t>::fits(first->topics(), first->maxCount())) {
      const auto makeKernel = [distributed](LdaGibbsState& s) {
        return topic::SparseGibbsKernel<std::uint32_t>(s, distributed);
      };
      return fitWith<topic::SparseGibbsKernel<std::uint32_t>>(std::move(first), makeKernel, makeState, options, data,
                                                              settings, observer, stop, clock);
    }
    const auto makeKernel = [distributed](LdaGibbsState& s) {
      return topic::SparseGibbsKernel<std::uint64_t>(s, distributed);
    };
    return fitWith<topic::SparseGibbsKernel<std::uint64_t>>(std::move(first), makeKernel, makeState, options, data,
                                                            settings, observer, stop, clock);
  }
};

}  // namespace

ModelDefinition ldaGibbsModel() { return defineModel<LdaGibbsModel>(); }

}  // namespace latent::core
