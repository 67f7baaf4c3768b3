// SPDX-License-Identifier: GPL-3.0-or-later
// Document fields as models read them (core/data/document_fields.hpp): times as years, labels as
// categories or label sets, metadata columns as numbers or categories, held-out documents coded
// like the training ones, and the held-out split carrying every field with its document.
#include <QtTest>

#include <cmath>

#include "core/data/document_fields.hpp"
#include "core/eval/heldout.hpp"
#include "core/util/errors.hpp"
#include "test_case.hpp"

using namespace latent;

namespace {

core::Corpus fieldCorpus() {
  core::Corpus c;
  c.words = {"a", "b"};
  const std::vector<std::int32_t> doc{0, 1, 0, 1};
  for (int d = 0; d < 4; ++d) c.addDocument("doc" + std::to_string(d), "", doc);
  c.times = {"1790", "1801-07-02", "", "2020"};
  c.labels = {"economy; health", "health", "", " war ;economy;war"};
  c.labelSeparator = ";";
  c.metadata = {{"party", {"Whig", "Democratic", "Whig", ""}}, {"rating", {"4", " 2.5", "", "1e1"}}};
  return c;
}

}  // namespace

class DocumentFieldsTest : public QObject {
  Q_OBJECT

 private Q_SLOTS:
  void namesInOrder() {
    QCOMPARE(core::documentFieldNames(fieldCorpus()), (std::vector<std::string>{"time", "label", "party", "rating"}));
  }

  void timesAreYears() {
    const auto f = core::documentField(fieldCorpus(), "time");
    QCOMPARE(f.kind, core::FieldKind::Numeric);
    QCOMPARE(f.numbers[0], 1790.0);
    QVERIFY(f.numbers[1] > 1801.4 && f.numbers[1] < 1801.6);
    QVERIFY(f.missing(2));
    QCOMPARE(f.numbers[3], 2020.0);
  }

  void labelsWithASeparatorAreSets() {
    const auto f = core::documentField(fieldCorpus(), "label");
    QCOMPARE(f.kind, core::FieldKind::LabelSets);
    QCOMPARE(f.categories, (std::vector<std::string>{"economy", "health", "war"}));
    QCOMPARE(f.sets[0], (std::vector<std::int32_t>{0, 1}));
    QCOMPARE(f.sets[1], (std::vector<std::int32_t>{1}));
    QVERIFY(f.missing(2));
    QCOMPARE(f.sets[3], (std::vector<std::int32_t>{0, 2}));
  }

  void metadataColumnsAreNumbersOrCategories() {
    const auto corpus = fieldCorpus();
    const auto party = core::documentField(corpus, "party");
    QCOMPARE(party.kind, core::FieldKind::Categorical);
    QCOMPARE(party.categories, (std::vector<std::string>{"Democratic", "Whig"}));
    QCOMPARE(party.codes, (std::vector<std::int32_t>{1, 0, 1, -1}));
    const auto rating = core::documentField(corpus, "rating");
    QCOMPARE(rating.kind, core::FieldKind::Numeric);
    QCOMPARE(rating.numbers[1], 2.5);
    QVERIFY(std::isnan(rating.numbers[2]));
    QCOMPARE(rating.numbers[3], 10.0);
    // Asked for as categories, numbers are categories too.
    QCOMPARE(core::documentField(corpus, "rating", core::FieldKind::Categorical).categories.size(), std::size_t{3});
  }

  void errorsNameTheFieldAndTheDocument() {
    const auto corpus = fieldCorpus();
    try {
      core::documentField(corpus, "year");
      QFAIL("no error");
    } catch (const core::UsageError& e) {
      QVERIFY2(std::string(e.what()).find("time, label, party, rating") != std::string::npos, e.what());
    }
    try {
      core::documentField(corpus, "party", core::FieldKind::Numeric);
      QFAIL("no error");
    } catch (const core::UsageError& e) {
      QVERIFY2(std::string(e.what()).find("document 1 ('doc0') is 'Whig'") != std::string::npos, e.what());
    }
  }

  void heldoutDocumentsAreCodedLikeTraining() {
    const auto corpus = fieldCorpus();
    const auto party = core::documentField(corpus, "party");
    core::Corpus other;
    other.words = corpus.words;
    other.addDocument("x", "", std::vector<std::int32_t>{0});
    other.addDocument("y", "", std::vector<std::int32_t>{1});
    other.metadata = {{"party", {"Whig", "Federalist"}}};
    const auto coded = core::documentFieldLike(other, party);
    QCOMPARE(coded.categories, party.categories);
    QCOMPARE(coded.codes, (std::vector<std::int32_t>{1, -1}));
  }

  void splitLabelsTrimsAndDropsRepeats() {
    QCOMPARE(core::splitLabels(" a ;; b;a ", ";"), (std::vector<std::string>{"a", "b"}));
    QCOMPARE(core::splitLabels("a|b", ""), (std::vector<std::string>{"a|b"}));
    QCOMPARE(core::splitLabels("  ", ","), std::vector<std::string>{});
  }

  void theHeldoutSplitKeepsEveryFieldWithItsDocument() {
    const auto corpus = fieldCorpus();
    const auto split = core::splitForDocumentCompletion(corpus, 0.5, 3);
    QCOMPARE(split.heldout.size(), std::size_t{2});
    QCOMPARE(split.train.labelSeparator, std::string(";"));
    for (std::size_t i = 0; i < split.trainDocuments.size(); ++i) {
      const auto d = static_cast<std::size_t>(split.trainDocuments[i]);
      QCOMPARE(split.train.times[i], corpus.times[d]);
      QCOMPARE(split.train.labels[i], corpus.labels[d]);
      QCOMPARE(split.train.metadata[1].values[i], corpus.metadata[1].values[d]);
    }
    for (std::size_t i = 0; i < split.heldout.size(); ++i) {
      const auto d = static_cast<std::size_t>(split.heldout.documents[i]);
      QCOMPARE(split.heldout.observed.labels[i], corpus.labels[d]);
      QCOMPARE(split.heldout.scored.metadata[0].values[i], corpus.metadata[0].values[d]);
    }
    const auto whole = core::wholeHeldoutDocuments(split.heldout);
    QCOMPARE(whole.documentCount(), split.heldout.size());
    for (std::size_t i = 0; i < whole.documentCount(); ++i) {
      const auto d = static_cast<std::size_t>(split.heldout.documents[i]);
      QCOMPARE(whole.documentLength(i), corpus.documentLength(d));
      QCOMPARE(whole.labels[i], corpus.labels[d]);
      QCOMPARE(whole.metadata[1].values[i], corpus.metadata[1].values[d]);
    }
  }
};

LATENT_TEST_CASE(DocumentFieldsTest)
#include "tst_document_fields.moc"
