// SPDX-License-Identifier: GPL-3.0-or-later
// The truncated SVD of a sparse weighted document-word matrix (latent semantic analysis): the top
// K eigenpairs of the smaller Gram matrix (X^T X or X X^T) by Spectra's restarted Lanczos solver,
// applied as two sparse products per step so the Gram matrix is never formed, then the other side's
// singular vectors by one more product. Every product sums in an order fixed by the data, so the
// numbers do not depend on the thread count.
#pragma once

#include <cstdint>
#include <optional>
#include <stop_token>
#include <vector>

#include <Eigen/Core>

#include "core/models/topic/doc_word_counts.hpp"

namespace latent::core::topic {

enum class LsaWeighting { Count, TfIdf };

// Each word's weight: 1 (counts), or its inverse document frequency log(D / df_w) over the
// training documents (0 for a word no training document holds: it says nothing).
Eigen::VectorXd lsaTermWeights(const DocWordCounts& counts, LsaWeighting weighting);

// The weighted value of each entry of `counts`: count x the word's weight.
std::vector<double> lsaWeightedValues(const DocWordCounts& counts, const Eigen::VectorXd& termWeights);

struct TruncatedSvd {
  Eigen::VectorXd singularValues;  // K, largest first
  Eigen::MatrixXd docVectors;      // D x K, orthonormal columns (zero for a zero singular value)
  Eigen::MatrixXd wordVectors;     // V x K, orthonormal columns; each one's largest entry positive
  std::int64_t products = 0;       // Gram-matrix products the Lanczos solver applied
};

// The top K singular triplets of X (entries `values` at the positions of `counts`), to the
// relative tolerance `tolerance` on the squared singular values, with at most `maxRestarts`
// Lanczos restarts. K must be below min(D, V). std::nullopt when stopped; throws std::runtime_error
// when the solver does not converge.
std::optional<TruncatedSvd> truncatedSvd(const DocWordCounts& counts, const std::vector<double>& values, Eigen::Index K,
                                         double tolerance, int maxRestarts, std::stop_token stop);

// A document's weighted counts projected on the word vectors: x W (length K). `words` are word
// ids, repeated as often as they occur.
Eigen::VectorXd lsaProject(std::span<const std::int32_t> words, const Eigen::VectorXd& termWeights,
                           const Eigen::MatrixXd& wordVectors);

// sum_w (count_w x weight_w)^2 of a document.
double lsaSquaredNorm(std::span<const std::int32_t> words, const Eigen::VectorXd& termWeights);

}  // namespace latent::core::topic
