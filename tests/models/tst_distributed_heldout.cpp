// SPDX-License-Identifier: GPL-3.0-or-later
// Held-out scores read from topics in any form (eval/topic_columns.hpp) and spread over the
// processes of a distributed fit (topic::heldoutPerplexity, addFinalHeldoutMetrics and
// assembleDocTopicAs with a group; threads play the processes): the forms a Gibbs chain hands its
// topics on hold the same values, they score the same to the bit, and member 0 of a group gets the
// perplexity, final metrics and doc_topic one process computes alone, each member having folded in
// only its own held-out documents.
#include <QtTest>

#include <atomic>
#include <optional>
#include <thread>
#include <utility>
#include <vector>

#include "core/data/corpus_share.hpp"
#include "core/data/synthetic_lda.hpp"
#include "core/eval/heldout.hpp"
#include "core/eval/topic_evaluation.hpp"
#include "core/jobs/distributed_dataset.hpp"
#include "core/models/topic/lda_gibbs_sparse_kernel.hpp"
#include "core/models/topic/lda_gibbs_state.hpp"
#include "core/models/topic/lda_gibbs_topic_word.hpp"
#include "core/models/topic/topic_model_support.hpp"
#include "test_case.hpp"
#include "thread_group.hpp"
#include "topic_columns_check.hpp"

using namespace latent;

namespace {

constexpr int kTopics = 5;
constexpr std::uint64_t kSeed = 17;

core::SyntheticLda generated() {
  core::SyntheticLdaSpec spec;
  spec.topics = kTopics;
  spec.vocabulary = 90;
  spec.documents = 150;
  spec.meanLength = 40;
  spec.seed = 4;
  return core::generateLdaCorpus(spec);
}

// phi held the way snapshots hold it (data/filled_sparse_matrix.hpp): each topic's fill, here its
// smallest value, and per word the entries that differ from it.
class FilledColumns final : public core::TopicColumns {
 public:
  explicit FilledColumns(const Eigen::MatrixXd& phi) : m_fill(phi.rowwise().minCoeff()), m_words(phi.cols()) {
    for (Eigen::Index w = 0; w < phi.cols(); ++w)
      for (Eigen::Index k = 0; k < phi.rows(); ++k)
        if (phi(k, w) != m_fill[k]) m_words[static_cast<std::size_t>(w)].push_back({k, phi(k, w)});
  }
  Eigen::Index topics() const override { return m_fill.size(); }
  void column(std::int32_t w, double* out) const override {
    for (Eigen::Index k = 0; k < m_fill.size(); ++k) out[k] = m_fill[k];
    for (const auto& [k, value] : m_words[static_cast<std::size_t>(w)]) out[k] = value;
  }
  const double* fill() const override { return m_fill.data(); }
  void overrides(std::int32_t w, std::vector<core::TopicValue>& out) const override {
    out.clear();
    for (const auto& [k, value] : m_words[static_cast<std::size_t>(w)])
      out.push_back({static_cast<std::int32_t>(k), value});
  }
  std::size_t entries() const {
    std::size_t n = 0;
    for (const auto& word : m_words) n += word.size();
    return n;
  }

 private:
  Eigen::VectorXd m_fill;
  std::vector<std::vector<std::pair<Eigen::Index, double>>> m_words;
};

// The true topics with every value below 0.002 raised to its topic's smallest such value (so that
// a fill stands for many entries), rows summing to one again.
Eigen::MatrixXd topicsWithFloors(const Eigen::MatrixXd& truth) {
  Eigen::MatrixXd phi = truth;
  for (Eigen::Index k = 0; k < phi.rows(); ++k) {
    const double floor = (phi.row(k).array() < 0.002).select(phi.row(k).array(), 1.0).minCoeff();
    for (Eigen::Index w = 0; w < phi.cols(); ++w)
      if (phi(k, w) < 0.002) phi(k, w) = floor;
    phi.row(k) /= phi.row(k).sum();
  }
  return phi;
}

bool sameScores(const core::TopicHeldoutScore& a, const core::TopicHeldoutScore& b) {
  return a.perplexity == b.perplexity && a.perplexityPerToken == b.perplexityPerToken && a.tokens == b.tokens &&
         a.documents == b.documents;
}

}  // namespace

class DistributedHeldoutTest : public QObject {
  Q_OBJECT

  // Q members with Q partitions: member 0 holds the split and sends the others their shares as
  // a fit does; each scores through a fold-in that counts the documents it folds in: the report's
  // perplexity, the final metrics under both protocols and doc_topic's held-out rows, in doubles
  // and in floats.
  void compareWithOneProcess(int members) {
    const auto truth = generated();
    const auto split = core::splitForDocumentCompletion(truth.corpus, 0.2, kSeed);
    const Eigen::MatrixXd phi = truth.topicWord;
    const Eigen::VectorXd alpha = Eigen::VectorXd::Constant(kTopics, 0.1);
    const core::DenseTopicColumns columns(phi);
    const auto fullDocuments = static_cast<std::int64_t>(truth.corpus.documentCount());
    // Training rows that say which document they are; only member 0 may write them.
    std::atomic<int> trainRowsFilled = 0;
    const auto fillTrainRows = [&](auto& full, std::span<const std::int64_t> rows) {
      ++trainRowsFilled;
      for (std::size_t i = 0; i < rows.size(); ++i) full.row(rows[i]).setConstant(static_cast<float>(i + 1));
    };
    core::FitData whole;
    whole.corpus = &split.train;
    whole.heldout = &split.heldout;
    whole.trainDocuments = split.trainDocuments;
    whole.fullDocumentCount = fullDocuments;
    const auto alone = core::gibbsFoldIn(columns, alpha);
    const auto expected = core::topic::heldoutPerplexity(whole, columns, alone, 3, nullptr);
    QVERIFY(expected && *expected > 1.0);
    nlohmann::json expectedMetrics;
    core::topic::addFinalHeldoutMetrics(expectedMetrics, whole, columns, alone, 3);
    QVERIFY(expectedMetrics.contains("heldout_perplexity_full_folding_in"));
    const Eigen::MatrixXd expectedDoubles =
        core::topic::assembleDocTopicAs<double>(whole, kTopics, fillTrainRows, alone, 3);
    const Eigen::MatrixXf expectedFloats =
        core::topic::assembleDocTopicAs<float>(whole, kTopics, fillTrainRows, alone, 3);
    QCOMPARE(expectedDoubles.rows(), fullDocuments);
    trainRowsFilled = 0;

    core::CorpusPlan plan;
    for (int p = 1; p <= members; ++p)
      plan.partitionEnds.push_back(static_cast<std::int64_t>(split.train.documentCount()) * p / members);
    const auto count = static_cast<std::size_t>(members);
    std::vector<std::optional<double>> scored(count);
    std::vector<nlohmann::json> metrics(count);
    std::vector<Eigen::MatrixXd> doubles(count);
    std::vector<Eigen::MatrixXf> floats(count);
    std::vector<std::atomic<int>> foldedIn(count);
    core::CorpusShare planned;
    {
      test::ThreadGroup group(members);
      std::vector<std::jthread> threads;
      for (int r = 0; r < members; ++r)
        threads.emplace_back([&, r] {
          const auto m = static_cast<std::size_t>(r);
          test::ThreadCommunicator c(group, r);
          core::Corpus shard;
          core::HeldoutDocuments heldoutShare;
          core::CorpusShare share;
          core::FitData data;
          if (r == 0) {
            share = core::describeCorpus(split.train, plan);
            share.heldoutEnds = core::heldoutEndsOfProcesses(split.heldout, members);
            planned = share;
            core::sendCorpusShares(c, split.train, &split.heldout, share, fullDocuments);
            data = whole;
          } else {
            core::receiveCorpusShare(c, shard, heldoutShare, share, data.fullDocumentCount);
            data.corpus = &shard;
            data.heldout = &heldoutShare;
          }
          data.share = &share;
          const auto gibbs = core::gibbsFoldIn(columns, alpha);
          const core::FoldIn counted = [&](std::span<const std::int32_t> words, std::uint64_t seed,
                                           Eigen::Ref<Eigen::VectorXd> theta) {
            ++foldedIn[m];
            gibbs(words, seed, theta);
          };
          scored[m] = core::topic::heldoutPerplexity(data, columns, counted, 3, &c);
          core::topic::addFinalHeldoutMetrics(metrics[m], data, columns, counted, 3, &c);
          doubles[m] = core::topic::assembleDocTopicAs<double>(data, kTopics, fillTrainRows, counted, 3, &c);
          floats[m] = core::topic::assembleDocTopicAs<float>(data, kTopics, fillTrainRows, counted, 3, &c);
        });
    }
    QVERIFY(scored[0].has_value());
    QVERIFY(*scored[0] == *expected);  // to the bit
    QVERIFY(metrics[0] == expectedMetrics);
    QVERIFY(doubles[0] == expectedDoubles);
    QVERIFY(floats[0] == expectedFloats);
    QCOMPARE(trainRowsFilled.load(), 2);  // by member 0 alone, once for each precision
    for (int r = 0; r < members; ++r) {
      const auto m = static_cast<std::size_t>(r);
      if (r > 0) {
        QVERIFY(!scored[m].has_value());
        QVERIFY(metrics[m].is_null());
        QCOMPARE(doubles[m].size(), Eigen::Index(0));
        QCOMPARE(floats[m].size(), Eigen::Index(0));
      }
      // Its own documents, once for the report, once under each protocol of the final metrics and
      // once for each precision of doc_topic.
      const auto [first, end] = core::heldoutOfProcess(planned, r);
      QCOMPARE(foldedIn[m].load(), 5 * static_cast<int>(end - first));
      QVERIFY(end > first);  // 30 held-out documents: every member scores some
    }
  }

 private Q_SLOTS:
  void twoMembersScoreAsOneProcess() { compareWithOneProcess(2); }
  void threeMembersScoreAsOneProcess() { compareWithOneProcess(3); }

  // The same topics, dense or as fills and entries, doubles or floats read as doubles: the same
  // scores under both protocols, to the bit.
  void topicsInAnyFormScoreTheSame() {
    const auto truth = generated();
    const auto split = core::splitForDocumentCompletion(truth.corpus, 0.2, kSeed);
    const Eigen::MatrixXd phi = topicsWithFloors(truth.topicWord);
    const Eigen::VectorXd alpha = Eigen::VectorXd::Constant(kTopics, 0.2);
    const FilledColumns filled(phi);
    QVERIFY(filled.entries() < static_cast<std::size_t>(phi.size()) / 2);
    for (const auto protocol : {core::HeldoutProtocol::DocumentCompletion, core::HeldoutProtocol::FullFoldingIn}) {
      const auto dense = core::scoreHeldout(split.heldout, phi, core::gibbsFoldIn(phi, alpha), protocol, 5);
      const auto sparse = core::scoreHeldout(split.heldout, filled, core::gibbsFoldIn(filled, alpha), protocol, 5);
      QVERIFY(sameScores(dense, sparse));
      // With room for no column, or for a few, kept: each column made from the fill and overrides.
      for (const std::size_t budget : {std::size_t{0}, std::size_t{3 * kTopics * 16}}) {
        const auto bounded =
            core::scoreHeldout(split.heldout, filled, core::gibbsFoldIn(filled, alpha, 50, 20, budget), protocol, 5);
        QVERIFY2(sameScores(dense, bounded), qPrintable(QString("budget %1").arg(budget)));
      }
      const Eigen::MatrixXf floats = phi.cast<float>();
      const Eigen::MatrixXd widened = floats.cast<double>();
      const auto fromFloats = core::scoreHeldout(split.heldout, floats, core::gibbsFoldIn(floats, alpha), protocol, 5);
      const auto fromWidened =
          core::scoreHeldout(split.heldout, widened, core::gibbsFoldIn(widened, alpha), protocol, 5);
      QVERIFY(sameScores(fromFloats, fromWidened));
      QVERIFY(fromFloats.perplexity != dense.perplexity);  // the rounding is seen
    }
    // The terms of consecutive ranges of documents, put together, are the whole's.
    const core::DenseTopicColumns columns(phi);
    const auto foldIn = core::gibbsFoldIn(columns, alpha);
    const auto protocol = core::HeldoutProtocol::DocumentCompletion;
    core::HeldoutTerms joined;
    const std::size_t H = split.heldout.size();
    const std::pair<std::size_t, std::size_t> ranges[] = {{0, 7}, {7, 7}, {7, H}};
    for (const auto& [first, end] : ranges) {
      const auto part = core::scoreHeldoutTerms(split.heldout, first, end, columns, foldIn, protocol, 5);
      QCOMPARE(part.tokens.size(), end - first);
      joined.logLikelihoods.insert(joined.logLikelihoods.end(), part.logLikelihoods.begin(), part.logLikelihoods.end());
      joined.tokens.insert(joined.tokens.end(), part.tokens.begin(), part.tokens.end());
    }
    QVERIFY(sameScores(core::combineHeldoutTerms(joined), core::scoreHeldout(split.heldout, phi, foldIn, protocol, 5)));
  }

  // A chain's topics read from its table as the held-out scores read them are the result's dense
  // phi and the snapshots' sparse one, value for value, as doubles and as floats.
  void aChainsTopicsAreTheSameInEveryForm() {
    const auto truth = generated();
    core::topic::LdaGibbsState state(truth.corpus, kTopics, 0.1, 0.03, 1, kSeed);
    core::topic::SparseGibbsKernel<std::uint32_t> kernel(state);
    std::vector<double> logPrior;
    for (int s = 0; s < 5; ++s) QVERIFY(kernel.sweep({}, false, logPrior));
    Eigen::MatrixXd dense;
    Eigen::MatrixXf floats;
    core::topic::fillTopicWord(kernel, state, dense);
    core::topic::fillTopicWord(kernel, state, floats);
    QVERIFY(core::topic::sparseTopicWord(kernel, state).toDense() == dense);
    const core::topic::SampledTopicColumns doubleColumns(kernel, state, false), floatColumns(kernel, state, true);
    std::vector<double> column(kTopics);
    for (std::int32_t w = 0; w < static_cast<std::int32_t>(dense.cols()); ++w) {
      doubleColumns.column(w, column.data());
      for (int k = 0; k < kTopics; ++k) QVERIFY(column[static_cast<std::size_t>(k)] == dense(k, w));
      floatColumns.column(w, column.data());
      for (int k = 0; k < kTopics; ++k)
        QVERIFY(column[static_cast<std::size_t>(k)] == static_cast<double>(floats(k, w)));
    }
    // And as a fill with each word's overrides, which is how a fold-in makes a column it did not keep.
    QVERIFY(test::fillAndOverridesAreTheColumns(doubleColumns, static_cast<std::int32_t>(dense.cols())));
    QVERIFY(test::fillAndOverridesAreTheColumns(floatColumns, static_cast<std::int32_t>(dense.cols())));
    // Words without tokens in a topic were read from its fill.
    QVERIFY(core::topic::sparseTopicWord(kernel, state).entries() < static_cast<std::size_t>(dense.size()));
  }
};

LATENT_TEST_CASE(DistributedHeldoutTest)
#include "tst_distributed_heldout.moc"
