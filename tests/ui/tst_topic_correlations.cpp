// SPDX-License-Identifier: GPL-3.0-or-later
// The topic correlation graph of a CTM run (000 Fig. 27.10) on documents where two themes go
// together and a third stands alone: its page is there (and only for a run with correlations),
// its first threshold shows some but not all pairs, the edges are the positive correlations at the
// threshold with the two related themes joined, labels follow the Topics page, and a click opens
// the topic there. The map itself is checked in tests/core (tst_correlation_map.cpp).
#include <QSlider>
#include <QTabWidget>
#include <QtTest>

#include <algorithm>

#include "core/jobs/fit_job.hpp"
#include "test_case.hpp"
#include "test_support.hpp"
#include "ui/runs/run_view.hpp"
#include "ui/runs/topics/topic_correlation_view.hpp"
#include "ui/runs/topics/topic_run_data.hpp"
#include "ui/runs/topics/topic_table_view.hpp"
#include "ui/util/settings.hpp"
#include "ui_test_data.hpp"

using namespace latent;

namespace {

// Half the documents mix the money and river themes, the rest are about games alone.
std::vector<test::TextDocument> pairedThemeDocuments() {
  const std::vector<std::string> money = {"money", "loan", "credit", "interest", "debt", "payment"};
  const std::vector<std::string> river = {"river", "stream", "water", "fish", "boat", "shore"};
  const std::vector<std::string> games = {"game", "team", "score", "ball", "coach", "season"};
  std::vector<test::TextDocument> docs;
  std::uint32_t state = 11;
  auto next = [&state](std::uint32_t n) {
    state = state * 1664525u + 1013904223u;
    return (state >> 8) % n;
  };
  for (int d = 0; d < 90; ++d) {
    std::string text;
    // Each mixed document with its own share of money words (15% to 85%): the two themes go
    // together, yet their words do not always come in the same proportion, so they are two topics.
    const std::uint32_t moneyPercent = 15 + next(71);
    for (int i = 0; i < 40; ++i) {
      const auto& theme = d % 2 == 0 ? games : (next(100) < moneyPercent ? money : river);
      text += theme[next(static_cast<std::uint32_t>(theme.size()))] + " ";
    }
    docs.push_back({"doc" + std::to_string(d + 1), "Document " + std::to_string(d + 1), text});
  }
  return docs;
}

// The fitted topic that gives `word` the highest probability.
int topicOf(const ui::TopicRunData& data, const std::string& word) {
  const auto found = std::find(data.words.begin(), data.words.end(), word);
  if (found == data.words.end()) return -1;
  Eigen::Index topic = 0;
  data.topicWord.toDense().col(found - data.words.begin()).maxCoeff(&topic);
  return static_cast<int>(topic);
}

}  // namespace

class TestTopicCorrelations : public QObject {
  Q_OBJECT

  std::unique_ptr<test::Scratch> m_scratch;
  std::filesystem::path m_file;
  qint64 m_run = 0;

  std::unique_ptr<ui::RunView> openView() {
    auto view = std::make_unique<ui::RunView>(m_file, m_run);
    view->resize(1200, 800);
    [&] { QVERIFY(test::waitFor([&] { return view->isSettled() && view->page<ui::TopicCorrelationView>(); })); }();
    return view;
  }

 private Q_SLOTS:
  void initTestCase() {
    test::isolateSettings();
    ui::appSettings().clear();
    m_scratch = std::make_unique<test::Scratch>();
    m_file = m_scratch->path("ctm.latent");
    {
      core::Project project(m_file);
      test::addTextCorpus(project, "paired", pairedThemeDocuments(), true);
    }
    core::RunRequest request;
    request.model = "ctm";
    request.dataset = "paired";
    request.options = {{"k", 3}, {"iterations", 40}};
    request.seed = 3;
    m_run = core::runFit(m_file, request, nullptr, {}).run.id;
  }

  void pageFollowsTheDocumentsPage() {
    auto view = openView();
    QStringList tabs;
    for (int i = 0; i < view->pages()->count(); ++i) tabs << view->pages()->tabText(i);
    QCOMPARE(tabs, (QStringList{QStringLiteral("Topics"), QStringLiteral("Documents"), QStringLiteral("Correlations"),
                                QStringLiteral("Topic map"), QStringLiteral("Training")}));
  }

  // The related themes are joined; the lone one is not, and every edge is a positive correlation at
  // least the threshold, strongest first.
  void edgesAreTheStrongPositiveCorrelations() {
    auto view = openView();
    auto* graph = view->page<ui::TopicCorrelationView>();
    const auto* data = view->page<ui::TopicTableView>()->data();
    const int money = topicOf(*data, "money"), river = topicOf(*data, "river"), games = topicOf(*data, "game");
    QVERIFY(money >= 0 && river >= 0 && games >= 0 && money != river && river != games && money != games);
    const auto& r = data->topicCorrelation;
    qInfo("correlations: money-river %.2f, money-games %.2f, river-games %.2f", r(money, river), r(money, games),
          r(river, games));
    QVERIFY(r(money, river) > 0.0);
    QVERIFY(r(money, games) < 0.0 && r(river, games) < 0.0);

    // The first threshold: at most as many edges as topics, and at least one.
    const auto first = graph->edges();
    QVERIFY(!first.empty() && first.size() <= 3);
    QCOMPARE(first.front(), (std::pair<int, int>{std::min(money, river), std::max(money, river)}));
    graph->setThreshold(0.0);
    const auto all = graph->edges();
    QCOMPARE(all.size(), std::size_t{1});
    graph->slider()->setValue(100);
    QCOMPARE(graph->threshold(), 1.0);
    QVERIFY(graph->edges().empty());
    QVERIFY2(graph->summary().contains(QStringLiteral("0 pairs")), qPrintable(graph->summary()));
  }

  void labelsFollowTheTopicsPage() {
    auto view = openView();
    auto* graph = view->page<ui::TopicCorrelationView>();
    auto* table = view->page<ui::TopicTableView>();
    const int games = topicOf(*table->data(), "game");
    // Unnamed: the number and the three most probable words.
    const auto& top = table->data()->topWords[static_cast<std::size_t>(games)];
    const QString words = QStringList{table->data()->wordText(top[0].word), table->data()->wordText(top[1].word),
                                      table->data()->wordText(top[2].word)}
                              .join(QLatin1Char(' '));
    QCOMPARE(graph->nodeLabel(games), QStringLiteral("%1 %2").arg(games + 1).arg(words));
    table->renameTopic(games, QStringLiteral("Sport"));
    QCOMPARE(graph->nodeLabel(games), QStringLiteral("%1 Sport").arg(games + 1));
    table->undoStack()->undo();
    QCOMPARE(graph->nodeLabel(games), QStringLiteral("%1 %2").arg(games + 1).arg(words));
  }

  void clickingATopicOpensIt() {
    auto view = openView();
    auto* graph = view->page<ui::TopicCorrelationView>();
    view->pages()->setCurrentWidget(graph);
    auto* canvas = graph->canvas();
    for (int topic = 0; topic < 3; ++topic) {
      view->pages()->setCurrentWidget(graph);
      QCOMPARE(canvas->topicAt(canvas->nodePosition(topic)), topic);
      QTest::mouseClick(canvas, Qt::LeftButton, {}, canvas->nodePosition(topic).toPoint());
      QCOMPARE(view->pages()->currentWidget(), static_cast<QWidget*>(view->page<ui::TopicTableView>()));
      QCOMPARE(view->page<ui::TopicTableView>()->currentTopic(), topic);
    }
  }
};

LATENT_TEST_CASE(TestTopicCorrelations)
#include "tst_topic_correlations.moc"
