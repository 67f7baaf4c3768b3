// SPDX-License-Identifier: GPL-3.0-or-later
// Survey answers (categorical responses) as a corpus: a CSV/TSV with a header, one row per
// respondent, one column per question. Each answer becomes the word "question=answer", so a
// respondent is the bag of their answers, and the models of categorical responses (catpca, urp)
// read the questions back from the words (core/data/response_groups.hpp). Empty cells and NA mark
// questions not answered.
#include <algorithm>
#include <cctype>
#include <map>
#include <set>

#include "core/io/corpus_readers.hpp"
#include "core/util/csv_reader.hpp"
#include "core/util/errors.hpp"
#include "core/util/parse_number.hpp"
#include "core/util/utf8.hpp"

namespace latent::core::corpus_io {
namespace {

namespace fs = std::filesystem;

CsvReader::Options responseCsvOptions(const fs::path& source) {
  std::string ext = source.extension().string();
  std::transform(ext.begin(), ext.end(), ext.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  CsvReader::Options options;
  if (ext == ".tsv") options.delimiter = '\t';
  return options;
}

std::string_view trimmed(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t' || s.back() == '\r')) s.remove_suffix(1);
  return s;
}

bool isMissing(std::string_view value) {
  return value.empty() || value == "NA" || value == "N/A" || value == "na" || value == "." || value == "?";
}

// Answers in a natural order: numbers by value (so 2 comes before 10), then text alphabetically.
struct AnswerOrder {
  bool operator()(const std::string& a, const std::string& b) const {
    const auto x = parseReal(a), y = parseReal(b);
    if (x && y) return *x < *y || (*x == *y && a < b);
    if (x || y) return x.has_value();
    return a < b;
  }
};

// The columns that hold questions: all but the id column; `id` is -1 when there is none.
struct ResponseLayout {
  std::vector<std::string> header;
  int id = -1;
  std::vector<int> questions;
};

ResponseLayout readLayout(CsvReader& reader, const CorpusReadOptions& options) {
  ResponseLayout layout;
  if (!reader.next(layout.header))
    throw InputError(reader.displayName(), 0,
                     "is empty: survey answers need a header row naming the questions, then one row per respondent");
  std::set<std::string> seen;
  for (auto& name : layout.header) {
    name = std::string(trimmed(name));
    if (utf8::firstInvalid(name) != utf8::npos) reader.fail("a column name is not valid UTF-8");
    if (name.empty()) reader.fail("a column has no name; every question needs one");
    if (name.find('=') != std::string::npos)
      reader.fail("the column name " + quoteInput(name) + " contains '=', which separates a question from its answer");
    if (!seen.insert(name).second) reader.fail("two columns are named " + quoteInput(name));
  }
  if (!options.idColumn.empty()) {
    layout.id = findColumn(layout.header, options.idColumn);
    if (layout.id < 0)
      reader.fail("no column named " + quoteInput(options.idColumn) +
                  " (columns: " + clip(joinColumns(layout.header), 400) + ")");
  } else {
    layout.id = findColumn(layout.header, "id");
  }
  for (int i = 0; i < static_cast<int>(layout.header.size()); ++i)
    if (i != layout.id) layout.questions.push_back(i);
  if (layout.questions.empty()) reader.fail("has no question columns besides the id");
  return layout;
}

void checkRecord(const CsvReader& reader, const ResponseLayout& layout, const std::vector<std::string>& fields) {
  if (fields.size() != layout.header.size())
    reader.fail("expected " + std::to_string(layout.header.size()) + " fields as in the header, found " +
                std::to_string(fields.size()));
  for (const auto& field : fields)
    if (utf8::firstInvalid(field) != utf8::npos) reader.fail("a field is not valid UTF-8");
}

}  // namespace

void readResponses(const fs::path& source, const CorpusReadOptions& options, CorpusBuilder& builder,
                   const ImportControl& control) {
  // Pass 1: every question's answers, for a vocabulary ordered by question, then answer.
  std::vector<std::set<std::string, AnswerOrder>> answers;
  ResponseLayout layout;
  {
    CsvReader reader(source, responseCsvOptions(source));
    layout = readLayout(reader, options);
    answers.resize(layout.questions.size());
    std::vector<std::string> fields;
    std::int64_t records = 0;
    while (!reachedLimit(control, records) && reader.next(fields)) {
      control.checkStop();
      ++records;
      checkRecord(reader, layout, fields);
      for (std::size_t q = 0; q < layout.questions.size(); ++q) {
        const auto value = trimmed(fields[static_cast<std::size_t>(layout.questions[q])]);
        if (!isMissing(value)) answers[q].insert(std::string(value));
      }
    }
    if (records == 0 && !reachedLimit(control, 0))
      throw InputError(reader.displayName(), 0, "has a header row but no respondents, so there is nothing to import");
  }
  std::vector<std::string> words;
  std::vector<std::map<std::string, std::int32_t, std::less<>>> ids(layout.questions.size());
  for (std::size_t q = 0; q < layout.questions.size(); ++q)
    for (const auto& answer : answers[q]) {
      ids[q].emplace(answer, static_cast<std::int32_t>(words.size()));
      words.push_back(layout.header[static_cast<std::size_t>(layout.questions[q])] + "=" + answer);
    }
  builder.setSourceVocabulary(std::move(words));

  // Pass 2: each respondent's answers as a bag of words.
  CsvReader reader(source, responseCsvOptions(source));
  std::vector<std::string> fields;
  reader.next(fields);  // the header, read above
  ProgressThrottle throttle(control);
  DocumentIdSet seenIds;
  std::vector<std::pair<std::int32_t, std::int32_t>> bag;
  std::int64_t records = 0;
  std::string recordNumber;
  while (!reachedLimit(control, records) && reader.next(fields)) {
    control.checkStop();
    ++records;
    checkRecord(reader, layout, fields);
    DocumentRecord record;
    if (layout.id >= 0) {
      record.id = fields[static_cast<std::size_t>(layout.id)];
      if (record.id.empty()) reader.fail("the id field is empty; every respondent needs an id");
      seenIds.add(record.id, reader.displayName(), reader.recordLine());
    } else {
      recordNumber = std::to_string(records);
      record.id = recordNumber;
    }
    record.title = record.id;
    bag.clear();
    for (std::size_t q = 0; q < layout.questions.size(); ++q) {
      const auto value = trimmed(fields[static_cast<std::size_t>(layout.questions[q])]);
      if (isMissing(value)) continue;
      const auto it = ids[q].find(value);
      if (it == ids[q].end()) reader.fail("the file changed while it was read");
      bag.emplace_back(it->second, 1);
    }
    builder.addBag(record, bag);
    throttle.update(reader.bytesConsumed(), reader.fileSize());
  }
}

}  // namespace latent::core::corpus_io
