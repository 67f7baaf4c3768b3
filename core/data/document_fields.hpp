// SPDX-License-Identifier: GPL-3.0-or-later
// A document field as a model uses it: the time as a number, the label as a category (or a set of
// labels), a metadata column as a number or a category. Models of text with side information
// (slda's response, dmr's features, labeled-lda's labels) name the fields they use.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "core/data/corpus.hpp"

namespace latent::core {

enum class FieldKind {
  Auto,         // numeric when every value given is a number, else categorical
  Numeric,      // numbers (NaN where missing)
  Categorical,  // one category per document (-1 where missing)
  LabelSets,    // a set of categories per document (the label with a separator)
};

struct DocumentField {
  std::string name;
  FieldKind kind = FieldKind::Numeric;
  std::vector<double> numbers;                  // Numeric: per document
  std::vector<std::int32_t> codes;              // Categorical: per document
  std::vector<std::vector<std::int32_t>> sets;  // LabelSets: per document, ascending
  std::vector<std::string> categories;          // Categorical and LabelSets: names, sorted

  std::size_t size() const noexcept {
    return kind == FieldKind::Numeric ? numbers.size() : kind == FieldKind::Categorical ? codes.size() : sets.size();
  }
  bool missing(std::size_t d) const;
};

// The names a corpus offers: "time" when it has times, "label" when it has labels, then its
// metadata columns in their order.
std::vector<std::string> documentFieldNames(const Corpus& corpus);

// The field `name` ("time", "label" or a metadata column) of every document of `corpus`, as `kind`
// asks. "time" is read as years (data/time_slices.hpp parseYear); "label" with a separator gives
// label sets unless a single category is asked for. Auto: a column whose values given all read as
// numbers is numeric. Throws UsageError naming the fields there are when `name` is not one, or
// naming the first document whose value is not a number when Numeric is asked for.
DocumentField documentField(const Corpus& corpus, std::string_view name, FieldKind kind = FieldKind::Auto);

// The same field of other documents (held-out ones) coded like `like`: its kind, and its
// categories, a value not among them counting as missing.
DocumentField documentFieldLike(const Corpus& corpus, const DocumentField& like);

// The labels in one label text, each trimmed, empty ones dropped, duplicates kept once, in order.
std::vector<std::string> splitLabels(std::string_view text, std::string_view separator);

}  // namespace latent::core
