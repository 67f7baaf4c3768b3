// SPDX-License-Identifier: GPL-3.0-or-later
// The graph browser and its adjacency preview: the grid is nodes × nodes, marks exactly the
// edges (both ways when undirected, with their weights), and follows the chosen node order.
#include <QTabWidget>
#include <QTableWidget>
#include <QtTest>

#include "core/jobs/samples.hpp"
#include "test_case.hpp"
#include "test_support.hpp"
#include "ui/browsers/adjacency_view.hpp"
#include "ui/browsers/graph_browser.hpp"
#include "ui/widgets/network_canvas.hpp"
#include "ui_test_data.hpp"

using namespace latent;

namespace {

// 5 nodes; group attribute B, A, B, A, C.
core::Graph makeGraph(bool directed) {
  core::Graph g;
  g.directed = directed;
  g.nodeIds = {"n1", "n2", "n3", "n4", "n5"};
  g.nodeNames = {"Ann", "Bob", "Cid", "Dee", "Eve"};
  g.attributeNames = {"group"};
  g.attributes = {{"B", "A", "B", "A", "C"}};
  g.edges = {{0, 2, 1.0}, {1, 3, 2.0}, {2, 4, 1.0}, {3, 4, 0.5}};
  if (directed) g.edges.push_back({4, 0, 3.0});
  return g;
}

// The expected grid in file order, built from the edge list by hand.
QVector<QVector<double>> expected(const core::Graph& g, const std::vector<int>& order) {
  const int n = static_cast<int>(order.size());
  std::vector<int> pos(order.size());
  for (int i = 0; i < n; ++i) pos[static_cast<std::size_t>(order[static_cast<std::size_t>(i)])] = i;
  QVector<QVector<double>> cells(n, QVector<double>(n, 0.0));
  for (const auto& e : g.edges) {
    cells[pos[static_cast<std::size_t>(e.source)]][pos[static_cast<std::size_t>(e.target)]] = e.weight;
    if (!g.directed) cells[pos[static_cast<std::size_t>(e.target)]][pos[static_cast<std::size_t>(e.source)]] = e.weight;
  }
  return cells;
}

int edgeCells(const QVector<QVector<double>>& cells) {
  int n = 0;
  for (const auto& row : cells)
    for (const double v : row) n += v != 0.0 ? 1 : 0;
  return n;
}

}  // namespace

class TestGraphBrowser : public QObject {
  Q_OBJECT

  std::unique_ptr<test::Scratch> m_scratch;
  std::filesystem::path m_file;
  qint64 m_directed = 0, m_undirected = 0;

 private Q_SLOTS:
  void initTestCase() {
    test::isolateSettings();
    m_scratch = std::make_unique<test::Scratch>();
    m_file = m_scratch->path("graphs.latent");
    core::Project project(m_file);
    m_directed = test::addGraph(project, "directed", makeGraph(true));
    m_undirected = test::addGraph(project, "undirected", makeGraph(false));
  }

  void gridMarksExactlyTheEdges() {
    for (const bool directed : {true, false}) {
      ui::GraphBrowser browser(m_file, directed ? m_directed : m_undirected);
      QVERIFY(test::waitLoaded(&browser));
      QVERIFY(browser.errorText().isEmpty());
      const auto& cells = browser.adjacency()->cells();
      QCOMPARE(cells.size(), 5);
      for (const auto& row : cells) QCOMPARE(row.size(), 5);
      const auto g = makeGraph(directed);
      QCOMPARE(cells, expected(g, {0, 1, 2, 3, 4}));
      // Directed: one cell per edge (5); undirected: two per edge (8).
      QCOMPARE(edgeCells(cells), directed ? 5 : 8);
      QCOMPARE(cells[1][3], 2.0);
      QCOMPARE(cells[3][1], directed ? 0.0 : 2.0);
      // Node table: id, name, attribute, degree (in + out).
      auto* nodes = browser.nodeTable();
      QCOMPARE(nodes->rowCount(), 5);
      QCOMPARE(nodes->item(4, 2)->text(), QStringLiteral("Eve"));
      QCOMPARE(nodes->item(4, 3)->text(), QStringLiteral("C"));
      QCOMPARE(nodes->item(4, 4)->data(Qt::DisplayRole).toInt(), directed ? 3 : 2);  // Eve: Cid, Dee (+ Ann)
    }
  }

  void orderByAttributeGroupsTheNodes() {
    ui::GraphBrowser browser(m_file, m_undirected);
    QVERIFY(test::waitLoaded(&browser));
    QVERIFY(browser.setOrderBy(QStringLiteral("group")));
    // Stable sort by group: A (Bob, Dee), B (Ann, Cid), C (Eve).
    const std::vector<int> order{1, 3, 0, 2, 4};
    QCOMPARE(browser.adjacency()->order(), order);
    QCOMPARE(browser.adjacency()->cells(), expected(makeGraph(false), order));
    QVERIFY(!browser.setOrderBy(QStringLiteral("no-such-attribute")));
    QVERIFY(browser.setOrderBy(QString()));  // file order again
    QCOMPARE(browser.adjacency()->order(), (std::vector<int>{0, 1, 2, 3, 4}));
  }

  // The node-link drawing (issue 20): every node and edge drawn, sized by degree, labelled in a small
  // graph, coloured by the attribute the nodes are ordered by with a key under it, and a click on a
  // node selects its row in the table.
  void drawingFollowsTheOrderAttribute() {
    ui::GraphBrowser browser(m_file, m_undirected);
    browser.resize(1000, 700);
    QVERIFY(test::waitLoaded(&browser));
    const auto& drawing = browser.drawing()->drawing();
    QCOMPARE(drawing.positions.rows(), Eigen::Index(5));
    QCOMPARE(drawing.edges.size(), std::size_t(4));
    QCOMPARE(drawing.labels.at(4), QStringLiteral("Eve"));
    QCOMPARE(drawing.nodeSizes.at(4), 1.0);  // Eve and Cid, Dee have the largest degree (2)
    QCOMPARE(drawing.nodeSizes.at(0), 0.5);
    QVERIFY(drawing.nodeColours.empty());  // file order: no attribute, one colour
    QVERIFY(browser.setOrderBy(QStringLiteral("group")));
    const auto& coloured = browser.drawing()->drawing();
    QCOMPARE(coloured.nodeColours.size(), std::size_t(5));
    QCOMPARE(coloured.nodeColours[0], coloured.nodeColours[2]);  // both B
    QVERIFY(coloured.nodeColours[0] != coloured.nodeColours[1]);
    QVERIFY(coloured.nodeColours[4] != coloured.nodeColours[1] && coloured.nodeColours[4] != coloured.nodeColours[0]);
    QVERIFY2(
        browser.drawingLegend().contains(QStringLiteral("B")) && browser.drawingLegend().contains(QStringLiteral("C")),
        qPrintable(browser.drawingLegend()));
    browser.views()->setCurrentIndex(1);
    browser.show();
    QVERIFY(QTest::qWaitForWindowExposed(&browser));
    auto* canvas = browser.drawing();
    QTest::mouseClick(canvas, Qt::LeftButton, {}, canvas->nodePosition(3).toPoint());
    QCOMPARE(browser.nodeTable()->currentRow() >= 0
                 ? browser.nodeTable()->item(browser.nodeTable()->currentRow(), 2)->text()
                 : QString(),
             QStringLiteral("Dee"));
    if (const QString dir = qEnvironmentVariable("LATENT_UI_SHOTS"); !dir.isEmpty())
      QVERIFY(browser.grab().save(QDir(dir).filePath(QStringLiteral("graph-drawing.png"))));
  }

  void screenshotOfSampson() {
    const QString dir = qEnvironmentVariable("LATENT_UI_SHOTS");
    if (dir.isEmpty()) QSKIP("set LATENT_UI_SHOTS=DIR to write a screenshot of Sampson's monks drawn");
    const auto file = m_scratch->path("sampson.latent");
    qint64 id = 0;
    {
      core::Project project(file);
      id = core::importSample(project, "sampson").dataset.id;
    }
    ui::GraphBrowser browser(file, id);
    browser.resize(1200, 760);
    QVERIFY(test::waitLoaded(&browser));
    QVERIFY(browser.setOrderBy(QStringLiteral("group")));
    browser.views()->setCurrentIndex(1);
    browser.show();
    QVERIFY(QTest::qWaitForWindowExposed(&browser));
    QVERIFY(browser.grab().save(QDir(dir).filePath(QStringLiteral("graph-drawing-sampson.png"))));
  }

  void cellsMapToTheirPlaceOnScreen() {
    ui::GraphBrowser browser(m_file, m_directed);
    browser.resize(900, 600);
    QVERIFY(test::waitLoaded(&browser));
    browser.show();
    QVERIFY(QTest::qWaitForWindowExposed(&browser));
    auto* view = browser.adjacency();
    for (int r = 0; r < 5; ++r)
      for (int c = 0; c < 5; ++c) QCOMPARE(view->cellAt(view->cellRect(r, c).center()), QPoint(c, r));
    QCOMPARE(view->cellAt(QPoint(-5, -5)), QPoint(-1, -1));
    // The grid is square and inside the widget.
    const QRect all = view->cellRect(0, 0).united(view->cellRect(4, 4));
    QVERIFY(view->rect().contains(all));
    QVERIFY(qAbs(all.width() - all.height()) <= 2);
  }
};

LATENT_TEST_CASE(TestGraphBrowser)
#include "tst_graph_browser.moc"
