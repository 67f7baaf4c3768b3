// SPDX-License-Identifier: GPL-3.0-or-later
// A run's name and notes in the project file (issue 20, missing item 5): stored, read back with
// the run, cleaned of what a one-line name cannot hold, refused for an unknown run; and the
// comparison of a dataset's runs: only the options that differ, every final metric.
#include <QtTest>

#include "core/store/project.hpp"
#include "core/store/run_comparison.hpp"
#include "core/store/run_notes.hpp"
#include "core/store/run_store.hpp"
#include "core/util/errors.hpp"
#include "test_case.hpp"
#include "test_datasets.hpp"
#include "test_support.hpp"

using namespace latent;

namespace {

std::int64_t notesRun(core::Project& project, std::int64_t dataset, const std::string& model, nlohmann::json options,
                      nlohmann::json final) {
  core::RunRecord record;
  record.datasetId = dataset;
  record.model = model;
  record.options = std::move(options);
  const auto run = core::createRun(project, record);
  core::finishRun(project, run, core::RunStatus::Finished, {}, 2.5, 100, final);
  return run;
}

}  // namespace

class RunNotesTest : public QObject {
  Q_OBJECT

 private Q_SLOTS:
  void nameAndNotesAreStoredWithTheRun() {
    test::Scratch scratch;
    const auto file = scratch.path("p.latent");
    std::int64_t run = 0, other = 0;
    {
      core::Project project(file);
      const auto dataset = test::addCorpus(project, "toy", {"alpha beta"});
      run = notesRun(project, dataset, "lda-gibbs", {{"topics", 5}}, nlohmann::json::object());
      other = notesRun(project, dataset, "lda-gibbs", {{"topics", 6}}, nlohmann::json::object());
      QCOMPARE(core::loadRun(project, run).name, std::string());
      QCOMPARE(core::loadRun(project, run).notes, std::string());
      QCOMPARE(core::setRunName(project, run, "  K = 5,\nfirst try  "), std::string("K = 5, first try"));
      core::setRunNotes(project, run, "Topics too broad.\nTry K = 20 next.\n\n");
    }
    core::Project project(file, core::Project::Access::ReadOnly);
    const auto back = core::loadRun(project, run);
    QCOMPARE(back.name, std::string("K = 5, first try"));
    QCOMPARE(back.notes, std::string("Topics too broad.\nTry K = 20 next."));
    QCOMPARE(core::loadRun(project, other).name, std::string());  // only the run asked for
    const auto listed = core::listRuns(project);
    QCOMPARE(listed.front().name, back.name);
  }

  // A file of schema 13 gains the columns on opening; its runs have no name and no notes.
  void schemaThirteenFilesGainNamesAndNotes() {
    test::Scratch scratch;
    const auto file = scratch.path("v13.latent");
    std::int64_t run = 0;
    {
      core::Project project(file);
      const auto dataset = test::addCorpus(project, "toy", {"alpha beta"});
      run = notesRun(project, dataset, "unigram", {}, nlohmann::json::object());
      project.db().exec("ALTER TABLE run_matrices DROP COLUMN element");  // 015
      project.db().exec("ALTER TABLE runs DROP COLUMN name; ALTER TABLE runs DROP COLUMN notes");
      project.db().exec("PRAGMA user_version = 13");
    }
    core::Project project(file);
    QCOMPARE(project.schemaVersion(), core::Project::latestSchemaVersion());
    QCOMPARE(core::loadRun(project, run).name, std::string());
    QCOMPARE(core::loadRun(project, run).notes, std::string());
    core::setRunName(project, run, "migrated");
    QCOMPARE(core::loadRun(project, run).name, std::string("migrated"));
  }

  void anEmptyNameTakesItAway() {
    test::Scratch scratch;
    core::Project project(scratch.path("p.latent"));
    const auto dataset = test::addCorpus(project, "toy", {"alpha beta"});
    const auto run = notesRun(project, dataset, "unigram", {}, nlohmann::json::object());
    core::setRunName(project, run, "baseline");
    QCOMPARE(core::setRunName(project, run, " \t "), std::string());
    QCOMPARE(core::loadRun(project, run).name, std::string());
  }

  void refusedForAnUnknownRunOrALongName() {
    test::Scratch scratch;
    core::Project project(scratch.path("p.latent"));
    const auto dataset = test::addCorpus(project, "toy", {"alpha beta"});
    const auto run = notesRun(project, dataset, "unigram", {}, nlohmann::json::object());
    QVERIFY_THROWS_EXCEPTION(core::UsageError, core::setRunName(project, run + 10, "x"));
    QVERIFY_THROWS_EXCEPTION(core::UsageError, core::setRunNotes(project, run + 10, "x"));
    QVERIFY_THROWS_EXCEPTION(core::UsageError,
                             core::setRunName(project, run, std::string(core::kRunNameLength + 1, 'a')));
    QCOMPARE(core::loadRun(project, run).name, std::string());
    core::setRunName(project, run, std::string(core::kRunNameLength, 'a'));
    QCOMPARE(core::loadRun(project, run).name.size(), core::kRunNameLength);
  }

  void comparisonKeepsOnlyTheOptionsThatDiffer() {
    test::Scratch scratch;
    core::Project project(scratch.path("p.latent"));
    const auto dataset = test::addCorpus(project, "toy", {"alpha beta"});
    const auto elsewhere = test::addCorpus(project, "other", {"gamma delta"});
    notesRun(project, dataset, "lda-gibbs", {{"topics", 5}, {"alpha", 0.1}, {"iterations", 100}},
             {{"perplexity", 900.5}, {"coherence", -1.5}, {"by_slice", {{"1990", 1.0}}}});
    notesRun(project, dataset, "lda-gibbs", {{"topics", 10}, {"alpha", 0.1}, {"iterations", 100}},
             {{"perplexity", 850.0}, {"log_joint_by_restart", {1.0, 2.0, 3.0, 4.0}}});
    notesRun(project, dataset, "lda-vb", {{"topics", 10}, {"alpha", 0.1}, {"iterations", 100}, {"tolerance", 1e-4}},
             {{"perplexity", 870.0}});
    notesRun(project, elsewhere, "lda-gibbs", {{"topics", 50}, {"alpha", 0.5}}, {{"other_metric", 1.0}});
    const auto comparison = core::compareDatasetRuns(project, dataset);
    QCOMPARE(comparison.runs.size(), std::size_t{3});
    // topics differs; alpha and iterations are the same in all three; tolerance only one run has.
    QCOMPARE(comparison.differingOptions, (std::vector<std::string>{"topics", "tolerance"}));
    QCOMPARE(comparison.metrics, (std::vector<std::string>{"coherence", "perplexity", "log_joint_by_restart"}));
    QVERIFY_THROWS_EXCEPTION(core::UsageError, core::compareDatasetRuns(project, elsewhere + 10));
  }

  void oneRunHasNothingThatDiffers() {
    core::RunRecord only;
    only.options = {{"topics", 5}};
    const auto comparison = core::compareRuns({only});
    QVERIFY(comparison.differingOptions.empty());
    QVERIFY(core::compareRuns({}).runs.empty());
  }
};

LATENT_TEST_CASE(RunNotesTest)
#include "tst_run_notes.moc"
