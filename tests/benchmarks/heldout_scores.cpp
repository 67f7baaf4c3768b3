// SPDX-License-Identifier: GPL-3.0-or-later
// Scores any system's topics on the same held-out split with our estimators, so that peers
// (MALLET, WarpLDA) and our runs are compared by one yardstick: document completion by the Gibbs
// fold-in lda-gibbs reports, by the variational fold-in, and by the left-to-right particle filter
// (the reference the fold-ins approximate; Wallach et al. 2009). See README.md, "Which held-out
// estimator".
//
//   heldout-scores --topic-word PHI --alpha ALPHA --observed observed.ldac --scored scored.ldac
//                  [--estimators gibbs,variational,left-to-right] [--particles 10] [--documents 60]
//                  [--seed 1] [--threads 1] [--max-length N]
//
// PHI: K x V little-endian float64, row after row (numpy's tofile of a C-ordered array); its rows
// are normalised here. ALPHA: K numbers separated by white space. observed/scored: LDA-C files of
// `latent-cli heldout-split` (one line per held-out document, the same documents in both).
// --max-length keeps only the documents of at most N tokens (both halves), for every estimator:
// the left-to-right estimate costs N^2 per document, so short documents let it run with enough
// particles to converge. Prints one JSON object.
#include <tbb/global_control.h>

#include <cstdint>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>
#include <nlohmann/json.hpp>

#include "core/eval/heldout.hpp"
#include "core/eval/left_to_right.hpp"
#include "core/eval/topic_evaluation.hpp"

using namespace latent::core;

namespace {

struct ScoreArguments {
  std::string topicWord, alpha, observed, scored;
  std::string estimators = "gibbs,variational,left-to-right";
  int particles = 10;
  std::size_t documents = 60;
  std::uint64_t seed = 1;
  int threads = 1;
  std::size_t maxLength = 0;  // 0: every document
};

// LDA-C lines "N id:count ...": each document's tokens, word ids in the order written. The ids
// index phi's columns as they are (core's LDA-C importer would give them new ids of its own), so
// each is checked against the vocabulary of phi.
Corpus readLdacTokens(const std::string& path, Eigen::Index vocabulary) {
  std::ifstream in(path);
  if (!in) throw std::runtime_error("cannot read " + path);
  Corpus corpus;
  std::string line;
  std::vector<std::int32_t> tokens;
  while (std::getline(in, line)) {
    std::istringstream fields(line);
    std::string pair;
    fields >> pair;  // the number of distinct words
    tokens.clear();
    while (fields >> pair) {
      const auto colon = pair.find(':');
      if (colon == std::string::npos) throw std::runtime_error(path + ": not LDA-C: " + pair);
      const long word = std::stol(pair.substr(0, colon)), count = std::stol(pair.substr(colon + 1));
      if (word < 0 || word >= vocabulary)
        throw std::runtime_error(path + ": word id " + std::to_string(word) + " outside the topics' vocabulary of " +
                                 std::to_string(vocabulary) + " words (line " +
                                 std::to_string(corpus.documentCount() + 1) + ")");
      if (count <= 0) throw std::runtime_error(path + ": count of word " + std::to_string(word) + " is not positive");
      tokens.insert(tokens.end(), static_cast<std::size_t>(count), static_cast<std::int32_t>(word));
    }
    corpus.addDocument(std::to_string(corpus.documentCount() + 1), "", tokens);
  }
  return corpus;
}

Eigen::VectorXd readAlpha(const std::string& path) {
  std::ifstream in(path);
  if (!in) throw std::runtime_error("cannot read " + path);
  std::vector<double> values;
  for (double x; in >> x;) values.push_back(x);
  return Eigen::Map<const Eigen::VectorXd>(values.data(), static_cast<Eigen::Index>(values.size()));
}

Eigen::MatrixXd readTopicWord(const std::string& path, Eigen::Index K) {
  std::ifstream in(path, std::ios::binary | std::ios::ate);
  if (!in) throw std::runtime_error("cannot read " + path);
  const auto bytes = static_cast<Eigen::Index>(in.tellg());
  if (K <= 0 || bytes % (K * 8) != 0) throw std::runtime_error(path + ": size is not K x V doubles");
  const Eigen::Index V = bytes / (K * 8);
  Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor> rows(K, V);
  in.seekg(0);
  in.read(reinterpret_cast<char*>(rows.data()), bytes);
  Eigen::MatrixXd phi = rows;
  for (Eigen::Index k = 0; k < K; ++k) phi.row(k) /= phi.row(k).sum();
  return phi;
}

nlohmann::json foldInScore(const HeldoutDocuments& heldout, const Eigen::MatrixXd& phi, const FoldIn& foldIn,
                           std::uint64_t seed) {
  const auto score = scoreHeldout(heldout, phi, foldIn, HeldoutProtocol::DocumentCompletion, seed);
  return {{"perplexity", score.perplexity},
          {"perplexity_per_token", score.perplexityPerToken},
          {"documents", score.documents},
          {"tokens", score.tokens}};
}

}  // namespace

int main(int argc, char** argv) {
  ScoreArguments a;
  CLI::App app{
      "Scores topics on a held-out split with the Gibbs and variational fold-ins and the left-to-right "
      "particle filter; prints one JSON object."};
  app.add_option("--topic-word", a.topicWord, "K x V float64, row after row")->required();
  app.add_option("--alpha", a.alpha, "K numbers separated by white space")->required();
  app.add_option("--observed", a.observed, "LDA-C: the observed half of each held-out document")->required();
  app.add_option("--scored", a.scored, "LDA-C: the scored half, the same documents")->required();
  app.add_option("--estimators", a.estimators, "Any of gibbs, variational, left-to-right, comma-separated")
      ->capture_default_str();
  app.add_option("--particles", a.particles, "Left-to-right particles")
      ->capture_default_str()
      ->check(CLI::PositiveNumber);
  app.add_option("--documents", a.documents, "Documents the left-to-right estimate scores")->capture_default_str();
  app.add_option("--seed", a.seed, "Seed of the fold-ins' and the particle filter's draws")->capture_default_str();
  app.add_option("--threads", a.threads, "Threads the scoring may use")
      ->capture_default_str()
      ->check(CLI::PositiveNumber);
  app.add_option("--max-length", a.maxLength, "Keep the documents of at most N tokens (0: all)")->capture_default_str();
  CLI11_PARSE(app, argc, argv);
  try {
    tbb::global_control threads(tbb::global_control::max_allowed_parallelism, static_cast<std::size_t>(a.threads));
    const Eigen::VectorXd alpha = readAlpha(a.alpha);
    const Eigen::MatrixXd phi = readTopicWord(a.topicWord, alpha.size());
    const Corpus observed = readLdacTokens(a.observed, phi.cols()), scored = readLdacTokens(a.scored, phi.cols());
    if (observed.documentCount() != scored.documentCount())
      throw std::runtime_error("observed and scored hold different numbers of documents");
    HeldoutDocuments heldout;
    for (std::size_t d = 0; d < observed.documentCount(); ++d) {
      if (a.maxLength > 0 && observed.documentLength(d) + scored.documentLength(d) > a.maxLength) continue;
      heldout.documents.push_back(static_cast<std::int64_t>(d));
      heldout.observed.addDocument("", "", observed.document(d));
      heldout.scored.addDocument("", "", scored.document(d));
    }

    nlohmann::json out{{"topics", phi.rows()}, {"vocabulary", phi.cols()}, {"alpha_sum", alpha.sum()}};
    const auto wants = [&](const char* name) {
      return ("," + a.estimators + ",").find(std::string(",") + name + ",") != std::string::npos;
    };
    if (wants("gibbs")) out["gibbs_fold_in"] = foldInScore(heldout, phi, gibbsFoldIn(phi, alpha), a.seed);
    if (wants("variational"))
      out["variational_fold_in"] = foldInScore(heldout, phi, variationalFoldIn(phi, alpha), a.seed);
    if (wants("left-to-right")) {
      const auto score = leftToRightHeldout(heldout, phi, alpha, a.particles, a.documents, a.seed);
      out["left_to_right"] = {{"completion_perplexity_per_token", score.completionPerplexity},
                              {"perplexity_per_token", score.perplexity},
                              {"documents", score.documents},
                              {"completion_tokens", score.completionTokens},
                              {"particles", a.particles}};
      // The fold-ins on the same documents, token-weighted like the left-to-right figure.
      HeldoutDocuments first;
      for (std::size_t d = 0; d < static_cast<std::size_t>(score.documents); ++d) {
        first.documents.push_back(static_cast<std::int64_t>(d));
        first.observed.addDocument("", "", heldout.observed.document(d));
        first.scored.addDocument("", "", heldout.scored.document(d));
      }
      out["left_to_right"]["gibbs_fold_in_same_documents"] =
          foldInScore(first, phi, gibbsFoldIn(phi, alpha), a.seed)["perplexity_per_token"];
      out["left_to_right"]["variational_fold_in_same_documents"] =
          foldInScore(first, phi, variationalFoldIn(phi, alpha), a.seed)["perplexity_per_token"];
    }
    std::cout << out.dump() << '\n';
    return 0;
  } catch (const std::exception& e) {
    std::cerr << "heldout-scores: " << e.what() << '\n';
    return 2;
  }
}
