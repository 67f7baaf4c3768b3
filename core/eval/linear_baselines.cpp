// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/eval/linear_baselines.hpp"

#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>

#include <algorithm>
#include <cmath>
#include <numeric>
#include <type_traits>

#include "core/eval/response_metrics.hpp"
#include "core/eval/word_features.hpp"
#include "core/util/lbfgs.hpp"
#include "core/util/random.hpp"

namespace latent::core {
namespace {

constexpr int kBaselineFolds = 5;
// Penalty grids, largest first (each fit starts from the previous one's solution). Ridge's is on
// the summed squared error, the logistic regressions' on the mean log loss.
constexpr double kRidgeLargestLog10 = 3.0, kRidgeSmallestLog10 = -3.0;
constexpr double kLogisticLargestLog10 = -1.0, kLogisticSmallestLog10 = -5.0;
constexpr double kBaselineGridStep = 0.5;
constexpr double kBaselineProbabilityFloor = 1e-15;

std::vector<double> baselinePenaltyGrid(double largestLog10, double smallestLog10) {
  std::vector<double> grid;
  for (double e = largestLog10; e >= smallestLog10 - 1e-9; e -= kBaselineGridStep) grid.push_back(std::pow(10.0, e));
  return grid;
}

LbfgsOptions baselineLbfgsOptions() {
  LbfgsOptions options;
  options.maxIterations = 400;
  options.gradientTolerance = 1e-7;
  return options;
}

// The word features of the training documents that have a truth and of the test documents: the
// sparse words, or their rows in the span of the training documents where that is cheaper.
struct BaselineDesign {
  bool reduced = false;
  WordFeatureRows sparseTrain, sparseTest;
  Eigen::MatrixXd denseTrain, denseTest;

  // f(train, test) on whichever form the features take.
  template <typename F>
  auto visit(F&& f) const {
    return reduced ? f(denseTrain, denseTest) : f(sparseTrain, sparseTest);
  }
};

BaselineDesign baselineDesign(const Corpus& train, const std::vector<std::int64_t>& rows, const Corpus& test,
                              BaselineForm form) {
  BaselineDesign design;
  const std::size_t vocabulary = train.vocabularySize();
  design.sparseTrain = wordFeatures(train, vocabulary, rows);
  design.sparseTest = wordFeatures(test, vocabulary);
  if (form == BaselineForm::Span || (form == BaselineForm::Automatic && reducingWordFeaturesPays(design.sparseTrain))) {
    const ReducedWordFeatures reduced = reduceWordFeatures(design.sparseTrain);
    design.denseTest = reduced.map(design.sparseTrain, design.sparseTest);
    design.denseTrain = reduced.train;
    design.reduced = true;
  }
  return design;
}

Eigen::MatrixXd baselineRows(const Eigen::MatrixXd& m, const std::vector<Eigen::Index>& rows) {
  return m(rows, Eigen::all);
}

WordFeatureRows baselineRows(const WordFeatureRows& m, const std::vector<Eigen::Index>& rows) {
  std::vector<Eigen::Triplet<double>> entries;
  for (std::size_t r = 0; r < rows.size(); ++r)
    for (WordFeatureRows::InnerIterator it(m, rows[r]); it; ++it)
      entries.emplace_back(static_cast<int>(r), static_cast<int>(it.col()), it.value());
  WordFeatureRows out(static_cast<Eigen::Index>(rows.size()), m.cols());
  out.setFromTriplets(entries.begin(), entries.end());
  return out;
}

struct BaselineFold {
  std::vector<Eigen::Index> train, test;
};

// Up to five folds of the n training rows, shuffled by the seed; none when n < 2.
std::vector<BaselineFold> baselineFolds(Eigen::Index n, std::uint64_t seed) {
  if (n < 2) return {};
  const auto k = static_cast<Eigen::Index>(std::min<Eigen::Index>(kBaselineFolds, n));
  std::vector<Eigen::Index> order(static_cast<std::size_t>(n));
  std::iota(order.begin(), order.end(), Eigen::Index{0});
  Rng rng(seed, 0x62617365);  // a stream of its own: "base"
  rng.shuffle(std::span<Eigen::Index>(order));
  std::vector<std::vector<char>> inTest(static_cast<std::size_t>(k), std::vector<char>(static_cast<std::size_t>(n), 0));
  for (std::size_t i = 0; i < order.size(); ++i)
    inTest[i % static_cast<std::size_t>(k)][static_cast<std::size_t>(order[i])] = 1;
  std::vector<BaselineFold> folds(static_cast<std::size_t>(k));
  for (std::size_t f = 0; f < folds.size(); ++f)
    for (Eigen::Index r = 0; r < n; ++r)
      (inTest[f][static_cast<std::size_t>(r)] ? folds[f].test : folds[f].train).push_back(r);
  return folds;
}

// Runs fitFold(fold, losses) for every fold in parallel; losses: a row per grid point, a column per
// outcome whose penalty is chosen on its own (one for a single penalty). Returns the summed losses.
template <typename FitFold>
Eigen::MatrixXd baselineCrossValidate(const std::vector<BaselineFold>& folds, Eigen::Index gridSize,
                                      Eigen::Index outcomes, FitFold&& fitFold) {
  std::vector<Eigen::MatrixXd> losses(folds.size(), Eigen::MatrixXd::Zero(gridSize, outcomes));
  tbb::parallel_for(tbb::blocked_range<std::size_t>(0, folds.size(), 1), [&](const auto& range) {
    for (std::size_t f = range.begin(); f != range.end(); ++f) fitFold(folds[f], losses[f]);
  });
  Eigen::MatrixXd total = Eigen::MatrixXd::Zero(gridSize, outcomes);
  for (const auto& l : losses) total += l;  // in fold order: the same sum on any schedule
  return total;
}

// The grid point with the least loss in each column (the first, i.e. the largest penalty, of equals).
std::vector<double> baselineChosenPenalties(const Eigen::MatrixXd& losses, const std::vector<double>& grid,
                                            double fallback) {
  std::vector<double> chosen(static_cast<std::size_t>(losses.cols()), fallback);
  if (losses.rows() == 0) return chosen;
  for (Eigen::Index c = 0; c < losses.cols(); ++c) {
    Eigen::Index best = 0;
    for (Eigen::Index g = 1; g < losses.rows(); ++g)
      if (losses(g, c) < losses(best, c)) best = g;
    chosen[static_cast<std::size_t>(c)] = grid[static_cast<std::size_t>(best)];
  }
  return chosen;
}

// --- ridge ---------------------------------------------------------------------------------------

struct RidgeFit {
  Eigen::VectorXd weights;
  double intercept = 0.0;
};

// Minimises |y - b - Z w|^2 + lambda |w|^2: with Z and y centred, (Zc^T Zc + lambda) w = Zc^T yc,
// solved by conjugate gradients from fit.weights.
template <typename Matrix>
void ridgeSolve(const Matrix& z, const Eigen::VectorXd& y, double lambda, RidgeFit& fit) {
  const auto n = static_cast<double>(z.rows());
  const Eigen::VectorXd mean = (z.transpose() * Eigen::VectorXd::Ones(z.rows())) / n;
  const double yMean = y.mean();
  const Eigen::VectorXd centred = y.array() - yMean;
  const Eigen::VectorXd rhs = z.transpose() * centred;  // Zc^T yc: yc sums to zero
  Eigen::VectorXd projected(z.rows());
  auto multiply = [&](const Eigen::VectorXd& v, Eigen::VectorXd& out) {
    projected.noalias() = z * v;
    projected.array() -= mean.dot(v);
    out.noalias() = z.transpose() * projected;
    out -= mean * projected.sum();
    out += lambda * v;
  };
  if (fit.weights.size() != z.cols()) fit.weights = Eigen::VectorXd::Zero(z.cols());
  solveConjugateGradient(multiply, rhs, fit.weights, 1e-10, 5000);
  fit.intercept = yMean - mean.dot(fit.weights);
}

template <typename Matrix>
Eigen::VectorXd ridgeCrossValidated(const Matrix& train, const Eigen::VectorXd& y, const Matrix& test,
                                    std::uint64_t seed) {
  const auto grid = baselinePenaltyGrid(kRidgeLargestLog10, kRidgeSmallestLog10);
  const auto folds = baselineFolds(train.rows(), seed);
  const Eigen::MatrixXd losses = baselineCrossValidate(
      folds, static_cast<Eigen::Index>(grid.size()), 1, [&](const BaselineFold& fold, Eigen::MatrixXd& loss) {
        const Matrix z = baselineRows(train, fold.train);
        const Matrix held = baselineRows(train, fold.test);
        const Eigen::VectorXd yTrain = y(fold.train), yHeld = y(fold.test);
        RidgeFit fit;
        for (std::size_t g = 0; g < grid.size(); ++g) {
          ridgeSolve(z, yTrain, grid[g], fit);
          loss(static_cast<Eigen::Index>(g), 0) =
              ((held * fit.weights).array() + fit.intercept - yHeld.array()).square().sum();
        }
      });
  RidgeFit fit;
  ridgeSolve(train, y, baselineChosenPenalties(folds.empty() ? Eigen::MatrixXd() : losses, grid, 1.0)[0], fit);
  return (test * fit.weights).array() + fit.intercept;
}

// --- logistic regressions ------------------------------------------------------------------------

using BaselineRows = Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;

// out = Z W, W (features x outcomes) column-major in theta. With sparse word rows it goes through a
// row-major copy of W, so that each nonzero of Z adds a contiguous row of W: the strided rows of
// theta's layout took most of a labeled-LDA fit's time in its baselines. The sums run in the same
// order either way.
template <typename Matrix>
void baselineProduct(const Matrix& z, const Eigen::Map<const Eigen::MatrixXd>& w, BaselineRows& wRows,
                     BaselineRows& out) {
  if constexpr (std::is_same_v<Matrix, WordFeatureRows>) {
    wRows = w;
    out.noalias() = z * wRows;
  } else {
    out.noalias() = z * w;
  }
}

// g = Z^T R (features x outcomes, column-major in the gradient), by way of row-major rows likewise.
template <typename Matrix>
void baselineTransposeProduct(const Matrix& z, const BaselineRows& r, BaselineRows& gRows,
                              Eigen::Map<Eigen::MatrixXd>& g) {
  if constexpr (std::is_same_v<Matrix, WordFeatureRows>) {
    gRows.noalias() = z.transpose() * r;
    g = gRows;
  } else {
    g.noalias() = z.transpose() * r;
  }
}

// Mean log loss of softmax(Z W + b) for classes y, plus lambda/2 |W|^2; parameters W (features x
// classes, column-major) then b.
template <typename Matrix>
struct SoftmaxBaselineObjective {
  const Matrix& z;
  const std::vector<std::int32_t>& y;
  Eigen::Index classes;
  double lambda;
  BaselineRows logits{}, residuals{}, wRows{}, gRows{};  // scratch, kept between evaluations

  double operator()(const Eigen::VectorXd& theta, Eigen::VectorXd& gradient) {
    const Eigen::Index p = z.cols(), n = z.rows();
    const Eigen::Map<const Eigen::MatrixXd> w(theta.data(), p, classes);
    baselineProduct(z, w, wRows, logits);
    logits.rowwise() += theta.tail(classes).transpose();
    residuals.resize(n, classes);
    double loss = 0.0;
    for (Eigen::Index i = 0; i < n; ++i) {
      const double top = logits.row(i).maxCoeff();
      const double lse = top + std::log((logits.row(i).array() - top).exp().sum());
      loss += lse - logits(i, y[static_cast<std::size_t>(i)]);
      residuals.row(i) = (logits.row(i).array() - lse).exp();
      residuals(i, y[static_cast<std::size_t>(i)]) -= 1.0;
    }
    const double scale = 1.0 / static_cast<double>(n);
    Eigen::Map<Eigen::MatrixXd> gw(gradient.data(), p, classes);
    baselineTransposeProduct(z, residuals, gRows, gw);
    gw = gw * scale + lambda * w;
    gradient.tail(classes) = residuals.colwise().sum().transpose() * scale;
    return loss * scale + 0.5 * lambda * w.squaredNorm();
  }
};

// Mean over documents of the summed binary log losses of sigmoid(Z W + b) for the 0/1 targets y
// (documents x labels), plus lambda_l/2 |w_l|^2 per label; parameters as above.
template <typename Matrix>
struct BinaryBaselineObjective {
  const Matrix& z;
  const Eigen::MatrixXd& y;
  Eigen::VectorXd lambdas;
  BaselineRows logits{}, residuals{}, wRows{}, gRows{};  // scratch, kept between evaluations

  double operator()(const Eigen::VectorXd& theta, Eigen::VectorXd& gradient) {
    const Eigen::Index p = z.cols(), n = z.rows(), labels = y.cols();
    const Eigen::Map<const Eigen::MatrixXd> w(theta.data(), p, labels);
    baselineProduct(z, w, wRows, logits);
    logits.rowwise() += theta.tail(labels).transpose();
    residuals.resize(n, labels);
    double loss = 0.0;
    for (Eigen::Index l = 0; l < labels; ++l)
      for (Eigen::Index i = 0; i < n; ++i) {
        const double t = logits(i, l);
        const double softplus = t > 0.0 ? t + std::log1p(std::exp(-t)) : std::log1p(std::exp(t));
        loss += softplus - y(i, l) * t;
        residuals(i, l) = 1.0 / (1.0 + std::exp(-t)) - y(i, l);
      }
    const double scale = 1.0 / static_cast<double>(n);
    Eigen::Map<Eigen::MatrixXd> gw(gradient.data(), p, labels);
    baselineTransposeProduct(z, residuals, gRows, gw);
    gw = gw * scale + w * lambdas.asDiagonal();
    gradient.tail(labels) = residuals.colwise().sum().transpose() * scale;
    return loss * scale + 0.5 * (w.colwise().squaredNorm().transpose().array() * lambdas.array()).sum();
  }
};

Eigen::MatrixXd softmaxRows(Eigen::MatrixXd logits) {
  for (Eigen::Index i = 0; i < logits.rows(); ++i) {
    logits.row(i).array() -= logits.row(i).maxCoeff();
    logits.row(i) = logits.row(i).array().exp();
    logits.row(i) /= logits.row(i).sum();
  }
  return logits;
}

template <typename Matrix>
Eigen::MatrixXd baselineLogits(const Matrix& z, const Eigen::VectorXd& theta, Eigen::Index outcomes) {
  const Eigen::Map<const Eigen::MatrixXd> w(theta.data(), z.cols(), outcomes);
  Eigen::MatrixXd logits = z * w;
  logits.rowwise() += theta.tail(outcomes).transpose();
  return logits;
}

template <typename Matrix>
Eigen::MatrixXd softmaxCrossValidated(const Matrix& train, const std::vector<std::int32_t>& y, Eigen::Index classes,
                                      const Matrix& test, std::uint64_t seed) {
  const auto grid = baselinePenaltyGrid(kLogisticLargestLog10, kLogisticSmallestLog10);
  const auto folds = baselineFolds(train.rows(), seed);
  const Eigen::Index parameters = (train.cols() + 1) * classes;
  const Eigen::MatrixXd losses = baselineCrossValidate(
      folds, static_cast<Eigen::Index>(grid.size()), 1, [&](const BaselineFold& fold, Eigen::MatrixXd& loss) {
        const Matrix z = baselineRows(train, fold.train);
        const Matrix held = baselineRows(train, fold.test);
        std::vector<std::int32_t> yTrain;
        for (const auto r : fold.train) yTrain.push_back(y[static_cast<std::size_t>(r)]);
        Eigen::VectorXd theta = Eigen::VectorXd::Zero(parameters);
        SoftmaxBaselineObjective<Matrix> objective{z, yTrain, classes, 0.0};
        for (std::size_t g = 0; g < grid.size(); ++g) {
          objective.lambda = grid[g];
          minimizeLbfgs(objective, theta, baselineLbfgsOptions());
          const Eigen::MatrixXd p = softmaxRows(baselineLogits(held, theta, classes));
          for (std::size_t i = 0; i < fold.test.size(); ++i)
            loss(static_cast<Eigen::Index>(g), 0) -= std::log(std::max(
                p(static_cast<Eigen::Index>(i), y[static_cast<std::size_t>(fold.test[i])]), kBaselineProbabilityFloor));
        }
      });
  Eigen::VectorXd theta = Eigen::VectorXd::Zero(parameters);
  SoftmaxBaselineObjective<Matrix> objective{
      train, y, classes, baselineChosenPenalties(folds.empty() ? Eigen::MatrixXd() : losses, grid, 1e-2)[0]};
  minimizeLbfgs(objective, theta, baselineLbfgsOptions());
  return softmaxRows(baselineLogits(test, theta, classes));
}

template <typename Matrix>
Eigen::MatrixXd binaryCrossValidated(const Matrix& train, const Eigen::MatrixXd& y, const Matrix& test,
                                     std::uint64_t seed) {
  const auto grid = baselinePenaltyGrid(kLogisticLargestLog10, kLogisticSmallestLog10);
  const auto folds = baselineFolds(train.rows(), seed);
  const Eigen::Index labels = y.cols();
  const Eigen::Index parameters = (train.cols() + 1) * labels;
  const Eigen::MatrixXd losses = baselineCrossValidate(
      folds, static_cast<Eigen::Index>(grid.size()), labels, [&](const BaselineFold& fold, Eigen::MatrixXd& loss) {
        const Matrix z = baselineRows(train, fold.train);
        const Matrix held = baselineRows(train, fold.test);
        const Eigen::MatrixXd yTrain = y(fold.train, Eigen::all), yHeld = y(fold.test, Eigen::all);
        Eigen::VectorXd theta = Eigen::VectorXd::Zero(parameters);
        BinaryBaselineObjective<Matrix> objective{z, yTrain, Eigen::VectorXd(labels)};
        for (std::size_t g = 0; g < grid.size(); ++g) {
          objective.lambdas.setConstant(grid[g]);
          minimizeLbfgs(objective, theta, baselineLbfgsOptions());
          const Eigen::ArrayXXd p = 1.0 / (1.0 + (-baselineLogits(held, theta, labels)).array().exp());
          const Eigen::ArrayXXd likelihood = yHeld.array() * p + (1.0 - yHeld.array()) * (1.0 - p);
          loss.row(static_cast<Eigen::Index>(g)) =
              -likelihood.max(kBaselineProbabilityFloor).log().colwise().sum().matrix();
        }
      });
  const auto chosen = baselineChosenPenalties(folds.empty() ? Eigen::MatrixXd(0, labels) : losses, grid, 1e-2);
  Eigen::VectorXd theta = Eigen::VectorXd::Zero(parameters);
  BinaryBaselineObjective<Matrix> objective{train, y, Eigen::Map<const Eigen::VectorXd>(chosen.data(), labels)};
  minimizeLbfgs(objective, theta, baselineLbfgsOptions());
  return (1.0 / (1.0 + (-baselineLogits(test, theta, labels)).array().exp())).matrix();
}

}  // namespace

Eigen::VectorXd ridgePredictions(const Corpus& train, std::span<const double> truth, const Corpus& test,
                                 std::uint64_t seed, BaselineForm form) {
  std::vector<std::int64_t> rows;
  std::vector<double> values;
  for (std::size_t d = 0; d < truth.size() && d < train.documentCount(); ++d)
    if (!std::isnan(truth[d])) {
      rows.push_back(static_cast<std::int64_t>(d));
      values.push_back(truth[d]);
    }
  const auto testDocuments = static_cast<Eigen::Index>(test.documentCount());
  if (rows.empty()) return Eigen::VectorXd::Zero(testDocuments);
  const Eigen::VectorXd y = Eigen::Map<const Eigen::VectorXd>(values.data(), static_cast<Eigen::Index>(values.size()));
  const BaselineDesign design = baselineDesign(train, rows, test, form);
  return design.visit(
      [&](const auto& z, const auto& zTest) -> Eigen::VectorXd { return ridgeCrossValidated(z, y, zTest, seed); });
}

Eigen::MatrixXd logisticProbabilities(const Corpus& train, std::span<const std::int32_t> truth, int classes,
                                      const Corpus& test, std::uint64_t seed, BaselineForm form) {
  const auto testDocuments = static_cast<Eigen::Index>(test.documentCount());
  if (classes <= 0) return Eigen::MatrixXd(testDocuments, 0);
  std::vector<std::int64_t> rows;
  std::vector<std::int32_t> codes;
  for (std::size_t d = 0; d < truth.size() && d < train.documentCount(); ++d)
    if (truth[d] >= 0 && truth[d] < classes) {
      rows.push_back(static_cast<std::int64_t>(d));
      codes.push_back(truth[d]);
    }
  if (rows.empty()) return Eigen::MatrixXd::Constant(testDocuments, classes, 1.0 / classes);
  const BaselineDesign design = baselineDesign(train, rows, test, form);
  return design.visit([&](const auto& z, const auto& zTest) -> Eigen::MatrixXd {
    return softmaxCrossValidated(z, codes, classes, zTest, seed);
  });
}

Eigen::MatrixXd oneVsRestScores(const Corpus& train, const std::vector<std::vector<std::int32_t>>& truth, int labels,
                                const Corpus& test, std::uint64_t seed, BaselineForm form) {
  const auto testDocuments = static_cast<Eigen::Index>(test.documentCount());
  if (labels <= 0) return Eigen::MatrixXd(testDocuments, 0);
  std::vector<std::int64_t> rows;
  for (std::size_t d = 0; d < truth.size() && d < train.documentCount(); ++d)
    if (!truth[d].empty()) rows.push_back(static_cast<std::int64_t>(d));
  if (rows.empty()) return Eigen::MatrixXd::Zero(testDocuments, labels);
  Eigen::MatrixXd y = Eigen::MatrixXd::Zero(static_cast<Eigen::Index>(rows.size()), labels);
  for (std::size_t r = 0; r < rows.size(); ++r)
    for (const auto l : truth[static_cast<std::size_t>(rows[r])])
      if (l >= 0 && l < labels) y(static_cast<Eigen::Index>(r), l) = 1.0;
  const BaselineDesign design = baselineDesign(train, rows, test, form);
  return design.visit(
      [&](const auto& z, const auto& zTest) -> Eigen::MatrixXd { return binaryCrossValidated(z, y, zTest, seed); });
}

Eigen::VectorXd meanPredictions(std::span<const double> truth, std::size_t testDocuments) {
  double sum = 0.0, count = 0.0;
  for (const double v : truth)
    if (!std::isnan(v)) {
      sum += v;
      count += 1.0;
    }
  return Eigen::VectorXd::Constant(static_cast<Eigen::Index>(testDocuments), count > 0.0 ? sum / count : 0.0);
}

Eigen::MatrixXd majorityProbabilities(std::span<const std::int32_t> truth, int classes, std::size_t testDocuments) {
  Eigen::RowVectorXd counts = Eigen::RowVectorXd::Ones(std::max(classes, 0));
  for (const auto c : truth)
    if (c >= 0 && c < classes) counts[c] += 1.0;
  if (classes > 0) counts /= counts.sum();
  return counts.replicate(static_cast<Eigen::Index>(testDocuments), 1);
}

Eigen::MatrixXd labelFrequencyScores(const std::vector<std::vector<std::int32_t>>& truth, int labels,
                                     std::size_t testDocuments) {
  Eigen::RowVectorXd shares = Eigen::RowVectorXd::Zero(std::max(labels, 0));
  double documents = 0.0;
  for (const auto& set : truth) {
    if (set.empty()) continue;
    documents += 1.0;
    for (const auto l : set)
      if (l >= 0 && l < labels) shares[l] += 1.0;
  }
  if (documents > 0.0) shares /= documents;
  return shares.replicate(static_cast<Eigen::Index>(testDocuments), 1);
}

void addBaselineScores(nlohmann::json& metrics, const Corpus& train, const DocumentField& trainField,
                       const Corpus& test, std::uint64_t seed, bool regression) {
  const DocumentField testField = documentFieldLike(test, trainField);
  const std::size_t testDocuments = test.documentCount();
  const auto categories = static_cast<int>(trainField.categories.size());
  switch (trainField.kind) {
    case FieldKind::Numeric:
      addScores(metrics, scoreNumeric(meanPredictions(trainField.numbers, testDocuments), testField.numbers), "mean");
      if (!regression) break;
      addScores(metrics, scoreNumeric(ridgePredictions(train, trainField.numbers, test, seed), testField.numbers),
                "ridge");
      break;
    case FieldKind::Categorical:
      addScores(metrics,
                scoreClasses(majorityProbabilities(trainField.codes, categories, testDocuments), testField.codes),
                "majority");
      if (!regression) break;
      addScores(metrics,
                scoreClasses(logisticProbabilities(train, trainField.codes, categories, test, seed), testField.codes),
                "logistic");
      break;
    default:
      addScores(metrics,
                scoreLabelSets(labelFrequencyScores(trainField.sets, categories, testDocuments), testField.sets),
                "frequency");
      if (!regression) break;
      addScores(metrics,
                scoreLabelSets(oneVsRestScores(train, trainField.sets, categories, test, seed), testField.sets),
                "logistic");
      break;
  }
}

}  // namespace latent::core
