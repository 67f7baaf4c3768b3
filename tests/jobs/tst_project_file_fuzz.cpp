// SPDX-License-Identifier: GPL-3.0-or-later
// A project file is untrusted input: a real project (a corpus with its text, a graph, ratings, a
// table, and a run on each) is damaged one row or blob at a time, as a crafted or damaged file
// would be, and then listed, loaded, fitted and exported as the command line does. Every outcome
// must be a result or one of the errors a user is shown (InputError, UsageError, StoreError):
// never a crash (CI runs this under the sanitizers) and never another exception, which the
// command line would report as a failure of the machine with a library's raw message.
#include <QtTest>

#include <cmath>
#include <cstring>
#include <filesystem>
#include <limits>
#include <random>
#include <sstream>
#include <stop_token>
#include <string>
#include <vector>

#include "core/io/run_export.hpp"
#include "core/jobs/fit_job.hpp"
#include "core/jobs/import_job.hpp"
#include "core/store/corpus_store.hpp"
#include "core/store/graph_store.hpp"
#include "core/store/ratings_store.hpp"
#include "core/store/run_store.hpp"
#include "core/store/table_store.hpp"
#include "core/util/errors.hpp"
#include "test_case.hpp"
#include "test_support.hpp"

using namespace latent;

namespace {

const std::filesystem::path kFixtures = LATENT_TEST_FIXTURES;

// The model each kind of dataset is fitted with, for a few iterations.
core::RunRequest quickFit(const core::DatasetInfo& dataset) {
  core::RunRequest request;
  request.dataset = std::to_string(dataset.id);
  request.heldout = 0.2;
  request.evalEvery = 1000;  // scored once, at the end
  switch (dataset.kind) {
    case core::DataKind::Corpus:
      request.model = "lda-gibbs";
      request.options = {{"k", 3}, {"iterations", 3}, {"restarts", 1}};
      break;
    case core::DataKind::Graph:
      request.model = "sbm";
      request.options = {{"k", 2}, {"iterations", 3}, {"restarts", 1}};
      break;
    case core::DataKind::Ratings:
      request.model = "pmf";
      request.options = {{"k", 2}, {"iterations", 3}};
      break;
    case core::DataKind::Table:
      request.model = "rbm-gaussian";
      request.options = {{"k", 2}, {"iterations", 3}};
      break;
  }
  return request;
}

void buildProject(const std::filesystem::path& file) {
  core::Project project(file);
  core::CorpusImportRequest corpus;
  corpus.name = "sotu";
  corpus.source = kFixtures / "corpus" / "sotu_dir";
  core::importCorpus(project, corpus);
  core::GraphImportRequest graph;
  graph.name = "karate";
  graph.source = kFixtures / "graph" / "karate.gml";
  core::importGraph(project, graph);
  core::RatingsImportRequest ratings;
  ratings.name = "ml";
  ratings.source = kFixtures / "ratings" / "ml-100k";
  core::importRatings(project, ratings);
  core::TableImportRequest table;
  table.name = "iris";
  table.source = kFixtures / "table" / "iris.csv";
  table.read.idColumn = "id";
  table.read.labelColumn = "species";
  core::importTable(project, table);
  for (const auto& dataset : project.datasets()) core::runFit(file, quickFit(dataset), nullptr, {});
}

// One damaged cell: a table, one of its rows (by position) and one of its columns.
struct Damage {
  std::string table, column, type, what;
  std::int64_t row = 0;
};

class Damager {
 public:
  explicit Damager(std::uint64_t seed) : m_random(seed) {}

  // Damages one cell of `file` (or removes a row) and says what it did.
  std::string damage(const std::filesystem::path& file) {
    core::Database db(file, core::Database::Mode::ReadWrite);
    // As a crafted file would: the schema's CHECK constraints do not hold.
    db.exec("PRAGMA ignore_check_constraints = ON");
    db.exec("PRAGMA foreign_keys = OFF");
    std::vector<std::string> tables;
    auto list = db.prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'");
    while (list.step()) tables.push_back(list.text(0));
    for (int attempt = 0; attempt < 100; ++attempt) {
      Damage d;
      d.table = pick(tables);
      const auto rows = db.queryInteger("SELECT count(*) FROM \"" + d.table + "\"");
      if (rows == 0) continue;
      d.row = std::uniform_int_distribution<std::int64_t>(0, rows - 1)(m_random);
      std::vector<std::pair<std::string, std::string>> columns;
      std::vector<std::string> key;
      auto info = db.prepare("SELECT name, type, pk FROM pragma_table_info(?1)");
      info.bind(1, d.table);
      while (info.step()) {
        columns.emplace_back(info.text(0), info.text(1));
        if (info.integer(2) > 0) key.push_back(info.text(0));
      }
      const std::string where = whereRow(key, d.row, d.table);
      if (chance(0.05)) {
        db.exec("DELETE FROM \"" + d.table + "\" " + where);
        return "removed row " + std::to_string(d.row) + " of " + d.table;
      }
      const auto& [column, type] = columns[std::uniform_int_distribution<std::size_t>(0, columns.size() - 1)(m_random)];
      d.column = column;
      d.type = type;
      auto read = db.prepare("SELECT \"" + column + "\" FROM \"" + d.table + "\" " + where);
      if (!read.step()) continue;
      auto write = db.prepare("UPDATE OR IGNORE \"" + d.table + "\" SET \"" + column + "\" = ?1 " + where);
      if (type == "BLOB" && !read.isNull(0)) {
        auto bytes = damagedBlob(read.blob(0), d.what);
        write.bindBlob(1, bytes.data(), bytes.size());
      } else if (type == "INTEGER") {
        const auto value = damagedInteger(read.integer(0));
        d.what = std::to_string(value);
        write.bind(1, value);
      } else if (type == "REAL") {
        const auto value = damagedReal();
        d.what = std::to_string(value);
        write.bind(1, value);
      } else {
        d.what = damagedText();
        write.bind(1, d.what);
      }
      try {
        write.run();
      } catch (const core::StoreError&) {
        continue;  // NOT NULL: a constraint SQLite keeps in any file it writes
      }
      return d.table + "." + d.column + " of row " + std::to_string(d.row) + " := " + d.what.substr(0, 60);
    }
    return "nothing";
  }

 private:
  bool chance(double p) { return std::bernoulli_distribution(p)(m_random); }

  template <typename T>
  const T& pick(const std::vector<T>& from) {
    return from[std::uniform_int_distribution<std::size_t>(0, from.size() - 1)(m_random)];
  }

  static std::string whereRow(const std::vector<std::string>& key, std::int64_t row, const std::string& table) {
    std::string columns;
    for (const auto& k : key) columns += (columns.empty() ? "" : ", ") + ("\"" + k + "\"");
    if (columns.empty()) columns = "rowid";
    return "WHERE (" + columns + ") = (SELECT " + columns + " FROM \"" + table + "\" LIMIT 1 OFFSET " +
           std::to_string(row) + ")";
  }

  std::int64_t damagedInteger(std::int64_t value) {
    const std::vector<std::int64_t> values = {-1,
                                              0,
                                              value + 1,
                                              value - 1,
                                              std::numeric_limits<std::int32_t>::max(),
                                              std::int64_t{std::numeric_limits<std::int32_t>::max()} + 1,
                                              std::numeric_limits<std::int32_t>::min(),
                                              std::int64_t{1} << 40,
                                              std::numeric_limits<std::int64_t>::max(),
                                              std::numeric_limits<std::int64_t>::min()};
    return pick(values);
  }

  double damagedReal() {
    const std::vector<double> values = {
        std::numeric_limits<double>::infinity(),  -std::numeric_limits<double>::infinity(), -1.0, 0.0, 1e308, -1e308,
        std::numeric_limits<double>::denorm_min()};
    return pick(values);
  }

  std::string damagedText() {
    const std::vector<std::string> values = {"",
                                             "not json",
                                             "[]",
                                             "null",
                                             "{\"k\": \"x\", \"iterations\": -5}",
                                             "{\"directed\": 3, \"attributes\": [1, 2]}",
                                             "{\"documents\": \"many\", \"binary\": 7}",
                                             "{\"item_attributes\": \"genre\", \"has_time\": \"yes\"}",
                                             "{\"label_name\": 5, \"has_labels\": 1}",
                                             std::string("\x1b[31mred\n\xff\xfe", 11),
                                             "graph",
                                             "running",
                                             std::string(5000, 'x')};
    return pick(values);
  }

  std::vector<std::byte> damagedBlob(std::span<const std::byte> blob, std::string& what) {
    std::vector<std::byte> bytes(blob.begin(), blob.end());
    const auto at = [&](std::size_t width) {
      return bytes.size() < width
                 ? 0
                 : std::uniform_int_distribution<std::size_t>(0, bytes.size() / width - 1)(m_random) * width;
    };
    switch (std::uniform_int_distribution<int>(0, 6)(m_random)) {
      case 0:
        if (!bytes.empty()) bytes[at(1)] ^= std::byte{0x80};
        what = "a bit flipped";
        break;
      case 1:
        bytes.resize(bytes.size() - std::min<std::size_t>(bytes.size(), 1 + at(1) % 7));
        what = "cut short";
        break;
      case 2:
        bytes.resize(bytes.size() + 4, std::byte{0x11});
        what = "4 bytes longer";
        break;
      case 3:
      case 4: {
        const std::uint32_t values[] = {0xFFFFFFFFu, 0x7FFFFFFFu, 0x80000000u, 0x00010000u};
        const auto value = values[std::uniform_int_distribution<int>(0, 3)(m_random)];
        if (bytes.size() >= 4) std::memcpy(bytes.data() + at(4), &value, 4);
        what = "an int32 set to " + std::to_string(value);
        break;
      }
      case 5: {
        const double values[] = {std::nan(""), std::numeric_limits<double>::infinity(), -1e300};
        const auto value = values[std::uniform_int_distribution<int>(0, 2)(m_random)];
        if (bytes.size() >= 8) std::memcpy(bytes.data() + at(8), &value, 8);
        what = "a double set to " + std::to_string(value);
        break;
      }
      default:
        bytes.clear();
        what = "emptied";
    }
    return bytes;
  }

  std::mt19937_64 m_random;
};

bool expected(const std::exception& e) {
  return dynamic_cast<const core::InputError*>(&e) || dynamic_cast<const core::UsageError*>(&e) ||
         dynamic_cast<const core::StoreError*>(&e);
}

// What `latent-cli datasets`, a fit on each dataset and every export of every run do. Returns the
// message of the first unexpected exception, or nothing.
std::string exercise(const std::filesystem::path& file) {
  std::string unexpected;
  const auto attempt = [&](const auto& body) {
    try {
      body();
    } catch (const std::exception& e) {
      if (std::getenv("LATENT_FUZZ_VERBOSE")) qInfo("  %s", e.what());
      if (!expected(e) && unexpected.empty()) unexpected = e.what();
    }
  };
  std::vector<core::DatasetInfo> datasets;
  std::vector<core::RunRecord> runs;
  attempt([&] {
    core::Project project(file, core::Project::Access::ReadOnly);
    datasets = project.datasets();
    runs = core::listRuns(project);
  });
  for (const auto& dataset : datasets) {
    attempt([&] {
      core::Project project(file, core::Project::Access::ReadOnly);
      switch (dataset.kind) {
        case core::DataKind::Corpus:
          core::loadCorpus(project, dataset.id);
          for (const auto& header : core::listDocuments(project, dataset.id))
            core::loadDocument(project, dataset.id, header.index);
          break;
        case core::DataKind::Graph:
          core::loadGraph(project, dataset.id);
          break;
        case core::DataKind::Ratings:
          core::loadRatings(project, dataset.id);
          break;
        case core::DataKind::Table:
          core::loadTable(project, dataset.id);
          break;
      }
    });
    attempt([&] { core::runFit(file, quickFit(dataset), nullptr, {}); });
  }
  for (const auto& run : runs)
    attempt([&] {
      core::Project project(file, core::Project::Access::ReadOnly);
      for (const auto& what : core::availableExports(project, run.id)) {
        attempt([&] {
          std::ostringstream out;
          core::exportRun(project, run.id, what, out);
        });
      }
    });
  return unexpected;
}

}  // namespace

class ProjectFileFuzzTest : public QObject {
  Q_OBJECT

 private Q_SLOTS:
  void damagedProjectsFailCleanly() {
    QTemporaryDir dir;
    const std::filesystem::path base = dir.filePath("base.latent").toStdString();
    buildProject(base);
    QCOMPARE(exercise(base), std::string());
    // LATENT_FUZZ_CASES and LATENT_FUZZ_SEED run more (or other) cases by hand.
    // About 80 ms a case in the optimised build, several times that under the sanitizers.
    const int cases = test::environmentInt("LATENT_FUZZ_CASES", 40);
    Damager damager(static_cast<std::uint64_t>(test::environmentInt("LATENT_FUZZ_SEED", 1)));
    for (int c = 0; c < cases; ++c) {
      // A new name for each case: a process checks a file's pages once (Project::checkIntegrityOnce).
      const std::filesystem::path file = dir.filePath(QString("case-%1.latent").arg(c)).toStdString();
      std::filesystem::copy_file(base, file);
      const auto damage = damager.damage(file);
      qInfo("case %d: %s", c, damage.c_str());
      const auto unexpected = exercise(file);
      for (const char* suffix : {"", "-wal", "-shm"}) std::filesystem::remove(file.string() + suffix);
      if (!unexpected.empty())
        QFAIL(qPrintable(QString("case %1 (%2): %3").arg(c).arg(damage.c_str(), unexpected.c_str())));
    }
  }
};

LATENT_TEST_CASE(ProjectFileFuzzTest)
#include "tst_project_file_fuzz.moc"
