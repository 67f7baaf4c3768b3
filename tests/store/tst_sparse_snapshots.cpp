// SPDX-License-Identifier: GPL-3.0-or-later
// Snapshots stored sparse (element 'sparse', schema 16; in parts when large, schema 17): they read
// back as exactly the dense matrix they stand for, fall back to dense storage where that is
// smaller, count at their stored size in the retention, and a damaged blob or part is reported
// rather than read past its arrays. Read in its stored form (loadStoredMatrix) it is the matrix
// saved, array for array, and a TopicWordTable over it holds the dense matrix's values.
#include <QtTest>

#include <random>
#include <stdexcept>
#include <variant>

#include "core/data/dense_table.hpp"
#include "core/data/filled_sparse_matrix.hpp"
#include "core/data/topic_word_table.hpp"
#include "core/store/project.hpp"
#include "core/store/run_store.hpp"
#include "core/store/snapshot_retention.hpp"
#include "core/util/errors.hpp"
#include "test_case.hpp"
#include "test_datasets.hpp"
#include "test_support.hpp"

using namespace latent;

namespace {

// A topic-word-like matrix: each row's fill, and in each column a few rows (some columns none)
// with values that floats cannot hold exactly.
core::FilledSparseMatrix sparseTopics(int rows, int cols, int perColumn, unsigned seed) {
  std::mt19937 random(seed);
  std::uniform_real_distribution<double> value(1e-7, 1e-2);
  core::FilledSparseMatrix m;
  m.rows = rows;
  m.cols = cols;
  for (int r = 0; r < rows; ++r) m.rowFill.push_back(value(random) / 3.0);
  m.columnStarts.push_back(0);
  for (int c = 0; c < cols; ++c) {
    const int n = c % 5 == 0 ? 0 : perColumn;
    for (int i = 0; i < n; ++i) {
      m.rowIndices.push_back((c * 7 + i * 3) % rows);  // distinct rows while perColumn * 3 <= rows
      m.values.push_back(value(random) / 7.0);
    }
    m.columnStarts.push_back(static_cast<std::int64_t>(m.values.size()));
  }
  return m;
}

std::int64_t createRun(core::Project& p) {
  core::RunRecord run;
  run.datasetId = test::addCorpus(p, "toy", {"money bank"});
  run.model = "lda-gibbs";
  run.appVersion = "test";
  return core::createRun(p, run);
}

std::string elementOf(core::Project& p, std::int64_t iteration) {
  auto s = p.db().prepare("SELECT element FROM run_matrices WHERE name = 'topic_word' AND iteration = ?1");
  s.bind(1, iteration);
  return s.step() ? s.text(0) : std::string();
}

std::int64_t storedBytes(core::Project& p, std::int64_t iteration) {
  return p.db().queryInteger("SELECT length(data) FROM run_matrices WHERE name = 'topic_word' AND iteration = " +
                             std::to_string(iteration));
}

}  // namespace

class SparseSnapshotStoreTest : public QObject {
  Q_OBJECT

 private Q_SLOTS:
  void aSparseSnapshotReadsBackAsItsDenseMatrixExactly() {
    test::Scratch scratch;
    core::Project p(scratch.path("p.latent"));
    QCOMPARE(p.schemaVersion(), 17);
    const auto id = createRun(p);
    const auto sparse = sparseTopics(40, 300, 3, 1);
    const Eigen::MatrixXd dense = sparse.toDense();
    // toDense: the fills, the entries over them.
    QCOMPARE(dense(0, 0), sparse.rowFill[0]);
    QCOMPARE(dense(sparse.rowIndices[0], 1), sparse.values[0]);
    QCOMPARE(dense(5, 1), sparse.rowFill[5]);
    QVERIFY(dense.cast<float>().cast<double>() != dense);    // floats would not do
    QVERIFY(sparse.toDenseFloats() == dense.cast<float>());  // written out as floats: the same, rounded
    core::saveSparseMatrix(p, id, "topic_word", 20, sparse, core::MatrixElement::Float32);
    QCOMPARE(elementOf(p, 20), std::string("sparse"));
    const std::int64_t expected = 40 * 8 + 301 * 8 + static_cast<std::int64_t>(sparse.entries()) * 12;
    QCOMPARE(storedBytes(p, 20), expected);
    QVERIFY(expected < 40 * 300 * 4);
    QCOMPARE(*core::loadMatrix(p, id, "topic_word", 20), dense);
    // A newer snapshot of the same iteration replaces it; an empty matrix is all fill.
    core::FilledSparseMatrix empty;
    empty.rows = 3;
    empty.cols = 1000;
    empty.rowFill = {0.5, 0.25, 0.125};
    empty.columnStarts.assign(1001, 0);
    core::saveSparseMatrix(p, id, "topic_word", 20, empty, core::MatrixElement::Float64);
    QCOMPARE(p.db().queryInteger("SELECT count(*) FROM run_matrices"), std::int64_t{1});
    QCOMPARE(*core::loadMatrix(p, id, "topic_word", 20), empty.toDense());
    QCOMPARE(core::loadMatrix(p, id, "topic_word", 20)->row(2).sum(), 125.0);
  }

  void aSparseMatrixReadsBackInItsStoredForm() {
    // loadStoredMatrix hands a sparse matrix over as it was saved, array for array, and any other
    // dense, as loadMatrix gives it; a topic-word table over either form holds the same values.
    test::Scratch scratch;
    core::Project p(scratch.path("p.latent"));
    const auto id = createRun(p);
    const auto sparse = sparseTopics(40, 300, 3, 2);
    core::saveSparseMatrix(p, id, "topic_word", -1, sparse, core::MatrixElement::Float32);
    const auto stored = core::loadStoredMatrix(p, id, "topic_word", -1);
    QVERIFY(stored && std::holds_alternative<core::FilledSparseMatrix>(*stored));
    const auto& read = std::get<core::FilledSparseMatrix>(*stored);
    QCOMPARE(read.rows, sparse.rows);
    QCOMPARE(read.cols, sparse.cols);
    QVERIFY(read.rowFill == sparse.rowFill && read.columnStarts == sparse.columnStarts);
    QVERIFY(read.rowIndices == sparse.rowIndices && read.values == sparse.values);
    QVERIFY(!core::loadStoredMatrix(p, id, "topic_word", 5));
    const Eigen::MatrixXd dense = sparse.toDense();
    core::saveMatrix(p, id, "doc_topic", -1, dense.topRows(3));
    const auto denseStored = core::loadStoredMatrix(p, id, "doc_topic", -1);
    QVERIFY(denseStored && std::get<Eigen::MatrixXd>(*denseStored) == dense.topRows(3));
    // A float32 matrix comes as its floats, in one blob or in parts; loadMatrix's doubles are the same values.
    for (const std::size_t partBytes : {core::kMatrixPartBytes, std::size_t{1000}}) {
      core::saveMatrix(p, id, "doc_topic", 7, dense, partBytes, core::MatrixElement::Float32);
      const auto floats = core::loadStoredMatrix(p, id, "doc_topic", 7);
      QVERIFY(floats && std::holds_alternative<Eigen::MatrixXf>(*floats));
      QVERIFY(std::get<Eigen::MatrixXf>(*floats) == dense.cast<float>());
      QVERIFY(*core::loadMatrix(p, id, "doc_topic", 7) == dense.cast<float>().cast<double>());
      const core::DenseTable table(std::get<Eigen::MatrixXf>(*floats));
      QVERIFY(table.isFloat() && table.rows() == 40 && table.cols() == 300 && table.doubles() == nullptr);
      QCOMPARE(table(3, 4), static_cast<double>(static_cast<float>(dense(3, 4))));
      double largest = 0;
      Eigen::Index expected = 0;
      dense.cast<float>().row(5).maxCoeff(&expected);
      QCOMPARE(table.rowArgMax(5, &largest), expected);
      QCOMPARE(largest, static_cast<double>(static_cast<float>(dense(5, expected))));
      const auto best = table.rowArgMaxes();
      QCOMPARE(best.size(), std::size_t{40});
      for (Eigen::Index r = 0; r < 40; ++r) QCOMPARE(best[static_cast<std::size_t>(r)], table.rowArgMax(r));
    }
    // Ties go to the first column, in both ways of finding them.
    Eigen::MatrixXd tied(3, 4);
    tied << 0.25, 0.25, 0.25, 0.25, 0.1, 0.4, 0.4, 0.1, 0.1, 0.2, 0.3, 0.4;
    const core::DenseTable ties(tied);
    QCOMPARE(ties.rowArgMaxes(), (std::vector<Eigen::Index>{0, 1, 3}));
    for (Eigen::Index r = 0; r < 3; ++r) QCOMPARE(ties.rowArgMax(r), ties.rowArgMaxes()[static_cast<std::size_t>(r)]);

    // The table: every entry, every row and the written-out matrix are the dense matrix's, in
    // both forms. Topic 0 has entries at words 1..; word 0 (column 0 has none) is every topic's fill.
    const core::TopicWordTable table(read), denseTable(Eigen::MatrixXd{dense});
    QVERIFY(!table.isDense() && denseTable.isDense());
    QCOMPARE(table.rows(), Eigen::Index{40});
    QCOMPARE(table.cols(), Eigen::Index{300});
    std::vector<double> row(300), denseRow(300);
    for (Eigen::Index k = 0; k < 40; ++k) {
      table.row(k, row);
      denseTable.row(k, denseRow);
      for (Eigen::Index w = 0; w < 300; ++w) {
        QCOMPARE(table(k, w), dense(k, w));
        QCOMPARE(denseTable(k, w), dense(k, w));
        QCOMPARE(row[static_cast<std::size_t>(w)], dense(k, w));
        QCOMPARE(denseRow[static_cast<std::size_t>(w)], dense(k, w));
      }
    }
    QVERIFY(table.toDense() == dense);
    // Dense floats: each entry is the float's value.
    const core::TopicWordTable floatTable(Eigen::MatrixXf(dense.cast<float>()));
    floatTable.row(7, row);
    for (Eigen::Index w = 0; w < 300; ++w) {
      QCOMPARE(floatTable(7, w), static_cast<double>(static_cast<float>(dense(7, w))));
      QCOMPARE(row[static_cast<std::size_t>(w)], floatTable(7, w));
    }
    QVERIFY(floatTable.toDense() == dense.cast<float>().cast<double>());
    QVERIFY(floatTable.withDense([&](const Eigen::MatrixXd& m) { return m == dense.cast<float>().cast<double>(); }));
    QVERIFY(table.withDense([&](const Eigen::MatrixXd& m) { return m == dense; }));
    QVERIFY(denseTable.withDense([&](const Eigen::MatrixXd& m) { return &m != &dense && m == dense; }));
    // Arrays that do not fit the shape are refused, not read past.
    auto broken = sparse;
    broken.rowFill.pop_back();
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, core::TopicWordTable{broken});
    broken = sparse;
    broken.rowIndices.back() = 40;
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, core::TopicWordTable{broken});
    broken = sparse;
    broken.columnStarts.back() -= 1;
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, core::TopicWordTable{broken});
  }

  void denseStorageIsUsedWhereItIsSmaller() {
    test::Scratch scratch;
    core::Project p(scratch.path("p.latent"));
    const auto id = createRun(p);
    // Four rows, one entry in most columns: 16 bytes a column as floats, 32 as doubles, ~18 sparse.
    const auto crowded = sparseTopics(4, 100, 1, 2);
    core::saveSparseMatrix(p, id, "topic_word", 10, crowded, core::MatrixElement::Float64);
    QCOMPARE(elementOf(p, 10), std::string("sparse"));  // 8 bytes a value dense: sparse is smaller
    core::saveSparseMatrix(p, id, "topic_word", 11, crowded, core::MatrixElement::Float32);
    QCOMPARE(elementOf(p, 11), std::string("f32"));
    QCOMPARE(storedBytes(p, 11), std::int64_t{4 * 100 * 4});
    QCOMPARE(*core::loadMatrix(p, id, "topic_word", 11), crowded.toDense().cast<float>().cast<double>());
  }

  void aSparseMatrixOverThePartSizeGoesInParts() {
    // Its bytes, cut into parts of the part size (not of whole entries: 1000 is no multiple of 12),
    // read back array for array; before, such a matrix was written out dense.
    test::Scratch scratch;
    core::Project p(scratch.path("p.latent"));
    const auto id = createRun(p);
    const auto large = sparseTopics(40, 300, 3, 3);
    const std::int64_t bytes = 40 * 8 + 301 * 8 + static_cast<std::int64_t>(large.entries()) * 12;
    QVERIFY(bytes > 3 * 1000);
    core::saveSparseMatrix(p, id, "topic_word", 12, large, core::MatrixElement::Float64, 1000);
    QCOMPARE(elementOf(p, 12), std::string("sparse"));
    QCOMPARE(storedBytes(p, 12), std::int64_t{0});
    const auto parts = "FROM run_matrix_parts WHERE iteration = 12";
    QCOMPARE(p.db().queryInteger(std::string("SELECT count(*) ") + parts), (bytes + 999) / 1000);
    QCOMPARE(p.db().queryInteger(std::string("SELECT sum(length(data)) ") + parts), bytes);
    const auto stored = core::loadStoredMatrix(p, id, "topic_word", 12);
    QVERIFY(stored && std::holds_alternative<core::FilledSparseMatrix>(*stored));
    const auto& read = std::get<core::FilledSparseMatrix>(*stored);
    QVERIFY(read.rowFill == large.rowFill && read.columnStarts == large.columnStarts);
    QVERIFY(read.rowIndices == large.rowIndices && read.values == large.values);
    QCOMPARE(*core::loadMatrix(p, id, "topic_word", 12), large.toDense());
    // Saved again in one blob, the parts go with the row it replaces.
    core::saveSparseMatrix(p, id, "topic_word", 12, large, core::MatrixElement::Float64);
    QCOMPARE(storedBytes(p, 12), bytes);
    QCOMPARE(p.db().queryInteger(std::string("SELECT count(*) ") + parts), std::int64_t{0});
    QCOMPARE(*core::loadMatrix(p, id, "topic_word", 12), large.toDense());
    // A part missing, or one cut short, is reported as damage of the parts, not read past.
    for (const char* damage : {"DELETE FROM run_matrix_parts WHERE iteration = 12 AND part = 1",
                               "UPDATE run_matrix_parts SET data = substr(data, 1, 100) WHERE iteration = 12 AND "
                               "part = 2"}) {
      core::saveSparseMatrix(p, id, "topic_word", 12, large, core::MatrixElement::Float64, 1000);
      p.db().exec(damage);
      try {
        core::loadMatrix(p, id, "topic_word", 12);
        QFAIL(damage);
      } catch (const core::InputError& e) {
        QVERIFY2(std::string(e.what()).find("run_matrix_parts") != std::string::npos, e.what());
      }
    }
  }

  void theRetentionCountsTheBytesStored() {
    // At K = 3000 a snapshot stands for 80M values but stores a few megabytes: counted as its
    // dense size, every earlier one would be over the history's byte bound and deleted.
    test::Scratch scratch;
    core::Project p(scratch.path("p.latent"));
    const auto id = createRun(p);
    core::FilledSparseMatrix m;
    m.rows = 1000;
    m.cols = 1000;  // 8 MB as doubles; stored in 16 KB
    m.rowFill.assign(1000, 1e-3);
    m.columnStarts.assign(1001, 0);
    for (std::int64_t it = 10; it <= 50; it += 10) {
      core::saveSparseMatrix(p, id, "topic_word", it, m, core::MatrixElement::Float64);
      core::thinSnapshots(p, id, {16, 1 << 20});
    }
    QCOMPARE(p.db().queryInteger("SELECT count(*) FROM run_matrices WHERE iteration >= 0"), std::int64_t{5});
    // Dense snapshots beside them count at their size: one of 1 MB does not fit beside the others.
    core::saveMatrix(p, id, "topic_word", 60, Eigen::MatrixXd::Ones(128, 1024));
    core::saveMatrix(p, id, "topic_word", 70, Eigen::MatrixXd::Ones(128, 1024));
    core::thinSnapshots(p, id, {16, 1 << 20});
    const auto kept = [&](int iteration) {
      return p.db().queryInteger("SELECT count(*) FROM run_matrices WHERE iteration = " + std::to_string(iteration));
    };
    QCOMPARE(kept(60), std::int64_t{0});
    QCOMPARE(kept(70), std::int64_t{1});
    QCOMPARE(kept(10), std::int64_t{1});
  }

  void aDamagedSparseBlobIsReported() {
    test::Scratch scratch;
    core::Project p(scratch.path("p.latent"));
    const auto id = createRun(p);
    const auto sparse = sparseTopics(8, 30, 2, 4);
    const auto save = [&] { core::saveSparseMatrix(p, id, "topic_word", 5, sparse, core::MatrixElement::Float64); };
    const auto damaged = [&](const std::string& update) {
      save();
      QVERIFY(core::loadMatrix(p, id, "topic_word", 5).has_value());
      p.db().exec(update);
      try {
        core::loadMatrix(p, id, "topic_word", 5);
        QFAIL(qPrintable(QString::fromStdString("read: " + update)));
      } catch (const core::InputError& e) {
        QVERIFY2(std::string(e.what()).find("run_matrices") != std::string::npos, e.what());
      }
    };
    const std::string row = " WHERE name = 'topic_word' AND iteration = 5";
    const std::int64_t starts = 8 * 8, indices = starts + 31 * 8;  // byte offsets
    // Cut short; one entry's value gone (not whole entries); rows claimed beyond the blob.
    damaged("UPDATE run_matrices SET data = substr(data, 1, length(data) - 12)" + row);
    damaged("UPDATE run_matrices SET data = substr(data, 1, length(data) - 8)" + row);
    damaged("UPDATE run_matrices SET rows = 1000000000" + row);
    // A column start after the next (column 1 starts at 2^56 + ...): little-endian byte 7 of it.
    damaged("UPDATE run_matrices SET data = substr(data, 1, " + std::to_string(starts + 8 + 7) + ") || x'01' || " +
            "substr(data, " + std::to_string(starts + 8 + 9) + ")" + row);
    // An entry's row outside the matrix (byte 3 of the first row index: 2^24 + ...).
    damaged("UPDATE run_matrices SET data = substr(data, 1, " + std::to_string(indices + 3) + ") || x'01' || " +
            "substr(data, " + std::to_string(indices + 5) + ")" + row);
    // An unknown element is a damaged project too.
    damaged("UPDATE run_matrices SET element = 'sparse2'" + row);
  }
};

LATENT_TEST_CASE(SparseSnapshotStoreTest)
#include "tst_sparse_snapshots.moc"
