// SPDX-License-Identifier: GPL-3.0-or-later
// The "Choosing K" page of a run: which runs it plots, the means per K it draws, the K it names,
// and when it is not shown.
#include <QChart>
#include <QChartView>
#include <QLegend>
#include <QLineSeries>
#include <QScatterSeries>
#include <QTabWidget>
#include <QValueAxis>
#include <QtTest>

#include "core/jobs/samples.hpp"
#include "core/jobs/sweep_job.hpp"
#include "core/models/model.hpp"
#include "test_case.hpp"
#include "test_support.hpp"
#include "ui/runs/k_choice/k_choice_view.hpp"
#include "ui/runs/run_view.hpp"
#include "ui_test_data.hpp"

using namespace latent;

namespace {

std::int64_t finishedLda(core::Project& project, std::int64_t dataset, std::int64_t k, double perplexity,
                         std::uint64_t seed, double alpha = 0.1, core::RunStatus status = core::RunStatus::Finished) {
  core::RunRecord r;
  r.datasetId = dataset;
  r.model = "lda-gibbs";
  r.options = core::resolveOptions(core::createModel("lda-gibbs")->info(), {{"k", k}, {"alpha", alpha}});
  r.seed = seed;
  r.heldout = 0.1;
  r.heldoutName = "held-out perplexity, document completion (000 eq. 27.29)";
  const auto id = core::createRun(project, r);
  if (status != core::RunStatus::Running)
    core::finishRun(project, id, status, "", 1.0, 10, {{"heldout_perplexity", perplexity}});
  return id;
}

// A finished run of another model on the same dataset, with both protocols' perplexities.
void finishedOther(core::Project& project, std::int64_t dataset, const std::string& model, std::int64_t k,
                   double completion, double full, std::uint64_t seed, double heldout = 0.1) {
  core::RunRecord r;
  r.datasetId = dataset;
  r.model = model;
  r.options = core::resolveOptions(core::createModel(model)->info(), {{"k", k}});
  r.seed = seed;
  r.heldout = heldout;
  const auto id = core::createRun(project, r);
  core::finishRun(project, id, core::RunStatus::Finished, "", 1.0, 10,
                  {{"heldout_perplexity", completion}, {"heldout_perplexity_full_folding_in", full}});
}

bool settleChoice(ui::RunView* view, int ms = 30000) {
  return QTest::qWaitFor([&] { return view->isSettled(); }, ms);
}

}  // namespace

class TestKChoice : public QObject {
  Q_OBJECT

 private Q_SLOTS:
  void initTestCase() { test::isolateSettings(); }

  void plotsTheRunsThatDifferOnlyInK() {
    test::Scratch scratch;
    const auto file = scratch.path("k.latent");
    std::int64_t current = 0;
    {
      core::Project project(file);
      const auto corpus =
          test::addTextCorpus(project, "texts", {{"a", "A", "apple banana"}, {"b", "B", "cherry apple"}});
      finishedLda(project, corpus, 2, 900.0, 1);
      current = finishedLda(project, corpus, 5, 700.0, 1);
      finishedLda(project, corpus, 5, 760.0, 2);  // another seed of K = 5: mean 730
      finishedLda(project, corpus, 10, 720.0, 1);
      finishedLda(project, corpus, 3, 100.0, 1, 0.5);  // another alpha: not comparable
      finishedLda(project, corpus, 4, 100.0, 1, 0.1, core::RunStatus::Failed);
      finishedLda(project, corpus, 6, 100.0, 1, 0.1, core::RunStatus::Running);
    }
    ui::RunView view(file, current);
    view.resize(900, 700);
    view.show();
    QVERIFY(settleChoice(&view));
    ui::KChoiceView* page = view.page<ui::KChoiceView>();
    QVERIFY(page);
    QVERIFY(view.pages()->indexOf(page) >= 0);
    QCOMPARE(view.pages()->tabText(view.pages()->indexOf(page)), QStringLiteral("Choosing K"));
    QCOMPARE(page->data().points.size(), std::size_t{4});
    QCOMPARE(page->data().distinctK, 3);

    // Dots for every run, the ring on this one, the line through the means per K.
    const auto series = page->chartView()->chart()->series();
    QCOMPARE(series.size(), 3);  // no ICL for a topic model
    auto* mean = qobject_cast<QLineSeries*>(series[0]);
    auto* runs = qobject_cast<QScatterSeries*>(series[1]);
    auto* ring = qobject_cast<QScatterSeries*>(series[2]);
    QVERIFY(mean && runs && ring);
    QCOMPARE(runs->points().size(), 4);
    QCOMPARE(ring->points(), (QList<QPointF>{{5.0, 700.0}}));
    QCOMPARE(mean->points(), (QList<QPointF>{{2.0, 900.0}, {5.0, 730.0}, {10.0, 720.0}}));
    QVERIFY2(page->captionText().contains(QLatin1String("lowest at <b>K = 10</b>")), qPrintable(page->captionText()));
    QVERIFY(!page->captionText().contains(QLatin1String("ICL")));
  }

  // Other models' runs scored on the same held-out documents (same fraction and seed) are drawn
  // beside this model's, each under both protocols; runs on other held-out documents are not.
  void drawsOtherModelsOnTheSameHeldOutDocuments() {
    test::Scratch scratch;
    const auto file = scratch.path("models.latent");
    std::int64_t current = 0;
    {
      core::Project project(file);
      const auto corpus =
          test::addTextCorpus(project, "texts", {{"a", "A", "apple banana"}, {"b", "B", "cherry apple"}});
      finishedLda(project, corpus, 2, 900.0, 1);
      current = finishedLda(project, corpus, 5, 700.0, 1);
      finishedOther(project, corpus, "nmf", 2, 950.0, 800.0, 1);
      finishedOther(project, corpus, "nmf", 5, 990.0, 600.0, 1);
      finishedOther(project, corpus, "plsa", 5, 10.0, 5.0, 2);       // another seed: other documents
      finishedOther(project, corpus, "epca", 5, 10.0, 5.0, 1, 0.2);  // another fraction
    }
    ui::RunView view(file, current);
    view.resize(900, 700);
    view.show();
    QVERIFY(settleChoice(&view));
    ui::KChoiceView* page = view.page<ui::KChoiceView>();
    QVERIFY(page);
    QCOMPARE(page->data().otherModels.size(), std::size_t{1});
    QCOMPARE(page->data().otherModels[0].model, std::string("nmf"));
    QCOMPARE(page->data().otherModels[0].points.size(), std::size_t{2});
    QList<QPointF> completion, full;
    for (auto* s : page->chartView()->chart()->series()) {
      auto* line = qobject_cast<QLineSeries*>(s);
      if (line && line->name() == QStringLiteral("nmf")) completion = line->points();
      if (line && line->name() == QStringLiteral("nmf, full folding-in")) full = line->points();
    }
    QCOMPARE(completion, (QList<QPointF>{{2.0, 950.0}, {5.0, 990.0}}));
    QCOMPARE(full, (QList<QPointF>{{2.0, 800.0}, {5.0, 600.0}}));
    // Issue 20, defect 8: round ticks with room above and below the dots (600 to 990 here), and
    // legend marks that show which line is dashed.
    auto* y = qobject_cast<QValueAxis*>(page->chartView()->chart()->axes(Qt::Vertical).first());
    QVERIFY(y);
    const double step = (y->max() - y->min()) / (y->tickCount() - 1);
    const double mantissa = step / std::pow(10.0, std::floor(std::log10(step)));
    QVERIFY2(std::abs(mantissa - 1) < 1e-9 || std::abs(mantissa - 2) < 1e-9 || std::abs(mantissa - 2.5) < 1e-9 ||
                 std::abs(mantissa - 5) < 1e-9,
             qPrintable(QStringLiteral("ticks every %1 from %2").arg(step).arg(y->min())));
    QVERIFY(std::abs(std::remainder(y->min(), step)) < 1e-9);
    QVERIFY(y->min() < 600.0 - 0.02 * (y->max() - y->min()));
    QVERIFY(y->max() > 990.0 + 0.02 * (y->max() - y->min()));
    QCOMPARE(page->chartView()->chart()->legend()->markerShape(), QLegend::MarkerShapeFromSeries);
    QVERIFY2(page->captionText().contains(QLatin1String("the runs of nmf on the same held-out documents")),
             qPrintable(page->captionText()));
  }

  // A real sweep of the degree-corrected SBM on Zachary's karate club: ICL is drawn on its own
  // axis and picks the club's two factions.
  void karateSweepWithIcl() {
    test::Scratch scratch;
    const auto file = scratch.path("karate.latent");
    {
      core::Project project(file);
      core::importSample(project, "karate");
    }
    core::SweepRequest sweep;
    sweep.base.model = "sbm";
    sweep.base.dataset = "karate";
    sweep.base.heldout = 0.1;
    sweep.base.options = {{"degree_corrected", true}};
    sweep.values = {1, 2, 3, 4, 5};
    const auto outcome = core::runSweep(file, sweep, nullptr, {});
    QCOMPARE(outcome.runs.size(), std::size_t{5});
    ui::RunView view(file, outcome.runs[1].id);
    view.resize(1000, 720);
    view.show();
    QVERIFY(settleChoice(&view));
    ui::KChoiceView* page = view.page<ui::KChoiceView>();
    QVERIFY(page && view.pages()->indexOf(page) >= 0);
    const auto series = page->chartView()->chart()->series();
    QCOMPARE(series.size(), 4);
    auto* icl = qobject_cast<QLineSeries*>(series[3]);
    QVERIFY(icl);
    QCOMPARE(icl->points().size(), 5);
    for (int i = 0; i < 5; ++i)
      QCOMPARE(icl->points()[i].y(), outcome.runs[std::size_t(i)].finalMetrics["icl"].get<double>());
    QVERIFY2(page->captionText().contains(QLatin1String("highest at <b>K = 2</b>")), qPrintable(page->captionText()));
    if (const QString dir = qEnvironmentVariable("LATENT_UI_SHOTS"); !dir.isEmpty()) {
      view.pages()->setCurrentWidget(page);
      QVERIFY(view.grab().save(QDir(dir).filePath(QStringLiteral("karate-choosing-k.png"))));
    }
  }

  void absentWithOneK() {
    test::Scratch scratch;
    const auto file = scratch.path("one.latent");
    std::int64_t current = 0;
    {
      core::Project project(file);
      const auto corpus = test::addTextCorpus(project, "texts", {{"a", "A", "apple banana"}});
      current = finishedLda(project, corpus, 5, 700.0, 1);
      finishedLda(project, corpus, 5, 710.0, 2);
    }
    ui::RunView view(file, current);
    view.show();
    QVERIFY(settleChoice(&view));
    QVERIFY(!view.page<ui::KChoiceView>() || view.pages()->indexOf(view.page<ui::KChoiceView>()) < 0);
  }
};

LATENT_TEST_CASE(TestKChoice)
#include "tst_k_choice.moc"
