// SPDX-License-Identifier: GPL-3.0-or-later
// latent-cli against what a hostile tester gave it: a damaged project, an --out that is the
// project, a link planted where the output is written, a mistyped or empty --project, a number
// too large for a double, a named pipe as a source, and names that would drive the terminal.
// Each of these misbehaved before (a crash, an overwritten project or file, a project created,
// exit 1 with a library's message, a command that never returned, raw escape sequences).
#include <QtTest>

#include <sys/stat.h>

#include <fstream>

#include "cli_runner.hpp"
#include "core/store/database.hpp"
#include "test_case.hpp"
#include "test_support.hpp"

using namespace latent;
using test::runCli;
using test::str;

namespace {

const std::filesystem::path kFixtures = LATENT_TEST_FIXTURES;

std::string readAll(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

// A project with the SOTU sample and one short LDA run (run 1).
std::filesystem::path projectWithRun(const test::Scratch& scratch) {
  const auto file = scratch.path("p.latent");
  auto out = runCli({"import", "corpus", "--project", str(file), "--source", str(kFixtures / "corpus" / "sotu_dir"),
                     "--name", "sotu"});
  if (out.exitCode != 0) qWarning() << out.err;
  out = runCli({"fit", "lda-gibbs", "--project", str(file), "--dataset", "sotu", "--k", "2", "--iterations", "3",
                "--restarts", "1"});
  if (out.exitCode != 0) qWarning() << out.err;
  return file;
}

}  // namespace

class CliUntrustedInputTest : public QObject {
  Q_OBJECT

 private Q_SLOTS:
  void aDamagedProjectIsABadInputNotACrash() {
    test::Scratch scratch;
    const auto file = projectWithRun(scratch);
    // A word id of 0xFFFFFFFF in the first token of document 1.
    auto out = runCli({"datasets", "--project", str(file)});
    QCOMPARE(out.exitCode, 0);
    core::Database(file, core::Database::Mode::ReadWrite)
        .exec("UPDATE tokens SET word_ids = X'FFFFFFFF' || substr(word_ids, 5) WHERE doc_index = 1");
    out = runCli({"fit", "lda-gibbs", "--project", str(file), "--dataset", "sotu", "--k", "2", "--iterations", "2"});
    QCOMPARE(out.exitCode, 2);
    QVERIFY2(out.err.contains("damaged project: table tokens, dataset 1, document 1: word id 4294967295"),
             qPrintable(out.err));
  }

  void theOutputIsNeverTheProjectNorALinkPlantedForIt() {
    test::Scratch scratch;
    const auto file = projectWithRun(scratch);
    const auto before = test::fileDigest(file);
    for (const auto& target : {str(file), str(file) + "-wal"}) {
      const auto out =
          runCli({"export", "--project", str(file), "--run", "1", "--what", "topic-word", "--out", target});
      QCOMPARE(out.exitCode, 2);
      QVERIFY2(out.err.contains("name another file"), qPrintable(out.err));
    }
    QCOMPARE(test::fileDigest(file), before);

    // The partial file is created exclusively beside the target, never through a planted link.
    const auto victim = scratch.path("victim.txt");
    std::ofstream(victim) << "keep me";
    std::filesystem::create_symlink(victim, scratch.path("out.csv.partial"));
    const auto out = runCli({"export", "--project", str(file), "--run", "1", "--what", "topic-word", "--out",
                             str(scratch.path("out.csv"))});
    QCOMPARE(out.exitCode, 0);
    QCOMPARE(readAll(victim), std::string("keep me"));
    QVERIFY(readAll(scratch.path("out.csv")).starts_with("topic,word,probability"));
  }

  void onlyImportCreatesAProject() {
    test::Scratch scratch;
    const auto missing = scratch.path("typo.latent");
    auto out = runCli({"fit", "lda-gibbs", "--project", str(missing), "--dataset", "x"});
    QCOMPARE(out.exitCode, 2);
    QVERIFY2(out.err.contains("does not exist"), qPrintable(out.err));
    out = runCli({"sweep", "lda-gibbs", "--project", str(missing), "--dataset", "x", "--k", "2,3"});
    QCOMPARE(out.exitCode, 2);
    QVERIFY(!std::filesystem::exists(missing));
    const auto empty = scratch.write("empty.latent", "");
    out = runCli({"fit", "lda-gibbs", "--project", str(empty), "--dataset", "x"});
    QCOMPARE(out.exitCode, 2);
    QVERIFY2(out.err.contains("is empty, not a Latent Studio project"), qPrintable(out.err));
    QCOMPARE(std::filesystem::file_size(empty), std::uintmax_t{0});
  }

  void aNumberTooLargeForADoubleNamesItsField() {
    test::Scratch scratch;
    const auto source = scratch.write("t.jsonl",
                                      "{\"text\": \"a few words\", \"time\": 1}\n"
                                      "{\"text\": \"more words\", \"time\": 1e999}\n");
    const auto out = runCli({"import", "corpus", "--project", str(scratch.path("p.latent")), "--source", str(source),
                             "--name", "t", "--time-column", "time"});
    QCOMPARE(out.exitCode, 2);
    QVERIFY2(out.err.contains("t.jsonl:2: the field 'time' holds a number beyond the range of a double"),
             qPrintable(out.err));
    QVERIFY(!std::filesystem::exists(scratch.path("p.latent")));
  }

  void whatIsNotARegularFileIsRefusedByName() {
    test::Scratch scratch;
    const auto fifo = scratch.path("pipe.txt");
    QCOMPARE(mkfifo(fifo.c_str(), 0600), 0);
    auto out = runCli({"import", "corpus", "--project", str(scratch.path("p.latent")), "--source", str(fifo),
                       "--format", "lines", "--name", "t"},
                      20000);
    QCOMPARE(out.exitCode, 2);
    QVERIFY2(out.err.contains("pipe.txt: is a named pipe (FIFO), not a regular file"), qPrintable(out.err));
    out = runCli({"import", "graph", "--project", str(scratch.path("p.latent")), "--source", "/dev/zero", "--format",
                  "edges", "--name", "g"},
                 20000);
    QCOMPARE(out.exitCode, 2);
    QVERIFY2(out.err.contains("/dev/zero: is a device"), qPrintable(out.err));
    // In a folder corpus, a pipe among the texts is named, not skipped.
    const auto folder = scratch.path("texts");
    std::filesystem::create_directory(folder);
    std::ofstream(folder / "a.txt") << "some words here";
    QCOMPARE(mkfifo((folder / "b.txt").c_str(), 0600), 0);
    out =
        runCli({"import", "corpus", "--project", str(scratch.path("p.latent")), "--source", str(folder), "--name", "t"},
               20000);
    QCOMPARE(out.exitCode, 2);
    QVERIFY2(out.err.contains("b.txt: is a named pipe (FIFO)"), qPrintable(out.err));
  }

  void namesReachTheTerminalEscaped() {
    test::Scratch scratch;
    const auto file = scratch.path("p.latent");
    const QString name = QString::fromUtf8("evil\x1b[31mred\nline");
    auto out = runCli({"import", "corpus", "--project", str(file), "--source", str(kFixtures / "corpus" / "sotu_dir"),
                       "--name", name});
    QCOMPARE(out.exitCode, 0);
    QVERIFY2(out.out.contains("evil\\x1b[31mred\\nline") && !out.out.contains('\x1b'), qPrintable(out.out));
    out = runCli({"datasets", "--project", str(file)});
    QVERIFY(out.out.contains("evil\\x1b[31mred\\nline") && !out.out.contains('\x1b'));
    QCOMPARE(out.out.count('\n'), 2);
    out = runCli({"fit", "lda-gibbs", "--project", str(file), "--dataset", "nope\x1b[2J"});
    QCOMPARE(out.exitCode, 2);
    QVERIFY2(out.err.contains("nope\\x1b[2J") && !out.err.contains('\x1b'), qPrintable(out.err));
  }
};

LATENT_TEST_CASE(CliUntrustedInputTest)
#include "tst_cli_untrusted_input.moc"
