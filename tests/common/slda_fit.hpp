// SPDX-License-Identifier: GPL-3.0-or-later
// sLDA's generated corpora and its fit on a document-completion split, with no reports to anyone:
// what slda's unit tests and its evidence share.
#pragma once

#include <cstddef>
#include <cstdint>

#include <Eigen/Core>
#include <nlohmann/json.hpp>

#include "core/data/corpus.hpp"
#include "core/data/synthetic_slda.hpp"
#include "core/eval/heldout.hpp"
#include "core/models/fit_data.hpp"
#include "core/models/topic/slda.hpp"
#include "quiet_observer.hpp"

namespace latent::test {

// Four topics over 200 words, documents of about 80 words, a Gaussian response with noise 0.4.
inline core::SyntheticSldaSpec sldaSpec(int documents, std::uint64_t seed) {
  core::SyntheticSldaSpec spec;
  spec.lda.topics = 4;
  spec.lda.vocabulary = 200;
  spec.lda.documents = documents;
  spec.lda.meanLength = 80;
  spec.lda.alpha = 0.3;
  spec.lda.beta = 0.05;
  spec.lda.seed = seed;
  spec.eta = Eigen::Vector4d(-2.0, -0.5, 1.0, 3.0);
  spec.noise = 0.4;
  return spec;
}

// The response cut into a class named "level" (low, middle, high), in place of the number.
inline void cutIntoLevels(core::SyntheticSlda& truth) {
  auto& column = truth.lda.corpus.metadata[0];
  column.name = "level";
  for (std::size_t d = 0; d < column.values.size(); ++d) {
    const double y = truth.response[static_cast<Eigen::Index>(d)];
    column.values[d] = y > 1.2 ? "high" : y > 0.0 ? "middle" : "low";
  }
}

struct SldaRun {
  core::CorpusSplit split;
  core::FitResult result;
};

inline SldaRun fitSlda(const core::Corpus& corpus, const nlohmann::json& options, double heldout = 0.2) {
  SldaRun run;
  run.split = core::splitForDocumentCompletion(corpus, heldout, 3);
  core::FitData data;
  data.corpus = &run.split.train;
  data.heldout = &run.split.heldout;
  data.trainDocuments = run.split.trainDocuments;
  data.fullDocumentCount = static_cast<std::int64_t>(corpus.documentCount());
  core::FitSettings settings;
  settings.options = core::resolveOptions(core::sldaModel().info(), options);
  settings.evalEvery = 1000;
  QuietObserver observer;
  run.result = core::sldaModel().make()->fit(data, settings, observer, {});
  return run;
}

}  // namespace latent::test
