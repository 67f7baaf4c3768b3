// SPDX-License-Identifier: GPL-3.0-or-later
// The topic views of a run on a small LDA fit: the topic-word table (shares, relevance ranking at
// lambda 1 and 0, word search, labels kept in the project and undone, CSV export of the rows
// shown) and the annotated document reader (spans and topics equal the stored ones, held-out and
// bag-of-words documents, emphasising a topic), plus topic colours readable in light and dark.
#include <QAbstractItemModel>
#include <QSignalSpy>
#include <QTabWidget>
#include <QTableView>
#include <QTableWidget>
#include <QUndoGroup>
#include <QUndoStack>
#include <QtTest>

#include <algorithm>
#include <cmath>
#include <map>
#include <numeric>
#include <set>

#include "core/jobs/fit_job.hpp"
#include "core/store/topic_label_store.hpp"
#include "core/util/csv_reader.hpp"
#include "test_case.hpp"
#include "test_support.hpp"
#include "ui/main_window.hpp"
#include "ui/runs/run_view.hpp"
#include "ui/runs/topics/topic_document_view.hpp"
#include "ui/runs/topics/topic_run_data.hpp"
#include "ui/runs/topics/topic_table_models.hpp"
#include "ui/runs/topics/topic_table_view.hpp"
#include "ui/util/qt_convert.hpp"
#include "ui/util/settings.hpp"
#include "ui/util/table_export.hpp"
#include "ui/util/topic_colours.hpp"
#include "ui_test_data.hpp"

using namespace latent;

namespace {

constexpr int kTopics = 3;

// Three themes sharing "bank" (finance and rivers) and "report" (everywhere), in sentences with
// stop words and punctuation, a few non-ASCII words and one document with CRLF line breaks.
std::vector<test::TextDocument> themedDocuments() {
  const std::vector<std::vector<std::string>> themes = {
      {"money", "loan", "bank", "credit", "interest", "debt", "payment"},
      {"river", "stream", "bank", "water", "fish", "boat", "shore"},
      {"game", "team", "score", "ball", "coach", "season", "café"},
  };
  std::vector<test::TextDocument> docs;
  std::uint32_t state = 7;
  auto next = [&state](std::uint32_t n) {
    state = state * 1664525u + 1013904223u;
    return (state >> 8) % n;
  };
  for (int d = 0; d < 36; ++d) {
    const auto& theme = themes[static_cast<std::size_t>(d % 3)];
    std::string text = "The report of Zürich: ";
    for (int i = 0; i < 24; ++i) {
      text += theme[next(static_cast<std::uint32_t>(theme.size()))];
      text += i % 6 == 5 ? (d == 4 ? ".\r\n" : ". ") : (i % 3 == 2 ? " and the " : " ");
    }
    text += "— naïve report.";
    docs.push_back({"doc" + std::to_string(d + 1), "Document " + std::to_string(d + 1), text});
  }
  return docs;
}

// Word ids of topic k, best first, by `score` (larger first; ties to the smaller id).
std::vector<int> orderBy(int V, const std::function<double(int)>& score) {
  std::vector<int> order(static_cast<std::size_t>(V));
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(), [&](int a, int b) { return score(a) > score(b); });
  return order;
}

std::vector<std::vector<std::string>> readCsv(const std::filesystem::path& file) {
  core::CsvReader reader(file, {','});
  std::vector<std::vector<std::string>> rows;
  std::vector<std::string> fields;
  while (reader.next(fields)) rows.push_back(fields);
  return rows;
}

}  // namespace

class TestTopicViews : public QObject {
  Q_OBJECT

  std::unique_ptr<test::Scratch> m_scratch;
  std::filesystem::path m_file;
  qint64 m_corpus = 0, m_bag = 0, m_run = 0, m_bagRun = 0;
  Eigen::MatrixXd m_topicWord, m_docTopic;
  std::vector<core::VocabularyEntry> m_vocabulary;

  // A run view of `run`, its topics and first ranking shown.
  std::unique_ptr<ui::RunView> openView(qint64 run) {
    auto view = std::make_unique<ui::RunView>(m_file, run);
    view->resize(1300, 800);
    [&] {
      QVERIFY(test::waitFor([&] { return view->isSettled(); }));
      QVERIFY(view->page<ui::TopicTableView>());
      QVERIFY(test::waitFor([&] { return !view->page<ui::TopicTableView>()->isRanking(); }));
    }();
    return view;
  }

  bool rank(ui::TopicTableView* table, const std::function<void()>& change) {
    QSignalSpy spy(table, &ui::TopicTableView::rankingUpdated);
    change();
    return spy.wait(20000) && test::waitFor([&] { return !table->isRanking(); });
  }

  double corpusFrequency(int w) const {
    double total = 0;
    for (const auto& v : m_vocabulary) total += static_cast<double>(v.count);
    return static_cast<double>(m_vocabulary[static_cast<std::size_t>(w)].count) / total;
  }

 private Q_SLOTS:
  void initTestCase() {
    test::isolateSettings();
    ui::appSettings().clear();
    m_scratch = std::make_unique<test::Scratch>();
    m_file = m_scratch->path("topics.latent");
    {
      core::Project project(m_file);
      m_corpus = test::addTextCorpus(project, "themes", themedDocuments(), true);
      m_bag = test::addBagCorpus(project, "bag", {"alpha", "beta", "gamma", "delta"},
                                 {{{0, 3}, {1, 2}}, {{2, 2}, {3, 3}}, {{0, 1}, {1, 2}, {2, 1}}, {{3, 4}}});
    }
    core::RunRequest request;
    request.model = "lda-gibbs";
    request.dataset = "themes";
    // One start: the chain the views' checks were written for (with the default restarts the start
    // kept fits these short themed documents with every training document in one topic, and the
    // test of a document mixing topics has nothing to click).
    request.options = {{"k", kTopics}, {"iterations", 60}, {"restarts", 1}};
    request.seed = 5;
    request.heldout = 0.2;
    m_run = core::runFit(m_file, request, nullptr, {}).run.id;
    request.dataset = "bag";
    request.options = {{"k", 2}, {"iterations", 20}};
    request.heldout = 0.0;
    m_bagRun = core::runFit(m_file, request, nullptr, {}).run.id;

    core::Project project(m_file, core::Project::Access::ReadOnly);
    m_topicWord = *core::loadMatrix(project, m_run, "topic_word");
    m_docTopic = *core::loadMatrix(project, m_run, "doc_topic");
    m_vocabulary = core::loadVocabulary(project, m_corpus);
    QCOMPARE(m_topicWord.rows(), kTopics);
    QCOMPARE(static_cast<std::size_t>(m_topicWord.cols()), m_vocabulary.size());
  }

  void topicRunShowsTopicsAndDocumentsPages() {
    auto view = openView(m_run);
    QCOMPARE(view->pages()->currentWidget(), static_cast<QWidget*>(view->page<ui::TopicTableView>()));
    QStringList tabs;
    for (int i = 0; i < view->pages()->count(); ++i) tabs << view->pages()->tabText(i);
    QCOMPARE(tabs, (QStringList{QStringLiteral("Topics"), QStringLiteral("Documents"), QStringLiteral("Topic map"),
                                QStringLiteral("Training")}));
    QCOMPARE(view->page<ui::TopicTableView>()->topicModel()->rowCount(), kTopics);
  }

  void sharesAreDocTopicWeightedByLength() {
    auto view = openView(m_run);
    core::Project project(m_file, core::Project::Access::ReadOnly);
    const auto docs = core::listDocuments(project, m_corpus);
    std::vector<double> expected(kTopics, 0.0);
    double tokens = 0;
    for (std::size_t d = 0; d < docs.size(); ++d) {
      tokens += static_cast<double>(docs[d].tokenCount);
      for (int k = 0; k < kTopics; ++k)
        expected[static_cast<std::size_t>(k)] +=
            static_cast<double>(docs[d].tokenCount) * m_docTopic(static_cast<Eigen::Index>(d), k);
    }
    double sum = 0;
    auto* model = view->page<ui::TopicTableView>()->topicModel();
    for (int k = 0; k < kTopics; ++k) {
      const double shown = model->index(k, ui::TopicListModel::ShareColumn).data(ui::kExportRole).toDouble();
      QVERIFY(qFuzzyCompare(shown, expected[static_cast<std::size_t>(k)] / tokens));
      sum += shown;
    }
    QVERIFY(std::abs(sum - 1.0) < 1e-9);
  }

  void lambdaOneRanksByProbability() {
    auto view = openView(m_run);
    auto* table = view->page<ui::TopicTableView>();
    QVERIFY(rank(table, [&] { table->setLambda(0.3); }));
    QVERIFY(rank(table, [&] { table->setLambda(1.0); }));
    const int V = static_cast<int>(m_topicWord.cols());
    for (int k = 0; k < kTopics; ++k) {
      const auto expected = orderBy(V, [&](int w) { return m_topicWord(k, w); });
      const auto& shown = table->rankedWords(k);
      QCOMPARE(static_cast<int>(shown.size()), std::min(V, table->wordCount()));
      for (std::size_t i = 0; i < shown.size(); ++i) {
        QCOMPARE(shown[i].word, expected[i]);
        QCOMPARE(shown[i].probability, m_topicWord(k, expected[i]));
      }
    }
    // The words table shows the selected topic's words in that order, probabilities as exported.
    table->selectTopic(1);
    const auto expected = orderBy(V, [&](int w) { return m_topicWord(1, w); });
    auto* words = table->wordTable()->model();
    QCOMPARE(words->rowCount(), std::min(V, table->wordCount()));
    for (int r = 0; r < words->rowCount(); ++r) {
      QCOMPARE(words->index(r, 1).data().toString(),
               ui::qs(m_vocabulary[static_cast<std::size_t>(expected[static_cast<std::size_t>(r)])].word));
      QCOMPARE(words->index(r, 2).data(ui::kExportRole).toDouble(),
               m_topicWord(1, expected[static_cast<std::size_t>(r)]));
    }
  }

  void lambdaZeroRanksByLift() {
    auto view = openView(m_run);
    auto* table = view->page<ui::TopicTableView>();
    QVERIFY(rank(table, [&] { table->setLambda(0.0); }));
    const int V = static_cast<int>(m_topicWord.cols());
    bool differs = false;
    for (int k = 0; k < kTopics; ++k) {
      const auto byLift = orderBy(V, [&](int w) { return m_topicWord(k, w) / corpusFrequency(w); });
      const auto byProbability = orderBy(V, [&](int w) { return m_topicWord(k, w); });
      const auto& shown = table->rankedWords(k);
      for (std::size_t i = 0; i < shown.size(); ++i) {
        QCOMPARE(shown[i].word, byLift[i]);
        QVERIFY(qFuzzyCompare(shown[i].lift, m_topicWord(k, byLift[i]) / corpusFrequency(byLift[i])));
      }
      differs = differs || !std::equal(byLift.begin(), byLift.begin() + 5, byProbability.begin());
    }
    QVERIFY2(differs, "lambda 0 and 1 give the same top words: the corpus does not test the slider");
    // In between, the relevance column is lambda log p + (1 - lambda) log lift.
    QVERIFY(rank(table, [&] { table->setLambda(0.6); }));
    for (int k = 0; k < kTopics; ++k)
      for (const auto& w : table->rankedWords(k)) {
        const double p = m_topicWord(k, w.word);
        QVERIFY(qFuzzyCompare(w.relevance, 0.6 * std::log(p) + 0.4 * std::log(p / corpusFrequency(w.word))));
      }
    QCOMPARE(table->lambdaSlider()->value(), 60);
  }

  void searchFindsEveryTopicHoldingTheWord() {
    auto view = openView(m_run);
    auto* table = view->page<ui::TopicTableView>();
    QVERIFY(rank(table, [&] { table->setWordCount(5); }));
    const int V = static_cast<int>(m_topicWord.cols());
    std::map<int, int> holders;  // number of topics holding a word -> how many words
    for (int w = 0; w < V; ++w) {
      const QString word = ui::qs(m_vocabulary[static_cast<std::size_t>(w)].word);
      QVERIFY(rank(table, [&] { table->search(word.toUpper()); }));  // typed in capitals: normalised
      QSet<int> expected;
      std::vector<int> ranks;
      for (int k = 0; k < kTopics; ++k) {
        const auto order = orderBy(V, [&](int v) { return m_topicWord(k, v); });
        const int r = static_cast<int>(std::find(order.begin(), order.end(), w) - order.begin()) + 1;
        ranks.push_back(r);
        if (r <= 5) expected.insert(k);
      }
      const QList<int> shown = table->shownTopics();
      QCOMPARE(QSet<int>(shown.begin(), shown.end()), expected);
      ++holders[static_cast<int>(expected.size())];
      // Each shown topic gives the word's rank and probability there.
      auto* list = table->topicTable()->model();
      for (int row = 0; row < list->rowCount(); ++row) {
        const int k = list->index(row, 0).data(ui::kTopicRole).toInt();
        QCOMPARE(list->index(row, ui::TopicListModel::RankColumn).data(ui::kExportRole).toInt(),
                 ranks[static_cast<std::size_t>(k)]);
        QCOMPARE(list->index(row, ui::TopicListModel::ProbabilityColumn).data(ui::kExportRole).toDouble(),
                 m_topicWord(k, w));
      }
      QVERIFY(!table->topicTable()->isColumnHidden(ui::TopicListModel::RankColumn));
      if (expected.isEmpty())
        QVERIFY2(table->statusText().contains(QStringLiteral("not among the top 5")), qPrintable(table->statusText()));
    }
    QVERIFY2(holders[0] > 0 && holders[1] > 0 && (holders[2] + holders[3]) > 0,
             "the corpus should have words in none, one and several topics");
    // A word outside the vocabulary keeps every topic and says so.
    QVERIFY(rank(table, [&] { table->search(QStringLiteral("zeppelin")); }));
    QCOMPARE(table->shownTopics().size(), kTopics);
    QVERIFY(table->statusText().contains(QStringLiteral("“zeppelin” is not in this corpus' vocabulary")));
    QVERIFY(table->topicTable()->isColumnHidden(ui::TopicListModel::RankColumn));
    QVERIFY(rank(table, [&] { table->search(QString()); }));
    QCOMPARE(table->shownTopics().size(), kTopics);
  }

  void labelEditIsStoredAndUndone() {
    ui::MainWindow window;
    QVERIFY(test::openProject(window, ui::fromPath(m_file)));
    ui::RunView* view = window.openRun(m_run);
    QVERIFY(view);
    QVERIFY(test::waitFor([&] { return view->isSettled() && !view->page<ui::TopicTableView>()->isRanking(); }));
    auto* table = view->page<ui::TopicTableView>();
    auto labelsInProject = [&] {
      core::Project project(m_file, core::Project::Access::ReadOnly);
      return core::loadTopicLabels(project, m_run);
    };
    QVERIFY(labelsInProject().empty());

    // An edit in the table, as its editor commits it (through the sorting proxy).
    QSignalSpy saved(table, &ui::TopicTableView::labelSaved);
    QAbstractItemModel* list = table->topicTable()->model();
    int row = 0;
    while (list->index(row, 0).data(ui::kTopicRole).toInt() != 1) ++row;
    QVERIFY(list->setData(list->index(row, ui::TopicListModel::LabelColumn), QStringLiteral("  Rivers   and banks "),
                          Qt::EditRole));
    QVERIFY(saved.wait(10000));
    QCOMPARE(saved.last().at(1).toString(), QString());
    QCOMPARE(labelsInProject(), (std::map<std::int64_t, std::string>{{1, "Rivers and banks"}}));
    QCOMPARE(table->labels().at(1), QStringLiteral("Rivers and banks"));
    QCOMPARE(list->index(row, ui::TopicListModel::LabelColumn).data().toString(), QStringLiteral("Rivers and banks"));
    // The document reader names the topic too.
    auto* reader = view->page<ui::TopicDocumentView>();
    QVERIFY(test::waitFor([&] { return reader->proportionsTable()->rowCount() == kTopics; }));
    bool named = false;
    for (int r = 0; r < kTopics; ++r)
      named = named || reader->proportionsTable()->item(r, 0)->text() == QStringLiteral("2 · Rivers and banks");
    QVERIFY(named);

    table->renameTopic(0, QStringLiteral("Finance"));
    QVERIFY(saved.wait(10000));
    QCOMPARE(labelsInProject().size(), std::size_t{2});

    // Undo through the window's Edit menu (the current tab's history), then redo.
    QCOMPARE(window.undoGroup()->activeStack(), table->undoStack());
    QCOMPARE(table->undoStack()->undoText(), QStringLiteral("Name Topic 1 “Finance”"));
    // What a failure below says: the labels stored, and each save reported (topic, error). These
    // checks have failed, rarely, on a loaded machine, for a reason not found yet.
    auto stored = [&] {
      std::string out = "stored:";
      for (const auto& [topic, label] : labelsInProject()) out += " " + std::to_string(topic) + " '" + label + "'";
      out += "; saves reported:";
      for (const auto& args : saved)
        out += " " + std::to_string(args.at(0).toInt()) + " '" + args.at(1).toString().toStdString() + "'";
      return out;
    };
    window.undoGroup()->undo();
    QVERIFY(saved.wait(10000));
    QVERIFY2(labelsInProject() == (std::map<std::int64_t, std::string>{{1, "Rivers and banks"}}), stored().c_str());
    window.undoGroup()->undo();
    QVERIFY(saved.wait(10000));
    QVERIFY2(labelsInProject().empty(), stored().c_str());
    QCOMPARE(table->labels().at(1), QString());
    window.undoGroup()->redo();
    QVERIFY(saved.wait(10000));
    QCOMPARE(labelsInProject(), (std::map<std::int64_t, std::string>{{1, "Rivers and banks"}}));

    // A fresh view reads the labels back from the project.
    auto again = openView(m_run);
    QCOMPARE(again->page<ui::TopicTableView>()->labels().at(1), QStringLiteral("Rivers and banks"));
    // Leave the project as the other tests expect it.
    table->renameTopic(1, QString());
    QVERIFY(saved.wait(10000));
    QVERIFY(labelsInProject().empty());
  }

  void csvExportWritesTheRowsShown() {
    auto view = openView(m_run);
    auto* table = view->page<ui::TopicTableView>();
    QVERIFY(rank(table, [&] { table->setWordCount(5); }));
    QVERIFY(rank(table, [&] { table->search(QStringLiteral("bank")); }));
    table->topicTable()->sortByColumn(ui::TopicListModel::ShareColumn, Qt::DescendingOrder);
    const auto file = m_scratch->path("topics.csv");
    QString error;
    QVERIFY2(ui::exportTableCsv(*table->topicTable(), ui::fromPath(file), &error), qPrintable(error));
    const auto rows = readCsv(file);
    const auto* data = table->data();
    QCOMPARE(rows.front(),
             (std::vector<std::string>{"Topic", "Label", "Share", "Rank of “bank”", "P(bank | topic)", "Top words"}));
    const QList<int> shown = table->shownTopics();
    QCOMPARE(rows.size(), static_cast<std::size_t>(shown.size()) + 1);
    QVERIFY(!shown.isEmpty());
    const int bank = static_cast<int>(
        std::find_if(m_vocabulary.begin(), m_vocabulary.end(), [](const auto& v) { return v.word == "bank"; }) -
        m_vocabulary.begin());
    double previous = 2.0;
    for (int i = 0; i < shown.size(); ++i) {
      const auto& row = rows[static_cast<std::size_t>(i) + 1];
      const int k = shown[i];
      QCOMPARE(row[0], std::to_string(k + 1));
      const double share = std::stod(row[2]);
      QCOMPARE(share, data->shares[static_cast<std::size_t>(k)]);  // full precision, not the rounded "12.3 %"
      QVERIFY(share <= previous);
      previous = share;
      const auto order = orderBy(static_cast<int>(m_topicWord.cols()), [&](int w) { return m_topicWord(k, w); });
      QCOMPARE(std::stoi(row[3]), static_cast<int>(std::find(order.begin(), order.end(), bank) - order.begin()) + 1);
      QVERIFY(std::stoi(row[3]) <= 5);  // shown: "bank" is among the topic's top 5 words
      QCOMPARE(std::stod(row[4]), m_topicWord(k, bank));
      QVERIFY(row[5].find(", ") != std::string::npos);  // the top words, quoted as one field
    }

    // The words table: the selected topic's words, rank order.
    const auto wordsFile = m_scratch->path("words.csv");
    QVERIFY(ui::exportTableCsv(*table->wordTable(), ui::fromPath(wordsFile), &error));
    const auto words = readCsv(wordsFile);
    // At lambda = 1 the relevance column is hidden, so it is not exported either.
    QCOMPARE(words.front(), (std::vector<std::string>{"#", "Word", "P(word | topic)", "Lift"}));
    const auto& ranked = table->rankedWords(table->currentTopic());
    QCOMPARE(words.size(), std::size_t{6});
    for (std::size_t i = 0; i < 5; ++i) {
      QCOMPARE(words[i + 1][0], std::to_string(i + 1));
      QCOMPARE(words[i + 1][1], m_vocabulary[static_cast<std::size_t>(ranked[i].word)].word);
      QCOMPARE(std::stod(words[i + 1][2]), ranked[i].probability);
    }
  }

  void annotationsEqualStoredSpansAndTopics() {
    auto view = openView(m_run);
    auto* reader = view->page<ui::TopicDocumentView>();
    core::Project project(m_file, core::Project::Access::ReadOnly);
    int training = 0;
    for (const auto& header : core::listDocuments(project, m_corpus)) {
      const auto stored = core::loadDocument(project, m_corpus, header.index);
      const auto topics = core::loadTokenTopics(project, m_run, header.index);
      if (topics.empty()) continue;  // held out
      ++training;
      QSignalSpy shown(reader, &ui::TopicDocumentView::documentShown);
      reader->showDocument(header.index);
      QVERIFY(shown.wait(10000));
      QCOMPARE(reader->currentDocument(), header.index);
      QVERIFY(!reader->isHeldOut());
      QVERIFY(reader->showsOriginalText());
      // The model's options choose a sampler: the colours are its last draw, not a most likely topic.
      QVERIFY2(reader->noteText().contains(QStringLiteral("the sampler assigned")), qPrintable(reader->noteText()));
      const auto annotations = reader->annotations();
      QCOMPARE(annotations.size(), static_cast<qsizetype>(stored.wordIds.size()));
      for (qsizetype i = 0; i < annotations.size(); ++i) {
        const auto b = stored.begins[static_cast<std::size_t>(i)], e = stored.ends[static_cast<std::size_t>(i)];
        const auto& a = annotations[i];
        QCOMPARE(a.token, static_cast<int>(i));
        // Positions counted independently: UTF-16 units of the text before and inside the span.
        QCOMPARE(a.range.start, static_cast<int>(QString::fromUtf8(stored.text.substr(0, b)).size()));
        QCOMPARE(a.range.length, static_cast<int>(QString::fromUtf8(stored.text.substr(b, e - b)).size()));
        QCOMPARE(a.text, QString::fromUtf8(stored.text.substr(b, e - b)));
        QCOMPARE(a.topic, topics[static_cast<std::size_t>(i)]);
        QVERIFY(a.emphasised);
      }
      QString text = QString::fromUtf8(stored.text);
      text.replace(QLatin1Char('\r'), QLatin1Char(' '));
      QCOMPARE(reader->shownText(), text);
      // Proportions: the doc_topic row, largest first.
      const auto proportions = reader->shownProportions();
      QCOMPARE(proportions.size(), kTopics);
      for (int r = 0; r < kTopics; ++r) {
        QCOMPARE(proportions[r].second, m_docTopic(header.index, proportions[r].first));
        if (r > 0) QVERIFY(proportions[r - 1].second >= proportions[r].second);
      }
    }
    QVERIFY(training > 20);
  }

  void heldOutDocumentSaysSoAndShowsFoldedInProportions() {
    auto view = openView(m_run);
    auto* reader = view->page<ui::TopicDocumentView>();
    core::Project project(m_file, core::Project::Access::ReadOnly);
    int heldOut = 0;
    for (const auto& header : core::listDocuments(project, m_corpus)) {
      if (!core::loadTokenTopics(project, m_run, header.index).empty()) continue;
      ++heldOut;
      QSignalSpy shown(reader, &ui::TopicDocumentView::documentShown);
      reader->showDocument(header.index);
      QVERIFY(shown.wait(10000));
      QVERIFY(reader->isHeldOut());
      QVERIFY2(reader->noteText().contains(QStringLiteral("held out of training")), qPrintable(reader->noteText()));
      const auto stored = core::loadDocument(project, m_corpus, header.index);
      const auto annotations = reader->annotations();
      QCOMPARE(annotations.size(), static_cast<qsizetype>(stored.wordIds.size()));
      for (const auto& a : annotations) QCOMPARE(a.topic, -1);
      std::vector<std::pair<int, double>> expected;
      for (int k = 0; k < kTopics; ++k) expected.emplace_back(k, m_docTopic(header.index, k));
      std::stable_sort(expected.begin(), expected.end(),
                       [](const auto& a, const auto& b) { return a.second > b.second; });
      const auto proportions = reader->shownProportions();
      for (int r = 0; r < kTopics; ++r) {
        QCOMPARE(proportions[r].first, expected[static_cast<std::size_t>(r)].first);
        QCOMPARE(proportions[r].second, expected[static_cast<std::size_t>(r)].second);
      }
    }
    QVERIFY(heldOut >= 5);  // 20% of 36 documents
  }

  void clickingATopicEmphasisesItsWords() {
    auto view = openView(m_run);
    view->show();
    QVERIFY(QTest::qWaitForWindowExposed(view.get()));
    view->pages()->setCurrentWidget(view->page<ui::TopicDocumentView>());
    auto* reader = view->page<ui::TopicDocumentView>();
    // A training document whose words are in more than one topic.
    {
      core::Project project(m_file, core::Project::Access::ReadOnly);
      qint64 mixed = -1;
      for (const auto& h : core::listDocuments(project, m_corpus)) {
        const auto topics = core::loadTokenTopics(project, m_run, h.index);
        if (std::set<std::int32_t>(topics.begin(), topics.end()).size() > 1) {
          mixed = h.index;
          break;
        }
      }
      QVERIFY(mixed >= 0);
      QSignalSpy shown(reader, &ui::TopicDocumentView::documentShown);
      reader->showDocument(mixed);
      QVERIFY(shown.wait(10000));
    }
    // Click the row of the last word's topic in the proportions: its words stand out, the others fade.
    auto* proportions = reader->proportionsTable();
    const int topic = reader->annotations().back().topic;
    auto rowOf = [&](int k) {
      for (int r = 0; r < proportions->rowCount(); ++r)
        if (reader->shownProportions().at(r).first == k) return r;
      return -1;
    };
    QTest::mouseClick(proportions->viewport(), Qt::LeftButton, {},
                      proportions->visualRect(proportions->model()->index(rowOf(topic), 0)).center());
    QCOMPARE(reader->highlightedTopic(), topic);
    QVERIFY(test::waitFor([&] { return reader->isIdle(); }));  // the text is redrawn off the GUI thread
    int emphasised = 0;
    for (const auto& a : reader->annotations()) {
      QCOMPARE(a.emphasised, a.topic == topic);
      emphasised += a.emphasised;
    }
    QVERIFY(emphasised > 0);
    QVERIFY(emphasised < reader->annotations().size());  // some words fade: the document mixes topics
    // Clicking it again shows every topic alike.
    QTest::mouseClick(proportions->viewport(), Qt::LeftButton, {},
                      proportions->visualRect(proportions->model()->index(rowOf(topic), 0)).center());
    QCOMPARE(reader->highlightedTopic(), -1);
    QVERIFY(test::waitFor([&] { return reader->isIdle(); }));
    for (const auto& a : reader->annotations()) QVERIFY(a.emphasised);
  }

  void bagOfWordsShowsWordsAndSaysWhy() {
    auto view = openView(m_bagRun);
    auto* reader = view->page<ui::TopicDocumentView>();
    core::Project project(m_file, core::Project::Access::ReadOnly);
    const auto vocabulary = core::loadVocabulary(project, m_bag);
    for (const auto& header : core::listDocuments(project, m_bag)) {
      QSignalSpy shown(reader, &ui::TopicDocumentView::documentShown);
      reader->showDocument(header.index);
      QVERIFY(shown.wait(10000));
      QVERIFY(!reader->showsOriginalText());
      QVERIFY2(reader->noteText().contains(QStringLiteral("bag-of-words")), qPrintable(reader->noteText()));
      const auto stored = core::loadDocument(project, m_bag, header.index);
      const auto topics = core::loadTokenTopics(project, m_bagRun, header.index);
      std::multiset<std::pair<std::string, int>> expected, got;
      for (std::size_t i = 0; i < stored.wordIds.size(); ++i)
        expected.insert({vocabulary[static_cast<std::size_t>(stored.wordIds[i])].word, topics[i]});
      for (const auto& a : reader->annotations()) got.insert({ui::utf8(a.text), a.topic});
      QCOMPARE(got, expected);
    }
  }

  void topicColoursReadInLightAndDark() {
    QPalette light, dark;
    light.setColor(QPalette::Base, Qt::white);
    light.setColor(QPalette::Text, Qt::black);
    dark.setColor(QPalette::Base, QColor(0x23, 0x23, 0x23));
    dark.setColor(QPalette::Text, QColor(0xee, 0xee, 0xee));
    for (const QPalette& palette : {light, dark}) {
      for (int k = 0; k < 40; ++k) {
        const QColor c = ui::topicColour(k, palette);
        QVERIFY2(ui::contrastRatio(c, palette.color(QPalette::Base)) >= ui::kMinTopicContrast,
                 qPrintable(QStringLiteral("topic %1: %2").arg(k).arg(c.name())));
        // The faint tint under a word keeps the word readable too.
        QVERIFY(ui::contrastRatio(c, ui::topicTint(c, palette, 0.12)) >= ui::kMinTopicContrast);
        QVERIFY(ui::contrastRatio(c, ui::topicTint(c, palette, ui::kMaxTintStrength)) >= ui::kMinTopicContrast);
      }
      // The first ten are ten colours a reader tells apart: at least 15 apart in CIELAB (hue angles
      // in HSL say little, as HSL is far from even to the eye; tst_dark_mode checks more).
      for (int a = 0; a < 10; ++a)
        for (int b = a + 1; b < 10; ++b)
          QVERIFY2(ui::colourDifference(ui::topicColour(a, palette), ui::topicColour(b, palette)) >= 15,
                   qPrintable(QStringLiteral("topics %1 and %2").arg(a).arg(b)));
    }
    // The contrast formula itself: black on white is 21, a colour on itself 1.
    QCOMPARE(ui::contrastRatio(Qt::black, Qt::white), 21.0);
    QCOMPARE(ui::contrastRatio(QColor(0x80, 0x40, 0x20), QColor(0x80, 0x40, 0x20)), 1.0);
  }
};

LATENT_TEST_CASE(TestTopicViews)
#include "tst_topic_views.moc"
