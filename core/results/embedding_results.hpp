// SPDX-License-Identifier: GPL-3.0-or-later
// What embedding models store (the embeddings family: lsa, epca): the names of their result matrices,
// read by the exports, and the held-out metric they report.
#pragma once

namespace latent::core::embedding {

// Matrix names in FitResult::matrices (V words, D documents in corpus order, K components), the
// weighted document-word matrix X ~ U diag(s) W^T (a truncated SVD):
//   "singular_values" K x 1   s, largest first
//   "word_vectors" V x K      W, orthonormal columns (right singular vectors)
//   "doc_vectors" D x K       U: the training documents' left singular vectors; a held-out
//                             document's row is its weighted counts projected, x W diag(1/s)
//   "term_weights" V x 1      the weight each word's count was multiplied by (its idf, or 1), so
//                             that a new document is weighted as the training ones were
// Coordinates for similarity are W diag(s) for words and U diag(s) for documents (what the exports
// write), so that a document's coordinates are its weighted counts projected on W.
inline constexpr const char* kSingularValues = "singular_values";
inline constexpr const char* kWordVectors = "word_vectors";
inline constexpr const char* kDocVectors = "doc_vectors";
inline constexpr const char* kTermWeights = "term_weights";
// epca adds (its word_vectors and singular_values the SVD of its low-rank part Z W^T):
//   "word_bias" V x 1         b of softmax(W z_d + b)
inline constexpr const char* kWordBias = "word_bias";
// dcatpca adds (its doc_vectors diag(singular_values) the documents' latent coordinates, rotated to
// their principal axes; its word_vectors diag(singular_values) the words' map V^T into them):
//   "label_weights" L x K      W of softmax(W z_d + b), in the same axes
//   "label_bias" L x 1         b
//   "latent_covariance" K x K  Sigma of z_d ~ N(V x_d, Sigma), in the same axes
inline constexpr const char* kLabelWeights = "label_weights";
inline constexpr const char* kLabelBias = "label_bias";
inline constexpr const char* kLatentCovariance = "latent_covariance";
// dcatpca's held-out metric: the mean over the held-out documents' labels of -log p(label | words).
inline constexpr const char* kHeldoutLabelLogLoss = "heldout_label_log_loss";

// The final metric holding the weighted training matrix's squared norm, sum of all its squared
// singular values: what each component's share is of.
inline constexpr const char* kTrainSquaredNorm = "train_squared_norm";

// The held-out metric: the share of the held-out documents' squared norm (weighted as in training)
// that lies outside the K-dimensional subspace, sum_d ||x_d - x_d W W^T||^2 / sum_d ||x_d||^2.
inline constexpr const char* kHeldoutResidual = "heldout_residual_share";

}  // namespace latent::core::embedding
