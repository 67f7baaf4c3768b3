// SPDX-License-Identifier: GPL-3.0-or-later
// CSV/TSV corpora: a header row, then one document per record with its text in a named column.
#include <algorithm>
#include <cctype>

#include <nlohmann/json.hpp>

#include "core/io/corpus_readers.hpp"
#include "core/util/csv_reader.hpp"
#include "core/util/errors.hpp"
#include "core/util/utf8.hpp"

namespace latent::core::corpus_io {
namespace {

namespace fs = std::filesystem;

bool isTsv(const fs::path& source) {
  std::string ext = source.extension().string();
  std::transform(ext.begin(), ext.end(), ext.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return ext == ".tsv";
}

// Every field valid UTF-8 (LineReader has refused NUL bytes already), or an error on the exact
// physical line (a quoted field may span lines, and the reader joins them with '\n').
void checkFields(const CsvReader& reader, const std::vector<std::string>& fields,
                 const std::vector<std::string>* header) {
  std::int64_t line = reader.recordLine();
  for (std::size_t i = 0; i < fields.size(); ++i) {
    const std::string& field = fields[i];
    const std::string what =
        header && i < header->size() ? "the " + quoteInput((*header)[i]) + " field" : "column " + std::to_string(i + 1);
    if (const auto bad = utf8::firstInvalid(field); bad != utf8::npos) {
      const auto problem = describeInvalidUtf8(field, bad, line, what);
      throw InputError(reader.displayName(), problem.line, problem.reason);
    }
    line += static_cast<std::int64_t>(std::count(field.begin(), field.end(), '\n'));
  }
}

}  // namespace

void readCsv(const fs::path& source, const CorpusReadOptions& options, CorpusBuilder& builder,
             const ImportControl& control) {
  CsvReader::Options csvOptions;
  if (isTsv(source)) csvOptions.delimiter = '\t';
  CsvReader reader(source, csvOptions);
  const std::string& name = reader.displayName();

  std::vector<std::string> header;
  if (!reader.next(header))
    throw InputError(name, 0,
                     "is empty: a CSV corpus needs a header row naming its columns, then one row per document");
  checkFields(reader, header, nullptr);
  const auto column = [&](const std::string& wanted) {
    const int index = findColumn(header, wanted);
    if (index < 0)
      reader.fail("no column named " + quoteInput(wanted) + " (columns: " + clip(joinColumns(header), 400) + ")");
    return index;
  };
  const int text = column(options.textColumn.empty() ? "text" : options.textColumn);
  const int title = options.titleColumn.empty() ? findColumn(header, "title") : column(options.titleColumn);
  const int time = options.timeColumn.empty() ? -1 : column(options.timeColumn);
  const int label = options.labelColumn.empty() ? -1 : column(options.labelColumn);
  const int idColumn = options.idColumn.empty() ? findColumn(header, "id") : column(options.idColumn);
  // The metadata columns: those asked for, or with "all" every one not read as something else.
  std::vector<int> metadataIndex;
  if (keepsAllMetadata(options.metadataColumns)) {
    for (int i = 0; i < static_cast<int>(header.size()); ++i)
      if (i != text && i != title && i != time && i != label && i != idColumn) metadataIndex.push_back(i);
  } else {
    for (const auto& name : options.metadataColumns) metadataIndex.push_back(column(name));
  }
  std::string metadata;
  const auto field = [](const std::vector<std::string>& fields, int index) {
    return index < 0 ? std::string_view() : std::string_view(fields[static_cast<std::size_t>(index)]);
  };

  ProgressThrottle throttle(control);
  DocumentIdSet ids;
  std::vector<std::string> fields;
  std::int64_t records = 0;
  std::string recordNumber;
  while (!reachedLimit(control, records) && reader.next(fields)) {
    control.checkStop();
    ++records;
    if (fields.size() != header.size())
      reader.fail("expected " + std::to_string(header.size()) + " fields as in the header, found " +
                  std::to_string(fields.size()));
    checkFields(reader, fields, &header);

    DocumentRecord record;
    if (idColumn >= 0) {
      record.id = field(fields, idColumn);
      if (record.id.empty())
        reader.fail("the " + quoteInput(header[static_cast<std::size_t>(idColumn)]) +
                    " field is empty; every document needs an id");
      ids.add(record.id, name, reader.recordLine());
    } else {
      recordNumber = std::to_string(records);
      record.id = recordNumber;
    }
    record.title = field(fields, title);
    if (record.title.empty()) record.title = record.id;
    record.time = field(fields, time);
    record.label = field(fields, label);
    metadata.clear();
    if (!metadataIndex.empty()) {
      nlohmann::ordered_json object = nlohmann::ordered_json::object();
      for (const int i : metadataIndex)
        if (const auto value = field(fields, i); !value.empty())
          object[header[static_cast<std::size_t>(i)]] = std::string(value);
      if (!object.empty()) metadata = object.dump();
    }
    record.metadata = metadata;
    record.text = field(fields, text);
    record.hasText = true;
    builder.addText(record);
    throttle.update(reader.bytesConsumed(), reader.fileSize());
  }
  if (records == 0 && !reachedLimit(control, 0))
    throw InputError(name, 0, "has a header row but no documents, so there is nothing to import");
}

}  // namespace latent::core::corpus_io
