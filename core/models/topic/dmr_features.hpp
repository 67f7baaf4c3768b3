// SPDX-License-Identifier: GPL-3.0-or-later
// The features x_d of DMR-LDA (Mimno & McCallum 2008; 000 eq. 27.71) from a document's fields: an
// always-on intercept, numbers standardised on the training documents, categories one-hot, label
// sets multi-hot, and optionally the time one-hot in equal-width bins.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include <Eigen/Core>

#include "core/data/corpus.hpp"
#include "core/data/document_fields.hpp"

namespace latent::core::topic {

// The name of the intercept feature, column 0 of every feature matrix (MALLET's "default feature").
inline constexpr const char* kDmrDefaultFeature = "default";

// Codes documents into features. Built on the training documents (which fix the categories, the
// means and standard deviations, and the time bins); held-out documents are coded the same way
// (documentFieldLike), a category not seen in training counting as missing.
class DmrFeatureCoder {
 public:
  // `fields`: a comma list of field names ("time", "label", metadata columns); empty: every field
  // the corpus has (documentFieldNames). `timeBins` > 0 adds the time one-hot in that many
  // equal-width bins between the earliest and the latest training time. Throws UsageError naming
  // the fields there are when one is not a field of the corpus.
  DmrFeatureCoder(const Corpus& train, std::string_view fields, int timeBins);

  // One row per document of `corpus`, one column per feature (names()); column 0 is 1.
  // Missing values code as 0 (a number at the training mean, a category as none of them).
  Eigen::MatrixXd code(const Corpus& corpus) const;

  // "default", then per field: "time" (a number), "party=Whig" (a category or a label),
  // "time in 1790-1836" (a time bin).
  const std::vector<std::string>& names() const noexcept { return m_names; }
  std::size_t size() const noexcept { return m_names.size(); }

  // F x 4, per feature: the smallest and largest value on the training documents in the field's
  // own units, and the centre and scale of the coding, x = (value - centre) / scale. Indicators
  // (and the intercept) read (0, 1, 0, 1) (the intercept (1, 1, 0, 1)).
  const Eigen::MatrixXd& ranges() const noexcept { return m_ranges; }

 private:
  struct Source {
    DocumentField field;  // as read from the training documents
    std::size_t column = 0;
    double centre = 0.0, scale = 1.0;  // Numeric
    int bins = 0;                      // Numeric time: one-hot bins after the number's column
    double low = 0.0, width = 1.0;     // the bins' start and width
  };
  void codeField(const DocumentField& field, const Source& source, Eigen::MatrixXd& x) const;

  std::vector<Source> m_sources;
  std::vector<std::string> m_names;
  Eigen::MatrixXd m_ranges;
};

// "a,b , c" -> {"a", "b", "c"}; empty items dropped.
std::vector<std::string> splitFieldList(std::string_view text);

}  // namespace latent::core::topic
