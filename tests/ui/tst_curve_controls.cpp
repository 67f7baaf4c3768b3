// SPDX-License-Identifier: GPL-3.0-or-later
// The training chart's choices: iteration or wall time on x, a log scale for the held-out metric,
// and other runs' held-out curves overlaid (which runs are offered, how they are named, and that
// the points drawn are the stored ones).
#include <QAbstractAxis>
#include <QCheckBox>
#include <QComboBox>
#include <QPushButton>
#include <QSignalSpy>
#include <QtTest>

#include "core/models/model.hpp"
#include "test_case.hpp"
#include "test_support.hpp"
#include "ui/runs/curve_controls.hpp"
#include "ui/runs/metrics_chart.hpp"
#include "ui/runs/run_progress_text.hpp"
#include "ui/runs/run_view.hpp"
#include "ui_test_data.hpp"

using namespace latent;

namespace {

std::vector<core::MetricRow> curve(double start, double step, int n, double secondsPerIteration) {
  std::vector<core::MetricRow> rows;
  for (int i = 1; i <= n; ++i) {
    core::MetricRow r;
    r.iteration = i;
    r.seconds = secondsPerIteration * i;
    r.trainObjective = -9.0 + 1.0 / i;
    if (i % 2 == 0) r.heldout = start - step * i;
    rows.push_back(r);
  }
  return rows;
}

core::RunRecord record(std::int64_t id, const std::string& model, nlohmann::json options, double heldout = 0.1) {
  core::RunRecord r;
  r.id = id;
  r.datasetId = 1;
  r.model = model;
  r.options = std::move(options);
  r.seed = 1;
  r.heldout = heldout;
  r.status = core::RunStatus::Finished;
  r.finalMetrics = {{"heldout_perplexity", 1000.0}};
  return r;
}

}  // namespace

class TestCurveControls : public QObject {
  Q_OBJECT

 private Q_SLOTS:
  void initTestCase() { test::isolateSettings(); }

  void axesScaleAndOverlays() {
    ui::MetricsChart chart;
    chart.setNames(QStringLiteral("objective"), QStringLiteral("held-out perplexity"));
    chart.setRows(curve(3000.0, 100.0, 10, 0.5));
    QCOMPARE(chart.heldoutPoints().size(), 5);
    QCOMPARE(chart.heldoutPoints()[0], QPointF(2.0, 2800.0));
    QCOMPARE(chart.objectivePoints()[2], QPointF(3.0, -9.0 + 1.0 / 3));

    QSignalSpy changed(&chart, &ui::MetricsChart::appearanceChanged);
    chart.setXAxis(ui::MetricsChart::XAxis::Seconds);
    QCOMPARE(changed.size(), 1);
    QCOMPARE(chart.heldoutPoints()[0], QPointF(1.0, 2800.0));  // iteration 2 at 0.5 s per iteration
    QCOMPARE(chart.objectivePoints()[2], QPointF(1.5, -9.0 + 1.0 / 3));

    chart.setLogHeldout(true);
    QVERIFY(chart.showsLogHeldout());
    QVERIFY(chart.captionHtml().contains(QLatin1String("log scale")));

    chart.setOverlays(
        {{7, QStringLiteral("#7 lda-vb · k 20"), ui::MetricsChart::heldoutSamples(curve(2000.0, 50.0, 6, 2.0))}});
    QCOMPARE(chart.overlays().size(), 1);
    QCOMPARE(chart.overlayPoints(0), (QVector<QPointF>{{4.0, 1900.0}, {8.0, 1800.0}, {12.0, 1700.0}}));
    QVERIFY(chart.captionHtml().contains(QStringLiteral("#7 lda-vb · k 20")));
    QVERIFY(chart.captionHtml().contains(chart.overlayColour(0).name()));

    // A held-out value a log scale cannot show (a negative log-likelihood, say) turns it off.
    auto rows = curve(3000.0, 100.0, 10, 0.5);
    rows[1].heldout = -1.0;
    chart.setRows(rows);
    QVERIFY(chart.logHeldout());
    QVERIFY(!chart.showsLogHeldout());
    QVERIFY(!chart.captionHtml().contains(QLatin1String("log scale")));
  }

  // Issue 20, defect 4: before its first iteration the chart says what the run is doing instead
  // of drawing empty 0..1 axes, and the iteration where the hyperparameters start being
  // re-estimated (where the objective jumps) is marked and named.
  void placeholderAndMarks() {
    ui::MetricsChart chart;
    chart.setPlaceholder(QStringLiteral("Trying starts"));
    chart.redraw();
    QCOMPARE(chart.chart()->title(), QStringLiteral("Trying starts"));
    for (auto* axis : chart.chart()->axes()) QVERIFY(!axis->isVisible());
    chart.setMarks({{4.0, QStringLiteral("re-estimated from here")}});
    chart.setRows(curve(3000.0, 100.0, 3, 0.5));
    QVERIFY(chart.markPoints(0).isEmpty());  // the curve has not reached iteration 4
    chart.setRows(curve(3000.0, 100.0, 10, 0.5));
    QVERIFY(chart.chart()->title() != QStringLiteral("Trying starts"));
    QVERIFY(chart.chart()->axes(Qt::Horizontal).first()->isVisible());
    auto line = chart.markPoints(0);
    QCOMPARE(line.size(), 2);
    QCOMPARE(line[0].x(), 4.0);
    QCOMPARE(line[1].x(), 4.0);
    QVERIFY(line[0].y() < line[1].y());
    QVERIFY(chart.captionHtml().contains(QStringLiteral("iteration 4: re-estimated from here")));
    chart.setXAxis(ui::MetricsChart::XAxis::Seconds);
    QCOMPARE(chart.markPoints(0)[0].x(), 2.0);  // iteration 4 at 0.5 s per iteration
  }

  // The time left is the chain's pace so far times the iterations left; the restarts before the
  // chain run at another pace and do not count.
  void timeLeftFromTheChainsPace() {
    QVector<core::IterationReport> reports;
    core::IterationReport r;
    r.phase = core::FitPhase::Restarts;
    r.start = 2;
    r.iteration = 5;
    r.seconds = 10.0;
    reports << r;
    QVERIFY(!ui::secondsLeft(reports, 500));
    QVERIFY(ui::progressText(reports, 500, 10.0).contains(QStringLiteral("restarts: start 2, sweep 5")));
    r.phase = core::FitPhase::Chain;
    r.start = 0;
    r.iteration = 10;
    r.seconds = 12.0;
    reports << r;
    QVERIFY(!ui::secondsLeft(reports, 500));  // one report of the chain gives no pace
    r.iteration = 20;
    r.seconds = 14.0;
    reports << r;
    QCOMPARE(*ui::secondsLeft(reports, 500), 0.2 * 480);
    QVERIFY(!ui::secondsLeft(reports, 0));   // an unknown length
    QVERIFY(!ui::secondsLeft(reports, 20));  // done
    const QString text = ui::progressText(reports, 500, 14.0);
    QVERIFY2(
        text.contains(QStringLiteral("iteration 20 / 500")) && text.contains(QStringLiteral("about 1 min 36 s left")),
        qPrintable(text));
  }

  void whichRunsAndTheirNames() {
    const auto reference = record(1, "lda-gibbs", {{"k", 10}, {"alpha", 0.1}});
    auto seed = record(2, "lda-gibbs", {{"k", 10}, {"alpha", 0.1}});
    seed.seed = 5;
    const auto k = record(3, "lda-gibbs", {{"k", 20}, {"alpha", 0.1}});
    const auto vb = record(4, "lda-vb", {{"k", 10}, {"tau0", 1.0}});
    const auto other = record(5, "lda-gibbs", {{"k", 20}, {"alpha", 0.1}}, 0.2);  // another fraction
    auto unscored = record(6, "lda-gibbs", {{"k", 5}, {"alpha", 0.1}});
    unscored.finalMetrics = nlohmann::json::object();
    auto dataset = record(7, "lda-gibbs", {{"k", 5}, {"alpha", 0.1}});
    dataset.datasetId = 2;
    const auto rmse = record(8, "pmf", {{"k", 10}});  // another held-out metric
    const auto offered = ui::comparableCurves({reference, seed, k, vb, other, unscored, dataset, rmse}, reference);
    std::vector<std::int64_t> ids;
    for (const auto& r : offered) ids.push_back(r.id);
    QCOMPARE(ids, (std::vector<std::int64_t>{2, 3, 4}));
    QCOMPARE(ui::comparisonLabel(seed, reference), QStringLiteral("#2 lda-gibbs · seed 5"));
    QCOMPARE(ui::comparisonLabel(k, reference), QStringLiteral("#3 lda-gibbs · k 20"));
    QCOMPARE(ui::comparisonLabel(vb, reference), QStringLiteral("#4 lda-vb · k 10, tau0 1.0"));
  }

  void overlaysInTheRunTab() {
    test::Scratch scratch;
    const auto file = scratch.path("curves.latent");
    std::int64_t first = 0, second = 0;
    {
      core::Project project(file);
      const auto corpus = test::addTextCorpus(project, "texts", {{"a", "A", "apple banana"}, {"b", "B", "cherry"}});
      for (auto* id : {&first, &second}) {
        core::RunRecord r;
        r.datasetId = corpus;
        r.model = "lda-gibbs";
        r.options = core::resolveOptions(core::createModel("lda-gibbs")->info(), {{"k", id == &first ? 5 : 8}});
        r.heldout = 0.1;
        *id = core::createRun(project, r);
        const auto rows = curve(id == &first ? 3000.0 : 2500.0, 100.0, 10, 0.25);
        core::appendMetrics(project, *id, rows);
        core::finishRun(project, *id, core::RunStatus::Finished, "", 2.5, 10,
                        {{"heldout_perplexity", rows.back().heldout.value()}});
      }
    }
    ui::RunView view(file, first);
    view.resize(1000, 700);
    view.show();
    QVERIFY(QTest::qWaitFor([&] { return view.isSettled(); }, 30000));
    ui::CurveControls* controls = view.curveControls();
    QTRY_COMPARE(controls->candidates().size(), std::size_t{1});
    QCOMPARE(controls->candidates()[0].id, second);
    QVERIFY(controls->compareButton()->isEnabled());
    controls->compareWith(second, true);
    QTRY_COMPARE(view.chart()->overlays().size(), 1);
    QCOMPARE(view.chart()->overlayPoints(0).size(), 5);
    QCOMPARE(view.chart()->overlayPoints(0).back(), QPointF(10.0, 1500.0));
    controls->xAxisBox()->setCurrentIndex(1);
    QCOMPARE(view.chart()->overlayPoints(0).back(), QPointF(2.5, 1500.0));
    controls->logBox()->setChecked(true);
    QVERIFY(view.chart()->showsLogHeldout());
    if (const QString dir = qEnvironmentVariable("LATENT_UI_SHOTS"); !dir.isEmpty()) {
      QTest::qWait(100);  // the chart lays its axes out on the next pass of the event loop
      QVERIFY(view.grab().save(QDir(dir).filePath(QStringLiteral("curves-overlay.png"))));
    }
    controls->compareWith(second, false);
    QCOMPARE(view.chart()->overlays().size(), 0);
  }
};

LATENT_TEST_CASE(TestCurveControls)
#include "tst_curve_controls.moc"
