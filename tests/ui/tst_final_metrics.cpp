// SPDX-License-Identifier: GPL-3.0-or-later
// The Final metrics table of a run (issue 20, defect 2): a list of values (the starts' log posteriors)
// is summarised in its cell with the whole list in the tooltip, so that the table needs no
// sideways scrolling and every metric's value stays in sight; a metric by part gets a row per part.
#include <QHeaderView>
#include <QTableWidget>
#include <QtTest>

#include "core/jobs/fit_job.hpp"
#include "core/jobs/samples.hpp"
#include "core/store/run_store.hpp"
#include "test_case.hpp"
#include "test_support.hpp"
#include "ui/runs/run_view.hpp"
#include "ui/util/settings.hpp"
#include "ui_test_data.hpp"

using namespace latent;

class TestFinalMetrics : public QObject {
  Q_OBJECT

 private Q_SLOTS:
  void initTestCase() {
    test::isolateSettings();
    ui::appSettings().clear();
  }

  void longListsAreSummarisedAndEveryValueShows() {
    test::Scratch scratch;
    const auto file = scratch.path("p.latent");
    {
      core::Project project(file);
      core::importSample(project, "karate");
    }
    core::RunRequest request;
    request.model = "sbm";
    request.dataset = "karate";
    request.options = {{"k", 2}, {"iterations", 20}, {"restarts", 6}};
    request.seed = 1;
    const auto outcome = core::runFit(file, request, nullptr, {});
    QVERIFY(outcome.run.status == core::RunStatus::Finished);
    const auto& joints = outcome.run.finalMetrics.at("start_log_posteriors");
    QVERIFY(joints.is_array() && joints.size() == 6);

    ui::RunView view(file, outcome.run.id);
    view.resize(900, 700);
    view.show();
    QVERIFY(QTest::qWaitForWindowExposed(&view));
    QVERIFY(test::waitFor([&] { return view.isSettled(); }));
    auto* table = view.finalMetricsTable();
    QVERIFY(test::waitFor([&] { return table->rowCount() > 3; }));
    int restarts = -1;
    for (int row = 0; row < table->rowCount(); ++row) {
      QVERIFY2(table->item(row, 1) && !table->item(row, 1)->text().isEmpty(), qPrintable(table->item(row, 0)->text()));
      QVERIFY(table->item(row, 1)->text().size() <= 40);
      if (table->item(row, 0)->text().contains(QStringLiteral("start log posteriors"))) restarts = row;
    }
    QVERIFY(restarts >= 0);
    QVERIFY2(table->item(restarts, 1)->text().startsWith(QStringLiteral("6 values")),
             qPrintable(table->item(restarts, 1)->text()));
    QCOMPARE(table->item(restarts, 1)->toolTip().count(QLatin1Char(',')), 5);
    // Name and value columns fit the table's width: nothing hides to the right.
    QVERIFY2(table->horizontalHeader()->length() <= table->viewport()->width() + 1,
             qPrintable(QString("%1 > %2").arg(table->horizontalHeader()->length()).arg(table->viewport()->width())));
  }
};

LATENT_TEST_CASE(TestFinalMetrics)
#include "tst_final_metrics.moc"
