// SPDX-License-Identifier: GPL-3.0-or-later
// A finished lda-gibbs run whose topic_word is stored sparse, as a large result is: few tokens
// over many words (150 documents of 20 words drawn from 1,500), K = 30, with the float32 threshold
// lowered as it is crossed at large K (so doc_topic is stored as floats). The readers of the stored
// form are checked on it: the topic views (tests/ui) and the exports (tests/jobs).
#pragma once

#include <cstdint>
#include <filesystem>
#include <random>
#include <string>
#include <vector>

#include "core/jobs/fit_job.hpp"
#include "core/store/project.hpp"
#include "test_datasets.hpp"

namespace latent::test {

// A letters-only word for each number, so that the tokenizer keeps every one.
inline std::string letterWord(std::uint32_t n) {
  std::string word = "wq";
  for (int i = 0; i < 3; ++i, n /= 26) word += static_cast<char>('a' + n % 26);
  return word;
}

// Creates `file` with the corpus "many" and fits the run on it, `heldout` of it held out.
inline core::RunRecord fitSparseTopicsRun(const std::filesystem::path& file, double heldout = 0.0) {
  {
    core::Project project(file);
    std::vector<std::string> texts;
    std::mt19937 random(11);
    for (int d = 0; d < 150; ++d) {
      std::string text;
      for (int i = 0; i < 20; ++i) text += letterWord(static_cast<std::uint32_t>(random() % 1500)) + " ";
      texts.push_back(text);
    }
    addCorpus(project, "many", texts);
  }
  core::RunRequest request;
  request.model = "lda-gibbs";
  request.dataset = "many";
  request.options = {{"k", 30}, {"iterations", 20}, {"restarts", 1}};
  request.heldout = heldout;
  request.float32MatrixBytes = 0;
  return core::runFit(file, request, nullptr, {}).run;
}

}  // namespace latent::test
