// SPDX-License-Identifier: GPL-3.0-or-later
// The Relations page of a multi-relational irm run on Sampson's eight relations at T4 with one node
// feature (000 Fig. 27.26): there for irm-multi runs only, one panel per relation and one for the
// features, each drawing exactly the graph's links (the features' values) in the run's node order
// and feature clusters. With LATENT_UI_SHOTS=DIR set, also saves the page as PNG into DIR.
#include <QDir>
#include <QTabWidget>
#include <QtTest>

#include "core/jobs/fit_job.hpp"
#include "core/jobs/samples.hpp"
#include "core/store/graph_store.hpp"
#include "dark_palette.hpp"
#include "test_case.hpp"
#include "test_support.hpp"
#include "ui/runs/blocks/block_run_data.hpp"
#include "ui/runs/blocks/membership_page.hpp"
#include "ui/runs/blocks/relation_matrices_view.hpp"
#include "ui/runs/blocks/relations_page.hpp"
#include "ui/runs/run_view.hpp"
#include "ui/util/settings.hpp"
#include "ui_test_data.hpp"

using namespace latent;

class TestRelationsPage : public QObject {
  Q_OBJECT

  std::unique_ptr<test::Scratch> m_scratch;
  std::filesystem::path m_file;
  qint64 m_multi = 0, m_single = 0;

 private Q_SLOTS:
  void initTestCase() {
    test::isolateSettings();
    ui::appSettings().clear();
    m_scratch = std::make_unique<test::Scratch>();
    m_file = m_scratch->path("relations.latent");
    {
      core::Project project(m_file);
      core::importSample(project, "sampson-relations");
    }
    core::RunRequest request;
    request.model = "irm-multi";
    request.dataset = "sampson-relations";
    request.options = {{"iterations", 100}, {"features", "cloisterville,fate"}};
    request.heldout = 0.0;
    request.seed = 1;
    m_multi = core::runFit(m_file, request, nullptr, {}).run.id;
    request.model = "irm";
    request.options = {{"iterations", 50}};
    m_single = core::runFit(m_file, request, nullptr, {}).run.id;
  }

  void onlyForMultiRelationalRuns() {
    ui::RunView single(m_file, m_single);
    QVERIFY(test::waitFor([&] { return single.isSettled() && single.page<ui::MembershipPage>(); }));
    QVERIFY(!single.page<ui::RelationsPage>());
    ui::RunView multi(m_file, m_multi);
    QVERIFY(test::waitFor([&] { return multi.isSettled() && multi.page<ui::RelationsPage>(); }));
    // The page the run opens on.
    QCOMPARE(multi.pages()->currentWidget(), static_cast<QWidget*>(multi.page<ui::RelationsPage>()));
    QVERIFY(multi.page<ui::RelationsPage>()->captionText().contains(QStringLiteral("8 relations")));
  }

  void panelsDrawTheRelationsInBlockOrder() {
    ui::RunView view(m_file, m_multi);
    view.resize(1500, 700);
    QVERIFY(test::waitFor([&] { return view.isSettled() && view.page<ui::RelationsPage>(); }));
    auto* page = view.page<ui::RelationsPage>();
    const auto* matrices = page->view();
    const auto& panels = matrices->panels();
    QCOMPARE(panels.size(), std::size_t{9});
    core::Project project(m_file, core::Project::Access::ReadOnly);
    const auto graph = core::loadGraph(project, project.findDataset("sampson-relations")->id);
    QCOMPARE(graph.relationCount(), std::size_t{8});
    // The run's node order: row i is node order[i]; every link is drawn where its nodes are, and
    // nothing else.
    const auto& loaded = *page;
    QVERIFY(loaded.data());
    const auto& order = loaded.data()->nodeOrder;
    std::vector<int> position(order.size());
    for (std::size_t i = 0; i < order.size(); ++i) position[static_cast<std::size_t>(order[i])] = static_cast<int>(i);
    for (std::size_t r = 0; r < 8; ++r) {
      QCOMPARE(panels[r].title, QString::fromStdString(graph.relationNames[r]));
      int drawn = 0;
      for (const auto& row : panels[r].cells)
        for (const auto v : row) drawn += v == 1;
      QCOMPARE(drawn, static_cast<int>(graph.relationEdges(r).size()));
      for (const auto& e : graph.relationEdges(r))
        QCOMPARE(int(panels[r].cells[static_cast<std::size_t>(position[static_cast<std::size_t>(e.source)])]
                                    [static_cast<std::size_t>(position[static_cast<std::size_t>(e.target)])]),
                 1);
      QCOMPARE(panels[r].columnStarts, loaded.data()->blockStarts);
    }
    // The features: cloisterville (0/1) and one indicator per fate, columns grouped by cluster.
    const auto& features = panels[8];
    QCOMPARE(loaded.data()->featureNames.size(), 5);
    QCOMPARE(features.cells.front().size(), std::size_t{5});
    const auto cloister = *graph.attributeIndex("cloisterville");
    const auto& featureOrder = matrices->featureOrder();
    const auto column =
        static_cast<std::size_t>(std::find(featureOrder.begin(), featureOrder.end(), 0) - featureOrder.begin());
    for (std::size_t v = 0; v < graph.nodeCount(); ++v)
      QCOMPARE(int(features.cells[static_cast<std::size_t>(position[v])][column]),
               graph.attributes[cloister][v] == "1" ? 1 : 0);
    for (std::size_t c = 1; c < featureOrder.size(); ++c)
      QVERIFY(loaded.data()->featureBlocks[static_cast<std::size_t>(featureOrder[c - 1])] <=
              loaded.data()->featureBlocks[static_cast<std::size_t>(featureOrder[c])]);

    const QString dir = qEnvironmentVariable("LATENT_UI_SHOTS");
    if (!dir.isEmpty()) {
      view.show();
      QTest::qWait(300);
      QVERIFY(view.grab().save(QDir(dir).filePath(QStringLiteral("sampson-relations.png"))));
      view.setPalette(test::darkPalette());
      QTest::qWait(300);
      QVERIFY(view.grab().save(QDir(dir).filePath(QStringLiteral("sampson-relations-dark.png"))));
    }
  }
};

LATENT_TEST_CASE(TestRelationsPage)
#include "tst_relations_page.moc"
