// SPDX-License-Identifier: GPL-3.0-or-later
// Exports of a run whose topic_word is stored sparse and doc_topic as floats (a large lda-gibbs
// result) read them in that form (io/run_export_detail.hpp, chooseTopicWord and chooseDocTopic):
// every export that reads them writes, byte for byte, what it writes when the same values are
// stored dense as doubles.
#include <QtTest>

#include <sstream>
#include <variant>

#include "core/io/run_export.hpp"
#include "core/store/run_store.hpp"
#include "sparse_topics_run.hpp"
#include "test_case.hpp"
#include "test_support.hpp"

using namespace latent;

namespace {

std::string exported(core::Project& p, std::int64_t run, const std::string& what) {
  std::ostringstream out;
  core::exportRun(p, run, what, out);
  return out.str();
}

}  // namespace

class SparseResultExportTest : public QObject {
  Q_OBJECT

 private Q_SLOTS:
  void exportsOfSparseTopicsAreThoseOfTheDenseMatrix() {
    test::Scratch scratch;
    const auto file = scratch.path("sparse.latent");
    const auto run = test::fitSparseTopicsRun(file, 0.1);
    QVERIFY(run.status == core::RunStatus::Finished);

    core::Project p(file);
    const auto stored = core::loadStoredMatrix(p, run.id, "topic_word");
    QVERIFY(stored && std::holds_alternative<core::FilledSparseMatrix>(*stored));
    const std::vector<std::string> kinds = {"topic-word", "mallet-topic-keys", "mallet-state", "ldavis"};
    std::vector<std::string> sparse;
    for (const auto& what : kinds) sparse.push_back(exported(p, run.id, what));
    // The same values stored dense, in place of the sparse form.
    core::saveMatrix(p, run.id, "topic_word", -1, *core::loadMatrix(p, run.id, "topic_word"));
    const auto dense = core::loadStoredMatrix(p, run.id, "topic_word");
    QVERIFY(dense && std::holds_alternative<Eigen::MatrixXd>(*dense));
    for (std::size_t i = 0; i < kinds.size(); ++i) {
      QVERIFY2(!sparse[i].empty(), kinds[i].c_str());
      QVERIFY2(exported(p, run.id, kinds[i]) == sparse[i], kinds[i].c_str());
    }
  }

  void exportsOfFloatDocumentTopicsAreThoseOfTheDoubles() {
    test::Scratch scratch;
    const auto file = scratch.path("floats.latent");
    const auto run = test::fitSparseTopicsRun(file, 0.1);
    QVERIFY(run.status == core::RunStatus::Finished);

    core::Project p(file);
    const auto stored = core::loadStoredMatrix(p, run.id, "doc_topic");
    QVERIFY(stored && std::holds_alternative<Eigen::MatrixXf>(*stored));
    const std::vector<std::string> kinds = {"doc-topic", "mallet-doc-topics", "ldavis"};
    std::vector<std::string> floats;
    for (const auto& what : kinds) floats.push_back(exported(p, run.id, what));
    // The same values widened to doubles and stored so, in place of the floats.
    const Eigen::MatrixXd widened = std::get<Eigen::MatrixXf>(*stored).cast<double>();
    core::saveMatrix(p, run.id, "doc_topic", -1, widened);
    const auto doubles = core::loadStoredMatrix(p, run.id, "doc_topic");
    QVERIFY(doubles && std::holds_alternative<Eigen::MatrixXd>(*doubles));
    for (std::size_t i = 0; i < kinds.size(); ++i) {
      QVERIFY2(floats[i].size() > 1000, kinds[i].c_str());
      QVERIFY2(exported(p, run.id, kinds[i]) == floats[i], kinds[i].c_str());
    }
  }
};

LATENT_TEST_CASE(SparseResultExportTest)
#include "tst_sparse_result_exports.moc"
