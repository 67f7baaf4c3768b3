// SPDX-License-Identifier: GPL-3.0-or-later
// The hidden-unit pages of a categorical RBM on ratings (rbm-ratings on a small planted set: two
// groups of users with opposite tastes), beside pmf on the same ratings. Checks that the pages
// appear for rbm-ratings and not for pmf, that the units table ranks items by how far each unit,
// on alone, moves their expected rating (computed here from the stored matrices), that the heat
// map shows those effects, and that the activations list, bars and map have one entry per user.
#include <QSortFilterProxyModel>
#include <QTabWidget>
#include <QTableView>
#include <QtTest>

#include <algorithm>
#include <cmath>
#include <numeric>

#include "core/jobs/fit_job.hpp"
#include "core/results/hidden_results.hpp"
#include "core/store/run_results.hpp"
#include "test_case.hpp"
#include "test_support.hpp"
#include "ui/runs/factors/factor_page.hpp"
#include "ui/runs/hidden/activation_bars_view.hpp"
#include "ui/runs/hidden/activation_map_view.hpp"
#include "ui/runs/hidden/hidden_activations_page.hpp"
#include "ui/runs/hidden/hidden_run_data.hpp"
#include "ui/runs/hidden/hidden_unit_model.hpp"
#include "ui/runs/hidden/hidden_units_page.hpp"
#include "ui/runs/hidden/hidden_weights_page.hpp"
#include "ui/runs/hidden/weight_heatmap_view.hpp"
#include "ui/runs/run_view.hpp"
#include "ui/util/settings.hpp"
#include "ui/util/table_export.hpp"
#include "ui_test_data.hpp"

using namespace latent;

namespace {

constexpr int kRatingsViewUsers = 40;
constexpr int kRatingsViewItems = 12;
constexpr int kRatingsViewUnits = 3;

// Users of two groups (user % 2) with opposite tastes: 5 to the items of their parity and 1 to
// the others, every fifth or so of those a 4 or a 2; each user rates the items with (3 user + 5 item)
// % 7 not 0, so that items differ in how many rate them (and users' first items differ: the item
// indices are in order of first appearance, not of their names).
core::Ratings plantedViewRatings() {
  std::vector<std::tuple<std::string, std::string, double>> rows;
  for (int u = 0; u < kRatingsViewUsers; ++u)
    for (int i = 0; i < kRatingsViewItems; ++i) {
      if ((3 * u + 5 * i) % 7 == 0) continue;
      const bool loves = u % 2 == i % 2;
      const bool soft = (7 * u + 3 * i) % 5 == 0;
      rows.emplace_back("u" + std::to_string(u), "item" + std::to_string(i),
                        loves ? (soft ? 4.0 : 5.0) : (soft ? 2.0 : 1.0));
    }
  return test::makeRatings(rows);
}

// sum_r level_r softmax_r(logits).
double ratingsViewExpectation(const Eigen::VectorXd& logits, const Eigen::VectorXd& levels) {
  const Eigen::VectorXd p = (logits.array() - logits.maxCoeff()).exp().matrix();
  return p.dot(levels) / p.sum();
}

}  // namespace

class TestHiddenRatingsViews : public QObject {
  Q_OBJECT

  std::unique_ptr<test::Scratch> m_scratch;
  std::filesystem::path m_file;
  core::Ratings m_ratings;
  qint64 m_rbmRun = 0, m_pmfRun = 0;
  Eigen::MatrixXd m_activations;  // U x K as stored
  Eigen::MatrixXd m_effects;      // I x K, computed here from the stored W, b and levels

  std::unique_ptr<ui::RunView> openView(qint64 run) {
    auto view = std::make_unique<ui::RunView>(m_file, run);
    view->resize(1200, 800);
    view->show();
    [&] {
      QVERIFY(QTest::qWaitForWindowExposed(view.get()));
      QVERIFY(test::waitFor([&] { return view->isSettled(); }));
    }();
    return view;
  }

  // The items of `unit` with an effect of `sign`, strongest first (ties to the lower index), as
  // the table names them, at most `count`.
  QStringList rankedItems(int unit, int sign, int count) const {
    std::vector<int> items;
    for (int i = 0; i < kRatingsViewItems; ++i)
      if (sign * m_effects(i, unit) > 0) items.push_back(i);
    std::stable_sort(items.begin(), items.end(),
                     [&](int a, int b) { return sign * m_effects(a, unit) > sign * m_effects(b, unit); });
    QStringList out;
    for (std::size_t n = 0; n < items.size() && static_cast<int>(n) < count; ++n)
      out << QString::fromStdString(m_ratings.itemIds[static_cast<std::size_t>(items[n])]);
    return out;
  }

 private Q_SLOTS:
  void initTestCase() {
    test::isolateSettings();
    ui::appSettings().clear();
    m_scratch = std::make_unique<test::Scratch>();
    m_file = m_scratch->path("ratings.latent");
    m_ratings = plantedViewRatings();
    QCOMPARE(m_ratings.itemCount(), std::size_t{kRatingsViewItems});
    QCOMPARE(m_ratings.userCount(), std::size_t{kRatingsViewUsers});
    {
      core::Project project(m_file);
      test::addRatings(project, "planted", m_ratings);
    }
    core::RunRequest request;
    request.model = "rbm-ratings";
    request.dataset = "planted";
    request.options = {{"k", kRatingsViewUnits}, {"iterations", 20}, {"batch_size", 10}, {"learning_rate", 0.1}};
    request.seed = 3;
    m_rbmRun = core::runFit(m_file, request, nullptr, {}).run.id;
    request.model = "pmf";
    request.options = {{"k", 2}, {"iterations", 5}};
    m_pmfRun = core::runFit(m_file, request, nullptr, {}).run.id;

    // The stored matrices, read back from the project as the pages read them.
    core::Project project(m_file);
    const auto stored = core::loadResult(project, m_rbmRun,
                                         {core::hidden::kRatingWeights, core::hidden::kRatingVisibleBias,
                                          core::hidden::kRatingLevels, core::hidden::kHiddenActivations});
    QVERIFY(stored);
    QCOMPARE(stored->iteration, std::int64_t{-1});
    const auto& weights = *stored->find(core::hidden::kRatingWeights);
    const auto& bias = *stored->find(core::hidden::kRatingVisibleBias);
    const Eigen::VectorXd levels = stored->find(core::hidden::kRatingLevels)->row(0).transpose();
    m_activations = *stored->find(core::hidden::kHiddenActivations);
    const auto R = bias.cols();
    QCOMPARE(levels.size(), Eigen::Index{4});  // 1, 2, 4, 5
    QCOMPARE(bias.rows(), Eigen::Index{kRatingsViewItems});
    QCOMPARE(weights.rows(), Eigen::Index{kRatingsViewItems} * R);
    QCOMPARE(weights.cols(), Eigen::Index{kRatingsViewUnits});
    QCOMPARE(m_activations.rows(), Eigen::Index{kRatingsViewUsers});
    m_effects.resize(kRatingsViewItems, kRatingsViewUnits);
    for (int i = 0; i < kRatingsViewItems; ++i) {
      const Eigen::VectorXd b = bias.row(i).transpose();
      const double base = ratingsViewExpectation(b, levels);
      for (int k = 0; k < kRatingsViewUnits; ++k) {
        Eigen::VectorXd logits = b;
        for (Eigen::Index r = 0; r < R; ++r) logits(r) += weights(i * R + r, k);
        m_effects(i, k) = ratingsViewExpectation(logits, levels) - base;
      }
    }
  }

  void pagesAppearForRbmRatingsOnly() {
    auto view = openView(m_rbmRun);
    QCOMPARE(test::runViewTabs(*view).mid(0, 3),
             (QStringList{QStringLiteral("Hidden units"), QStringLiteral("Activations"), QStringLiteral("Weights")}));
    const auto& data = *view->page<ui::HiddenUnitsPage>()->data();
    QVERIFY(data.isRatings());
    QCOMPARE(data.wordCount(), kRatingsViewItems);
    QCOMPARE(data.unitCount(), kRatingsViewUnits);
    QCOMPARE(data.documentCount(), kRatingsViewUsers);
    QCOMPARE(data.visibleNoun(true), QStringLiteral("items"));
    QCOMPARE(data.caseNoun(), QStringLiteral("user"));
    QVERIFY(view->page<ui::HiddenUnitsPage>()->headerText().contains(QStringLiteral("expected rating")));

    auto pmf = openView(m_pmfRun);
    QVERIFY(pmf->page<ui::FactorPage>());  // the view did read the run
    QVERIFY(!pmf->page<ui::HiddenUnitsPage>());
    QVERIFY(!pmf->page<ui::HiddenActivationsPage>());
    QVERIFY(!pmf->page<ui::HiddenWeightsPage>());
    QVERIFY(!test::runViewTabs(*pmf).contains(QStringLiteral("Hidden units")));
  }

  void unitTableRanksItemsByExpectedRating() {
    // The planted tastes give unit 0 a clear favourite: no near tie for the views to break apart.
    std::vector<double> column(m_effects.col(0).data(), m_effects.col(0).data() + kRatingsViewItems);
    std::sort(column.begin(), column.end(), std::greater<double>());
    QVERIFY2(column[0] > column[1] + 1e-6, "unit 0's top two items tie");
    QVERIFY2(column[0] > 0.0, "unit 0 raises no item");

    auto view = openView(m_rbmRun);
    auto* page = view->page<ui::HiddenUnitsPage>();
    auto* model = page->model();
    QCOMPARE(model->rowCount(), kRatingsViewUnits);
    for (int k = 0; k < kRatingsViewUnits; ++k) {
      const QStringList raises = model->index(k, ui::HiddenUnitModel::RaisesColumn)
                                     .data()
                                     .toString()
                                     .split(QStringLiteral(", "), Qt::SkipEmptyParts);
      QCOMPARE(raises, rankedItems(k, +1, ui::kHiddenTopWords));
      const QStringList lowers = model->index(k, ui::HiddenUnitModel::LowersColumn)
                                     .data()
                                     .toString()
                                     .split(QStringLiteral(", "), Qt::SkipEmptyParts);
      QCOMPARE(lowers, rankedItems(k, -1, ui::kHiddenTopWords));
    }
    Eigen::Index top = 0;
    m_effects.col(0).maxCoeff(&top);
    const QString topItem = QString::fromStdString(m_ratings.itemIds[static_cast<std::size_t>(top)]);
    QCOMPARE(model->index(0, ui::HiddenUnitModel::RaisesColumn).data().toString().section(QStringLiteral(", "), 0, 0),
             topItem);
    // The export names the lists as items, and keeps names with spaces apart.
    QCOMPARE(model->headerData(ui::HiddenUnitModel::RaisesColumn, Qt::Horizontal, ui::kExportRole).toString(),
             QStringLiteral("raised_items"));
    QCOMPARE(model->index(0, ui::HiddenUnitModel::RaisesColumn).data(ui::kExportRole).toString(),
             rankedItems(0, +1, ui::kHiddenTopWords).join(QStringLiteral("; ")));

    // Sortable: by unit, descending, the last unit comes first.
    page->table()->sortByColumn(ui::HiddenUnitModel::UnitColumn, Qt::DescendingOrder);
    QCOMPARE(page->table()->model()->index(0, ui::HiddenUnitModel::UnitColumn).data().toInt(), kRatingsViewUnits);
  }

  void heatmapShowsTheEffects() {
    auto view = openView(m_rbmRun);
    auto* page = view->page<ui::HiddenWeightsPage>();
    view->pages()->setCurrentWidget(page);
    QTest::qWait(20);
    auto* map = page->heatmap();
    QCOMPARE(map->rowCount(), kRatingsViewItems);
    QCOMPARE(map->columnCount(), kRatingsViewUnits);
    for (int row = 0; row < map->rowCount(); ++row)
      for (int column = 0; column < map->columnCount(); ++column)
        QVERIFY(std::abs(map->cellValue(row, column) - m_effects(map->rowWord(row), map->columnUnit(column))) < 1e-9);
    // Each item's row sits under the unit that raises it most.
    const int firstUnit = map->columnUnit(0);
    Eigen::Index owner = 0;
    m_effects.row(map->rowWord(0)).maxCoeff(&owner);
    QCOMPARE(static_cast<int>(owner), firstUnit);
    QVERIFY(page->headerText().contains(QStringLiteral("expected rating")));
    QVERIFY(map->toolTipFor(0, 0).contains(QStringLiteral("expected rating")));
  }

  void activationsHaveOneEntryPerUser() {
    auto view = openView(m_rbmRun);
    auto* page = view->page<ui::HiddenActivationsPage>();
    QVERIFY(page);
    view->pages()->setCurrentWidget(page);
    QTest::qWait(20);
    QCOMPARE(page->documentTable()->model()->rowCount(), kRatingsViewUsers);
    QCOMPARE(page->map()->pointCount(), kRatingsViewUsers);
    // No labels on ratings: every user has the same colour.
    for (int u = 1; u < kRatingsViewUsers; ++u)
      QCOMPARE(page->map()->documentColour(u), page->map()->documentColour(0));

    // A user's bars are its stored activations, one per unit.
    const int user = 5;
    page->selectDocument(user);
    QCOMPARE(page->bars()->document(), user);
    QCOMPARE(page->bars()->barCount(), kRatingsViewUnits);
    for (int k = 0; k < kRatingsViewUnits; ++k) QCOMPARE(page->bars()->barValue(k), m_activations(user, k));
    QVERIFY(page->documentHeaderText().contains(QStringLiteral("u5")));
    QVERIFY(page->documentHeaderText().contains(QStringLiteral("ratings")));
    // The map's points are the users' activations on their first two principal components: the
    // two planted groups lie apart along the first.
    const auto& projection = page->data()->projection;
    QCOMPARE(projection.points.rows(), Eigen::Index{kRatingsViewUsers});
    QVERIFY(projection.components >= 1);
    double even = 0.0, odd = 0.0;
    for (int u = 0; u < kRatingsViewUsers; ++u) (u % 2 == 0 ? even : odd) += projection.points(u, 0);
    QVERIFY2(even * odd < 0.0, "the two groups of users do not lie apart on the map");
  }
};

LATENT_TEST_CASE(TestHiddenRatingsViews)
#include "tst_hidden_ratings_views.moc"
