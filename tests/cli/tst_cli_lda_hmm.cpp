// SPDX-License-Identifier: GPL-3.0-or-later
// lda-hmm through the command line (DESIGN §6): on a corpus imported without its stop words the
// fit warns on stderr and in the final line's "message"; with them kept it does not, reports its
// held-out perplexity, and its runs export their classes.
#include <QtTest>

#include <fstream>
#include <string>

#include "cli_runner.hpp"
#include "test_case.hpp"
#include "test_support.hpp"

using namespace latent;
using test::runCli;
using test::str;

namespace {

// Sixty short documents in English sentences, each about one of three subjects.
void hmmCliWriteCorpus(const std::filesystem::path& file) {
  const char* subjects[3][4] = {{"farmers", "crops", "wheat", "harvest"},
                                {"ships", "navy", "harbor", "sailors"},
                                {"taxes", "budget", "revenue", "debt"}};
  std::ofstream out(file);
  for (int d = 0; d < 60; ++d) {
    const auto& s = subjects[d % 3];
    for (int i = 0; i < 6; ++i)
      out << "the " << s[i % 4] << " of the " << s[(i + 1) % 4] << " and a " << s[(i + 2) % 4] << " in the "
          << s[(i + 3) % 4] << " to the " << s[i % 4] << ". ";
    out << "\n";
  }
}

std::string hmmCliFirstLine(const std::filesystem::path& file) {
  std::ifstream in(file);
  std::string line;
  std::getline(in, line);
  return line;
}

}  // namespace

class CliLdaHmmTest : public QObject {
  Q_OBJECT

 private Q_SLOTS:
  void warnsWithoutStopWordsAndExportsClasses() {
    test::Scratch scratch;
    const auto project = scratch.path("p.latent");
    const auto text = scratch.path("docs.txt");
    hmmCliWriteCorpus(text);
    QCOMPARE(runCli({"import", "corpus", "--project", str(project), "--name", "stripped", "--source", str(text),
                     "--format", "lines"})
                 .exitCode,
             0);
    QCOMPARE(runCli({"import", "corpus", "--project", str(project), "--name", "kept", "--source", str(text), "--format",
                     "lines", "--stopwords", "none"})
                 .exitCode,
             0);

    const auto stripped = runCli({"fit", "lda-hmm", "--project", str(project), "--dataset", "stripped", "--k", "2",
                                  "--classes", "3", "--iterations", "10", "--json"});
    QCOMPARE(stripped.exitCode, 0);
    QVERIFY2(stripped.err.contains("latent-cli: warning:") && stripped.err.contains("--stopwords none"),
             qPrintable(stripped.err));
    const auto warned = stripped.jsonLines().back();
    QVERIFY(warned.contains("message"));
    QCOMPARE(warned["stop_words_found"].get<int>(), 0);
    QCOMPARE(warned["model"].get<std::string>(), std::string("lda-hmm"));

    const auto kept = runCli({"fit", "lda-hmm", "--project", str(project), "--dataset", "kept", "--k", "3", "--classes",
                              "4", "--iterations", "30", "--heldout", "0.2", "--json"});
    QCOMPARE(kept.exitCode, 0);
    QVERIFY2(!kept.err.contains("warning"), qPrintable(kept.err));
    const auto final = kept.jsonLines().back();
    QVERIFY(!final.contains("message"));
    QVERIFY(final["heldout_perplexity"].get<double>() > 1.0);
    QCOMPARE(final["classes"].get<int>(), 4);
    const auto run = QString::number(final["run"].get<int>());

    const std::pair<const char*, const char*> exports[] = {
        {"class-word", "class,word,probability"},
        {"class-transitions", "from_class,to_class,probability"},
        {"token-classes", "document,position,word,topic,class,content_probability,begin,end"},
        {"assignments", "document,position,word,topic,begin,end"}};
    for (const auto& [what, header] : exports) {
      const auto file = scratch.path(std::string(what) + ".csv");
      QCOMPARE(runCli({"export", "--project", str(project), "--run", run, "--what", what, "--out", str(file)}).exitCode,
               0);
      QCOMPARE(hmmCliFirstLine(file), std::string(header));
    }
    // The message stays with the run.
    const auto runs = runCli({"runs", "--project", str(project), "--json"}).jsonLines();
    QCOMPARE(runs.size(), std::size_t{2});
    QVERIFY(runs[0].contains("message") && !runs[1].contains("message"));
  }
};

LATENT_TEST_CASE(CliLdaHmmTest)
#include "tst_cli_lda_hmm.moc"
