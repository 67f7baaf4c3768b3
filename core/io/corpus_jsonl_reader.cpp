// SPDX-License-Identifier: GPL-3.0-or-later
// JSON Lines corpora: one JSON object per line, its text in a named field.
#include <algorithm>
#include <cctype>

#include <nlohmann/json.hpp>

#include "core/io/corpus_readers.hpp"
#include "core/util/ascii.hpp"
#include "core/util/errors.hpp"
#include "core/util/line_reader.hpp"
#include "core/util/utf8.hpp"

namespace latent::core::corpus_io {
namespace {

using nlohmann::json;

// The member named `name` (exactly, else ignoring case as CSV columns are matched), or null.
const json* member(const json& object, const std::string& name) {
  if (const auto it = object.find(name); it != object.end()) return &*it;
  for (const auto& [key, value] : object.items())
    if (equalsIgnoreCase(key, name)) return &value;
  return nullptr;
}

std::string fieldNames(const json& object) {
  std::string names;
  std::size_t listed = 0;
  for (const auto& item : object.items()) {
    if (++listed > 20) return names + ", \u2026";
    names += (names.empty() ? "" : ", ") + clip(item.key(), 40);
  }
  return names.empty() ? "none" : names;
}

// "an array", "true or false": what a value is, in words.
std::string describe(const json& v) {
  if (v.is_boolean()) return "true or false";
  if (v.is_null()) return "null";
  if (v.is_array()) return "an array";
  if (v.is_object()) return "an object";
  return std::string("a ") + v.type_name();
}

// "column 12: syntax error ..." out of nlohmann's "[json.exception.parse_error.101] parse error
// at line 1, column 12: syntax error ...": the line is ours to give, the id means nothing to users.
std::string parserReason(const json::exception& e) {
  std::string_view what = e.what();
  if (const auto bracket = what.find("] "); bracket != std::string_view::npos) what.remove_prefix(bracket + 2);
  constexpr std::string_view prefix = "parse error at line 1, ";
  if (what.starts_with(prefix)) what.remove_prefix(prefix.size());
  return clip(what, 200);
}

}  // namespace

void readJsonLines(const std::filesystem::path& source, const CorpusReadOptions& options, CorpusBuilder& builder,
                   const ImportControl& control) {
  LineReader reader(source);
  const std::string& name = reader.displayName();
  const std::string textName = options.textColumn.empty() ? "text" : options.textColumn;
  const std::string idName = options.idColumn.empty() ? "id" : options.idColumn;

  // Text of a field: strings as they are, numbers as written in JSON (1790 -> "1790"), null as
  // empty; `required` fields must be present (a misspelt --title-column should not pass silently).
  const auto value = [&](const json& object, const std::string& field, bool required, std::string& out) -> bool {
    const json* v = member(object, field);
    if (!v) {
      if (required) reader.fail("has no field " + quoteInput(field) + " (fields: " + fieldNames(object) + ")");
      return false;
    }
    if (v->is_string()) {
      out = v->get_ref<const std::string&>();
    } else if (v->is_number()) {
      out = v->dump();
    } else if (v->is_null()) {
      out.clear();
    } else {
      reader.fail("the field " + quoteInput(field) + " holds " + describe(*v) + "; expected text or a number");
    }
    if (out.find('\0') != std::string::npos)
      reader.fail("the field " + quoteInput(field) + " holds a NUL character (\\u0000), which text cannot contain");
    return true;
  };

  ProgressThrottle throttle(control);
  DocumentIdSet ids;
  std::int64_t documents = 0;
  std::string_view line;
  std::string id, title, time, label, text, metadata, metadataValue;
  // The fields read as something else, left out when every other field is kept as metadata.
  const std::vector<std::string> readFields{textName, idName,
                                            options.titleColumn.empty() ? "title" : options.titleColumn,
                                            options.timeColumn, options.labelColumn};
  const bool allMetadata = keepsAllMetadata(options.metadataColumns);
  std::vector<char> metadataSeen(options.metadataColumns.size(), 0);
  while (!reachedLimit(control, documents) && reader.next(line)) {
    control.checkStop();
    if (const auto bad = utf8::firstInvalid(line); bad != utf8::npos) reader.fail(utf8::invalidMessage(line, bad));
    if (isBlank(line)) {
      throttle.update(reader.bytesConsumed(), reader.fileSize());
      continue;
    }
    json object;
    // The member being read, so that a number too large for a double names its field.
    std::string field;
    const auto trackField = [&field](int depth, json::parse_event_t event, json& parsed) {
      if (depth == 1 && event == json::parse_event_t::key) field = parsed.get<std::string>();
      return true;
    };
    try {
      object = json::parse(line, trackField);
    } catch (const json::parse_error& e) {
      reader.fail("is not valid JSON (" + parserReason(e) + ")");
    } catch (const json::out_of_range& e) {
      reader.fail("the field " + quoteInput(field) + " holds a number beyond the range of a double (" +
                  parserReason(e) + ")");
    }
    if (!object.is_object())
      reader.fail("expected a JSON object such as {\"text\": \"...\"}, found " + describe(object));

    value(object, textName, true, text);
    if (value(object, idName, !options.idColumn.empty(), id)) {
      if (id.empty()) reader.fail("the field " + quoteInput(idName) + " is empty; every document needs an id");
      ids.add(id, name, reader.lineNumber());
    } else {
      id = std::to_string(reader.lineNumber());
    }
    title.clear();
    time.clear();
    label.clear();
    value(object, options.titleColumn.empty() ? "title" : options.titleColumn, !options.titleColumn.empty(), title);
    if (!options.timeColumn.empty()) value(object, options.timeColumn, true, time);
    if (!options.labelColumn.empty()) value(object, options.labelColumn, true, label);

    metadata.clear();
    if (!options.metadataColumns.empty()) {
      nlohmann::ordered_json kept = nlohmann::ordered_json::object();
      if (allMetadata) {
        for (const auto& [key, v] : object.items()) {
          if (std::any_of(readFields.begin(), readFields.end(),
                          [&](const std::string& f) { return !f.empty() && equalsIgnoreCase(f, key); }))
            continue;
          if (!v.is_string() && !v.is_number() && !v.is_null()) continue;  // nested values are not metadata
          if (value(object, key, true, metadataValue) && !metadataValue.empty()) kept[key] = metadataValue;
        }
      } else {
        // A record may lack a metadata field (it is missing there); a name no record has is a mistake.
        for (std::size_t c = 0; c < options.metadataColumns.size(); ++c) {
          const auto& column = options.metadataColumns[c];
          if (!value(object, column, false, metadataValue)) continue;
          metadataSeen[c] = true;
          if (!metadataValue.empty()) kept[column] = metadataValue;
        }
      }
      if (!kept.empty()) metadata = kept.dump();
    }

    DocumentRecord record;
    record.id = id;
    record.title = title.empty() ? std::string_view(id) : std::string_view(title);
    record.time = time;
    record.label = label;
    record.metadata = metadata;
    record.text = text;
    record.hasText = true;
    object = json();  // the parsed copy of a long text is not needed while tokenising
    builder.addText(record);
    ++documents;
    throttle.update(reader.bytesConsumed(), reader.fileSize());
  }
  if (!allMetadata && documents > 0)
    for (std::size_t c = 0; c < metadataSeen.size(); ++c)
      if (!metadataSeen[c])
        throw InputError(name, 0,
                         "no line has the field " + quoteInput(options.metadataColumns[c]) + " named as metadata");
}

}  // namespace latent::core::corpus_io
