// SPDX-License-Identifier: GPL-3.0-or-later
// The hidden-unit pages of a harmonium fitted to a numeric table (gb-efh on a small 0/1 table with
// row names and a label column; rbm-gaussian on the same table; rbm on Sampson's graph), beside an
// rbm run on a corpus. Checks that the pages
// name the table's columns as the visible units and its rows as the cases, colour the map by the row labels, and that
// the Langevin chain page appears for the run that traced its weights (its curves the stored trace, its table every
// weight's posterior mean and spread, sortable) and not for rbm.
#include <QChart>
#include <QChartView>
#include <QSortFilterProxyModel>
#include <QTabWidget>
#include <QTableView>
#include <QtTest>

#include <fstream>

#include "core/jobs/fit_job.hpp"
#include "core/jobs/import_job.hpp"
#include "core/jobs/samples.hpp"
#include "core/results/hidden_results.hpp"
#include "test_case.hpp"
#include "test_support.hpp"
#include "ui/runs/hidden/activation_map_view.hpp"
#include "ui/runs/hidden/hidden_activations_page.hpp"
#include "ui/runs/hidden/hidden_chain_page.hpp"
#include "ui/runs/hidden/hidden_posterior_model.hpp"
#include "ui/runs/hidden/hidden_run_data.hpp"
#include "ui/runs/hidden/hidden_unit_model.hpp"
#include "ui/runs/hidden/hidden_units_page.hpp"
#include "ui/runs/hidden/hidden_weights_page.hpp"
#include "ui/runs/hidden/weight_heatmap_view.hpp"
#include "ui/runs/run_view.hpp"
#include "ui/util/qt_convert.hpp"
#include "ui/util/settings.hpp"
#include "ui_test_data.hpp"

using namespace latent;

namespace {

constexpr int kTableUnits = 2;
constexpr int kTableColumns = 8;
constexpr int kTableRows = 24;

// Rows of two kinds ("left" switches on the first four columns, "right" the last four), each with
// one column flipped so that no two rows agree; named r01 .. r24, labelled by their kind.
void writeBinaryTable(const std::filesystem::path& file) {
  std::ofstream out(file);
  out << "case,kind";
  for (int c = 0; c < kTableColumns; ++c) out << ",f" << c + 1;
  out << "\n";
  for (int r = 0; r < kTableRows; ++r) {
    const bool left = r % 2 == 0;
    out << "r" << (r < 9 ? "0" : "") << r + 1 << "," << (left ? "left" : "right");
    for (int c = 0; c < kTableColumns; ++c) {
      int v = (c < kTableColumns / 2) == left ? 1 : 0;
      if (c == r % kTableColumns) v = 1 - v;
      out << "," << v;
    }
    out << "\n";
  }
}

}  // namespace

class TestHiddenTableViews : public QObject {
  Q_OBJECT

  std::unique_ptr<test::Scratch> m_scratch;
  std::filesystem::path m_file;
  qint64 m_efhRun = 0, m_rbmRun = 0, m_gaussianRun = 0, m_graphRun = 0;
  Eigen::MatrixXd m_weights, m_weightsSd, m_trace;

  std::unique_ptr<ui::RunView> openView(qint64 run) {
    auto view = std::make_unique<ui::RunView>(m_file, run);
    view->resize(1200, 800);
    view->show();
    [&] {
      QVERIFY(QTest::qWaitForWindowExposed(view.get()));
      QVERIFY(test::waitFor([&] { return view->isSettled(); }));
      QVERIFY(view->page<ui::HiddenUnitsPage>());
    }();
    return view;
  }

 private Q_SLOTS:
  void initTestCase() {
    test::isolateSettings();
    ui::appSettings().clear();
    m_scratch = std::make_unique<test::Scratch>();
    m_file = m_scratch->path("table.latent");
    const auto csv = m_scratch->path("binary.csv");
    writeBinaryTable(csv);
    {
      core::Project project(m_file);
      core::TableImportRequest table;
      table.name = "binary";
      table.source = csv;
      table.read.idColumn = "case";
      table.read.labelColumn = "kind";
      core::importTable(project, table);
      core::importSample(project, "sampson");
      test::addTextCorpus(project, "notes",
                          {{"d1", "One", "cat dog cat puppy"},
                           {"d2", "Two", "fish whale fish boat"},
                           {"d3", "Three", "dog puppy cat leash"},
                           {"d4", "Four", "boat whale wave fish"}});
    }
    core::RunRequest request;
    request.model = "gb-efh";
    request.dataset = "binary";
    request.options = {{"k", kTableUnits}, {"iterations", 40}, {"burn_in", 10}};
    request.seed = 2;
    const auto efh = core::runFit(m_file, request, nullptr, {});
    m_efhRun = efh.run.id;
    m_weights = *core::findMatrix(efh.result.matrices, core::hidden::kWeights);
    const auto* sd = core::findMatrix(efh.result.matrices, core::hidden::kWeightsSd);
    QVERIFY(sd);
    m_weightsSd = *sd;
    m_trace = *core::findMatrix(efh.result.matrices, core::hidden::kWeightTrace);
    QCOMPARE(m_weights.rows(), Eigen::Index{kTableColumns});
    QCOMPARE(m_trace.cols(), Eigen::Index{4});

    request.model = "rbm-gaussian";
    request.options = {{"k", kTableUnits}, {"iterations", 20}};
    m_gaussianRun = core::runFit(m_file, request, nullptr, {}).run.id;

    request.model = "rbm";
    request.dataset = "sampson";
    request.options = {{"k", 2}, {"iterations", 50}};
    m_graphRun = core::runFit(m_file, request, nullptr, {}).run.id;

    request.dataset = "notes";
    request.options = {{"k", 2}, {"iterations", 10}};
    m_rbmRun = core::runFit(m_file, request, nullptr, {}).run.id;
  }

  void pagesNameTheTablesColumnsAndRows() {
    auto view = openView(m_efhRun);
    QCOMPARE(test::runViewTabs(*view).mid(0, 4),
             (QStringList{QStringLiteral("Hidden units"), QStringLiteral("Activations"), QStringLiteral("Weights"),
                          QStringLiteral("Langevin chain")}));
    auto* units = view->page<ui::HiddenUnitsPage>();
    const auto& data = *units->data();
    QVERIFY(data.isTable());
    QCOMPARE(data.wordCount(), kTableColumns);
    for (int c = 0; c < kTableColumns; ++c) QCOMPARE(data.wordText(c), QStringLiteral("f%1").arg(c + 1));
    QVERIFY(units->headerText().contains(QStringLiteral("column")));
    // The table's words are the columns each unit raises most.
    Eigen::Index best = 0;
    m_weights.col(0).maxCoeff(&best);
    QVERIFY(units->model()
                ->index(0, ui::HiddenUnitModel::RaisesColumn)
                .data()
                .toString()
                .startsWith(QStringLiteral("f%1").arg(best + 1)));

    // The cases are the rows, named and labelled as in the table; the map is coloured by label.
    auto* activations = view->page<ui::HiddenActivationsPage>();
    QCOMPARE(data.documentCount(), kTableRows);
    QCOMPARE(data.documentTitle(0), QStringLiteral("r01"));
    QCOMPARE(data.documentTitle(23), QStringLiteral("r24"));
    QCOMPARE(data.documentLabel(1), QStringLiteral("right"));
    QVERIFY(data.hasLabels());
    view->pages()->setCurrentWidget(activations);
    QTest::qWait(20);
    QCOMPARE(activations->map()->pointCount(), kTableRows);
    QCOMPARE(activations->map()->documentColour(0), activations->map()->documentColour(2));
    QVERIFY(activations->map()->documentColour(0) != activations->map()->documentColour(1));
    QVERIFY(activations->documentHeaderText().contains(QStringLiteral("r01")));

    auto* weights = view->page<ui::HiddenWeightsPage>();
    QVERIFY(weights->headerText().contains(QStringLiteral("columns")));
    QCOMPARE(weights->heatmap()->rowCount(), kTableColumns);
  }

  void chainPageShowsTheTraceAndThePosterior() {
    auto view = openView(m_efhRun);
    auto* page = view->page<ui::HiddenChainPage>();
    QVERIFY(page);
    view->pages()->setCurrentWidget(page);
    QTest::qWait(20);
    QCOMPARE(page->burnIn(), 10);
    QVERIFY(page->headerText().contains(QStringLiteral("burn-in")));
    QCOMPARE(page->traceSeriesCount(), 4);
    for (int s = 0; s < 4; ++s) {
      const auto points = page->tracePoints(s);
      QCOMPARE(points.size(), static_cast<qsizetype>(m_trace.rows()));
      for (qsizetype t = 0; t < points.size(); ++t) {
        QCOMPARE(points[t].x(), static_cast<double>(t + 1));
        QCOMPARE(points[t].y(), m_trace(t, s));
      }
    }
    // The last traced W_11 is a draw of the weight the table averages.
    auto* model = page->model();
    QCOMPARE(model->rowCount(), kTableColumns * kTableUnits);
    const int row = 3 * kTableUnits + 1;  // f4, unit 2
    QCOMPARE(model->index(row, ui::HiddenPosteriorModel::VisibleColumn).data().toString(), QStringLiteral("f4"));
    QCOMPARE(model->index(row, ui::HiddenPosteriorModel::UnitColumn).data().toInt(), 2);
    QCOMPARE(model->index(row, ui::HiddenPosteriorModel::MeanColumn).data(ui::kHiddenSortRole).toDouble(),
             m_weights(3, 1));
    QCOMPARE(model->index(row, ui::HiddenPosteriorModel::SdColumn).data(ui::kHiddenSortRole).toDouble(),
             m_weightsSd(3, 1));
    QVERIFY(!page->table()->isColumnHidden(ui::HiddenPosteriorModel::SdColumn));
    // Sorted by spread, the least certain weight comes first.
    page->table()->sortByColumn(ui::HiddenPosteriorModel::SdColumn, Qt::DescendingOrder);
    QCOMPARE(page->table()->model()->index(0, ui::HiddenPosteriorModel::SdColumn).data(ui::kHiddenSortRole).toDouble(),
             m_weightsSd.maxCoeff());
    QVERIFY(page->chartView()->chart()->series().size() >= 4);
  }

  void gaussianRbmPagesNameTheColumnsAndRows() {
    auto view = openView(m_gaussianRun);
    QVERIFY(!view->page<ui::HiddenChainPage>());
    const auto& data = *view->page<ui::HiddenUnitsPage>()->data();
    QVERIFY(data.isTable());
    QCOMPARE(data.wordCount(), kTableColumns);
    QCOMPARE(data.wordText(kTableColumns - 1), QStringLiteral("f%1").arg(kTableColumns));
    QVERIFY(view->page<ui::HiddenUnitsPage>()->headerText().contains(QStringLiteral("standard deviations")));
    auto* activations = view->page<ui::HiddenActivationsPage>();
    view->pages()->setCurrentWidget(activations);
    QTest::qWait(20);
    QCOMPARE(activations->map()->pointCount(), kTableRows);
    QCOMPARE(view->page<ui::HiddenWeightsPage>()->heatmap()->rowCount(), kTableColumns);
  }

  // An rbm on a graph: its nodes are the cases and the visible units, labelled by Sampson's groups.
  void graphRunShowsItsNodes() {
    auto view = openView(m_graphRun);
    const auto& data = *view->page<ui::HiddenUnitsPage>()->data();
    QVERIFY(data.isGraph());
    QCOMPARE(data.wordCount(), 18);
    QCOMPARE(data.documentCount(), 18);
    QCOMPARE(data.wordText(0), QStringLiteral("John Bosco"));
    QCOMPARE(data.documentTitle(0), QStringLiteral("John Bosco"));
    QVERIFY(data.hasLabels());
    QCOMPARE(data.caseNoun(true), QStringLiteral("nodes"));
    QVERIFY(view->page<ui::HiddenUnitsPage>()->headerText().contains(QStringLiteral("node")));
    auto* activations = view->page<ui::HiddenActivationsPage>();
    view->pages()->setCurrentWidget(activations);
    QTest::qWait(20);
    QCOMPARE(activations->map()->pointCount(), 18);
  }

  void noChainPageForRbm() {
    auto view = openView(m_rbmRun);
    QVERIFY(!view->page<ui::HiddenChainPage>());
    QVERIFY(!test::runViewTabs(*view).contains(QStringLiteral("Langevin chain")));
    QVERIFY(!view->page<ui::HiddenUnitsPage>()->data()->isTable());
    QVERIFY(view->page<ui::HiddenUnitsPage>()->headerText().contains(QStringLiteral("word")));
  }
};

LATENT_TEST_CASE(TestHiddenTableViews)
#include "tst_hidden_table_views.moc"
