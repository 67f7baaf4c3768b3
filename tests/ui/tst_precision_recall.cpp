// SPDX-License-Identifier: GPL-3.0-or-later
// The precision-recall tab: runs selected in the project tree open one tab whose curves (one per
// run, MAP in the name) come from core's retrieval, its CSV matches `latent-cli retrieval --out`,
// and runs that cannot be compared show the engine's message instead of curves.
#include <QApplication>
#include <QChart>
#include <QChartView>
#include <QCheckBox>
#include <QContextMenuEvent>
#include <QDir>
#include <QLineSeries>
#include <QLogValueAxis>
#include <QMenu>
#include <QTabWidget>
#include <QTimer>
#include <QValueAxis>
#include <QtTest>

#include <fstream>
#include <memory>
#include <string>
#include <vector>

#include "core/eval/retrieval.hpp"
#include "core/jobs/fit_job.hpp"
#include "labelled_texts.hpp"
#include "test_case.hpp"
#include "test_support.hpp"
#include "ui/runs/retrieval/precision_recall_view.hpp"
#include "ui/util/qt_convert.hpp"
#include "ui_test_data.hpp"

using namespace latent;

namespace {

// 60 short documents of three labels, mostly of shared words (so the curves fall below 1 and
// differ).
std::vector<test::TextDocument> labelledRetrievalDocuments() {
  std::vector<test::TextDocument> docs;
  for (const auto& doc : test::labelledTexts(60, 16, 0.6))
    docs.emplace_back(doc.id, doc.id, doc.text, std::string(), doc.label);
  return docs;
}

std::int64_t fitRetrievalRun(const std::filesystem::path& file, const std::string& model, nlohmann::json options,
                             std::uint64_t seed) {
  core::RunRequest request;
  request.model = model;
  request.dataset = "labelled";
  request.options = std::move(options);
  request.seed = seed;
  request.heldout = 0.25;
  return core::runFit(file, request, nullptr, {}).run.id;
}

QList<QLineSeries*> curveSeries(QChartView* view) {
  QList<QLineSeries*> lines;
  for (auto* s : view->chart()->series())
    if (auto* line = qobject_cast<QLineSeries*>(s)) lines << line;
  return lines;
}

}  // namespace

class TestPrecisionRecall : public QObject {
  Q_OBJECT

 private Q_SLOTS:
  void initTestCase() {
    test::isolateSettings();
    m_scratch = std::make_unique<test::Scratch>();
    m_file = m_scratch->path("retrieval.latent");
    {
      core::Project project(m_file);
      test::addTextCorpus(project, "labelled", labelledRetrievalDocuments());
    }
    m_rsm = fitRetrievalRun(m_file, "rsm", {{"k", 6}, {"iterations", 20}}, 3);
    m_lda = fitRetrievalRun(m_file, "lda-gibbs", {{"k", 3}, {"iterations", 40}, {"restarts", 1}}, 3);
    m_otherSeed = fitRetrievalRun(m_file, "lda-gibbs", {{"k", 3}, {"iterations", 5}, {"restarts", 1}}, 4);
    QVERIFY(m_rsm > 0 && m_lda > 0 && m_otherSeed > 0);
  }

  void cleanupTestCase() { m_scratch.reset(); }

  void selectedRunsOverlaidWithTheirMap() {
    ui::MainWindow window;
    window.resize(1200, 800);
    window.show();
    QVERIFY(test::openProject(window, ui::fromPath(m_file)));
    // Two runs selected in the tree, as with Ctrl-click.
    auto* tree = window.projectTree();
    tree->clearSelection();
    tree->runItem(m_lda)->setSelected(true);
    tree->runItem(m_rsm)->setSelected(true);
    QCOMPARE(tree->selectedRunIds().size(), 2);
    // The context menu of a selected run offers the selection (its modal loop runs the timer).
    QStringList offered;
    QTimer::singleShot(0, &window, [&offered] {
      auto* menu = qobject_cast<QMenu*>(QApplication::activePopupWidget());
      if (!menu) return;
      for (QAction* action : menu->actions()) {
        offered << action->text();
        if (action->text().startsWith(QStringLiteral("Precision–Recall"))) action->trigger();
      }
      menu->close();
    });
    const QRect rect = tree->visualItemRect(tree->runItem(m_rsm));
    QContextMenuEvent event(QContextMenuEvent::Mouse, rect.center(), tree->viewport()->mapToGlobal(rect.center()));
    QApplication::sendEvent(tree->viewport(), &event);
    QVERIFY2(offered.contains(QStringLiteral("Precision–Recall of 2 Runs…")), qPrintable(offered.join('|')));
    auto* view = qobject_cast<ui::PrecisionRecallView*>(window.tabs()->currentWidget());
    QVERIFY(view);
    QCOMPARE(view->runIds(), (QList<qint64>{m_rsm, m_lda}));
    QVERIFY(test::waitLoaded(view));
    QVERIFY2(view->errorText().isEmpty(), qPrintable(view->errorText()));
    // The same runs again (in another order) make the same tab current.
    QCOMPARE(window.openPrecisionRecall({m_lda, m_rsm}), view);
    QCOMPARE(window.tabs()->count(), 1);
    QVERIFY(test::waitFor([&] { return !view->isComputing(); }));
    QVERIFY(view->errorText().isEmpty());

    const auto levels = core::defaultRecallLevels();
    const auto& data = view->data();
    QCOMPARE(data.runs.size(), std::size_t{2});
    QCOMPARE(data.runs[0].run.id, m_rsm);  // in run order
    QCOMPARE(data.runs[1].run.model, std::string("lda-gibbs"));
    const auto lines = curveSeries(view->chartView());
    QCOMPARE(lines.size(), 2);
    for (int i = 0; i < 2; ++i) {
      const auto& scored = data.runs[static_cast<std::size_t>(i)];
      QCOMPARE(lines[i]->count(), static_cast<int>(levels.size()));
      QCOMPARE(lines[i]->at(0).x(), levels.front());
      QCOMPARE(lines[i]->at(lines[i]->count() - 1).y(), scored.result.curve.back().precision);
      const QString map = QString::number(scored.result.meanAveragePrecision, 'f', 3);
      QCOMPARE(lines[i]->name(),
               QStringLiteral("#%1 %2 — MAP %3").arg(scored.run.id).arg(ui::qs(scored.run.model), map));
      QVERIFY(scored.result.meanAveragePrecision > 0.4);  // three labels: chance is about 1/3
      QVERIFY(view->captionText().contains(map));
      // Each run's held-out perplexity on the same split, as stored.
      const double perplexity = scored.run.finalMetrics["heldout_perplexity"].get<double>();
      QVERIFY2(view->captionText().contains(
                   QStringLiteral("held-out perplexity %1 (document completion)").arg(perplexity, 0, 'f', 1)),
               qPrintable(view->captionText()));
    }
    QVERIFY(view->captionText().contains(QStringLiteral("hidden activations")));
    QVERIFY(view->captionText().contains(QStringLiteral("topic proportions")));

    // Recall on a log scale (as 000 Fig. 27.33) or linear; the curves stay.
    QVERIFY(view->logRecallBox()->isChecked());
    QVERIFY(qobject_cast<QLogValueAxis*>(view->chartView()->chart()->axes(Qt::Horizontal).value(0)));
    if (const QString dir = qEnvironmentVariable("LATENT_UI_SHOTS"); !dir.isEmpty())
      QVERIFY(window.grab().save(QDir(dir).filePath(QStringLiteral("precision-recall.png"))));
    view->logRecallBox()->setChecked(false);
    QVERIFY(qobject_cast<QValueAxis*>(view->chartView()->chart()->axes(Qt::Horizontal).value(0)));
    QCOMPARE(curveSeries(view->chartView()).size(), 2);

    // Export CSV: the columns and rows of `latent-cli retrieval --out`.
    const auto csv = m_scratch->path("pr.csv");
    QString error;
    QVERIFY2(view->exportCsv(ui::fromPath(csv), &error), qPrintable(error));
    std::ifstream in(csv);
    std::vector<std::string> rows;
    for (std::string row; std::getline(in, row);) rows.push_back(row);
    QCOMPARE(rows.size(), 1 + 2 * levels.size());
    QCOMPARE(rows.front(), std::string("run,model,recall,precision"));
    const auto cells = QString::fromStdString(rows[1]).split(QLatin1Char(','));
    QCOMPARE(cells.size(), 4);
    QCOMPARE(cells[0].toLongLong(), m_rsm);
    QCOMPARE(cells[1], QStringLiteral("rsm"));
    QCOMPARE(cells[2].toDouble(), levels.front());
    QCOMPARE(cells[3].toDouble(), data.runs[0].result.curve.front().precision);
    QVERIFY(rows.back().rfind(std::to_string(m_lda) + ",lda-gibbs,1,", 0) == 0);
  }

  void runsOfDifferentSeedsShowTheEnginesMessage() {
    ui::PrecisionRecallView view(m_file, {m_lda, m_otherSeed});
    view.resize(800, 600);
    view.show();
    QVERIFY(test::waitLoaded(&view));
    QVERIFY(view.data().runs.empty());
    QVERIFY2(view.errorText().contains(QStringLiteral("same --heldout and --seed")), qPrintable(view.errorText()));
    QVERIFY(view.errorText().contains(QStringLiteral("cannot be compared")));
    if (const QString dir = qEnvironmentVariable("LATENT_UI_SHOTS"); !dir.isEmpty())
      QVERIFY(view.grab().save(QDir(dir).filePath(QStringLiteral("precision-recall-refused.png"))));

    // A run that does not exist: the store's message, still no crash.
    ui::PrecisionRecallView missing(m_file, {m_rsm, 9999});
    QVERIFY(test::waitLoaded(&missing));
    QVERIFY2(missing.errorText().contains(QStringLiteral("9999")), qPrintable(missing.errorText()));
  }

 private:
  std::unique_ptr<test::Scratch> m_scratch;
  std::filesystem::path m_file;
  std::int64_t m_rsm = 0, m_lda = 0, m_otherSeed = 0;
};

LATENT_TEST_CASE(TestPrecisionRecall)
#include "tst_precision_recall.moc"
