// SPDX-License-Identifier: GPL-3.0-or-later
// The Metadata page of a DMR run on documents whose party picks their theme and whose year makes
// one theme more common: the page is there (and only for a run with metadata weights), it offers
// the features, the time's bars put the rising theme first and its range line gives the years, a
// party's bars put its theme first, and labels follow the Topics page.
#include <QComboBox>
#include <QDir>
#include <QTabWidget>
#include <QtTest>

#include <algorithm>

#include "core/jobs/fit_job.hpp"
#include "core/jobs/samples.hpp"
#include "dark_palette.hpp"
#include "test_case.hpp"
#include "test_support.hpp"
#include "ui/runs/run_view.hpp"
#include "ui/runs/topics/topic_metadata_view.hpp"
#include "ui/runs/topics/topic_run_data.hpp"
#include "ui/runs/topics/topic_table_view.hpp"
#include "ui/util/settings.hpp"
#include "ui_test_data.hpp"

using namespace latent;

namespace {

// Red documents write mostly about money, blue ones about rivers; games words grow with the year.
std::vector<test::TextDocument> partyDocuments() {
  const std::vector<std::string> money = {"money", "loan", "credit", "interest", "debt", "payment"};
  const std::vector<std::string> river = {"river", "stream", "water", "fish", "boat", "shore"};
  const std::vector<std::string> games = {"game", "team", "score", "ball", "coach", "season"};
  std::vector<test::TextDocument> docs;
  std::uint32_t state = 7;
  auto next = [&state](std::uint32_t n) {
    state = state * 1664525u + 1013904223u;
    return (state >> 8) % n;
  };
  for (int d = 0; d < 120; ++d) {
    const bool red = d % 2 == 0;
    const int year = 1800 + static_cast<int>(next(201));
    const std::uint32_t gamesPercent = static_cast<std::uint32_t>(5 + (year - 1800) * 70 / 200);
    std::string text;
    for (int i = 0; i < 40; ++i) {
      const auto& theme = next(100) < gamesPercent ? games : (red ? money : river);
      text += theme[next(static_cast<std::uint32_t>(theme.size()))] + " ";
    }
    docs.push_back({"doc" + std::to_string(d + 1), "Document " + std::to_string(d + 1), text, std::to_string(year),
                    red ? "red" : "blue"});
  }
  return docs;
}

int metadataTopicOf(const ui::TopicRunData& data, const std::string& word) {
  const auto found = std::find(data.words.begin(), data.words.end(), word);
  if (found == data.words.end()) return -1;
  Eigen::Index topic = 0;
  data.topicWord.toDense().col(found - data.words.begin()).maxCoeff(&topic);
  return static_cast<int>(topic);
}

}  // namespace

class TestTopicMetadata : public QObject {
  Q_OBJECT

  std::unique_ptr<test::Scratch> m_scratch;
  std::filesystem::path m_file;
  qint64 m_run = 0, m_lda = 0;

  std::unique_ptr<ui::RunView> openView(qint64 run) {
    auto view = std::make_unique<ui::RunView>(m_file, run);
    view->resize(1200, 700);
    [&] { QVERIFY(test::waitFor([&] { return view->isSettled() && view->page<ui::TopicTableView>(); })); }();
    return view;
  }

 private Q_SLOTS:
  void initTestCase() {
    test::isolateSettings();
    ui::appSettings().clear();
    m_scratch = std::make_unique<test::Scratch>();
    m_file = m_scratch->path("dmr.latent");
    {
      core::Project project(m_file);
      test::addTextCorpus(project, "parties", partyDocuments(), true);
    }
    core::RunRequest request;
    request.model = "dmr";
    request.dataset = "parties";
    request.options = {{"k", 3}, {"iterations", 120}, {"burn_in", 20}, {"optimize_every", 10}};
    request.seed = 3;
    m_run = core::runFit(m_file, request, nullptr, {}).run.id;
    request.model = "lda-gibbs";
    request.options = {{"k", 3}, {"iterations", 20}};
    m_lda = core::runFit(m_file, request, nullptr, {}).run.id;
  }

  void pageFollowsTheDocumentsPage() {
    auto view = openView(m_run);
    QStringList tabs;
    for (int i = 0; i < view->pages()->count(); ++i) tabs << view->pages()->tabText(i);
    QCOMPARE(tabs, (QStringList{QStringLiteral("Topics"), QStringLiteral("Documents"), QStringLiteral("Metadata"),
                                QStringLiteral("By field"), QStringLiteral("Topic map"), QStringLiteral("Training")}));
    auto lda = openView(m_lda);
    QVERIFY(lda->page<ui::TopicMetadataView>() == nullptr);
  }

  void barsSayWhatEachFeatureRaises() {
    auto view = openView(m_run);
    auto* page = view->page<ui::TopicMetadataView>();
    QVERIFY(page);
    const auto* data = view->page<ui::TopicTableView>()->data();
    QCOMPARE(page->features(),
             (QStringList{QStringLiteral("time"), QStringLiteral("label=blue"), QStringLiteral("label=red")}));
    QCOMPARE(page->featureBox()->count(), 3);
    const int money = metadataTopicOf(*data, "money"), river = metadataTopicOf(*data, "river"),
              games = metadataTopicOf(*data, "game");
    QVERIFY(money >= 0 && river >= 0 && games >= 0 && money != river && river != games && money != games);

    page->featureBox()->setCurrentIndex(0);  // time
    auto effects = page->effects();
    QCOMPARE(effects.size(), std::size_t{3});
    qInfo("time: topic %d x%.2f, topic %d x%.2f, topic %d x%.2f", effects[0].topic, std::exp(effects[0].logChange),
          effects[1].topic, std::exp(effects[1].logChange), effects[2].topic, std::exp(effects[2].logChange));
    QCOMPARE(effects.front().topic, games);
    QVERIFY(effects.front().logChange > 0.5);
    // The years as years, from the earliest to the latest of the training documents.
    QVERIFY2(page->rangeText().contains(QStringLiteral("from 1800 to 1999")), qPrintable(page->rangeText()));

    page->setFeature(2);  // label=red
    QCOMPARE(page->featureBox()->currentIndex(), 2);
    effects = page->effects();
    qInfo("red: topic %d, %d, %d", effects[0].topic, effects[1].topic, effects[2].topic);
    // Red against blue: money above rivers.
    const auto rank = [&](int topic) {
      return std::find_if(effects.begin(), effects.end(), [&](const auto& e) { return e.topic == topic; }) -
             effects.begin();
    };
    QVERIFY(rank(money) < rank(river));
    QVERIFY(page->rangeText().contains(QStringLiteral("present or absent")));
  }

  void labelsFollowTheTopicsPage() {
    auto view = openView(m_run);
    auto* page = view->page<ui::TopicMetadataView>();
    auto* table = view->page<ui::TopicTableView>();
    table->renameTopic(0, QStringLiteral("Sport"));
    QCOMPARE(page->topicText(0), QStringLiteral("1 Sport"));
    table->undoStack()->undo();
    QVERIFY(page->topicText(0) != QStringLiteral("1 Sport"));
  }

  void screenshots() {
    const QString dir = qEnvironmentVariable("LATENT_UI_SHOTS");
    if (dir.isEmpty()) QSKIP("set LATENT_UI_SHOTS=DIR to write screenshots of the Metadata page");
    auto view = openView(m_run);
    auto* page = view->page<ui::TopicMetadataView>();
    view->pages()->setCurrentWidget(page);
    view->show();
    QTest::qWait(300);
    QVERIFY(view->grab().save(QDir(dir).filePath(QStringLiteral("metadata-time.png"))));
    page->setFeature(2);
    view->setPalette(test::darkPalette());
    QTest::qWait(300);
    QVERIFY(view->grab().save(QDir(dir).filePath(QStringLiteral("metadata-party-dark.png"))));

    // The State of the Union with the year and the party (fewer sweeps than the demo's, to keep it short).
    const auto file = m_scratch->path("sotu.latent");
    {
      core::Project project(file);
      core::importSample(project, "sotu");
    }
    core::RunRequest request;
    request.model = "dmr";
    request.dataset = "sotu";
    request.options = {{"k", 12}, {"iterations", 150}, {"features", "time,label"}};
    request.heldout = 0.1;
    const auto run = core::runFit(file, request, nullptr, {}).run.id;
    auto sotu = std::make_unique<ui::RunView>(file, run);
    sotu->resize(1300, 650);
    QVERIFY(test::waitFor([&] { return sotu->isSettled() && sotu->page<ui::TopicMetadataView>(); }, 60000));
    sotu->pages()->setCurrentWidget(sotu->page<ui::TopicMetadataView>());
    sotu->show();
    QTest::qWait(300);
    QVERIFY(sotu->grab().save(QDir(dir).filePath(QStringLiteral("metadata-sotu-time.png"))));
    sotu->page<ui::TopicMetadataView>()->setFeature(5);  // label=Republican
    QTest::qWait(300);
    QVERIFY(sotu->grab().save(QDir(dir).filePath(QStringLiteral("metadata-sotu-republican.png"))));
  }
};

LATENT_TEST_CASE(TestTopicMetadata)
#include "tst_topic_metadata.moc"
