// SPDX-License-Identifier: GPL-3.0-or-later
// Survey answers imported as a corpus (--format responses): the words "question=answer" in
// question order with answers in natural order, missing answers skipped, the id column kept, and
// the files that cannot be survey answers refused with the line and reason; the ANES sample.
#include <QtTest>

#include "core/data/response_groups.hpp"
#include "core/io/corpus_import.hpp"
#include "core/jobs/import_job.hpp"
#include "core/jobs/samples.hpp"
#include "core/store/corpus_store.hpp"
#include "core/store/project.hpp"
#include "core/util/errors.hpp"
#include "test_case.hpp"
#include "test_support.hpp"

using namespace latent;

namespace {

core::Corpus importResponses(const test::Scratch& scratch, const std::string& csv) {
  const auto file = scratch.write("answers.csv", csv);
  core::Project project(scratch.path("p.latent"));
  core::CorpusImportRequest request;
  request.name = "survey";
  request.source = file;
  request.read.format = core::CorpusFormat::Responses;
  const auto imported = core::importCorpus(project, request);
  return core::loadCorpus(project, imported.dataset.id);
}

}  // namespace

class ResponsesImportTest : public QObject {
  Q_OBJECT

 private Q_SLOTS:
  void answersBecomeQuestionWords() {
    test::Scratch scratch;
    const auto corpus = importResponses(scratch,
                                        "id,size,colour\n"
                                        "r1,10,red\n"
                                        "r2,2,\n"
                                        "r3, 2 ,NA\n"
                                        "r4,1,\"blue, dark\"\n");
    const std::vector<std::string> words = {"size=1", "size=2", "size=10", "colour=blue, dark", "colour=red"};
    QCOMPARE(corpus.words, words);
    QCOMPARE(corpus.documentCount(), std::size_t{4});
    QCOMPARE(corpus.documentIds, (std::vector<std::string>{"r1", "r2", "r3", "r4"}));
    QCOMPARE(corpus.documentLength(0), std::size_t{2});
    QCOMPARE(corpus.documentLength(1), std::size_t{1});  // the empty cell and NA are not answers
    QCOMPARE(corpus.documentLength(2), std::size_t{1});
    const auto groups = core::responseGroups(corpus.words, "test");
    QCOMPARE(groups.questions, (std::vector<std::string>{"size", "colour"}));
    QCOMPARE(groups.answerOfWord[3], std::string("blue, dark"));
    QCOMPARE(groups.answersOfQuestion[1], (std::vector<std::int32_t>{3, 4}));
  }

  void notSurveyAnswersAreRefused_data() {
    QTest::addColumn<QString>("csv");
    QTest::addColumn<QString>("reason");
    QTest::newRow("equals in a name") << "q=1,q2\na,b\n"
                                      << "contains '='";
    QTest::newRow("two columns alike") << "q,q\na,b\n"
                                       << "two columns are named";
    QTest::newRow("ragged row") << "q1,q2\na,b\nc\n"
                                << "expected 2 fields";
    QTest::newRow("header only") << "q1,q2\n"
                                 << "no respondents";
    QTest::newRow("id only") << "id\n1\n"
                             << "no question columns";
  }
  void notSurveyAnswersAreRefused() {
    QFETCH(QString, csv);
    QFETCH(QString, reason);
    test::Scratch scratch;
    try {
      importResponses(scratch, csv.toStdString());
      QFAIL("imported");
    } catch (const core::InputError& e) {
      QVERIFY2(QString(e.what()).contains(reason), e.what());
    }
  }

  // A corpus of ordinary words is not one of survey answers, and the models say so.
  void modelsNameTheWordThatIsNoAnswer() {
    QVERIFY_THROWS_EXCEPTION(core::UsageError, core::responseGroups({"party=a", "river"}, "catpca"));
  }

  void anesSample() {
    test::Scratch scratch;
    core::Project project(scratch.path("p.latent"));
    const auto imported = core::importSample(project, "anes96");
    const auto corpus = core::loadCorpus(project, imported.dataset.id);
    QCOMPARE(corpus.documentCount(), std::size_t{944});
    QCOMPARE(corpus.tokenCount(), std::size_t{944 * 9});
    const auto groups = core::responseGroups(corpus.words, "test");
    QCOMPARE(groups.count(), std::size_t{9});
    QCOMPARE(groups.answersOfQuestion[0].size(), std::size_t{7});  // party
    QCOMPARE(corpus.words[0], std::string("party=independent"));
  }
};

LATENT_TEST_CASE(ResponsesImportTest)
#include "tst_responses_import.moc"
