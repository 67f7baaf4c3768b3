// SPDX-License-Identifier: GPL-3.0-or-later
// `import links` through the command line (DESIGN §6, issue 18): links attached to a corpus by the
// documents' ids, with a JSON answer, notes for what was left out, `datasets` counting them; a file
// naming no document, a missing column and a dataset that is not a corpus exit 2 with one message
// and change nothing.
#include <QtTest>

#include <fstream>

#include "cli_runner.hpp"
#include "test_case.hpp"
#include "test_support.hpp"

using namespace latent;
using test::runCli;
using test::str;

class CliLinksTest : public QObject {
  Q_OBJECT

 private Q_SLOTS:
  void importLinksAndItsErrors() {
    test::Scratch scratch;
    const auto project = scratch.path("p.latent");
    const auto docs = scratch.write("papers.csv",
                                    "id,text\n"
                                    "a,topic models of text\n"
                                    "b,block models of graphs\n"
                                    "c,links between documents\n");
    QCOMPARE(runCli({"import", "corpus", "--project", str(project), "--name", "papers", "--source", str(docs),
                     "--id-column", "id", "--text-column", "text", "--stopwords", "none"})
                 .exitCode,
             0);
    const auto links = scratch.write("cites.tsv", "from\tto\nc\ta\nc\tb\nz\ta\nc\ta\n");
    const auto ok = runCli({"import", "links", "--project", str(project), "--corpus", "papers", "--source", str(links),
                            "--source-column", "from", "--target-column", "to", "--json"});
    QCOMPARE(ok.exitCode, 0);
    const auto answer = ok.jsonLines().front();
    QCOMPARE(answer["links"].get<int>(), 2);
    QCOMPARE(answer["kind"].get<std::string>(), std::string("corpus"));
    QCOMPARE(answer["notes"].size(), std::size_t(2));  // the unknown 'z' and the repeat
    const auto listed = runCli({"datasets", "--project", str(project)});
    QVERIFY2(listed.out.contains("2 links"), qPrintable(listed.out));

    const auto plain = runCli({"import", "links", "--project", str(project), "--corpus", "papers", "--source",
                               str(links), "--source-column", "from", "--target-column", "to"});
    QCOMPARE(plain.exitCode, 0);
    QVERIFY2(plain.out.startsWith("attached 2 links to corpus 'papers'"), qPrintable(plain.out));
    QVERIFY2(plain.out.contains("note: the corpus's 2 earlier links were replaced"), qPrintable(plain.out));

    const auto none = runCli({"import", "links", "--project", str(project), "--corpus", "papers", "--source",
                              str(scratch.write("none.csv", "source,target\nx,y\n"))});
    QCOMPARE(none.exitCode, 2);
    QVERIFY2(none.err.contains("no row links two documents"), qPrintable(none.err));
    const auto column = runCli({"import", "links", "--project", str(project), "--corpus", "papers", "--source",
                                str(links), "--source-column", "citing"});
    QCOMPARE(column.exitCode, 2);
    QVERIFY2(column.err.contains("'citing' is not a column"), qPrintable(column.err));
    const auto missing =
        runCli({"import", "links", "--project", str(project), "--corpus", "nothing", "--source", str(links)});
    QCOMPARE(missing.exitCode, 2);
    const auto noProject = runCli(
        {"import", "links", "--project", str(scratch.path("no.latent")), "--corpus", "papers", "--source", str(links)});
    QCOMPARE(noProject.exitCode, 2);
    QVERIFY(!std::filesystem::exists(scratch.path("no.latent")));
    QVERIFY2(runCli({"datasets", "--project", str(project)}).out.contains("2 links"), "the failures changed the links");
  }
};

LATENT_TEST_CASE(CliLinksTest)
#include "tst_cli_links.moc"
