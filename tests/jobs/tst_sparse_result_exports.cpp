// SPDX-License-Identifier: GPL-3.0-or-later
// Exports of a run whose topic_word is stored sparse and doc_topic as floats (a large lda-gibbs
// result) read them in that form (io/run_export_detail.hpp, chooseTopicWord and chooseDocTopic):
// every export that reads them writes, byte for byte, what it writes when the same values are
// stored dense as doubles.
#include <QtTest>

#include <filesystem>
#include <sstream>
#include <string>
#include <variant>
#include <vector>

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

// Fits the run into `file`, checks that its matrix `name` is stored as `StoredForm`, exports
// `kinds`, stores the same values as doubles in place of that form (loadMatrix reads them so), and
// checks that every export gives the same bytes again.
template <typename StoredForm>
void exportsAreThoseOfTheDoubles(const std::filesystem::path& file, const std::string& name,
                                 const std::vector<std::string>& kinds) {
  const auto run = test::fitSparseTopicsRun(file, 0.1);
  QVERIFY(run.status == core::RunStatus::Finished);
  core::Project p(file);
  const auto stored = core::loadStoredMatrix(p, run.id, name);
  QVERIFY(stored && std::holds_alternative<StoredForm>(*stored));
  std::vector<std::string> before;
  for (const auto& what : kinds) before.push_back(exported(p, run.id, what));
  core::saveMatrix(p, run.id, name, -1, *core::loadMatrix(p, run.id, name));
  const auto doubles = core::loadStoredMatrix(p, run.id, name);
  QVERIFY(doubles && std::holds_alternative<Eigen::MatrixXd>(*doubles));
  for (std::size_t i = 0; i < kinds.size(); ++i) {
    QVERIFY2(!before[i].empty(), kinds[i].c_str());
    QVERIFY2(exported(p, run.id, kinds[i]) == before[i], kinds[i].c_str());
  }
}

}  // namespace

class SparseResultExportTest : public QObject {
  Q_OBJECT

 private Q_SLOTS:
  void exportsOfSparseTopicsAreThoseOfTheDenseMatrix() {
    test::Scratch scratch;
    exportsAreThoseOfTheDoubles<core::FilledSparseMatrix>(
        scratch.path("sparse.latent"), "topic_word", {"topic-word", "mallet-topic-keys", "mallet-state", "ldavis"});
  }

  void exportsOfFloatDocumentTopicsAreThoseOfTheDoubles() {
    test::Scratch scratch;
    exportsAreThoseOfTheDoubles<Eigen::MatrixXf>(scratch.path("floats.latent"), "doc_topic",
                                                 {"doc-topic", "mallet-doc-topics", "ldavis"});
  }
};

LATENT_TEST_CASE(SparseResultExportTest)
#include "tst_sparse_result_exports.moc"
