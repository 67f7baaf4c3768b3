// SPDX-License-Identifier: GPL-3.0-or-later
// A damaged or crafted project file is answered with an InputError naming the table and the row
// (the command line's exit 2), never with a crash: the cases the hostile tester found, one by one.
// tests/jobs/tst_project_file_fuzz.cpp damages projects at random.
#include <QtTest>

#include <unistd.h>

#include <cstring>
#include <fstream>
#include <limits>

#include "core/data/graph.hpp"
#include "core/data/ratings.hpp"
#include "core/store/corpus_store.hpp"
#include "core/store/graph_store.hpp"
#include "core/store/project.hpp"
#include "core/store/ratings_store.hpp"
#include "core/util/errors.hpp"
#include "test_case.hpp"
#include "test_datasets.hpp"
#include "test_support.hpp"

using namespace latent;

namespace {

// The message of the InputError `body` throws ("" when it throws none).
template <typename F>
std::string damageMessage(F&& body) {
  try {
    body();
  } catch (const core::InputError& e) {
    return e.what();
  }
  return {};
}

bool contains(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

std::int64_t addTinyCorpus(core::Project& project) {
  return test::addCorpus(project, "texts", {"apples and pears", "pears and plums", "plums and apples"});
}

// Overwrites the first 4-byte word id of document 1 with `value`.
void setFirstWordId(core::Project& project, std::int64_t dataset, std::uint32_t value) {
  auto read = project.db().prepare("SELECT word_ids FROM tokens WHERE dataset_id = ?1 AND doc_index = 1");
  read.bind(1, dataset);
  QVERIFY(read.step());
  const auto blob = read.blob(0);
  std::vector<std::byte> bytes(blob.begin(), blob.end());
  std::memcpy(bytes.data(), &value, sizeof value);
  auto write = project.db().prepare("UPDATE tokens SET word_ids = ?1 WHERE dataset_id = ?2 AND doc_index = 1");
  write.bindBlob(1, bytes.data(), bytes.size()).bind(2, dataset).run();
}

core::Graph triangle() {
  core::Graph g;
  g.nodeIds = {"a", "b", "c"};
  g.nodeNames = g.nodeIds;
  g.edges = {{0, 1, 1.0}, {1, 2, 1.0}, {0, 2, 1.0}};
  return g;
}

}  // namespace

class DamagedProjectTest : public QObject {
  Q_OBJECT

 private Q_SLOTS:
  void wordIdsOutsideTheVocabularyAreRefused() {
    for (const std::uint32_t value : {0xFFFFFFFFu, 0x7FFFFFFFu, 4u}) {
      test::Scratch scratch;
      core::Project project(scratch.path("p.latent"));
      const auto id = addTinyCorpus(project);
      setFirstWordId(project, id, value);
      const auto message = damageMessage([&] { core::loadCorpus(project, id); });
      QVERIFY2(contains(message, "damaged project: table tokens, dataset " + std::to_string(id) + ", document 1"),
               message.c_str());
      QVERIFY2(contains(message, "word id " + std::to_string(value) + " is outside"), message.c_str());
      // The reader's path to one document checks the same.
      QVERIFY(contains(damageMessage([&] { core::loadDocument(project, id, 1); }), "table tokens"));
    }
  }

  void spansOutsideTheTextAreRefused() {
    test::Scratch scratch;
    core::Project project(scratch.path("p.latent"));
    const auto id = addTinyCorpus(project);
    const std::uint32_t far[] = {0, 1000, 1001};
    auto write = project.db().prepare("UPDATE tokens SET span_ends = ?1 WHERE dataset_id = ?2 AND doc_index = 0");
    write.bindBlob(1, far, sizeof far).bind(2, id).run();
    QVERIFY(contains(damageMessage([&] { core::loadDocument(project, id, 0); }), "lies outside the document"));
  }

  void aMissingVocabularyRowIsRefused() {
    test::Scratch scratch;
    core::Project project(scratch.path("p.latent"));
    const auto id = addTinyCorpus(project);
    project.db().prepare("DELETE FROM vocabulary WHERE dataset_id = ?1 AND word_id = 1").bind(1, id).run();
    QVERIFY(contains(damageMessage([&] { core::loadCorpus(project, id); }), "table vocabulary"));
  }

  void edgesOutsideTheNodesAreRefused() {
    test::Scratch scratch;
    core::Project project(scratch.path("p.latent"));
    core::Transaction tx(project.db());
    const auto id = project.createDataset("g", core::DataKind::Graph, "memory", "edges", nlohmann::json::object());
    core::writeGraph(project, id, triangle());
    tx.commit();
    project.db()
        .prepare("UPDATE edges SET target = 100 WHERE dataset_id = ?1 AND source = 0 AND target = 1")
        .bind(1, id)
        .run();
    const auto message = damageMessage([&] { core::loadGraph(project, id); });
    QVERIFY2(contains(message, "table edges") && contains(message, "target 100 is outside the 3 nodes"),
             message.c_str());
    project.db()
        .prepare("UPDATE edges SET target = 1, weight = ?2 WHERE dataset_id = ?1 AND target = 100")
        .bind(1, id)
        .bind(2, std::numeric_limits<double>::infinity())
        .run();
    QVERIFY(contains(damageMessage([&] { core::loadGraph(project, id); }), "not a finite number"));
  }

  void ratingsOutsideTheUsersAndItemsAreRefused() {
    test::Scratch scratch;
    core::Project project(scratch.path("p.latent"));
    core::Ratings ratings;
    ratings.userIds = {"u1", "u2"};
    ratings.itemIds = {"i1", "i2"};
    ratings.itemNames = ratings.itemIds;
    ratings.ratings = {{0, 0, 4.0, 0}, {1, 1, 3.0, 0}, {0, 1, 5.0, 0}};
    core::Transaction tx(project.db());
    const auto id = project.createDataset("r", core::DataKind::Ratings, "memory", "csv", nlohmann::json::object());
    core::writeRatings(project, id, ratings);
    tx.commit();
    project.db().prepare("UPDATE ratings SET item_index = 100000 WHERE dataset_id = ?1 AND seq = 2").bind(1, id).run();
    const auto message = damageMessage([&] { core::loadRatings(project, id); });
    QVERIFY2(contains(message, "table ratings, dataset " + std::to_string(id) + ", rating 2") &&
                 contains(message, "item_index 100000 is outside the 2 items"),
             message.c_str());
  }

  void aSummaryThatIsNotJsonLeavesTheRestUsable() {
    test::Scratch scratch;
    core::Project project(scratch.path("p.latent"));
    const auto id = addTinyCorpus(project);
    test::addCorpus(project, "sound", {"one text"});
    project.db().prepare("UPDATE datasets SET summary = 'nope' WHERE id = ?1").bind(1, id).run();
    const auto datasets = project.datasets();
    QCOMPARE(datasets.size(), std::size_t{2});
    QCOMPARE(datasets[0].damage, std::string("summary is not a JSON object"));
    QVERIFY(datasets[0].summary.is_object());
    QVERIFY(datasets[1].damage.empty());
    QVERIFY(contains(damageMessage([&] { core::loadCorpus(project, id); }), "table datasets, row id"));
    QCOMPARE(core::loadCorpus(project, datasets[1].id).documentCount(), std::size_t{1});
  }

  void aCorruptPageRefusesWritingButNotReading() {
    test::Scratch scratch;
    const auto file = scratch.path("p.latent");
    std::int64_t edgesRoot = 0, pageSize = 0;
    {
      core::Project project(file);
      addTinyCorpus(project);
      edgesRoot = project.db().queryInteger("SELECT rootpage FROM sqlite_master WHERE name = 'edges'");
      pageSize = project.db().queryInteger("PRAGMA page_size");
    }
    {
      // A b-tree page whose header claims an impossible number of cells, in a table that neither
      // listing datasets nor importing a corpus reads.
      std::fstream f(file, std::ios::in | std::ios::out | std::ios::binary);
      f.seekp((edgesRoot - 1) * pageSize);
      const char header[] = {0x0d, 0x00, 0x00, 0x7f, 0x7f, 0x00, 0x00};
      f.write(header, sizeof header);
    }
    const auto message = damageMessage([&] { core::Project writer(file); });
    QVERIFY2(contains(message, "damaged"), message.c_str());
    core::Project reader(file, core::Project::Access::ReadOnly);
    QCOMPARE(reader.datasets().size(), std::size_t{1});
  }

  void aTruncatedProjectIsCalledSo() {
    test::Scratch scratch;
    const auto file = scratch.path("p.latent");
    {
      core::Project project(file);
      addTinyCorpus(project);
    }
    std::filesystem::resize_file(file, std::filesystem::file_size(file) / 2);
    for (const auto access : {core::Project::Access::ReadOnly, core::Project::Access::ReadWrite}) {
      const auto message = damageMessage([&] { core::Project project(file, access); });
      QVERIFY2(contains(message, "damaged or truncated project"), message.c_str());
    }
  }

  void aProjectInAReadOnlyFolderCanBeRead() {
    if (geteuid() == 0) QSKIP("folder permissions do not bind root, which CI runs as");
    test::Scratch scratch;
    const auto folder = scratch.path("shared");
    std::filesystem::create_directory(folder);
    {
      core::Project project(folder / "p.latent");
      addTinyCorpus(project);
    }
    std::filesystem::permissions(folder, std::filesystem::perms::owner_write, std::filesystem::perm_options::remove);
    core::Project reader(folder / "p.latent", core::Project::Access::ReadOnly);
    const auto datasets = reader.datasets();
    std::filesystem::permissions(folder, std::filesystem::perms::owner_write, std::filesystem::perm_options::add);
    QCOMPARE(datasets.size(), std::size_t{1});
  }
};

LATENT_TEST_CASE(DamagedProjectTest)
#include "tst_damaged_project.moc"
