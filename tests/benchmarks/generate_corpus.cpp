// SPDX-License-Identifier: GPL-3.0-or-later
// Writes a synthetic text corpus of a given size for import benchmarks: one document per line,
// Zipf-distributed words (as real text has), capitals, punctuation and some non-ASCII words so
// the tokenizer's Unicode path is exercised.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "core/util/random.hpp"

int main(int argc, char** argv) {
  if (argc != 3) {
    std::fprintf(stderr, "usage: generate-corpus OUT.txt MEGABYTES\n");
    return 2;
  }
  const double megabytes = std::atof(argv[2]);
  std::FILE* out = std::fopen(argv[1], "wb");
  if (!out || megabytes <= 0) {
    std::fprintf(stderr, "generate-corpus: cannot write %s\n", argv[1]);
    return 2;
  }
  latent::core::Rng rng(20261122);

  // 60,000 pseudo-words; one in fifty carries an accented letter.
  const char* accents[] = {"é", "ü", "ñ", "ø", "ç"};
  std::vector<std::string> words;
  for (int w = 0; w < 60000; ++w) {
    std::string word;
    const auto length = 3 + rng.below(8);
    for (std::uint64_t i = 0; i < length; ++i) word.push_back(static_cast<char>('a' + rng.below(26)));
    if (w % 50 == 7) word.insert(1 + rng.below(word.size() - 1), accents[rng.below(5)]);
    words.push_back(word);
  }
  // Zipf's law with exponent 1.07, as measured on English text.
  std::vector<double> cumulative(words.size());
  double total = 0;
  for (std::size_t r = 0; r < words.size(); ++r)
    cumulative[r] = total += 1.0 / std::pow(static_cast<double>(r + 1), 1.07);

  const auto target = static_cast<std::uint64_t>(megabytes * 1024 * 1024);
  std::uint64_t written = 0, tokens = 0, documents = 0;
  std::string line;
  while (written < target) {
    line.clear();
    const auto length = 50 + rng.below(400);
    for (std::uint64_t i = 0; i < length; ++i) {
      const double u = rng.uniform() * total;
      const auto r =
          static_cast<std::size_t>(std::lower_bound(cumulative.begin(), cumulative.end(), u) - cumulative.begin());
      std::string word = words[std::min(r, words.size() - 1)];
      if (i == 0 || rng.below(20) == 0) word[0] = static_cast<char>(word[0] - 32);
      line += word;
      const auto p = rng.below(30);
      line += p == 0 ? ". " : p == 1 ? ", " : " ";
      ++tokens;
    }
    line.back() = '\n';
    std::fwrite(line.data(), 1, line.size(), out);
    written += line.size();
    ++documents;
  }
  std::fclose(out);
  std::printf("%s: %.1f MB, %llu documents, %llu words\n", argv[1], static_cast<double>(written) / (1024 * 1024),
              static_cast<unsigned long long>(documents), static_cast<unsigned long long>(tokens));
  return 0;
}
