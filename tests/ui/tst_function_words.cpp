// SPDX-License-Identifier: GPL-3.0-or-later
// The document reader on an LDA-HMM run (000 Fig. 27.14): content words carry their topic, function
// words their syntactic class ("c2") and a shade from their probability of being a content word, as
// the run stored them; the note says what the marks mean.
#include <QSignalSpy>
#include <QtTest>

#include "core/data/synthetic_lda_hmm.hpp"
#include "core/jobs/fit_job.hpp"
#include "core/results/topic_results.hpp"
#include "core/store/run_store.hpp"
#include "test_case.hpp"
#include "test_datasets.hpp"
#include "test_support.hpp"
#include "ui/runs/run_view.hpp"
#include "ui/runs/topics/annotated_text.hpp"
#include "ui/runs/topics/topic_document_view.hpp"
#include "ui/util/settings.hpp"
#include "ui_test_data.hpp"

using namespace latent;

class TestFunctionWords : public QObject {
  Q_OBJECT

  std::unique_ptr<test::Scratch> m_scratch;
  std::filesystem::path m_file;
  std::int64_t m_corpus = 0;
  qint64 m_run = 0;

 private Q_SLOTS:
  void initTestCase() {
    test::isolateSettings();
    ui::appSettings().clear();
    m_scratch = std::make_unique<test::Scratch>();
    m_file = m_scratch->path("hmm.latent");
    core::SyntheticLdaHmmSpec spec;
    spec.topics = 2;
    spec.contentWords = 30;
    spec.functionWordsPerClass = 4;
    spec.documents = 40;
    spec.meanLength = 40;
    spec.transitions.resize(3, 3);
    spec.transitions << 0.2, 0.6, 0.2,  //
        0.9, 0.05, 0.05,                //
        0.5, 0.4, 0.1;
    spec.seed = 3;
    const auto truth = core::generateLdaHmmCorpus(spec);
    {
      core::Project project(m_file);
      m_corpus = test::addCorpusOf(project, "hmm", truth.corpus);
    }
    core::RunRequest request;
    request.model = "lda-hmm";
    request.dataset = "hmm";
    request.options = {{"k", 2}, {"classes", 3}, {"iterations", 60}};
    request.seed = 1;
    m_run = core::runFit(m_file, request, nullptr, {}).run.id;
  }

  void functionWordsShowTheirClassAndShade() {
    ui::RunView view(m_file, m_run);
    view.resize(1200, 800);
    QVERIFY(test::waitFor([&] { return view.isSettled() && view.page<ui::TopicDocumentView>(); }));
    auto* reader = view.page<ui::TopicDocumentView>();
    core::Project project(m_file, core::Project::Access::ReadOnly);
    QSignalSpy shown(reader, &ui::TopicDocumentView::documentShown);
    reader->showDocument(0);
    QVERIFY(shown.wait(10000));
    const auto classes = core::loadTokenValues(project, m_run, core::topic::kTokenClass, 0);
    const auto content = core::loadTokenValues(project, m_run, core::topic::kTokenContentProbability, 0);
    const auto topics = core::loadTokenTopics(project, m_run, 0);
    const auto annotations = reader->annotations();
    QCOMPARE(static_cast<std::size_t>(annotations.size()), classes.size());
    int functionWords = 0, contentWords = 0;
    for (qsizetype i = 0; i < annotations.size(); ++i) {
      const auto& a = annotations[i];
      const auto at = static_cast<std::size_t>(a.token);
      QCOMPARE(a.syntacticClass, static_cast<int>(classes[at]));
      QCOMPARE(a.content, static_cast<double>(content[at]));
      QCOMPARE(a.topic, topics[at]);
      // A word outside the semantic class has no topic; one inside has one.
      QCOMPARE(a.topic<0, a.syntacticClass> 0);
      (a.syntacticClass > 0 ? functionWords : contentWords) += 1;
    }
    QVERIFY(functionWords > 0 && contentWords > 0);
    QVERIFY2(reader->noteText().contains(QStringLiteral("syntactic class")), qPrintable(reader->noteText()));
    // The marks ("c2", topic numbers) are not part of the text.
    QVERIFY(!reader->shownText().contains(QStringLiteral("c2")));
  }
};

LATENT_TEST_CASE(TestFunctionWords)
#include "tst_function_words.moc"
