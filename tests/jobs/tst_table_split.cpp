// SPDX-License-Identifier: GPL-3.0-or-later
// The held-out rows of a numeric table as a fit sees them (PreparedData): seeded, sorted,
// the same for the same seed, none for fraction 0, never every row.
#include <QtTest>

#include <algorithm>

#include "core/data/numeric_table.hpp"
#include "core/eval/row_split.hpp"
#include "core/models/fit_data.hpp"
#include "core/util/errors.hpp"
#include "test_case.hpp"

using namespace latent;

namespace {

core::NumericTable countingTable(std::size_t rows) {
  core::NumericTable t;
  t.featureNames = {"x"};
  for (std::size_t r = 0; r < rows; ++r) t.rowNames.push_back(std::to_string(r + 1));
  t.values = Eigen::VectorXd::LinSpaced(static_cast<Eigen::Index>(rows), 0.0, static_cast<double>(rows) - 1.0);
  return t;
}

}  // namespace

class TableSplitTest : public QObject {
  Q_OBJECT

 private Q_SLOTS:
  void sameSeedSameRows() {
    const auto table = countingTable(200);
    const core::PreparedData a(table, 0.2, 7), b(table, 0.2, 7), c(table, 0.2, 8);
    QVERIFY(a.data().table == &table);
    QVERIFY(a.data().corpus == nullptr && a.data().ratings == nullptr && a.data().graph == nullptr);
    const auto& rows = a.data().heldoutRows;
    QCOMPARE(rows.size(), std::size_t{40});
    QCOMPARE(rows, b.data().heldoutRows);
    QVERIFY(rows != c.data().heldoutRows);
    QVERIFY(std::is_sorted(rows.begin(), rows.end()));
    QVERIFY(std::adjacent_find(rows.begin(), rows.end()) == rows.end());
    QVERIFY(rows.front() >= 0 && rows.back() < 200);
    QCOMPARE(rows, core::splitRows(200, 0.2, 7));
    const auto train = core::trainingRows(200, rows);
    QCOMPARE(train.size(), std::size_t{160});
    for (const auto r : rows) QVERIFY(!std::binary_search(train.begin(), train.end(), r));
  }

  void fractionZeroHoldsOutNothing() {
    const auto table = countingTable(10);
    const core::PreparedData prepared(table, 0.0, 3);
    QVERIFY(prepared.data().heldoutRows.empty());
    QCOMPARE(core::trainingRows(10, {}).size(), std::size_t{10});
  }

  void atLeastOneRowTrains() {
    QCOMPARE(core::splitRows(2, 0.9, 1).size(), std::size_t{1});
    QVERIFY(core::splitRows(1, 0.9, 1).empty());
    QVERIFY(core::splitRows(0, 0.5, 1).empty());
    QVERIFY_THROWS_EXCEPTION(core::UsageError, core::splitRows(10, 1.0, 1));
    QVERIFY_THROWS_EXCEPTION(core::UsageError, core::splitRows(10, -0.1, 1));
  }
};

LATENT_TEST_CASE(TableSplitTest)
#include "tst_table_split.moc"
