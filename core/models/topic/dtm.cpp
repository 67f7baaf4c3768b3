// SPDX-License-Identifier: GPL-3.0-or-later
// DTM: options, the slices of the corpus, variational EM under the fit driver, held-out perplexity
// by slice (each held-out document folded in with its slice's topics and alpha), and results.
// References: 000 §27.4.2 (Fig. 27.11-27.12), Blei & Lafferty 2006.
#include "core/models/topic/dtm.hpp"

#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <optional>
#include <utility>

#include "core/data/time_slices.hpp"
#include "core/models/fit_driver.hpp"
#include "core/models/topic/dtm_kernels.hpp"
#include "core/models/topic/topic_model_support.hpp"
#include "core/util/clock.hpp"
#include "core/util/errors.hpp"

namespace latent::core {
namespace {

// Every document's time: the training documents', then the held-out ones'.
std::vector<std::string> allTimes(const FitData& data) {
  std::vector<std::string> times = data.corpus->times;
  if (data.heldout) times.insert(times.end(), data.heldout->observed.times.begin(), data.heldout->observed.times.end());
  if (times.size() != data.corpus->documentCount() + (data.heldout ? data.heldout->size() : 0)) times.clear();
  return times;
}

TimeSlices slicesOf(const FitData& data, double sliceYears) {
  const auto times = allTimes(data);
  if (sliceYears > 0.0) return sliceByTime(times, sliceYears);
  std::vector<double> years;
  for (const auto& t : times)
    if (const auto year = parseYear(t)) years.push_back(*year);
  // A missing or unreadable time: sliceByTime says which.
  if (years.size() != times.size() || years.empty()) return sliceByTime(times, 1.0);
  const auto [first, last] = std::minmax_element(years.begin(), years.end());
  return sliceByTime(times, automaticSliceYears(*first, *last));
}

ModelInfo dtmInfo() {
  ModelInfo info;
  info.name = "dtm";
  info.kind = DataKind::Corpus;
  info.family = ResultFamily::Topics;
  info.title = "DTM (dynamic topic model)";
  info.description =
      "Topics that change over time: the documents are cut into time slices by their times (years or dates), and "
      "each topic's words drift from one slice to the next. Shows how a topic's words and its share of the corpus "
      "change across the years. Needs a corpus imported with a time column.";
  info.objectiveName = "the variational bound on log p(words) plus the topics' log prior over time, per token (nats)";
  info.options = DtmOptions::table().specs();
  info.needs = [](const FitData& data, const nlohmann::json& options) {
    const auto K = options.at("k").get<std::uint64_t>();
    const auto V = static_cast<std::uint64_t>(data.corpus->vocabularySize());
    std::uint64_t T = 1;
    try {
      T = slicesOf(data, options.at("slice_years").get<double>()).size();
    } catch (const UsageError&) {
      // The fit itself says what is wrong with the times.
    }
    // Natural parameters, topics and expected counts per slice, twice over during an iteration.
    return ResourceNeeds{6 * T * K * V * 8, T * K * V * 8};
  };
  return info;
}

// Scores of the held-out documents of one slice, per protocol.
struct HeldoutBySlice {
  TopicHeldoutScore completion, full;
  std::vector<std::optional<double>> perSlice;  // document completion's perplexity of each slice
};

// Combines slices' scores: eq. 27.29 is a geometric mean over documents, the per-token perplexity
// one over tokens.
void accumulate(TopicHeldoutScore& total, const TopicHeldoutScore& part, double& logDocuments, double& logTokens) {
  if (part.documents == 0) return;
  logDocuments += static_cast<double>(part.documents) * std::log(part.perplexity);
  logTokens += static_cast<double>(part.tokens) * std::log(part.perplexityPerToken);
  total.documents += part.documents;
  total.tokens += part.tokens;
}

class DtmChain final : public FitChain {
 public:
  DtmChain(const FitData& data, const FitSettings& settings, const DtmOptions& options, std::stop_token stop)
      : m_data(data),
        m_settings(settings),
        m_options(options),
        m_stop(std::move(stop)),
        m_counts(topic::buildDocWordCounts(*data.corpus)),
        m_slices(slicesOf(data, options.sliceYears)) {
    m_dtm.initialVariance = options.initialVariance;
    m_dtm.drift = options.drift * m_slices.width;
    const auto trainCount = data.corpus->documentCount();
    const std::vector<std::int32_t> trainSlices(m_slices.sliceOf.begin(),
                                                m_slices.sliceOf.begin() + static_cast<std::ptrdiff_t>(trainCount));
    topic::initDtm(m_counts, trainSlices, m_slices.size(), options.topics, settings.seed, 0, m_state);
    if (data.heldout && !data.heldout->empty()) {
      // The held-out documents by slice, as HeldoutDocuments of their own.
      m_heldout.resize(m_slices.size());
      for (std::size_t i = 0; i < data.heldout->size(); ++i) {
        auto& part = m_heldout[static_cast<std::size_t>(m_slices.sliceOf[trainCount + i])];
        part.documents.push_back(data.heldout->documents[i]);
        part.observed.addDocument(data.heldout->observed.documentIds[i], "", data.heldout->observed.document(i));
        part.scored.addDocument(data.heldout->scored.documentIds[i], "", data.heldout->scored.document(i));
        m_heldoutSlice.push_back(m_slices.sliceOf[trainCount + i]);
      }
    }
  }

  bool step(const StepPlan& plan, IterationReport& report) override {
    const bool alpha = m_options.optimizeEvery > 0 && plan.iteration % m_options.optimizeEvery == 0;
    const double objective = topic::dtmIteration(m_counts, m_dtm, m_state, m_stop, alpha);
    if (std::isnan(objective)) return false;
    const double now = m_counts.tokens > 0 ? objective / m_counts.tokens : 0.0;
    m_converged =
        m_options.tolerance > 0 && plan.iteration > 1 && !alpha && std::abs(now - m_previous) < m_options.tolerance;
    m_previous = now;
    report.trainObjective = now;
    report.extras = {{"alpha_sum", m_state.corpusAlpha.sum()}};
    if ((plan.evaluate || m_converged) && !m_heldout.empty())
      report.heldout = scoreHeldoutBySlice(false).completion.perplexity;
    return true;
  }
  bool converged() const override { return m_converged; }
  std::vector<NamedMatrix> snapshot(const StepPlan&) override { return {{topic::kTopicWord, overallTopics()}}; }

  void finish(FitResult& result) override {
    const auto T = static_cast<Eigen::Index>(m_slices.size());
    const auto K = m_state.topicCount();
    const auto V = m_counts.vocabulary;
    Eigen::MatrixXd bySlice(T * K, V);
    for (Eigen::Index t = 0; t < T; ++t) bySlice.middleRows(t * K, K) = m_state.topics[static_cast<std::size_t>(t)];
    const Eigen::MatrixXd docTopic = assembleDocTopic();
    result.matrices.push_back({topic::kTopicWord, overallTopics()});
    result.matrices.push_back({topic::kDocTopic, docTopic});
    result.matrices.push_back({topic::kTopicWordBySlice, std::move(bySlice)});
    result.matrices.push_back({topic::kTopicShareBySlice, sharesBySlice(docTopic)});
    Eigen::MatrixXd slices(T, 3);
    for (Eigen::Index t = 0; t < T; ++t)
      slices.row(t) << m_slices.starts[static_cast<std::size_t>(t)], m_slices.width,
          static_cast<double>(m_slices.documents[static_cast<std::size_t>(t)]);
    result.matrices.push_back({topic::kTimeSlices, std::move(slices)});
    result.tokenTopics = tokenTopics(docTopic);
    if (!std::isnan(m_previous)) result.finalMetrics["train_objective"] = m_previous;
    result.finalMetrics["slices"] = m_slices.size();
    result.finalMetrics["slice_years"] = m_slices.width;
    if (result.status != FitStatus::Cancelled && !m_heldout.empty()) {
      const auto completion = scoreHeldoutBySlice(false);
      const auto full = scoreHeldoutBySlice(true);
      topic::addHeldoutScores(result.finalMetrics, completion.completion, full.completion);
      nlohmann::json perSlice = nlohmann::json::object();
      for (std::size_t t = 0; t < m_slices.size(); ++t)
        if (completion.perSlice[t]) perSlice[m_slices.label(t)] = *completion.perSlice[t];
      result.finalMetrics["heldout_perplexity_by_slice"] = std::move(perSlice);
    }
  }

 private:
  // Each topic over all slices, weighted by its expected words in each (plain mean where it has none).
  Eigen::MatrixXd overallTopics() const {
    const auto K = m_state.topicCount();
    const Eigen::MatrixXd tokens = topic::dtmSliceTopicTokens(m_state);
    Eigen::MatrixXd out = Eigen::MatrixXd::Zero(K, m_counts.vocabulary);
    for (Eigen::Index k = 0; k < K; ++k) {
      const double total = tokens.col(k).sum();
      for (std::size_t t = 0; t < m_state.slices(); ++t)
        out.row(k) += (total > 0 ? tokens(static_cast<Eigen::Index>(t), k) / total
                                 : 1.0 / static_cast<double>(m_state.slices())) *
                      m_state.topics[t].row(k);
    }
    return out;
  }

  // Held-out perplexity of every slice's documents with that slice's topics and alpha, combined.
  HeldoutBySlice scoreHeldoutBySlice(bool fullFoldingIn) const {
    HeldoutBySlice out;
    out.perSlice.assign(m_slices.size(), std::nullopt);
    double logDocuments = 0.0, logTokens = 0.0;
    for (std::size_t t = 0; t < m_heldout.size(); ++t) {
      if (m_heldout[t].empty()) continue;
      const FoldIn fold = variationalFoldIn(m_state.topics[t], m_state.alpha[t]);
      const auto score = scoreHeldout(
          m_heldout[t], m_state.topics[t], fold,
          fullFoldingIn ? HeldoutProtocol::FullFoldingIn : HeldoutProtocol::DocumentCompletion, m_settings.seed);
      out.perSlice[t] = score.perplexity;
      accumulate(out.completion, score, logDocuments, logTokens);
    }
    if (out.completion.documents > 0) {
      out.completion.perplexity = std::exp(logDocuments / static_cast<double>(out.completion.documents));
      out.completion.perplexityPerToken = std::exp(logTokens / static_cast<double>(out.completion.tokens));
    }
    return out;
  }

  // doc_topic in corpus order: training rows from gamma, held-out rows folded in on all their words.
  Eigen::MatrixXd assembleDocTopic() const {
    const auto K = m_state.topicCount();
    Eigen::MatrixXd train = m_state.gammas.transpose();
    for (Eigen::Index d = 0; d < train.rows(); ++d) train.row(d) /= train.row(d).sum();
    if (m_data.trainDocuments.empty()) return train;
    Eigen::MatrixXd full = Eigen::MatrixXd::Zero(m_data.fullDocumentCount, K);
    for (std::size_t d = 0; d < m_data.trainDocuments.size(); ++d)
      full.row(m_data.trainDocuments[d]) = train.row(static_cast<Eigen::Index>(d));
    if (!m_data.heldout) return full;
    const auto& h = *m_data.heldout;
    tbb::parallel_for(tbb::blocked_range<std::size_t>(0, h.size(), 8), [&](const auto& range) {
      Eigen::VectorXd theta(K);
      std::vector<std::int32_t> words;
      for (std::size_t i = range.begin(); i != range.end(); ++i) {
        const auto t = static_cast<std::size_t>(m_heldoutSlice[i]);
        const auto a = h.observed.document(i), b = h.scored.document(i);
        words.assign(a.begin(), a.end());
        words.insert(words.end(), b.begin(), b.end());
        variationalFoldIn(m_state.topics[t], m_state.alpha[t])(words, m_settings.seed + i, theta);
        full.row(h.documents[i]) = theta.transpose();
      }
    });
    return full;
  }

  // Each slice's topic shares: its documents' proportions weighted by their words (held-out ones
  // folded in); alpha's mean for a slice without words.
  Eigen::MatrixXd sharesBySlice(const Eigen::MatrixXd& docTopic) const {
    const auto T = static_cast<Eigen::Index>(m_slices.size());
    const auto K = m_state.topicCount();
    Eigen::MatrixXd shares = Eigen::MatrixXd::Zero(T, K);
    const auto trainCount = m_data.corpus->documentCount();
    const auto add = [&](std::size_t position, std::int64_t row, double length) {
      shares.row(m_slices.sliceOf[position]) += length * docTopic.row(row);
    };
    for (std::size_t d = 0; d < trainCount; ++d)
      add(d, m_data.trainDocuments.empty() ? static_cast<std::int64_t>(d) : m_data.trainDocuments[d],
          static_cast<double>(m_data.corpus->documentLength(d)));
    if (m_data.heldout)
      for (std::size_t i = 0; i < m_data.heldout->size(); ++i)
        add(trainCount + i, m_data.heldout->documents[i],
            static_cast<double>(m_data.heldout->observed.documentLength(i) + m_data.heldout->scored.documentLength(i)));
    for (Eigen::Index t = 0; t < T; ++t) {
      const double total = shares.row(t).sum();
      if (total > 0)
        shares.row(t) /= total;
      else
        shares.row(t) =
            (m_state.alpha[static_cast<std::size_t>(t)] / m_state.alpha[static_cast<std::size_t>(t)].sum()).transpose();
    }
    return shares;
  }

  // Each training token's most responsible topic under its slice's topics.
  std::vector<std::vector<std::int32_t>> tokenTopics(const Eigen::MatrixXd& docTopic) const {
    const auto& corpus = *m_data.corpus;
    std::vector<std::vector<std::int32_t>> out(corpus.documentCount());
    tbb::parallel_for(std::size_t{0}, corpus.documentCount(), [&](std::size_t d) {
      const auto& topics = m_state.topics[static_cast<std::size_t>(m_state.sliceOf[d])];
      const auto theta =
          docTopic.row(m_data.trainDocuments.empty() ? static_cast<Eigen::Index>(d) : m_data.trainDocuments[d]);
      for (const auto w : corpus.document(d)) {
        Eigen::Index best = 0;
        (theta.transpose().array() * topics.col(w).array()).maxCoeff(&best);
        out[d].push_back(static_cast<std::int32_t>(best));
      }
    });
    return out;
  }

  const FitData& m_data;
  const FitSettings& m_settings;
  const DtmOptions& m_options;
  std::stop_token m_stop;
  topic::DocWordCounts m_counts;
  TimeSlices m_slices;
  topic::DtmSettings m_dtm;
  topic::DtmState m_state;
  std::vector<HeldoutDocuments> m_heldout;   // by slice
  std::vector<std::int32_t> m_heldoutSlice;  // by held-out document
  double m_previous = std::numeric_limits<double>::quiet_NaN();
  bool m_converged = false;
};

class DtmModel final : public DescribedModel<&dtmInfo> {
 public:
  FitResult fit(const FitData& data, const FitSettings& settings, TrainingObserver& observer,
                std::stop_token stop) override {
    const Stopwatch clock;
    const auto options = DtmOptions::table().parse(settings.options, info().name);
    DtmChain chain(data, settings, options, stop);
    return driveChain(chain, ChainSchedule{options.iterations, options.snapshotEvery}, settings, observer, stop, clock);
  }
};

}  // namespace

double automaticSliceYears(double first, double last) {
  const double span = std::max(last - first, 0.0);
  for (const double width : {1.0, 2.0, 5.0, 10.0, 20.0, 25.0, 50.0, 100.0, 200.0, 500.0, 1000.0})
    if (std::floor(last / width) - std::floor(first / width) + 1 <= kAutoSlices) return width;
  return std::max(1000.0, std::ceil(span / kAutoSlices));
}

const OptionTable<DtmOptions>& DtmOptions::table() {
  static const auto table = [] {
    OptionTable<DtmOptions> t;
    t.add(topic::topicsOption(), &DtmOptions::topics)
        .add(topic::iterationsOption("EM iterations at most; each updates every document's topics, then every "
                                     "topic's words in every slice."),
             &DtmOptions::iterations)
        .add(realOption("slice_years", 0.0, kNoMaximum, false,
                        "Width of a time slice in years (0.25 for quarters, 10 for decades). 0: the smallest round "
                        "width that makes at most 30 slices."),
             &DtmOptions::sliceYears)
        .add(realOption("drift", 0.0, kNoMaximum, true,
                        "How fast topics may change: the variance of each word's weight (in log space) per year. "
                        "Larger values let topics follow each slice more closely."),
             &DtmOptions::drift)
        .add(realOption("initial_variance", 0.0, kNoMaximum, true,
                        "Prior variance of the words' weights (in log space) in the first slice: smaller values "
                        "smooth the topics towards uniform."),
             &DtmOptions::initialVariance)
        .add(integerOption("optimize_every", 0, 1e7,
                           "Re-estimate each slice's alpha (one value per topic) every N iterations; 0 keeps it at "
                           "1/K."),
             &DtmOptions::optimizeEvery)
        .add(topic::toleranceOption(), &DtmOptions::tolerance)
        .add(topic::snapshotEveryOption(), &DtmOptions::snapshotEvery);
    return t;
  }();
  return table;
}

ModelDefinition dtmModel() { return defineModel<DtmModel>(); }

}  // namespace latent::core
