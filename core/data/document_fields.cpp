// SPDX-License-Identifier: GPL-3.0-or-later
// Reading a document field as numbers, categories or label sets.
#include "core/data/document_fields.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <optional>

#include "core/data/time_slices.hpp"
#include "core/util/errors.hpp"
#include "core/util/parse_number.hpp"

namespace latent::core {
namespace {

std::string_view trimField(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t' || s.back() == '\r')) s.remove_suffix(1);
  return s;
}

// The raw values of a field, one per document, or nullptr when the corpus has no such field.
const std::vector<std::string>* rawValues(const Corpus& corpus, std::string_view name) {
  if (name == "time") return corpus.times.empty() ? nullptr : &corpus.times;
  if (name == "label") return corpus.labels.empty() ? nullptr : &corpus.labels;
  for (const auto& column : corpus.metadata)
    if (column.name == name) return &column.values;
  return nullptr;
}

std::optional<double> numberOf(std::string_view name, std::string_view value) {
  return name == "time" ? parseYear(value) : parseReal(value);
}

std::string quoteField(std::string_view s) { return "'" + std::string(s) + "'"; }

std::string describeDocument(const Corpus& corpus, std::size_t d) {
  return "document " + std::to_string(d + 1) +
         (d < corpus.documentIds.size() ? " (" + quoteField(corpus.documentIds[d]) + ")" : std::string());
}

void fillNumbers(const Corpus& corpus, std::string_view name, const std::vector<std::string>& values,
                 DocumentField& field) {
  field.kind = FieldKind::Numeric;
  field.numbers.assign(values.size(), std::numeric_limits<double>::quiet_NaN());
  for (std::size_t d = 0; d < values.size(); ++d) {
    const auto value = trimField(values[d]);
    if (value.empty()) continue;
    const auto number = numberOf(name, value);
    if (!number || !std::isfinite(*number))
      throw UsageError("the field " + quoteField(name) + " of " + describeDocument(corpus, d) + " is " +
                       quoteField(value) + ", not a number");
    field.numbers[d] = *number;
  }
}

void fillCodes(const std::vector<std::string>& values, DocumentField& field) {
  field.kind = FieldKind::Categorical;
  std::map<std::string, std::int32_t, std::less<>> index;
  if (field.categories.empty()) {
    for (const auto& v : values)
      if (const auto t = trimField(v); !t.empty()) index.emplace(std::string(t), 0);
    for (auto& [category, code] : index) {
      code = static_cast<std::int32_t>(field.categories.size());
      field.categories.push_back(category);
    }
  } else {
    for (std::size_t c = 0; c < field.categories.size(); ++c)
      index.emplace(field.categories[c], static_cast<std::int32_t>(c));
  }
  field.codes.assign(values.size(), -1);
  for (std::size_t d = 0; d < values.size(); ++d)
    if (const auto it = index.find(trimField(values[d])); it != index.end()) field.codes[d] = it->second;
}

void fillSets(const std::vector<std::string>& values, std::string_view separator, DocumentField& field) {
  field.kind = FieldKind::LabelSets;
  std::vector<std::vector<std::string>> split;
  split.reserve(values.size());
  for (const auto& v : values) split.push_back(splitLabels(v, separator));
  std::map<std::string, std::int32_t, std::less<>> index;
  if (field.categories.empty()) {
    for (const auto& labels : split)
      for (const auto& l : labels) index.emplace(l, 0);
    for (auto& [category, code] : index) {
      code = static_cast<std::int32_t>(field.categories.size());
      field.categories.push_back(category);
    }
  } else {
    for (std::size_t c = 0; c < field.categories.size(); ++c)
      index.emplace(field.categories[c], static_cast<std::int32_t>(c));
  }
  field.sets.assign(values.size(), {});
  for (std::size_t d = 0; d < split.size(); ++d) {
    for (const auto& l : split[d])
      if (const auto it = index.find(l); it != index.end()) field.sets[d].push_back(it->second);
    std::sort(field.sets[d].begin(), field.sets[d].end());
  }
}

}  // namespace

bool DocumentField::missing(std::size_t d) const {
  switch (kind) {
    case FieldKind::Numeric:
      return std::isnan(numbers[d]);
    case FieldKind::Categorical:
      return codes[d] < 0;
    default:
      return sets[d].empty();
  }
}

std::vector<std::string> documentFieldNames(const Corpus& corpus) {
  std::vector<std::string> names;
  if (!corpus.times.empty()) names.emplace_back("time");
  if (!corpus.labels.empty()) names.emplace_back("label");
  for (const auto& column : corpus.metadata) names.push_back(column.name);
  return names;
}

DocumentField documentField(const Corpus& corpus, std::string_view name, FieldKind kind) {
  const auto* values = rawValues(corpus, name);
  if (!values) {
    std::string there;
    for (const auto& n : documentFieldNames(corpus)) there += (there.empty() ? "" : ", ") + n;
    throw UsageError("the corpus has no field " + quoteField(name) +
                     (there.empty() ? std::string(" (it has no time, label or metadata columns: import it with "
                                                  "--time-column, --label-column or --metadata-columns)")
                                    : " (its fields: " + there + ")"));
  }
  DocumentField field;
  field.name = std::string(name);
  const bool labelSets = name == "label" && !corpus.labelSeparator.empty();
  if (kind == FieldKind::Auto) {
    if (labelSets) {
      kind = FieldKind::LabelSets;
    } else {
      bool anyValue = false, allNumbers = true;
      for (const auto& v : *values) {
        const auto t = trimField(v);
        if (t.empty()) continue;
        anyValue = true;
        const auto number = numberOf(name, t);
        if (!number || !std::isfinite(*number)) {
          allNumbers = false;
          break;
        }
      }
      kind = anyValue && allNumbers ? FieldKind::Numeric : FieldKind::Categorical;
    }
  }
  switch (kind) {
    case FieldKind::Numeric:
      fillNumbers(corpus, name, *values, field);
      break;
    case FieldKind::LabelSets:
      fillSets(*values, labelSets ? std::string_view(corpus.labelSeparator) : std::string_view(), field);
      break;
    default:
      fillCodes(*values, field);
      break;
  }
  return field;
}

DocumentField documentFieldLike(const Corpus& corpus, const DocumentField& like) {
  const auto* values = rawValues(corpus, like.name);
  if (!values) throw UsageError("the documents have no field " + quoteField(like.name));
  DocumentField field;
  field.name = like.name;
  field.categories = like.categories;
  switch (like.kind) {
    case FieldKind::Numeric:
      fillNumbers(corpus, like.name, *values, field);
      break;
    case FieldKind::LabelSets:
      fillSets(*values, like.name == "label" ? std::string_view(corpus.labelSeparator) : std::string_view(), field);
      break;
    default:
      fillCodes(*values, field);
      break;
  }
  return field;
}

std::vector<std::string> splitLabels(std::string_view text, std::string_view separator) {
  std::vector<std::string> labels;
  auto add = [&](std::string_view part) {
    part = trimField(part);
    if (!part.empty() && std::find(labels.begin(), labels.end(), part) == labels.end()) labels.emplace_back(part);
  };
  if (separator.empty()) {
    add(text);
    return labels;
  }
  std::size_t start = 0;
  while (true) {
    const auto at = text.find(separator, start);
    add(text.substr(start, at == std::string_view::npos ? std::string_view::npos : at - start));
    if (at == std::string_view::npos) break;
    start = at + separator.size();
  }
  return labels;
}

}  // namespace latent::core
