// SPDX-License-Identifier: GPL-3.0-or-later
// sLDA kernels (see the header for the updates): a document's E step with its response term, its
// bound, the E step over a corpus, the Gaussian and categorical M steps of the response, and
// prediction from the text alone.
#include "core/models/topic/slda_kernels.hpp"

#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>

#include <Eigen/Cholesky>
#include <algorithm>
#include <cmath>
#include <limits>
#include <numbers>

#include "core/util/log_sum_exp.hpp"
#include "core/util/special_functions.hpp"

namespace latent::core::topic {
namespace {

// Fixed block of documents for reductions: summed block by block in order, so the numbers do not
// depend on the thread count.
constexpr std::size_t kSldaDocumentBlock = 32;

void sldaElogTheta(const Eigen::Ref<const Eigen::VectorXd>& gamma, Eigen::VectorXd& out) {
  const double psiSum = digamma(gamma.sum());
  out.resize(gamma.size());
  for (Eigen::Index k = 0; k < gamma.size(); ++k) out[k] = digamma(gamma[k]) - psiSum;
}

// exp(eta_c / N) for every class (K x C) and log prod_n (phi_n^T exp(eta_c / N)) (C).
void sldaClassProducts(std::span<const double> counts, const Eigen::MatrixXd& eta, double length,
                       const Eigen::Ref<const Eigen::MatrixXd>& phi, Eigen::MatrixXd& expEta, Eigen::VectorXd& logP) {
  expEta = (eta.array() / length).exp();
  logP = Eigen::VectorXd::Zero(eta.cols());
  for (Eigen::Index i = 0; i < phi.cols(); ++i)
    logP += counts[static_cast<std::size_t>(i)] * (expEta.transpose() * phi.col(i)).array().log().matrix();
}

double sldaLength(std::span<const double> counts) {
  double n = 0.0;
  for (const double c : counts) n += c;
  return n;
}

}  // namespace

void SldaDocuments::reset(const DocumentWordCounts& docs, const Eigen::VectorXd& alpha) {
  const auto K = alpha.size();
  phi = Eigen::MatrixXd::Constant(K, static_cast<Eigen::Index>(docs.entryCount()), 1.0 / static_cast<double>(K));
  gammas.resize(K, static_cast<Eigen::Index>(docs.documentCount()));
  for (std::size_t d = 0; d < docs.documentCount(); ++d)
    gammas.col(static_cast<Eigen::Index>(d)) = alpha.array() + docs.lengths[d] / static_cast<double>(K);
  bounds.assign(docs.documentCount(), 0.0);
  passes.assign(docs.documentCount(), 0);
}

int sldaDocumentEStep(std::span<const std::int32_t> words, std::span<const double> counts,
                      const Eigen::MatrixXd& elogBeta, const Eigen::VectorXd& alpha, const SldaResponseModel& response,
                      const SldaTarget& target, Eigen::Ref<Eigen::MatrixXd> phi, Eigen::Ref<Eigen::VectorXd> gamma,
                      const SldaEStepControl& control) {
  const auto K = alpha.size();
  const auto n = static_cast<Eigen::Index>(words.size());
  const double N = sldaLength(counts);
  if (n == 0 || N <= 0.0) {
    gamma = alpha;
    return 0;
  }
  const bool gaussian = target.present && !response.categorical;
  const bool categorical = target.present && response.categorical;
  Eigen::VectorXd elogTheta(K), logp(K), old(K), next(K), total = Eigen::VectorXd::Zero(K);
  for (Eigen::Index i = 0; i < n; ++i) total += counts[static_cast<std::size_t>(i)] * phi.col(i);
  // Gaussian: the linear term (y / (N sigma^2)) eta - eta o eta / (2 N^2 sigma^2) and the weight of
  // (eta^T phi_{-n}) eta.
  Eigen::VectorXd linear, eta;
  double cross = 0.0;
  if (gaussian) {
    eta = response.eta.col(0);
    const double s2 = response.sigma2;
    linear = (target.value / (N * s2)) * eta - eta.cwiseProduct(eta) / (2.0 * N * N * s2);
    cross = 1.0 / (N * N * s2);
  }
  Eigen::MatrixXd expEta;
  Eigen::VectorXd logP, ratio, before, after;
  if (categorical) sldaClassProducts(counts, response.eta, N, phi, expEta, logP);

  int pass = 0;
  for (pass = 1; pass <= std::max(1, control.maxIterations); ++pass) {
    sldaElogTheta(gamma, elogTheta);
    for (Eigen::Index i = 0; i < n; ++i) {
      const double c = counts[static_cast<std::size_t>(i)];
      old = phi.col(i);
      logp = elogTheta + elogBeta.col(words[static_cast<std::size_t>(i)]);
      if (gaussian) logp += linear - (cross * eta.dot(total - old)) * eta;
      if (categorical) {
        // h / (h^T phi_old): each class's product without this token, over all classes' totals.
        before = expEta.transpose() * old;
        ratio = (logP.array() - logSumExp(logP)).exp() / before.array();
        logp += response.eta.col(target.category) / N - expEta * ratio;
      }
      next = (logp.array() - logp.maxCoeff()).exp();
      next /= next.sum();
      phi.col(i) = next;
      total += c * (next - old);
      if (categorical) {
        after = expEta.transpose() * next;
        logP += c * (after.array().log() - before.array().log()).matrix();
      }
    }
    next = alpha + total;
    const double change = (next - gamma).cwiseAbs().mean();
    gamma = next;
    if (change < control.tolerance) break;
  }
  return std::min(pass, std::max(1, control.maxIterations));
}

double sldaDocumentBound(std::span<const std::int32_t> words, std::span<const double> counts,
                         const Eigen::MatrixXd& elogBeta, const Eigen::VectorXd& alpha,
                         const SldaResponseModel& response, const SldaTarget& target,
                         const Eigen::Ref<const Eigen::MatrixXd>& phi, const Eigen::Ref<const Eigen::VectorXd>& gamma) {
  const auto K = alpha.size();
  Eigen::VectorXd elogTheta;
  sldaElogTheta(gamma, elogTheta);
  double bound = logGamma(alpha.sum()) - logGamma(gamma.sum());
  for (Eigen::Index k = 0; k < K; ++k)
    bound += logGamma(gamma[k]) - logGamma(alpha[k]) + (alpha[k] - gamma[k]) * elogTheta[k];
  Eigen::VectorXd total = Eigen::VectorXd::Zero(K);
  for (Eigen::Index i = 0; i < phi.cols(); ++i) {
    const double c = counts[static_cast<std::size_t>(i)];
    const auto w = words[static_cast<std::size_t>(i)];
    for (Eigen::Index k = 0; k < K; ++k) {
      const double p = phi(k, i);
      if (p > 0.0) bound += c * p * (elogTheta[k] + elogBeta(k, w) - std::log(p));
    }
    total += c * phi.col(i);
  }
  const double N = sldaLength(counts);
  if (!target.present || N <= 0.0) return bound;
  if (!response.categorical) {
    const Eigen::VectorXd eta = response.eta.col(0);
    // eta^T E[zbar zbar^T] eta with the tokens of a word sharing one phi.
    double quadratic = eta.dot(total) * eta.dot(total) + eta.cwiseProduct(eta).dot(total);
    for (Eigen::Index i = 0; i < phi.cols(); ++i) {
      const double e = eta.dot(phi.col(i));
      quadratic -= counts[static_cast<std::size_t>(i)] * e * e;
    }
    quadratic /= N * N;
    const double y = target.value;
    bound += -0.5 * std::log(2.0 * std::numbers::pi * response.sigma2) -
             (y * y - 2.0 * y * eta.dot(total) / N + quadratic) / (2.0 * response.sigma2);
    return bound;
  }
  Eigen::MatrixXd expEta;
  Eigen::VectorXd logP;
  sldaClassProducts(counts, response.eta, N, phi, expEta, logP);
  return bound + response.eta.col(target.category).dot(total) / N - logSumExp(logP);
}

bool sldaCorpusEStep(const DocumentWordCounts& docs, const Eigen::MatrixXd& elogBeta, const Eigen::VectorXd& alpha,
                     const SldaResponseModel& response, std::span<const SldaTarget> targets,
                     const SldaEStepControl& control, SldaDocuments& state, std::stop_token stop) {
  const std::size_t D = docs.documentCount();
  tbb::parallel_for(tbb::blocked_range<std::size_t>(0, D, 4), [&](const auto& range) {
    if (stop.stop_requested()) return;
    for (std::size_t d = range.begin(); d != range.end(); ++d) {
      const auto begin = static_cast<std::size_t>(docs.offsets[d]);
      const auto n = static_cast<std::size_t>(docs.offsets[d + 1]) - begin;
      const auto words = std::span(docs.words).subspan(begin, n);
      const auto counts = std::span(docs.counts).subspan(begin, n);
      const SldaTarget target = targets.empty() ? SldaTarget{} : targets[d];
      auto phi = state.phi.middleCols(static_cast<Eigen::Index>(begin), static_cast<Eigen::Index>(n));
      auto gamma = state.gammas.col(static_cast<Eigen::Index>(d));
      state.passes[d] = sldaDocumentEStep(words, counts, elogBeta, alpha, response, target, phi, gamma, control);
      state.bounds[d] = sldaDocumentBound(words, counts, elogBeta, alpha, response, target, phi, gamma);
    }
  });
  return !stop.stop_requested();
}

Eigen::MatrixXd sldaMeanAssignments(const DocumentWordCounts& docs, const SldaDocuments& state) {
  const auto K = state.phi.rows();
  Eigen::MatrixXd mean = Eigen::MatrixXd::Zero(K, static_cast<Eigen::Index>(docs.documentCount()));
  tbb::parallel_for(tbb::blocked_range<std::size_t>(0, docs.documentCount(), 16), [&](const auto& range) {
    for (std::size_t d = range.begin(); d != range.end(); ++d) {
      auto column = mean.col(static_cast<Eigen::Index>(d));
      for (auto e = docs.offsets[d]; e < docs.offsets[d + 1]; ++e)
        column += docs.counts[static_cast<std::size_t>(e)] * state.phi.col(e);
      if (docs.lengths[d] > 0) column /= docs.lengths[d];
    }
  });
  return mean;
}

Eigen::MatrixXd sldaTopicStatistics(const DocumentWordCounts& docs, const SldaDocuments& state,
                                    Eigen::Index vocabulary) {
  Eigen::MatrixXd statistics = Eigen::MatrixXd::Zero(state.phi.rows(), vocabulary);
  for (std::size_t e = 0; e < docs.entryCount(); ++e)
    statistics.col(docs.words[e]) += docs.counts[e] * state.phi.col(static_cast<Eigen::Index>(e));
  return statistics;
}

void sldaGaussianMStep(const DocumentWordCounts& docs, const SldaDocuments& state, std::span<const SldaTarget> targets,
                       SldaResponseModel& response, double ridge) {
  const auto K = state.phi.rows();
  const std::size_t D = docs.documentCount();
  const std::size_t blocks = (D + kSldaDocumentBlock - 1) / kSldaDocumentBlock;
  // Per block: E[A^T A], E[A]^T y, y^T y and the number of responses.
  std::vector<Eigen::MatrixXd> second(blocks, Eigen::MatrixXd::Zero(K, K));
  std::vector<Eigen::VectorXd> first(blocks, Eigen::VectorXd::Zero(K));
  std::vector<double> squares(blocks, 0.0), used(blocks, 0.0);
  tbb::parallel_for(std::size_t{0}, blocks, [&](std::size_t b) {
    Eigen::VectorXd total(K);
    for (std::size_t d = b * kSldaDocumentBlock; d < std::min(D, (b + 1) * kSldaDocumentBlock); ++d) {
      if (!targets[d].present || docs.lengths[d] <= 0) continue;
      const double N = docs.lengths[d];
      total.setZero();
      for (auto e = docs.offsets[d]; e < docs.offsets[d + 1]; ++e) {
        const double c = docs.counts[static_cast<std::size_t>(e)];
        total += c * state.phi.col(e);
        second[b].noalias() -= (c / (N * N)) * state.phi.col(e) * state.phi.col(e).transpose();
      }
      second[b].noalias() += total * total.transpose() / (N * N);
      second[b].diagonal() += total / (N * N);
      first[b] += targets[d].value * total / N;
      squares[b] += targets[d].value * targets[d].value;
      used[b] += 1.0;
    }
  });
  Eigen::MatrixXd ata = Eigen::MatrixXd::Zero(K, K);
  Eigen::VectorXd aty = Eigen::VectorXd::Zero(K);
  double yy = 0.0, count = 0.0;
  for (std::size_t b = 0; b < blocks; ++b) {
    ata += second[b];
    aty += first[b];
    yy += squares[b];
    count += used[b];
  }
  if (count <= 0.0) return;
  ata.diagonal().array() += ridge * std::max(1.0, ata.trace() / static_cast<double>(K));
  response.eta = ata.ldlt().solve(aty);
  response.sigma2 = std::max(1e-6, (yy - aty.dot(response.eta.col(0))) / count);
}

namespace {

// The categorical objective (and, when `gradient` is given, its gradient K x C) in eta.
double sldaCategoricalTerms(const DocumentWordCounts& docs, const SldaDocuments& state,
                            std::span<const SldaTarget> targets, const Eigen::MatrixXd& eta, double penalty,
                            Eigen::MatrixXd* gradient) {
  const auto K = eta.rows(), C = eta.cols();
  const std::size_t D = docs.documentCount();
  const std::size_t blocks = (D + kSldaDocumentBlock - 1) / kSldaDocumentBlock;
  std::vector<double> values(blocks, 0.0);
  std::vector<Eigen::MatrixXd> gradients(gradient ? blocks : 0, Eigen::MatrixXd::Zero(K, C));
  tbb::parallel_for(std::size_t{0}, blocks, [&](std::size_t b) {
    Eigen::MatrixXd expEta, weighted(K, C);
    Eigen::VectorXd logP, total(K), dots(C), share(C);
    for (std::size_t d = b * kSldaDocumentBlock; d < std::min(D, (b + 1) * kSldaDocumentBlock); ++d) {
      if (!targets[d].present || docs.lengths[d] <= 0) continue;
      const double N = docs.lengths[d];
      const auto begin = docs.offsets[d], n = docs.offsets[d + 1] - begin;
      const auto phi = state.phi.middleCols(begin, n);
      const auto counts = std::span(docs.counts).subspan(static_cast<std::size_t>(begin), static_cast<std::size_t>(n));
      sldaClassProducts(counts, eta, N, phi, expEta, logP);
      total.setZero();
      for (Eigen::Index i = 0; i < n; ++i) total += counts[static_cast<std::size_t>(i)] * phi.col(i);
      const double lse = logSumExp(logP);
      values[b] += eta.col(targets[d].category).dot(total) / N - lse;
      if (!gradient) continue;
      share = (logP.array() - lse).exp();
      // d logP_c / d eta_kc = sum_n c_n phi_nk exp(eta_kc / N) / (N phi_n^T exp(eta_c / N)).
      weighted.setZero();
      for (Eigen::Index i = 0; i < n; ++i) {
        dots = expEta.transpose() * phi.col(i);
        weighted.noalias() += phi.col(i) * (counts[static_cast<std::size_t>(i)] / N * dots.cwiseInverse()).transpose();
      }
      auto& g = gradients[b];
      g.col(targets[d].category) += total / N;
      g.array() -= weighted.array() * expEta.array() * share.transpose().replicate(K, 1).array();
    }
  });
  double value = -0.5 * penalty * eta.squaredNorm();
  for (const double v : values) value += v;
  if (gradient) {
    *gradient = -penalty * eta;
    for (const auto& g : gradients) *gradient += g;
  }
  return value;
}

}  // namespace

double sldaCategoricalObjective(const DocumentWordCounts& docs, const SldaDocuments& state,
                                std::span<const SldaTarget> targets, const SldaResponseModel& response) {
  return sldaCategoricalTerms(docs, state, targets, response.eta, response.penalty, nullptr);
}

double sldaCategoricalMStep(const DocumentWordCounts& docs, const SldaDocuments& state,
                            std::span<const SldaTarget> targets, SldaResponseModel& response, int steps,
                            std::stop_token stop) {
  Eigen::MatrixXd gradient, candidate;
  double value = sldaCategoricalTerms(docs, state, targets, response.eta, response.penalty, &gradient);
  // Gradient ascent with a step that grows after a success and halves after a failure; a step is
  // kept only when the objective rises, so the M step never lowers the bound.
  double step = 1.0 / std::max(1.0, gradient.cwiseAbs().maxCoeff());
  for (int i = 0; i < steps && !stop.stop_requested(); ++i) {
    bool moved = false;
    for (int halving = 0; halving < 30 && !moved && !stop.stop_requested(); ++halving) {
      candidate = response.eta + step * gradient;
      const double next = sldaCategoricalTerms(docs, state, targets, candidate, response.penalty, nullptr);
      if (next > value) {
        moved = true;
        const bool small = next - value < 1e-9 * std::max(1.0, std::abs(value));
        value = next;
        response.eta = candidate;
        step *= 1.5;
        if (small) return value;
      } else {
        step *= 0.5;
      }
    }
    if (!moved) break;
    value = sldaCategoricalTerms(docs, state, targets, response.eta, response.penalty, &gradient);
  }
  return value;
}

Eigen::MatrixXd sldaPredict(const DocumentWordCounts& docs, const Eigen::MatrixXd& elogBeta,
                            const Eigen::VectorXd& alpha, const SldaResponseModel& response,
                            const SldaEStepControl& control, Eigen::MatrixXd* meanAssignments) {
  SldaDocuments state;
  state.reset(docs, alpha);
  sldaCorpusEStep(docs, elogBeta, alpha, response, {}, control, state, {});
  const Eigen::MatrixXd mean = sldaMeanAssignments(docs, state);
  Eigen::MatrixXd out = (response.eta.transpose() * mean).transpose();  // D x (1 or C)
  if (response.categorical)
    for (Eigen::Index d = 0; d < out.rows(); ++d) {
      const double top = out.row(d).maxCoeff();
      out.row(d) = (out.row(d).array() - top).exp();
      out.row(d) /= out.row(d).sum();
    }
  if (meanAssignments) *meanAssignments = mean;
  return out;
}

}  // namespace latent::core::topic
