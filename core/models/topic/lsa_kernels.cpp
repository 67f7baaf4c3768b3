// SPDX-License-Identifier: GPL-3.0-or-later
// LSA kernels: term weights, the Gram-matrix operator of a sparse X for Spectra's Lanczos solver,
// the truncated SVD assembled from its eigenpairs, and projections of new documents.
#include "core/models/topic/lsa_kernels.hpp"

#include <Spectra/SymEigsSolver.h>
#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>

namespace latent::core::topic {
namespace {

// Thrown from inside the Lanczos iterations when a stop is requested: Spectra has no other way out.
struct LsaStopped {};

// Documents per parallel task in the products, a count fixed by the data alone.
constexpr std::int64_t kLsaDocumentsPerTask = 256;

// t = X x (one value per document) for x over the words.
void timesMatrix(const DocWordCounts& counts, const std::vector<double>& values, const double* x, double* t) {
  const auto D = static_cast<std::int64_t>(counts.documents());
  tbb::parallel_for(tbb::blocked_range<std::int64_t>(0, D, kLsaDocumentsPerTask),
                    [&](const tbb::blocked_range<std::int64_t>& range) {
                      for (auto d = range.begin(); d < range.end(); ++d) {
                        double sum = 0.0;
                        for (auto e = static_cast<std::size_t>(counts.docStart[static_cast<std::size_t>(d)]);
                             e < static_cast<std::size_t>(counts.docStart[static_cast<std::size_t>(d) + 1]); ++e)
                          sum += values[e] * x[counts.words[e]];
                        t[d] = sum;
                      }
                    });
}

// y = X^T t (one value per word) for t over the documents, word by word through the word-major index.
void timesTranspose(const DocWordCounts& counts, const std::vector<double>& values, const double* t, double* y) {
  tbb::parallel_for(tbb::blocked_range<std::int64_t>(0, counts.vocabulary, 256),
                    [&](const tbb::blocked_range<std::int64_t>& range) {
                      for (auto v = range.begin(); v < range.end(); ++v) {
                        double sum = 0.0;
                        for (auto i = counts.wordStart[static_cast<std::size_t>(v)];
                             i < counts.wordStart[static_cast<std::size_t>(v) + 1]; ++i)
                          sum += values[static_cast<std::size_t>(counts.wordEntry[static_cast<std::size_t>(i)])] *
                                 t[counts.wordDoc[static_cast<std::size_t>(i)]];
                        y[v] = sum;
                      }
                    });
}

// The smaller of X^T X (over words) and X X^T (over documents), applied as two sparse products.
class LsaGramOperator {
 public:
  using Scalar = double;
  LsaGramOperator(const DocWordCounts& counts, const std::vector<double>& values, std::stop_token stop)
      : m_counts(counts),
        m_values(values),
        m_stop(std::move(stop)),
        m_overWords(counts.vocabulary <= static_cast<std::int64_t>(counts.documents())),
        m_between(m_overWords ? static_cast<Eigen::Index>(counts.documents())
                              : static_cast<Eigen::Index>(counts.vocabulary)) {}

  bool overWords() const noexcept { return m_overWords; }
  Eigen::Index rows() const {
    return m_overWords ? static_cast<Eigen::Index>(m_counts.vocabulary)
                       : static_cast<Eigen::Index>(m_counts.documents());
  }
  Eigen::Index cols() const { return rows(); }
  void perform_op(const double* x, double* y) const {
    if (m_stop.stop_requested()) throw LsaStopped{};
    if (m_overWords) {
      timesMatrix(m_counts, m_values, x, m_between.data());
      timesTranspose(m_counts, m_values, m_between.data(), y);
    } else {
      timesTranspose(m_counts, m_values, x, m_between.data());
      timesMatrix(m_counts, m_values, m_between.data(), y);
    }
  }

 private:
  const DocWordCounts& m_counts;
  const std::vector<double>& m_values;
  std::stop_token m_stop;
  bool m_overWords;
  mutable Eigen::VectorXd m_between;
};

}  // namespace

Eigen::VectorXd lsaTermWeights(const DocWordCounts& counts, LsaWeighting weighting) {
  Eigen::VectorXd weights = Eigen::VectorXd::Ones(counts.vocabulary);
  if (weighting == LsaWeighting::Count) return weights;
  const double D = static_cast<double>(counts.documents());
  for (std::int64_t v = 0; v < counts.vocabulary; ++v) {
    const auto df = counts.wordStart[static_cast<std::size_t>(v) + 1] - counts.wordStart[static_cast<std::size_t>(v)];
    weights[v] = df > 0 ? std::log(D / static_cast<double>(df)) : 0.0;
  }
  return weights;
}

std::vector<double> lsaWeightedValues(const DocWordCounts& counts, const Eigen::VectorXd& termWeights) {
  std::vector<double> values(counts.entries());
  for (std::size_t e = 0; e < values.size(); ++e) values[e] = counts.counts[e] * termWeights[counts.words[e]];
  return values;
}

std::optional<TruncatedSvd> truncatedSvd(const DocWordCounts& counts, const std::vector<double>& values, Eigen::Index K,
                                         double tolerance, int maxRestarts, std::stop_token stop) {
  LsaGramOperator gram(counts, values, stop);
  const Eigen::Index n = gram.rows();
  const Eigen::Index ncv = std::min(n, std::max<Eigen::Index>(2 * K + 1, 20));
  Spectra::SymEigsSolver<LsaGramOperator> eigs(gram, K, ncv);
  TruncatedSvd out;
  try {
    eigs.init();
    eigs.compute(Spectra::SortRule::LargestAlge, maxRestarts, tolerance);
  } catch (const LsaStopped&) {
    return std::nullopt;
  }
  if (eigs.info() != Spectra::CompInfo::Successful)
    throw std::runtime_error("the Lanczos solver did not converge in " + std::to_string(maxRestarts) +
                             " restarts; raise --max-restarts or --tolerance");
  out.products = eigs.num_operations();
  const Eigen::VectorXd eigenvalues = eigs.eigenvalues();  // largest first
  const Eigen::MatrixXd eigenvectors = eigs.eigenvectors();
  out.singularValues = eigenvalues.cwiseMax(0.0).cwiseSqrt();

  // The other side: X^T u_k / s_k or X w_k / s_k, one column at a time.
  const auto D = static_cast<Eigen::Index>(counts.documents());
  const auto V = static_cast<Eigen::Index>(counts.vocabulary);
  Eigen::MatrixXd other(gram.overWords() ? D : V, K);
  for (Eigen::Index k = 0; k < K; ++k) {
    if (stop.stop_requested()) return std::nullopt;
    Eigen::VectorXd column(other.rows());
    if (gram.overWords())
      timesMatrix(counts, values, eigenvectors.col(k).data(), column.data());
    else
      timesTranspose(counts, values, eigenvectors.col(k).data(), column.data());
    const double s = out.singularValues[k];
    other.col(k) =
        s > 1e-12 * std::max(1.0, out.singularValues[0]) ? (column / s).eval() : Eigen::VectorXd::Zero(other.rows());
  }
  out.wordVectors = gram.overWords() ? eigenvectors : other;
  out.docVectors = gram.overWords() ? other : eigenvectors;
  // Signs: each component's largest word entry positive (a singular pair is defined up to a sign).
  for (Eigen::Index k = 0; k < K; ++k) {
    Eigen::Index top = 0;
    out.wordVectors.col(k).cwiseAbs().maxCoeff(&top);
    if (out.wordVectors(top, k) < 0) {
      out.wordVectors.col(k) *= -1.0;
      out.docVectors.col(k) *= -1.0;
    }
  }
  return out;
}

Eigen::VectorXd lsaProject(std::span<const std::int32_t> words, const Eigen::VectorXd& termWeights,
                           const Eigen::MatrixXd& wordVectors) {
  Eigen::VectorXd coordinates = Eigen::VectorXd::Zero(wordVectors.cols());
  for (const auto v : words) coordinates += termWeights[v] * wordVectors.row(v).transpose();
  return coordinates;
}

double lsaSquaredNorm(std::span<const std::int32_t> words, const Eigen::VectorXd& termWeights) {
  std::vector<std::int32_t> sorted(words.begin(), words.end());
  std::sort(sorted.begin(), sorted.end());
  double sum = 0.0;
  for (std::size_t i = 0; i < sorted.size();) {
    std::size_t j = i;
    while (j < sorted.size() && sorted[j] == sorted[i]) ++j;
    const double value = static_cast<double>(j - i) * termWeights[sorted[i]];
    sum += value * value;
    i = j;
  }
  return sum;
}

}  // namespace latent::core::topic
