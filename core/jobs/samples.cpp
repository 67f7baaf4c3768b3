// SPDX-License-Identifier: GPL-3.0-or-later
// The sample catalogue: each entry is an ordinary import request over a shipped file.
#include "core/jobs/samples.hpp"

#include <algorithm>
#include <cstdlib>

#include "core/jobs/link_import.hpp"
#include "core/store/write_wait.hpp"
#include "core/util/line_reader.hpp"

#include "core/util/errors.hpp"

#ifndef LATENT_SAMPLES_SOURCE_DIR
#define LATENT_SAMPLES_SOURCE_DIR ""
#endif

namespace latent::core {
namespace {

std::filesystem::path executableDirectory() {
  std::error_code ec;
  const auto exe = std::filesystem::read_symlink("/proc/self/exe", ec);
  return ec ? std::filesystem::path() : exe.parent_path();
}

// A bag-of-words corpus's documents get their titles from a file with one per line, in order
// (UCI files carry none). Titles longer than a table cell can show are cut.
void setTitlesFromLines(Project& project, std::int64_t datasetId, const std::filesystem::path& file) {
  constexpr std::size_t kLongestTitle = 200;
  std::string_view line;
  WriteWait wait;
  writeWhenFree(project.db(), wait, [&] {
    auto update = project.db().prepare("UPDATE documents SET title = ?1 WHERE dataset_id = ?2 AND doc_index = ?3");
    std::int64_t index = 0;
    LineReader reader(file);
    while (reader.next(line)) {
      std::size_t cut = std::min(line.size(), kLongestTitle);
      while (cut < line.size() && cut > 0 && (static_cast<unsigned char>(line[cut]) & 0xC0) == 0x80) --cut;
      std::string title(line.substr(0, cut));
      while (!title.empty() && (title.back() == '\r' || title.back() == ' ')) title.pop_back();
      if (!title.empty()) update.bind(1, title).bind(2, datasetId).bind(3, index).run();
      ++index;
    }
  });
}

}  // namespace

std::vector<SampleInfo> builtInSamples() {
  return {
      {"sotu", DataKind::Corpus, "US State of the Union addresses, 1790-2020",
       "240 addresses by 42 presidents, public domain. Topics drift with the centuries: tariffs and "
       "Indian treaties give way to the economy, terrorism and health care.",
       "sotu/sotu.jsonl"},
      {"sotu-words", DataKind::Corpus, "US State of the Union addresses, every word kept",
       "The same 240 addresses with their stop words (the, of, to, and) kept: what a model of syntax as well "
       "as topics (lda-hmm) needs to tell function words from content words.",
       "sotu/sotu.jsonl"},
      {"gibbs-toy", DataKind::Corpus, "Gibbs sampling toy: money, loan, bank, river, stream",
       "16 short documents generated from two topics that share the word 'bank' (textbook §27.3.5). "
       "A topic model should put money/loan/bank in one topic and river/stream/bank in the other.",
       "gibbs-toy/gibbs_toy.txt"},
      {"cora", DataKind::Corpus, "Cora computer-science papers and their citations",
       "2,410 papers as word counts in UCI format (no running text), with their titles and the 4,356 "
       "citations between them: the corpus for models of linked documents (rtm), which predict a paper's "
       "citations from its words.",
       "cora/docword.cora.txt"},
      {"anes96", DataKind::Corpus, "ANES 1996: 944 voters' answers to nine questions",
       "Party, own and candidates' liberal-conservative positions, vote, education, income, age and TV news, "
       "each answer one of a few categories; public domain. Categorical PCA places the answers on a map.",
       "anes96/anes96.csv"},
      {"sampson", DataKind::Graph, "Sampson's monks: who liked whom (T4)",
       "18 novices of a New England monastery in 1968 and their three strongest liking nominations "
       "just before the group split. Sampson's four groups are kept as the node attribute 'group'.",
       "sampson/like_t4.csv"},
      {"sampson-relations", DataKind::Graph, "Sampson's monks: all eight relations (T4)",
       "The same 18 novices with all eight of Sampson's relations at T4 (like, dislike, esteem, disesteem, "
       "influence, negative influence, praise, blame) over the same nodes; models of one relation fit 'like'.",
       "sampson/edges.csv"},
      {"karate", DataKind::Graph, "Zachary's karate club",
       "34 members of a university karate club and their friendships. The club split in two; "
       "'club_after_split' says who went where.",
       "karate/edges.csv"},
      {"davis", DataKind::Graph, "Davis Southern Women (women x events)",
       "18 women and the 14 social events they attended in the 1930s, as a two-mode network. "
       "A classic test of co-clustering.",
       "davis_southern_women/edges.csv"},
      {"insteval", DataKind::Ratings, "InstEval: students rating lecturers",
       "73,421 ratings (1-5) of 1,128 ETH Zurich lecturers by 2,972 students. Sparse, real and free "
       "to ship: a stand-in for MovieLens.",
       "insteval/ratings.csv"},
      {"efh-synthetic", DataKind::Table, "Bayesian harmonium: 004's synthetic 0/1 table",
       "200 exact draws of 100 binary units from a Gaussian-Bernoulli harmonium with 10 hidden units (Guo & "
       "Xing 2006, §5.1). Few rows for 1,000 weights: the Bayesian (Langevin) fit is steadier than maximum "
       "likelihood.",
       "efh_synthetic/cases.csv"},
  };
}

std::filesystem::path samplesDirectory() {
  std::error_code ec;
  if (const char* env = std::getenv("LATENT_SAMPLES_DIR"); env && *env) return env;
  const auto installed = executableDirectory() / ".." / "share" / "latent-studio" / "samples";
  if (std::filesystem::is_directory(installed, ec)) return installed.lexically_normal();
  return LATENT_SAMPLES_SOURCE_DIR;
}

ImportResult importSample(Project& project, const std::string& sample, const std::string& name,
                          const ImportControl& control) {
  const auto samples = builtInSamples();
  const SampleInfo* info = nullptr;
  for (const auto& s : samples)
    if (s.name == sample) info = &s;
  if (!info) {
    std::string names;
    for (const auto& s : samples) names += (names.empty() ? "" : ", ") + s.name;
    throw UsageError("unknown sample '" + sample + "' (available: " + names + ")");
  }
  const auto dir = samplesDirectory();
  const auto source = dir / info->file;
  std::error_code ec;
  if (!std::filesystem::exists(source, ec))
    throw UsageError("the sample file " + source.string() +
                     " is missing; set LATENT_SAMPLES_DIR to the samples folder");
  const std::string datasetName = name.empty() ? info->name : name;

  if (info->name == "sotu" || info->name == "sotu-words") {
    CorpusImportRequest r;
    r.name = datasetName;
    r.source = source;
    r.read.format = CorpusFormat::JsonLines;
    r.read.titleColumn = "title";
    r.read.timeColumn = "year";
    r.read.labelColumn = "party";
    r.read.idColumn = "id";
    r.read.metadataColumns = {"president", "type"};
    // Words in fewer than 3 addresses are mostly names and typos; words in more than 90% carry no topic.
    r.prune.minDocumentFrequency = 3;
    r.prune.maxDocumentFraction = 0.9;
    if (info->name == "sotu-words") {
      // Every word kept: the function words are what a model of syntax learns its classes from.
      r.stopWords = "none";
      r.prune.maxDocumentFraction = 1.0;
    }
    return importCorpus(project, r, control);
  }
  if (info->name == "gibbs-toy") {
    CorpusImportRequest r;
    r.name = datasetName;
    r.source = source;
    r.read.format = CorpusFormat::Lines;
    r.stopWords = "none";
    return importCorpus(project, r, control);
  }
  if (info->name == "anes96") {
    CorpusImportRequest r;
    r.name = datasetName;
    r.source = source;
    r.read.format = CorpusFormat::Responses;
    r.read.idColumn = "id";
    return importCorpus(project, r, control);
  }
  if (info->name == "cora") {
    CorpusImportRequest r;
    r.name = datasetName;
    r.source = source;
    r.read.format = CorpusFormat::Uci;
    r.read.vocabulary = dir / "cora" / "vocab.cora.txt";
    const auto corpus = importCorpus(project, r, control);
    setTitlesFromLines(project, corpus.dataset.id, dir / "cora" / "titles.txt");
    // links.csv lists (cited, citing): `linked_doc` is the later paper that cites `doc`.
    LinksImportRequest links;
    links.corpus = std::to_string(corpus.dataset.id);
    links.source = dir / "cora" / "links.csv";
    links.sourceColumn = "linked_doc";
    links.targetColumn = "doc";
    links.key = "id";
    auto result = importDocumentLinks(project, links, control);
    result.notes.insert(result.notes.begin(), corpus.notes.begin(), corpus.notes.end());
    return result;
  }
  if (info->kind == DataKind::Graph) {
    GraphImportRequest r;
    r.name = datasetName;
    r.source = source;
    r.read.format = GraphFormat::EdgeList;
    r.read.nodes = source.parent_path() / "nodes.csv";
    r.read.directed = info->name == "sampson" || info->name == "sampson-relations";
    if (info->name == "sampson-relations") {
      r.read.relationColumn = "relation";
      r.read.where = "wave=T4";  // like and dislike were asked at T2-T4 too; the other six at T4 only
    }
    return importGraph(project, r, control);
  }
  if (info->kind == DataKind::Table) {
    TableImportRequest r;
    r.name = datasetName;
    r.source = source;
    r.read.idColumn = "case";
    return importTable(project, r, control);
  }
  RatingsImportRequest r;
  r.name = datasetName;
  r.source = source;
  r.read.format = RatingsFormat::Csv;
  r.read.userColumn = "student";
  r.read.itemColumn = "lecturer";
  r.read.ratingColumn = "rating";
  return importRatings(project, r, control);
}

}  // namespace latent::core
