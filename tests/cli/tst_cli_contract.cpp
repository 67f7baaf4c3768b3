// SPDX-License-Identifier: GPL-3.0-or-later
// The command-line contract of DESIGN §6: imports, fit --json, runs, datasets, export, exit codes.
#include <QtTest>

#include <signal.h>

#include <cmath>
#include <fstream>
#include <sstream>

#include "cli_runner.hpp"
#include "core/store/database.hpp"
#include "test_case.hpp"
#include "test_support.hpp"

using namespace latent;
using test::runCli;
using test::str;

class CliContractTest : public QObject {
  Q_OBJECT

 private Q_SLOTS:
  // The perplexity of a corpus small enough to work out by hand. Only "river river" has two
  // tokens, so --heldout 0.25 (one of four documents) must hold it out; its scored half is one
  // "river". Training counts: money 2, bank 1, river 0; with beta 0.5, p(river) = 0.5 / 4.5 = 1/9,
  // so the held-out perplexity is exactly 9.
  void unigramPerplexityByHand() {
    test::Scratch scratch;
    const auto source = scratch.write("tiny.txt", "river river\nmoney\nbank\nmoney\n");
    const auto project = scratch.path("tiny.latent");
    auto r = runCli({"import", "corpus", "--project", str(project), "--name", "tiny", "--source", str(source)});
    QCOMPARE(r.exitCode, 0);
    r = runCli({"fit", "unigram", "--project", str(project), "--dataset", "tiny", "--heldout", "0.25", "--beta", "0.5",
                "--json"});
    QCOMPARE(r.exitCode, 0);
    const auto lines = r.jsonLines();
    QCOMPARE(lines.size(), std::size_t{2});
    QVERIFY(std::abs(lines[0]["heldout_perplexity"].get<double>() - 9.0) < 1e-12);
    QCOMPARE(lines[0]["iteration"].get<int>(), 1);
    QVERIFY(lines[0].contains("seconds"));
    // (2 ln(2.5/4.5) + ln(1.5/4.5)) / 3
    QVERIFY(std::abs(lines[0]["train_objective"].get<double>() - (2 * std::log(2.5 / 4.5) + std::log(1.5 / 4.5)) / 3) <
            1e-12);
    const auto& final = lines[1];
    QCOMPARE(final["run"].get<int>(), 1);
    QCOMPARE(final["model"].get<std::string>(), std::string("unigram"));
    QCOMPARE(final["dataset"].get<std::string>(), std::string("tiny"));
    QCOMPARE(final["k"].get<int>(), 1);
    QVERIFY(final["seconds"].is_number());
    QVERIFY(std::abs(final["heldout_perplexity"].get<double>() - 9.0) < 1e-12);

    r = runCli({"export", "--project", str(project), "--run", "1", "--what", "topic-word", "--out", "-"});
    QCOMPARE(r.exitCode, 0);
    const auto rows = r.out.split('\n', Qt::SkipEmptyParts);
    QCOMPARE(rows.size(), 4);
    QCOMPARE(rows[0], QString("topic,word,probability"));
    const std::vector<std::pair<QString, double>> expected{
        {"river", 0.5 / 4.5}, {"money", 2.5 / 4.5}, {"bank", 1.5 / 4.5}};
    for (std::size_t i = 0; i < expected.size(); ++i) {
      const auto fields = rows[static_cast<int>(i) + 1].split(',');
      QCOMPARE(fields[0], QString("0"));
      QCOMPARE(fields[1], expected[i].first);
      QCOMPARE(fields[2].toDouble(), expected[i].second);  // written with every digit a double needs
    }
  }

  void demoCorpusFitJsonLines() {
    test::Scratch scratch;
    const auto project = scratch.path("sotu.latent");
    auto r = runCli({"import", "sample", "--project", str(project), "--sample", "sotu", "--json"});
    QCOMPARE(r.exitCode, 0);
    const auto imported = r.jsonLines().at(0);
    QCOMPARE(imported["summary"]["documents"].get<int>(), 240);
    r = runCli({"fit", "unigram", "--project", str(project), "--dataset", "sotu", "--heldout", "0.1", "--json"});
    QCOMPARE(r.exitCode, 0);
    const auto lines = r.jsonLines();
    QCOMPARE(lines.size(), std::size_t{2});
    const double perplexity = lines[1]["heldout_perplexity"].get<double>();
    // A unigram model of English prose: in the thousands, far below the vocabulary size.
    QVERIFY2(perplexity > 500 && perplexity < imported["summary"]["vocabulary"].get<double>(),
             qPrintable(QString::number(perplexity)));
    QCOMPARE(lines[1]["heldout_documents"].get<int>(), 24);
    QCOMPARE(lines[1]["heldout_protocol"].get<std::string>(), std::string("document-completion"));

    // Same seed, same number.
    r = runCli({"fit", "unigram", "--project", str(project), "--dataset", "sotu", "--heldout", "0.1", "--json"});
    QCOMPARE(r.jsonLines().at(1)["heldout_perplexity"].get<double>(), perplexity);
    r = runCli({"fit", "unigram", "--project", str(project), "--dataset", "sotu", "--heldout", "0.1", "--seed", "2",
                "--json"});
    QVERIFY(r.jsonLines().at(1)["heldout_perplexity"].get<double>() != perplexity);

    r = runCli({"runs", "--project", str(project), "--json"});
    QCOMPARE(r.exitCode, 0);
    const auto runs = r.jsonLines();
    QCOMPARE(runs.size(), std::size_t{3});
    QCOMPARE(runs[0]["status"].get<std::string>(), std::string("finished"));
    QCOMPARE(runs[2]["seed"].get<int>(), 2);
    // What each run's matrices take in the project (issue 22): the unigram's word distribution at
    // least, 8 bytes a value, and no snapshots.
    QVERIFY(runs[0]["matrix_bytes"].get<std::int64_t>() >= 8 * 1000);
    QCOMPARE(runs[0]["matrix_bytes"].get<std::int64_t>() % 8, std::int64_t{0});
    QCOMPARE(runs[0]["snapshot_bytes"].get<std::int64_t>(), std::int64_t{0});
    QVERIFY(runCli({"runs", "--project", str(project)}).out.contains(" stored)"));
    r = runCli({"datasets", "--project", str(project), "--json"});
    QCOMPARE(r.jsonLines().at(0)["name"].get<std::string>(), std::string("sotu"));

    // Exports: topic-word has every word once and sums to one; metrics has the one iteration.
    const auto words = scratch.path("words.csv");
    QCOMPARE(runCli({"export", "--project", str(project), "--run", "1", "--what", "topic-word", "--out", str(words)})
                 .exitCode,
             0);
    std::ifstream in(words);
    std::string line;
    std::getline(in, line);
    QCOMPARE(line, std::string("topic,word,probability"));
    double sum = 0;
    int rows = 0;
    while (std::getline(in, line)) {
      sum += std::stod(line.substr(line.rfind(',') + 1));
      ++rows;
    }
    QCOMPARE(rows, imported["summary"]["vocabulary"].get<int>());
    QVERIFY(std::abs(sum - 1.0) < 1e-9);
    r = runCli({"export", "--project", str(project), "--run", "1", "--what", "metrics", "--out", "-"});
    QVERIFY(r.out.startsWith("iteration,seconds,train_objective,heldout_metric\n1,"));
  }

  void badArgumentsExitTwoWithOneMessage_data() {
    QTest::addColumn<QStringList>("arguments");
    QTest::addColumn<QString>("message");
    QTest::newRow("nothing") << QStringList{} << "subcommand";
    QTest::newRow("unknown command") << QStringList{"frobnicate"} << "frobnicate";
    QTest::newRow("unknown model") << QStringList{"fit", "lda-magic", "--project", "@", "--dataset", "tiny"}
                                   << "unknown model 'lda-magic'";
    QTest::newRow("missing dataset") << QStringList{"fit", "unigram", "--project", "@"} << "--dataset";
    QTest::newRow("no such dataset") << QStringList{"fit", "unigram", "--project", "@", "--dataset", "nope"}
                                     << "no dataset named 'nope'";
    QTest::newRow("option of another model")
        << QStringList{"fit", "unigram", "--project", "@", "--dataset", "tiny", "--k", "5"} << "no option --k";
    QTest::newRow("bad option value") << QStringList{"fit",       "unigram", "--project", "@",
                                                     "--dataset", "tiny",    "--beta",    "lots"}
                                      << "--beta";
    QTest::newRow("held-out out of range")
        << QStringList{"fit", "unigram", "--project", "@", "--dataset", "tiny", "--heldout", "1.5"} << "--heldout";
    QTest::newRow("bad threads") << QStringList{"fit",       "unigram", "--project", "@",
                                                "--dataset", "tiny",    "--threads", "0"}
                                 << "--threads";
    QTest::newRow("non-numeric seed") << QStringList{"fit",       "unigram", "--project", "@",
                                                     "--dataset", "tiny",    "--seed",    "x"}
                                      << "--seed";
    QTest::newRow("unknown export") << QStringList{"export", "--project", "@",     "--run", "1",
                                                   "--what", "nothing",   "--out", "-"}
                                    << "unknown export 'nothing'";
    QTest::newRow("export a result the run lacks")
        << QStringList{"export", "--project", "@", "--run", "1", "--what", "doc-topic", "--out", "-"}
        << "has no doc-topic";
    QTest::newRow("no such run") << QStringList{"export", "--project", "@",     "--run", "99",
                                                "--what", "metrics",   "--out", "-"}
                                 << "no run 99";
    QTest::newRow("no such project") << QStringList{"datasets", "--project", "/nonexistent/p.latent"}
                                     << "does not exist";
    QTest::newRow("bad format name") << QStringList{"import", "corpus",   "--project", "@",        "--name",
                                                    "x",      "--source", "@",         "--format", "docx"}
                                     << "unknown --format 'docx'";
    QTest::newRow("taken name") << QStringList{"import", "corpus", "--project", "@", "--name", "tiny", "--source", "@"}
                                << "already exists";
    QTest::newRow("directed and undirected")
        << QStringList{"import", "graph",    "--project", "@",          "--name",
                       "g",      "--source", "@",         "--directed", "--undirected"}
        << "excludes";
    QTest::newRow("unknown sample") << QStringList{"import", "sample", "--project", "@", "--sample", "nope"}
                                    << "unknown sample 'nope'";
  }

  void badArgumentsExitTwoWithOneMessage() {
    QFETCH(QStringList, arguments);
    QFETCH(QString, message);
    test::Scratch scratch;
    const auto source = scratch.write("tiny.txt", "river river\nmoney\nbank\n");
    const auto project = scratch.path("p.latent");
    QCOMPARE(
        runCli({"import", "corpus", "--project", str(project), "--name", "tiny", "--source", str(source)}).exitCode, 0);
    QCOMPARE(runCli({"fit", "unigram", "--project", str(project), "--dataset", "tiny"}).exitCode, 0);
    const auto before = test::fileDigest(project);
    // "@" after --project is the project, anywhere else the source file.
    for (int i = 0; i < arguments.size(); ++i)
      if (arguments[i] == "@") arguments[i] = i > 0 && arguments[i - 1] == "--project" ? str(project) : str(source);
    const auto r = runCli(arguments);
    QCOMPARE(r.exitCode, 2);
    QVERIFY2(r.err.contains(message), qPrintable(r.err));
    QCOMPARE(r.err.count('\n'), 1);  // one message
    QVERIFY(r.out.isEmpty());
    QCOMPARE(test::fileDigest(project), before);
  }

  void helpIsNotAnError() {
    const auto r = runCli({"fit", "--help"});
    QCOMPARE(r.exitCode, 0);
    QVERIFY(r.out.contains("--heldout"));
  }

  void badInputFileLeavesProjectAsItWas() {
    test::Scratch scratch;
    const auto good = scratch.write("good.txt", "alpha beta\ngamma\n");
    const auto bad = scratch.write("bad.txt", "fine line\nbad \xff byte\n");
    const auto project = scratch.path("p.latent");
    QCOMPARE(runCli({"import", "corpus", "--project", str(project), "--name", "good", "--source", str(good)}).exitCode,
             0);
    const auto before = test::fileDigest(project);
    const auto r = runCli({"import", "corpus", "--project", str(project), "--name", "bad", "--source", str(bad)});
    QCOMPARE(r.exitCode, 2);
    QVERIFY2(r.err.startsWith("latent-cli: " + str(bad) + ":2: "), qPrintable(r.err));
    QVERIFY(r.err.contains("UTF-8"));
    QCOMPARE(test::fileDigest(project), before);
    QCOMPARE(runCli({"datasets", "--project", str(project), "--json"}).jsonLines().size(), std::size_t{1});

    // Into a project that did not exist: no file is left behind.
    const auto fresh = scratch.path("fresh.latent");
    QCOMPARE(runCli({"import", "corpus", "--project", str(fresh), "--name", "bad", "--source", str(bad)}).exitCode, 2);
    QVERIFY(!std::filesystem::exists(fresh));
    QVERIFY(!std::filesystem::exists(fresh.string() + "-wal"));
  }

  void interruptedImportRollsBack() {
    test::Scratch scratch;
    // About 40 MB of text: long enough to interrupt in the middle on any machine we run on.
    const auto big = scratch.path("big.txt");
    {
      std::ofstream out(big);
      std::string line;
      for (int w = 0; w < 200; ++w) line += "word" + std::to_string(w % 97) + " river bank money ";
      for (int i = 0; i < 12000; ++i) out << line << i << "\n";
    }
    const auto project = scratch.path("p.latent");
    QCOMPARE(runCli({"import", "sample", "--project", str(project), "--sample", "gibbs-toy"}).exitCode, 0);
    const auto before = storedContents(project);
    QProcess process;
    process.start(QStringLiteral(LATENT_CLI_PATH),
                  {"import", "corpus", "--project", str(project), "--name", "big", "--source", str(big)});
    QVERIFY(process.waitForStarted());
    QTest::qWait(300);
    QVERIFY2(process.state() == QProcess::Running, "the import finished before it could be interrupted");
    ::kill(static_cast<pid_t>(process.processId()), SIGINT);
    QVERIFY(process.waitForFinished(30000));
    QCOMPARE(process.exitCode(), 130);
    QVERIFY(process.readAllStandardError().contains("interrupted"));
    // The import wrote staging rows in short transactions before the interrupt and deleted them
    // again: the file's bytes differ, what the store holds does not.
    QCOMPARE(storedContents(project), before);
  }

  void interruptedFitSaysItIsStopping() {
    // A stop is acknowledged as soon as it is seen (issue 21: a large result can take seconds to
    // store after the model has stopped), with the fit's time, and the run is stored as stopped.
    test::Scratch scratch;
    const auto project = scratch.path("p.latent");
    QCOMPARE(runCli({"import", "sample", "--project", str(project), "--sample", "gibbs-toy"}).exitCode, 0);
    QProcess process;
    process.start(QStringLiteral(LATENT_CLI_PATH), {"fit", "lda-gibbs", "--project", str(project), "--dataset",
                                                    "gibbs-toy", "--k", "2", "--iterations", "10000000"});
    QVERIFY(process.waitForStarted());
    // The run exists once its line is printed; the stop comes after, while the sampler sweeps.
    QByteArray out;
    while (!out.contains("run 1:") && process.waitForReadyRead(30000)) out += process.readAllStandardOutput();
    QVERIFY2(out.contains("run 1:"), out.constData());
    ::kill(static_cast<pid_t>(process.processId()), SIGINT);
    QVERIFY(process.waitForFinished(30000));
    QCOMPARE(process.exitCode(), 130);
    const QByteArray err = process.readAllStandardError();
    QVERIFY2(
        err.contains("latent-cli: stopping run 1 ") && err.contains("s into the fit; it keeps what it has reached"),
        err.constData());
    out += process.readAllStandardOutput();
    QVERIFY2(out.contains("stopped in "), out.constData());
    QVERIFY(runCli({"runs", "--project", str(project)}).out.contains("stopped"));
  }

 private:
  // The datasets as `datasets --json` lists them, and the rows of every dataset table, staging
  // datasets included.
  static QString storedContents(const std::filesystem::path& project) {
    QString contents = runCli({"datasets", "--project", str(project), "--json"}).out;
    core::Database raw(project, core::Database::Mode::ReadOnly);
    for (const char* table : {"datasets", "documents", "tokens", "vocabulary"})
      contents +=
          QStringLiteral("\n%1 %2").arg(table).arg(raw.queryInteger(std::string("SELECT count(*) FROM ") + table));
    return contents;
  }
};

LATENT_TEST_CASE(CliContractTest)
#include "tst_cli_contract.moc"
