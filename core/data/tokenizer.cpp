// SPDX-License-Identifier: GPL-3.0-or-later
// Tokenizer over ICU's word BreakIterator reading the UTF-8 text in place (UText), so spans come
// out as byte offsets without converting the whole document to UTF-16.
#include "core/data/tokenizer.hpp"

#include <unicode/brkiter.h>
#include <unicode/locid.h>
#include <unicode/normalizer2.h>
#include <unicode/ubrk.h>
#include <unicode/uchar.h>
#include <unicode/unistr.h>
#include <unicode/utext.h>
#include <unicode/utf8.h>

#include <stdexcept>

#include "core/util/utf8.hpp"

namespace latent::core {
namespace {

bool isAscii(std::string_view s) noexcept {
  for (const char c : s)
    if (static_cast<unsigned char>(c) >= 0x80) return false;
  return true;
}

// ICU gives "mp3", "covid19" and "x86" the number status; they are words all the same. Only
// segments without a single letter ("1848", "3.5") are numbers to us.
bool hasLetter(std::string_view s) noexcept {
  const auto* p = reinterpret_cast<const uint8_t*>(s.data());
  const auto n = static_cast<int32_t>(s.size());
  for (int32_t i = 0; i < n;) {
    UChar32 c;
    U8_NEXT(p, i, n, c);
    if (c >= 0 && u_isalpha(c)) return true;
  }
  return false;
}

// Appends the normalised form of `word` to `out`.
void appendNormalized(std::string_view word, bool lowercase, std::string& out) {
  if (isAscii(word)) {
    // ASCII is already NFC, and its lower case is the byte-wise one in every locale we use.
    for (const char c : word) out.push_back(lowercase && c >= 'A' && c <= 'Z' ? static_cast<char>(c + 32) : c);
    return;
  }
  icu::UnicodeString text =
      icu::UnicodeString::fromUTF8(icu::StringPiece(word.data(), static_cast<int32_t>(word.size())));
  if (lowercase) text.toLower(icu::Locale::getRoot());
  UErrorCode status = U_ZERO_ERROR;
  const icu::Normalizer2* nfc = icu::Normalizer2::getNFCInstance(status);
  if (U_SUCCESS(status)) {
    icu::UnicodeString normalized = nfc->normalize(text, status);
    if (U_SUCCESS(status)) text = normalized;
  }
  // "don’t" and "don't" are the same word.
  text.findAndReplace(icu::UnicodeString(static_cast<UChar>(0x2019)), icu::UnicodeString(static_cast<UChar>(0x27)));
  text.toUTF8String(out);
}

}  // namespace

struct Tokenizer::Impl {
  std::unique_ptr<icu::BreakIterator> words;
  std::string arena;
  struct Pending {
    std::uint32_t begin, end, arenaBegin, arenaEnd;
  };
  std::vector<Pending> pending;
};

Tokenizer::Tokenizer(TokenizerOptions options) : m_options(options), m_impl(std::make_unique<Impl>()) {
  UErrorCode status = U_ZERO_ERROR;
  m_impl->words.reset(icu::BreakIterator::createWordInstance(icu::Locale::getRoot(), status));
  if (U_FAILURE(status) || !m_impl->words)
    throw std::runtime_error(std::string("ICU word break iterator unavailable: ") + u_errorName(status));
}

Tokenizer::~Tokenizer() = default;

void Tokenizer::tokenize(std::string_view text, std::vector<Token>& out) {
  out.clear();
  auto& impl = *m_impl;
  impl.arena.clear();
  impl.pending.clear();
  if (text.empty()) return;
  if (text.size() >= (std::size_t{1} << 31)) throw std::length_error("document longer than 2 GB");

  UErrorCode status = U_ZERO_ERROR;
  UText* ut = utext_openUTF8(nullptr, text.data(), static_cast<int64_t>(text.size()), &status);
  impl.words->setText(ut, status);
  if (U_FAILURE(status)) {
    utext_close(ut);
    throw std::runtime_error(std::string("ICU could not read the text: ") + u_errorName(status));
  }
  int32_t start = impl.words->first();
  for (int32_t end = impl.words->next(); end != icu::BreakIterator::DONE; start = end, end = impl.words->next()) {
    const int32_t rule = impl.words->getRuleStatus();
    if (rule < UBRK_WORD_NONE_LIMIT) continue;  // spaces and punctuation
    const std::string_view word = text.substr(static_cast<std::size_t>(start), static_cast<std::size_t>(end - start));
    const bool number = rule < UBRK_WORD_NUMBER_LIMIT && !hasLetter(word);
    if (number && !m_options.keepNumbers) continue;
    const bool ideographic = rule >= UBRK_WORD_KANA && rule < UBRK_WORD_IDEO_LIMIT;
    if (!ideographic && utf8::codePointCount(word) < m_options.minLength) continue;
    const auto arenaBegin = static_cast<std::uint32_t>(impl.arena.size());
    appendNormalized(word, m_options.lowercase, impl.arena);
    impl.pending.push_back({static_cast<std::uint32_t>(start), static_cast<std::uint32_t>(end), arenaBegin,
                            static_cast<std::uint32_t>(impl.arena.size())});
  }
  utext_close(ut);

  out.reserve(impl.pending.size());
  for (const auto& p : impl.pending)
    out.push_back({p.begin, p.end, std::string_view(impl.arena).substr(p.arenaBegin, p.arenaEnd - p.arenaBegin)});
}

std::string Tokenizer::normalize(std::string_view word) {
  std::string out;
  appendNormalized(word, true, out);
  return out;
}

}  // namespace latent::core
