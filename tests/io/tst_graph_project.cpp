// SPDX-License-Identifier: GPL-3.0-or-later
// Graph import through a project: bad files leave it byte for byte as it was, round trips, cancellation.
#include <QtTest>
#include <stop_token>

#include "core/io/graph_import.hpp"
#include "core/jobs/import_job.hpp"
#include "core/store/graph_store.hpp"
#include "core/store/project.hpp"
#include "core/util/errors.hpp"
#include "graph_test_helpers.hpp"
#include "test_case.hpp"
#include "test_support.hpp"

using namespace latent;
using core::GraphFormat;

namespace {

struct DatasetRow {
  std::int64_t id;
  std::string name, format;
  nlohmann::json summary;
  bool operator==(const DatasetRow&) const = default;
};

std::vector<DatasetRow> listing(const std::filesystem::path& file) {
  core::Project p(file, core::Project::Access::ReadOnly);
  std::vector<DatasetRow> out;
  for (const auto& d : p.datasets()) out.push_back({d.id, d.name, d.format, d.summary});
  return out;
}

core::GraphImportRequest request(const std::string& name, const std::filesystem::path& source,
                                 core::GraphReadOptions read = {}) {
  core::GraphImportRequest r;
  r.name = name;
  r.source = source;
  r.read = std::move(read);
  return r;
}

void compareGraphs(const core::Graph& loaded, const core::Graph& read) {
  QCOMPARE(loaded.directed, read.directed);
  QCOMPARE(loaded.nodeIds, read.nodeIds);
  QCOMPARE(loaded.nodeNames, read.nodeNames);
  QCOMPARE(loaded.attributeNames, read.attributeNames);
  QCOMPARE(loaded.attributes, read.attributes);
  QCOMPARE(loaded.edges, read.edges);
  QCOMPARE(loaded.relationNames, read.relationNames);
  QCOMPARE(loaded.furtherRelations, read.furtherRelations);
}

}  // namespace

class GraphProjectTest : public QObject {
  Q_OBJECT

 private Q_SLOTS:
  void badImportLeavesProjectUnchanged_data() {
    QTest::addColumn<int>("index");
    const auto& cases = test::badGraphCases();
    for (std::size_t i = 0; i < cases.size(); ++i) QTest::newRow(cases[i].name.c_str()) << int(i);
  }
  void badImportLeavesProjectUnchanged() {
    QFETCH(int, index);
    const auto& k = test::badGraphCases()[static_cast<std::size_t>(index)];
    test::Scratch scratch;
    const auto file = scratch.path("p.latent");
    {
      core::Project p(file);
      core::GraphReadOptions read;
      read.nodes = test::sample("karate/nodes.csv");
      const auto result = core::importGraph(p, request("karate", test::sample("karate/edges.csv"), read));
      QCOMPARE(result.dataset.summary.value("edges", 0), 78);
    }
    const auto digest = test::fileDigest(file);
    QVERIFY(!digest.isEmpty());
    const auto before = listing(file);
    QCOMPARE(before.size(), std::size_t{1});

    core::GraphReadOptions options;
    std::filesystem::path nodes;
    const auto path = test::writeBadCase(scratch, k, options, nodes);
    {
      core::Project p(file);
      try {
        core::importGraph(p, request("bad", path, options));
        QFAIL("expected an InputError");
      } catch (const core::InputError& e) {
        QCOMPARE(e.file(), (k.inNodesFile ? nodes : path).string());
        QCOMPARE(e.line(), k.line);
      }
    }
    QCOMPARE(test::fileDigest(file), digest);
    QCOMPARE(listing(file), before);
  }

  // What the project gives back is exactly what the reader produced.
  void roundTrip_data() {
    QTest::addColumn<QString>("source");
    QTest::addColumn<QString>("nodes");
    QTest::addColumn<int>("directed");  // -1 as the file says; 2 directed, by relation
    const auto s = [](const char* p) { return QString::fromStdString(test::sample(p).string()); };
    const auto f = [](const char* p) { return QString::fromStdString(test::fixture(p).string()); };
    QTest::newRow("karate csv") << s("karate/edges.csv") << s("karate/nodes.csv") << -1;
    QTest::newRow("sampson csv directed") << s("sampson/like_t4.csv") << s("sampson/nodes.csv") << 1;
    QTest::newRow("sampson pajek") << f("graph/sampson_like_t4.net") << s("sampson/nodes.csv") << -1;
    QTest::newRow("karate gml") << f("graph/karate.gml") << QString() << -1;
    QTest::newRow("karate graphml") << f("graph/karate.graphml") << s("karate/nodes.csv") << -1;
    QTest::newRow("karate matrix") << f("graph/karate_matrix.csv") << QString() << 1;
    QTest::newRow("sampson relations") << s("sampson/edges.csv") << s("sampson/nodes.csv") << 2;
    QTest::newRow("davis") << s("davis_southern_women/edges.csv") << s("davis_southern_women/nodes.csv") << -1;
  }
  void roundTrip() {
    QFETCH(QString, source);
    QFETCH(QString, nodes);
    QFETCH(int, directed);
    core::GraphReadOptions options;
    options.nodes = nodes.toStdString();
    if (directed >= 0) options.directed = directed >= 1;
    if (directed == 2) {  // several relations: Sampson's eight at T4
      options.relationColumn = "relation";
      options.where = "wave=T4";
    }
    core::GraphReadReport report;
    const auto read = core::readGraph(source.toStdString(), options, core::ImportControl{}, &report);

    test::Scratch scratch;
    const auto file = scratch.path("p.latent");
    std::int64_t id = 0;
    {
      core::Project p(file);
      const auto result = core::importGraph(p, request("g", source.toStdString(), options));
      id = result.dataset.id;
      QCOMPARE(result.notes, report.notes);
      QCOMPARE(result.dataset.format, std::string(core::toString(report.format)));
      QCOMPARE(result.dataset.summary.value("nodes", std::size_t{0}), read.nodeCount());
      QCOMPARE(result.dataset.summary.value("edges", std::size_t{0}), read.edgeCount());
      QCOMPARE(result.dataset.summary.value("directed", !read.directed), read.directed);
      if (!read.relationNames.empty())
        QCOMPARE(result.dataset.summary["relations"].get<std::vector<std::string>>(), read.relationNames);
    }
    core::Project p(file, core::Project::Access::ReadOnly);
    compareGraphs(core::loadGraph(p, id), read);
  }

  void cancelled_data() {
    QTest::addColumn<QString>("source");
    const auto s = [](const char* p) { return QString::fromStdString(test::sample(p).string()); };
    const auto f = [](const char* p) { return QString::fromStdString(test::fixture(p).string()); };
    QTest::newRow("edges") << s("karate/edges.csv");
    QTest::newRow("matrix") << f("graph/karate_matrix.csv");
    QTest::newRow("gml") << f("graph/karate.gml");
    QTest::newRow("graphml") << f("graph/karate.graphml");
    QTest::newRow("pajek") << f("graph/karate.net");
  }
  // A stop requested before or during the read ends it with Cancelled, and the project keeps nothing.
  void cancelled() {
    QFETCH(QString, source);
    std::stop_source stop;
    stop.request_stop();
    core::ImportControl control;
    control.stop = stop.get_token();
    QVERIFY_THROWS_EXCEPTION(core::Cancelled, core::readGraph(source.toStdString(), {}, control));

    test::Scratch scratch;
    const auto file = scratch.path("p.latent");
    { core::Project p(file); }
    const auto digest = test::fileDigest(file);
    {
      core::Project p(file);
      QVERIFY_THROWS_EXCEPTION(core::Cancelled, core::importGraph(p, request("g", source.toStdString()), control));
    }
    QCOMPARE(test::fileDigest(file), digest);
    QVERIFY(listing(file).empty());
  }

  // On a file of several megabytes the stop is seen while reading, not only at the end.
  void cancelledMidway() {
    test::Scratch scratch;
    std::string text;
    for (std::int64_t i = 0; i < 400000; ++i)
      text += std::to_string(i) + "\t" + std::to_string((i * 7919) % 400000 + 1) + "\n";
    const auto path = scratch.write("big.tsv", text);
    std::stop_source stop;
    std::uint64_t firstReport = 0, lastReport = 0, total = 0;
    core::ImportControl control;
    control.stop = stop.get_token();
    control.progress = [&](std::uint64_t done, std::uint64_t all) {
      if (firstReport == 0) firstReport = done;
      lastReport = done;
      total = all;
      stop.request_stop();
    };
    QVERIFY_THROWS_EXCEPTION(core::Cancelled, core::readGraph(path, {}, control));
    QCOMPARE(total, std::uint64_t(text.size()));
    QVERIFY(firstReport > 0);
    QVERIFY(lastReport < total);
    QCOMPARE(firstReport, lastReport);  // the first report's stop ended the read
  }
};

LATENT_TEST_CASE(GraphProjectTest)
#include "tst_graph_project.moc"
