// SPDX-License-Identifier: GPL-3.0-or-later
// The import dialog's vocabulary preview against the import itself: the words and tokens it says
// are kept are those of the imported dataset, whatever the stop words, min-df, max-df, cap and
// minimum word length; each word removed is put down to the rule that removed it; metadata rows
// are matched to a folder's documents as the import joins them.
#include <QtTest>

#include "core/io/metadata_file.hpp"
#include "core/io/vocabulary_preview.hpp"
#include "core/jobs/import_job.hpp"
#include "core/store/project.hpp"
#include "test_case.hpp"
#include "test_support.hpp"

using namespace latent;

namespace {

core::PruneOptions pruning(std::int64_t minDf, double maxDf, std::int64_t cap = 0) {
  core::PruneOptions p;
  p.minDocumentFrequency = minDf;
  p.maxDocumentFraction = maxDf;
  p.maxVocabulary = cap;
  return p;
}

bool contains(const std::vector<std::string>& words, const std::string& word) {
  return std::find(words.begin(), words.end(), word) != words.end();
}

}  // namespace

class VocabularyPreviewTest : public QObject {
  Q_OBJECT

 private Q_SLOTS:
  // The SOTU sample as JSON Lines, counted once, previewed and imported under several settings.
  void keptWordsAreTheImportedVocabulary() {
    test::Scratch scratch;
    core::Project project(scratch.path("p.latent"));
    core::CorpusImportRequest r;
    r.source = test::sample("sotu/sotu.jsonl");
    r.read.format = core::CorpusFormat::JsonLines;
    r.read.idColumn = "id";
    const auto counts = core::countCorpusWords(r.source, r.read, r.tokenizer, {});
    QCOMPARE(counts.documents, std::int64_t{240});
    QVERIFY(counts.wholeSource);
    struct Case {
      const char* stop;
      core::PruneOptions prune;
    };
    const Case cases[] = {{"en", pruning(1, 1.0)}, {"en", pruning(3, 0.9)}, {"none", pruning(2, 0.5, 4000)}};
    int n = 0;
    for (const auto& c : cases) {
      const auto preview = core::previewVocabulary(counts, core::StopWords::fromSpec(c.stop), c.prune);
      r.name = "sotu" + std::to_string(++n);
      r.stopWords = c.stop;
      r.prune = c.prune;
      const auto summary = core::importCorpus(project, r, {}).dataset.summary;
      QCOMPARE(preview.keptWords, summary["vocabulary"].get<std::int64_t>());
      QCOMPARE(preview.keptTokens, summary["tokens"].get<std::int64_t>());
      QCOMPARE(preview.stopWords.tokens, summary["stopword_tokens"].get<std::int64_t>());
      QCOMPARE(preview.minDocumentFrequency.tokens + preview.maxDocumentFraction.tokens + preview.vocabularyCap.tokens,
               summary["pruned_tokens"].get<std::int64_t>());
      QCOMPARE(preview.keptTokens + preview.stopWords.tokens + preview.minDocumentFrequency.tokens +
                   preview.maxDocumentFraction.tokens + preview.vocabularyCap.tokens,
               preview.tokensSeen);
    }
    // The sample's own settings (English stop words, min-df 3, max-df 0.9) give its 13,739 words.
    const auto sampleLike = core::previewVocabulary(counts, core::StopWords::english(), pruning(3, 0.9));
    QCOMPARE(sampleLike.keptWords, std::int64_t{13739});
  }

  void eachRemovedWordIsPutDownToItsRule() {
    test::Scratch scratch;
    // "the": a stop word; "said": in every document (over max-df 0.7); "zebra" and "peace": in one
    // (under min-df 2); "tax" and "war": in two documents, kept.
    scratch.write("texts/a.txt", "the tax said war zebra");
    scratch.write("texts/b.txt", "the said war");
    scratch.write("texts/c.txt", "said tax tax");
    scratch.write("texts/d.txt", "said peace peace");
    const auto counts = core::countCorpusWords(scratch.path("texts"), {}, {}, {});
    QVERIFY(counts.format == core::CorpusFormat::Folder);
    QCOMPARE(counts.documentIds, (std::vector<std::string>{"a.txt", "b.txt", "c.txt", "d.txt"}));
    const auto p = core::previewVocabulary(counts, core::StopWords::english(), pruning(2, 0.7));
    QCOMPARE(p.stopWords.examples, std::vector<std::string>{"the"});
    QCOMPARE(p.stopWords.tokens, std::int64_t{2});
    QCOMPARE(p.maxDocumentFraction.examples, std::vector<std::string>{"said"});
    QCOMPARE(p.maxDocumentFraction.tokens, std::int64_t{4});
    // "peace" is in one document too, twice: the most frequent come first.
    QCOMPARE(p.minDocumentFrequency.examples, (std::vector<std::string>{"peace", "zebra"}));
    QCOMPARE(p.keptWords, std::int64_t{2});
    QCOMPARE(p.mostFrequent.at(0).word, std::string("tax"));
    QCOMPARE(p.mostFrequent.at(0).count, std::int64_t{3});
    QVERIFY(p.vocabularyCap.examples.empty());
    const auto capped = core::previewVocabulary(counts, core::StopWords::english(), pruning(2, 0.7, 1));
    QCOMPARE(capped.vocabularyCap.examples, std::vector<std::string>{"war"});
    // With no stop words "the" counts again (two documents of four: under max-df 0.7).
    const auto all = core::previewVocabulary(counts, {}, pruning(2, 0.7));
    QVERIFY(contains(
        std::vector<std::string>{all.mostFrequent.at(0).word, all.mostFrequent.at(1).word, all.mostFrequent.at(2).word},
        "the"));
    QCOMPARE(all.keptWords, std::int64_t{3});
  }

  void minimumWordLengthIsTheTokenisers() {
    test::Scratch scratch;
    scratch.write("texts/a.txt", "tax of ox");
    core::TokenizerOptions longer;
    longer.minLength = 3;
    QCOMPARE(core::countCorpusWords(scratch.path("texts"), {}, {}, {}).words.size(), std::size_t{3});
    const auto counts = core::countCorpusWords(scratch.path("texts"), {}, longer, {});
    QCOMPARE(counts.words.size(), std::size_t{1});
    QCOMPARE(counts.words[0].word, std::string("tax"));
  }

  void aBoundedSampleSaysSo() {
    test::Scratch scratch;
    for (int i = 0; i < 5; ++i) scratch.write("texts/" + std::to_string(i) + ".txt", "tax war");
    core::ImportControl control;
    control.maxRecords = 3;
    const auto counts = core::countCorpusWords(scratch.path("texts"), {}, {}, control);
    QCOMPARE(counts.documents, std::int64_t{3});
    QVERIFY(!counts.wholeSource);
    control.maxRecords = 10;
    QVERIFY(core::countCorpusWords(scratch.path("texts"), {}, {}, control).wholeSource);
  }

  void metadataRowsMatchDocumentsAsTheImportJoinsThem() {
    test::Scratch scratch;
    scratch.write("sotu/texts/001_1790_washington.txt", "union");
    scratch.write("sotu/texts/002_1791_washington.txt", "union");
    scratch.write("sotu/texts/003_1792_adams.txt", "union");
    const auto csv = scratch.write("sotu/metadata.csv",
                                   "doc_id,file,year,party\n"
                                   "1,texts/001_1790_washington.txt,1790,none\n"
                                   "2,texts/002_1791_washington.txt,1791,none\n"
                                   "9,texts/009_1799_nobody.txt,1799,none\n");
    const auto counts = core::countCorpusWords(scratch.path("sotu/texts"), {}, {}, {});
    const auto match = core::matchMetadata(counts.documentIds, core::MetadataFile(csv, "file"));
    QCOMPARE(match.matchedDocuments, std::int64_t{2});
    QCOMPARE(match.unmatchedDocuments, std::int64_t{1});
    QCOMPARE(match.rows, std::int64_t{3});
    QCOMPARE(match.unmatchedExamples, std::vector<std::string>{"003_1792_adams.txt"});
    // Matched on doc_id, nothing matches: the ids are file names.
    QCOMPARE(core::matchMetadata(counts.documentIds, core::MetadataFile(csv, "doc_id")).matchedDocuments,
             std::int64_t{0});
  }
};

LATENT_TEST_CASE(VocabularyPreviewTest)
#include "tst_vocabulary_preview.moc"
