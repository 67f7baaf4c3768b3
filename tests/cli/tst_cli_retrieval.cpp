// SPDX-License-Identifier: GPL-3.0-or-later
// latent-cli retrieval end to end: rsm and LDA fitted on one split of a small labelled corpus
// retrieve held-out documents of their label, the CSV and the JSON lines follow DESIGN §6, the
// numbers repeat, and runs that cannot be compared are refused with exit status 2.
#include <QtTest>

#include <cmath>
#include <fstream>
#include <map>
#include <sstream>
#include <string>

#include "cli_runner.hpp"
#include "labelled_texts.hpp"
#include "test_case.hpp"
#include "test_support.hpp"

using namespace latent;
using test::runCli;
using test::str;

namespace {

// The retrieval corpus as JSON lines: 72 documents of 30 words, a quarter of them shared.
std::string labelledJsonLines() {
  std::ostringstream out;
  for (const auto& doc : test::labelledTexts(72, 30, 0.25))
    out << "{\"id\": \"" << doc.id << "\", \"text\": \"" << doc.text << "\", \"label\": \"" << doc.label << "\"}\n";
  return out.str();
}

std::int64_t fitRun(const std::filesystem::path& project, const QString& dataset, const QStringList& extra) {
  QStringList arguments = {"fit", "--project", str(project), "--dataset", dataset, "--json"};
  arguments.insert(1, extra.front());
  arguments += extra.mid(1);
  const auto r = runCli(arguments);
  if (r.exitCode != 0) {
    qWarning() << r.err;
    return -1;
  }
  return r.jsonLines().back()["run"].get<std::int64_t>();
}

QString runList(std::initializer_list<std::int64_t> runs) {
  QStringList list;
  for (const auto r : runs) list << QString::number(r);
  return list.join(',');
}

}  // namespace

class CliRetrievalTest : public QObject {
  Q_OBJECT

 private Q_SLOTS:
  void rsmAndLdaRetrieveByLabel() {
    test::Scratch scratch;
    const auto project = scratch.path("p.latent");
    const auto source = scratch.write("docs.jsonl", labelledJsonLines());
    QCOMPARE(runCli({"import", "corpus", "--project", str(project), "--name", "topics", "--source", str(source),
                     "--format", "jsonl", "--label-column", "label", "--stopwords", "none"})
                 .exitCode,
             0);
    const QStringList split = {"--heldout", "0.25", "--seed", "3"};
    const auto rsm = fitRun(project, "topics", QStringList{"rsm", "--k", "6", "--iterations", "30"} + split);
    const auto gibbs = fitRun(project, "topics", QStringList{"lda-gibbs", "--k", "3", "--iterations", "100"} + split);
    const auto vb = fitRun(project, "topics", QStringList{"lda-vb", "--k", "3", "--iterations", "50"} + split);
    QVERIFY(rsm > 0 && gibbs > 0 && vb > 0);

    // LDA's stored doc_topic has the held-out documents' rows too (folded in from all their words).
    const auto docTopic = scratch.path("dt.csv");
    QCOMPARE(runCli({"export", "--project", str(project), "--run", QString::number(gibbs), "--what", "doc-topic",
                     "--out", str(docTopic)})
                 .exitCode,
             0);
    std::map<std::string, double> sums;
    std::ifstream dt(docTopic);
    std::string line;
    std::getline(dt, line);
    while (std::getline(dt, line)) sums[line.substr(0, line.find(','))] += std::stod(line.substr(line.rfind(',') + 1));
    QCOMPARE(sums.size(), std::size_t{72});
    for (const auto& [doc, sum] : sums) QVERIFY2(std::abs(sum - 1.0) < 1e-9, doc.c_str());

    const auto csv = scratch.path("pr.csv");
    const QStringList retrieval = {"retrieval", "--project", str(project), "--runs", runList({rsm, gibbs, vb}),
                                   "--out",     str(csv),    "--json"};
    const auto r = runCli(retrieval);
    QVERIFY2(r.exitCode == 0, qPrintable(r.err));
    const auto lines = r.jsonLines();
    QCOMPARE(lines.size(), std::size_t{3});
    const std::vector<std::string> models = {"rsm", "lda-gibbs", "lda-vb"};
    for (std::size_t i = 0; i < 3; ++i) {
      QCOMPARE(lines[i]["model"].get<std::string>(), models[i]);
      // 18 held-out documents (0.25 of 72), those without a label excluded and counted.
      QCOMPARE(lines[i]["queries"].get<std::int64_t>() + lines[i]["unlabelled_queries"].get<std::int64_t>(),
               std::int64_t{18});
      QCOMPARE(lines[i]["skipped"].get<std::int64_t>(), std::int64_t{0});
      QCOMPARE(lines[i]["ranked"].get<std::int64_t>() + lines[i]["unlabelled_training"].get<std::int64_t>(),
               std::int64_t{54});
      QCOMPARE(lines[i]["unlabelled_queries"].get<std::int64_t>() + lines[i]["unlabelled_training"].get<std::int64_t>(),
               std::int64_t{7});
      // Three well-separated labels: far above the chance of about 1/3.
      const double map = lines[i]["map"].get<double>();
      QVERIFY2(map > 0.8, qPrintable(QString("%1: MAP %2").arg(models[i].c_str()).arg(map)));
    }
    QCOMPARE(lines[0]["representation"].get<std::string>(), std::string("hidden_activations"));
    QCOMPARE(lines[1]["representation"].get<std::string>(), std::string("doc_topic"));

    std::ifstream in(csv);
    std::vector<std::string> rows;
    for (std::string row; std::getline(in, row);) rows.push_back(row);
    QCOMPARE(rows.front(), std::string("run,model,recall,precision"));
    QCOMPARE(rows.size() % 3, std::size_t{1});  // the header, then as many levels per run
    QVERIFY(rows.size() > 30);
    QVERIFY(rows[1].rfind(std::to_string(rsm) + ",rsm,", 0) == 0);

    // The same numbers again; without --json a readable summary per run on stderr.
    const auto again = runCli(retrieval);
    QCOMPARE(again.out, r.out);
    const auto readable = runCli({"retrieval", "--project", str(project), "--runs", runList({rsm}), "--out", "-"});
    QCOMPARE(readable.exitCode, 0);
    QVERIFY(readable.out.startsWith("run,model,recall,precision\n"));
    QVERIFY2(readable.err.contains("MAP"), qPrintable(readable.err));
  }

  void incomparableRunsAreRefused() {
    test::Scratch scratch;
    const auto project = scratch.path("p.latent");
    const auto source = scratch.write("docs.jsonl", labelledJsonLines());
    QCOMPARE(runCli({"import", "corpus", "--project", str(project), "--name", "topics", "--source", str(source),
                     "--format", "jsonl", "--label-column", "label", "--stopwords", "none"})
                 .exitCode,
             0);
    QCOMPARE(runCli({"import", "corpus", "--project", str(project), "--name", "plain", "--source", str(source),
                     "--format", "jsonl", "--stopwords", "none"})
                 .exitCode,
             0);
    const QStringList lda = {"lda-gibbs", "--k", "3", "--iterations", "10"};
    const auto base = fitRun(project, "topics", lda + QStringList{"--heldout", "0.25", "--seed", "3"});
    const auto otherSeed = fitRun(project, "topics", lda + QStringList{"--heldout", "0.25", "--seed", "4"});
    const auto otherFraction = fitRun(project, "topics", lda + QStringList{"--heldout", "0.2", "--seed", "3"});
    const auto nothingHeld = fitRun(project, "topics", lda + QStringList{"--heldout", "0", "--seed", "3"});
    const auto unigram = fitRun(project, "topics", {"unigram", "--heldout", "0.25", "--seed", "3"});
    const auto unlabelled = fitRun(project, "plain", lda + QStringList{"--heldout", "0.25", "--seed", "3"});
    QVERIFY(base > 0 && otherSeed > 0 && otherFraction > 0 && nothingHeld > 0 && unigram > 0 && unlabelled > 0);

    const auto refused = [&](std::initializer_list<std::int64_t> runs, const QString& message) {
      const auto r = runCli(
          {"retrieval", "--project", str(project), "--runs", runList(runs), "--out", str(scratch.path("x.csv"))});
      QCOMPARE(r.exitCode, 2);
      QVERIFY2(r.err.contains(message), qPrintable(r.err));
      QVERIFY(!std::filesystem::exists(scratch.path("x.csv")));
    };
    refused({base, otherSeed}, "fit them with the same --heldout and --seed");
    refused({base, otherFraction}, "hold out different documents");
    refused({nothingHeld}, "held out no documents");
    refused({base, unigram}, "stores no document representation");
    refused({unlabelled}, "has no document labels");
    refused({base, unlabelled}, "fit different datasets");
    refused({base, 999}, "999");
  }
};

LATENT_TEST_CASE(CliRetrievalTest)
#include "tst_cli_retrieval.moc"
