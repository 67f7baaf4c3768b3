// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/data/response_groups.hpp"

#include <unordered_map>

#include "core/util/errors.hpp"

namespace latent::core {

ResponseGroups responseGroups(const std::vector<std::string>& words, const std::string& model) {
  ResponseGroups out;
  std::unordered_map<std::string, std::int32_t> index;
  out.questionOfWord.reserve(words.size());
  for (std::size_t w = 0; w < words.size(); ++w) {
    const auto cut = words[w].find('=');
    if (cut == std::string::npos || cut == 0)
      throw UsageError(model +
                       " models survey answers, whose words are 'question=answer' (import them with "
                       "--format responses); this dataset has the word '" +
                       words[w] + "'");
    const std::string question = words[w].substr(0, cut);
    const auto [it, added] = index.emplace(question, static_cast<std::int32_t>(out.questions.size()));
    if (added) {
      out.questions.push_back(question);
      out.answersOfQuestion.emplace_back();
    }
    out.questionOfWord.push_back(it->second);
    out.answerOfWord.push_back(words[w].substr(cut + 1));
    out.answersOfQuestion[static_cast<std::size_t>(it->second)].push_back(static_cast<std::int32_t>(w));
  }
  return out;
}

}  // namespace latent::core
