// SPDX-License-Identifier: GPL-3.0-or-later
// Each topic's share of the words of the documents that share a value of a field: by year, by
// party, by any label or metadata column (the "topics against metadata" view of any topic model;
// dtm and dmr model such fields, this only reads a fitted model's proportions by them).
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include <Eigen/Core>

#include "core/data/document_fields.hpp"

namespace latent::core {

struct FieldTopicShares {
  std::string field;
  bool numeric = false;
  std::vector<std::string> groups;      // "1790", "1800" (a bin's start), or "Democratic", "other"
  std::vector<double> positions;        // numeric: each group's start; else 0, 1, 2, ...
  double binWidth = 0;                  // numeric: the width of a group (0: one value each)
  std::vector<std::int64_t> documents;  // documents in each group
  Eigen::MatrixXd shares;               // groups x K: token-weighted mean proportions, rows sum to one
};

// The groups: a numeric field's values when there are at most `maxGroups` distinct ones, else
// bins of a round width (1, 2 or 5 times a power of ten) starting at a multiple of it; a
// categorical field's categories by their words, the largest `maxGroups - 1` and "other"; a label
// set's labels (a document counts in each of its labels). Documents without a value, or without
// words, are left out. `docTopic` is D x K in the field's document order, `lengths` the words of
// each document. Proportions held as floats (a large doc_topic as stored) give the same shares as
// the same values held as doubles.
FieldTopicShares topicSharesByField(const DocumentField& field, const Eigen::MatrixXd& docTopic,
                                    std::span<const std::int64_t> lengths, int maxGroups = 40);
FieldTopicShares topicSharesByField(const DocumentField& field, const Eigen::MatrixXf& docTopic,
                                    std::span<const std::int64_t> lengths, int maxGroups = 40);

}  // namespace latent::core
