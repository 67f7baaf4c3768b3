// SPDX-License-Identifier: GPL-3.0-or-later
// LSA: options, the truncated SVD as a chain of one step, the held-out residual share, and
// results (singular values, word and document vectors, the term weights). References: 000 §27.2.2
// (PCA and ePCA, of which LSA is the Gaussian case on weighted counts), 003 §3.2 (PCA as
// point-posterior EM); Deerwester et al. 1990 (LSA); Lehoucq & Sorensen 1996 (the implicitly
// restarted Lanczos method of Spectra).
#include "core/models/topic/lsa.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <optional>
#include <utility>
#include <vector>

#include "core/models/fit_driver.hpp"
#include "core/results/embedding_results.hpp"
#include "core/util/clock.hpp"
#include "core/util/errors.hpp"

namespace latent::core {
namespace {

ModelInfo lsaInfo() {
  ModelInfo info;
  info.name = "lsa";
  info.kind = DataKind::Corpus;
  info.family = ResultFamily::Embeddings;
  info.title = "LSA (truncated SVD)";
  info.description =
      "Places words and documents in K dimensions by the truncated singular value decomposition of the tf-idf "
      "weighted counts: words used in the same documents end up close. It is not a probabilistic model, so it "
      "reports how much of the held-out documents lies outside its subspace instead of a perplexity.";
  info.objectiveName = "share of the weighted training matrix's squared norm the K components capture";
  info.options = LsaOptions::table().specs();
  info.needs = [](const FitData& data, const nlohmann::json& options) {
    const auto K = options.at("k").get<std::uint64_t>();
    const auto V = static_cast<std::uint64_t>(data.corpus->vocabularySize());
    const auto D = static_cast<std::uint64_t>(data.fullDocumentCount);
    const auto basis = std::max<std::uint64_t>(2 * K + 1, 20);  // Lanczos vectors
    return ResourceNeeds{(std::min(D, V) * basis + 2 * (D + V) * K) * 8, std::max(D, V) * K * 8};
  };
  return info;
}

// The decomposition as a chain of one step, converged once it is taken.
class LsaChain final : public FitChain {
 public:
  LsaChain(const FitData& data, const LsaOptions& options, std::stop_token stop)
      : m_data(data), m_options(options), m_stop(std::move(stop)), m_counts(topic::buildDocWordCounts(*data.corpus)) {
    const auto limit = std::min<std::int64_t>(static_cast<std::int64_t>(m_counts.documents()), m_counts.vocabulary);
    if (options.components >= limit)
      throw UsageError("lsa: --k must be below the number of training documents and of words (here " +
                       std::to_string(limit) + ")");
    m_termWeights = topic::lsaTermWeights(m_counts, options.weighting);
    m_values = topic::lsaWeightedValues(m_counts, m_termWeights);
  }

  bool step(const StepPlan& plan, IterationReport& report) override {
    m_svd = topic::truncatedSvd(m_counts, m_values, m_options.components, m_options.tolerance,
                                static_cast<int>(m_options.maxRestarts), m_stop);
    if (!m_svd) return false;
    m_squaredNorm = 0.0;
    for (const double x : m_values) m_squaredNorm += x * x;
    m_captured = m_squaredNorm > 0 ? m_svd->singularValues.squaredNorm() / m_squaredNorm : 0.0;
    report.trainObjective = m_captured;
    report.extras.emplace_back("gram_products", static_cast<double>(m_svd->products));
    if (plan.evaluate) report.heldout = heldoutResidualShare();
    return true;
  }
  bool converged() const override { return true; }
  std::vector<NamedMatrix> snapshot(const StepPlan&) override { return {}; }

  void finish(FitResult& result) override {
    if (!m_svd) return;  // stopped before the decomposition: nothing to keep
    result.finalMetrics["train_objective"] = m_captured;
    result.finalMetrics["train_captured_share"] = m_captured;
    result.finalMetrics[embedding::kTrainSquaredNorm] = m_squaredNorm;
    if (const auto residual = heldoutResidualShare()) {
      result.finalMetrics[embedding::kHeldoutResidual] = *residual;
      result.finalMetrics["heldout_documents"] = static_cast<std::int64_t>(m_data.heldout->size());
    }
    result.matrices.push_back({embedding::kSingularValues, m_svd->singularValues});
    result.matrices.push_back({embedding::kWordVectors, m_svd->wordVectors});
    result.matrices.push_back({embedding::kDocVectors, documentVectors()});
    result.matrices.push_back({embedding::kTermWeights, m_termWeights});
  }

 private:
  // Every word of held-out document i (both halves of the completion split).
  std::vector<std::int32_t> heldoutWords(std::size_t i) const {
    const auto observed = m_data.heldout->observed.document(i);
    const auto scored = m_data.heldout->scored.document(i);
    std::vector<std::int32_t> words(observed.begin(), observed.end());
    words.insert(words.end(), scored.begin(), scored.end());
    return words;
  }

  std::optional<double> heldoutResidualShare() const {
    if (!m_data.heldout || m_data.heldout->empty()) return std::nullopt;
    double residual = 0.0, total = 0.0;
    for (std::size_t i = 0; i < m_data.heldout->size(); ++i) {
      const auto words = heldoutWords(i);
      const double norm = topic::lsaSquaredNorm(words, m_termWeights);
      // W has orthonormal columns: the part outside the subspace is ||x||^2 - ||x W||^2.
      residual += std::max(0.0, norm - topic::lsaProject(words, m_termWeights, m_svd->wordVectors).squaredNorm());
      total += norm;
    }
    return total > 0 ? residual / total : std::numeric_limits<double>::quiet_NaN();
  }

  // U in corpus order: the training documents' rows of the decomposition, a held-out document's
  // its weighted counts projected, x W diag(1/s).
  Eigen::MatrixXd documentVectors() const {
    const auto K = m_svd->singularValues.size();
    Eigen::MatrixXd out = Eigen::MatrixXd::Zero(m_data.fullDocumentCount, K);
    for (Eigen::Index d = 0; d < m_svd->docVectors.rows(); ++d) {
      const auto row = m_data.trainDocuments.empty() ? d : m_data.trainDocuments[static_cast<std::size_t>(d)];
      out.row(row) = m_svd->docVectors.row(d);
    }
    if (!m_data.heldout) return out;
    Eigen::VectorXd inverse(K);
    for (Eigen::Index k = 0; k < K; ++k)
      inverse[k] = m_svd->singularValues[k] > 0 ? 1.0 / m_svd->singularValues[k] : 0.0;
    for (std::size_t i = 0; i < m_data.heldout->size(); ++i) {
      const Eigen::VectorXd coordinates = topic::lsaProject(heldoutWords(i), m_termWeights, m_svd->wordVectors);
      out.row(m_data.heldout->documents[i]) = coordinates.cwiseProduct(inverse).transpose();
    }
    return out;
  }

  const FitData& m_data;
  const LsaOptions& m_options;
  std::stop_token m_stop;
  topic::DocWordCounts m_counts;
  Eigen::VectorXd m_termWeights;
  std::vector<double> m_values;
  std::optional<topic::TruncatedSvd> m_svd;
  double m_squaredNorm = 0.0;
  double m_captured = std::numeric_limits<double>::quiet_NaN();
};

class LsaModel final : public DescribedModel<&lsaInfo> {
 public:
  FitResult fit(const FitData& data, const FitSettings& settings, TrainingObserver& observer,
                std::stop_token stop) override {
    const Stopwatch clock;
    const auto options = LsaOptions::table().parse(settings.options, info().name);
    LsaChain chain(data, options, stop);
    return driveChain(chain, ChainSchedule{}, settings, observer, stop, clock);
  }
};

}  // namespace

const OptionTable<LsaOptions>& LsaOptions::table() {
  static const auto table = [] {
    OptionTable<LsaOptions> t;
    t.add(integerOption("k", 1, 100000,
                        "Components kept: the dimensions words and documents are placed in (100 to 300 is usual for "
                        "retrieval, 2 to draw a map)."),
          &LsaOptions::components)
        .add(choiceOption("weighting", {},
                          "tfidf: each count times log(D / documents holding the word), so words in every document "
                          "count for nothing; count: the raw counts."),
             &LsaOptions::weighting, {{"tfidf", topic::LsaWeighting::TfIdf}, {"count", topic::LsaWeighting::Count}})
        .add(realOption("tolerance", 0.0, 1.0, true,
                        "Relative accuracy of the squared singular values at which the Lanczos solver stops."),
             &LsaOptions::tolerance)
        .add(integerOption("max_restarts", 1, 1e6,
                           "Lanczos restarts allowed before the fit fails as not converged (rarely more than a few "
                           "dozen are needed)."),
             &LsaOptions::maxRestarts);
    return t;
  }();
  return table;
}

ModelDefinition lsaModel() { return defineModel<LsaModel>(); }

}  // namespace latent::core
