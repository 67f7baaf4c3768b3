// SPDX-License-Identifier: GPL-3.0-or-later
// Unicode word segmentation (ICU's word break rules, UAX #29) with normalisation to lower case.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace latent::core {

struct TokenizerOptions {
  bool lowercase = true;
  // Words of letters shorter than this many characters are dropped ("a", "I", stray initials).
  // Kana and ideographic words are kept at any length: one character is a word there.
  std::size_t minLength = 2;
  // Numbers ("1848", "3.5") are not topic words by default; words mixing letters and digits
  // ("mp3", "covid19") always are.
  bool keepNumbers = false;
};

// One word found in a text: its normalised form and its byte span in the UTF-8 original.
struct Token {
  std::uint32_t begin = 0;
  std::uint32_t end = 0;
  std::string_view word;  // valid until the next tokenize() call
};

// Not thread-safe: one tokenizer per thread. Spans are byte offsets into the UTF-8 text, which
// is what lets the document reader colour each word of the original.
class Tokenizer {
 public:
  explicit Tokenizer(TokenizerOptions options = {});
  ~Tokenizer();
  Tokenizer(const Tokenizer&) = delete;
  Tokenizer& operator=(const Tokenizer&) = delete;

  // Replaces `out` with the words of `text` (valid UTF-8, under 2 GB).
  void tokenize(std::string_view text, std::vector<Token>& out);

  // Normalises one word as tokenize() does: NFC, lower case, typographic apostrophe to "'".
  static std::string normalize(std::string_view word);

  const TokenizerOptions& options() const noexcept { return m_options; }

 private:
  struct Impl;
  TokenizerOptions m_options;
  std::unique_ptr<Impl> m_impl;
};

}  // namespace latent::core
