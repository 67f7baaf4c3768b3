// SPDX-License-Identifier: GPL-3.0-or-later
// Unigram model: parallel counting, closed-form MAP estimate, held-out perplexity.
#include "core/models/topic/unigram.hpp"

#include <tbb/blocked_range.h>
#include <tbb/enumerable_thread_specific.h>
#include <tbb/parallel_for.h>

#include <cmath>

#include "core/eval/perplexity.hpp"
#include "core/models/fit_driver.hpp"
#include "core/models/topic/topic_model_support.hpp"
#include "core/util/clock.hpp"

namespace latent::core {
namespace {

ModelInfo unigramInfo() {
  ModelInfo info;
  info.name = "unigram";
  info.kind = DataKind::Corpus;
  info.family = ResultFamily::Topics;
  info.title = "Unigram (MAP multinoulli)";
  info.description =
      "Every word of every document comes from one shared word distribution. It has no topics, "
      "so it is the baseline any topic model must beat in held-out perplexity.";
  info.objectiveName = "training log-likelihood per token (nats)";
  info.options = UnigramOptions::table().specs();
  return info;
}

// The closed-form fit as a chain of one step that has converged once it is taken.
class UnigramChain final : public FitChain {
 public:
  UnigramChain(const FitData& data, const UnigramOptions& options, std::stop_token stop)
      : m_data(data), m_options(options), m_stop(std::move(stop)) {}

  bool step(const StepPlan&, IterationReport& report) override {
    const Corpus& corpus = *m_data.corpus;
    const auto V = static_cast<Eigen::Index>(corpus.vocabularySize());
    // Word counts over the training documents. Integer sums do not depend on the order in
    // which blocks are combined, so any thread count gives the same numbers.
    tbb::enumerable_thread_specific<std::vector<std::int64_t>> local(
        [&] { return std::vector<std::int64_t>(static_cast<std::size_t>(V), 0); });
    tbb::parallel_for(tbb::blocked_range<std::size_t>(0, corpus.documentCount(), 256), [&](const auto& range) {
      if (m_stop.stop_requested()) return;
      auto& counts = local.local();
      for (std::size_t d = range.begin(); d != range.end(); ++d)
        for (const auto w : corpus.document(d)) ++counts[static_cast<std::size_t>(w)];
    });
    if (m_stop.stop_requested()) return false;
    Eigen::VectorXd counts = Eigen::VectorXd::Zero(V);
    for (const auto& partial : local)
      for (Eigen::Index v = 0; v < V; ++v) counts[v] += static_cast<double>(partial[static_cast<std::size_t>(v)]);

    m_beta = unigramEstimate(counts, m_options.beta);
    const Eigen::ArrayXd logBeta = m_beta.array().log();
    const double tokens = counts.sum();
    const double trainLogLik = (counts.array() * logBeta).sum();
    report.trainObjective = tokens > 0 ? trainLogLik / tokens : std::numeric_limits<double>::quiet_NaN();
    m_metrics["train_perplexity"] = tokens > 0 ? std::exp(-trainLogLik / tokens) : report.trainObjective;
    m_metrics["train_tokens"] = static_cast<std::int64_t>(tokens);

    // Document completion: the unigram model has no per-document parameters, so the observed
    // half is not used; only the scored half counts, as for every other model.
    if (m_data.heldout && !m_data.heldout->empty()) {
      const Corpus& scored = m_data.heldout->scored;
      std::vector<double> logLik(scored.documentCount(), 0.0);
      std::vector<std::int64_t> lengths(scored.documentCount(), 0);
      for (std::size_t d = 0; d < scored.documentCount(); ++d) {
        for (const auto w : scored.document(d)) logLik[d] += logBeta[w];
        lengths[d] = static_cast<std::int64_t>(scored.documentLength(d));
      }
      const double perplexity = perplexityPerDocument(logLik, lengths);
      report.heldout = perplexity;
      m_metrics[topic::kHeldoutPerplexity] = perplexity;
      m_metrics["heldout_perplexity_per_token"] = perplexityPerToken(logLik, lengths);
      m_metrics["heldout_protocol"] = "document-completion";
      m_metrics["heldout_documents"] = static_cast<std::int64_t>(scored.documentCount());
      m_metrics["heldout_tokens"] = static_cast<std::int64_t>(scored.tokenCount());
    }
    return true;
  }
  bool converged() const override { return true; }
  std::vector<NamedMatrix> snapshot(const StepPlan&) override { return {{topic::kTopicWord, m_beta.transpose()}}; }
  void finish(FitResult& result) override {
    if (m_beta.size() == 0) return;  // stopped while counting
    result.finalMetrics = m_metrics;
    result.matrices.push_back({topic::kTopicWord, m_beta.transpose()});
  }

 private:
  const FitData& m_data;
  const UnigramOptions& m_options;
  std::stop_token m_stop;
  Eigen::VectorXd m_beta;
  nlohmann::json m_metrics = nlohmann::json::object();
};

class UnigramModel final : public DescribedModel<&unigramInfo> {
 public:
  FitResult fit(const FitData& data, const FitSettings& settings, TrainingObserver& observer,
                std::stop_token stop) override {
    const Stopwatch clock;
    const auto options = UnigramOptions::table().parse(settings.options, info().name);
    UnigramChain chain(data, options, stop);
    return driveChain(chain, ChainSchedule{}, settings, observer, stop, clock);
  }
};

}  // namespace

const OptionTable<UnigramOptions>& UnigramOptions::table() {
  static const auto table = OptionTable<UnigramOptions>().add(
      realOption("beta", 0.0, kNoMaximum, true,
                 "Pseudo-count added to every word: larger values smooth the distribution towards uniform."),
      &UnigramOptions::beta);
  return table;
}

ModelDefinition unigramModel() { return defineModel<UnigramModel>(); }

Eigen::VectorXd unigramEstimate(const Eigen::VectorXd& counts, double beta) {
  const double total = counts.sum() + beta * static_cast<double>(counts.size());
  return (counts.array() + beta) / total;
}

}  // namespace latent::core
