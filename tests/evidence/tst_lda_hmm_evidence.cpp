// SPDX-License-Identifier: GPL-3.0-or-later
// LDA-HMM on real text (000 §27.4.3, Table 27.1): the State of the Union addresses imported with
// their stop words. The syntactic classes take the function words ("the", "of", "to", "and"), the
// topics keep content words, where plain LDA on the same words fills its topics with function
// words (Table 27.1's upper row); and word order predicts held-out words better.
#include <QtTest>

#include <algorithm>
#include <map>
#include <numeric>

#include "core/data/stop_words.hpp"
#include "core/jobs/import_job.hpp"
#include "core/models/fit_data.hpp"
#include "core/models/topic/lda_gibbs.hpp"
#include "core/models/topic/lda_hmm.hpp"
#include "core/results/topic_results.hpp"
#include "core/store/corpus_store.hpp"
#include "result_matrix.hpp"
#include "test_case.hpp"
#include "test_support.hpp"

using namespace latent;

namespace {

// The first tokens of each address: the test stays within seconds in the optimised build.
constexpr std::size_t kSotuOpening = 1000;

class SotuQuiet final : public core::TrainingObserver {
 public:
  bool onReport(const core::IterationReport&) override { return true; }
};

// The `count` most probable words of each row of a distribution over words.
std::vector<std::vector<std::string>> sotuTopWords(const Eigen::MatrixXd& rows, const core::Corpus& corpus, int count) {
  std::vector<std::vector<std::string>> out;
  for (Eigen::Index r = 0; r < rows.rows(); ++r) {
    std::vector<int> order(static_cast<std::size_t>(rows.cols()));
    std::iota(order.begin(), order.end(), 0);
    std::partial_sort(order.begin(), order.begin() + count, order.end(),
                      [&](int a, int b) { return rows(r, a) > rows(r, b); });
    std::vector<std::string> words;
    for (int i = 0; i < count; ++i) words.push_back(corpus.words[static_cast<std::size_t>(order[i])]);
    out.push_back(std::move(words));
  }
  return out;
}

// The share of English stop words among the words of `rows` (all of them, or rows from `first`).
double sotuStopWordShare(const std::vector<std::vector<std::string>>& rows, std::size_t first = 0) {
  const auto english = core::StopWords::english();
  double stop = 0.0, all = 0.0;
  for (std::size_t r = first; r < rows.size(); ++r)
    for (const auto& w : rows[r]) {
      stop += english.contains(w) ? 1.0 : 0.0;
      all += 1.0;
    }
  return all > 0 ? stop / all : 0.0;
}

std::string sotuJoined(const std::vector<std::string>& words) {
  std::string out;
  for (const auto& w : words) out += (out.empty() ? "" : " ") + w;
  return out;
}

}  // namespace

class LdaHmmEvidenceTest : public QObject {
  Q_OBJECT

 private Q_SLOTS:
  void sotuClassesTakeTheFunctionWords() {
    test::Scratch scratch;
    core::Project project(scratch.path("sotu.latent"));
    // `import sample --sample sotu` drops English stop words and words in over 90% of the
    // addresses; the same file imported as a corpus keeps them (latent-cli import corpus --source
    // resources/samples/sotu/sotu.jsonl --format jsonl --stopwords none --min-df 3).
    core::CorpusImportRequest request;
    request.name = "sotu-all";
    request.source = test::sample("sotu/sotu.jsonl");
    request.read.format = core::CorpusFormat::JsonLines;
    request.stopWords = "none";
    request.prune.minDocumentFrequency = 3;
    const auto imported = core::importCorpus(project, request);
    const auto full = core::loadCorpus(project, imported.dataset.id);
    QCOMPARE(full.documentCount(), std::size_t{240});
    core::Corpus corpus;
    corpus.words = full.words;
    for (std::size_t d = 0; d < full.documentCount(); ++d) {
      const auto words = full.document(d);
      corpus.addDocument(full.documentIds[d], full.titles[d], words.first(std::min(words.size(), kSotuOpening)));
    }
    core::PreparedData prepared(corpus, 0.1, 5);
    const auto& data = prepared.data();

    const auto fit = [&](const core::ModelDefinition& model, const nlohmann::json& options) {
      core::FitSettings settings;
      settings.options = core::resolveOptions(model.info(), options);
      settings.seed = 5;
      settings.evalEvery = 1000000;  // the held-out metric at the end only
      SotuQuiet quiet;
      return model.make()->fit(data, settings, quiet, {});
    };
    const auto hmm = fit(core::ldaHmmModel(), {{"k", 10}, {"classes", 10}, {"iterations", 150}});
    const auto lda = fit(core::ldaGibbsModel(), {{"k", 10}, {"iterations", 150}, {"restarts", 1}});
    QCOMPARE(hmm.status, core::FitStatus::MaxIterations);
    QVERIFY(hmm.message.empty());  // the stop words are there: no warning

    const auto classes = sotuTopWords(test::resultMatrix(hmm, core::topic::kClassWord), corpus, 10);
    const auto topics = sotuTopWords(test::resultMatrix(hmm, core::topic::kTopicWord), corpus, 10);
    const auto ldaTopics = sotuTopWords(test::resultMatrix(lda, core::topic::kTopicWord), corpus, 10);
    qInfo("%zu training tokens; lda-hmm %.1f s, lda-gibbs %.1f s", data.corpus->tokenCount(), hmm.seconds, lda.seconds);
    for (std::size_t c = 0; c < classes.size(); ++c) qInfo("class %zu: %s", c, sotuJoined(classes[c]).c_str());
    for (std::size_t k = 0; k < topics.size(); ++k) qInfo("lda-hmm topic %zu: %s", k, sotuJoined(topics[k]).c_str());
    for (std::size_t k = 0; k < ldaTopics.size(); ++k)
      qInfo("lda-gibbs topic %zu: %s", k, sotuJoined(ldaTopics[k]).c_str());

    // Where the function words' tokens went: their mean probability of being a content word, and
    // the class most of them are in.
    std::map<std::string, std::int32_t> ids;
    for (const std::string w : {"the", "of", "to", "and"})
      ids[w] = static_cast<std::int32_t>(std::find(corpus.words.begin(), corpus.words.end(), w) - corpus.words.begin());
    const auto layer = [&](const char* name) -> const std::vector<std::vector<float>>& {
      for (const auto& l : hmm.tokenValues)
        if (l.name == name) return l.documents;
      throw std::runtime_error(std::string("no layer ") + name);
    };
    const auto& tokenClass = layer(core::topic::kTokenClass);
    const auto& content = layer(core::topic::kTokenContentProbability);
    for (const auto& [word, id] : ids) {
      std::vector<double> perClass(10, 0.0);
      double contentSum = 0.0, tokens = 0.0;
      for (std::size_t d = 0; d < data.corpus->documentCount(); ++d) {
        const auto doc = data.corpus->document(d);
        for (std::size_t i = 0; i < doc.size(); ++i)
          if (doc[i] == id) {
            perClass[static_cast<std::size_t>(tokenClass[d][i])] += 1.0;
            contentSum += content[d][i];
            tokens += 1.0;
          }
      }
      const auto main = std::max_element(perClass.begin(), perClass.end()) - perClass.begin();
      qInfo("'%s': %.0f tokens, %.3f in class 0, mean P(content) %.4f, mostly class %td (%.3f)", word.c_str(), tokens,
            perClass[0] / tokens, contentSum / tokens, main, perClass[static_cast<std::size_t>(main)] / tokens);
      QVERIFY2(main != 0, word.c_str());
      QVERIFY2(contentSum / tokens < 0.05, word.c_str());
    }

    // Table 27.1: LDA's topics on these words are mostly function words, LDA-HMM's mostly not; and
    // several of the syntactic classes are mostly function words.
    const double hmmShare = sotuStopWordShare(topics), ldaShare = sotuStopWordShare(ldaTopics);
    int functionClasses = 0;
    for (std::size_t c = 1; c < classes.size(); ++c) functionClasses += sotuStopWordShare({classes[c]}) >= 0.6 ? 1 : 0;
    qInfo("stop words among the top 10 words: lda-hmm's topics %.2f, lda-gibbs's %.2f; classes mostly stop words: %d",
          hmmShare, ldaShare, functionClasses);
    QVERIFY(hmmShare < 0.25);
    QVERIFY(ldaShare > 0.6);
    QVERIFY(functionClasses >= 4);

    // Word order predicts the held-out halves better than the bag of words, on the same split.
    const double hmmPerplexity = hmm.finalMetrics["heldout_perplexity"].get<double>();
    const double ldaPerplexity = lda.finalMetrics["heldout_perplexity"].get<double>();
    qInfo("held-out perplexity (document completion): lda-hmm %.1f, lda-gibbs %.1f", hmmPerplexity, ldaPerplexity);
    QVERIFY(hmmPerplexity < 0.8 * ldaPerplexity);
  }
};

LATENT_TEST_CASE(LdaHmmEvidenceTest)
#include "tst_lda_hmm_evidence.moc"
