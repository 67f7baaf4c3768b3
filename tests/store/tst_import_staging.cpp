// SPDX-License-Identifier: GPL-3.0-or-later
// Imports write staging rows in short transactions: others read and write the project meanwhile,
// nobody sees the dataset before it is complete, and a failed, cancelled or killed import leaves
// no dataset and no staging rows behind.
#include <QtTest>

#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <optional>
#include <random>
#include <stop_token>

#include "core/jobs/import_job.hpp"
#include "core/store/corpus_store.hpp"
#include "core/store/dataset_staging.hpp"
#include "core/store/process_owner.hpp"
#include "core/store/project.hpp"
#include "core/util/errors.hpp"
#include "test_case.hpp"
#include "test_datasets.hpp"
#include "test_support.hpp"

using namespace latent;

namespace {

// Several megabytes of one-line documents (seeded words), so that an import writes many staging
// batches and reports its progress several times on the way.
std::string manyDocuments(std::size_t documents) {
  static const char* words[] = {"river", "bank", "money", "loan", "stream", "water", "credit", "shore",
                                "fish",  "boat", "rate",  "debt", "flood",  "mill",  "coin",   "vault"};
  std::mt19937 random(11);
  std::string text;
  for (std::size_t d = 0; d < documents; ++d) {
    for (int w = 0; w < 8; ++w) {
      text += words[random() % 16];
      text += w == 7 ? '\n' : ' ';
    }
  }
  return text;
}

constexpr std::size_t kDocuments = 60000;  // about 3 MB: several staging batches, several progress calls

// What the project holds, read through the store API plus the raw row counts of every table.
struct Contents {
  std::vector<std::string> datasets;  // each dataset as JSON, summary included
  std::vector<std::int64_t> rows;     // datasets (staging ones too), documents, tokens, vocabulary

  bool operator==(const Contents&) const = default;
};

Contents contents(const std::filesystem::path& file) {
  core::Project project(file, core::Project::Access::ReadOnly);
  Contents c;
  for (const auto& d : project.datasets()) {
    nlohmann::json j = {{"id", d.id},           {"name", d.name},        {"kind", core::toString(d.kind)},
                        {"source", d.source},   {"format", d.format},    {"options", d.options},
                        {"summary", d.summary}, {"created", d.createdAt}};
    for (const auto& doc : core::listDocuments(project, d.id))
      j["documents"].push_back({doc.id, doc.title, doc.tokenCount});
    c.datasets.push_back(j.dump());
  }
  for (const char* table : {"datasets", "documents", "tokens", "vocabulary"})
    c.rows.push_back(project.db().queryInteger(std::string("SELECT count(*) FROM ") + table));
  return c;
}

std::int64_t stagingDatasets(core::Project& project) {
  return project.db().queryInteger("SELECT count(*) FROM datasets WHERE status = 'staging'");
}

core::CorpusImportRequest linesRequest(const std::string& name, const std::filesystem::path& source) {
  core::CorpusImportRequest r;
  r.name = name;
  r.source = source;
  r.read.format = core::CorpusFormat::Lines;
  r.stopWords = "none";
  return r;
}

}  // namespace

class ImportStagingTest : public QObject {
  Q_OBJECT

 private Q_SLOTS:
  void init() {
    m_scratch.emplace();
    m_file = m_scratch->path("shared.latent");
    m_big = m_scratch->write("big.txt", manyDocuments(kDocuments));
    core::Project p(m_file);
    m_toy = test::addCorpus(p, "toy", {"alpha beta gamma", "beta gamma delta"});
  }

  // Halfway through the import another connection reads and writes the project (with no busy
  // timeout at all: a lock held by the import would fail it at once), does not see the dataset
  // being imported, and finds its name taken.
  void othersReadAndWriteDuringAnImport() {
    core::Project project(m_file);
    bool checked = false;
    core::ImportControl control;
    control.progress = [&](std::uint64_t done, std::uint64_t total) {
      if (checked || done < total / 2) return;
      checked = true;
      core::Project other(m_file);
      other.db().setBusyTimeout(std::chrono::milliseconds(0));
      QCOMPARE(stagingDatasets(other), std::int64_t{1});  // written in batches already
      QCOMPARE(other.datasets().size(), std::size_t{1});  // ... but only "toy" is visible
      QVERIFY(!other.findDataset("big").has_value());
      QVERIFY(other.db().queryInteger("SELECT count(*) FROM documents WHERE dataset_id <> " + std::to_string(m_toy)) >
              0);
      QVERIFY_THROWS_EXCEPTION(core::UsageError, core::checkDatasetNameFree(other, "big"));
      QCOMPARE(core::loadCorpus(other, m_toy).documentCount(), std::size_t{2});
      other.renameDataset(m_toy, "toy renamed");
      other.renameDataset(m_toy, "toy");
      core::Transaction tx(other.db());  // BEGIN IMMEDIATE
      other.setDatasetSummary(m_toy, {{"documents", 2}, {"touched", true}});
      tx.commit();
    };
    const auto result = core::importCorpus(project, linesRequest("big", m_big), control);
    QVERIFY(checked);
    QCOMPARE(result.dataset.summary["documents"].get<std::int64_t>(), static_cast<std::int64_t>(kDocuments));
    QCOMPARE(stagingDatasets(project), std::int64_t{0});
    QCOMPARE(project.datasets().size(), std::size_t{2});
    QCOMPARE(project.dataset(m_toy).summary["touched"].get<bool>(), true);
    QCOMPARE(core::listDocuments(project, result.dataset.id).size(), kDocuments);
    QCOMPARE(core::loadCorpus(project, result.dataset.id).documentCount(), kDocuments);
  }

  // Bad input found after several batches were written: they are deleted again.
  void failingHalfwayLeavesNothing() {
    const auto before = contents(m_file);
    const auto bad = m_scratch->write("bad.txt", manyDocuments(kDocuments) + "Caf\xe9 society\n");
    std::int64_t stagingSeen = 0;
    {
      core::Project project(m_file);
      core::ImportControl control;
      control.progress = [&](std::uint64_t, std::uint64_t) {
        stagingSeen = std::max(stagingSeen, stagingDatasets(project));
      };
      try {
        core::importCorpus(project, linesRequest("bad", bad), control);
        QFAIL("expected an InputError");
      } catch (const core::InputError& e) {
        QCOMPARE(e.line(), static_cast<std::int64_t>(kDocuments + 1));
      }
      QCOMPARE(stagingDatasets(project), std::int64_t{0});
    }
    QCOMPARE(stagingSeen, std::int64_t{1});  // the import had written staging rows
    QCOMPARE(contents(m_file), before);
  }

  void cancellingHalfwayLeavesNothing() {
    const auto before = contents(m_file);
    {
      core::Project project(m_file);
      std::stop_source stop;
      std::int64_t stagingSeen = 0;
      core::ImportControl control;
      control.stop = stop.get_token();
      control.progress = [&](std::uint64_t done, std::uint64_t total) {
        stagingSeen = std::max(stagingSeen, stagingDatasets(project));
        if (done >= total / 2) stop.request_stop();
      };
      QVERIFY_THROWS_EXCEPTION(core::Cancelled, core::importCorpus(project, linesRequest("big", m_big), control));
      QCOMPARE(stagingSeen, std::int64_t{1});
      QCOMPARE(stagingDatasets(project), std::int64_t{0});
    }
    QCOMPARE(contents(m_file), before);
  }

  // Two imports of one name: the second fails cleanly while the first is being written, and
  // afterwards, and the first is not disturbed.
  void twoImportsOfOneName() {
    const auto small = m_scratch->write("small.txt", "one two three\nfour five six\n");
    core::Project project(m_file);
    bool tried = false;
    core::ImportControl control;
    control.progress = [&](std::uint64_t done, std::uint64_t total) {
      if (tried || done < total / 2) return;
      tried = true;
      core::Project other(m_file);
      try {
        core::importCorpus(other, linesRequest("same", small));
        QFAIL("expected a UsageError");
      } catch (const core::UsageError& e) {
        QVERIFY2(std::string(e.what()).find("being imported") != std::string::npos, e.what());
      }
      QVERIFY_THROWS_EXCEPTION(core::UsageError, other.createDataset("same", core::DataKind::Corpus, "x", "lines", {}));
      QVERIFY_THROWS_EXCEPTION(core::UsageError, other.renameDataset(m_toy, "same"));
    };
    const auto first = core::importCorpus(project, linesRequest("same", m_big), control);
    QVERIFY(tried);
    QCOMPARE(first.dataset.summary["documents"].get<std::int64_t>(), static_cast<std::int64_t>(kDocuments));
    try {
      core::importCorpus(project, linesRequest("same", small));
      QFAIL("expected a UsageError");
    } catch (const core::UsageError& e) {
      QVERIFY2(std::string(e.what()).find("already exists") != std::string::npos, e.what());
    }
    QCOMPARE(project.datasets().size(), std::size_t{2});
    QCOMPARE(stagingDatasets(project), std::int64_t{0});
  }

  // A process killed in the middle of an import leaves staging rows; the next opening for
  // writing removes them, and the name can be used again.
  void killedImportIsCleanedOnOpen() {
    const auto before = contents(m_file);
    const pid_t child = fork();
    if (child == 0) {
      // The child dies (no destructors, no rollback) once its import has written batches.
      try {
        core::Project project(m_file);
        core::ImportControl control;
        control.progress = [&](std::uint64_t done, std::uint64_t total) {
          if (done >= total / 2 && stagingDatasets(project) == 1) _exit(0);
        };
        core::importCorpus(project, linesRequest("big", m_big), control);
      } catch (...) {
      }
      _exit(1);
    }
    QVERIFY(child > 0);
    int status = 0;
    waitpid(child, &status, 0);
    QVERIFY(WIFEXITED(status));
    QCOMPARE(WEXITSTATUS(status), 0);
    {
      // A plain read-only connection sees what the killed import left.
      core::Database raw(m_file, core::Database::Mode::ReadOnly);
      QCOMPARE(raw.queryInteger("SELECT count(*) FROM datasets WHERE status = 'staging'"), std::int64_t{1});
      QVERIFY(raw.queryInteger("SELECT count(*) FROM documents") > before.rows[1]);
    }
    QCOMPARE(contents(m_file).datasets, before.datasets);  // never visible
    {
      core::Project reopened(m_file);
      QCOMPARE(stagingDatasets(reopened), std::int64_t{0});
    }
    QCOMPARE(contents(m_file), before);
    core::Project project(m_file);
    QCOMPARE(core::importCorpus(project, linesRequest("big", m_big)).dataset.name, std::string("big"));
  }

  // Staging rows of a live import elsewhere are kept; those of a finished import of this
  // process (one that could not delete its rows) are removed.
  void onlyAbandonedStagingIsRemoved() {
    {
      core::Project p(m_file);
      p.db().exec(
          "INSERT INTO datasets (name, kind, source, format, created_at, status, owner_pid, owner_host, owner_import) "
          "VALUES ('elsewhere', 'corpus', 's', 'lines', 't', 'staging', 1, 'another-machine', 1)");
      p.db()
          .prepare(
              "INSERT INTO datasets (name, kind, source, format, created_at, status, owner_pid, owner_host, "
              "owner_import) "
              "VALUES ('left here', 'corpus', 's', 'lines', 't', 'staging', ?1, ?2, -5)")
          .bind(1, static_cast<std::int64_t>(getpid()))
          .bind(2, core::hostName())
          .run();
      const auto left = p.db().lastInsertId();
      p.db()
          .prepare("INSERT INTO documents (dataset_id, doc_index, external_id, title) VALUES (?1, 0, '1', 'x')")
          .bind(1, left)
          .run();
    }
    core::Project p(m_file);
    QCOMPARE(stagingDatasets(p), std::int64_t{1});
    QCOMPARE(p.db().queryInteger("SELECT count(*) FROM datasets WHERE name = 'elsewhere'"), std::int64_t{1});
    QCOMPARE(p.db().queryInteger("SELECT count(*) FROM documents WHERE dataset_id <> " + std::to_string(m_toy)),
             std::int64_t{0});
    QCOMPARE(p.datasets().size(), std::size_t{1});
  }

 private:
  std::optional<test::Scratch> m_scratch;
  std::filesystem::path m_file, m_big;
  std::int64_t m_toy = 0;
};

LATENT_TEST_CASE(ImportStagingTest)
#include "tst_import_staging.moc"
