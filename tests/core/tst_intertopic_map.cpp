// SPDX-License-Identifier: GPL-3.0-or-later
// The intertopic map's numbers (core/eval/intertopic_map.hpp) against values worked by hand: the
// Jensen-Shannon divergence of known distributions, principal coordinates recovering a planted
// plane configuration up to rotation and reflection, saliency and relevance of a two-topic model;
// and the LDAvis JSON (core/io/ldavis_json.hpp): every column as long as its table, topics largest
// first, the words of each topic, the token table's order and normalisation.
#include <QtTest>

#include <nlohmann/json.hpp>

#include <cmath>
#include <numbers>
#include <random>
#include <sstream>

#include "core/eval/intertopic_map.hpp"
#include "core/io/ldavis_json.hpp"
#include "test_case.hpp"

using namespace latent;

namespace {

bool intertopicClose(double a, double b, double tolerance = 1e-9) { return std::abs(a - b) <= tolerance; }

}  // namespace

class IntertopicMapTest : public QObject {
  Q_OBJECT

 private Q_SLOTS:
  void jensenShannonOfKnownDistributions() {
    const std::vector<double> a{1.0, 0.0}, b{0.0, 1.0}, half{0.5, 0.5};
    QVERIFY(intertopicClose(core::jensenShannonDivergence(a, b), std::numbers::ln2));
    QVERIFY(intertopicClose(core::jensenShannonDivergence(a, a), 0.0));
    // m = (3/4, 1/4): KL(half || m) = log(4/3) / 2, KL(a || m) = log(4/3); the mean of the two.
    QVERIFY(intertopicClose(core::jensenShannonDivergence(half, a), 0.75 * std::log(4.0 / 3.0)));
    QVERIFY(intertopicClose(core::jensenShannonDivergence(a, half), core::jensenShannonDivergence(half, a)));
    Eigen::MatrixXd topics(3, 2);
    topics << 1.0, 0.0, 0.0, 1.0, 0.5, 0.5;
    const auto d = core::jensenShannonMatrix(topics);
    QVERIFY(intertopicClose(d(0, 1), std::numbers::ln2) && intertopicClose(d(1, 0), std::numbers::ln2));
    QVERIFY(intertopicClose(d(2, 0), 0.75 * std::log(4.0 / 3.0)) && d(2, 2) == 0.0);
  }

  void principalCoordinatesRecoverAPlantedPlane() {
    // Six points on a plane, rotated and moved: their distances alone must give them back up to a
    // rotation, reflection and shift, i.e. the same distances, centred, the wider axis first.
    Eigen::MatrixX2d planted(6, 2);
    planted << 0, 0, 4, 0, 4, 1, 0, 1, 2, 0.5, -1, 0.2;
    const double angle = 0.7;
    Eigen::Matrix2d rotation;
    rotation << std::cos(angle), -std::sin(angle), std::sin(angle), std::cos(angle);
    const Eigen::MatrixX2d moved = (planted * rotation.transpose()).rowwise() + Eigen::RowVector2d(3, -2);
    Eigen::MatrixXd distances(6, 6);
    for (int a = 0; a < 6; ++a)
      for (int b = 0; b < 6; ++b) distances(a, b) = (moved.row(a) - moved.row(b)).norm();
    const auto map = core::principalCoordinates(distances);
    for (int a = 0; a < 6; ++a)
      for (int b = 0; b < 6; ++b)
        QVERIFY2(intertopicClose((map.row(a) - map.row(b)).norm(), distances(a, b), 1e-9),
                 qPrintable(QStringLiteral("%1-%2").arg(a).arg(b)));
    QVERIFY(intertopicClose(map.col(0).sum(), 0.0) && intertopicClose(map.col(1).sum(), 0.0));
    QVERIFY(map.col(0).squaredNorm() > map.col(1).squaredNorm());
    // The first axis runs along the planted x (spread 5), the second along y (spread 1).
    QVERIFY(intertopicClose(map.col(0).maxCoeff() - map.col(0).minCoeff(), 5.0, 0.3));
    QVERIFY(core::principalCoordinates(distances) == map);
    // Two topics: one axis of their distance, the second zero; one topic: the origin.
    Eigen::MatrixXd two(2, 2);
    two << 0, 0.4, 0.4, 0;
    const auto pair = core::principalCoordinates(two);
    QVERIFY(intertopicClose(std::abs(pair(0, 0) - pair(1, 0)), 0.4) && pair.col(1).isZero());
    QVERIFY(core::principalCoordinates(Eigen::MatrixXd::Zero(1, 1)).isZero());
  }

  void prevalenceFrequenciesAndSaliencyByHand() {
    // phi = [[3/4, 1/4], [1/4, 3/4]] with 3 and 1 expected tokens: the words' frequencies are
    // 3 * 3/4 + 1/4 = 2.5 and 1.5; P(k|w0) = (3/4, 1/4) is the prevalence itself, so word 0 says
    // nothing of the topic (saliency 0); P(k|w1) = (1/4, 3/4) gives log 3 / 2 nats, times p(w1) = 3/8.
    Eigen::MatrixXd phi(2, 2);
    phi << 0.75, 0.25, 0.25, 0.75;
    const std::vector<double> tokens{3.0, 1.0};
    const auto map = core::intertopicMap(phi, tokens);
    QVERIFY(intertopicClose(map.prevalence[0], 0.75) && intertopicClose(map.prevalence[1], 0.25));
    QVERIFY(intertopicClose(map.termFrequency[0], 2.5) && intertopicClose(map.termFrequency[1], 1.5));
    QVERIFY(intertopicClose(map.termTopicFrequency(1, 1), 0.75));
    QVERIFY(intertopicClose(map.termProportion[1], 0.375));
    QVERIFY(intertopicClose(map.saliency[0], 0.0));
    QVERIFY(intertopicClose(map.saliency[1], 0.375 * 0.5 * std::log(3.0)));
    const Eigen::MatrixXd documents = (Eigen::MatrixXd(2, 2) << 1.0, 0.0, 0.5, 0.5).finished();
    const std::vector<std::int64_t> lengths{2, 2};
    QCOMPARE(core::topicTokens(documents, lengths), (std::vector<double>{3.0, 1.0}));
  }

  void relevanceMovesFromProbabilityToLift() {
    // phi = (0.5, 0.3, 0.2), p(w) = (0.6, 0.1, 0.3): lifts 0.83, 3, 0.67. lambda = 1 ranks by
    // probability, 0 by lift; at 1/2 word 1 (-0.053) still beats word 0 (-0.438).
    Eigen::MatrixXd phi(1, 3);
    phi << 0.5, 0.3, 0.2;
    const std::vector<double> pw{0.6, 0.1, 0.3};
    QCOMPARE(core::mostRelevantWords(phi, pw, 0, 1.0, 3), (std::vector<std::int32_t>{0, 1, 2}));
    QCOMPARE(core::mostRelevantWords(phi, pw, 0, 0.0, 3), (std::vector<std::int32_t>{1, 0, 2}));
    QCOMPARE(core::mostRelevantWords(phi, pw, 0, 0.5, 1), (std::vector<std::int32_t>{1}));
    QCOMPARE(core::relevantWordsOverLambda(phi, pw, 0, 1, 0.5), (std::vector<std::int32_t>{1, 0}));
    // A word the topic never uses is never among its relevant words.
    Eigen::MatrixXd sparse(1, 3);
    sparse << 0.5, 0.5, 0.0;
    QCOMPARE(core::mostRelevantWords(sparse, pw, 0, 0.0, 3), (std::vector<std::int32_t>{1, 0}));
  }

  void rankedListsHoldOnlyTheirWords() {
    // The map keeps a list for each topic and step of lambda (101 K of them): each must hold room
    // for its `count` words, not for the whole vocabulary it was chosen from (K = 1000 on 25,158
    // words took 10 GB that way).
    constexpr int kWords = 5000, kCount = 30;
    Eigen::MatrixXd phi = Eigen::MatrixXd::Constant(1, kWords, 1.0 / kWords);
    const std::vector<double> pw(kWords, 1.0 / kWords);
    for (const auto& ranked : core::mostRelevantWordsByLambda(phi, pw, 0, kCount, 0.25)) {
      QCOMPARE(ranked.size(), std::size_t{kCount});
      QVERIFY2(ranked.capacity() < 2 * kCount, qPrintable(QString::number(ranked.capacity())));
    }
    const auto largest = core::largestFirst(pw, kCount);
    QVERIFY(largest.size() == kCount && largest.capacity() < 2 * kCount);
  }

  void divergencesOfManyTopicsAreEachPairs() {
    // The matrix is computed with the topics shared among threads: each entry is still the pair's
    // divergence to the bit, whatever thread computed it.
    constexpr int kTopics = 40, kWords = 300;
    std::mt19937_64 random(7);
    std::gamma_distribution<double> gamma(0.3, 1.0);
    Eigen::MatrixXd topics(kTopics, kWords);
    for (int k = 0; k < kTopics; ++k) {
      for (int w = 0; w < kWords; ++w) topics(k, w) = gamma(random);
      topics.row(k) /= topics.row(k).sum();
    }
    const auto d = core::jensenShannonMatrix(topics);
    for (int a = 0; a < kTopics; ++a)
      for (int b = 0; b < kTopics; ++b) {
        std::vector<double> p(kWords), q(kWords);
        for (int w = 0; w < kWords; ++w) p[static_cast<std::size_t>(w)] = topics(std::min(a, b), w);
        for (int w = 0; w < kWords; ++w) q[static_cast<std::size_t>(w)] = topics(std::max(a, b), w);
        QCOMPARE(d(a, b), a == b ? 0.0 : core::jensenShannonDivergence(p, q));
      }
  }

  void ldavisJsonHasLdavisShape() {
    // Three topics over six words; topic 2 the largest, then 0, then 1.
    Eigen::MatrixXd phi(3, 6);
    phi << 0.4, 0.3, 0.1, 0.1, 0.05, 0.05,  //
        0.05, 0.05, 0.4, 0.3, 0.1, 0.1,     //
        0.1, 0.05, 0.05, 0.1, 0.3, 0.4;
    const std::vector<double> tokens{30.0, 10.0, 60.0};
    const std::vector<std::string> words{"apple", "bank", "cat", "dog", "egg", "fig"};
    std::ostringstream out;
    core::writeLdavisJson(out, phi, tokens, words, {4, 0.25});
    const auto json = nlohmann::json::parse(out.str());
    QCOMPARE(json["R"].get<int>(), 4);
    QCOMPARE(json["lambda.step"].get<double>(), 0.25);
    QCOMPARE(json["topic.order"], nlohmann::json({3, 1, 2}));
    const auto& mds = json["mdsDat"];
    for (const char* column : {"x", "y", "topics", "cluster", "Freq"}) QCOMPARE(mds[column].size(), std::size_t{3});
    QCOMPARE(mds["topics"], nlohmann::json({1, 2, 3}));
    QVERIFY(intertopicClose(mds["Freq"][0].get<double>(), 60.0) && intertopicClose(mds["Freq"][2].get<double>(), 10.0));
    const auto& tinfo = json["tinfo"];
    const auto rows = tinfo["Term"].size();
    for (const char* column : {"Freq", "Total", "Category", "logprob", "loglift"}) QCOMPARE(tinfo[column].size(), rows);
    int defaults = 0;
    for (std::size_t i = 0; i < rows; ++i) {
      const auto category = tinfo["Category"][i].get<std::string>();
      if (category == "Default") {
        ++defaults;
        continue;
      }
      // Topic1 is the model's topic 2: each row's numbers are that topic's.
      const int shown = std::stoi(category.substr(5));
      const int k = json["topic.order"][static_cast<std::size_t>(shown - 1)].get<int>() - 1;
      const auto term = tinfo["Term"][i].get<std::string>();
      const auto w = std::find(words.begin(), words.end(), term) - words.begin();
      QVERIFY(intertopicClose(tinfo["logprob"][i].get<double>(), std::log(phi(k, w)), 1e-4));
      QVERIFY(intertopicClose(tinfo["Freq"][i].get<double>(), tokens[static_cast<std::size_t>(k)] * phi(k, w)));
      QVERIFY(tinfo["Freq"][i].get<double>() <= tinfo["Total"][i].get<double>() + 1e-9);
    }
    QCOMPARE(defaults, 4);
    QCOMPARE(tinfo["logprob"][0].get<int>(), 4);
    const auto& table = json["token.table"];
    QCOMPARE(table["Topic"].size(), table["Term"].size());
    QCOMPARE(table["Freq"].size(), table["Term"].size());
    for (std::size_t i = 1; i < table["Term"].size(); ++i) {
      const auto a = table["Term"][i - 1].get<std::string>(), b = table["Term"][i].get<std::string>();
      QVERIFY(a < b || (a == b && table["Topic"][i - 1].get<int>() < table["Topic"][i].get<int>()));
    }
    // "fig": 0.4 * 60 = 24 tokens in Topic1, 0.05 * 30 = 1.5 -> 2 in Topic2, 0.1 * 10 = 1 in Topic3, of 26.5.
    std::vector<std::pair<int, double>> fig;
    for (std::size_t i = 0; i < table["Term"].size(); ++i)
      if (table["Term"][i] == "fig") fig.emplace_back(table["Topic"][i].get<int>(), table["Freq"][i].get<double>());
    QCOMPARE(fig.size(), std::size_t{3});
    QVERIFY(intertopicClose(fig[0].second, 24.0 / 26.5) && intertopicClose(fig[1].second, 2.0 / 26.5));
    QVERIFY(intertopicClose(fig[2].second, 1.0 / 26.5));
  }
};

LATENT_TEST_CASE(IntertopicMapTest)
#include "tst_intertopic_map.moc"
