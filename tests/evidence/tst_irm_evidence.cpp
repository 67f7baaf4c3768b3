// SPDX-License-Identifier: GPL-3.0-or-later
// Evidence for the IRM (issue 4): it finds the planted number of blocks on generated block-model
// graphs, one type (undirected and directed, assortative and not) and two types (a planted
// co-clustering of a bipartite graph), and it co-clusters the Davis Southern Women without mixing
// women and events.
#include <QtTest>

#include <map>
#include <set>

#include "core/data/synthetic_graph.hpp"
#include "core/eval/link_metrics.hpp"
#include "core/jobs/fit_job.hpp"
#include "core/jobs/samples.hpp"
#include "core/models/fit_data.hpp"
#include "core/models/network/block_model_results.hpp"
#include "core/models/network/irm.hpp"
#include "core/store/graph_store.hpp"
#include "core/util/clock.hpp"
#include "core/util/random.hpp"
#include "quiet_observer.hpp"
#include "result_matrix.hpp"
#include "test_case.hpp"
#include "test_support.hpp"

using namespace latent;

namespace {

std::vector<int> blocksOf(const core::FitResult& result) {
  const auto& b = test::resultMatrix(result, core::kBlocks);
  std::vector<int> out(static_cast<std::size_t>(b.rows()));
  for (Eigen::Index v = 0; v < b.rows(); ++v) out[static_cast<std::size_t>(v)] = static_cast<int>(b(v, 0));
  return out;
}

core::FitResult fitIrm(const core::Graph& graph, std::uint64_t seed,
                       const nlohmann::json& options = nlohmann::json::object(), double heldout = 0.0) {
  const core::PreparedData prepared(graph, heldout, seed);
  const core::FitData& data = prepared.data();
  core::FitSettings settings;
  settings.options = core::resolveOptions(core::irmModel().info(), options);
  settings.seed = seed;
  test::QuietObserver quiet;
  return core::irmModel().make()->fit(data, settings, quiet, {});
}

// A planted co-clustering: rows (type "row") and columns (type "column"), a row of block k linked to
// a column of block l with probability B(k, l). Attribute "block" holds the planted block ("r0",
// "c2", ...), so the model's NMI is computed over both sides.
struct PlantedBipartite {
  core::Graph graph;
  std::vector<int> blocks;  // rows' blocks 0..Kr-1, columns' Kr..Kr+Kc-1
};

// Directed: rows link to columns by B and columns to rows by `back` (Kc x Kr), a second relation
// on the same two partitions (000 eq. 27.83).
PlantedBipartite plantedBipartite(const std::vector<int>& rowSizes, const std::vector<int>& columnSizes,
                                  const Eigen::MatrixXd& B, const Eigen::MatrixXd* back, std::uint64_t seed) {
  PlantedBipartite out;
  auto& g = out.graph;
  g.directed = back != nullptr;
  g.attributeNames = {"type", "block"};
  g.attributes.resize(2);
  const auto addSide = [&](const std::vector<int>& sizes, const char* type, const char* prefix, int offset) {
    for (std::size_t k = 0; k < sizes.size(); ++k)
      for (int m = 0; m < sizes[k]; ++m) {
        g.nodeIds.push_back(std::string(prefix) + std::to_string(g.nodeIds.size()));
        g.nodeNames.push_back(g.nodeIds.back());
        g.attributes[0].push_back(type);
        g.attributes[1].push_back(std::string(prefix) + std::to_string(k));
        out.blocks.push_back(offset + static_cast<int>(k));
      }
  };
  addSide(rowSizes, "row", "r", 0);
  const int rows = static_cast<int>(g.nodeIds.size());
  addSide(columnSizes, "column", "c", static_cast<int>(rowSizes.size()));
  core::Rng rng(seed);
  const int kr = static_cast<int>(rowSizes.size());
  const int n = static_cast<int>(g.nodeIds.size());
  for (int r = 0; r < rows; ++r)
    for (int c = rows; c < n; ++c) {
      const int kRow = out.blocks[static_cast<std::size_t>(r)], kColumn = out.blocks[static_cast<std::size_t>(c)] - kr;
      if (rng.uniform() < B(kRow, kColumn)) g.edges.push_back({r, c, 1.0});
      if (back && rng.uniform() < (*back)(kColumn, kRow)) g.edges.push_back({c, r, 1.0});
    }
  std::sort(g.edges.begin(), g.edges.end(), [](const core::Edge& a, const core::Edge& b) {
    return a.source != b.source ? a.source < b.source : a.target < b.target;
  });
  return out;
}

}  // namespace

class IrmEvidenceTest : public QObject {
  Q_OBJECT

 private Q_SLOTS:
  // Clear block structure: IRM is not told K and must find it.
  void findsPlantedBlocksOfOneType_data() {
    QTest::addColumn<int>("blocks");
    QTest::addColumn<bool>("directed");
    QTest::addColumn<bool>("assortative");
    QTest::addColumn<int>("seed");
    for (int seed = 1; seed <= 2; ++seed) {
      QTest::addRow("4 blocks, 200 nodes, undirected assortative #%d", seed) << 4 << false << true << seed;
      QTest::addRow("4 blocks, 240 nodes, directed cycle #%d", seed) << 4 << true << false << seed + 10;
      QTest::addRow("6 blocks, 300 nodes, undirected assortative #%d", seed) << 6 << false << true << seed + 20;
      QTest::addRow("6 blocks, 360 nodes, directed cycle #%d", seed) << 6 << true << false << seed + 30;
    }
  }

  void findsPlantedBlocksOfOneType() {
    QFETCH(int, blocks);
    QFETCH(bool, directed);
    QFETCH(bool, assortative);
    QFETCH(int, seed);
    const int perBlock = assortative ? 50 : 60;
    // Assortative: dense blocks, sparse between. Cycle (000 Fig. 27.18): block k links mostly to
    // k + 1, a pattern a community detector cannot see but a block model can.
    Eigen::MatrixXd B = Eigen::MatrixXd::Constant(blocks, blocks, 0.03);
    for (int k = 0; k < blocks; ++k) {
      if (assortative)
        B(k, k) = 0.3;
      else
        B(k, (k + 1) % blocks) = 0.35;
    }
    const auto truth = core::generateSbmGraph(std::vector<int>(static_cast<std::size_t>(blocks), perBlock), B, directed,
                                              static_cast<std::uint64_t>(seed));
    const core::Stopwatch clock;
    const auto result = fitIrm(truth.graph, static_cast<std::uint64_t>(seed));
    const auto found = result.finalMetrics["blocks"].get<int>();
    const double nmi = core::normalizedMutualInformation(blocksOf(result), truth.blocks);
    qInfo("%d nodes, %zu links: %d blocks found, NMI %.4f, %.2f s", blocks * perBlock, truth.graph.edgeCount(), found,
          nmi, clock.seconds());
    QCOMPARE(found, blocks);
    QVERIFY2(nmi >= 0.95, qPrintable(QString::number(nmi)));
    // The reported NMI against the planted "block" attribute agrees.
    QVERIFY(std::abs(result.finalMetrics["nmi"].get<double>() - nmi) < 1e-12);
    QCOMPARE(test::resultMatrix(result, core::kBlockMatrix).rows(), Eigen::Index{blocks});
  }

  // Unequal blocks in a dominance hierarchy (000 Fig. 27.20): block k links to every later block.
  void findsUnequalBlocksOfAHierarchy() {
    for (const std::uint64_t seed : {5, 6}) {
      Eigen::MatrixXd B = Eigen::MatrixXd::Constant(4, 4, 0.02);
      for (int k = 0; k < 4; ++k)
        for (int l = k + 1; l < 4; ++l) B(k, l) = 0.3;
      const auto truth = core::generateSbmGraph({20, 40, 60, 80}, B, true, seed);
      const auto result = fitIrm(truth.graph, seed);
      const double nmi = core::normalizedMutualInformation(blocksOf(result), truth.blocks);
      qInfo("hierarchy of blocks of 20, 40, 60, 80 nodes: %d blocks, NMI %.4f",
            result.finalMetrics["blocks"].get<int>(), nmi);
      QCOMPARE(result.finalMetrics["blocks"].get<int>(), 4);
      QVERIFY(nmi >= 0.95);
    }
  }

  // No structure (every pair linked with the same probability): one block, not many small ones.
  void findsOneBlockWithoutStructure() {
    for (const std::uint64_t seed : {1, 2}) {
      for (const bool directed : {false, true}) {
        const auto flat = core::generateSbmGraph({300}, Eigen::MatrixXd::Constant(1, 1, 0.05), directed, seed);
        const auto result = fitIrm(flat.graph, seed);
        QCOMPARE(result.finalMetrics["blocks"].get<int>(), 1);
      }
    }
  }

  void findsPlantedCoClustering_data() {
    QTest::addColumn<bool>("directed");
    QTest::addColumn<int>("seed");
    QTest::addRow("undirected #1") << false << 1;
    QTest::addRow("undirected #2") << false << 2;
    QTest::addRow("directed #3") << true << 3;
    QTest::addRow("directed #4") << true << 4;
  }

  // Rows in 3 blocks, columns in 4: each side is found with its own number of blocks.
  void findsPlantedCoClustering() {
    QFETCH(bool, directed);
    QFETCH(int, seed);
    Eigen::MatrixXd B(3, 4);
    B << 0.6, 0.1, 0.05, 0.3,  //
        0.1, 0.5, 0.05, 0.3,   //
        0.05, 0.1, 0.6, 0.02;
    // Directed: links back from columns to rows follow another pattern on the same blocks.
    Eigen::MatrixXd back(4, 3);
    back << 0.05, 0.4, 0.05,  //
        0.3, 0.05, 0.05,      //
        0.05, 0.05, 0.05,     //
        0.05, 0.05, 0.4;
    const auto truth = plantedBipartite({40, 50, 30}, {30, 25, 20, 25}, B, directed ? &back : nullptr,
                                        static_cast<std::uint64_t>(seed));
    const core::Stopwatch clock;
    const auto result = fitIrm(truth.graph, static_cast<std::uint64_t>(seed));
    const double nmi = core::normalizedMutualInformation(blocksOf(result), truth.blocks);
    qInfo("%s co-clustering 120 x 100, %zu links: %d row blocks, %d column blocks, NMI %.4f, %.2f s",
          directed ? "directed" : "undirected", truth.graph.edgeCount(), result.finalMetrics["blocks_rows"].get<int>(),
          result.finalMetrics["blocks_columns"].get<int>(), nmi, clock.seconds());
    QCOMPARE(result.finalMetrics["types"].get<int>(), 2);
    QCOMPARE(result.finalMetrics["blocks_rows"].get<int>(), 3);
    QCOMPARE(result.finalMetrics["blocks_columns"].get<int>(), 4);
    QVERIFY2(nmi >= 0.95, qPrintable(QString::number(nmi)));
    // No block mixes rows and columns, and the block matrix is zero within a type.
    const auto blocks = blocksOf(result);
    const auto& type = test::resultMatrix(result, core::kNodeType);
    const auto& M = test::resultMatrix(result, core::kBlockMatrix);
    std::map<int, std::set<int>> typesOfBlock;
    for (std::size_t v = 0; v < blocks.size(); ++v)
      typesOfBlock[blocks[v]].insert(static_cast<int>(type(static_cast<Eigen::Index>(v), 0)));
    for (const auto& [block, types] : typesOfBlock) QCOMPARE(types.size(), std::size_t{1});
    for (const auto& [k, tk] : typesOfBlock)
      for (const auto& [l, tl] : typesOfBlock)
        if (*tk.begin() == *tl.begin()) QCOMPARE(M(k, l), 0.0);
  }

  // The classic two-mode network, through the whole runtime: 18 women and 14 events.
  void coClustersDavisSouthernWomen() {
    test::Scratch scratch;
    const auto file = scratch.path("davis.latent");
    {
      core::Project p(file);
      core::importSample(p, "davis");
    }
    core::RunRequest request;
    request.model = "irm";
    request.dataset = "davis";
    request.seed = 7;
    const auto outcome = core::runFit(file, request, nullptr, {});
    QVERIFY(outcome.run.status == core::RunStatus::Finished);
    const auto& result = outcome.result;
    QCOMPARE(result.finalMetrics["types"].get<int>(), 2);
    core::Project p(file, core::Project::Access::ReadOnly);
    const auto graph = core::loadGraph(p, p.resolveDataset("davis").id);
    const auto blocks = blocksOf(result);
    const auto typeColumn = graph.attributeIndex("type");
    QVERIFY(typeColumn.has_value());
    std::map<int, std::vector<std::string>> members;
    std::map<int, std::set<std::string>> typesOfBlock;
    for (std::size_t v = 0; v < blocks.size(); ++v) {
      members[blocks[v]].push_back(graph.nodeNames[v]);
      typesOfBlock[blocks[v]].insert(graph.attributes[*typeColumn][v]);
    }
    const int rows = result.finalMetrics["blocks_rows"].get<int>();
    const int columns = result.finalMetrics["blocks_columns"].get<int>();
    qInfo("Davis: %d blocks of women, %d of events", rows, columns);
    for (const auto& [block, names] : members) {
      std::string line;
      for (const auto& n : names) line += (line.empty() ? "" : ", ") + n;
      qInfo("  block %d (%s): %s", block, typesOfBlock[block].begin()->c_str(), line.c_str());
    }
    const auto& M = test::resultMatrix(result, core::kBlockMatrix);
    for (Eigen::Index k = 0; k < M.rows(); ++k) {
      QString row;
      for (Eigen::Index l = 0; l < M.cols(); ++l) row += QString::number(M(k, l), 'f', 2) + " ";
      qInfo("  %s", qPrintable(row));
    }
    for (const auto& [block, types] : typesOfBlock) QCOMPARE(types.size(), std::size_t{1});
    QVERIFY(rows >= 1 && columns >= 1);
    QCOMPARE(static_cast<int>(members.size()) <= rows + columns, true);
  }
};

LATENT_TEST_CASE(IrmEvidenceTest)
#include "tst_irm_evidence.moc"
