// SPDX-License-Identifier: GPL-3.0-or-later
// Numeric tables from CSV/TSV: good files with every option, bad files naming file, line, column
// and reason, and imports that publish everything or nothing.
#include <QtTest>

#include <stop_token>

#include "core/io/table_import.hpp"
#include "core/jobs/import_job.hpp"
#include "core/store/project.hpp"
#include "core/store/table_store.hpp"
#include "core/util/errors.hpp"
#include "test_case.hpp"
#include "test_support.hpp"

using namespace latent;

namespace {

core::NumericTable readTableFile(const std::filesystem::path& file, const core::TableReadOptions& options = {}) {
  return core::readTable(file, options, core::ImportControl{});
}

// The InputError of reading `contents`, checked to name the file and `line`, and to contain
// `phrase`; returns the message.
std::string tableInputError(const test::Scratch& scratch, const std::string& contents, std::int64_t line,
                            const std::string& phrase, const core::TableReadOptions& options = {}) {
  const auto file = scratch.write("bad.csv", contents);
  try {
    readTableFile(file, options);
  } catch (const core::InputError& e) {
    const std::string message = e.what();
    if (e.line() != line || e.file() != file.string() || message.find(phrase) == std::string::npos)
      qWarning() << "unexpected error:" << message.c_str() << "line" << e.line();
    if (e.line() != line) return "wrong line: " + message;
    if (e.file() != file.string()) return "wrong file: " + message;
    if (message.find(phrase) == std::string::npos) return "missing phrase: " + message;
    return "ok";
  }
  return "no error";
}

}  // namespace

class TableImportTest : public QObject {
  Q_OBJECT

 private Q_SLOTS:
  void readsCommaSeparatedWithIdAndLabel() {
    core::TableReadOptions options;
    options.idColumn = "id";
    options.labelColumn = "species";
    core::TableReadReport report;
    const auto table = core::readTable(test::fixture("table/iris.csv"), options, {}, &report);
    QCOMPARE(table.rowCount(), std::size_t{10});
    QCOMPARE(table.featureCount(), std::size_t{4});
    QCOMPARE(table.featureNames,
             (std::vector<std::string>{"sepal_length", "sepal_width", "petal_length", "petal_width"}));
    QCOMPARE(table.rowNames.front(), std::string("s1"));
    QCOMPARE(table.rowNames.back(), std::string("s104"));
    QCOMPARE(table.labelName, std::string("species"));
    QCOMPARE(table.rowLabels.size(), std::size_t{10});
    QCOMPARE(table.rowLabels[3], std::string("versicolor"));
    QCOMPARE(table.values.rows(), Eigen::Index{10});
    QCOMPARE(table.values.cols(), Eigen::Index{4});
    QCOMPARE(table.values(0, 0), 5.1);
    QCOMPARE(table.values(9, 3), 1.8);
    QVERIFY(!table.isBinary());
    QVERIFY(report.format == core::TableFormat::Csv);
  }

  void readsTabSeparatedWithoutId() {
    const auto table = readTableFile(test::fixture("table/binary.tsv"));
    QCOMPARE(table.rowCount(), std::size_t{6});
    QCOMPARE(table.featureCount(), std::size_t{5});
    QCOMPARE(table.rowNames, (std::vector<std::string>{"1", "2", "3", "4", "5", "6"}));
    QVERIFY(!table.hasLabels());
    QVERIFY(table.labelName.empty());
    QCOMPARE(table.values(2, 2), 1.0);
    QCOMPARE(table.values(1, 0), 0.0);
    QVERIFY(table.isBinary());
  }

  void readsQuotedFieldsAndNumberForms() {
    test::Scratch scratch;
    const auto file = scratch.write("q.csv",
                                    "\"name, full\",\"a\",b,\"c \"\"quoted\"\"\"\n"
                                    "\"x, 1\",1,-2.5,1e-3\n"
                                    "\"y\n2\",\" 3 \",+4,-0\n");
    core::TableReadOptions options;
    options.idColumn = "name, full";
    const auto table = readTableFile(file, options);
    QCOMPARE(table.featureNames, (std::vector<std::string>{"a", "b", "c \"quoted\""}));
    QCOMPARE(table.rowNames, (std::vector<std::string>{"x, 1", "y\n2"}));
    QCOMPARE(table.values(0, 0), 1.0);
    QCOMPARE(table.values(0, 1), -2.5);
    QCOMPARE(table.values(0, 2), 1e-3);
    QCOMPARE(table.values(1, 0), 3.0);
    QCOMPARE(table.values(1, 1), 4.0);
    QVERIFY(!table.isBinary());
  }

  void columnsOptionKeepsThoseInItsOrder() {
    core::TableReadOptions options;
    options.columns = core::splitColumnList(" petal_width, sepal_length ");
    options.labelColumn = "SPECIES";  // found without case, as other importers do
    const auto table = readTableFile(test::fixture("table/iris.csv"), options);
    QCOMPARE(table.featureNames, (std::vector<std::string>{"petal_width", "sepal_length"}));
    QCOMPARE(table.values(0, 0), 0.2);
    QCOMPARE(table.values(0, 1), 5.1);
    QCOMPARE(table.labelName, std::string("species"));
    QCOMPARE(table.rowNames.front(), std::string("1"));  // no id column asked for
  }

  void withoutOptionsEveryColumnIsAFeature() {
    test::Scratch scratch;
    // An empty header cell (pandas' index) is named after its position.
    const auto table = readTableFile(scratch.write("p.csv", ",x\n0,1.5\n1,2.5\n"));
    QCOMPARE(table.featureNames, (std::vector<std::string>{"column 1", "x"}));
    QCOMPARE(table.values(1, 0), 1.0);
  }

  void badCellNamesLineAndColumn() {
    test::Scratch scratch;
    QCOMPARE(
        tableInputError(scratch, "a,b,c\n1,2,3\n4,x5,6\n", 3, "column 'b' (column 2): 'x5' is not a finite number"),
        std::string("ok"));
    QCOMPARE(tableInputError(scratch, "a;b\n1;2\n3;nan\n", 3, "'nan' is not a finite number"), std::string("ok"));
    QCOMPARE(tableInputError(scratch, "a,b\n1,2\n3,1e999\n", 3, "'1e999' is not a finite number"), std::string("ok"));
  }

  void emptyCellIsRefused() {
    test::Scratch scratch;
    QCOMPARE(tableInputError(scratch, "a,b\n1,2\n3,\n", 3,
                             "column 'b' (column 2) is empty: missing values are not supported"),
             std::string("ok"));
    QCOMPARE(tableInputError(scratch, "a\tb\n\t1\n", 2, "missing values are not supported"), std::string("ok"));
  }

  void badShapesAreRefused() {
    test::Scratch scratch;
    QCOMPARE(tableInputError(scratch, "", 0, "the file is empty"), std::string("ok"));
    QCOMPARE(tableInputError(scratch, "a,b\n", 0, "holds no rows"), std::string("ok"));
    QCOMPARE(tableInputError(scratch, "1,2\n3,4\n", 1, "holds numbers, not column names"), std::string("ok"));
    QCOMPARE(tableInputError(scratch, "a,b\n1,2\n3\n", 3, "expected 2 columns"), std::string("ok"));
    core::TableReadOptions idAndLabel;
    idAndLabel.idColumn = "id";
    idAndLabel.labelColumn = "label";
    QCOMPARE(tableInputError(scratch, "id,label\nr1,x\n", 1, "has no feature column", idAndLabel), std::string("ok"));
    core::TableReadOptions id;
    id.idColumn = "id";
    QCOMPARE(tableInputError(scratch, "id,a\nr1,1\nr2,2\nr1,3\n", 4, "'r1' was already given on line 2", id),
             std::string("ok"));
    QCOMPARE(tableInputError(scratch, "id,a\nr1,1\n,2\n", 3, "is empty", id), std::string("ok"));
    core::TableReadOptions missing;
    missing.columns = {"a", "zz"};
    QCOMPARE(tableInputError(scratch, "a,b\n1,2\n", 1, "--columns: no column named 'zz' (columns: a, b)", missing),
             std::string("ok"));
    QCOMPARE(tableInputError(scratch, "a,a\n1,2\n", 1, "names feature column 'a' twice"), std::string("ok"));
  }

  void contradictoryOptionsAreUsageErrors() {
    core::TableReadOptions same;
    same.idColumn = "id";
    same.labelColumn = "id";
    QVERIFY_THROWS_EXCEPTION(core::UsageError, readTableFile(test::fixture("table/iris.csv"), same));
    core::TableReadOptions labelAsFeature;
    labelAsFeature.labelColumn = "species";
    labelAsFeature.columns = {"sepal_length", "species"};
    QVERIFY_THROWS_EXCEPTION(core::UsageError, readTableFile(test::fixture("table/iris.csv"), labelAsFeature));
    QVERIFY_THROWS_EXCEPTION(core::InputError, readTableFile(test::fixture("table/none.csv")));
  }

  void stopRequestCancels() {
    std::stop_source stop;
    stop.request_stop();
    core::ImportControl control;
    control.stop = stop.get_token();
    QVERIFY_THROWS_EXCEPTION(core::Cancelled, core::readTable(test::fixture("table/iris.csv"), {}, control));
  }

  void previewStopsAfterMaxRecords() {
    core::ImportControl control;
    control.maxRecords = 3;
    const auto table = core::readTable(test::fixture("table/binary.tsv"), {}, control);
    QCOMPARE(table.rowCount(), std::size_t{3});
    QCOMPARE(table.values.rows(), Eigen::Index{3});
  }

  void importPublishesTheTable() {
    test::Scratch scratch;
    const auto file = scratch.path("p.latent");
    core::Project project(file);
    core::TableImportRequest request;
    request.name = "iris";
    request.source = test::fixture("table/iris.csv");
    request.read.idColumn = "id";
    request.read.labelColumn = "species";
    const auto result = core::importTable(project, request);
    QVERIFY(result.dataset.kind == core::DataKind::Table);
    QCOMPARE(result.dataset.format, std::string("csv"));
    QCOMPARE(result.dataset.summary.value("rows", 0), 10);
    QCOMPARE(result.dataset.summary.value("features", 0), 4);
    QCOMPARE(result.dataset.summary.value("binary", true), false);
    QCOMPARE(result.dataset.summary.value("label_column", std::string()), std::string("species"));
    QCOMPARE(result.dataset.summary.value("labels", 0), 3);
    const auto loaded = core::loadTable(project, result.dataset.id);
    const auto read = readTableFile(request.source, request.read);
    QCOMPARE(loaded.rowNames, read.rowNames);
    QCOMPARE(loaded.rowLabels, read.rowLabels);
    QVERIFY(loaded.values == read.values);
  }

  void badImportLeavesProjectAsItWas() {
    test::Scratch scratch;
    const auto file = scratch.path("p.latent");
    {
      core::Project project(file);
      core::TableImportRequest good;
      good.name = "binary";
      good.source = test::fixture("table/binary.tsv");
      core::importTable(project, good);
    }
    const auto before = test::fileDigest(file);
    {
      core::Project project(file);
      core::TableImportRequest bad;
      bad.name = "bad";
      bad.source = scratch.write("bad.csv", "a,b\n1,2\n3,oops\n");
      QVERIFY_THROWS_EXCEPTION(core::InputError, core::importTable(project, bad));
      core::TableImportRequest taken;
      taken.name = "binary";
      taken.source = test::fixture("table/iris.csv");
      QVERIFY_THROWS_EXCEPTION(core::UsageError, core::importTable(project, taken));
      QCOMPARE(project.datasets().size(), std::size_t{1});
    }
    QCOMPARE(test::fileDigest(file), before);
  }
};

LATENT_TEST_CASE(TableImportTest)
#include "tst_table_import.moc"
