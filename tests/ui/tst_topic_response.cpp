// SPDX-License-Identifier: GPL-3.0-or-later
// The Response page of an sLDA run on documents whose year follows their themes (games early,
// money in the middle, rivers late), and on their main theme's era as a class: the page is there (and only
// for a run with a response), the bars are sorted with the late theme first and the early one last,
// a categorical run offers its classes and the bars follow the class chosen, and labels follow the
// Topics page; the document reader shows the predicted response. With LATENT_UI_SHOTS=DIR it saves
// the page as PNG.
#include <QComboBox>
#include <QDir>
#include <QRegularExpression>
#include <QTabWidget>
#include <QtTest>

#include <algorithm>
#include <cmath>

#include "core/jobs/fit_job.hpp"
#include "test_case.hpp"
#include "test_support.hpp"
#include "ui/runs/run_view.hpp"
#include "ui/runs/topics/topic_document_view.hpp"
#include "ui/runs/topics/topic_response_view.hpp"
#include "ui/runs/topics/topic_run_data.hpp"
#include "ui/runs/topics/topic_table_view.hpp"
#include "ui/util/settings.hpp"
#include "ui_test_data.hpp"

using namespace latent;

namespace {

const std::vector<std::string> kResponseGames = {"game", "team", "score", "ball", "coach", "season"};
const std::vector<std::string> kResponseMoney = {"money", "loan", "credit", "interest", "debt", "payment"};
const std::vector<std::string> kResponseRiver = {"river", "stream", "water", "fish", "boat", "shore"};

// Each document mixes two of the themes; its year is 1900, 1950 or 2000 weighted by its shares of
// games, money and rivers. With `eras` its time is instead the era of its main theme ("1900",
// "1950" or "2000"), read as a class (the project keeps a document's time, not yet its label).
std::vector<test::TextDocument> responseYearDocuments(bool eras) {
  const std::vector<const std::vector<std::string>*> themes = {&kResponseGames, &kResponseMoney, &kResponseRiver};
  const double years[] = {1900.0, 1950.0, 2000.0};
  std::vector<test::TextDocument> docs;
  std::uint32_t state = 7;
  auto next = [&state](std::uint32_t n) {
    state = state * 1664525u + 1013904223u;
    return (state >> 8) % n;
  };
  for (int d = 0; d < 90; ++d) {
    const int a = d % 3, b = (d / 3) % 3;
    const double share = 0.5 + 0.5 * static_cast<double>(next(100)) / 100.0;  // of theme a
    std::string text;
    double counts[3] = {0, 0, 0};
    for (int i = 0; i < 40; ++i) {
      const int t = next(1000) < share * 1000 ? a : b;
      counts[t] += 1.0;
      const auto& theme = *themes[static_cast<std::size_t>(t)];
      text += theme[next(static_cast<std::uint32_t>(theme.size()))] + " ";
    }
    double year = 0.0;
    for (int t = 0; t < 3; ++t) year += years[t] * counts[t] / 40.0;
    const int main = static_cast<int>(std::max_element(counts, counts + 3) - counts);
    docs.push_back({"doc" + std::to_string(d + 1), "Document " + std::to_string(d + 1), text,
                    std::to_string(static_cast<int>(std::lround(eras ? years[main] : year)))});
  }
  return docs;
}

int responseTopicOf(const ui::TopicRunData& data, const std::string& word) {
  const auto found = std::find(data.words.begin(), data.words.end(), word);
  if (found == data.words.end()) return -1;
  Eigen::Index topic = 0;
  data.topicWord.toDense().col(found - data.words.begin()).maxCoeff(&topic);
  return static_cast<int>(topic);
}

}  // namespace

class TestTopicResponse : public QObject {
  Q_OBJECT

  std::unique_ptr<test::Scratch> m_scratch;
  std::filesystem::path m_file;
  qint64 m_yearRun = 0, m_eraRun = 0;

  std::unique_ptr<ui::RunView> openView(qint64 run) {
    auto view = std::make_unique<ui::RunView>(m_file, run);
    view->resize(1100, 700);
    [&] { QVERIFY(test::waitFor([&] { return view->isSettled() && view->page<ui::TopicResponseView>(); })); }();
    return view;
  }

 private Q_SLOTS:
  void initTestCase() {
    test::isolateSettings();
    ui::appSettings().clear();
    m_scratch = std::make_unique<test::Scratch>();
    m_file = m_scratch->path("slda.latent");
    {
      core::Project project(m_file);
      test::addTextCorpus(project, "years", responseYearDocuments(false), true);
      test::addTextCorpus(project, "eras", responseYearDocuments(true), true);
    }
    core::RunRequest request;
    request.model = "slda";
    request.dataset = "years";
    request.options = {{"k", 3}, {"iterations", 30}, {"response", "time"}};
    request.seed = 3;
    const auto year = core::runFit(m_file, request, nullptr, {});
    QVERIFY2(year.run.status == core::RunStatus::Finished, year.run.message.c_str());
    m_yearRun = year.run.id;
    request.dataset = "eras";
    request.options = {{"k", 3}, {"iterations", 30}, {"response", "time"}, {"response_type", "categorical"}};
    const auto era = core::runFit(m_file, request, nullptr, {});
    QVERIFY2(era.run.status == core::RunStatus::Finished, era.run.message.c_str());
    m_eraRun = era.run.id;
  }

  void pageFollowsTheDocumentsPage() {
    auto view = openView(m_yearRun);
    QStringList tabs;
    for (int i = 0; i < view->pages()->count(); ++i) tabs << view->pages()->tabText(i);
    QCOMPARE(tabs, (QStringList{QStringLiteral("Topics"), QStringLiteral("Documents"), QStringLiteral("Response"),
                                QStringLiteral("By field"), QStringLiteral("Topic map"), QStringLiteral("Training")}));
  }

  // Rivers (late) first, games (early) last; the bars start at the mean year.
  void barsSortedByTheTopicsEffect() {
    auto view = openView(m_yearRun);
    auto* page = view->page<ui::TopicResponseView>();
    const auto* data = view->page<ui::TopicTableView>()->data();
    const int games = responseTopicOf(*data, "game"), money = responseTopicOf(*data, "money"),
              river = responseTopicOf(*data, "river");
    QVERIFY(games >= 0 && money >= 0 && river >= 0 && games != money && money != river && games != river);
    qInfo("years: games %.0f, money %.0f, rivers %.0f", page->value(games), page->value(money), page->value(river));
    QCOMPARE(page->order(), (std::vector<int>{river, money, games}));
    QVERIFY(std::abs(page->value(games) - 1900.0) < 20.0);
    QVERIFY(std::abs(page->value(river) - 2000.0) < 20.0);
    QVERIFY(!page->classSelector()->isVisibleTo(page));
    QVERIFY2(page->summary().contains(QStringLiteral("time")), qPrintable(page->summary()));
    // A bar reaches from the mean to the topic's value: the late theme's to the right of the mean.
    auto* canvas = page->canvas();
    view->pages()->setCurrentWidget(page);
    QVERIFY(canvas->barRect(river).left() > canvas->barRect(games).left());
    QVERIFY(canvas->barRect(river).width() > 1.0 && canvas->barRect(games).width() > 1.0);
  }

  void classesAreSelectable() {
    auto view = openView(m_eraRun);
    auto* page = view->page<ui::TopicResponseView>();
    const auto* data = view->page<ui::TopicTableView>()->data();
    QVERIFY(page->classSelector()->isVisibleTo(page));
    QCOMPARE(page->classSelector()->count(), 3);
    const int river = responseTopicOf(*data, "river"), games = responseTopicOf(*data, "game");
    // Classes sorted by name: 1900, 1950, 2000.
    page->classSelector()->setCurrentIndex(2);
    QCOMPARE(page->currentClass(), 2);
    QCOMPARE(page->order().front(), river);
    page->classSelector()->setCurrentIndex(0);
    QCOMPARE(page->order().front(), games);
    QVERIFY2(page->summary().contains(QStringLiteral("1900")), qPrintable(page->summary()));
  }

  // The document reader gives the prediction from the text beside the true value.
  void readerShowsThePrediction() {
    for (const qint64 run : {m_yearRun, m_eraRun}) {
      auto view = openView(run);
      auto* reader = view->page<ui::TopicDocumentView>();
      QVERIFY(reader);
      reader->showDocument(4);
      QVERIFY(test::waitFor([&] { return reader->currentDocument() == 4 && reader->isIdle(); }));
      const QString header = reader->headerText();
      // A number for the year; for the eras the most probable class with its probability.
      const QRegularExpression expected(run == m_yearRun ? QStringLiteral("predicted time \\d{4}")
                                                         : QStringLiteral("predicted time (1900|1950|2000) \\("));
      QVERIFY2(header.contains(expected), qPrintable(header));
    }
  }

  void labelsFollowTheTopicsPage() {
    auto view = openView(m_yearRun);
    auto* page = view->page<ui::TopicResponseView>();
    auto* table = view->page<ui::TopicTableView>();
    const int games = responseTopicOf(*table->data(), "game");
    table->renameTopic(games, QStringLiteral("Sport"));
    QCOMPARE(page->rowLabel(games), QStringLiteral("%1 Sport").arg(games + 1));
    table->undoStack()->undo();
    QVERIFY(page->rowLabel(games).contains(QStringLiteral("game")));
  }

  void screenshots() {
    const QString dir = qEnvironmentVariable("LATENT_UI_SHOTS");
    if (dir.isEmpty()) QSKIP("set LATENT_UI_SHOTS=DIR to write screenshots of the Response page");
    for (const auto& [run, name] :
         {std::pair{m_yearRun, "response-year.png"}, std::pair{m_eraRun, "response-era.png"}}) {
      auto view = openView(run);
      view->pages()->setCurrentWidget(view->page<ui::TopicResponseView>());
      QTest::qWait(200);
      QVERIFY(view->grab().save(QDir(dir).filePath(QString::fromLatin1(name))));
    }
  }
};

LATENT_TEST_CASE(TestTopicResponse)
#include "tst_topic_response.moc"
