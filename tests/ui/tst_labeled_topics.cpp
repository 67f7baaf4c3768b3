// SPDX-License-Identifier: GPL-3.0-or-later
// A labeled LDA run (issue 17) in the app: its topics carry their labels' names on the Topics page
// (each label's words under its name, the background topic named so), and the document reader gives
// the labels a document's words suggest beside its true labels.
#include <QtTest>

#include <algorithm>

#include "core/jobs/fit_job.hpp"
#include "test_case.hpp"
#include "test_support.hpp"
#include "ui/runs/run_view.hpp"
#include "ui/runs/topics/topic_document_view.hpp"
#include "ui/runs/topics/topic_run_data.hpp"
#include "ui/runs/topics/topic_table_view.hpp"
#include "ui/util/settings.hpp"
#include "ui_test_data.hpp"

using namespace latent;

namespace {

const std::vector<std::string> kLabeledNature = {"river", "stream", "water", "fish", "boat", "shore"};
const std::vector<std::string> kLabeledSport = {"game", "team", "score", "ball", "coach", "season"};

// Documents about nature, sport or both, labelled so, each with a few words of no label.
std::vector<test::TextDocument> labeledDocuments() {
  std::vector<test::TextDocument> docs;
  std::uint32_t state = 11;
  auto next = [&state](std::uint32_t n) {
    state = state * 1664525u + 1013904223u;
    return (state >> 8) % n;
  };
  for (int d = 0; d < 60; ++d) {
    const int kind = d % 3;  // 0 nature, 1 sport, 2 both
    std::string text;
    for (int i = 0; i < 30; ++i) {
      const bool nature = kind == 0 || (kind == 2 && i % 2 == 0);
      const auto& words = nature ? kLabeledNature : kLabeledSport;
      text += words[next(static_cast<std::uint32_t>(words.size()))] + " ";
      if (i % 10 == 0) text += "report ";
    }
    const std::string label = kind == 0 ? "nature" : kind == 1 ? "sport" : "nature;sport";
    docs.push_back({"doc" + std::to_string(d + 1), "Document " + std::to_string(d + 1), text, {}, label});
  }
  return docs;
}

}  // namespace

class TestLabeledTopics : public QObject {
  Q_OBJECT

  std::unique_ptr<test::Scratch> m_scratch;
  std::filesystem::path m_file;
  qint64 m_run = 0;

 private Q_SLOTS:
  void initTestCase() {
    test::isolateSettings();
    ui::appSettings().clear();
    m_scratch = std::make_unique<test::Scratch>();
    m_file = m_scratch->path("llda.latent");
    {
      core::Project project(m_file);
      const auto id = test::addTextCorpus(project, "tagged", labeledDocuments(), true);
      project.db().exec("UPDATE datasets SET options = '{\"label_separator\": \";\"}' WHERE id = " +
                        std::to_string(id));
    }
    core::RunRequest request;
    request.model = "labeled-lda";
    request.dataset = "tagged";
    request.options = {{"iterations", 60}};
    request.seed = 2;
    const auto run = core::runFit(m_file, request, nullptr, {});
    QVERIFY2(run.run.status == core::RunStatus::Finished, run.run.message.c_str());
    m_run = run.run.id;
  }

  void topicsAreNamedByTheirLabels() {
    ui::RunView view(m_file, m_run);
    view.resize(1100, 700);
    QVERIFY(test::waitFor([&] { return view.isSettled() && view.page<ui::TopicTableView>(); }));
    auto* table = view.page<ui::TopicTableView>();
    QCOMPARE(table->labels(),
             (QStringList{QStringLiteral("nature"), QStringLiteral("sport"), QStringLiteral("background 1")}));
    // Each label's topic holds its words.
    const auto* data = table->data();
    const auto topicOf = [&](const std::string& word) {
      const auto found = std::find(data->words.begin(), data->words.end(), word);
      Eigen::Index topic = -1;
      if (found != data->words.end()) data->topicWord.toDense().col(found - data->words.begin()).maxCoeff(&topic);
      return topic;
    };
    QCOMPARE(topicOf("river"), Eigen::Index{0});
    QCOMPARE(topicOf("game"), Eigen::Index{1});
  }

  void readerGivesThePredictedLabels() {
    ui::RunView view(m_file, m_run);
    view.resize(1100, 700);
    QVERIFY(test::waitFor([&] { return view.isSettled() && view.page<ui::TopicDocumentView>(); }));
    auto* reader = view.page<ui::TopicDocumentView>();
    reader->showDocument(1);  // a sport document
    QVERIFY(test::waitFor([&] { return reader->currentDocument() == 1 && reader->isIdle(); }));
    const QString header = reader->headerText();
    QVERIFY2(header.contains(QStringLiteral("predicted labels sport (")), qPrintable(header));
    QVERIFY2(!header.contains(QStringLiteral("nature (")), qPrintable(header));
    reader->showDocument(2);  // nature and sport
    QVERIFY(test::waitFor([&] { return reader->currentDocument() == 2 && reader->isIdle(); }));
    QVERIFY2(reader->headerText().contains(QStringLiteral("nature (")), qPrintable(reader->headerText()));
    QVERIFY2(reader->headerText().contains(QStringLiteral("sport (")), qPrintable(reader->headerText()));
  }
};

LATENT_TEST_CASE(TestLabeledTopics)
#include "tst_labeled_topics.moc"
