// SPDX-License-Identifier: GPL-3.0-or-later
// Reading a metadata table and joining it to documents as they are imported.
#include "core/io/metadata_file.hpp"

#include <algorithm>

#include <nlohmann/json.hpp>

#include "core/util/ascii.hpp"
#include "core/util/csv_reader.hpp"
#include "core/util/errors.hpp"

namespace latent::core {
namespace {

std::string lastPathPart(std::string_view key) {
  const auto slash = key.find_last_of("/\\");
  return std::string(slash == std::string_view::npos ? key : key.substr(slash + 1));
}

std::string withoutExtension(const std::string& name) {
  const auto dot = name.find_last_of('.');
  return dot == std::string::npos || dot == 0 ? name : name.substr(0, dot);
}

std::string trimmedKey(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t')) s.remove_suffix(1);
  return std::string(s);
}

}  // namespace

MetadataFile::MetadataFile(const std::filesystem::path& path, std::string keyColumn) {
  CsvReader reader(path);
  m_name = reader.displayName();
  if (!reader.next(m_header))
    throw InputError(m_name, 0, "is empty: a metadata file needs a header row naming its columns");
  if (keyColumn.empty()) {
    m_key = findColumn(m_header, "id");
    if (m_key < 0) m_key = findColumn(m_header, "file");
    if (m_key < 0) m_key = 0;
  } else {
    m_key = findColumn(m_header, keyColumn);
    if (m_key < 0)
      reader.fail("no column named '" + keyColumn + "' to match documents by (columns: " + joinColumns(m_header) + ")");
  }
  std::vector<std::string> fields;
  while (reader.next(fields)) {
    if (fields.size() != m_header.size())
      reader.fail("expected " + std::to_string(m_header.size()) + " fields as in the header, found " +
                  std::to_string(fields.size()));
    const std::string key = trimmedKey(fields[static_cast<std::size_t>(m_key)]);
    if (key.empty()) reader.fail("the key column '" + m_header[static_cast<std::size_t>(m_key)] + "' is empty");
    const std::size_t row = m_rows.size();
    if (!m_byKey.emplace(key, row).second)
      reader.fail("the key '" + key + "' is on an earlier row too; each document's metadata must be on one row");
    // A file name or stem shared by two keys matches neither: a document must not get a stranger's row.
    for (auto* index : {&m_byFileName, &m_byStem}) {
      const std::string name = index == &m_byFileName ? lastPathPart(key) : withoutExtension(lastPathPart(key));
      if (const auto [it, added] = index->emplace(name, row); !added) it->second = static_cast<std::size_t>(-1);
    }
    m_rows.push_back(fields);
  }
}

std::vector<std::string> MetadataFile::valueColumns() const {
  std::vector<std::string> out;
  for (std::size_t i = 0; i < m_header.size(); ++i)
    if (static_cast<int>(i) != m_key) out.push_back(m_header[i]);
  return out;
}

int MetadataFile::column(std::string_view name) const { return findColumn(m_header, name); }

const std::vector<std::string>* MetadataFile::row(std::string_view documentId) const {
  const std::string id(documentId);
  const auto found = [&](const std::unordered_map<std::string, std::size_t>& index,
                         const std::string& key) -> const std::vector<std::string>* {
    const auto it = index.find(key);
    return it == index.end() || it->second == static_cast<std::size_t>(-1) ? nullptr : &m_rows[it->second];
  };
  if (const auto* r = found(m_byKey, id)) return r;
  if (const auto* r = found(m_byFileName, lastPathPart(id))) return r;
  if (const auto* r = found(m_byStem, withoutExtension(lastPathPart(id)))) return r;
  return found(m_byStem, lastPathPart(id));
}

MetadataJoin planMetadataJoin(const MetadataFile& file, CorpusReadOptions& read) {
  MetadataJoin join;
  const auto take = [&](std::string& column) {
    const int c = column.empty() ? -1 : file.column(column);
    if (c >= 0) column.clear();
    return c;
  };
  join.timeColumn = take(read.timeColumn);
  join.labelColumn = take(read.labelColumn);
  const bool all = read.metadataColumns.empty() || keepsAllMetadata(read.metadataColumns);
  std::vector<std::string> leftForCorpus;
  if (all) {
    for (const auto& name : file.valueColumns()) {
      const int c = file.column(name);
      if (c != join.timeColumn && c != join.labelColumn) join.valueColumns.push_back(c);
    }
    if (!read.metadataColumns.empty() && (read.format == CorpusFormat::Csv || read.format == CorpusFormat::JsonLines))
      leftForCorpus = read.metadataColumns;
  } else {
    for (const auto& name : read.metadataColumns) {
      if (const int c = file.column(name); c >= 0)
        join.valueColumns.push_back(c);
      else
        leftForCorpus.push_back(name);
    }
  }
  read.metadataColumns = leftForCorpus;
  return join;
}

DocumentMetadataSink::DocumentMetadataSink(CorpusSink& inner, const MetadataFile* file, MetadataJoin join)
    : m_inner(inner), m_file(file), m_join(std::move(join)) {}

void DocumentMetadataSink::noteColumn(const std::string& name) {
  if (std::find(m_columns.begin(), m_columns.end(), name) == m_columns.end()) m_columns.push_back(name);
}

void DocumentMetadataSink::writeDocument(const DocumentRecord& document) {
  DocumentRecord record = document;
  // Ordered: the columns keep the order of the file they came from.
  nlohmann::ordered_json object = nlohmann::ordered_json::object();
  if (!document.metadata.empty()) {
    object = nlohmann::ordered_json::parse(document.metadata, nullptr, false);
    if (!object.is_object()) object = nlohmann::ordered_json::object();
  }
  if (m_file) {
    if (const auto* row = m_file->row(document.id)) {
      ++m_matched;
      const auto cell = [&](int c) { return std::string_view((*row)[static_cast<std::size_t>(c)]); };
      if (m_join.timeColumn >= 0) record.time = cell(m_join.timeColumn);
      if (m_join.labelColumn >= 0) record.label = cell(m_join.labelColumn);
      for (const int c : m_join.valueColumns)
        if (!cell(c).empty()) object[m_file->columnName(c)] = std::string(cell(c));
    } else {
      ++m_unmatched;
    }
  }
  for (const auto& [name, value] : object.items()) noteColumn(name);
  m_metadata = object.empty() ? std::string() : object.dump();
  record.metadata = m_metadata;
  if (!record.label.empty()) ++m_labelled;
  m_inner.writeDocument(record);
}

}  // namespace latent::core
