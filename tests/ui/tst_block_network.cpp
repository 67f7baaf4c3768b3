// SPDX-License-Identifier: GPL-3.0-or-later
// The Network page of a block-model run (issue 20): runs stored by hand so every colour is known.
// A partition colours each node by its block (blocks without a node left out of the key), mixed
// memberships draw each node as a pie of them up to kMaxPieNodes nodes and not above, a node
// attribute colours them instead when chosen, the tooltip names node and block, and the drawing's
// files (GraphML with the blocks, SVG) hold what is shown.
#include <QApplication>
#include <QDir>
#include <QFile>
#include <QMenu>
#include <QTabWidget>
#include <QTimer>
#include <QXmlStreamReader>
#include <QtTest>

#include <cmath>
#include <tuple>

#include "core/jobs/fit_job.hpp"
#include "core/jobs/samples.hpp"
#include "core/models/network/block_model_results.hpp"
#include "core/store/run_store.hpp"
#include "dark_palette.hpp"
#include "test_case.hpp"
#include "test_support.hpp"
#include "ui/runs/blocks/block_density_view.hpp"
#include "ui/runs/blocks/block_matrix_page.hpp"
#include "ui/runs/blocks/block_network_view.hpp"
#include "ui/runs/blocks/block_run_data.hpp"
#include "ui/runs/run_view.hpp"
#include "ui/util/figure_export.hpp"
#include "ui/util/settings.hpp"
#include "ui/util/topic_colours.hpp"
#include "ui/widgets/network_canvas.hpp"
#include "ui_test_data.hpp"

using namespace latent;

namespace {

// n nodes, node i in group i % k ("G1", ...); pairs inside a group linked, and across groups the
// pairs whose indices sum to a multiple of 7. Node 1's name needs escaping in XML.
core::Graph networkPlanted(int n, int k) {
  core::Graph g;
  g.attributeNames = {"group"};
  g.attributes.resize(1);
  for (int i = 0; i < n; ++i) {
    g.nodeIds.push_back(std::to_string(i + 1));
    g.nodeNames.push_back(i == 0 ? std::string("Ann & <Bo>") : "node " + std::to_string(i + 1));
    g.attributes[0].push_back("G" + std::to_string(i % k + 1));
  }
  for (int i = 0; i < n; ++i)
    for (int j = i + 1; j < n; ++j)
      if (i % k == j % k || (i + j) % 7 == 0) g.edges.push_back({i, j, 1.0});
  return g;
}

Eigen::MatrixXd networkColumn(const std::vector<int>& values) {
  Eigen::MatrixXd m(static_cast<Eigen::Index>(values.size()), 1);
  for (std::size_t i = 0; i < values.size(); ++i) m(static_cast<Eigen::Index>(i), 0) = values[i];
  return m;
}

qint64 storeNetworkRun(const std::filesystem::path& file, std::int64_t dataset, const std::string& model,
                       const Eigen::MatrixXd& theta, const std::vector<int>& blocks) {
  core::Project project(file);
  core::RunRecord run;
  run.datasetId = dataset;
  run.model = model;
  run.options = {{"k", theta.cols()}};
  run.objectiveName = "training log-likelihood";
  const auto id = core::createRun(project, run);
  core::saveMatrix(project, id, core::kMemberships, -1, theta);
  Eigen::MatrixXd B = Eigen::MatrixXd::Constant(theta.cols(), theta.cols(), 0.05);
  B.diagonal().setConstant(0.8);
  core::saveMatrix(project, id, core::kBlockMatrix, -1, B);
  if (!blocks.empty()) core::saveMatrix(project, id, core::kBlocks, -1, networkColumn(blocks));
  core::finishRun(project, id, core::RunStatus::Finished, "", 0.5, 10, nlohmann::json::object());
  return id;
}

// K blocks on n nodes, node i wholly in block i % 3 (blocks 3.. hold no node).
Eigen::MatrixXd hardMemberships(int n, int k) {
  Eigen::MatrixXd theta = Eigen::MatrixXd::Zero(n, k);
  for (int i = 0; i < n; ++i) theta(i, i % 3) = 1.0;
  return theta;
}

// Three blocks on n nodes: node i's own block (i % 3) gets 0.5 + 0.4 i / n, the rest split 2:1.
Eigen::MatrixXd mixedMemberships(int n) {
  Eigen::MatrixXd theta = Eigen::MatrixXd::Zero(n, 3);
  for (int i = 0; i < n; ++i) {
    const double own = 0.5 + 0.4 * i / n;
    theta(i, i % 3) = own;
    theta(i, (i + 1) % 3) = (1 - own) * 2 / 3;
    theta(i, (i + 2) % 3) = (1 - own) / 3;
  }
  return theta;
}

ui::BlockNetworkView* openNetwork(ui::RunView& view) {
  view.resize(1100, 800);
  view.show();
  if (!QTest::qWaitFor([&] { return view.isSettled(); }, 30000)) return nullptr;
  auto* network = view.page<ui::BlockNetworkView>();
  if (!network || !QTest::qWaitFor([&] { return network->hasLayout(); }, 30000)) return nullptr;
  view.pages()->setCurrentWidget(network);
  QTest::qWait(50);
  return network;
}

}  // namespace

class TestBlockNetwork : public QObject {
  Q_OBJECT

  std::unique_ptr<test::Scratch> m_scratch;
  std::filesystem::path m_file;
  std::int64_t m_graph = 0;

 private Q_SLOTS:
  void initTestCase() {
    test::isolateSettings();
    ui::appSettings().clear();
    m_scratch = std::make_unique<test::Scratch>();
    m_file = m_scratch->path("network.latent");
    core::Project project(m_file);
    m_graph = test::addGraph(project, "planted", networkPlanted(12, 3));
  }

  // An sbm with K = 4 whose fourth block holds no node: dots coloured by block, the key lists the
  // three blocks with nodes and says one was left out.
  void partitionColoursNodesByBlock() {
    std::vector<int> blocks;
    for (int i = 0; i < 12; ++i) blocks.push_back(i % 3);
    const qint64 id = storeNetworkRun(m_file, m_graph, "sbm", hardMemberships(12, 4), blocks);
    ui::RunView view(m_file, id);
    auto* network = openNetwork(view);
    QVERIFY(network);
    QCOMPARE(view.pages()->tabText(view.pages()->indexOf(network)), QStringLiteral("Network"));
    const auto& drawing = network->canvas()->drawing();
    QCOMPARE(drawing.positions.rows(), Eigen::Index(12));
    QVERIFY(!network->drawsPies());
    // The same colours as the Blocks page: a graph with known groups puts block colours after theirs.
    const auto data = ui::loadBlockRun(m_file, id).data;
    QVERIFY(data && data->hasLabels());
    for (int i = 0; i < 12; ++i)
      QCOMPARE(drawing.nodeColours.at(static_cast<std::size_t>(i)),
               ui::topicColour(data->blockColourIndex(i % 3), network->palette()));
    QVERIFY(drawing.nodeColours[0] != drawing.nodeColours[1]);
    const QString legend = network->legend();
    QVERIFY2(legend.contains(QStringLiteral("Block 1 (4)")) && legend.contains(QStringLiteral("Block 3 (4)")),
             qPrintable(legend));
    QVERIFY2(!legend.contains(QStringLiteral("Block 4")), qPrintable(legend));
    QVERIFY2(legend.contains(QStringLiteral("1 block with no node not shown")), qPrintable(legend));
    const QString tip = network->toolTipFor(4);
    QVERIFY2(tip.contains(QStringLiteral("node 5")) && tip.contains(QStringLiteral("Block 2")), qPrintable(tip));
    QVERIFY2(network->toolTipFor(0).contains(QStringLiteral("Ann &amp; &lt;Bo&gt;")),
             qPrintable(network->toolTipFor(0)));

    // Known groups remain a colouring.
    QVERIFY(network->setColouring(QStringLiteral("group")));
    const auto& byGroup = network->canvas()->drawing();
    QCOMPARE(byGroup.nodeColours[0], byGroup.nodeColours[3]);
    QCOMPARE(byGroup.nodeColours[0], ui::topicColour(0, network->palette()));
    QVERIFY2(network->legend().contains(QStringLiteral("G2")), qPrintable(network->legend()));
    QVERIFY(!network->setColouring(QStringLiteral("no-such-attribute")));
    QVERIFY(network->setColouring(QString()));
    QCOMPARE(network->canvas()->drawing().nodeColours[1],
             ui::topicColour(data->blockColourIndex(1), network->palette()));
  }

  // Issue 20 defect 8: a block no node belongs to is not drawn on the Blocks page as "Block 4 (0)"
  // with a density; the caption says it was left out, and the other blocks keep their numbers.
  void blocksPageLeavesOutEmptyBlocks() {
    std::vector<int> blocks;
    for (int i = 0; i < 12; ++i) blocks.push_back(i % 3);
    Eigen::MatrixXd theta = hardMemberships(12, 4);
    theta.col(0).swap(theta.col(3));  // block 1 empty, nodes in blocks 2-4
    for (int& b : blocks) b = b == 0 ? 3 : b;
    const qint64 id = storeNetworkRun(m_file, m_graph, "sbm", theta, blocks);
    ui::RunView view(m_file, id);
    view.resize(1100, 800);
    view.show();
    QVERIFY(QTest::qWaitFor([&] { return view.isSettled(); }, 30000));
    auto* page = view.page<ui::BlockMatrixPage>();
    QVERIFY(page);
    const auto& grid = page->blockMatrixView()->grid();
    QCOMPARE(grid.values.rows(), Eigen::Index(3));
    QCOMPARE(grid.rowNames, (QStringList{"Block 2", "Block 3", "Block 4"}));
    QCOMPARE(grid.rowSizes, (std::vector<std::int64_t>{4, 4, 4}));
    QCOMPARE(grid.values(0, 0), 0.8);  // block 2 with itself
    QVERIFY2(page->captionText().contains(QStringLiteral("One block has no node")), qPrintable(page->captionText()));
  }

  // Mixed memberships: every node a pie of them, and the files of the context menu.
  void mixedMembershipsDrawPies() {
    const Eigen::MatrixXd theta = mixedMemberships(12);
    const qint64 id = storeNetworkRun(m_file, m_graph, "mmsb", theta, {});
    ui::RunView view(m_file, id);
    auto* network = openNetwork(view);
    QVERIFY(network);
    QVERIFY(network->drawsPies());
    const auto& drawing = network->canvas()->drawing();
    QVERIFY(drawing.pieShares.isApprox(theta));
    QCOMPARE(drawing.pieColours.size(), std::size_t(3));
    QVERIFY2(network->legend().contains(QStringLiteral("pie")), qPrintable(network->legend()));
    const QString tip = network->toolTipFor(0);  // 0.5 in block 1, 0.33 in block 2, 0.17 in block 3
    QVERIFY2(tip.contains(QStringLiteral("Block 1")) && tip.contains(QStringLiteral("Block 2")) &&
                 tip.contains(QStringLiteral("Block 3")),
             qPrintable(tip));

    // GraphML: each node's block (the largest membership) and weights, the drawing's places.
    const QString graphml = QString::fromStdString(m_scratch->path("net.graphml").string());
    QString error;
    QVERIFY2(network->saveNetwork(graphml, core::GraphXmlFormat::GraphMl, &error), qPrintable(error));
    QFile file(graphml);
    QVERIFY(file.open(QIODevice::ReadOnly));
    QXmlStreamReader xml(&file);
    std::map<QString, QString> keyNames;
    QStringList names, blocks, weights2;
    QString key;
    while (!xml.atEnd()) {
      xml.readNext();
      if (!xml.isStartElement()) continue;
      if (xml.name() == QLatin1String("key")) {
        keyNames[xml.attributes().value("id").toString()] = xml.attributes().value("attr.name").toString();
      } else if (xml.name() == QLatin1String("data")) {
        const QString name = keyNames[xml.attributes().value("key").toString()];
        const QString text = xml.readElementText();
        if (name == QLatin1String("name")) names << text;
        if (name == QLatin1String("block")) blocks << text;
        if (name == QLatin1String("block_2")) weights2 << text;
      }
    }
    QVERIFY2(!xml.hasError(), qPrintable(xml.errorString()));
    QCOMPARE(names.size(), 12);
    QCOMPARE(names[0], QStringLiteral("Ann & <Bo>"));
    QCOMPARE(blocks.size(), 12);
    for (int i = 0; i < 12; ++i) {
      QCOMPARE(blocks[i].toInt(), i % 3);
      QVERIFY(std::abs(weights2[i].toDouble() - theta(i, 2)) < 1e-12);
    }

    // SVG of the drawing, from the same menu as PNG: vector text, the node names in it.
    const QString svg = QString::fromStdString(m_scratch->path("net.svg").string());
    QVERIFY2(ui::saveFigure(network->canvas(), svg, &error), qPrintable(error));
    QFile svgFile(svg);
    QVERIFY(svgFile.open(QIODevice::ReadOnly));
    const QByteArray bytes = svgFile.readAll();
    QVERIFY(bytes.contains("<svg"));
    QVERIFY(bytes.contains("node 12"));

    if (const QString dir = qEnvironmentVariable("LATENT_UI_SHOTS"); !dir.isEmpty())
      QVERIFY(view.grab().save(QDir(dir).filePath(QStringLiteral("block-network-mmsb.png"))));
  }

  // The drawing's context menu: the picture as PNG or SVG and the network files.
  void contextMenuOffersPicturesAndNetworkFiles() {
    std::vector<int> blocks;
    for (int i = 0; i < 12; ++i) blocks.push_back(i % 3);
    const qint64 id = storeNetworkRun(m_file, m_graph, "irm", hardMemberships(12, 3), blocks);
    ui::RunView view(m_file, id);
    auto* network = openNetwork(view);
    QVERIFY(network);
    QStringList entries;
    // exec() runs the menu in a loop of its own: read and close it from there.
    QTimer poll;
    poll.setInterval(20);
    connect(&poll, &QTimer::timeout, this, [&] {
      if (auto* menu = qobject_cast<QMenu*>(QApplication::activePopupWidget())) {
        for (const QAction* action : menu->actions())
          if (!action->isSeparator()) entries << action->text();
        menu->close();
      }
    });
    poll.start();
    Q_EMIT network->canvas()->customContextMenuRequested(QPoint(10, 10));
    poll.stop();
    QCOMPARE(entries,
             (QStringList{QStringLiteral("&Copy Image"), QStringLiteral("Save Image as &PNG…"),
                          QStringLiteral("Save Image as &SVG…"), QStringLiteral("Save Network for &Gephi (GEXF)…"),
                          QStringLiteral("Save Network as Graph&ML…")}));
  }

  // Above kMaxPieNodes the pies would be specks: dots by the largest membership, and the key says so.
  void largeGraphsGetNoPies() {
    const int n = ui::kMaxPieNodes + 30;
    std::int64_t dataset = 0;
    {
      core::Project project(m_file);
      dataset = test::addGraph(project, "larger", networkPlanted(n, 3));
    }
    const qint64 id = storeNetworkRun(m_file, dataset, "mmsb", mixedMemberships(n), {});
    ui::RunView view(m_file, id);
    auto* network = openNetwork(view);
    QVERIFY(network);
    QVERIFY(!network->drawsPies());
    QCOMPARE(network->canvas()->drawing().nodeColours.size(), std::size_t(n));
    QVERIFY2(network->legend().contains(QString::number(ui::kMaxPieNodes)), qPrintable(network->legend()));
  }

  // Not a check but pictures for people: Sampson's monks under mmsb (K = 3, pies; also in the dark
  // palette) and Zachary's karate club under sbm (K = 2), each on its Network page, saved into
  // LATENT_UI_SHOTS.
  void screenshotsOfRealFits() {
    const QString dir = qEnvironmentVariable("LATENT_UI_SHOTS");
    if (dir.isEmpty()) QSKIP("set LATENT_UI_SHOTS=DIR to write screenshots of the Network page");
    const auto file = m_scratch->path("real.latent");
    {
      core::Project project(file);
      core::importSample(project, "sampson");
      core::importSample(project, "karate");
    }
    const std::tuple<const char*, const char*, int, const char*, bool> fits[] = {
        {"mmsb", "sampson", 3, "block-network-sampson-mmsb.png", false},
        {"sbm", "karate", 2, "block-network-karate-sbm.png", false},
        {"mmsb", "sampson", 3, "block-network-sampson-mmsb-dark.png", true}};
    const QPalette before = QApplication::palette();
    for (const auto& [model, dataset, k, shot, dark] : fits) {
      QApplication::setPalette(dark ? test::darkPalette() : before);
      core::RunRequest request;
      request.model = model;
      request.dataset = dataset;
      request.options = {{"k", k}};
      const auto id = core::runFit(file, request, nullptr, {}).run.id;
      ui::RunView view(file, id);
      auto* network = openNetwork(view);
      QVERIFY(network);
      view.resize(1200, 860);
      QTest::qWait(100);
      QVERIFY(view.grab().save(QDir(dir).filePath(QString::fromUtf8(shot))));
    }
    QApplication::setPalette(before);
  }
};

LATENT_TEST_CASE(TestBlockNetwork)
#include "tst_block_network.moc"
