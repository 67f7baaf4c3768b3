// SPDX-License-Identifier: GPL-3.0-or-later
// The intertopic map page (issue 20, missing 3) on documents of three themes, two of which share
// documents: the page is there for a topic run, circles sized by the topics' shares, the bars of a
// selected topic its words ranked by relevance under the slider (probability at lambda = 1, lift at
// 0), each topic's bar never longer than the word's corpus bar, the most salient words with no topic
// selected, circles sized by a hovered word, clicks that select and open topics, and the LDAvis JSON
// saved from the page. With LATENT_UI_SHOTS=DIR it saves screenshots. The numbers themselves are
// checked in tests/core (tst_intertopic_map.cpp).
#include <QDir>
#include <QSignalSpy>
#include <QSlider>
#include <QTabWidget>
#include <QtTest>

#include <nlohmann/json.hpp>

#include <algorithm>
#include <fstream>

#include "core/jobs/fit_job.hpp"
#include "test_case.hpp"
#include "test_support.hpp"
#include "ui/runs/run_view.hpp"
#include "ui/runs/topics/intertopic_map_data.hpp"
#include "ui/runs/topics/intertopic_map_view.hpp"
#include "ui/runs/topics/topic_run_data.hpp"
#include "ui/runs/topics/topic_table_view.hpp"
#include "ui/util/qt_convert.hpp"
#include "ui/util/settings.hpp"
#include "ui_test_data.hpp"

using namespace latent;

namespace {

// A third of the documents are about games; the rest mix money and river words.
std::vector<test::TextDocument> mapThemeDocuments() {
  const std::vector<std::string> money = {"money", "loan", "credit", "interest", "debt", "payment", "bank"};
  const std::vector<std::string> river = {"river", "stream", "water", "fish", "boat", "shore", "bank"};
  const std::vector<std::string> games = {"game", "team", "score", "ball", "coach", "season", "play"};
  std::vector<test::TextDocument> docs;
  std::uint32_t state = 5;
  auto next = [&state](std::uint32_t n) {
    state = state * 1664525u + 1013904223u;
    return (state >> 8) % n;
  };
  for (int d = 0; d < 90; ++d) {
    std::string text;
    const std::uint32_t moneyPercent = 10 + next(81);
    for (int i = 0; i < 40; ++i) {
      const auto& theme = d % 3 == 0 ? games : (next(100) < moneyPercent ? money : river);
      text += theme[next(static_cast<std::uint32_t>(theme.size()))] + " ";
    }
    docs.push_back({"doc" + std::to_string(d + 1), "Document " + std::to_string(d + 1), text});
  }
  return docs;
}

std::int32_t mapWordId(const ui::TopicRunData& data, const std::string& word) {
  const auto found = std::find(data.words.begin(), data.words.end(), word);
  return found == data.words.end() ? -1 : static_cast<std::int32_t>(found - data.words.begin());
}

int mapTopicOf(const ui::TopicRunData& data, const std::string& word) {
  Eigen::Index topic = 0;
  data.topicWord.toDense().col(mapWordId(data, word)).maxCoeff(&topic);
  return static_cast<int>(topic);
}

}  // namespace

class TestIntertopicMap : public QObject {
  Q_OBJECT

  std::unique_ptr<test::Scratch> m_scratch;
  std::filesystem::path m_file;
  qint64 m_run = 0;

  std::unique_ptr<ui::RunView> openView() {
    auto view = std::make_unique<ui::RunView>(m_file, m_run);
    view->resize(1200, 800);
    view->show();
    [&] { QVERIFY(QTest::qWaitForWindowExposed(view.get())); }();
    [&] {
      QVERIFY(test::waitFor([&] {
        const auto* page = view->page<ui::IntertopicMapView>();
        return view->isSettled() && page && page->map();
      }));
    }();
    view->pages()->setCurrentWidget(view->page<ui::IntertopicMapView>());
    return view;
  }

 private Q_SLOTS:
  void initTestCase() {
    test::isolateSettings();
    ui::appSettings().clear();
    m_scratch = std::make_unique<test::Scratch>();
    m_file = m_scratch->path("map.latent");
    {
      core::Project project(m_file);
      test::addTextCorpus(project, "themes", mapThemeDocuments(), true);
    }
    core::RunRequest request;
    request.model = "lda-gibbs";
    request.dataset = "themes";
    request.options = {{"k", 3}, {"iterations", 150}};
    request.seed = 4;
    m_run = core::runFit(m_file, request, nullptr, {}).run.id;
  }

  void pageIsTheLastTopicPage() {
    auto view = openView();
    QCOMPARE(test::runViewTabs(*view),
             (QStringList{QStringLiteral("Topics"), QStringLiteral("Documents"), QStringLiteral("Topic map"),
                          QStringLiteral("Gibbs sampler"), QStringLiteral("Training")}));
  }

  void circlesAreSizedByShareAndApart() {
    auto view = openView();
    auto* page = view->page<ui::IntertopicMapView>();
    const auto* map = page->map();
    QCOMPARE(map->topicCount(), 3);
    const auto& shares = page->data()->shares;
    for (std::size_t k = 0; k < 3; ++k) QVERIFY(std::abs(map->map.prevalence[k] - shares[k]) < 1e-9);
    auto* canvas = page->canvas();
    for (int a = 0; a < 3; ++a)
      for (int b = 0; b < 3; ++b) {
        if (a == b) continue;
        // Area in proportion to the share.
        const double ratio = std::pow(canvas->topicRadius(a) / canvas->topicRadius(b), 2);
        QVERIFY(std::abs(ratio - shares[static_cast<std::size_t>(a)] / shares[static_cast<std::size_t>(b)]) < 1e-6);
        QVERIFY((canvas->topicPosition(a) - canvas->topicPosition(b)).manhattanLength() > 10);
      }
    // Games share no word with the other themes: it is the farthest from both.
    const auto* data = page->data();
    const int games = mapTopicOf(*data, "game"), money = mapTopicOf(*data, "loan"), river = mapTopicOf(*data, "river");
    QVERIFY(games != money && games != river && money != river);
    const auto distance = [&](int a, int b) {
      return (map->map.coordinates.row(a) - map->map.coordinates.row(b)).norm();
    };
    QVERIFY(distance(money, river) < distance(games, money));
    QVERIFY(distance(money, river) < distance(games, river));
  }

  void barsRankByRelevanceUnderTheSlider() {
    auto view = openView();
    auto* page = view->page<ui::IntertopicMapView>();
    const auto* data = page->data();
    const auto* map = page->map();
    QCOMPARE(page->lambda(), 0.6);
    // No topic: the most salient words, a theme's word first.
    QCOMPARE(page->selectedTopic(), -1);
    QCOMPARE(page->shownWords(), map->salient);
    QVERIFY(page->bars()->title().contains(QStringLiteral("salient")));
    const int money = mapTopicOf(*data, "loan");
    page->selectTopic(money);
    QVERIFY(page->bars()->title().contains(QStringLiteral("topic %1").arg(money + 1)));
    page->slider()->setValue(100);
    QCOMPARE(page->lambda(), 1.0);
    auto words = page->shownWords();
    // Fewer words than R: every word the topic uses.
    QCOMPARE(words.size(), std::min<std::size_t>(ui::IntertopicMapData::kTerms, data->words.size()));
    for (std::size_t i = 1; i < words.size(); ++i)
      QVERIFY(data->topicWord(money, words[i - 1]) >= data->topicWord(money, words[i]));
    // "bank" is the money topic's as much as the river topic's: it ranks lower by lift than by probability.
    const auto bank = mapWordId(*data, "bank");
    const auto rankOf = [&](std::int32_t word) {
      const auto shown = page->shownWords();
      return std::find(shown.begin(), shown.end(), word) - shown.begin();
    };
    const auto bankAtOne = rankOf(bank);
    page->slider()->setValue(0);
    QCOMPARE(page->lambda(), 0.0);
    words = page->shownWords();
    const auto lift = [&](std::int32_t w) {
      return data->topicWord(money, w) / map->map.termProportion[static_cast<std::size_t>(w)];
    };
    for (std::size_t i = 1; i < words.size(); ++i) QVERIFY(lift(words[i - 1]) >= lift(words[i]) - 1e-12);
    QVERIFY(rankOf(bank) > bankAtOne);
    // A topic's bar is never longer than the word's corpus-wide bar.
    for (const auto w : words)
      QVERIFY(map->map.termTopicFrequency(money, w) <= map->map.termFrequency[static_cast<std::size_t>(w)] + 1e-9);
  }

  void hoveringAWordSizesTheCirclesByIt() {
    auto view = openView();
    auto* page = view->page<ui::IntertopicMapView>();
    const auto* data = page->data();
    const int games = mapTopicOf(*data, "game");
    auto* canvas = page->canvas();
    const double before = canvas->topicRadius(games);
    page->setHoveredWord(mapWordId(*data, "game"));
    const int others[] = {(games + 1) % 3, (games + 2) % 3};
    for (const int k : others) QVERIFY(canvas->topicRadius(k) < 0.3 * canvas->topicRadius(games));
    page->setHoveredWord(-1);
    QCOMPARE(canvas->topicRadius(games), before);
    // Hovering a row of the bars does the same.
    page->selectTopic(-1);
    auto* bars = page->bars();
    const auto shown = page->shownWords();
    QTest::mouseMove(bars, bars->rowRect(0).center().toPoint());
    QTRY_COMPARE(page->hoveredWord(), shown.front());
  }

  void clicksSelectAndOpenTopics() {
    auto view = openView();
    auto* page = view->page<ui::IntertopicMapView>();
    auto* canvas = page->canvas();
    for (int topic = 0; topic < 3; ++topic) {
      view->pages()->setCurrentWidget(page);
      QCOMPARE(canvas->topicAt(canvas->topicPosition(topic)), topic);
      QTest::mouseClick(canvas, Qt::LeftButton, {}, canvas->topicPosition(topic).toPoint());
      QCOMPARE(page->selectedTopic(), topic);
      QTest::mouseDClick(canvas, Qt::LeftButton, {}, canvas->topicPosition(topic).toPoint());
      QCOMPARE(view->pages()->currentWidget(), static_cast<QWidget*>(view->page<ui::TopicTableView>()));
      QCOMPARE(view->page<ui::TopicTableView>()->currentTopic(), topic);
    }
  }

  void labelsFollowTheTopicsPage() {
    auto view = openView();
    auto* page = view->page<ui::IntertopicMapView>();
    auto* table = view->page<ui::TopicTableView>();
    const int games = mapTopicOf(*table->data(), "game");
    table->renameTopic(games, QStringLiteral("Sport"));
    QCOMPARE(page->topicLabel(games), QStringLiteral("%1 Sport").arg(games + 1));
    table->undoStack()->undo();
    QVERIFY(page->topicLabel(games) != QStringLiteral("%1 Sport").arg(games + 1));
  }

  void savesLdavisJson() {
    auto view = openView();
    auto* page = view->page<ui::IntertopicMapView>();
    const QString file = ui::fromPath(m_scratch->path("map.json"));
    QSignalSpy saved(page, &ui::IntertopicMapView::ldavisSaved);
    page->saveLdavisJson(file);
    QVERIFY(saved.wait(20000));
    QCOMPARE(saved.front().at(1).toString(), QString());
    std::ifstream in(ui::toPath(file));
    const auto json = nlohmann::json::parse(in);
    QCOMPARE(json["mdsDat"]["x"].size(), std::size_t{3});
    QCOMPARE(json["tinfo"]["Term"].size(), json["tinfo"]["Category"].size());
    // The largest topic first, its share in percent.
    const int first = json["topic.order"][0].get<int>() - 1;
    QVERIFY(std::abs(json["mdsDat"]["Freq"][0].get<double>() -
                     100.0 * page->map()->map.prevalence[static_cast<std::size_t>(first)]) < 1e-9);
  }

  void screenshots() {
    const QString dir = qEnvironmentVariable("LATENT_UI_SHOTS");
    if (dir.isEmpty()) QSKIP("set LATENT_UI_SHOTS=DIR to write screenshots of the Topic map page");
    auto view = openView();
    auto* page = view->page<ui::IntertopicMapView>();
    QTest::qWait(200);
    QVERIFY(view->grab().save(QDir(dir).filePath(QStringLiteral("topic-map-salient.png"))));
    page->selectTopic(mapTopicOf(*page->data(), "loan"));
    QTest::qWait(100);
    QVERIFY(view->grab().save(QDir(dir).filePath(QStringLiteral("topic-map-topic.png"))));
    page->setHoveredWord(mapWordId(*page->data(), "bank"));
    QTest::qWait(100);
    QVERIFY(view->grab().save(QDir(dir).filePath(QStringLiteral("topic-map-hover.png"))));
  }
};

LATENT_TEST_CASE(TestIntertopicMap)
#include "tst_intertopic_map.moc"
