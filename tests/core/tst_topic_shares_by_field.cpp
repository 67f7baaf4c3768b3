// SPDX-License-Identifier: GPL-3.0-or-later
// Topics against a document field: token-weighted mean proportions per year, per bin of years,
// per category (the largest first, the rest as "other") and per label, worked by hand.
#include <QtTest>

#include "core/eval/topic_shares_by_field.hpp"
#include "test_case.hpp"

using namespace latent;

class TopicSharesByFieldTest : public QObject {
  Q_OBJECT

 private Q_SLOTS:
  void yearsAreWeightedByWords() {
    core::DocumentField year;
    year.name = "time";
    year.kind = core::FieldKind::Numeric;
    year.numbers = {1990, 1990, 1991, std::nan(""), 1992};
    Eigen::MatrixXd theta(5, 2);
    theta << 1, 0, 0, 1, 0.5, 0.5, 1, 0, 0.2, 0.8;
    const std::vector<std::int64_t> lengths = {30, 10, 4, 9, 0};  // the last has no words
    const auto shares = core::topicSharesByField(year, theta, lengths);
    QVERIFY(shares.numeric);
    QCOMPARE(shares.groups, (std::vector<std::string>{"1990", "1991"}));
    QCOMPARE(shares.documents, (std::vector<std::int64_t>{2, 1}));
    QCOMPARE(shares.binWidth, 0.0);
    QCOMPARE(shares.shares(0, 0), 0.75);  // (30 x 1 + 10 x 0) / 40
    QCOMPARE(shares.shares(0, 1), 0.25);
    QCOMPARE(shares.shares(1, 0), 0.5);
    // Held as floats (a large doc_topic as stored), the same values give the same shares.
    Eigen::MatrixXf floats(5, 2);
    floats << 1, 0, 0, 1, 0.5F, 0.5F, 1, 0, 0.2F, 0.8F;
    const auto fromFloats = core::topicSharesByField(year, floats, lengths);
    QCOMPARE(fromFloats.groups, shares.groups);
    QVERIFY(fromFloats.shares == core::topicSharesByField(year, floats.cast<double>().eval(), lengths).shares);
    QCOMPARE(fromFloats.shares(0, 0), 0.75);
  }

  void manyYearsGoIntoRoundBins() {
    core::DocumentField year;
    year.name = "time";
    year.kind = core::FieldKind::Numeric;
    for (int y = 1790; y <= 2020; ++y) year.numbers.push_back(y);
    const Eigen::MatrixXd theta = Eigen::MatrixXd::Constant(static_cast<Eigen::Index>(year.numbers.size()), 3, 1.0 / 3);
    const std::vector<std::int64_t> lengths(year.numbers.size(), 5);
    const auto shares = core::topicSharesByField(year, theta, lengths, 40);
    QCOMPARE(shares.binWidth, 10.0);  // 230 years / 40 = 5.75, rounded up to 10
    QCOMPARE(shares.groups.front(), std::string("1790"));
    QCOMPARE(shares.groups.back(), std::string("2020"));
    QCOMPARE(shares.groups.size(), std::size_t{24});
    QCOMPARE(shares.documents.front(), std::int64_t{10});
    QCOMPARE(shares.documents.back(), std::int64_t{1});
    QVERIFY(std::abs(shares.shares.row(5).sum() - 1.0) < 1e-12);
  }

  void categoriesLargestFirstThenOther() {
    core::DocumentField party;
    party.name = "party";
    party.kind = core::FieldKind::Categorical;
    party.categories = {"A", "B", "C", "D"};
    party.codes = {0, 1, 1, 2, 3, -1};
    Eigen::MatrixXd theta(6, 2);
    theta << 1, 0, 0, 1, 0, 1, 1, 0, 0.5, 0.5, 1, 0;
    const std::vector<std::int64_t> lengths = {5, 10, 10, 3, 1, 7};
    const auto shares = core::topicSharesByField(party, theta, lengths, 3);
    QVERIFY(!shares.numeric);
    QCOMPARE(shares.groups, (std::vector<std::string>{"B", "A", "other"}));
    QCOMPARE(shares.documents, (std::vector<std::int64_t>{2, 1, 2}));
    QCOMPARE(shares.shares(0, 1), 1.0);
    QCOMPARE(shares.shares(2, 0), (3.0 + 0.5) / 4.0);  // C and D together
  }

  void aDocumentCountsInEachOfItsLabels() {
    core::DocumentField tags;
    tags.name = "label";
    tags.kind = core::FieldKind::LabelSets;
    tags.categories = {"econ", "war"};
    tags.sets = {{0}, {0, 1}, {1}};
    Eigen::MatrixXd theta(3, 2);
    theta << 1, 0, 0.5, 0.5, 0, 1;
    const std::vector<std::int64_t> lengths = {2, 2, 2};
    const auto shares = core::topicSharesByField(tags, theta, lengths);
    QCOMPARE(shares.documents, (std::vector<std::int64_t>{2, 2}));
    QCOMPARE(shares.shares(0, 0), 0.75);
    QCOMPARE(shares.shares(1, 1), 0.75);
  }
};

LATENT_TEST_CASE(TopicSharesByFieldTest)
#include "tst_topic_shares_by_field.moc"
