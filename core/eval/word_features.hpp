// SPDX-License-Identifier: GPL-3.0-or-later
// Documents as vectors of word features for the linear baselines (core/eval/linear_baselines.hpp)
// and for models that regress on the words: log(1 + count) per word, each document scaled to unit
// length, so that long and short documents weigh alike and a word said often counts less than
// its count.
#pragma once

#include <Eigen/Core>
#include <Eigen/SparseCore>
#include <cstdint>
#include <span>

#include "core/data/corpus.hpp"

namespace latent::core {

using WordFeatureRows = Eigen::SparseMatrix<double, Eigen::RowMajor>;

// One row per document of `documents` (all of the corpus's when empty), `vocabulary` columns;
// word ids at or beyond `vocabulary` (words a held-out corpus has and training had not) are
// ignored. An empty document is a row of zeros.
WordFeatureRows wordFeatures(const Corpus& corpus, std::size_t vocabulary,
                             std::span<const std::int64_t> documents = {});

// The training documents' features in a basis of the space their rows span, when that is cheaper
// to compute with than the sparse words (few documents with many words each): K = X X^T = U L U^T,
// train = U L^(1/2), and a new document x maps to L^(-1/2) U^T X x. Inner products between the
// training documents and with any new document are those of the word features (the new one
// projected on the span, where a fitted linear predictor's weights lie when their penalty is
// L2): a linear fit on these rows is the fit on the words (the dual form, the representer theorem).
struct ReducedWordFeatures {
  Eigen::MatrixXd train;   // documents x rank
  Eigen::MatrixXd mapper;  // documents x rank: a new document's row = (X x)^T mapper
  Eigen::MatrixXd map(const WordFeatureRows& training, const WordFeatureRows& other) const;
};

// Whether `reduceWordFeatures` pays: documents^2 below the number of nonzero features (each
// pass over the reduced rows then costs less than one over the sparse ones) and few enough
// documents for the eigendecomposition.
bool reducingWordFeaturesPays(const WordFeatureRows& training);

ReducedWordFeatures reduceWordFeatures(const WordFeatureRows& training);

}  // namespace latent::core
