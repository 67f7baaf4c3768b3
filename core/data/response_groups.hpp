// SPDX-License-Identifier: GPL-3.0-or-later
// Survey answers imported as a corpus (--format responses) have the words "question=answer": the
// questions, and which answers belong to which, read back from the vocabulary.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace latent::core {

struct ResponseGroups {
  std::vector<std::string> questions;                        // in order of their first answer in the vocabulary
  std::vector<std::int32_t> questionOfWord;                  // each word's question
  std::vector<std::string> answerOfWord;                     // each word's answer (the part after '=')
  std::vector<std::vector<std::int32_t>> answersOfQuestion;  // each question's words

  std::size_t count() const noexcept { return questions.size(); }
};

// Throws UsageError, naming `model` and the first word without '=', when the vocabulary is not
// one of survey answers.
ResponseGroups responseGroups(const std::vector<std::string>& words, const std::string& model);

}  // namespace latent::core
