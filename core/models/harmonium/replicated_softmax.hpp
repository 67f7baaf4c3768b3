// SPDX-License-Identifier: GPL-3.0-or-later
// The replicated softmax model (000 eq. 27.129; Salakhutdinov & Hinton 2009, "Replicated softmax:
// an undirected topic model"): a document of L words is L softmax visible units over the
// vocabulary that share their weights, so the energy depends on the word counts n only,
//   E(n, h) = -(n^T W h + n^T b + L c^T h),
// with the hidden biases scaled by the length. Given h the words are independent draws from
// softmax(b + W h); given the words the hidden units are independent, E[h_k | n] = sigm(L c_k +
// W_:k^T n). A probability here is that of the document's word sequence, as for the topic models'
// perplexity, not of its counts (which would add the multinomial coefficient).
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include <Eigen/Core>
#include <Eigen/SparseCore>

#include "core/data/corpus.hpp"
#include "core/models/harmonium/binary_rbm.hpp"
#include "core/util/random.hpp"

namespace latent::core::harmonium {

// Documents as rows of word counts: D x V.
using WordCounts = Eigen::SparseMatrix<double, Eigen::RowMajor>;

// The corpus's documents as count rows, and each one's length.
WordCounts wordCounts(const Corpus& corpus);
Eigen::VectorXd documentLengths(const WordCounts& counts);

// Each row's words occurring at least once (the binary RBM's view of a document).
BinaryData occurrences(const WordCounts& counts);

// E[h | n] = sigm(L c + W^T n) for each row (`lengths` holds each row's L): `out` is N x K.
void rsmHiddenProbabilities(const RbmParameters& p, const WordCounts& counts, const Eigen::VectorXd& lengths,
                            Eigen::MatrixXd& out);
void rsmHiddenProbabilities(const RbmParameters& p, const Eigen::MatrixXd& counts, const Eigen::VectorXd& lengths,
                            Eigen::MatrixXd& out);

// p(w | h) = softmax(b + W h) of one hidden state: `out` has V entries summing to one.
void wordProbabilities(const RbmParameters& p, const Eigen::Ref<const Eigen::VectorXd>& hidden,
                       Eigen::Ref<Eigen::VectorXd> out);

// Overwrites `counts` (V entries) with the counts of `length` independent draws from
// `probabilities` (V entries summing to one): O(V + length log V).
void sampleWordCounts(const Eigen::Ref<const Eigen::VectorXd>& probabilities, std::int64_t length, Rng& rng,
                      Eigen::Ref<Eigen::VectorXd> counts, std::vector<double>& cumulative);

// F(n) = -b^T n - sum_k softplus(L c_k + W_:k^T n), so that p(word sequence) = exp(-F(n)) / Z_L.
double rsmFreeEnergy(const RbmParameters& p, const Eigen::Ref<const Eigen::VectorXd>& counts, double length);

// log Z_L = log sum_h exp(L c^T h) (sum_w exp(b_w + W_w: h))^L, summed over the 2^K hidden states
// (small K only: throws UsageError above kMaxEnumeratedUnits hidden units). For tests and AIS's
// checks.
double rsmExactLogPartition(const RbmParameters& p, std::int64_t length);

// The smoothed log-frequencies of the words in `counts` (half a count added to each): the visible
// biases of a model with no hidden units fitted to the data, where training starts and AIS's base
// model.
Eigen::VectorXd logWordFrequencies(const WordCounts& counts);

}  // namespace latent::core::harmonium
