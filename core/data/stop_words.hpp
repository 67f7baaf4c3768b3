// SPDX-License-Identifier: GPL-3.0-or-later
// Stop-word lists: the built-in English list, none, or a user's file.
#pragma once

#include <filesystem>
#include <string>
#include <string_view>

#include "core/data/id_map.hpp"

namespace latent::core {

class StopWords {
 public:
  StopWords() = default;  // empty: keeps every word

  // The built-in English list (resources/stopwords/en.txt, compiled in).
  static StopWords english();
  // One word per line, '#' starts a comment, UTF-8; words are lower-cased as the tokenizer does.
  static StopWords fromFile(const std::filesystem::path& path);
  // "en", "none" or a file path, as the command line's --stopwords takes it.
  static StopWords fromSpec(std::string_view spec);

  bool contains(std::string_view word) const { return m_words.contains(word); }
  std::size_t size() const noexcept { return m_words.size(); }
  void add(std::string_view word) { m_words.intern(word); }

 private:
  static StopWords fromText(std::string_view text);

  IdMap m_words;
};

}  // namespace latent::core
