// SPDX-License-Identifier: GPL-3.0-or-later
// The hidden-unit pages of a harmonium run (rsm, rbm): a replicated softmax fitted to a small
// labelled corpus of two themes, an rbm and an LDA run on the same corpus, a stopped run that has
// only a hand-made snapshot, and a live rsm fit. Checks that the pages appear for harmonium runs
// and not for LDA, that the table's words are each unit's largest and most negative weights and
// its means the activations' means, the CSV export, that the map has one dot per document at its
// principal-component scores and picks a document when clicked, that the heat map groups each
// word under the unit that raises it most, and that the Weights page follows a running fit.
#include <QApplication>
#include <QDoubleSpinBox>
#include <QFile>
#include <QLineEdit>
#include <QMouseEvent>
#include <QRegularExpression>
#include <QSignalSpy>
#include <QTabWidget>
#include <QTableView>
#include <QtTest>

#include <algorithm>
#include <cmath>
#include <numeric>
#include <set>

#include "core/jobs/fit_job.hpp"
#include "core/results/hidden_results.hpp"
#include "core/store/run_results.hpp"
#include "core/util/dense_svd.hpp"
#include "test_case.hpp"
#include "test_support.hpp"
#include "ui/jobs/job_controller.hpp"
#include "ui/main_window.hpp"
#include "ui/runs/hidden/activation_bars_view.hpp"
#include "ui/runs/hidden/activation_map_view.hpp"
#include "ui/runs/hidden/hidden_activations_page.hpp"
#include "ui/runs/hidden/hidden_analysis.hpp"
#include "ui/runs/hidden/hidden_run_data.hpp"
#include "ui/runs/hidden/hidden_unit_model.hpp"
#include "ui/runs/hidden/hidden_units_page.hpp"
#include "ui/runs/hidden/hidden_weights_page.hpp"
#include "ui/runs/hidden/weight_heatmap_view.hpp"
#include "ui/runs/option_form.hpp"
#include "ui/runs/run_view.hpp"
#include "ui/runs/topics/topic_table_view.hpp"
#include "ui/util/qt_convert.hpp"
#include "ui/util/settings.hpp"
#include "ui/util/table_export.hpp"
#include "ui_test_data.hpp"

using namespace latent;

namespace {

constexpr int kUnits = 4;

// Sixteen documents, eight about pets and eight about the sea, labelled so; a few words shared.
std::vector<test::TextDocument> hiddenThemeDocuments() {
  const std::vector<std::string> pets = {"cat", "dog", "puppy", "kitten", "leash", "collar", "bark", "purr", "vet"};
  const std::vector<std::string> sea = {"fish", "whale", "ocean", "wave", "boat", "sail", "shark", "coral", "tide"};
  const std::vector<std::string> shared = {"water", "food", "day"};
  std::vector<test::TextDocument> docs;
  for (int d = 0; d < 16; ++d) {
    const bool isSea = d % 2 == 1;
    const auto& words = isSea ? sea : pets;
    std::string text;
    for (int i = 0; i < 14; ++i) text += words[static_cast<std::size_t>((d * 5 + i * 7) % 9)] + " ";
    text += shared[static_cast<std::size_t>(d % 3)];
    const std::string title = (isSea ? "Sea note " : "Pet note ") + std::to_string(d + 1);
    docs.emplace_back("d" + std::to_string(d + 1), title, text, "", isSea ? "sea" : "pets");
  }
  return docs;
}

// A hand-made V x K weight matrix with known top words: word v's weight to unit k.
Eigen::MatrixXd handWeights(int V) {
  Eigen::MatrixXd w(V, kUnits);
  for (int v = 0; v < V; ++v)
    for (int k = 0; k < kUnits; ++k) w(v, k) = std::sin(1.3 * v + 2.1 * k) * (1.0 + 0.1 * ((v + k) % 3));
  return w;
}

// The n rows of a column with the largest (positive) or smallest (negative) values, by hand.
std::vector<int> expectedWords(const Eigen::MatrixXd& w, int k, bool positive, int n) {
  std::vector<int> rows;
  for (int v = 0; v < w.rows(); ++v)
    if (positive ? w(v, k) > 0 : w(v, k) < 0) rows.push_back(v);
  std::stable_sort(rows.begin(), rows.end(),
                   [&](int a, int b) { return positive ? w(a, k) > w(b, k) : w(a, k) < w(b, k); });
  if (static_cast<int>(rows.size()) > n) rows.resize(static_cast<std::size_t>(n));
  return rows;
}

void clickAt(QWidget* w, QPointF at) {
  QMouseEvent press(QEvent::MouseButtonPress, at, w->mapToGlobal(at), Qt::LeftButton, Qt::LeftButton, Qt::NoModifier);
  QApplication::sendEvent(w, &press);
  QMouseEvent release(QEvent::MouseButtonRelease, at, w->mapToGlobal(at), Qt::LeftButton, Qt::NoButton, Qt::NoModifier);
  QApplication::sendEvent(w, &release);
}

}  // namespace

class TestHiddenViews : public QObject {
  Q_OBJECT

  std::unique_ptr<test::Scratch> m_scratch;
  std::filesystem::path m_file;
  std::int64_t m_corpus = 0;
  qint64 m_rsmRun = 0, m_rbmRun = 0, m_ldaRun = 0, m_snapshotRun = 0;
  std::vector<std::string> m_words;
  Eigen::MatrixXd m_weights, m_activations;

  std::unique_ptr<ui::RunView> openView(qint64 run, bool expectPages = true) {
    auto view = std::make_unique<ui::RunView>(m_file, run);
    view->resize(1300, 820);
    view->show();
    [&] {
      QVERIFY(QTest::qWaitForWindowExposed(view.get()));
      QVERIFY(test::waitFor([&] { return view->isSettled(); }));
      if (expectPages) QVERIFY(view->page<ui::HiddenUnitsPage>());
    }();
    return view;
  }

 private Q_SLOTS:
  void initTestCase() {
    test::isolateSettings();
    ui::appSettings().clear();
    m_scratch = std::make_unique<test::Scratch>();
    m_file = m_scratch->path("hidden.latent");
    {
      core::Project project(m_file);
      m_corpus = test::addTextCorpus(project, "animals", hiddenThemeDocuments());
      for (auto& v : core::loadVocabulary(project, m_corpus)) m_words.push_back(v.word);
    }
    core::RunRequest request;
    request.model = "rsm";
    request.dataset = "animals";
    request.options = {{"k", kUnits}, {"iterations", 40}, {"snapshot_every", 10}};
    request.seed = 3;
    const auto rsm = core::runFit(m_file, request, nullptr, {});
    m_rsmRun = rsm.run.id;
    m_weights = *core::findMatrix(rsm.result.matrices, core::hidden::kWeights);
    m_activations = *core::findMatrix(rsm.result.matrices, core::hidden::kHiddenActivations);
    QCOMPARE(static_cast<std::size_t>(m_weights.rows()), m_words.size());
    QCOMPARE(m_activations.rows(), Eigen::Index{16});

    request.model = "rbm";
    m_rbmRun = core::runFit(m_file, request, nullptr, {}).run.id;
    request.model = "lda-gibbs";
    request.options = {{"k", 2}, {"iterations", 20}};
    m_ldaRun = core::runFit(m_file, request, nullptr, {}).run.id;

    // A stopped run with only the snapshot of epoch 5, hand-made so every word is known.
    core::Project project(m_file);
    core::RunRecord run;
    run.datasetId = m_corpus;
    run.model = "rsm";
    run.options = {{"k", kUnits}};
    run.seed = 1;
    run.objectiveName = "reconstruction log-likelihood";
    m_snapshotRun = core::createRun(project, run);
    const int V = static_cast<int>(m_words.size());
    core::saveMatrix(project, m_snapshotRun, core::hidden::kWeights, 5, handWeights(V));
    core::saveMatrix(project, m_snapshotRun, core::hidden::kVisibleBias, 5, Eigen::MatrixXd::Zero(V, 1));
    core::saveMatrix(project, m_snapshotRun, core::hidden::kHiddenBias, 5, Eigen::MatrixXd::Zero(kUnits, 1));
    core::finishRun(project, m_snapshotRun, core::RunStatus::Stopped, "stopped", 0.1, 5, nlohmann::json::object());
  }

  void analysisOnKnownMatrices() {
    const Eigen::MatrixXd w = handWeights(30);
    const auto top = ui::unitTopWords(w, 6);
    QCOMPARE(top.size(), std::size_t{kUnits});
    for (int k = 0; k < kUnits; ++k) {
      QCOMPARE(top[static_cast<std::size_t>(k)].positive, expectedWords(w, k, true, 6));
      QCOMPARE(top[static_cast<std::size_t>(k)].negative, expectedWords(w, k, false, 6));
    }
    // A column with no negative weight lists none.
    Eigen::MatrixXd positive = w.cwiseAbs();
    QVERIFY(ui::unitTopWords(positive, 6)[0].negative.empty());

    // PCA against the SVD of the centred matrix: the same variances and, up to sign, scores.
    Eigen::MatrixXd a(7, 3);
    a << 0.9, 0.1, 0.5, 0.8, 0.2, 0.4, 0.1, 0.9, 0.5, 0.2, 0.8, 0.6, 0.5, 0.5, 0.1, 0.7, 0.3, 0.9, 0.3, 0.6, 0.2;
    const auto projection = ui::principalComponents(a);
    QCOMPARE(projection.components, 2);
    QCOMPARE(projection.points.rows(), Eigen::Index{7});
    const Eigen::MatrixXd centred = a.rowwise() - a.colwise().mean();
    const auto svd = core::thinSvd(centred);
    const Eigen::VectorXd s = svd.singularValues;
    for (int c = 0; c < 2; ++c) {
      QVERIFY(std::abs(projection.explained[static_cast<std::size_t>(c)] - s(c) * s(c) / s.squaredNorm()) < 1e-9);
      const Eigen::VectorXd expected = svd.u.col(c) * s(c);
      const Eigen::VectorXd got = projection.points.col(c);
      QVERIFY((got - expected).norm() < 1e-9 || (got + expected).norm() < 1e-9);
    }
    // One unit, or identical documents: no second (or first) direction to spread along.
    QCOMPARE(ui::principalComponents(a.leftCols(1)).components, 1);
    QCOMPARE(ui::principalComponents(Eigen::MatrixXd::Constant(5, 3, 0.4)).components, 0);

    // The heat map: the 12 strongest words, each under its arg-max unit, groups in the units' order.
    const auto layout = ui::weightLayout(w, 12);
    QCOMPARE(layout.words.size(), std::size_t{12});
    const Eigen::VectorXd strength = w.cwiseAbs().rowwise().maxCoeff();
    std::vector<int> byStrength(30);
    std::iota(byStrength.begin(), byStrength.end(), 0);
    std::stable_sort(byStrength.begin(), byStrength.end(), [&](int x, int y) { return strength(x) > strength(y); });
    QCOMPARE(std::set<int>(layout.words.begin(), layout.words.end()),
             std::set<int>(byStrength.begin(), byStrength.begin() + 12));
    QCOMPARE(layout.units.size(), std::size_t{kUnits});
    QCOMPARE(std::set<int>(layout.units.begin(), layout.units.end()).size(), std::size_t{kUnits});
  }

  void pagesAppearForHarmoniumsOnly() {
    auto view = openView(m_rsmRun);
    QCOMPARE(test::runViewTabs(*view), (QStringList{QStringLiteral("Hidden units"), QStringLiteral("Activations"),
                                                    QStringLiteral("Weights"), QStringLiteral("Training")}));
    QCOMPARE(view->pages()->currentWidget(), static_cast<QWidget*>(view->page<ui::HiddenUnitsPage>()));

    auto rbm = openView(m_rbmRun);
    QCOMPARE(test::runViewTabs(*rbm).mid(0, 3),
             (QStringList{QStringLiteral("Hidden units"), QStringLiteral("Activations"), QStringLiteral("Weights")}));

    auto lda = openView(m_ldaRun, false);
    QVERIFY(lda->page<ui::TopicTableView>());
    QVERIFY(!lda->page<ui::HiddenUnitsPage>());
    QVERIFY(!lda->page<ui::HiddenActivationsPage>());
    QVERIFY(!lda->page<ui::HiddenWeightsPage>());
    QVERIFY(!test::runViewTabs(*lda).contains(QStringLiteral("Hidden units")));
  }

  void tableListsTheLargestWeights() {
    auto view = openView(m_rsmRun);
    auto* page = view->page<ui::HiddenUnitsPage>();
    auto* model = page->model();
    QCOMPARE(model->rowCount(), kUnits);
    QVERIFY(page->headerText().contains(QStringLiteral("final result")));
    for (int k = 0; k < kUnits; ++k) {
      for (const bool positive : {true, false}) {
        QStringList expected;
        for (const int v : expectedWords(m_weights, k, positive, ui::kHiddenTopWords))
          expected << ui::qs(m_words[static_cast<std::size_t>(v)]);
        const int column = positive ? ui::HiddenUnitModel::RaisesColumn : ui::HiddenUnitModel::LowersColumn;
        QCOMPARE(model->index(k, column).data().toString(), expected.join(QStringLiteral(", ")));
      }
      QVERIFY(std::abs(model->index(k, ui::HiddenUnitModel::MeanColumn).data(ui::kExportRole).toDouble() -
                       m_activations.col(k).mean()) < 1e-12);
    }
    // Sorting by mean activation puts the most active unit first.
    page->table()->sortByColumn(ui::HiddenUnitModel::MeanColumn, Qt::DescendingOrder);
    Eigen::Index most = 0;
    m_activations.colwise().mean().maxCoeff(&most);
    QCOMPARE(page->table()->model()->index(0, ui::HiddenUnitModel::UnitColumn).data().toInt(),
             static_cast<int>(most) + 1);
  }

  void tableExportsToCsv() {
    auto view = openView(m_rsmRun);
    auto* page = view->page<ui::HiddenUnitsPage>();
    page->table()->sortByColumn(ui::HiddenUnitModel::UnitColumn, Qt::AscendingOrder);
    const auto file = m_scratch->path("units.csv");
    QString error;
    QVERIFY2(ui::exportTableCsv(*page->table(), ui::fromPath(file), &error), qPrintable(error));
    QFile csv(ui::fromPath(file));
    QVERIFY(csv.open(QIODevice::ReadOnly));
    const QStringList lines =
        QString::fromUtf8(csv.readAll()).split(QRegularExpression(QStringLiteral("\r?\n")), Qt::SkipEmptyParts);
    QCOMPARE(lines.size(), kUnits + 1);
    QCOMPARE(lines[0], QStringLiteral("unit,positive_words,negative_words,mean_activation"));
    for (int k = 0; k < kUnits; ++k) {
      const QStringList fields = lines[k + 1].split(QLatin1Char(','));
      QCOMPARE(fields.size(), 4);
      QCOMPARE(fields[0].toInt(), k + 1);
      QStringList positive, negative;
      for (const int v : expectedWords(m_weights, k, true, ui::kHiddenTopWords))
        positive << ui::qs(m_words[static_cast<std::size_t>(v)]);
      for (const int v : expectedWords(m_weights, k, false, ui::kHiddenTopWords))
        negative << ui::qs(m_words[static_cast<std::size_t>(v)]);
      QCOMPARE(fields[1], positive.join(QLatin1Char(' ')));
      QCOMPARE(fields[2], negative.join(QLatin1Char(' ')));
      // The full number, not the table's three decimals.
      QVERIFY(std::abs(fields[3].toDouble() - m_activations.col(k).mean()) < 1e-12);
    }
  }

  void mapHasEveryDocumentAndPicksOnClick() {
    auto view = openView(m_rsmRun);
    auto* page = view->page<ui::HiddenActivationsPage>();
    view->pages()->setCurrentWidget(page);
    QTest::qWait(50);
    auto* map = page->map();
    QCOMPARE(map->pointCount(), 16);
    const auto expected = ui::principalComponents(m_activations);
    for (int d = 0; d < 16; ++d) {
      QVERIFY(std::abs(map->documentScores(d).x() - expected.points(d, 0)) < 1e-9);
      QVERIFY(std::abs(map->documentScores(d).y() - expected.points(d, 1)) < 1e-9);
      QVERIFY(map->plotRect().adjusted(-1, -1, 1, 1).contains(map->documentPosition(d)));
    }
    // Coloured by label: the two themes differ, documents of one theme agree.
    QCOMPARE(map->documentColour(0), map->documentColour(2));
    QVERIFY(map->documentColour(0) != map->documentColour(1));
    QCOMPARE(page->selectedDocument(), 0);  // the first document is shown at once

    // Clicking a dot shows that document in the bars and the list. Dots can overlap: pick one the
    // map finds under its own position.
    int target = -1;
    for (int d = 15; d > 0 && target < 0; --d)
      if (map->documentAt(map->documentPosition(d)) == d) target = d;
    QVERIFY(target > 0);
    clickAt(map, map->documentPosition(target));
    QCOMPARE(page->selectedDocument(), target);
    QCOMPARE(map->selected(), target);
    QCOMPARE(page->bars()->document(), target);
    QCOMPARE(page->bars()->barCount(), kUnits);
    for (int k = 0; k < kUnits; ++k) QCOMPARE(page->bars()->barValue(k), m_activations(target, k));
    const QModelIndex current = page->documentTable()->currentIndex();
    QCOMPARE(current.siblingAtColumn(0).data().toInt(), target + 1);
    QVERIFY(page->documentHeaderText().contains(QStringLiteral("note %1").arg(target + 1)));

    // The list filters as typed, by label too; a document picked on the map clears a filter
    // that hides it.
    page->filterBox()->setText(QStringLiteral("sea"));
    QCOMPARE(page->documentTable()->model()->rowCount(), 8);
    page->selectDocument(2);  // a pet note
    QCOMPARE(page->filterBox()->text(), QString());
    QCOMPARE(page->documentTable()->model()->rowCount(), 16);
    QCOMPARE(page->documentTable()->currentIndex().siblingAtColumn(0).data().toInt(), 3);
  }

  void heatMapGroupsWordsUnderTheirUnit() {
    auto view = openView(m_rsmRun);
    auto* page = view->page<ui::HiddenWeightsPage>();
    view->pages()->setCurrentWidget(page);
    QTest::qWait(50);
    auto* heat = page->heatmap();
    const int V = static_cast<int>(m_words.size());
    QCOMPARE(heat->rowCount(), std::min(V, ui::kHeatMapWords));
    QCOMPARE(heat->columnCount(), kUnits);
    const auto& layout = page->data()->layout;
    // Each row sits in the group of the unit that raises its word most, a group per unit at most,
    // the groups in the columns' order.
    std::vector<int> groupOrder;
    for (int r = 0; r < heat->rowCount(); ++r) {
      const int word = heat->rowWord(r);
      Eigen::Index best = 0;
      m_weights.row(word).maxCoeff(&best);
      QCOMPARE(layout.rowUnit[static_cast<std::size_t>(r)], static_cast<int>(best));
      if (groupOrder.empty() || groupOrder.back() != best) groupOrder.push_back(static_cast<int>(best));
      for (int c = 0; c < heat->columnCount(); ++c)
        QCOMPARE(heat->cellValue(r, c), m_weights(word, heat->columnUnit(c)));
    }
    QCOMPARE(std::set<int>(groupOrder.begin(), groupOrder.end()).size(), groupOrder.size());
    QCOMPARE(layout.groupStarts.size(), groupOrder.size());
    std::vector<int> unitsWithRows;
    for (const int u : layout.units)
      if (std::find(groupOrder.begin(), groupOrder.end(), u) != groupOrder.end()) unitsWithRows.push_back(u);
    QCOMPARE(groupOrder, unitsWithRows);
    // Within a group, the word its unit raises most comes first.
    for (std::size_t g = 0; g < layout.groupStarts.size(); ++g) {
      const int first = layout.groupStarts[g];
      const int end = g + 1 < layout.groupStarts.size() ? layout.groupStarts[g + 1] : heat->rowCount();
      const int unit = layout.rowUnit[static_cast<std::size_t>(first)];
      for (int r = first + 1; r < end; ++r)
        QVERIFY(m_weights(heat->rowWord(r - 1), unit) >= m_weights(heat->rowWord(r), unit));
    }
    // Diverging colours: the background at zero, and different hues for the two signs.
    QCOMPARE(heat->colourFor(0.0), heat->palette().color(QPalette::Base));
    const QColor up = heat->colourFor(heat->scaleMaximum()), down = heat->colourFor(-heat->scaleMaximum());
    QVERIFY(up.red() > up.blue());
    QVERIFY(down.blue() > down.red());
    // A cell's tooltip names its word, unit and weight.
    const QString tip = heat->toolTipFor(0, 0);
    QVERIFY(tip.contains(ui::qs(m_words[static_cast<std::size_t>(heat->rowWord(0))])));
    QVERIFY(tip.contains(QStringLiteral("Unit %1").arg(heat->columnUnit(0) + 1)));
    QVERIFY(heat->cellAt(heat->cellRect(2, 1).center()) == QPoint(1, 2));
  }

  void snapshotRunShowsItsSnapshot() {
    auto view = openView(m_snapshotRun);
    auto* units = view->page<ui::HiddenUnitsPage>();
    QVERIFY(units->headerText().contains(QStringLiteral("epoch 5")));
    const Eigen::MatrixXd w = handWeights(static_cast<int>(m_words.size()));
    for (int k = 0; k < kUnits; ++k) {
      QStringList expected;
      for (const int v : expectedWords(w, k, true, ui::kHiddenTopWords))
        expected << ui::qs(m_words[static_cast<std::size_t>(v)]);
      QCOMPARE(units->model()->index(k, ui::HiddenUnitModel::RaisesColumn).data().toString(),
               expected.join(QStringLiteral(", ")));
    }
    // A snapshot has no activations: no Activations page, no mean column.
    QVERIFY(units->table()->isColumnHidden(ui::HiddenUnitModel::MeanColumn));
    QCOMPARE(test::runViewTabs(*view),
             (QStringList{QStringLiteral("Hidden units"), QStringLiteral("Weights"), QStringLiteral("Training")}));
    QCOMPARE(view->page<ui::HiddenWeightsPage>()->shownIteration(), qint64{5});
    QVERIFY(view->page<ui::HiddenWeightsPage>()->headerText().contains(QStringLiteral("last snapshot")));
  }

  void liveWeightsFollowARunningRsm() {
    // The page shows the latest snapshot; the default retention deletes it as soon as the next one is
    // written (many a second here), before the test could read it back.
    const test::ScopedEnvironment keepAll("LATENT_KEEP_SNAPSHOTS", "all");
    ui::MainWindow window;
    window.resize(1300, 850);
    window.show();
    QVERIFY(test::openProject(window, ui::fromPath(m_file)));
    auto* panel = window.runPanel();
    QVERIFY(panel->selectDataset(m_corpus));
    QVERIFY(panel->selectModel(QStringLiteral("rsm")));
    // Far more epochs than the test waits for, a snapshot every 200.
    panel->optionForm()->setValues({{"k", kUnits}, {"iterations", 1000000}, {"snapshot_every", 200}});
    panel->heldoutBox()->setValue(0.0);
    ui::JobController* controller = panel->start();
    QVERIFY2(controller, qPrintable(panel->errorText()));
    QTRY_VERIFY_WITH_TIMEOUT(controller->hasRun(), 20000);
    ui::RunView* view = window.openRun(controller->runId());
    QVERIFY(view);
    QTRY_VERIFY_WITH_TIMEOUT(
        view->page<ui::HiddenWeightsPage>() && view->page<ui::HiddenWeightsPage>()->shownIteration() >= 0, 30000);
    auto* page = view->page<ui::HiddenWeightsPage>();
    QVERIFY(page->isFollowing());
    QVERIFY(view->pages()->indexOf(page) >= 0);
    QVERIFY(!view->page<ui::HiddenUnitsPage>());  // the table waits for the end
    const qint64 first = page->shownIteration();
    QTRY_VERIFY_WITH_TIMEOUT(page->shownIteration() > first, 30000);
    QVERIFY(page->headerText().contains(QStringLiteral("running fit")));
    // What is shown is the stored snapshot of that epoch, ordered as the layout says.
    const qint64 at = page->shownIteration();
    {
      core::Project project(m_file, core::Project::Access::ReadOnly);
      const auto stored = core::loadMatrix(project, controller->runId(), core::hidden::kWeights, at);
      QVERIFY(stored);
      QVERIFY(page->data()->weights.isApprox(*stored));
      const auto layout = ui::weightLayout(*stored, ui::kHeatMapWords);
      QCOMPARE(page->data()->layout.words, layout.words);
      QCOMPARE(page->data()->layout.units, layout.units);
      QCOMPARE(page->heatmap()->cellValue(0, 0), (*stored)(layout.words[0], layout.units[0]));
    }
    controller->requestStop();
    QTRY_VERIFY_WITH_TIMEOUT(controller->state() == ui::JobController::State::Ended, 30000);
    QVERIFY(test::waitFor([&] { return view->isSettled() && view->page<ui::HiddenUnitsPage>(); }, 30000));
    QVERIFY(!page->isFollowing());
    QCOMPARE(page->shownIteration(), qint64{-1});  // the stopped run's final matrices
    QCOMPARE(view->pages()->currentWidget(), static_cast<QWidget*>(view->page<ui::HiddenUnitsPage>()));
  }
};

LATENT_TEST_CASE(TestHiddenViews)
#include "tst_hidden_views.moc"
