// SPDX-License-Identifier: GPL-3.0-or-later
// Reading an edge list of documents and storing it as the corpus's links.
#include "core/jobs/link_import.hpp"

#include <algorithm>
#include <tuple>
#include <unordered_map>

#include "core/store/corpus_store.hpp"
#include "core/store/document_link_store.hpp"
#include "core/store/write_wait.hpp"
#include "core/util/csv_reader.hpp"
#include "core/util/errors.hpp"

namespace latent::core {
namespace {

constexpr std::int64_t kAmbiguous = -2;
constexpr std::size_t kUnknownNamesShown = 5;

// How the values of the file name documents.
class DocumentNames {
 public:
  DocumentNames(const std::vector<DocumentHeader>& documents, const std::string& key) : m_key(key) {
    for (const auto& d : documents) {
      m_ids.emplace(d.id, d.index);
      auto [it, fresh] = m_titles.emplace(d.title, d.index);
      if (!fresh) it->second = kAmbiguous;
    }
  }
  // The document a value names, or -1 (none) or kAmbiguous (a title several documents have).
  std::int64_t find(const std::string& value) const {
    if (m_key != "title")
      if (const auto it = m_ids.find(value); it != m_ids.end()) return it->second;
    if (m_key != "id")
      if (const auto it = m_titles.find(value); it != m_titles.end()) return it->second;
    return -1;
  }

 private:
  std::string m_key;
  std::unordered_map<std::string, std::int64_t> m_ids, m_titles;
};

int pickColumn(const CsvReader& reader, const std::vector<std::string>& header, const std::string& asked,
               const char* usual, int fallback, const char* flag) {
  if (!asked.empty()) {
    const int c = findColumn(header, asked);
    if (c < 0) reader.fail(std::string(flag) + " '" + asked + "' is not a column; the file has " + joinColumns(header));
    return c;
  }
  const int c = findColumn(header, usual);
  return c >= 0 ? c : fallback;
}

}  // namespace

ImportResult importDocumentLinks(Project& project, const LinksImportRequest& request, const ImportControl& control) {
  if (request.key != "auto" && request.key != "id" && request.key != "title")
    throw UsageError("unknown --key '" + request.key + "' (use one of: auto, id, title)");
  const DatasetInfo dataset = project.resolveDataset(request.corpus);
  if (dataset.kind != DataKind::Corpus)
    throw UsageError("'" + dataset.name + "' is a " + std::string(toString(dataset.kind)) +
                     "; links join the documents of a corpus");
  const auto documents = listDocuments(project, dataset.id);
  const DocumentNames names(documents, request.key);

  CsvReader reader(request.source);
  std::vector<std::string> header, fields;
  if (!reader.next(header)) throw InputError(reader.displayName(), 0, "the file is empty; it needs a header line");
  if (header.size() < 2 && request.sourceColumn.empty())
    reader.fail("a links file needs two columns (the linking and the linked document); found " + joinColumns(header));
  const int from = pickColumn(reader, header, request.sourceColumn, "source", 0, "--source-column");
  const int to = pickColumn(reader, header, request.targetColumn, "target", from == 1 ? 0 : 1, "--target-column");
  if (from == to)
    reader.fail("the source and target columns are the same column ('" + header[std::size_t(from)] + "')");

  std::vector<Edge> links;
  std::int64_t rows = 0, selfLinks = 0, unknownRows = 0, ambiguousRows = 0;
  std::vector<std::string> unknownShown;
  ProgressThrottle progress(control);
  while (reader.next(fields)) {
    if (control.stop.stop_requested()) throw Cancelled();
    progress.update(reader.bytesConsumed(), reader.fileSize());
    ++rows;
    const auto width = static_cast<std::size_t>(std::max(from, to)) + 1;
    if (fields.size() < width)
      reader.fail("the row has " + std::to_string(fields.size()) + " fields; the columns read need " +
                  std::to_string(width));
    const auto a = names.find(fields[std::size_t(from)]), b = names.find(fields[std::size_t(to)]);
    if (a == kAmbiguous || b == kAmbiguous) {
      ++ambiguousRows;
      continue;
    }
    if (a < 0 || b < 0) {
      ++unknownRows;
      if (unknownShown.size() < kUnknownNamesShown) unknownShown.push_back(fields[std::size_t(a < 0 ? from : to)]);
      continue;
    }
    if (a == b) {
      ++selfLinks;
      continue;
    }
    links.push_back({static_cast<std::int32_t>(a), static_cast<std::int32_t>(b), 1.0});
  }
  std::sort(links.begin(), links.end(),
            [](const Edge& x, const Edge& y) { return std::tie(x.source, x.target) < std::tie(y.source, y.target); });
  const auto before = links.size();
  links.erase(std::unique(links.begin(), links.end(),
                          [](const Edge& x, const Edge& y) { return x.source == y.source && x.target == y.target; }),
              links.end());
  const auto repeated = static_cast<std::int64_t>(before - links.size());
  if (links.empty() && rows > 0)
    throw InputError(reader.displayName(), 0,
                     "no row links two documents of '" + dataset.name + "' (" + std::to_string(unknownRows) +
                         " rows name unknown documents" +
                         (unknownShown.empty() ? "" : ", such as '" + unknownShown[0] + "'") +
                         "); documents are named by their id" + (request.key == "id" ? "" : " or title"));

  ImportResult result;
  if (unknownRows > 0) {
    std::string shown;
    for (const auto& name : unknownShown) shown += (shown.empty() ? "'" : ", '") + name + "'";
    result.notes.push_back(std::to_string(unknownRows) + " rows name a document the corpus does not have (" + shown +
                           (unknownRows > std::int64_t(unknownShown.size()) ? ", ..." : "") + "); left out");
  }
  if (ambiguousRows > 0)
    result.notes.push_back(std::to_string(ambiguousRows) +
                           " rows name a title that several documents share; left out (name documents by id)");
  if (selfLinks > 0) result.notes.push_back(std::to_string(selfLinks) + " self-links left out");
  if (repeated > 0) result.notes.push_back(std::to_string(repeated) + " repeated links kept once");

  nlohmann::json summary = dataset.summary, options = dataset.options;
  if (summary.contains("links"))
    result.notes.push_back("the corpus's " + std::to_string(summary.value("links", std::int64_t{0})) +
                           " earlier links were replaced");
  summary["links"] = static_cast<std::int64_t>(links.size());
  options["links_source"] = request.source.string();
  options["links_columns"] = {header[std::size_t(from)], header[std::size_t(to)]};
  WriteWait wait;
  wait.abandon = control.stop;
  writeWhenFree(project.db(), wait, [&] {
    writeDocumentLinks(project, dataset.id, links);
    project.setDatasetSummary(dataset.id, summary);
    auto s = project.db().prepare("UPDATE datasets SET options = ?1 WHERE id = ?2");
    s.bind(1, options.dump()).bind(2, dataset.id).run();
  });
  result.dataset = project.dataset(dataset.id);
  return result;
}

}  // namespace latent::core
