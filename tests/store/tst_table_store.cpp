// SPDX-License-Identifier: GPL-3.0-or-later
// Numeric tables in the project file: bit-exact round trips, staged writes that leave nothing
// behind when discarded, and the migration that admits the 'table' kind into older files.
#include <QtTest>

#include <bit>
#include <cmath>
#include <fstream>
#include <iterator>
#include <limits>
#include <numbers>

#include "core/store/dataset_staging.hpp"
#include "core/store/project.hpp"
#include "core/store/run_store.hpp"
#include "core/store/table_store.hpp"
#include "test_case.hpp"
#include "test_support.hpp"

using namespace latent;

namespace {

// Values whose text forms would not survive a decimal round trip unchanged, and signed zero.
core::NumericTable awkwardTable(bool labels) {
  core::NumericTable t;
  t.featureNames = {"a", "b, with comma", "ü"};
  t.rowNames = {"r1", "r2", "r3", "r4"};
  t.values.resize(4, 3);
  t.values << 0.1, -0.0, 1e-310,                                           //
      std::numeric_limits<double>::max(), std::nextafter(1.0, 2.0), -2.5,  //
      1.0, 0.0, 1.0,                                                       //
      std::numbers::pi, -1e300, 3.0 / 7.0;
  if (labels) {
    t.labelName = "class";
    t.rowLabels = {"x", "", "y", "x"};
  }
  return t;
}

bool bitIdentical(const Eigen::MatrixXd& a, const Eigen::MatrixXd& b) {
  if (a.rows() != b.rows() || a.cols() != b.cols()) return false;
  for (Eigen::Index c = 0; c < a.cols(); ++c)
    for (Eigen::Index r = 0; r < a.rows(); ++r)
      if (std::bit_cast<std::uint64_t>(a(r, c)) != std::bit_cast<std::uint64_t>(b(r, c))) return false;
  return true;
}

std::int64_t tableRowsOf(core::Project& p, std::int64_t id) {
  auto s = p.db().prepare("SELECT count(*) FROM table_rows WHERE dataset_id = ?1");
  s.bind(1, id);
  s.step();
  return s.integer(0);
}

}  // namespace

class TableStoreTest : public QObject {
  Q_OBJECT

 private Q_SLOTS:
  void roundTripIsBitExact_data() {
    QTest::addColumn<bool>("labels");
    QTest::newRow("with labels") << true;
    QTest::newRow("without labels") << false;
  }

  void roundTripIsBitExact() {
    QFETCH(bool, labels);
    test::Scratch scratch;
    const auto table = awkwardTable(labels);
    std::int64_t id = 0;
    {
      core::Project p(scratch.path("t.latent"));
      core::Transaction tx(p.db());
      id = p.createDataset("t", core::DataKind::Table, "src", "csv", nlohmann::json::object());
      core::writeTable(p, id, table);
      tx.commit();
    }
    core::Project p(scratch.path("t.latent"), core::Project::Access::ReadOnly);
    QVERIFY(p.dataset(id).kind == core::DataKind::Table);
    const auto loaded = core::loadTable(p, id);
    QCOMPARE(loaded.featureNames, table.featureNames);
    QCOMPARE(loaded.rowNames, table.rowNames);
    QCOMPARE(loaded.labelName, table.labelName);
    QCOMPARE(loaded.rowLabels, table.rowLabels);
    QCOMPARE(loaded.hasLabels(), labels);
    QVERIFY(bitIdentical(loaded.values, table.values));
    QVERIFY(std::signbit(loaded.values(0, 1)));
  }

  void summaryDescribesTheTable() {
    auto table = awkwardTable(true);
    auto s = core::tableSummary(table);
    QCOMPARE(s.value("rows", 0), 4);
    QCOMPARE(s.value("features", 0), 3);
    QCOMPARE(s.value("binary", true), false);
    QCOMPARE(s.value("label_column", std::string()), std::string("class"));
    QCOMPARE(s.value("labels", 0), 3);
    table.values = table.values.cwiseAbs().cwiseMin(1.0).array().ceil().matrix();
    table.rowLabels.clear();
    table.labelName.clear();
    QVERIFY(table.isBinary());
    s = core::tableSummary(table);
    QCOMPARE(s.value("binary", false), true);
    QVERIFY(!s.contains("label_column"));
  }

  // Written in several staging transactions, then discarded: no row is left.
  void stagedWritesAreDiscardedWhole() {
    test::Scratch scratch;
    core::Project p(scratch.path("s.latent"));
    const auto table = awkwardTable(true);
    std::int64_t id = 0;
    {
      core::StagedDataset staging(p, {"t", core::DataKind::Table, "src", "csv", nlohmann::json::object()});
      QCOMPARE(core::tableRowCount(table), std::size_t{6});  // features, 4 rows, facts
      for (std::size_t first = 0; first < core::tableRowCount(table); first += 2)
        staging.write([&](std::int64_t datasetId) {
          id = datasetId;
          core::writeTableRows(p, datasetId, table, first, 2);
        });
      QCOMPARE(tableRowsOf(p, id), std::int64_t{4});
      QVERIFY(p.datasets().empty());  // staging: not listed
    }
    QCOMPARE(tableRowsOf(p, id), std::int64_t{0});
    QCOMPARE(p.db().queryInteger("SELECT count(*) FROM table_features"), std::int64_t{0});
    QCOMPARE(p.db().queryInteger("SELECT count(*) FROM datasets"), std::int64_t{0});
  }

  void removingATableRemovesItsRows() {
    test::Scratch scratch;
    core::Project p(scratch.path("r.latent"));
    core::Transaction tx(p.db());
    const auto id = p.createDataset("t", core::DataKind::Table, "src", "csv", nlohmann::json::object());
    core::writeTable(p, id, awkwardTable(false));
    tx.commit();
    p.removeDataset(id);
    QCOMPARE(tableRowsOf(p, id), std::int64_t{0});
    QCOMPARE(p.db().queryInteger("SELECT count(*) FROM table_features"), std::int64_t{0});
  }

  // A file of schema 6 (kind limited to corpus, graph, ratings) keeps its datasets and runs and
  // takes tables once migrated; the rebuild of `datasets` cascades nothing.
  void migratesSchemaSixFiles() {
    test::Scratch scratch;
    const auto file = scratch.path("v6.latent");
    {
      core::Database db(file, core::Database::Mode::ReadWrite);
      for (const char* name : {"001_initial.sql", "002_run_owner.sql", "003_token_count_from_tokens.sql",
                               "004_sweeps.sql", "005_topic_labels.sql", "006_import_staging.sql"}) {
        std::ifstream in(test::sample(std::string("../sql/") + name));
        QVERIFY2(in.good(), name);
        db.exec(std::string((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>()));
      }
      db.exec("PRAGMA application_id = 1279349838; PRAGMA user_version = 6");
      db.exec(
          "INSERT INTO datasets (name, kind, source, format, created_at) VALUES ('old', 'graph', 's', 'edges', 't')");
      db.exec(
          "INSERT INTO nodes (dataset_id, node_index, external_id, name) VALUES (1, 0, 'a', 'a'), (1, 1, 'b', 'b')");
      db.exec("INSERT INTO edges (dataset_id, source, target) VALUES (1, 0, 1)");
      db.exec(
          "INSERT INTO runs (dataset_id, model, options, seed, threads, status, app_version, created_at, updated_at) "
          "VALUES (1, 'sbm', '{}', 3, 1, 'finished', '0.0', 't', 't')");
      QVERIFY_THROWS_EXCEPTION(
          core::StoreError,
          db.exec(
              "INSERT INTO datasets (name, kind, source, format, created_at) VALUES ('t', 'table', 's', 'csv', 't')"));
    }
    core::Project p(file);
    QCOMPARE(p.schemaVersion(), core::Project::latestSchemaVersion());
    QCOMPARE(p.datasets().size(), std::size_t{1});
    QCOMPARE(p.datasets().at(0).name, std::string("old"));
    QCOMPARE(p.db().queryInteger("SELECT count(*) FROM edges"), std::int64_t{1});
    QCOMPARE(core::listRuns(p).size(), std::size_t{1});
    QCOMPARE(p.db().queryInteger("PRAGMA foreign_keys"), std::int64_t{1});
    core::Transaction tx(p.db());
    const auto id = p.createDataset("t", core::DataKind::Table, "src", "csv", nlohmann::json::object());
    core::writeTable(p, id, awkwardTable(false));
    tx.commit();
    // Foreign keys still cascade from the rebuilt table.
    p.removeDataset(1);
    QCOMPARE(p.db().queryInteger("SELECT count(*) FROM edges"), std::int64_t{0});
    QCOMPARE(core::listRuns(p).size(), std::size_t{0});
    QCOMPARE(core::loadTable(p, id).rowCount(), std::size_t{4});
  }
};

LATENT_TEST_CASE(TableStoreTest)
#include "tst_table_store.moc"
