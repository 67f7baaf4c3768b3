// SPDX-License-Identifier: GPL-3.0-or-later
// Parsing of stop-word lists.
#include "core/data/stop_words.hpp"

#include <span>

#include "core/data/tokenizer.hpp"
#include "core/util/embedded_file.hpp"
#include "core/util/errors.hpp"
#include "core/util/line_reader.hpp"
#include "core/util/utf8.hpp"

namespace latent::core {
namespace resources {
std::span<const EmbeddedFile> stopWordLists();  // generated from resources/stopwords
}

namespace {

void addLine(StopWords& list, std::string_view line) {
  while (!line.empty() && (line.back() == ' ' || line.back() == '\t' || line.back() == '\r')) line.remove_suffix(1);
  while (!line.empty() && (line.front() == ' ' || line.front() == '\t')) line.remove_prefix(1);
  if (line.empty() || line.front() == '#') return;
  list.add(Tokenizer::normalize(line));
}

}  // namespace

StopWords StopWords::fromText(std::string_view text) {
  StopWords list;
  while (!text.empty()) {
    const auto nl = text.find('\n');
    addLine(list, text.substr(0, nl));
    if (nl == std::string_view::npos) break;
    text.remove_prefix(nl + 1);
  }
  return list;
}

StopWords StopWords::english() {
  for (const auto& file : resources::stopWordLists())
    if (file.name == "en.txt") return fromText(file.contents);
  throw std::logic_error("the English stop-word list was not compiled in");
}

StopWords StopWords::fromFile(const std::filesystem::path& path) {
  LineReader reader(path, LineReader::Options{std::size_t{1} << 20, true});
  StopWords list;
  std::string_view line;
  while (reader.next(line)) {
    if (const auto bad = utf8::firstInvalid(line); bad != utf8::npos) reader.fail(utf8::invalidMessage(line, bad));
    addLine(list, line);
  }
  return list;
}

StopWords StopWords::fromSpec(std::string_view spec) {
  if (spec == "en" || spec == "english") return english();
  if (spec == "none" || spec.empty()) return {};
  return fromFile(std::filesystem::path(std::string(spec)));
}

}  // namespace latent::core
