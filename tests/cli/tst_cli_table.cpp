// SPDX-License-Identifier: GPL-3.0-or-later
// latent-cli import table, datasets and heldout-split on numeric tables (DESIGN §6, "Numeric
// tables (added)"): the printed line, --json, exit 2 with one message on bad input and the project
// untouched, and the split files.
#include <QtTest>

#include <algorithm>
#include <fstream>
#include <string>
#include <vector>

#include "cli_runner.hpp"
#include "test_case.hpp"
#include "test_support.hpp"

using namespace latent;
using test::runCli;
using test::str;

namespace {

std::vector<std::string> tableFileLines(const std::filesystem::path& file) {
  std::vector<std::string> lines;
  std::ifstream in(file);
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

}  // namespace

class CliTableTest : public QObject {
  Q_OBJECT

 private Q_SLOTS:
  void importPrintsTheTable() {
    test::Scratch scratch;
    const auto project = scratch.path("p.latent");
    auto r = runCli({"import", "table", "--project", str(project), "--name", "words", "--source",
                     str(test::fixture("table/binary.tsv"))});
    QVERIFY2(r.exitCode == 0, qPrintable(r.err));
    QVERIFY2(r.out.startsWith("imported table 'words' (id 1, csv): 6 rows, 5 features (0/1)\n"), qPrintable(r.out));

    r = runCli({"import", "table", "--project", str(project), "--name", "iris", "--source",
                str(test::fixture("table/iris.csv")), "--id-column", "id", "--label-column", "species", "--columns",
                "petal_length,petal_width", "--json"});
    QVERIFY2(r.exitCode == 0, qPrintable(r.err));
    const auto lines = r.jsonLines();
    QCOMPARE(lines.size(), std::size_t{1});
    const auto& j = lines[0];
    QCOMPARE(j.value("kind", std::string()), std::string("table"));
    QCOMPARE(j.value("dataset", std::string()), std::string("iris"));
    QCOMPARE(j.value("format", std::string()), std::string("csv"));
    QCOMPARE(j["summary"].value("rows", 0), 10);
    QCOMPARE(j["summary"].value("features", 0), 2);
    QCOMPARE(j["summary"].value("binary", true), false);
    QCOMPARE(j["summary"].value("label_column", std::string()), std::string("species"));

    r = runCli({"datasets", "--project", str(project)});
    QCOMPARE(r.exitCode, 0);
    QVERIFY2(
        r.out.contains("table") && r.out.contains("6 rows, 5 features (0/1)") && r.out.contains("10 rows, 2 features"),
        qPrintable(r.out));
    r = runCli({"datasets", "--project", str(project), "--json"});
    QCOMPARE(r.exitCode, 0);
    QCOMPARE(r.jsonLines().size(), std::size_t{2});
    QCOMPARE(r.jsonLines()[1].value("kind", std::string()), std::string("table"));
  }

  void badInputExitsTwoAndLeavesTheProject() {
    test::Scratch scratch;
    const auto project = scratch.path("p.latent");
    QCOMPARE(runCli({"import", "table", "--project", str(project), "--name", "words", "--source",
                     str(test::fixture("table/binary.tsv"))})
                 .exitCode,
             0);
    const auto before = test::fileDigest(project);
    const auto bad = scratch.write("bad.csv", "a,b\n1,2\n3,x\n4,5\n");
    auto r = runCli({"import", "table", "--project", str(project), "--name", "bad", "--source", str(bad)});
    QCOMPARE(r.exitCode, 2);
    QVERIFY2(r.out.isEmpty(), qPrintable(r.out));
    QCOMPARE(r.err.trimmed().count('\n'), 0);  // one message
    QVERIFY2(r.err.contains(str(bad) + ":3:") && r.err.contains("'b' (column 2)") && r.err.contains("'x'"),
             qPrintable(r.err));
    QCOMPARE(test::fileDigest(project), before);

    const auto empty = scratch.write("empty-cell.csv", "a,b\n1,\n");
    r = runCli({"import", "table", "--project", str(project), "--name", "bad", "--source", str(empty)});
    QCOMPARE(r.exitCode, 2);
    QVERIFY2(r.err.contains("missing values are not supported"), qPrintable(r.err));
    r = runCli({"import", "table", "--project", str(project), "--name", "bad", "--source",
                str(test::fixture("table/iris.csv")), "--columns", "nope"});
    QCOMPARE(r.exitCode, 2);
    QVERIFY2(r.err.contains("no column named 'nope'"), qPrintable(r.err));
    r = runCli({"import", "table", "--project", str(project), "--name", "bad", "--source",
                str(test::fixture("table/iris.csv")), "--format", "xlsx"});
    QCOMPARE(r.exitCode, 2);
    QCOMPARE(test::fileDigest(project), before);

    // A project that did not exist is not left behind by a failed import.
    const auto fresh = scratch.path("fresh.latent");
    r = runCli({"import", "table", "--project", str(fresh), "--name", "bad", "--source", str(bad)});
    QCOMPARE(r.exitCode, 2);
    QVERIFY(!std::filesystem::exists(fresh));
  }

  void heldoutSplitWritesHeaderAndRows() {
    test::Scratch scratch;
    const auto project = scratch.path("p.latent");
    QCOMPARE(runCli({"import", "table", "--project", str(project), "--name", "iris", "--source",
                     str(test::fixture("table/iris.csv")), "--id-column", "id", "--label-column", "species"})
                 .exitCode,
             0);
    const auto one = scratch.path("one"), two = scratch.path("two");
    for (const auto& folder : {one, two}) {
      const auto r = runCli({"heldout-split", "--project", str(project), "--dataset", "iris", "--heldout", "0.3",
                             "--seed", "5", "--out", str(folder)});
      QVERIFY2(r.exitCode == 0, qPrintable(r.err));
      QVERIFY2(r.out.contains("wrote 7 training and 3 held-out rows"), qPrintable(r.out));
    }
    const auto train = tableFileLines(one / "train.csv");
    const auto heldout = tableFileLines(one / "heldout.csv");
    const std::string header = "id,sepal_length,sepal_width,petal_length,petal_width,species";
    QCOMPARE(train.size(), std::size_t{8});
    QCOMPARE(heldout.size(), std::size_t{4});
    QCOMPARE(train[0], header);
    QCOMPARE(heldout[0], header);
    QCOMPARE(tableFileLines(two / "heldout.csv"), heldout);
    // Every row of the file appears once, as imported.
    std::vector<std::string> all(train.begin() + 1, train.end());
    all.insert(all.end(), heldout.begin() + 1, heldout.end());
    QVERIFY(std::find(all.begin(), all.end(), "s1,5.1,3.5,1.4,0.2,setosa") != all.end());
    QVERIFY(std::find(all.begin(), all.end(), "s104,6.3,2.9,5.6,1.8,virginica") != all.end());
    std::sort(all.begin(), all.end());
    QVERIFY(std::adjacent_find(all.begin(), all.end()) == all.end());
    QCOMPARE(all.size(), std::size_t{10});
  }
};

LATENT_TEST_CASE(CliTableTest)
#include "tst_cli_table.moc"
