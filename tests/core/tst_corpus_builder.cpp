// SPDX-License-Identifier: GPL-3.0-or-later
// CorpusBuilder: stop words, document frequencies, pruning, spans, bag-of-words documents.
#include <QtTest>

#include <fstream>

#include "core/data/corpus_builder.hpp"
#include "core/data/gibbs_toy.hpp"
#include "test_case.hpp"
#include "test_support.hpp"

using namespace latent;

namespace {

core::MemoryCorpusSink build(const std::vector<std::string>& texts, core::CorpusBuildOptions options,
                             core::CorpusSummary* summary = nullptr) {
  core::MemoryCorpusSink sink;
  core::CorpusBuilder builder(std::move(options), sink);
  for (std::size_t i = 0; i < texts.size(); ++i) {
    const auto id = std::to_string(i + 1);
    core::DocumentRecord record;
    record.id = id;
    record.title = id;
    record.text = texts[i];
    builder.addText(record);
  }
  const auto s = builder.finish();
  if (summary) *summary = s;
  return sink;
}

std::vector<std::string> words(const core::MemoryCorpusSink& sink) {
  std::vector<std::string> out;
  for (const auto& v : sink.vocabulary) out.push_back(v.word);
  return out;
}

std::vector<std::string> documentWords(const core::MemoryCorpusSink& sink, std::size_t d) {
  std::vector<std::string> out;
  for (const auto id : sink.documents[d].wordIds) out.push_back(sink.vocabulary[static_cast<std::size_t>(id)].word);
  return out;
}

}  // namespace

class CorpusBuilderTest : public QObject {
  Q_OBJECT

 private Q_SLOTS:
  void countsAndSpans() {
    core::CorpusBuildOptions options;
    options.stopWords = core::StopWords::english();
    core::CorpusSummary s;
    const auto sink = build({"The river bank, the river.", "A bank loan; money money!"}, options, &s);
    QCOMPARE(words(sink), (std::vector<std::string>{"river", "bank", "loan", "money"}));
    QCOMPARE(documentWords(sink, 0), (std::vector<std::string>{"river", "bank", "river"}));
    QCOMPARE(documentWords(sink, 1), (std::vector<std::string>{"bank", "loan", "money", "money"}));
    // df and counts by hand: river 1 doc 2 times, bank 2 docs, loan 1, money 1 doc 2 times.
    QCOMPARE(sink.vocabulary[0].documentFrequency, std::int64_t{1});
    QCOMPARE(sink.vocabulary[0].count, std::int64_t{2});
    QCOMPARE(sink.vocabulary[1].documentFrequency, std::int64_t{2});
    QCOMPARE(sink.vocabulary[3].count, std::int64_t{2});
    QCOMPARE(s.tokensSeen, std::int64_t{9});  // "A" is dropped by the tokenizer (one letter)
    QCOMPARE(s.stopWordTokens, std::int64_t{2});
    QCOMPARE(s.tokens, std::int64_t{7});
    // Every span cuts the original text at the token.
    for (const auto& doc : sink.documents)
      for (std::size_t i = 0; i < doc.wordIds.size(); ++i) {
        const auto original = doc.text.substr(doc.begins[i], doc.ends[i] - doc.begins[i]);
        QCOMPARE(QString::fromStdString(original).toLower().toStdString(),
                 sink.vocabulary[static_cast<std::size_t>(doc.wordIds[i])].word);
      }
  }

  void pruning() {
    // df: alpha 4, beta 3, gamma 2, delta 1; counts: alpha 4, beta 6, gamma 2, delta 5.
    const std::vector<std::string> texts{"alpha beta beta", "alpha beta beta gamma", "alpha beta beta gamma",
                                         "alpha delta delta delta delta delta"};
    core::CorpusBuildOptions minDf;
    minDf.prune.minDocumentFrequency = 2;
    core::CorpusSummary s;
    auto sink = build(texts, minDf, &s);
    QCOMPARE(words(sink), (std::vector<std::string>{"alpha", "beta", "gamma"}));
    QCOMPARE(s.prunedTokens, std::int64_t{5});
    QCOMPARE(documentWords(sink, 3), (std::vector<std::string>{"alpha"}));

    core::CorpusBuildOptions maxDf;  // in more than 75% of 4 documents: alpha (100%) goes
    maxDf.prune.maxDocumentFraction = 0.75;
    sink = build(texts, maxDf);
    QCOMPARE(words(sink), (std::vector<std::string>{"beta", "gamma", "delta"}));

    core::CorpusBuildOptions cap;  // the two most frequent: beta (6) and delta (5), in first-seen order
    cap.prune.maxVocabulary = 2;
    sink = build(texts, cap, &s);
    QCOMPARE(words(sink), (std::vector<std::string>{"beta", "delta"}));
    QCOMPARE(s.distinctWords, std::int64_t{4});
    QCOMPARE(s.vocabulary, std::int64_t{2});
  }

  void emptyDocumentsStay() {
    core::CorpusBuildOptions options;
    options.stopWords = core::StopWords::english();
    core::CorpusSummary s;
    const auto sink = build({"the of and", "river"}, options, &s);
    QCOMPARE(sink.documents.size(), std::size_t{2});
    QVERIFY(sink.documents[0].wordIds.empty());
    QCOMPARE(s.emptyDocuments, std::int64_t{1});
  }

  void bagOfWordsKeepsSourceOrder() {
    core::MemoryCorpusSink sink;
    core::CorpusBuilder builder({}, sink);
    builder.setSourceVocabulary({"zebra", "apple", "mango", "unused"});
    const std::vector<std::pair<std::int32_t, std::int32_t>> d1{{2, 3}, {0, 1}};
    const std::vector<std::pair<std::int32_t, std::int32_t>> d2{{1, 2}};
    core::DocumentRecord r;
    r.id = "7";
    builder.addBag(r, d1);
    r.id = "9";
    builder.addBag(r, d2);
    const auto s = builder.finish();
    // "unused" never occurs, so it is not a word of the corpus; the others keep the file's order.
    QCOMPARE(words(sink), (std::vector<std::string>{"zebra", "apple", "mango"}));
    QCOMPARE(documentWords(sink, 0), (std::vector<std::string>{"mango", "mango", "mango", "zebra"}));
    QCOMPARE(documentWords(sink, 1), (std::vector<std::string>{"apple", "apple"}));
    QVERIFY(sink.documents[0].begins.empty());
    QVERIFY(!sink.documents[0].hasText);
    QCOMPARE(s.tokens, std::int64_t{6});
    QCOMPARE(sink.documents[1].id, std::string("9"));
  }

  void gibbsToySampleMatchesItsGenerator() {
    std::ifstream in(test::sample("gibbs-toy/gibbs_toy.txt"));
    QVERIFY(in.good());
    std::vector<std::string> lines;
    for (std::string line; std::getline(in, line);) lines.push_back(line);
    QCOMPARE(lines, core::generateGibbsToyCorpus());
    QCOMPARE(lines.size(), std::size_t{16});
    // The first document is pure finance, the last pure rivers.
    QVERIFY(lines.front().find("river") == std::string::npos && lines.front().find("stream") == std::string::npos);
    QVERIFY(lines.back().find("money") == std::string::npos && lines.back().find("loan") == std::string::npos);
  }
};

LATENT_TEST_CASE(CorpusBuilderTest)
#include "tst_corpus_builder.moc"
