// SPDX-License-Identifier: GPL-3.0-or-later
// Linked documents through the command line (DESIGN §6, issue 18): `import links` attaches links to
// a corpus by the documents' ids, with a JSON answer, notes for what was left out and `datasets`
// counting them; a file naming no document, a missing column and a dataset that is not a corpus exit
// 2 with one message and change nothing; an rtm fit reports the link keys and exports its links.
#include <QtTest>

#include <fstream>
#include <string>

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

  // A model of linked documents end to end: rtm on a corpus whose two themes link within themselves,
  // a fifth held out; its final line has the link keys and both baselines', and its runs export their
  // predicted links and link weights.
  void rtmFitReportsLinkKeysAndExports() {
    test::Scratch scratch;
    const auto project = scratch.path("p.latent");
    std::string docs = "id,text\n", links = "source,target\n";
    const char* themes[2][4] = {{"money", "loan", "bank", "credit"}, {"river", "stream", "water", "shore"}};
    for (int d = 0; d < 60; ++d) {
      docs += "d" + std::to_string(d) + ",";
      for (int i = 0; i < 20; ++i) docs += std::string(themes[d % 2][(i * 7 + d) % 4]) + " ";
      docs += "\n";
      for (int step = 1; step <= 2; ++step)
        links += "d" + std::to_string(d) + ",d" + std::to_string((d + 2 * step) % 60) + "\n";
    }
    QCOMPARE(runCli({"import", "corpus", "--project", str(project), "--name", "papers", "--source",
                     str(scratch.write("docs.csv", docs)), "--id-column", "id", "--text-column", "text", "--stopwords",
                     "none"})
                 .exitCode,
             0);
    QCOMPARE(runCli({"import", "links", "--project", str(project), "--corpus", "papers", "--source",
                     str(scratch.write("links.csv", links))})
                 .exitCode,
             0);
    const auto fit = runCli({"fit", "rtm", "--project", str(project), "--dataset", "papers", "--k", "2", "--iterations",
                             "40", "--burn-in", "10", "--heldout", "0.2", "--json"});
    QCOMPARE(fit.exitCode, 0);
    const auto final = fit.jsonLines().back();
    for (const char* key : {"heldout_perplexity", "heldout_auc", "heldout_link_perplexity", "heldout_precision_at_10",
                            "heldout_link_pairs", "new_document_auc", "new_document_precision_at_10",
                            "baseline_auc_lda_cosine", "baseline_auc_mmsb", "baseline_seconds"})
      QVERIFY2(final.contains(key), key);
    QVERIFY(final["heldout_auc"].get<double>() > 0.6);
    const auto run = QString::number(final["run"].get<int>());
    const auto predicted = scratch.path("predicted.csv");
    QCOMPARE(runCli({"export", "--project", str(project), "--run", run, "--what", "predicted-links", "--out",
                     str(predicted)})
                 .exitCode,
             0);
    std::ifstream in(predicted);
    std::string header, row;
    std::getline(in, header);
    QCOMPARE(header, std::string("document,title,other_document,other_title,probability"));
    QVERIFY(std::getline(in, row) && !row.empty());
    QCOMPARE(runCli({"export", "--project", str(project), "--run", run, "--what", "link-weights", "--out",
                     str(scratch.path("weights.csv"))})
                 .exitCode,
             0);
  }
};

LATENT_TEST_CASE(CliLinksTest)
#include "tst_cli_links.moc"
