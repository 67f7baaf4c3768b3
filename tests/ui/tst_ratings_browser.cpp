// SPDX-License-Identifier: GPL-3.0-or-later
// The ratings browser: summary numbers, the histogram's bars (one per star value, zeros
// included, or equal-width bins for continuous values) and the most-rated items.
#include <QBarSet>
#include <QTableWidget>
#include <QtTest>

#include "test_case.hpp"
#include "test_support.hpp"
#include "ui/browsers/ratings_browser.hpp"
#include "ui/browsers/ratings_stats.hpp"
#include "ui_test_data.hpp"

using namespace latent;

class TestRatingsBrowser : public QObject {
  Q_OBJECT

  std::unique_ptr<test::Scratch> m_scratch;
  std::filesystem::path m_file;
  qint64 m_stars = 0;

 private Q_SLOTS:
  void initTestCase() {
    test::isolateSettings();
    m_scratch = std::make_unique<test::Scratch>();
    m_file = m_scratch->path("ratings.latent");
    core::Project project(m_file);
    // Values: 1 ×2, 2 ×0, 3 ×3, 4 ×1, 5 ×2 = 8 ratings; item "m2" rated 4 times.
    m_stars = test::addRatings(project, "stars",
                               test::makeRatings({{"u1", "m1", 1},
                                                  {"u2", "m1", 1},
                                                  {"u1", "m2", 3},
                                                  {"u2", "m2", 3},
                                                  {"u3", "m2", 3},
                                                  {"u4", "m2", 4},
                                                  {"u3", "m3", 5},
                                                  {"u4", "m1", 5}}));
  }

  void histogramCountsEachValue() {
    ui::RatingsBrowser browser(m_file, m_stars);
    QVERIFY(test::waitLoaded(&browser));
    QVERIFY(browser.errorText().isEmpty());
    QCOMPARE(browser.histogramLabels(), QStringList({"1", "2", "3", "4", "5"}));
    QBarSet* set = browser.histogramSet();
    QVERIFY(set);
    QCOMPARE(set->count(), 5);
    const double counts[] = {2, 0, 3, 1, 2};
    for (int i = 0; i < 5; ++i) QCOMPARE(set->at(i), counts[i]);

    const auto& s = browser.stats();
    QCOMPARE(s.users, 4);
    QCOMPARE(s.items, 3);
    QCOMPARE(s.ratings, 8);
    QCOMPARE(s.mean, 25.0 / 8.0);
    QCOMPARE(s.density, 8.0 / 12.0);
    QCOMPARE(s.minimum, 1.0);
    QCOMPARE(s.maximum, 5.0);

    // Most rated first: m2 (4 ratings, mean 13/4), then m1 (3, mean 7/3), then m3.
    auto* items = browser.itemTable();
    QCOMPARE(items->rowCount(), 3);
    QCOMPARE(items->item(0, 0)->text(), QStringLiteral("m2"));
    QCOMPARE(items->item(0, 2)->data(Qt::EditRole).toLongLong(), 4);
    QCOMPARE(items->item(0, 3)->data(Qt::EditRole).toDouble(), 13.0 / 4.0);
    QCOMPARE(items->item(1, 0)->text(), QStringLiteral("m1"));
  }

  void continuousValuesAreBinned() {
    // 0.0, 0.1, ..., 2.9: 30 distinct values over [0, 2.9], 20 bins of width 0.145.
    std::vector<std::tuple<std::string, std::string, double>> rows;
    for (int i = 0; i < 30; ++i) rows.emplace_back("u" + std::to_string(i), "i", i / 10.0);
    const auto stats = ui::computeRatingsStats(test::makeRatings(rows));
    QVERIFY(!stats.discrete);
    QCOMPARE(stats.counts.size(), ui::kBins);
    qint64 total = 0;
    for (const auto c : stats.counts) total += c;
    QCOMPARE(total, 30);
    // By hand: bin b holds the values v with floor(v / 0.145) == b (2.9 in the last bin).
    QVector<qint64> byHand(ui::kBins, 0);
    for (int i = 0; i < 30; ++i)
      ++byHand[std::min(ui::kBins - 1, static_cast<int>(std::floor((i / 10.0) / (2.9 / ui::kBins))))];
    QCOMPARE(stats.counts, byHand);
    QCOMPARE(stats.counts[0], 2);  // 0.0 and 0.1
    QCOMPARE(stats.counts[1], 1);  // 0.2
  }
};

LATENT_TEST_CASE(TestRatingsBrowser)
#include "tst_ratings_browser.moc"
