// SPDX-License-Identifier: GPL-3.0-or-later
// `latent-cli runs` and a run's name and notes (schema 14), an addition to DESIGN §6: a named run
// shows its name after its result and its JSON line gains "name" and "notes"; a run without them
// prints what it printed before.
#include <QtTest>

#include "cli_runner.hpp"
#include "core/store/project.hpp"
#include "core/store/run_notes.hpp"
#include "test_case.hpp"
#include "test_support.hpp"

using namespace latent;
using test::runCli;
using test::str;

class CliRunNamesTest : public QObject {
  Q_OBJECT

 private Q_SLOTS:
  void runsShowANameOnlyWhenThereIsOne() {
    test::Scratch scratch;
    const auto source = scratch.write("tiny.txt", "river river\nmoney\nbank\nmoney\n");
    const auto project = scratch.path("tiny.latent");
    QCOMPARE(
        runCli({"import", "corpus", "--project", str(project), "--name", "tiny", "--source", str(source)}).exitCode, 0);
    for (const char* seed : {"1", "2"})
      QCOMPARE(runCli({"fit", "unigram", "--project", str(project), "--dataset", "tiny", "--seed", seed}).exitCode, 0);
    {
      core::Project p(project);
      core::setRunName(p, 1, "baseline");
      core::setRunNotes(p, 1, "the first\nof two");
    }
    auto r = runCli({"runs", "--project", str(project), "--json"});
    QCOMPARE(r.exitCode, 0);
    const auto runs = r.jsonLines();
    QCOMPARE(runs.size(), std::size_t{2});
    QCOMPARE(runs[0]["name"].get<std::string>(), std::string("baseline"));
    QCOMPARE(runs[0]["notes"].get<std::string>(), std::string("the first\nof two"));
    QVERIFY(!runs[1].contains("name") && !runs[1].contains("notes"));

    r = runCli({"runs", "--project", str(project)});
    QCOMPARE(r.exitCode, 0);
    const auto lines = r.out.split('\n', Qt::SkipEmptyParts);
    QCOMPARE(lines.size(), 3);
    QVERIFY2(lines[1].startsWith(QStringLiteral("1 ")) && lines[1].endsWith(QStringLiteral("\"baseline\"")),
             qPrintable(lines[1]));
    QVERIFY2(!lines[2].contains(QLatin1Char('"')), qPrintable(lines[2]));
  }
};

LATENT_TEST_CASE(CliRunNamesTest)
#include "tst_cli_run_names.moc"
