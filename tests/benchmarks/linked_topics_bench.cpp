// SPDX-License-Identifier: GPL-3.0-or-later
// Seconds per sweep and held-out link scores of the linked-document models (link-lda, lda-mmsb)
// on Cora, read from its UCI files and links.csv (the folder /work/shared/datasets/cora holds
// them): `linked-topics-bench CORA_DIR MODEL '{"k":20}' [SEEDS]`, each seed with 20% of the
// documents and links held out. Prints one line per seed.
#include <cstdio>
#include <fstream>
#include <iostream>
#include <set>
#include <sstream>
#include <string>

#include <nlohmann/json.hpp>

#include "core/models/fit_data.hpp"
#include "core/models/model.hpp"

using namespace latent::core;

namespace {

Corpus readCoraFiles(const std::string& dir) {
  Corpus corpus;
  std::ifstream vocabulary(dir + "/vocab.cora.txt");
  for (std::string word; std::getline(vocabulary, word);)
    if (!word.empty()) corpus.words.push_back(word);
  std::ifstream docword(dir + "/docword.cora.txt");
  std::int64_t D = 0, W = 0, nnz = 0;
  docword >> D >> W >> nnz;
  std::vector<std::vector<std::int32_t>> documents(static_cast<std::size_t>(D));
  for (std::int64_t i = 0; i < nnz; ++i) {
    std::int64_t d = 0, w = 0, c = 0;
    docword >> d >> w >> c;
    for (std::int64_t j = 0; j < c; ++j)
      documents[static_cast<std::size_t>(d - 1)].push_back(static_cast<std::int32_t>(w - 1));
  }
  for (std::int64_t d = 0; d < D; ++d)
    corpus.addDocument(std::to_string(d + 1), "", documents[static_cast<std::size_t>(d)]);
  std::ifstream linksFile(dir + "/links.csv");
  std::string line;
  std::getline(linksFile, line);
  std::set<std::pair<std::int32_t, std::int32_t>> links;
  while (std::getline(linksFile, line)) {
    std::istringstream row(line);
    std::string a, b;
    if (!std::getline(row, a, ',') || !std::getline(row, b)) continue;
    const auto s = static_cast<std::int32_t>(std::stol(a) - 1), t = static_cast<std::int32_t>(std::stol(b) - 1);
    if (s != t) links.insert({s, t});
  }
  for (const auto& [s, t] : links) corpus.links.push_back({s, t, 1.0});
  return corpus;
}

class SilentObserver final : public TrainingObserver {
 public:
  bool onReport(const IterationReport&) override { return true; }
};

}  // namespace

int main(int argc, char** argv) {
  if (argc < 4) {
    std::cerr << "usage: linked-topics-bench CORA_DIR MODEL OPTIONS_JSON [SEEDS]\n";
    return 2;
  }
  const Corpus cora = readCoraFiles(argv[1]);
  const int seeds = argc > 4 ? std::stoi(argv[4]) : 3;
  for (int seed = 1; seed <= seeds; ++seed) {
    const PreparedData prepared(cora, 0.2, static_cast<std::uint64_t>(seed));
    auto model = createModel(argv[2]);
    FitSettings settings;
    settings.options = resolveOptions(model->info(), nlohmann::json::parse(argv[3]));
    settings.seed = static_cast<std::uint64_t>(seed);
    settings.evalEvery = 1000000;
    SilentObserver observer;
    const FitResult r = model->fit(prepared.data(), settings, observer, {});
    const auto& m = r.finalMetrics;
    const auto get = [&](const char* key) { return m.contains(key) ? m.at(key).get<double>() : -1.0; };
    std::printf(
        "seed %d %s AUC %.3f P@10 %.3f new AUC %.3f new P@10 %.3f link perplexity %.2f word perplexity %.1f "
        "%.4f s/sweep",
        seed, argv[2], get("heldout_auc"), get("heldout_precision_at_10"), get("new_document_auc"),
        get("new_document_precision_at_10"), get("heldout_link_perplexity"), get("heldout_perplexity"),
        get("seconds_per_sweep"));
    if (m.contains("baseline_auc_lda_cosine"))
      std::printf(" | LDA cosine AUC %.3f P@10 %.3f new AUC %.3f new P@10 %.3f | MMSB AUC %.3f P@10 %.3f",
                  get("baseline_auc_lda_cosine"), get("baseline_precision_at_10_lda_cosine"),
                  get("baseline_new_document_auc_lda_cosine"), get("baseline_new_document_precision_at_10_lda_cosine"),
                  get("baseline_auc_mmsb"), get("baseline_precision_at_10_mmsb"));
    std::printf("\n");
    std::fflush(stdout);
  }
  return 0;
}
