// SPDX-License-Identifier: GPL-3.0-or-later
// Documents' side information through an import into a project and back (issue 17): several labels
// per document with a separator, metadata columns of CSV and JSON Lines corpora ("all" or named),
// and a metadata file joined to a folder corpus by file name, giving its time, label and metadata.
#include <QtTest>

#include "core/data/document_fields.hpp"
#include "core/jobs/import_job.hpp"
#include "core/store/corpus_store.hpp"
#include "core/store/project.hpp"
#include "core/util/errors.hpp"
#include "corpus_test_helpers.hpp"
#include "test_case.hpp"
#include "test_support.hpp"

using namespace latent;

namespace {

std::vector<std::string> columnNames(const core::Corpus& corpus) {
  std::vector<std::string> names;
  for (const auto& c : corpus.metadata) names.push_back(c.name);
  return names;
}

const std::vector<std::string>& column(const core::Corpus& corpus, const std::string& name) {
  for (const auto& c : corpus.metadata)
    if (c.name == name) return c.values;
  throw std::runtime_error("no metadata column " + name);
}

}  // namespace

class DocumentMetadataImportTest : public QObject {
  Q_OBJECT

 private Q_SLOTS:
  void csvLabelsWithASeparatorAndNamedMetadata() {
    test::Scratch scratch;
    const auto csv = scratch.write("reviews.csv",
                                   "id,text,tags,stars,reviewer\n"
                                   "r1,the plot and the actors,drama; acting,4,ann\n"
                                   "r2,a loud film with loud cars,action,2,bob\n"
                                   "r3,\"quiet, slow, long\",drama;slow ;,,ann\n");
    core::Project project(scratch.path("p.latent"));
    core::CorpusImportRequest r;
    r.name = "reviews";
    r.source = csv;
    r.read.labelColumn = "tags";
    r.read.metadataColumns = {"stars", "reviewer"};
    r.labelSeparator = ";";
    r.stopWords = "none";
    const auto result = core::importCorpus(project, r, {});
    QCOMPARE(result.dataset.summary["metadata_columns"], nlohmann::json({"stars", "reviewer"}));
    const auto corpus = core::loadCorpus(project, result.dataset.id);
    QCOMPARE(corpus.labelSeparator, std::string(";"));
    QCOMPARE(corpus.labels[1], std::string("action"));
    QCOMPARE(columnNames(corpus), (std::vector<std::string>{"stars", "reviewer"}));
    QCOMPARE(column(corpus, "stars"), (std::vector<std::string>{"4", "2", ""}));
    const auto tags = core::documentField(corpus, "label");
    QCOMPARE(tags.kind, core::FieldKind::LabelSets);
    QCOMPARE(tags.categories, (std::vector<std::string>{"acting", "action", "drama", "slow"}));
    QCOMPARE(tags.sets[2], (std::vector<std::int32_t>{2, 3}));
    const auto stars = core::documentField(corpus, "stars");
    QCOMPARE(stars.kind, core::FieldKind::Numeric);
    QVERIFY(stars.missing(2));
    // The browser's rows carry the same metadata.
    const auto headers = core::listDocuments(project, result.dataset.id);
    QCOMPARE(nlohmann::json::parse(headers[0].metadata), nlohmann::json({{"stars", "4"}, {"reviewer", "ann"}}));
    QVERIFY(headers[2].metadata.find("stars") == std::string::npos);
  }

  void jsonlKeepsEveryOtherFieldWithAll() {
    test::Scratch scratch;
    core::Project project(scratch.path("p.latent"));
    core::CorpusImportRequest r;
    r.name = "sotu";
    r.source = test::sample("sotu/sotu.jsonl");
    r.read.format = core::CorpusFormat::JsonLines;
    r.read.idColumn = "id";
    r.read.titleColumn = "title";
    r.read.timeColumn = "year";
    r.read.labelColumn = "party";
    r.read.metadataColumns = {"all"};
    const auto result = core::importCorpus(project, r, {});
    const auto corpus = core::loadCorpus(project, result.dataset.id);
    QCOMPARE(columnNames(corpus), (std::vector<std::string>{"president", "type"}));
    QCOMPARE(column(corpus, "president")[0], std::string("George Washington"));
    QCOMPARE(column(corpus, "type")[239], std::string("speech"));
    QCOMPARE(corpus.labels[239], std::string("Republican"));
    QVERIFY(corpus.labelSeparator.empty());
    const auto type = core::documentField(corpus, "type");
    QCOMPARE(type.categories, (std::vector<std::string>{"speech", "written"}));
  }

  void metadataFileJoinsAFolderByFileName() {
    test::Scratch scratch;
    core::Project project(scratch.path("p.latent"));
    core::CorpusImportRequest r;
    r.name = "four";
    r.source = test::fixture("corpus/sotu_dir");
    r.read.format = core::CorpusFormat::Folder;
    r.read.timeColumn = "year";
    r.read.labelColumn = "party";
    r.read.metadataColumns = {"president", "sotu_type"};
    // One row more than there are documents, and a document without a row.
    const auto rows = test::readFileBytes(test::fixture("corpus/sotu_dir/metadata.csv"));
    std::string edited;
    for (const auto& line : QString::fromStdString(rows).split('\n', Qt::SkipEmptyParts))
      if (!line.contains("eisenhower")) edited += line.toStdString() + "\n";
    edited += "99,texts/099_1900_nobody.txt,Nobody,1900,,Whig,written,1\n";
    r.metadataFile = scratch.write("meta.csv", edited);
    const auto result = core::importCorpus(project, r, {});
    QCOMPARE(result.dataset.options["metadata_key"], nlohmann::json("file"));
    QCOMPARE(result.dataset.summary["metadata_unmatched"], nlohmann::json(1));
    QCOMPARE(result.notes.size(), std::size_t{2});
    QVERIFY2(result.notes[0].find("1 documents have no row") != std::string::npos, result.notes[0].c_str());
    QVERIFY2(result.notes[1].find("1 rows of") != std::string::npos, result.notes[1].c_str());
    const auto corpus = core::loadCorpus(project, result.dataset.id);
    QCOMPARE(corpus.times, (std::vector<std::string>{"1790", "1800", "", "2017"}));
    QCOMPARE(corpus.labels, (std::vector<std::string>{"Nonpartisan", "Federalist", "", "Republican"}));
    QCOMPARE(columnNames(corpus), (std::vector<std::string>{"president", "sotu_type"}));
    QCOMPARE(column(corpus, "president")[3], std::string("Donald Trump"));
    QCOMPARE(column(corpus, "president")[2], std::string());
    QCOMPARE(core::documentField(corpus, "time").numbers[1], 1800.0);
  }

  void metadataFileWithoutNamedColumnsKeepsThemAll() {
    test::Scratch scratch;
    core::Project project(scratch.path("p.latent"));
    core::CorpusImportRequest r;
    r.name = "four";
    r.source = test::fixture("corpus/sotu_dir");
    r.read.timeColumn = "year";
    r.metadataFile = test::fixture("corpus/sotu_dir/metadata.csv");
    r.metadataKey = "file";
    const auto result = core::importCorpus(project, r, {});
    const auto corpus = core::loadCorpus(project, result.dataset.id);
    QVERIFY(corpus.labels.empty());
    QCOMPARE(columnNames(corpus),
             (std::vector<std::string>{"doc_id", "president", "years_active", "party", "sotu_type", "n_chars"}));
  }

  void mistakesAreNamed() {
    test::Scratch scratch;
    core::Project project(scratch.path("p.latent"));
    core::CorpusImportRequest r;
    r.name = "x";
    r.source = test::fixture("corpus/sotu_dir");
    r.read.metadataColumns = {"party"};
    QVERIFY_THROWS_EXCEPTION(core::UsageError, core::importCorpus(project, r, {}));
    r.read.metadataColumns.clear();
    r.labelSeparator = ";";
    QVERIFY_THROWS_EXCEPTION(core::UsageError, core::importCorpus(project, r, {}));
    r.labelSeparator.clear();
    r.metadataFile = scratch.write("dup.csv", "file,party\na.txt,Whig\nb.txt,Whig\na.txt,Tory\n");
    try {
      core::importCorpus(project, r, {});
      QFAIL("no error");
    } catch (const core::InputError& e) {
      QVERIFY2(std::string(e.what()).find(":4:") != std::string::npos, e.what());
      QVERIFY2(std::string(e.what()).find("'a.txt'") != std::string::npos, e.what());
    }
    r.metadataFile = scratch.write("nokey.csv", "name,party\na.txt,Whig\n");
    r.metadataKey = "file";
    QVERIFY_THROWS_EXCEPTION(core::InputError, core::importCorpus(project, r, {}));
    // A JSON Lines field named as metadata that no line has.
    core::CorpusImportRequest j;
    j.name = "y";
    j.source = scratch.write("d.jsonl", "{\"text\": \"a b c\", \"party\": \"Whig\"}\n{\"text\": \"d e\"}\n");
    j.read.metadataColumns = {"party", "rating"};
    try {
      core::importCorpus(project, j, {});
      QFAIL("no error");
    } catch (const core::InputError& e) {
      QVERIFY2(std::string(e.what()).find("'rating'") != std::string::npos, e.what());
    }
    QVERIFY(project.datasets().empty());
  }
};

LATENT_TEST_CASE(DocumentMetadataImportTest)
#include "tst_document_metadata_import.moc"
