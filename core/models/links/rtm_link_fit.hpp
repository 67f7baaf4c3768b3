// SPDX-License-Identifier: GPL-3.0-or-later
// The fit of the relational topic model's link weights (eta, nu) to the training links between
// Gibbs sweeps, the M step of Monte Carlo EM (000 §27.4.4.1 for sLDA, which RTM extends). Only the
// observed links are data; as in Chang & Blei 2010, the non-links enter as a regularisation: rho
// pseudo non-links whose topic overlap is that of two documents under a symmetric prior,
// zbar_d o zbar_d' = 1/K^2 per topic. Without them every pair would be predicted linked.
#pragma once

#include <span>
#include <stop_token>

#include <Eigen/Core>

#include "core/data/graph.hpp"
#include "core/models/links/rtm_sampler.hpp"

namespace latent::core::rtm {

// Pi-bar: the sum over `links` of zbar_source o zbar_target (K), the sufficient statistic of both fits.
Eigen::VectorXd linkOverlapSum(const Eigen::MatrixXd& zbar, std::span<const Edge> links);

// The weights that maximise the links' log likelihood plus rho pseudo non-links'. Exponential link:
// the closed form of Chang & Blei 2010, each diagonal cell of the topic-pair table a Bernoulli
// whose successes are the links' overlap in it and whose failures the pseudo non-links':
//   nu    = log(M - 1'Pi) - log(rho (K-1)/K + M - 1'Pi)
//   eta_k = log(Pi_k) - log(Pi_k + rho / K^2) - nu,
// so psi never exceeds one. Sigmoid link: L-BFGS on the same objective with a standard normal prior
// on each eta_k (the links alone can be nearly separable), warm-started from `start`; a stop request
// ends it at its next evaluation with the last accepted weights.
LinkWeights fitLinkWeights(LinkFunction link, const Eigen::MatrixXd& zbar, std::span<const Edge> links, double rho,
                           const LinkWeights& start, const std::stop_token& stop = {});

// sum over `links` of log psi(zbar_source, zbar_target): the links' part of the joint.
double linkLogLikelihood(LinkFunction link, const LinkWeights& weights, const Eigen::MatrixXd& zbar,
                         std::span<const Edge> links);

}  // namespace latent::core::rtm
