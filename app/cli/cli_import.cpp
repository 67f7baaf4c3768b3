// SPDX-License-Identifier: GPL-3.0-or-later
// latent-cli import corpus|graph|ratings|table|links|sample (DESIGN §6).
#include <filesystem>
#include <iostream>
#include <memory>

#include "cli_common.hpp"
#include "core/jobs/import_job.hpp"
#include "core/jobs/link_import.hpp"
#include "core/jobs/samples.hpp"
#include "core/util/errors.hpp"

namespace latent::cli {
namespace {

struct CommonImportArgs {
  std::string project, name, source, format = "auto";
  bool json = false;
};

void addCommon(CLI::App* sub, CommonImportArgs& args, bool needsSource = true) {
  sub->add_option("--project", args.project, "Project file (.latent); created when missing")->required();
  sub->add_option("--name", args.name, "Name of the new dataset")->required();
  if (needsSource) sub->add_option("--source", args.source, "File or folder to import")->required();
  sub->add_flag("--json", args.json, "Print the result as one JSON object");
}

// Runs an import; a project file that did not exist before is removed again when it fails, so
// a failed import leaves the disk exactly as it was.
template <typename F>
int runImport(const CommonImportArgs& args, F&& importInto) {
  const std::filesystem::path file(args.project);
  std::error_code ec;
  const bool existed = std::filesystem::exists(file, ec);
  core::ImportResult result;
  try {
    core::Project project(file, core::Project::Access::ReadWrite);
    core::checkDatasetNameFree(project, args.name);
    ProgressLine progress("importing " + args.name);
    core::ImportControl control;
    control.stop = interruptToken();
    control.progress = [&progress](std::uint64_t done, std::uint64_t total) { progress.update(done, total); };
    result = importInto(project, control);
  } catch (...) {
    if (!existed) {
      for (const char* suffix : {"", "-wal", "-shm", "-journal"}) std::filesystem::remove(file.string() + suffix, ec);
    }
    throw;
  }
  const auto& d = result.dataset;
  // An interrupt that came once the final commit had begun did not stop it: say so, since the
  // user may believe the import was undone.
  if (interruptToken().stop_requested())
    std::cerr << "latent-cli: the interrupt came while the import was being committed; it is complete\n";
  if (args.json) {
    printJsonLine({{"dataset", d.name},
                   {"id", d.id},
                   {"kind", std::string(core::toString(d.kind))},
                   {"format", d.format},
                   {"source", d.source},
                   {"summary", d.summary},
                   {"notes", result.notes}});
    return kExitOk;
  }
  std::cout << "imported " << core::toString(d.kind) << " '" << terminalSafe(d.name) << "' (id " << d.id << ", "
            << d.format << "):";
  const auto& s = d.summary;
  auto count = [&](const char* key) { return withThousands(s.value(key, std::int64_t{0})); };
  switch (d.kind) {
    case core::DataKind::Corpus:
      std::cout << " " << count("documents") << " documents, " << count("tokens") << " tokens, vocabulary of "
                << count("vocabulary") << " words";
      if (s.contains("links")) std::cout << ", " << count("links") << " links";
      break;
    case core::DataKind::Graph:
      std::cout << " " << count("nodes") << " nodes, " << count("edges") << " edges, "
                << (s.value("directed", false) ? "directed" : "undirected");
      break;
    case core::DataKind::Ratings:
      std::cout << " " << count("ratings") << " ratings by " << count("users") << " users of " << count("items")
                << " items";
      break;
    case core::DataKind::Table:
      std::cout << " " << count("rows") << " rows, " << count("features") << " features"
                << (s.value("binary", false) ? " (0/1)" : "");
      if (s.contains("label_column")) std::cout << ", labels from '" << s.value("label_column", "") << "'";
      break;
  }
  std::cout << "\n";
  for (const auto& note : result.notes) std::cout << "  note: " << note << "\n";
  return kExitOk;
}

// `import links` adds to a corpus already there: it needs the project and creates no dataset.
int importLinks(const CommonImportArgs& args, const core::LinksImportRequest& request) {
  if (!std::filesystem::exists(args.project))
    throw core::UsageError("no project file " + args.project + "; import the corpus first");
  core::Project project(args.project, core::Project::Access::ReadWrite);
  ProgressLine progress("importing links");
  core::ImportControl control;
  control.stop = interruptToken();
  control.progress = [&progress](std::uint64_t done, std::uint64_t total) { progress.update(done, total); };
  const auto result = core::importDocumentLinks(project, request, control);
  const auto& d = result.dataset;
  if (args.json) {
    printJsonLine({{"dataset", d.name},
                   {"id", d.id},
                   {"kind", std::string(core::toString(d.kind))},
                   {"links", d.summary.value("links", std::int64_t{0})},
                   {"source", request.source.string()},
                   {"summary", d.summary},
                   {"notes", result.notes}});
    return kExitOk;
  }
  std::cout << "attached " << withThousands(d.summary.value("links", std::int64_t{0})) << " links to corpus '"
            << terminalSafe(d.name) << "' (id " << d.id << ", "
            << withThousands(d.summary.value("documents", std::int64_t{0})) << " documents)\n";
  for (const auto& note : result.notes) std::cout << "  note: " << note << "\n";
  return kExitOk;
}

template <typename T>
std::optional<T> parseFormat(const std::string& name, std::optional<T> (*parse)(std::string_view) noexcept,
                             const char* allowed) {
  auto format = parse(name);
  if (!format) throw core::UsageError("unknown --format '" + name + "' (use one of: " + allowed + ")");
  return format;
}

}  // namespace

Command addImportCommand(CLI::App& app) {
  auto* import = app.add_subcommand(
      "import", "Import a corpus, a graph, a ratings table, a numeric table, a corpus's links or a built-in sample");
  import->require_subcommand(1);

  // import corpus
  auto corpusArgs = std::make_shared<CommonImportArgs>();
  auto corpus = std::make_shared<core::CorpusImportRequest>();
  auto vocab = std::make_shared<std::string>();
  auto stopwords = std::make_shared<std::string>();
  auto* c =
      import->add_subcommand("corpus", "Import documents (folder of .txt, lines, CSV/TSV, JSON Lines, UCI, LDA-C)");
  addCommon(c, *corpusArgs);
  c->add_option("--format", corpusArgs->format,
                "auto|dir|lines|csv|jsonl|uci|ldac|responses (survey answers: a column per question)")
      ->capture_default_str();
  c->add_option("--vocab", *vocab, "Vocabulary file (UCI, LDA-C); found next to the data when omitted");
  c->add_option("--text-column", corpus->read.textColumn, "CSV/JSON Lines field holding the text (default: text)");
  c->add_option("--title-column", corpus->read.titleColumn, "Field holding the title");
  c->add_option("--time-column", corpus->read.timeColumn, "Field holding a time stamp or year");
  c->add_option("--label-column", corpus->read.labelColumn, "Field holding a known label (or several, see below)");
  c->add_option("--label-separator", corpus->labelSeparator,
                "The label field holds several labels separated by this (e.g. \";\")");
  c->add_option("--metadata-columns", corpus->read.metadataColumns,
                "Further fields kept with each document as named metadata (a,b,c), or 'all' (CSV, JSON Lines)")
      ->delimiter(',');
  c->add_option("--metadata", corpus->metadataFile,
                "CSV/TSV of metadata joined to the documents by id or file name (time and label columns may "
                "come from it)");
  c->add_option("--metadata-key", corpus->metadataKey,
                "Column of the metadata file matching documents (default: id, else file, else the first)");
  c->add_option("--id-column", corpus->read.idColumn,
                "Field holding the document id (default: id, else the record number)");
  c->add_option("--stopwords", *stopwords, "en|none|FILE (default: en for text, none for bag-of-words formats)");
  c->add_option("--min-df", corpus->prune.minDocumentFrequency, "Drop words found in fewer documents")
      ->capture_default_str();
  c->add_option("--max-df", corpus->prune.maxDocumentFraction,
                "Drop words found in more than this fraction of documents")
      ->capture_default_str();
  c->add_option("--max-vocab", corpus->prune.maxVocabulary, "Keep only the N most frequent words (0: all)")
      ->capture_default_str();
  c->add_option("--min-length", corpus->tokenizer.minLength, "Shortest word kept, in characters")
      ->capture_default_str();
  c->add_flag("--keep-numbers", corpus->tokenizer.keepNumbers, "Keep numbers as words");

  // import graph
  auto graphArgs = std::make_shared<CommonImportArgs>();
  auto graph = std::make_shared<core::GraphImportRequest>();
  auto nodes = std::make_shared<std::string>();
  auto directed = std::make_shared<bool>(false);
  auto undirected = std::make_shared<bool>(false);
  auto* g = import->add_subcommand("graph", "Import a graph (edge list, adjacency matrix, GML, GraphML, Pajek)");
  addCommon(g, *graphArgs);
  g->add_option("--format", graphArgs->format, "auto|edges|matrix|gml|graphml|pajek")->capture_default_str();
  g->add_option("--nodes", *nodes, "CSV of nodes: id column, optional name, other columns become attributes");
  auto* dirFlag = g->add_flag("--directed", *directed, "Keep the direction of arcs");
  g->add_flag("--undirected", *undirected, "Treat every edge as undirected")->excludes(dirFlag);
  g->add_option("--relation-column", graph->read.relationColumn,
                "Edge lists: header column naming each row's relation (several relations over the same nodes)");
  g->add_option("--where", graph->read.where, "Edge lists: keep only rows whose column has a value, column=value");

  // import ratings
  auto ratingsArgs = std::make_shared<CommonImportArgs>();
  auto ratings = std::make_shared<core::RatingsImportRequest>();
  auto items = std::make_shared<std::string>();
  auto* r = import->add_subcommand("ratings", "Import ratings (MovieLens 100K/1M/latest, generic CSV)");
  addCommon(r, *ratingsArgs);
  r->add_option("--format", ratingsArgs->format, "auto|movielens|csv")->capture_default_str();
  r->add_option("--items", *items, "Item names (u.item, movies.dat, movies.csv or a CSV with id and name)");
  r->add_option("--user-column", ratings->read.userColumn, "CSV column of user ids");
  r->add_option("--item-column", ratings->read.itemColumn, "CSV column of item ids");
  r->add_option("--rating-column", ratings->read.ratingColumn, "CSV column of rating values");
  r->add_option("--time-column", ratings->read.timeColumn, "CSV column of time stamps (integer seconds)");

  // import table
  auto tableArgs = std::make_shared<CommonImportArgs>();
  auto table = std::make_shared<core::TableImportRequest>();
  auto columns = std::make_shared<std::string>();
  auto* t = import->add_subcommand("table", "Import a numeric table: rows x features from CSV/TSV with a header");
  addCommon(t, *tableArgs);
  t->add_option("--format", tableArgs->format, "auto|csv")->capture_default_str();
  t->add_option("--id-column", table->read.idColumn, "Column of row names (default: none, rows are named 1..N)");
  t->add_option("--label-column", table->read.labelColumn,
                "Column of a known class per row, kept apart from the features");
  t->add_option("--columns", *columns, "Feature columns to keep, A,B,... (default: every other column)");

  // import links
  auto linkArgs = std::make_shared<CommonImportArgs>();
  auto links = std::make_shared<core::LinksImportRequest>();
  auto* l = import->add_subcommand("links", "Attach links between documents (citations, hyperlinks) to a corpus");
  l->add_option("--project", linkArgs->project, "Project file (.latent) holding the corpus")->required();
  l->add_option("--corpus", links->corpus, "The corpus (name or id) whose documents the links join")->required();
  l->add_option("--source", linkArgs->source, "CSV/TSV with a header: a row per link")->required();
  l->add_option("--source-column", links->sourceColumn,
                "Column of the linking document (default: 'source', else the first column)");
  l->add_option("--target-column", links->targetColumn,
                "Column of the linked document (default: 'target', else the second column)");
  l->add_option("--key", links->key, "How the columns name documents: auto (id, else a unique title), id, title")
      ->capture_default_str();
  l->add_flag("--json", linkArgs->json, "Print the result as one JSON object");

  // import sample
  auto sampleArgs = std::make_shared<CommonImportArgs>();
  auto sample = std::make_shared<std::string>();
  auto* s = import->add_subcommand("sample", "Import a built-in sample dataset (see latent-cli samples)");
  s->add_option("--project", sampleArgs->project, "Project file (.latent); created when missing")->required();
  s->add_option("--sample", *sample, "Sample name")->required();
  s->add_option("--name", sampleArgs->name, "Name of the new dataset (default: the sample's name)");
  s->add_flag("--json", sampleArgs->json, "Print the result as one JSON object");

  auto run = [=]() -> int {
    if (c->parsed()) {
      corpus->name = corpusArgs->name;
      corpus->source = corpusArgs->source;
      corpus->read.format = *parseFormat<core::CorpusFormat>(corpusArgs->format, &core::corpusFormatFromString,
                                                             "auto, dir, lines, csv, jsonl, uci, ldac");
      corpus->read.vocabulary = *vocab;
      if (!stopwords->empty()) corpus->stopWords = *stopwords;
      return runImport(*corpusArgs, [&](core::Project& p, const core::ImportControl& ctl) {
        return core::importCorpus(p, *corpus, ctl);
      });
    }
    if (g->parsed()) {
      graph->name = graphArgs->name;
      graph->source = graphArgs->source;
      graph->read.format = *parseFormat<core::GraphFormat>(graphArgs->format, &core::graphFormatFromString,
                                                           "auto, edges, matrix, gml, graphml, pajek");
      graph->read.nodes = *nodes;
      if (*directed) graph->read.directed = true;
      if (*undirected) graph->read.directed = false;
      return runImport(*graphArgs, [&](core::Project& p, const core::ImportControl& ctl) {
        return core::importGraph(p, *graph, ctl);
      });
    }
    if (r->parsed()) {
      ratings->name = ratingsArgs->name;
      ratings->source = ratingsArgs->source;
      ratings->read.format = *parseFormat<core::RatingsFormat>(ratingsArgs->format, &core::ratingsFormatFromString,
                                                               "auto, movielens, csv");
      ratings->read.items = *items;
      return runImport(*ratingsArgs, [&](core::Project& p, const core::ImportControl& ctl) {
        return core::importRatings(p, *ratings, ctl);
      });
    }
    if (t->parsed()) {
      table->name = tableArgs->name;
      table->source = tableArgs->source;
      table->read.format =
          *parseFormat<core::TableFormat>(tableArgs->format, &core::tableFormatFromString, "auto, csv");
      table->read.columns = core::splitColumnList(*columns);
      if (!columns->empty() && table->read.columns.empty())
        throw core::UsageError("--columns names no column; give them as A,B,...");
      return runImport(*tableArgs, [&](core::Project& p, const core::ImportControl& ctl) {
        return core::importTable(p, *table, ctl);
      });
    }
    if (l->parsed()) {
      links->source = linkArgs->source;
      return importLinks(*linkArgs, *links);
    }
    if (sampleArgs->name.empty()) sampleArgs->name = *sample;
    return runImport(*sampleArgs, [&](core::Project& p, const core::ImportControl& ctl) {
      return core::importSample(p, *sample, sampleArgs->name, ctl);
    });
  };
  return {import, run};
}

}  // namespace latent::cli
