// SPDX-License-Identifier: GPL-3.0-or-later
// Seconds per sweep and held-out link scores of the linked-document models (link-lda, lda-mmsb)
// on Cora, read from its UCI files and links.csv (the folder /work/shared/datasets/cora holds
// them): `linked-topics-bench CORA_DIR MODEL '{"k":20}' [SEEDS]`, each seed with 20% of the
// documents and links held out. Prints one line per seed.
#include <unistd.h>

#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <set>
#include <sstream>
#include <string>

#include <nlohmann/json.hpp>

#include "core/models/fit_data.hpp"
#include "core/models/model.hpp"
#include "linked_cora.hpp"
#include "quiet_observer.hpp"

using namespace latent::core;

int main(int argc, char** argv) {
  if (argc < 4) {
    std::cerr << "usage: linked-topics-bench CORA_DIR MODEL OPTIONS_JSON [SEEDS]\n";
    return 2;
  }
  const auto scratch =
      std::filesystem::temp_directory_path() / ("linked-topics-bench-" + std::to_string(::getpid()) + ".latent");
  const Corpus cora = latent::test::loadLinkedCora(argv[1], scratch);
  for (const char* suffix : {"", "-wal", "-shm"}) std::filesystem::remove(scratch.string() + suffix);
  const int seeds = argc > 4 ? std::stoi(argv[4]) : 3;
  for (int seed = 1; seed <= seeds; ++seed) {
    const PreparedData prepared(cora, 0.2, static_cast<std::uint64_t>(seed));
    auto model = createModel(argv[2]);
    FitSettings settings;
    settings.options = resolveOptions(model->info(), nlohmann::json::parse(argv[3]));
    settings.seed = static_cast<std::uint64_t>(seed);
    settings.evalEvery = 1000000;
    latent::test::QuietObserver observer;
    const FitResult r = model->fit(prepared.data(), settings, observer, {});
    const auto& m = r.finalMetrics;
    // A failed fit, or one without a held-out AUC in [0, 1], is not a measurement.
    if (r.status == FitStatus::Failed || !m.contains("heldout_auc") || !(m.at("heldout_auc").get<double>() >= 0.0) ||
        m.at("heldout_auc").get<double>() > 1.0) {
      std::cerr << "linked-topics-bench: seed " << seed << ": no held-out AUC (" << r.message << ")\n";
      return 1;
    }
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
