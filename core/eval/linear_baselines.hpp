// SPDX-License-Identifier: GPL-3.0-or-later
// Baselines for held-out prediction of a document's response, class or labels from its words
// alone, beside which a model of text with side information (slda, labeled-lda, dcatpca) reports
// its own scores (core/eval/response_metrics.hpp): a trivial one (the training mean, the
// majority class, the label frequencies) and a linear one on word features
// (core/eval/word_features.hpp: log(1 + count), unit length per document): ridge regression
// (Hoerl & Kennard 1970), multinomial logistic regression, one-vs-rest logistic regressions, each
// with an L2 penalty chosen by 5-fold cross-validation on the training documents (folds seeded).
// The intercepts are not penalised. Documents with a missing truth are left out of training.
//
// Ridge minimises sum (y - b - w.x)^2 + lambda |w|^2 by conjugate gradients; the logistic
// regressions minimise the mean log loss + lambda/2 |W|^2 by L-BFGS (core/util/lbfgs.hpp). With
// fewer documents than words, and few enough nonzero features per document, both work in the
// span of the training documents (the dual), where the fit is the same and cheaper. The penalty
// is chosen on a log grid by the cross-validated squared error (ridge), log loss (multinomial),
// or each label's own log loss (one-vs-rest: a penalty per label). Folds run in parallel (oneTBB);
// the result depends on the seed only.
#pragma once

#include <Eigen/Core>
#include <cstdint>
#include <nlohmann/json.hpp>
#include <span>
#include <vector>

#include "core/data/corpus.hpp"
#include "core/data/document_fields.hpp"

namespace latent::core {

// Which form of the word features a fit works in: the automatic choice (reducingWordFeaturesPays),
// or one of the two, which give the same fit (tests compare them).
enum class BaselineForm { Automatic, Words, Span };

// Ridge regression's prediction for each document of `test`; truth has one value per training
// document (NaN: left out). Zeros when no training document has a value.
Eigen::VectorXd ridgePredictions(const Corpus& train, std::span<const double> truth, const Corpus& test,
                                 std::uint64_t seed, BaselineForm form = BaselineForm::Automatic);

// Multinomial logistic regression: test documents x classes, rows summing to one; truth codes in
// [0, classes), -1 left out. Uniform rows when no training document has a class.
Eigen::MatrixXd logisticProbabilities(const Corpus& train, std::span<const std::int32_t> truth, int classes,
                                      const Corpus& test, std::uint64_t seed,
                                      BaselineForm form = BaselineForm::Automatic);

// One binary logistic regression per label: test documents x labels, each entry the probability
// that the document has the label. Training documents with an empty set are left out.
Eigen::MatrixXd oneVsRestScores(const Corpus& train, const std::vector<std::vector<std::int32_t>>& truth, int labels,
                                const Corpus& test, std::uint64_t seed, BaselineForm form = BaselineForm::Automatic);

// The trivial baselines: the training mean; each class's training frequency (plus one) for every
// document (the majority class predicted); each label's share of the training documents.
Eigen::VectorXd meanPredictions(std::span<const double> truth, std::size_t testDocuments);
Eigen::MatrixXd majorityProbabilities(std::span<const std::int32_t> truth, int classes, std::size_t testDocuments);
Eigen::MatrixXd labelFrequencyScores(const std::vector<std::vector<std::int32_t>>& truth, int labels,
                                     std::size_t testDocuments);

// Everything at once for a field: scores the trivial and (when `regression`) the linear baseline of
// the field's kind on `test` (coded like `trainField`) and adds their baseline_ keys: numeric "mean"
// and "ridge", categorical "majority" and "logistic", label sets "frequency" and "logistic".
void addBaselineScores(nlohmann::json& metrics, const Corpus& train, const DocumentField& trainField,
                       const Corpus& test, std::uint64_t seed, bool regression);

}  // namespace latent::core
