// SPDX-License-Identifier: GPL-3.0-or-later
// The "Topics over time" page (000 §27.4.2, Fig. 27.12) on a dynamic topic model's results written
// by hand: ten dated documents in five decades (one without documents), three topics of which the
// first drifts from "sail" to "steam". The page is there (and only for a run with the per-slice
// matrices), the words table is the stored ranking slice by slice, the lines are the stored
// probabilities, the shares chart has a band per topic with the chosen one at the bottom, a click on
// a slice (column or chart) lists exactly its documents, labels follow the Topics page, a typed word
// becomes a line, a listed document opens in the Documents page. With LATENT_UI_SHOTS=DIR it also
// saves the page as PNG, on these documents and on the State of the Union (an LDA fit's assignments
// counted per decade stand in for a dtm until there is one).
#include <QApplication>
#include <QAreaSeries>
#include <QChart>
#include <QComboBox>
#include <QDir>
#include <QHeaderView>
#include <QLegend>
#include <QLegendMarker>
#include <QLineEdit>
#include <QLineSeries>
#include <QPushButton>
#include <QSpinBox>
#include <QTabWidget>
#include <QTableView>
#include <QValueAxis>
#include <QtTest>

#include <algorithm>
#include <cmath>
#include <future>
#include <numeric>
#include <random>
#include <set>

#include "core/jobs/fit_job.hpp"
#include "core/jobs/samples.hpp"
#include "core/results/topic_results.hpp"
#include "core/store/run_store.hpp"
#include "dark_palette.hpp"
#include "test_case.hpp"
#include "test_support.hpp"
#include "ui/main_window.hpp"
#include "ui/runs/run_view.hpp"
#include "ui/runs/topics/topic_document_view.hpp"
#include "ui/runs/topics/topic_run_data.hpp"
#include "ui/runs/topics/topic_table_view.hpp"
#include "ui/runs/topics/topic_time_data.hpp"
#include "ui/runs/topics/topic_time_models.hpp"
#include "ui/runs/topics/topic_time_view.hpp"
#include "ui/util/figure_export.hpp"
#include "ui/util/qt_convert.hpp"
#include "ui/util/settings.hpp"
#include "ui/util/table_export.hpp"
#include "ui/util/topic_colours.hpp"
#include "ui_test_data.hpp"

using namespace latent;

namespace {

constexpr int kTimeTopics = 3;
const std::vector<double> kDecades = {1800, 1810, 1820, 1830, 1840};  // 1820-1829 has no documents

const std::vector<std::vector<std::string>> kTimeThemes = {
    {"sail", "steam", "ship", "harbour", "cargo"},
    {"wheat", "farm", "plough", "cotton", "harvest"},
    {"war", "army", "treaty", "navy", "fort"},
};

struct DatedDocument {
  std::string time;
  int slice;
};
const std::vector<DatedDocument> kDatedDocuments = {
    {"1801", 0}, {"1805", 0},       {"1808-03-14", 0}, {"1812", 1}, {"1819", 1},
    {"1830", 3}, {"1834-07-04", 3}, {"1839", 3},       {"1840", 4}, {"1846-12-31", 4},
};

std::vector<test::TextDocument> datedDocuments() {
  std::vector<test::TextDocument> docs;
  for (std::size_t d = 0; d < kDatedDocuments.size(); ++d) {
    std::string text;
    for (const auto& theme : kTimeThemes)
      for (const auto& word : theme) text += word + " ";
    // Each document leans to one theme.
    for (const auto& word : kTimeThemes[d % 3]) text += word + " " + word + " ";
    docs.push_back({"d" + std::to_string(d + 1), "Dispatch " + std::to_string(d + 1), text, kDatedDocuments[d].time});
  }
  return docs;
}

// Topic k's word weights in slice t before normalising: the theme's words over a floor shared by
// every word (ties, which rank by word id).
double timeWeight(int k, int t, const std::string& word) {
  const auto& theme = kTimeThemes[static_cast<std::size_t>(k)];
  const auto at = std::find(theme.begin(), theme.end(), word);
  if (at == theme.end()) return 0.002;
  static const double weights[3][5][2] = {
      // (base, change per slice) of each theme word
      {{0.40, -0.08}, {0.02, 0.09}, {0.2, 0.0}, {0.1, 0.01}, {0.05, 0.005}},
      {{0.3, -0.02}, {0.25, 0.0}, {0.15, -0.02}, {0.05, 0.06}, {0.1, 0.0}},
      {{0.35, 0.0}, {0.2, 0.01}, {0.1, 0.03}, {0.12, -0.01}, {0.08, 0.0}},
  };
  const auto& w = weights[k][at - theme.begin()];
  return w[0] + w[1] * t;
}

// The ranking the page must show: most probable first, ties to the smaller word id.
std::vector<int> storedRanking(const Eigen::MatrixXd& bySlice, Eigen::Index row) {
  std::vector<int> order(static_cast<std::size_t>(bySlice.cols()));
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(), [&](int a, int b) { return bySlice(row, a) > bySlice(row, b); });
  return order;
}

// An LDA run's per-token topics counted per slice of `width` years: a stand-in for a dtm's results
// for screenshots (smoothed counts per slice, shares of the slice's assigned words).
std::int64_t timeRunFromAssignments(const std::filesystem::path& file, std::int64_t ldaRun, double width) {
  core::Project project(file);
  const auto run = core::loadRun(project, ldaRun);
  const auto docs = core::listDocuments(project, run.datasetId);
  const auto topicWord = *core::loadMatrix(project, ldaRun, core::topic::kTopicWord);
  const auto K = topicWord.rows(), V = topicWord.cols();
  std::vector<std::string> times;
  for (const auto& d : docs) times.push_back(d.time);
  const auto slices = core::sliceByTime(times, width);
  const auto T = static_cast<Eigen::Index>(slices.size());
  Eigen::MatrixXd counts = Eigen::MatrixXd::Zero(T * K, V);
  for (std::size_t d = 0; d < docs.size(); ++d) {
    const auto doc = core::loadDocument(project, run.datasetId, docs[d].index);
    const auto topics = core::loadTokenTopics(project, ldaRun, docs[d].index);
    if (topics.size() != doc.wordIds.size()) continue;
    for (std::size_t i = 0; i < topics.size(); ++i) counts(slices.sliceOf[d] * K + topics[i], doc.wordIds[i]) += 1.0;
  }
  Eigen::MatrixXd shares(T, K), sliceMatrix(T, 3);
  for (Eigen::Index t = 0; t < T; ++t) {
    for (Eigen::Index k = 0; k < K; ++k) shares(t, k) = counts.row(t * K + k).sum() + 1e-9;
    shares.row(t) /= shares.row(t).sum();
    sliceMatrix.row(t) << slices.starts[static_cast<std::size_t>(t)], width,
        static_cast<double>(slices.documents[static_cast<std::size_t>(t)]);
  }
  Eigen::MatrixXd bySlice = counts.array() + 0.05;
  for (Eigen::Index r = 0; r < bySlice.rows(); ++r) bySlice.row(r) /= bySlice.row(r).sum();
  core::RunRecord r;
  r.datasetId = run.datasetId;
  r.model = "dtm";
  r.options = {{"k", K}, {"slice_width", width}};
  r.seed = run.seed;
  const auto id = core::createRun(project, r);
  core::saveMatrix(project, id, core::topic::kTopicWord, -1, topicWord);
  if (auto docTopic = core::loadMatrix(project, ldaRun, core::topic::kDocTopic))
    core::saveMatrix(project, id, core::topic::kDocTopic, -1, *docTopic);
  core::saveMatrix(project, id, core::topic::kTimeSlices, -1, sliceMatrix);
  core::saveMatrix(project, id, core::topic::kTopicWordBySlice, -1, bySlice);
  core::saveMatrix(project, id, core::topic::kTopicShareBySlice, -1, shares);
  core::finishRun(project, id, core::RunStatus::Finished, "", 1.0, 1, nlohmann::json::object());
  return id;
}

}  // namespace

class TestTopicsOverTime : public QObject {
  Q_OBJECT

  std::unique_ptr<test::Scratch> m_scratch;
  std::filesystem::path m_file;
  qint64 m_run = 0, m_ldaRun = 0, m_badRun = 0;
  std::vector<std::string> m_words;
  Eigen::MatrixXd m_bySlice, m_shares, m_docTopic;

  int word(const std::string& w) const {
    return static_cast<int>(std::find(m_words.begin(), m_words.end(), w) - m_words.begin());
  }

  // A run view of `run` shown with its Topics over time page in front.
  std::unique_ptr<ui::RunView> openView(qint64 run) {
    auto view = std::make_unique<ui::RunView>(m_file, run);
    view->resize(1400, 900);
    [&] {
      QVERIFY(test::waitFor([&] { return view->isSettled() && view->page<ui::TopicTableView>(); }));
      if (auto* page = view->page<ui::TopicTimeView>()) {
        view->show();
        QVERIFY(QTest::qWaitForWindowExposed(view.get()));
        view->pages()->setCurrentWidget(page);
        QVERIFY(test::waitFor([&] { return page->wordChart()->chart()->plotArea().width() > 50; }));
      }
    }();
    return view;
  }

  std::set<std::int64_t> documentsOf(int slice) const {
    std::set<std::int64_t> out;
    for (std::size_t d = 0; d < kDatedDocuments.size(); ++d)
      if (kDatedDocuments[d].slice == slice) out.insert(static_cast<std::int64_t>(d));
    return out;
  }

 private Q_SLOTS:
  void initTestCase() {
    test::isolateSettings();
    ui::appSettings().clear();
    m_scratch = std::make_unique<test::Scratch>();
    m_file = m_scratch->path("dtm.latent");
    core::Project project(m_file);
    const auto corpus = test::addTextCorpus(project, "dispatches", datedDocuments());
    for (auto& v : core::loadVocabulary(project, corpus)) m_words.push_back(v.word);
    const auto V = static_cast<Eigen::Index>(m_words.size());
    const auto T = static_cast<Eigen::Index>(kDecades.size());
    const auto D = static_cast<Eigen::Index>(kDatedDocuments.size());
    QCOMPARE(V, Eigen::Index{15});

    m_bySlice.resize(T * kTimeTopics, V);
    for (Eigen::Index t = 0; t < T; ++t)
      for (int k = 0; k < kTimeTopics; ++k) {
        for (Eigen::Index w = 0; w < V; ++w)
          m_bySlice(t * kTimeTopics + k, w) = timeWeight(k, static_cast<int>(t), m_words[static_cast<std::size_t>(w)]);
        m_bySlice.row(t * kTimeTopics + k) /= m_bySlice.row(t * kTimeTopics + k).sum();
      }
    m_shares.resize(T, kTimeTopics);
    m_shares << 0.5, 0.3, 0.2, 0.45, 0.3, 0.25, 0.4, 0.3, 0.3, 0.35, 0.25, 0.4, 0.3, 0.2, 0.5;
    Eigen::MatrixXd slices(T, 3);
    for (Eigen::Index t = 0; t < T; ++t)
      slices.row(t) << kDecades[static_cast<std::size_t>(t)], 10.0,
          static_cast<double>(documentsOf(static_cast<int>(t)).size());
    m_docTopic.resize(D, kTimeTopics);
    for (Eigen::Index d = 0; d < D; ++d) {
      const double a = 0.1 + 0.08 * static_cast<double>(d);
      m_docTopic.row(d) << a, (1 - a) * 0.6, (1 - a) * 0.4;
    }
    Eigen::MatrixXd topicWord = Eigen::MatrixXd::Zero(kTimeTopics, V);
    for (Eigen::Index t = 0; t < T; ++t) topicWord += m_bySlice.middleRows(t * kTimeTopics, kTimeTopics) / T;

    core::RunRecord r;
    r.datasetId = corpus;
    r.model = "dtm";
    r.options = {{"k", kTimeTopics}, {"slice_width", 10}};
    r.seed = 1;
    m_run = core::createRun(project, r);
    core::saveMatrix(project, m_run, core::topic::kTopicWord, -1, topicWord);
    core::saveMatrix(project, m_run, core::topic::kDocTopic, -1, m_docTopic);
    core::saveMatrix(project, m_run, core::topic::kTimeSlices, -1, slices);
    core::saveMatrix(project, m_run, core::topic::kTopicWordBySlice, -1, m_bySlice);
    core::saveMatrix(project, m_run, core::topic::kTopicShareBySlice, -1, m_shares);
    core::finishRun(project, m_run, core::RunStatus::Finished, "", 1.0, 10, nlohmann::json::object());

    // An LDA run of the same documents: topics, no slices.
    r.model = "lda-gibbs";
    r.options = {{"k", kTimeTopics}};
    m_ldaRun = core::createRun(project, r);
    core::saveMatrix(project, m_ldaRun, core::topic::kTopicWord, -1, topicWord);
    core::saveMatrix(project, m_ldaRun, core::topic::kDocTopic, -1, m_docTopic);
    core::finishRun(project, m_ldaRun, core::RunStatus::Finished, "", 1.0, 10, nlohmann::json::object());

    // Slices whose words do not fit the vocabulary.
    r.model = "dtm";
    m_badRun = core::createRun(project, r);
    core::saveMatrix(project, m_badRun, core::topic::kTopicWord, -1, topicWord);
    core::saveMatrix(project, m_badRun, core::topic::kTimeSlices, -1, slices);
    core::saveMatrix(project, m_badRun, core::topic::kTopicWordBySlice, -1, m_bySlice.leftCols(V - 1));
    core::saveMatrix(project, m_badRun, core::topic::kTopicShareBySlice, -1, m_shares);
    core::finishRun(project, m_badRun, core::RunStatus::Finished, "", 1.0, 10, nlohmann::json::object());
  }

  void rankingKeepsTheMostProbableWordsInOrder() {
    // Many ties: values from a few levels, so the word id decides often.
    std::mt19937 rng(5);
    std::uniform_int_distribution<int> level(0, 4);
    Eigen::MatrixXd m(7, 40);
    for (Eigen::Index r = 0; r < m.rows(); ++r)
      for (Eigen::Index c = 0; c < m.cols(); ++c) m(r, c) = 0.1 * level(rng);
    for (const int count : {1, 5, 40, 60}) {
      const auto ranked = ui::topWordsByRow(m, count);
      QCOMPARE(ranked.size(), std::size_t{7});
      for (Eigen::Index r = 0; r < m.rows(); ++r) {
        const auto expected = storedRanking(m, r);
        const auto& got = ranked[static_cast<std::size_t>(r)];
        QCOMPARE(got.size(), static_cast<std::size_t>(std::min(count, 40)));
        for (std::size_t i = 0; i < got.size(); ++i) {
          QCOMPARE(got[i].word, expected[i]);
          QCOMPARE(got[i].probability, m(r, expected[i]));
        }
      }
    }
  }

  void pageFollowsTheDocumentsPageOnlyForTimedRuns() {
    auto view = openView(m_run);
    QCOMPARE(test::runViewTabs(*view),
             (QStringList{QStringLiteral("Topics"), QStringLiteral("Documents"), QStringLiteral("Topics over time"),
                          QStringLiteral("By field"), QStringLiteral("Topic map"), QStringLiteral("Training")}));
    auto lda = openView(m_ldaRun);
    QVERIFY(!test::runViewTabs(*lda).contains(QStringLiteral("Topics over time")));
    QVERIFY(!lda->page<ui::TopicTimeView>());
    // Matrices that do not fit: the other topic pages stay, with the reason.
    // Read as the page reads it, off the GUI thread.
    const auto bad = std::async(std::launch::async, [this] { return ui::loadTopicRun(m_file, m_badRun); }).get();
    QVERIFY(bad.data);
    QVERIFY(!bad.data->overTime);
    QVERIFY2(bad.data->overTimeError.contains(QStringLiteral("topic_word_by_slice")),
             qPrintable(bad.data->overTimeError));
    auto badView = openView(m_badRun);
    QVERIFY(!badView->page<ui::TopicTimeView>());
    QVERIFY(badView->page<ui::TopicTableView>());
  }

  void wordsTableIsTheStoredRankingPerSlice() {
    auto view = openView(m_run);
    auto* page = view->page<ui::TopicTimeView>();
    auto* table = page->wordTable();
    auto* model = table->model();
    QCOMPARE(model->columnCount(), static_cast<int>(kDecades.size()));
    QCOMPARE(model->rowCount(), 10);
    const QStringList labels{"1800-1809", "1810-1819", "1820-1829", "1830-1839", "1840-1849"};
    for (int t = 0; t < model->columnCount(); ++t) QCOMPARE(model->headerData(t, Qt::Horizontal).toString(), labels[t]);
    // The slice without documents is greyed.
    QVERIFY(model->headerData(2, Qt::Horizontal, Qt::ForegroundRole).isValid());
    QVERIFY(!model->headerData(1, Qt::Horizontal, Qt::ForegroundRole).isValid());
    page->setRankCount(15);
    QCOMPARE(model->rowCount(), 15);
    for (int k = 0; k < kTimeTopics; ++k) {
      page->selectTopic(k);
      for (int t = 0; t < model->columnCount(); ++t) {
        const auto expected = storedRanking(m_bySlice, t * kTimeTopics + k);
        for (int rank = 0; rank < model->rowCount(); ++rank)
          QCOMPARE(model->index(rank, t).data().toString(), ui::qs(m_words[static_cast<std::size_t>(expected[rank])]));
      }
    }
    // The drift: topic 1 opens with sail and ends with steam.
    page->selectTopic(0);
    QCOMPARE(model->index(0, 0).data().toString(), QStringLiteral("sail"));
    QCOMPARE(model->index(0, 4).data().toString(), QStringLiteral("steam"));
    // Exported as shown: the slices as columns.
    const QString csv = ui::tableCsv(*table);
    QVERIFY2(csv.startsWith(labels.join(QLatin1Char(','))), qPrintable(csv.left(80)));
    QVERIFY(ui::isExportableFigure(page->wordChart()) && ui::isExportableFigure(page->shareChart()));
  }

  void wordLinesAreTheStoredProbabilities() {
    auto view = openView(m_run);
    auto* page = view->page<ui::TopicTimeView>();
    page->selectTopic(0);
    // At first the words that move most: steam and sail before the others.
    const QStringList words = page->chartedWords();
    QCOMPARE(words.size(), 5);
    QCOMPARE(QSet<QString>(words.begin(), words.begin() + 2), (QSet<QString>{"sail", "steam"}));
    const std::vector<int> drawn{0, 1, 3, 4};  // the slices with documents
    for (const QString& w : words) {
      auto* series = page->wordSeries(w);
      QVERIFY2(series, qPrintable(w));
      const auto points = series->points();
      QCOMPARE(points.size(), static_cast<qsizetype>(drawn.size()));
      for (std::size_t i = 0; i < drawn.size(); ++i) {
        QCOMPARE(points[static_cast<qsizetype>(i)].x(), kDecades[static_cast<std::size_t>(drawn[i])]);
        // (kept in single precision)
        const double stored = m_bySlice(drawn[i] * kTimeTopics + 0, word(ui::utf8(w)));
        QVERIFY(std::abs(points[static_cast<qsizetype>(i)].y() - stored) <= 1e-6 * stored);
      }
    }
    // Another topic, its own words.
    page->selectTopic(1);
    QVERIFY(page->chartedWords().contains(QStringLiteral("cotton")));
    QVERIFY(!page->wordSeries(QStringLiteral("sail")));
  }

  void typedWordBecomesALine() {
    auto view = openView(m_run);
    auto* page = view->page<ui::TopicTimeView>();
    page->selectTopic(2);
    QVERIFY(!page->chartedWords().contains(QStringLiteral("harvest")));
    page->wordBox()->setText(QStringLiteral("Harvest"));
    QTest::keyClick(page->wordBox(), Qt::Key_Return);
    QVERIFY(page->chartedWords().contains(QStringLiteral("harvest")));
    QVERIFY(page->wordBox()->text().isEmpty());
    auto* series = page->wordSeries(QStringLiteral("harvest"));
    QVERIFY(series);
    const double harvest = m_bySlice(0 * kTimeTopics + 2, word("harvest"));
    QVERIFY(std::abs(series->points().at(0).y() - harvest) <= 1e-6 * harvest);
    // It is marked in the table where it ranks.
    auto* model = page->wordModel();
    page->setRankCount(15);
    bool marked = false;
    for (int rank = 0; rank < model->rowCount(); ++rank)
      if (model->index(rank, 0).data().toString() == QStringLiteral("harvest"))
        marked = model->index(rank, 0).data(Qt::ForegroundRole).value<QColor>() == series->color();
    QVERIFY(marked);
    // Not a word of the corpus: a message, no line.
    QVERIFY(!page->addWord(QStringLiteral("zeppelin")));
    QVERIFY2(page->wordMessage().contains(QStringLiteral("not in the vocabulary")), qPrintable(page->wordMessage()));
    // A click on its legend entry takes it off.
    QLegendMarker* entry = nullptr;
    for (auto* marker : page->wordChart()->chart()->legend()->markers(series)) entry = marker;
    QVERIFY(entry);
    Q_EMIT entry->clicked();
    QVERIFY(test::waitFor([&] { return !page->wordSeries(QStringLiteral("harvest")); }));
    QVERIFY(!page->chartedWords().contains(QStringLiteral("harvest")));
    // Double-clicking a word in the table draws it.
    const QString first = model->index(0, 0).data().toString();
    page->removeWord(first);
    QVERIFY(!page->chartedWords().contains(first));
    // (QTest's double click does not reach an item view offscreen here: the view's signal stands in.)
    Q_EMIT page->wordTable()->doubleClicked(model->index(0, 0));
    QVERIFY(page->chartedWords().contains(first));
  }

  void sharesChartHasABandPerTopic() {
    auto view = openView(m_run);
    auto* page = view->page<ui::TopicTimeView>();
    page->selectTopic(1);
    const auto& areas = page->shareSeries();
    QCOMPARE(areas.size(), std::size_t{kTimeTopics});
    int bands = 0;
    for (auto* series : page->shareChart()->chart()->series()) bands += qobject_cast<QAreaSeries*>(series) ? 1 : 0;
    QCOMPARE(bands, kTimeTopics);
    // The chosen topic sits on the axis, the others stacked above it to 100 %.
    const std::vector<int> drawn{0, 1, 3, 4};
    const auto chosen = areas[1]->upperSeries()->points(), chosenBelow = areas[1]->lowerSeries()->points();
    const auto top = areas[2]->upperSeries()->points();
    for (std::size_t i = 0; i < drawn.size(); ++i) {
      const auto at = static_cast<qsizetype>(i);
      QCOMPARE(chosenBelow[at].y(), 0.0);
      QCOMPARE(chosen[at].y(), 100.0 * m_shares(drawn[i], 1));
      QVERIFY(qFuzzyCompare(top[at].y(), 100.0));
    }
    // A click on topic 3's band in the 1830s picks both.
    const double middle = 100.0 * (m_shares(3, 1) + m_shares(3, 0) + m_shares(3, 2) / 2);
    QCOMPARE(page->topicAtShare({1830, middle}), 2);
    QTest::mouseClick(page->shareChart()->viewport(), Qt::LeftButton, {},
                      page->shareChart()->viewportPosition({1830, middle}));
    QCOMPARE(page->currentTopic(), 2);
    QCOMPARE(page->currentSlice(), 3);
    QCOMPARE(page->topicBox()->currentIndex(), 2);
  }

  void clickingASliceListsItsDocuments() {
    auto view = openView(m_run);
    auto* page = view->page<ui::TopicTimeView>();
    page->selectTopic(0);
    // At first the first slice.
    QCOMPARE(page->currentSlice(), 0);
    auto listed = [&] {
      const auto docs = page->listedDocuments();
      return std::set<std::int64_t>(docs.begin(), docs.end());
    };
    QCOMPARE(listed(), documentsOf(0));
    auto* header = page->wordTable()->horizontalHeader();
    for (int t = 0; t < static_cast<int>(kDecades.size()); ++t) {
      const QPoint at(header->sectionViewportPosition(t) + header->sectionSize(t) / 2, header->height() / 2);
      QTest::mouseClick(header->viewport(), Qt::LeftButton, {}, at);
      QCOMPARE(page->currentSlice(), t);
      QCOMPARE(listed(), documentsOf(t));
    }
    QVERIFY2(page->sliceNote().contains(QStringLiteral("1840-1849")), qPrintable(page->sliceNote()));
    // Most of the topic first.
    const auto order = page->listedDocuments();
    for (std::size_t i = 1; i < order.size(); ++i) QVERIFY(m_docTopic(order[i - 1], 0) >= m_docTopic(order[i], 0));
    // The slice without documents says so.
    page->selectSlice(2);
    QVERIFY(page->listedDocuments().empty());
    QVERIFY2(page->sliceNote().contains(QStringLiteral("no documents")), qPrintable(page->sliceNote()));
    // A click on the words chart near 1812 picks the 1810s.
    auto* chart = page->wordChart();
    const auto* y = qobject_cast<QValueAxis*>(chart->chart()->axes(Qt::Vertical).value(0));
    QVERIFY(y);
    QTest::mouseClick(chart->viewport(), Qt::LeftButton, {}, chart->viewportPosition({1812, y->max() / 2}));
    QCOMPARE(page->currentSlice(), 1);
    QCOMPARE(listed(), documentsOf(1));
    // The table marks the slice.
    QCOMPARE(page->wordModel()->currentSlice(), 1);
    QVERIFY(page->wordModel()->index(0, 1).data(Qt::BackgroundRole).isValid());
    QVERIFY(!page->wordModel()->index(0, 0).data(Qt::BackgroundRole).isValid());
    QVERIFY(page->wordModel()->headerData(1, Qt::Horizontal, Qt::FontRole).value<QFont>().bold());
  }

  void listedDocumentOpensInTheDocumentsPage() {
    auto view = openView(m_run);
    auto* page = view->page<ui::TopicTimeView>();
    page->selectSlice(3);
    QVERIFY(page->openButton()->isVisible());
    // The first document picked at first; another clicked.
    auto* list = page->documentTable();
    QCOMPARE(list->currentIndex().row(), 0);
    QVERIFY(page->openButton()->isEnabled());
    list->setCurrentIndex(list->model()->index(1, 0));
    QVERIFY(page->openButton()->isEnabled());
    // An empty slice leaves nothing to open.
    page->selectSlice(2);
    QVERIFY(!page->openButton()->isEnabled());
    page->selectSlice(3);
    list->setCurrentIndex(list->model()->index(1, 0));
    const qint64 wanted = page->listedDocuments()[1];
    auto* reader = view->page<ui::TopicDocumentView>();
    QTest::mouseClick(page->openButton(), Qt::LeftButton);
    QCOMPARE(view->pages()->currentWidget(), static_cast<QWidget*>(reader));
    QVERIFY(test::waitFor([&] { return reader->isIdle() && reader->currentDocument() == wanted; }));
  }

  void labelsFollowTheTopicsPage() {
    auto view = openView(m_run);
    auto* page = view->page<ui::TopicTimeView>();
    auto* table = view->page<ui::TopicTableView>();
    const QString unnamed = page->topicBox()->itemText(0);
    QVERIFY2(unnamed.startsWith(QStringLiteral("1 · ")), qPrintable(unnamed));
    QCOMPARE(unnamed, page->topicName(0));
    QSignalSpy saved(table, &ui::TopicTableView::labelSaved);
    table->renameTopic(0, QStringLiteral("Shipping"));
    QCOMPARE(page->topicBox()->itemText(0), QStringLiteral("1 · Shipping"));
    QVERIFY(saved.wait(10000));
    table->undoStack()->undo();
    QCOMPARE(page->topicBox()->itemText(0), unnamed);
    QVERIFY(saved.wait(10000));
  }

  void followsADarkPalette() {
    auto view = openView(m_run);
    auto* page = view->page<ui::TopicTimeView>();
    QPalette dark;
    dark.setColor(QPalette::Window, QColor(0x20, 0x20, 0x24));
    dark.setColor(QPalette::Base, QColor(0x18, 0x18, 0x1c));
    dark.setColor(QPalette::Text, QColor(0xe8, 0xe8, 0xe8));
    dark.setColor(QPalette::WindowText, QColor(0xe8, 0xe8, 0xe8));
    page->setPalette(dark);
    QCOMPARE(page->wordChart()->chart()->backgroundBrush().color(), dark.color(QPalette::Base));
    QCOMPARE(page->shareChart()->chart()->backgroundBrush().color(), dark.color(QPalette::Base));
    const QString first = page->chartedWords().front();
    QCOMPARE(page->wordSeries(first)->color(), ui::topicColour(0, page->palette()));
  }

  void screenshots() {
    const QString dir = qEnvironmentVariable("LATENT_UI_SHOTS");
    if (dir.isEmpty()) QSKIP("set LATENT_UI_SHOTS=DIR to write screenshots of the Topics over time page");
    {
      auto view = openView(m_run);
      view->page<ui::TopicTimeView>()->selectSlice(3);
      QTest::qWait(300);
      QVERIFY(view->grab().save(QDir(dir).filePath(QStringLiteral("topics-over-time-dispatches.png"))));
    }
    const auto file = m_scratch->path("sotu.latent");
    {
      core::Project project(file);
      core::importSample(project, "sotu");
    }
    core::RunRequest request;
    request.model = "lda-gibbs";
    request.dataset = "sotu";
    request.options = {{"k", 12}, {"iterations", 80}, {"restarts", 1}};
    const auto lda = core::runFit(file, request, nullptr, {}).run.id;
    const auto run = timeRunFromAssignments(file, lda, 20);
    ui::MainWindow window;
    window.resize(1500, 950);
    window.show();
    QVERIFY(test::openProject(window, ui::fromPath(file)));
    ui::RunView* view = window.openRun(run);
    QVERIFY(test::waitFor([&] { return view->isSettled() && view->page<ui::TopicTimeView>(); }, 60000));
    auto* page = view->page<ui::TopicTimeView>();
    view->pages()->setCurrentWidget(page);
    page->selectSlice(page->wordModel()->columnCount() - 3);
    QTest::qWait(400);
    QVERIFY(window.grab().save(QDir(dir).filePath(QStringLiteral("topics-over-time-sotu.png"))));
    page->selectTopic(3);
    QTest::qWait(300);
    QVERIFY(window.grab().save(QDir(dir).filePath(QStringLiteral("topics-over-time-sotu-topic4.png"))));
    QPalette dark = test::darkPalette();
    const QPalette before = QApplication::palette();
    QApplication::setPalette(dark);
    QTest::qWait(400);
    QVERIFY(window.grab().save(QDir(dir).filePath(QStringLiteral("topics-over-time-sotu-dark.png"))));
    QApplication::setPalette(before);
  }
};

LATENT_TEST_CASE(TestTopicsOverTime)
#include "tst_topics_over_time.moc"
