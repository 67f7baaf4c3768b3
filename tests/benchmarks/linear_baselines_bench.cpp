// SPDX-License-Identifier: GPL-3.0-or-later
// The linear baselines (core/eval/linear_baselines.hpp) on a corpus in UCI bag-of-words form with
// one label per document from a text file: fits on the documents whose index is not a multiple
// of `every`, scores the others, prints the baseline_ keys and the seconds taken as JSON. Used by
// baselines_vs_sklearn.py to set them beside scikit-learn's on the same split.
//
//   linear-baselines-bench DOCWORD LABELS KIND [EVERY] [SEPARATOR]
//   KIND: numeric | categorical | sets (labels split at SEPARATOR, default ";")
#include <chrono>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <sstream>
#include <string>
#include <vector>

#include "core/data/corpus.hpp"
#include "core/data/document_fields.hpp"
#include "core/eval/linear_baselines.hpp"

using namespace latent;

int main(int argc, char** argv) {
  if (argc < 4) {
    std::cerr << "usage: linear-baselines-bench DOCWORD LABELS numeric|categorical|sets [EVERY] [SEPARATOR]\n";
    return 2;
  }
  const std::string kindName = argv[3];
  const int every = argc > 4 ? std::stoi(argv[4]) : 4;
  std::ifstream docword(argv[1]);
  std::size_t documents = 0, words = 0, nonzeros = 0;
  docword >> documents >> words >> nonzeros;
  std::vector<std::vector<std::int32_t>> tokens(documents);
  for (std::size_t i = 0; i < nonzeros; ++i) {
    std::size_t d = 0, w = 0, count = 0;
    docword >> d >> w >> count;
    for (std::size_t c = 0; c < count; ++c) tokens[d - 1].push_back(static_cast<std::int32_t>(w - 1));
  }
  std::ifstream labelFile(argv[2]);
  std::vector<std::string> labels;
  for (std::string line; std::getline(labelFile, line);) labels.push_back(line);
  labels.resize(documents);

  core::Corpus all;
  for (std::size_t w = 0; w < words; ++w) all.words.push_back("w" + std::to_string(w));
  for (std::size_t d = 0; d < documents; ++d) all.addDocument(std::to_string(d), "", tokens[d]);
  all.labels = labels;
  if (kindName == "sets") all.labelSeparator = argc > 5 ? argv[5] : ";";
  core::Corpus train, test;
  train.words = test.words = all.words;
  train.takeFieldLayoutOf(all);
  test.takeFieldLayoutOf(all);
  for (std::size_t d = 0; d < documents; ++d) {
    auto& part = d % static_cast<std::size_t>(every) == 0 ? test : train;
    part.addDocument(all.documentIds[d], "", all.document(d));
    part.appendFieldsOf(all, d);
  }
  const auto kind = kindName == "numeric"       ? core::FieldKind::Numeric
                    : kindName == "categorical" ? core::FieldKind::Categorical
                                                : core::FieldKind::LabelSets;
  const auto field = core::documentField(train, "label", kind);
  nlohmann::json metrics;
  const auto start = std::chrono::steady_clock::now();
  core::addBaselineScores(metrics, train, field, test, 1, true);
  metrics["seconds"] = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  metrics["train_documents"] = train.documentCount();
  metrics["test_documents"] = test.documentCount();
  std::cout << metrics.dump(2) << "\n";
  // A run that scored nothing, or scored something that is not a number, is not a measurement.
  int baselines = 0;
  for (const auto& [key, value] : metrics.items())
    if (key.rfind("baseline_", 0) == 0) {
      if (!value.is_number() || !std::isfinite(value.get<double>())) {
        std::cerr << "linear-baselines-bench: " << key << " is not a finite number\n";
        return 1;
      }
      ++baselines;
    }
  if (baselines == 0) {
    std::cerr << "linear-baselines-bench: no baseline was scored (too few labelled documents?)\n";
    return 1;
  }
  return 0;
}
