// SPDX-License-Identifier: GPL-3.0-or-later
// The block-model pages of a run: runs stored by hand (memberships, blocks, block matrix, node
// order) so every expected value is known, a live mmsb fit whose Memberships page follows its
// snapshots, and the sampson-mmsb demo.
#include <QDoubleSpinBox>
#include <QSignalSpy>
#include <QTabWidget>
#include <QtTest>

#include <algorithm>
#include <cmath>
#include <numeric>

#include "core/data/synthetic_graph.hpp"
#include "core/models/network/block_model_results.hpp"
#include "core/store/run_store.hpp"
#include "test_case.hpp"
#include "test_support.hpp"
#include "ui/browsers/adjacency_view.hpp"
#include "ui/demo/demo_catalogue.hpp"
#include "ui/demo/demo_driver.hpp"
#include "ui/jobs/job_controller.hpp"
#include "ui/main_window.hpp"
#include "ui/runs/blocks/block_density_view.hpp"
#include "ui/runs/blocks/block_matrix_page.hpp"
#include "ui/runs/blocks/block_run_data.hpp"
#include "ui/runs/blocks/membership_bars_view.hpp"
#include "ui/runs/blocks/membership_page.hpp"
#include "ui/runs/blocks/membership_simplex_view.hpp"
#include "ui/runs/option_form.hpp"
#include "ui/runs/run_panel.hpp"
#include "ui/runs/run_view.hpp"
#include "ui/util/qt_convert.hpp"
#include "ui/util/settings.hpp"
#include "ui/util/topic_colours.hpp"
#include "ui_test_data.hpp"

using namespace latent;

namespace {

// n nodes, node i in block i % k ("G1", "G2", ... as its "group"): every pair inside a block
// linked, and across blocks the pairs whose indices sum to a multiple of 7.
core::Graph plantedGraph(int n, int k, bool directed) {
  core::Graph g;
  g.directed = directed;
  g.attributeNames = {"group"};
  g.attributes.resize(1);
  for (int i = 0; i < n; ++i) {
    g.nodeIds.push_back(std::to_string(i + 1));
    g.nodeNames.push_back("node " + std::to_string(i + 1));
    g.attributes[0].push_back("G" + std::to_string(i % k + 1));
  }
  for (int i = 0; i < n; ++i)
    for (int j = directed ? 0 : i + 1; j < n; ++j)
      if (i != j && (i % k == j % k || (i + j) % 7 == 0)) g.edges.push_back({i, j, 1.0});
  return g;
}

Eigen::MatrixXd column(const std::vector<int>& values) {
  Eigen::MatrixXd m(static_cast<Eigen::Index>(values.size()), 1);
  for (std::size_t i = 0; i < values.size(); ++i) m(static_cast<Eigen::Index>(i), 0) = values[i];
  return m;
}

struct HandRun {
  Eigen::MatrixXd theta, B;
  std::vector<int> blocks, order;
};

// Stores a finished run with the given matrices (iteration -1) and, when `snapshot` >= 0, only
// as that snapshot (a run that was interrupted before its result).
qint64 storeRun(const std::filesystem::path& file, std::int64_t dataset, const std::string& model, const HandRun& r,
                std::int64_t snapshot = -1, const std::vector<int>& nodeType = {},
                const nlohmann::json& metrics = nlohmann::json::object()) {
  core::Project project(file);
  core::RunRecord run;
  run.datasetId = dataset;
  run.model = model;
  run.options = {{"k", r.theta.cols()}};
  run.objectiveName = "training log-likelihood";
  run.heldoutName = "held-out link perplexity";
  const auto id = core::createRun(project, run);
  core::saveMatrix(project, id, core::kMemberships, snapshot, r.theta);
  core::saveMatrix(project, id, core::kBlockMatrix, snapshot, r.B);
  if (snapshot < 0) {
    if (!r.blocks.empty()) core::saveMatrix(project, id, core::kBlocks, -1, column(r.blocks));
    if (!r.order.empty()) core::saveMatrix(project, id, core::kNodeOrder, -1, column(r.order));
    if (!nodeType.empty()) core::saveMatrix(project, id, core::kNodeType, -1, column(nodeType));
  }
  core::finishRun(project, id, snapshot < 0 ? core::RunStatus::Finished : core::RunStatus::Stopped, "", 0.5, 10,
                  metrics);
  return id;
}

// K = 3 on 12 nodes: node i's own block (i % 3) gets 0.6 + 0.02 i, the rest is split 2:1. The
// stored order lists each block's nodes by index, the reverse of their weights, so a view
// that recomputed the order would not match it.
HandRun threeBlocks() {
  HandRun r;
  const int n = 12, k = 3;
  r.theta = Eigen::MatrixXd::Zero(n, k);
  for (int i = 0; i < n; ++i) {
    const double own = 0.6 + 0.02 * i;
    r.theta(i, i % k) = own;
    r.theta(i, (i + 1) % k) = (1 - own) * 2 / 3;
    r.theta(i, (i + 2) % k) = (1 - own) / 3;
    r.blocks.push_back(i % k);
  }
  for (int b = 0; b < k; ++b)
    for (int i = b; i < n; i += k) r.order.push_back(i);
  r.B.resize(3, 3);
  r.B << 0.9, 0.05, 0.1, 0.05, 0.8, 0.02, 0.1, 0.02, 0.7;
  return r;
}

bool settleBlocks(ui::RunView* view, int ms = 30000) {
  return QTest::qWaitFor([&] { return view->isSettled(); }, ms);
}

}  // namespace

class TestBlockViews : public QObject {
  Q_OBJECT

  std::unique_ptr<test::Scratch> m_scratch;
  std::filesystem::path m_file;
  std::int64_t m_graph = 0;
  qint64 m_sbmRun = 0;
  core::Graph m_planted;

 private Q_SLOTS:
  void initTestCase() {
    test::isolateSettings();
    ui::appSettings().clear();
    m_scratch = std::make_unique<test::Scratch>();
    m_file = m_scratch->path("blocks.latent");
    m_planted = plantedGraph(12, 3, false);
    core::Project project(m_file);
    m_graph = test::addGraph(project, "planted", m_planted);
    m_sbmRun = storeRun(m_file, m_graph, "sbm", threeBlocks());
  }

  void blocksPageShowsTheStoredOrderAndBlockMatrix() {
    const HandRun hand = threeBlocks();
    ui::RunView view(m_file, m_sbmRun);
    view.resize(1300, 800);
    view.show();
    QVERIFY(settleBlocks(&view));
    auto* page = view.page<ui::BlockMatrixPage>();
    QVERIFY(page);
    QVERIFY(view.page<ui::MembershipPage>());
    // Both pages come before Training. The page a run opens on follows its memberships, not its
    // model's name: these hand-made ones give no node wholly to one block (each has 0.6 to 0.82
    // of its own), so they are mixed and the Memberships page, their picture, comes up.
    QCOMPARE(view.pages()->currentWidget(), static_cast<QWidget*>(view.page<ui::MembershipPage>()));
    QCOMPARE(view.pages()->tabText(0), QStringLiteral("Blocks"));
    QCOMPARE(view.pages()->tabText(1), QStringLiteral("Memberships"));
    view.pages()->setCurrentWidget(page);  // laid out at its size, for the cells below
    QTest::qWait(50);
    QVERIFY(!page->isAggregated());

    // Left: file order. Middle: the run's node_order, lines where the block changes (4 per block).
    std::vector<int> identity(12);
    std::iota(identity.begin(), identity.end(), 0);
    QCOMPARE(page->fileOrderView()->order(), identity);
    QCOMPARE(page->blockOrderView()->order(), hand.order);
    QCOMPARE(page->blockOrderView()->groupStarts(), (std::vector<int>{4, 8}));
    QVERIFY(page->captionText().contains(QStringLiteral("the run's own order")));
    // The permuted grid: nodes 1 and 4 (0 and 3) are both in block 1 and linked; the cell at
    // (0, 4) joins node 1 with node 2 (block 2), linked only if 0 + 1 were a multiple of 7.
    const auto& cells = page->blockOrderView()->cells();
    QCOMPARE(cells[0][1], 1.0);
    QCOMPARE(cells[0][4], 0.0);
    // Within each block of the permuted matrix every pair is linked: three full squares.
    for (int b = 0; b < 3; ++b)
      for (int r = 4 * b; r < 4 * b + 4; ++r)
        for (int c = 4 * b; c < 4 * b + 4; ++c) QCOMPARE(cells[r][c], r == c ? 0.0 : 1.0);

    // Right: the heat map's cells are the block matrix, sizes and observed links beside them.
    auto* heat = page->blockMatrixView();
    QCOMPARE(heat->rowCount(), 3);
    QCOMPARE(heat->columnCount(), 3);
    for (int r = 0; r < 3; ++r)
      for (int c = 0; c < 3; ++c) QCOMPARE(heat->cellValue(r, c), hand.B(r, c));
    QCOMPARE(heat->scaleMaximum(), 0.9);
    QCOMPARE(heat->grid().rowSizes, (std::vector<std::int64_t>{4, 4, 4}));
    // Links seen between blocks, counted here from the edge list: 6 pairs inside each block.
    Eigen::MatrixXd links = Eigen::MatrixXd::Zero(3, 3);
    for (const auto& e : m_planted.edges) {
      links(e.source % 3, e.target % 3) += 1;
      if (e.source % 3 != e.target % 3) links(e.target % 3, e.source % 3) += 1;
    }
    QCOMPARE(links(0, 0), 6.0);
    QVERIFY(heat->grid().links.isApprox(links));
    QCOMPARE(heat->grid().pairs(0, 0), 6.0);
    QCOMPARE(heat->grid().pairs(0, 1), 16.0);
    // Values are written in cells this large; the densest cell is the palette's highlight colour.
    QVERIFY(heat->showsValues());
    QCOMPARE(heat->colourFor(0.9).rgb(), heat->palette().color(QPalette::Highlight).rgb());
    QCOMPARE(heat->colourFor(0.0).rgb(), heat->palette().color(QPalette::Base).rgb());
    QVERIFY(heat->cellAt(heat->cellRect(2, 1).center()) == QPoint(1, 2));
  }

  void simplexCoordinatesAreTheMemberships() {
    const HandRun hand = threeBlocks();
    ui::RunView view(m_file, m_sbmRun);
    view.resize(1300, 800);
    view.show();
    QVERIFY(settleBlocks(&view));
    view.pages()->setCurrentWidget(view.page<ui::MembershipPage>());
    QTest::qWait(50);
    auto* simplex = view.page<ui::MembershipPage>()->simplex();
    QCOMPARE(simplex->shape(), ui::MembershipSimplexView::Shape::Triangle);
    QCOMPARE(simplex->nodeCount(), 12);
    QVERIFY(!view.page<ui::MembershipPage>()->showsBars());
    for (int i = 0; i < 12; ++i) {
      const auto c = simplex->coordinates(i);
      QCOMPARE(static_cast<int>(c.size()), 3);
      QVERIFY(std::abs(std::accumulate(c.begin(), c.end(), 0.0) - 1.0) < 1e-12);
      QPointF expected(0, 0);
      for (int k = 0; k < 3; ++k) {
        QVERIFY(std::abs(c[static_cast<std::size_t>(k)] - hand.theta(i, k)) < 1e-12);
        expected += hand.theta(i, k) * simplex->vertexPosition(k);
      }
      QVERIFY(QLineF(simplex->nodePosition(i), expected).length() < 1e-6);
      QCOMPARE(simplex->nodeAt(simplex->nodePosition(i)) >= 0, true);
      // Coloured by the graph's "group" (G1, G2, G3 in order of first appearance).
      QCOMPARE(simplex->nodeColour(i), ui::topicColour(i % 3, simplex->palette()));
    }
    // The corners are an equilateral triangle, and a node nearer a corner holds more of it.
    const double side = QLineF(simplex->vertexPosition(0), simplex->vertexPosition(1)).length();
    QVERIFY(std::abs(QLineF(simplex->vertexPosition(1), simplex->vertexPosition(2)).length() - side) < 1e-6);
    QVERIFY(QLineF(simplex->nodePosition(9), simplex->vertexPosition(0)).length() <
            QLineF(simplex->nodePosition(0), simplex->vertexPosition(0)).length());
    QVERIFY(simplex->namedCount() > 0);
    QVERIFY(view.page<ui::MembershipPage>()->headerText().contains(QStringLiteral("final result")));
  }

  void manyBlocksGetBarsSortedByLargestBlock() {
    // K = 5 on 20 nodes: node i's largest block is (3 i) % 5 with weight 0.4 + 0.025 i.
    const int n = 20, k = 5;
    core::Graph g = plantedGraph(n, k, true);
    std::int64_t dataset = 0;
    {
      core::Project project(m_file);
      dataset = test::addGraph(project, "five", g);
    }
    HandRun r;
    r.theta = Eigen::MatrixXd::Zero(n, k);
    for (int i = 0; i < n; ++i) {
      const double top = 0.4 + 0.025 * i;
      const int b = (3 * i) % k;
      for (int j = 0; j < k; ++j) r.theta(i, j) = j == b ? top : (1 - top) / (k - 1);
    }
    r.B = Eigen::MatrixXd::Constant(k, k, 0.05);
    r.B.diagonal().setConstant(0.7);
    const qint64 id = storeRun(m_file, dataset, "mmsb", r);
    ui::RunView view(m_file, id);
    view.resize(1300, 900);
    view.show();
    QVERIFY(settleBlocks(&view));
    // An mmsb run opens on its Memberships page.
    QCOMPARE(view.pages()->currentWidget(), static_cast<QWidget*>(view.page<ui::MembershipPage>()));
    auto* page = view.page<ui::MembershipPage>();
    QCOMPARE(page->simplex()->shape(), ui::MembershipSimplexView::Shape::Polygon);
    QVERIFY(page->showsBars());
    // Expected: by largest block, then by its weight (largest first).
    std::vector<int> expected(n);
    std::iota(expected.begin(), expected.end(), 0);
    std::sort(expected.begin(), expected.end(), [](int a, int b) {
      if ((3 * a) % 5 != (3 * b) % 5) return (3 * a) % 5 < (3 * b) % 5;
      return a > b;  // weight grows with the index
    });
    QCOMPARE(page->bars()->order(), expected);
    QCOMPARE(page->bars()->nodeAt(page->bars()->barRect(0).center()), expected[0]);
    // The blocks on a circle; each node at the membership-weighted mean of their positions.
    auto* simplex = page->simplex();
    QPointF centre(0, 0);
    for (int b = 0; b < k; ++b) centre += simplex->vertexPosition(b) / k;
    const double radius = QLineF(centre, simplex->vertexPosition(0)).length();
    for (int b = 1; b < k; ++b) QVERIFY(std::abs(QLineF(centre, simplex->vertexPosition(b)).length() - radius) < 1e-6);
    for (int i = 0; i < n; ++i) {
      QPointF p(0, 0);
      for (int b = 0; b < k; ++b) p += r.theta(i, b) * simplex->vertexPosition(b);
      QVERIFY(QLineF(simplex->nodePosition(i), p).length() < 1e-6);
    }
    // No stored order: the Blocks page orders by largest membership and says so.
    QVERIFY(view.page<ui::BlockMatrixPage>()->captionText().contains(QStringLiteral("by largest membership")));
    QCOMPARE(view.page<ui::BlockMatrixPage>()->blockMatrixView()->grid().rowAxis, QStringLiteral("from block"));
  }

  void twoBlocksOnALine() {
    HandRun r;
    r.theta.resize(12, 2);
    for (int i = 0; i < 12; ++i) r.theta(i, 1) = i / 11.0, r.theta(i, 0) = 1 - i / 11.0;
    r.B.resize(2, 2);
    r.B << 0.6, 0.1, 0.1, 0.5;
    const qint64 id = storeRun(m_file, m_graph, "irm", r);
    ui::RunView view(m_file, id);
    view.resize(1200, 700);
    view.show();
    QVERIFY(settleBlocks(&view));
    view.pages()->setCurrentWidget(view.page<ui::MembershipPage>());
    QTest::qWait(50);
    auto* simplex = view.page<ui::MembershipPage>()->simplex();
    QCOMPARE(simplex->shape(), ui::MembershipSimplexView::Shape::Line);
    const double left = simplex->vertexPosition(0).x(), right = simplex->vertexPosition(1).x();
    for (int i = 0; i < 12; ++i) {
      QVERIFY(std::abs(simplex->nodePosition(i).x() - (left + (right - left) * i / 11.0)) < 1e-6);
      QVERIFY(simplex->nodePosition(i).y() < simplex->vertexPosition(0).y());  // above the line
    }
  }

  void snapshotOnlyRunShowsItsSnapshot() {
    const HandRun hand = threeBlocks();
    const qint64 id = storeRun(m_file, m_graph, "mmsb", hand, 40);
    const auto loaded = ui::loadBlockRun(m_file, id);
    QVERIFY2(loaded.error.isEmpty(), qPrintable(loaded.error));
    QVERIFY(loaded.data);
    QCOMPARE(loaded.data->iteration, std::int64_t{40});
    QVERIFY(!loaded.data->storedOrder);
    // By largest membership, then by weight: in each block the later nodes (heavier) first.
    QCOMPARE(loaded.data->nodeOrder, (std::vector<int>{9, 6, 3, 0, 10, 7, 4, 1, 11, 8, 5, 2}));
    QCOMPARE(loaded.data->blockStarts, (std::vector<int>{4, 8}));
    // Asked again with what it returned: nothing newer.
    QVERIFY(ui::loadBlockRun(m_file, id, -1, loaded.data).unchanged);
    ui::RunView view(m_file, id);
    view.resize(1200, 800);
    view.show();
    QVERIFY(settleBlocks(&view));
    QCOMPARE(view.page<ui::MembershipPage>()->shownIteration(), qint64{40});
    QVERIFY(view.page<ui::MembershipPage>()->headerText().contains(QStringLiteral("iteration 40")));
    QVERIFY(view.page<ui::BlockMatrixPage>()->captionText().contains(QStringLiteral("iteration 40")));
  }

  void twoTypeRunSaysSo() {
    // 4 women (types 0) and 3 events (type 1); women 1-2 go to events 1-2, women 3-4 to event 3.
    core::Graph g;
    for (const char* name : {"Ann", "Bea", "Cat", "Dot", "Picnic", "Dance", "Fair"}) {
      g.nodeIds.push_back(name);
      g.nodeNames.push_back(name);
    }
    g.edges = {{0, 4, 1}, {0, 5, 1}, {1, 4, 1}, {1, 5, 1}, {2, 6, 1}, {3, 6, 1}};
    std::int64_t dataset = 0;
    {
      core::Project project(m_file);
      dataset = test::addGraph(project, "davis-like", g);
    }
    HandRun r;
    r.blocks = {0, 0, 1, 1, 2, 2, 3};
    r.theta = Eigen::MatrixXd::Zero(7, 4);
    for (int i = 0; i < 7; ++i) r.theta(i, r.blocks[static_cast<std::size_t>(i)]) = 1.0;
    r.order = {1, 0, 3, 2, 5, 4, 6};
    r.B = Eigen::MatrixXd::Zero(4, 4);
    r.B(0, 2) = r.B(2, 0) = 0.9;
    r.B(1, 3) = r.B(3, 1) = 0.9;
    const qint64 id =
        storeRun(m_file, dataset, "irm", r, -1, {0, 0, 0, 0, 1, 1, 1}, {{"type_values", {"woman", "event"}}});
    ui::RunView view(m_file, id);
    view.resize(1200, 800);
    view.show();
    QVERIFY(settleBlocks(&view));
    auto* page = view.page<ui::BlockMatrixPage>();
    // One block per node: the run opens on the permuted adjacency matrix.
    QCOMPARE(view.pages()->currentWidget(), static_cast<QWidget*>(page));
    QCOMPARE(page->blockOrderView()->order(), r.order);
    QCOMPARE(page->blockOrderView()->groupStarts(), (std::vector<int>{2, 4, 6}));
    const QString caption = page->captionText();
    QVERIFY2(caption.contains(QStringLiteral("two-type")), qPrintable(caption));
    QVERIFY2(caption.contains(QStringLiteral("blocks 1, 2 hold")), qPrintable(caption));
    QCOMPARE(page->blockMatrixView()->grid().rowNames.at(2), QStringLiteral("Block 3 · event"));
  }

  void largeGraphsAreDrawnAsDensities() {
    // 2,100 nodes in 3 blocks of 700 (block = index % 3): each node linked to the nodes 3 and 6
    // further on (same block) and to the next one (another block).
    const int n = 2100;
    core::Graph g;
    for (int i = 0; i < n; ++i) g.nodeIds.push_back("v" + std::to_string(i)), g.nodeNames.push_back(g.nodeIds.back());
    for (int i = 0; i < n; ++i)
      for (const int d : {1, 3, 6})
        if (i + d < n) g.edges.push_back({i, i + d, 1.0});
    std::sort(g.edges.begin(), g.edges.end(), [](const auto& a, const auto& b) {
      return std::pair(a.source, a.target) < std::pair(b.source, b.target);
    });
    std::int64_t dataset = 0;
    {
      core::Project project(m_file);
      dataset = test::addGraph(project, "large", g);
    }
    HandRun r;
    r.theta = Eigen::MatrixXd::Zero(n, 3);
    for (int i = 0; i < n; ++i) r.theta(i, i % 3) = 1.0, r.blocks.push_back(i % 3);
    for (int b = 0; b < 3; ++b)
      for (int i = b; i < n; i += 3) r.order.push_back(i);
    r.B = Eigen::MatrixXd::Constant(3, 3, 0.001);
    r.B.diagonal().setConstant(0.004);
    const qint64 id = storeRun(m_file, dataset, "sbm", r);
    ui::RunView view(m_file, id);
    view.resize(1300, 800);
    view.show();
    QVERIFY(settleBlocks(&view));
    auto* page = view.page<ui::BlockMatrixPage>();
    QVERIFY(page->isAggregated());
    QVERIFY(page->captionText().contains(QStringLiteral("too large to draw pair by pair")));
    QCOMPARE(page->fileOrderView()->cells().size(), qsizetype{0});  // no 2,100 x 2,100 grid
    auto* blocks = page->blockOrderDensity();
    QCOMPARE(blocks->rowCount(), 3);
    QCOMPARE(blocks->grid().rowSizes, (std::vector<std::int64_t>{700, 700, 700}));
    // Inside block 1: 699 + 698 links (steps of 3 and 6) among 700 * 699 / 2 pairs.
    QVERIFY(std::abs(blocks->cellValue(0, 0) - (699.0 + 698.0) / (700.0 * 699.0 / 2)) < 1e-12);
    // Blocks 1 and 2 (i % 3 == 0 and 1): the steps of 1 from 0, 3, ... and of 1 from 1, 4, ...
    // reach the other block only from block 1 to 2 (i -> i + 1): 700 links among 700 * 700 pairs.
    QVERIFY(std::abs(blocks->cellValue(0, 1) - 700.0 / (700.0 * 700.0)) < 1e-12);
    // File order in groups of 14 nodes (2,100 / 160 rounded up): 150 groups.
    QCOMPARE(page->fileOrderDensity()->rowCount(), 150);
    QCOMPARE(page->fileOrderDensity()->grid().rowNames.at(1), QStringLiteral("nodes 15–28"));
  }

  void liveMembershipsFollowARunningMmsb() {
    // The page shows the latest snapshot; the default retention deletes it as soon as the next one is
    // written (many a second here), before the test could read it back.
    const test::ScopedEnvironment keepAll("LATENT_KEEP_SNAPSHOTS", "all");
    const auto file = m_scratch->path("live.latent");
    std::int64_t dataset = 0;
    {
      core::Project project(file);
      Eigen::MatrixXd B = Eigen::MatrixXd::Constant(3, 3, 0.03);
      B.diagonal().setConstant(0.5);
      dataset = test::addGraph(project, "mixed", core::generateMmsbGraph(120, B, 0.1, true, 3).graph);
    }
    ui::MainWindow window;
    window.resize(1300, 850);
    window.show();
    QVERIFY(test::openProject(window, ui::fromPath(file)));
    auto* panel = window.runPanel();
    QVERIFY(panel->selectDataset(dataset));
    QVERIFY(panel->selectModel(QStringLiteral("mmsb")));
    // One start (no restart phase), snapshots every 10 sweeps, far more sweeps than the test waits for.
    panel->optionForm()->setValues({{"k", 3}, {"iterations", 200000}, {"restarts", 1}, {"snapshot_every", 10}});
    panel->heldoutBox()->setValue(0.0);
    ui::JobController* controller = panel->start();
    QVERIFY2(controller, qPrintable(panel->errorText()));
    QTRY_VERIFY_WITH_TIMEOUT(controller->hasRun(), 20000);
    ui::RunView* view = window.openRun(controller->runId());
    QVERIFY(view);
    QTRY_VERIFY_WITH_TIMEOUT(
        view->page<ui::MembershipPage>() && view->page<ui::MembershipPage>()->shownIteration() >= 0, 30000);
    auto* page = view->page<ui::MembershipPage>();
    QVERIFY(page->isFollowing());
    // The page appeared with its first snapshot; Blocks waits for the end.
    QVERIFY(view->pages()->indexOf(page) >= 0);
    QVERIFY(!view->page<ui::BlockMatrixPage>());
    QSignalSpy shown(page, &ui::MembershipPage::snapshotShown);
    QElapsedTimer clock;
    clock.start();
    const qint64 first = page->shownIteration();
    QTRY_VERIFY_WITH_TIMEOUT(page->shownIteration() > first, 30000);
    QVERIFY(page->headerText().contains(QStringLiteral("running fit")));
    // What is shown is the stored snapshot of that iteration.
    const qint64 at = page->shownIteration();
    {
      core::Project project(file, core::Project::Access::ReadOnly);
      const auto stored = core::loadMatrix(project, controller->runId(), core::kMemberships, at);
      QVERIFY(stored);
      QVERIFY(page->data()->memberships.isApprox(*stored));
      for (int i = 0; i < 120; i += 17) {
        const auto c = page->simplex()->coordinates(i);
        for (int k = 0; k < 3; ++k) QVERIFY(std::abs(c[static_cast<std::size_t>(k)] - (*stored)(i, k)) < 1e-9);
      }
    }
    // Read at most about twice a second, although snapshots come far more often.
    QTest::qWait(1500);
    const double seconds = clock.elapsed() / 1000.0;
    QVERIFY2(shown.count() <= 2.0 * seconds + 2,
             qPrintable(QStringLiteral("%1 updates in %2 s").arg(shown.count()).arg(seconds)));
    QVERIFY(page->shownIteration() > at);

    controller->requestStop();
    QTRY_VERIFY_WITH_TIMEOUT(controller->state() == ui::JobController::State::Ended, 30000);
    QVERIFY(settleBlocks(view));
    QVERIFY(!page->isFollowing());
    QCOMPARE(page->shownIteration(), qint64{-1});  // the stopped run's final matrices
    QVERIFY(view->page<ui::BlockMatrixPage>());
  }

  void sampsonDemoOpensOnTheMemberships() {
    const auto spec = ui::findDemo(QStringLiteral("sampson-mmsb"));
    QVERIFY(spec);
    QCOMPARE(spec->sample, QStringLiteral("sampson"));
    QCOMPARE(spec->model, QStringLiteral("mmsb"));
    QCOMPARE(spec->heldout, 0.0);
    ui::MainWindow window;
    window.resize(1400, 900);
    window.show();
    auto* driver = new ui::DemoDriver(&window, *spec);
    QSignalSpy finished(driver, &ui::DemoDriver::finished);
    driver->start();
    QVERIFY(finished.wait(120000));
    QVERIFY2(finished.first().at(0).toBool(), qPrintable(finished.first().at(1).toString()));
    auto* view = qobject_cast<ui::RunView*>(window.tabs()->currentWidget());
    QVERIFY(view);
    QCOMPARE(view->run().options["k"].get<int>(), 3);
    QCOMPARE(view->run().heldout, 0.0);
    auto* page = view->page<ui::MembershipPage>();
    QVERIFY(page);
    QCOMPARE(view->pages()->currentWidget(), static_cast<QWidget*>(page));
    const auto& d = *page->data();
    QVERIFY(d.mixed);  // the posterior mean of θ gives no monk wholly to one block
    QVERIFY(page->headerText().contains(QStringLiteral("mixture of blocks")));
    QCOMPARE(d.nodeCount(), 18);
    QCOMPARE(d.labelAttribute, QStringLiteral("group"));
    QCOMPARE(page->simplex()->shape(), ui::MembershipSimplexView::Shape::Triangle);
    // The three factions in three different corners; the waverers less sure than the rest.
    std::map<QString, std::map<int, int>> votes;
    double waverers = 0, others = 0;
    for (int i = 0; i < 18; ++i) {
      const QString group = d.labelNames[d.labels[static_cast<std::size_t>(i)]];
      ++votes[group][d.largest[static_cast<std::size_t>(i)]];
      (group == QStringLiteral("Waverers") ? waverers : others) += d.memberships.row(i).maxCoeff();
    }
    auto majority = [&](const QString& g) {
      return std::max_element(votes[g].begin(), votes[g].end(), [](auto a, auto b) { return a.second < b.second; })
          ->first;
    };
    const int young = majority(QStringLiteral("Young Turks")), loyal = majority(QStringLiteral("Loyal Opposition")),
              outcasts = majority(QStringLiteral("Outcasts"));
    QVERIFY(young != loyal && loyal != outcasts && young != outcasts);
    QVERIFY(waverers / 3 < others / 15);
  }
};

LATENT_TEST_CASE(TestBlockViews)
#include "tst_block_views.moc"
