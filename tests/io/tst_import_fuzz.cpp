// SPDX-License-Identifier: GPL-3.0-or-later
// Mutational fuzzing of the importers: the fixtures of every format, with bytes flipped, removed,
// repeated or replaced by the characters their parsers treat specially, imported into a fresh
// project. Every outcome must be a dataset or an InputError (the exit 2 a user sees with a file,
// line and reason): never a crash (CI runs this under the sanitizers), never another exception,
// and never a dataset left behind by a failed import. LATENT_FUZZ_CASES and LATENT_FUZZ_SEED run
// more or other cases by hand.
#include <QtTest>

#include <cstdlib>
#include <fstream>
#include <random>
#include <string>
#include <vector>

#include "core/jobs/import_job.hpp"
#include "core/util/errors.hpp"
#include "test_case.hpp"
#include "test_support.hpp"

using namespace latent;

namespace {

const std::filesystem::path kFixtures = LATENT_TEST_FIXTURES;

enum class Kind { Corpus, Graph, Ratings, Table };

// One input to mutate: the file that is damaged, and the files that go with it unchanged.
struct Seed {
  Kind kind;
  std::string file;                     // relative to the fixtures
  std::vector<std::string> companions;  // copied beside it as they are
  std::string format;                   // the --format given, or "" to detect it
};

const std::vector<Seed>& seeds() {
  static const std::vector<Seed> all = {
      {Kind::Corpus, "corpus/sotu_rows.csv", {}, ""},
      {Kind::Corpus, "corpus/sotu_rows.tsv", {}, ""},
      {Kind::Corpus, "corpus/cora200.ldac", {"corpus/cora200.vocab"}, "ldac"},
      {Kind::Graph, "graph/karate.gml", {}, ""},
      {Kind::Graph, "graph/karate.graphml", {}, ""},
      {Kind::Graph, "graph/karate.net", {}, ""},
      {Kind::Graph, "graph/sampson_like_t4.net", {}, ""},
      {Kind::Graph, "graph/davis.tsv", {}, "edges"},
      {Kind::Graph, "graph/karate_matrix.csv", {}, "matrix"},
      {Kind::Ratings, "ratings/csv/ratings.csv", {}, "csv"},
      {Kind::Table, "table/iris.csv", {}, ""},
      {Kind::Table, "table/binary.tsv", {}, ""},
  };
  return all;
}

std::string readFile(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

class Mutator {
 public:
  explicit Mutator(std::uint64_t seed) : m_random(seed) {}

  std::string mutate(std::string bytes, std::string& what) {
    if (bytes.empty()) return bytes;
    const int edits = std::uniform_int_distribution<int>(1, 4)(m_random);
    for (int e = 0; e < edits && !bytes.empty(); ++e) {
      const auto at = std::uniform_int_distribution<std::size_t>(0, bytes.size() - 1)(m_random);
      switch (std::uniform_int_distribution<int>(0, 6)(m_random)) {
        case 0:
          bytes[at] = static_cast<char>(bytes[at] ^ (1 << std::uniform_int_distribution<int>(0, 7)(m_random)));
          what += " flip@" + std::to_string(at);
          break;
        case 1: {
          const auto length = std::min<std::size_t>(bytes.size() - at, 1 + at % 64);
          bytes.erase(at, length);
          what += " cut@" + std::to_string(at);
          break;
        }
        case 2:
          bytes.insert(at, bytes.substr(at, std::min<std::size_t>(bytes.size() - at, 200)));
          what += " repeat@" + std::to_string(at);
          break;
        case 3: {
          static const std::vector<std::string> special = {"\"",
                                                           "\n",
                                                           "\r",
                                                           "\t",
                                                           ",",
                                                           ";",
                                                           "[",
                                                           "]",
                                                           "<",
                                                           ">",
                                                           "&",
                                                           "*",
                                                           "%",
                                                           "\xEF\xBB\xBF",
                                                           std::string(1, '\0'),
                                                           "-1",
                                                           "0",
                                                           "1e999",
                                                           "nan",
                                                           "99999999999",
                                                           "\xC3",
                                                           "\xFF\xFE",
                                                           "<!--",
                                                           "]]>",
                                                           "*Vertices 5"};
          const auto& s = special[std::uniform_int_distribution<std::size_t>(0, special.size() - 1)(m_random)];
          bytes.insert(at, s);
          what += " insert@" + std::to_string(at);
          break;
        }
        case 4:
          bytes.resize(at);
          what += " truncate@" + std::to_string(at);
          break;
        case 5: {
          // A digit changed: ids, counts and sizes move out of range.
          if (std::isdigit(static_cast<unsigned char>(bytes[at]))) bytes[at] = '9';
          bytes.insert(at, "9");
          what += " digit@" + std::to_string(at);
          break;
        }
        default: {
          // A line swapped with the next: order-sensitive formats (headers, sections) break.
          const auto start = bytes.rfind('\n', at);
          const auto mid = bytes.find('\n', at);
          const auto end = mid == std::string::npos ? std::string::npos : bytes.find('\n', mid + 1);
          if (start != std::string::npos && mid != std::string::npos && end != std::string::npos) {
            const auto first = bytes.substr(start + 1, mid - start), second = bytes.substr(mid + 1, end - mid);
            bytes.replace(start + 1, end - start, second + first);
          }
          what += " swap@" + std::to_string(at);
        }
      }
    }
    return bytes;
  }

 private:
  std::mt19937_64 m_random;
};

void importAs(Kind kind, core::Project& project, const std::filesystem::path& source, const std::string& format) {
  switch (kind) {
    case Kind::Corpus: {
      core::CorpusImportRequest r;
      r.name = "d";
      r.source = source;
      if (format == "ldac") {
        r.read.format = core::CorpusFormat::Ldac;
        r.read.vocabulary = source.parent_path() / "cora200.vocab";
      }
      core::importCorpus(project, r);
      break;
    }
    case Kind::Graph: {
      core::GraphImportRequest r;
      r.name = "d";
      r.source = source;
      if (format == "edges") r.read.format = core::GraphFormat::EdgeList;
      if (format == "matrix") r.read.format = core::GraphFormat::Matrix;
      core::importGraph(project, r);
      break;
    }
    case Kind::Ratings: {
      core::RatingsImportRequest r;
      r.name = "d";
      r.source = source;
      r.read.format = core::RatingsFormat::Csv;
      core::importRatings(project, r);
      break;
    }
    case Kind::Table: {
      core::TableImportRequest r;
      r.name = "d";
      r.source = source;
      core::importTable(project, r);
      break;
    }
  }
}

}  // namespace

class ImportFuzzTest : public QObject {
  Q_OBJECT

 private Q_SLOTS:
  void mutatedFilesImportOrFailCleanly() {
    const int cases = test::environmentInt("LATENT_FUZZ_CASES", 60);
    Mutator mutator(static_cast<std::uint64_t>(test::environmentInt("LATENT_FUZZ_SEED", 1)));
    int imported = 0, refused = 0;
    for (int c = 0; c < cases; ++c) {
      const auto& seed = seeds()[static_cast<std::size_t>(c) % seeds().size()];
      test::Scratch scratch;
      for (const auto& companion : seed.companions)
        std::filesystem::copy_file(kFixtures / companion, scratch.path(std::filesystem::path(companion).filename()));
      std::string what;
      const auto name = std::filesystem::path(seed.file).filename().string();
      const auto source = scratch.write(name, mutator.mutate(readFile(kFixtures / seed.file), what));
      core::Project project(scratch.path("p.latent"));
      try {
        importAs(seed.kind, project, source, seed.format);
        ++imported;
      } catch (const core::InputError&) {
        ++refused;
        QVERIFY2(project.datasets().empty(),
                 qPrintable(QString("case %1 (%2%3) left a dataset behind").arg(c).arg(name.c_str(), what.c_str())));
      } catch (const std::exception& e) {
        QFAIL(qPrintable(QString("case %1 (%2%3): %4").arg(c).arg(name.c_str(), what.c_str(), e.what())));
      }
    }
    qInfo("%d mutated files imported, %d refused", imported, refused);
    // Both outcomes occur: the mutations neither all break the files nor all miss.
    QVERIFY(imported > 0 && refused > 0);
  }
};

LATENT_TEST_CASE(ImportFuzzTest)
#include "tst_import_fuzz.moc"
