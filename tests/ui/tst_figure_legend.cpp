// SPDX-License-Identifier: GPL-3.0-or-later
// Saved charts carry their legend and axis titles (issue 20, defect 8): the Training chart of a
// run, whose legend is the caption under it on screen, saved as SVG holds the x axis's title, each
// value axis titled with its series' name and the caption's entries; as PNG it grows by the
// caption's height. A figure without a legend of its own is saved as before.
#include <QDir>
#include <QImage>
#include <QTabWidget>
#include <QXmlStreamReader>
#include <QtTest>

#include <QAbstractSeries>
#include <QChart>

#include "core/jobs/fit_job.hpp"
#include "test_case.hpp"
#include "test_support.hpp"
#include "ui/runs/metrics_chart.hpp"
#include "ui/runs/run_view.hpp"
#include "ui/util/figure_export.hpp"
#include "ui/util/qt_convert.hpp"
#include "ui/util/settings.hpp"
#include "ui_test_data.hpp"

using namespace latent;

namespace {

// Every piece of text an SVG draws, joined by spaces.
QString legendSvgText(const QString& file) {
  QFile in(file);
  if (!in.open(QIODevice::ReadOnly)) return {};
  QXmlStreamReader xml(&in);
  QStringList texts;
  while (!xml.atEnd())
    if (xml.readNext() == QXmlStreamReader::StartElement && xml.name() == QLatin1String("text"))
      texts << xml.readElementText(QXmlStreamReader::IncludeChildElements);
  return texts.join(QLatin1Char(' '));
}

}  // namespace

class TestFigureLegend : public QObject {
  Q_OBJECT

 private Q_SLOTS:
  void initTestCase() {
    test::isolateSettings();
    ui::appSettings().clear();
  }

  void savedTrainingChartHasLegendAndAxisTitles() {
    test::Scratch scratch;
    const auto file = scratch.path("legend.latent");
    {
      core::Project project(file);
      std::vector<test::TextDocument> docs;
      for (int d = 0; d < 40; ++d)
        docs.push_back({"d" + std::to_string(d), "Doc " + std::to_string(d),
                        d % 2 ? "money bank loan credit money interest" : "river water stream fish boat river"});
      test::addTextCorpus(project, "toy", docs, true);
    }
    core::RunRequest request;
    request.model = "lda-gibbs";
    request.dataset = "toy";
    request.options = {{"k", 2}, {"iterations", 30}};
    request.heldout = 0.2;
    request.seed = 2;
    const auto runId = core::runFit(file, request, nullptr, {}).run.id;

    ui::RunView view(file, runId);
    view.resize(1100, 800);
    view.show();
    QVERIFY(test::waitFor([&] { return view.isSettled(); }));
    auto* chart = view.findChild<ui::MetricsChart*>();
    QVERIFY(chart);
    for (int i = 0; i < view.pages()->count(); ++i)
      if (view.pages()->tabText(i) == QStringLiteral("Training")) view.pages()->setCurrentIndex(i);
    QTRY_VERIFY(chart->isVisible() && chart->width() > 100);
    const auto series = chart->chart()->series();
    QVERIFY(series.size() >= 2);
    const QString objective = series[0]->name(), heldout = series[1]->name();
    QVERIFY(!objective.isEmpty() && !heldout.isEmpty());

    const QString svg = ui::fromPath(scratch.path("training.svg"));
    QString error;
    QVERIFY2(ui::saveFigure(chart, svg, &error), qPrintable(error));
    const QString text = legendSvgText(svg);
    QVERIFY2(text.contains(QStringLiteral("iteration")), qPrintable(text));
    // Each series' name twice: its value axis's title and its entry in the legend.
    QVERIFY2(text.count(objective) >= 2, qPrintable(objective + QStringLiteral(" | ") + text));
    QVERIFY2(text.count(heldout) >= 2, qPrintable(heldout + QStringLiteral(" | ") + text));
    // The legend: which axis each series is read on.
    QVERIFY2(text.contains(QStringLiteral("left axis")) && text.contains(QStringLiteral("right axis")),
             qPrintable(text));

    // The PNG grows under the chart by the legend's height.
    const QString png = ui::fromPath(scratch.path("training.png"));
    QVERIFY2(ui::saveFigure(chart, png, &error), qPrintable(error));
    const QImage image(png);
    QCOMPARE(image.width(), 2 * chart->width());
    QVERIFY(image.height() > 2 * chart->height() + 20);
    QVERIFY(!ui::figureLegend(chart).isEmpty());
    if (const QString shots = qEnvironmentVariable("LATENT_UI_SHOTS"); !shots.isEmpty())
      QVERIFY(ui::saveFigure(chart, QDir(shots).filePath(QStringLiteral("training-chart-saved.png")), &error));
  }
};

LATENT_TEST_CASE(TestFigureLegend)
#include "tst_figure_legend.moc"
