// SPDX-License-Identifier: GPL-3.0-or-later
// Topic labels in the project file: round trip, removal, what is refused and why, the migration
// that adds the table to older projects, and labels going with their run.
#include <QtTest>

#include "core/store/project.hpp"
#include "core/store/run_store.hpp"
#include "core/store/topic_label_store.hpp"
#include "core/util/errors.hpp"
#include "test_case.hpp"
#include "test_datasets.hpp"
#include "test_support.hpp"

using namespace latent;

namespace {

// A finished run with a 3-topic topic_word matrix over the corpus' vocabulary.
std::int64_t addTopicRun(core::Project& p, std::int64_t dataset) {
  core::RunRecord run;
  run.datasetId = dataset;
  run.model = "lda-gibbs";
  run.appVersion = "test";
  const auto id = core::createRun(p, run);
  Eigen::MatrixXd topicWord = Eigen::MatrixXd::Constant(3, 3, 1.0 / 3.0);
  core::saveMatrix(p, id, "topic_word", -1, topicWord);
  core::finishRun(p, id, core::RunStatus::Finished, "", 1.0, 1, nlohmann::json::object());
  return id;
}

template <typename F>
QString usageError(F&& f) {
  try {
    f();
  } catch (const core::UsageError& e) {
    return QString::fromUtf8(e.what());
  }
  return QStringLiteral("(no error)");
}

}  // namespace

class TopicLabelStoreTest : public QObject {
  Q_OBJECT

 private Q_SLOTS:
  void roundTripOverwriteAndRemove() {
    test::Scratch scratch;
    core::Project p(scratch.path("labels.latent"));
    const auto dataset = test::addCorpus(p, "toy", {"money bank", "river bank"});
    const auto run = addTopicRun(p, dataset);
    const auto other = addTopicRun(p, dataset);
    QVERIFY(core::loadTopicLabels(p, run).empty());

    core::setTopicLabel(p, run, 0, "finance");
    core::setTopicLabel(p, run, 2, "Flüsse & Ufer");  // any UTF-8 text
    core::setTopicLabel(p, other, 0, "elsewhere");
    auto labels = core::loadTopicLabels(p, run);
    QCOMPARE(labels.size(), std::size_t{2});
    QCOMPARE(labels.at(0), std::string("finance"));
    QCOMPARE(labels.at(2), std::string("Flüsse & Ufer"));
    QCOMPARE(core::loadTopicLabels(p, other).at(0), std::string("elsewhere"));

    core::setTopicLabel(p, run, 0, "money");  // a second name replaces the first
    QCOMPARE(core::loadTopicLabels(p, run).at(0), std::string("money"));
    core::setTopicLabel(p, run, 0, "");  // an empty name removes it
    labels = core::loadTopicLabels(p, run);
    QCOMPARE(labels.size(), std::size_t{1});
    QVERIFY(!labels.contains(0));
    QCOMPARE(core::loadTopicLabels(p, other).size(), std::size_t{1});  // the other run is untouched

    // A label is kept in the file: a fresh connection reads it.
    core::Project reopened(scratch.path("labels.latent"), core::Project::Access::ReadOnly);
    QCOMPARE(core::loadTopicLabels(reopened, run).at(2), std::string("Flüsse & Ufer"));
  }

  void refusesWhatIsNotALabelOfATopic() {
    test::Scratch scratch;
    core::Project p(scratch.path("labels.latent"));
    const auto dataset = test::addCorpus(p, "toy", {"money bank", "river bank"});
    const auto run = addTopicRun(p, dataset);
    QVERIFY(usageError([&] { core::setTopicLabel(p, 999, 0, "x"); }).startsWith(QStringLiteral("no run 999 in ")));
    QCOMPARE(usageError([&] { core::setTopicLabel(p, run, 3, "x"); }),
             QStringLiteral("run %1 has 3 topics (0 to 2), not topic 3").arg(run));
    QCOMPARE(usageError([&] { core::setTopicLabel(p, run, -1, "x"); }),
             QStringLiteral("topic numbers start at 0, not -1"));
    QCOMPARE(usageError([&] { core::setTopicLabel(p, run, 0, "two\nlines"); }),
             QStringLiteral("a topic label must fit on one line"));
    QCOMPARE(usageError([&] { core::setTopicLabel(p, run, 0, std::string("bad \xff byte")); }),
             QStringLiteral("a topic label must be valid UTF-8 text"));
    // The limit counts characters, not bytes: 120 two-byte characters pass, 121 do not.
    std::string longest;
    for (int i = 0; i < 120; ++i) longest += "é";
    core::setTopicLabel(p, run, 1, longest);
    QCOMPARE(core::loadTopicLabels(p, run).at(1), longest);
    QCOMPARE(usageError([&] { core::setTopicLabel(p, run, 1, longest + "é"); }),
             QStringLiteral("a topic label can have at most 120 characters"));
    QCOMPARE(core::loadTopicLabels(p, run).at(1), longest);  // a refused label changes nothing
  }

  void olderProjectsGainTheTable() {
    test::Scratch scratch;
    const auto file = scratch.path("old.latent");
    std::int64_t run = 0;
    {
      core::Project p(file);
      const auto dataset = test::addCorpus(p, "toy", {"money bank"});
      run = addTopicRun(p, dataset);
      // What a schema-4 file looks like: no topic_labels table, nor what later versions added.
      p.db().exec("DROP TABLE topic_labels");
      p.db().exec("ALTER TABLE run_matrices DROP COLUMN element");                           // 015
      p.db().exec("ALTER TABLE runs DROP COLUMN name; ALTER TABLE runs DROP COLUMN notes");  // 014
      p.db().exec("DROP TABLE run_matrix_parts");                                            // 013
      p.db().exec("DROP TABLE document_links");                   // 011 (012 rebuilds edges, which any version has)
      p.db().exec("ALTER TABLE documents DROP COLUMN metadata");  // 010
      p.db().exec("DROP TABLE token_values");                     // 009
      p.db().exec("ALTER TABLE runs DROP COLUMN owner_started; ALTER TABLE datasets DROP COLUMN owner_started");  // 008
      p.db().exec("DROP TABLE table_rows; DROP TABLE table_features");                                            // 007
      for (const char* column : {"status", "owner_pid", "owner_host", "owner_import"})                            // 006
        p.db().exec(std::string("ALTER TABLE datasets DROP COLUMN ") + column);
      p.db().exec("PRAGMA user_version = 4");
    }
    QVERIFY(core::Project::latestSchemaVersion() >= 5);
    core::Project p(file);
    QCOMPARE(p.schemaVersion(), core::Project::latestSchemaVersion());
    core::setTopicLabel(p, run, 1, "migrated");
    QCOMPARE(core::loadTopicLabels(p, run).at(1), std::string("migrated"));
  }

  void labelsGoWithTheirRun() {
    test::Scratch scratch;
    core::Project p(scratch.path("labels.latent"));
    const auto dataset = test::addCorpus(p, "toy", {"money bank"});
    const auto run = addTopicRun(p, dataset);
    core::setTopicLabel(p, run, 0, "finance");
    p.removeDataset(dataset);  // cascades to its runs, and from them to their labels
    QCOMPARE(p.db().queryInteger("SELECT count(*) FROM topic_labels"), std::int64_t{0});
  }
};

LATENT_TEST_CASE(TopicLabelStoreTest)
#include "tst_topic_label_store.moc"
