// SPDX-License-Identifier: GPL-3.0-or-later
// A topic model's results in MALLET's own files (issue 20, missing item 6): topic keys, document
// topics and the gzipped state, in MALLET 2.1.1's layout, checked against the run's own CSV
// exports of the same results.
#include <QtTest>

#include <cmath>
#include <cstdio>
#include <fstream>
#include <map>
#include <sstream>
#include <string>

#include "cli_runner.hpp"
#include "test_case.hpp"
#include "test_support.hpp"

using namespace latent;
using test::runCli;
using test::str;

namespace {

std::vector<std::string> malletLines(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

std::vector<std::string> malletFields(const std::string& line, char separator) {
  std::vector<std::string> fields;
  std::istringstream in(line);
  for (std::string field; std::getline(in, field, separator);) fields.push_back(field);
  return fields;
}

std::string readWhole(const std::filesystem::path& file) {
  std::ifstream in(file, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

// gzip -dc, the way any reader of MALLET's state would open it.
std::string gunzip(const std::filesystem::path& file) {
  std::string out;
  if (FILE* pipe = popen(("gzip -dc '" + file.string() + "'").c_str(), "r")) {
    char buffer[4096];
    for (std::size_t n; (n = std::fread(buffer, 1, sizeof buffer, pipe)) > 0;) out.append(buffer, n);
    pclose(pipe);
  }
  return out;
}

}  // namespace

class CliMalletExportTest : public QObject {
  Q_OBJECT

 private Q_SLOTS:
  void topicKeysDocTopicsAndStateAsMalletWritesThem() {
    test::Scratch scratch;
    const auto project = scratch.path("p.latent");
    const auto text = scratch.path("docs.txt");
    {
      std::ofstream out(text);
      for (int d = 0; d < 30; ++d)
        out << (d % 2 ? "money bank loan money credit bank interest\n" : "river stream bank water river shore\n");
    }
    QCOMPARE(runCli({"import", "corpus", "--project", str(project), "--name", "toy", "--source", str(text), "--format",
                     "lines"})
                 .exitCode,
             0);
    const auto fit = runCli({"fit", "lda-gibbs", "--project", str(project), "--dataset", "toy", "--k", "3",
                             "--iterations", "60", "--heldout", "0", "--json"});
    QVERIFY2(fit.exitCode == 0, qPrintable(fit.err));
    const auto exported = [&](const char* what) {
      const auto file = scratch.path(what);
      const auto r = runCli({"export", "--project", str(project), "--run", "1", "--what", what, "--out", str(file)});
      if (r.exitCode != 0) qWarning() << r.err;
      return file;
    };

    // Topic keys: "topic<TAB>alpha<TAB>word word ... " with each word followed by a space.
    const auto keys = malletLines(readWhole(exported("mallet-topic-keys")));
    QCOMPARE(keys.size(), std::size_t{3});
    for (std::size_t k = 0; k < keys.size(); ++k) {
      const auto fields = malletFields(keys[k], '\t');
      QCOMPARE(fields.size(), std::size_t{3});
      QCOMPARE(fields[0], std::to_string(k));
      QVERIFY(std::stod(fields[1]) > 0.0);
      QVERIFY(fields[2].size() > 1 && fields[2].back() == ' ');
      QCOMPARE(malletFields(fields[2], ' ').size(), std::size_t{9});  // the vocabulary has nine words
    }

    // Document topics: "index<TAB>name<TAB>p_0<TAB>...<TAB>p_{K-1}", the same numbers as doc-topic.
    const auto docTopics = malletLines(readWhole(exported("mallet-doc-topics")));
    QCOMPARE(docTopics.size(), std::size_t{30});
    std::map<std::string, std::vector<double>> csv;
    for (const auto& line : malletLines(readWhole(exported("doc-topic")))) {
      const auto f = malletFields(line, ',');
      if (f[0] != "document") csv[f[0]].push_back(std::stod(f[2]));
    }
    for (std::size_t d = 0; d < docTopics.size(); ++d) {
      const auto f = malletFields(docTopics[d], '\t');
      QCOMPARE(f.size(), std::size_t{5});
      QCOMPARE(f[0], std::to_string(d));
      double sum = 0;
      for (int k = 0; k < 3; ++k) {
        QCOMPARE(std::stod(f[2 + static_cast<std::size_t>(k)]), csv.at(f[1])[static_cast<std::size_t>(k)]);
        sum += std::stod(f[2 + static_cast<std::size_t>(k)]);
      }
      QVERIFY(std::abs(sum - 1.0) < 1e-9);
    }

    // The state: MALLET's three header lines, then every token with the topic the assignments
    // export gives it; a word's type index is its order of first appearance.
    const auto state = gunzip(exported("mallet-state"));
    const auto lines = malletLines(state);
    QVERIFY(lines.size() > 3);
    QCOMPARE(lines[0], std::string("#doc source pos typeindex type topic"));
    QVERIFY(lines[1].rfind("#alpha : ", 0) == 0);
    QCOMPARE(malletFields(lines[1].substr(9), ' ').size(), std::size_t{3});
    QVERIFY(lines[2].rfind("#beta : ", 0) == 0);
    std::vector<std::string> assigned;  // word:topic in corpus order
    for (const auto& line : malletLines(readWhole(exported("assignments")))) {
      const auto f = malletFields(line, ',');
      if (f[0] != "document") assigned.push_back(f[2] + ":" + f[3]);
    }
    QCOMPARE(lines.size() - 3, assigned.size());
    std::map<std::string, int> typeOf;
    for (std::size_t i = 3; i < lines.size(); ++i) {
      const auto f = malletFields(lines[i], ' ');
      QCOMPARE(f.size(), std::size_t{6});
      QCOMPARE(f[1], std::string("NA"));
      QCOMPARE(f[4] + ":" + f[5], assigned[i - 3]);
      const auto [it, inserted] = typeOf.try_emplace(f[4], static_cast<int>(typeOf.size()));
      QCOMPARE(std::stoi(f[3]), it->second);
    }
  }
};

LATENT_TEST_CASE(CliMalletExportTest)
#include "tst_cli_mallet_export.moc"
