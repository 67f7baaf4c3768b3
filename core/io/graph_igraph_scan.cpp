// SPDX-License-Identifier: GPL-3.0-or-later
// The look at a GML, GraphML or Pajek file before igraph parses it, so errors can name a line.
//
// igraph's parsers give no line for some errors and none at all for bad bytes, so this pass
// rejects, with the line: a NUL byte (a binary file); for GML and Pajek, invalid UTF-8 and lines
// over 4 MB; for GraphML, a first non-blank character other than '<' (libxml2 would only say
// "Document is empty"; UTF-16 GraphML with a byte order mark is scanned by its code units, and
// libxml2 reads it as such); for Pajek, an *Arcs/*Edges line naming a vertex outside 1..n. A file of
// blank lines holds no graph. It also notes, for Pajek's plain *Arcs/*Edges lines, each edge's
// line and whether it gives a value: igraph 0.10.2 pads the weights of earlier edges without a
// value with 0 (later ones with NaN), and the reader needs to tell those from a written 0. And it
// notes where a file mixes *Arcs and *Edges: igraph 0.10.2 then takes the direction of the last
// section for the whole graph, so the reader refuses such a file unless --undirected is given.
#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <optional>
#include <string_view>

#include "core/io/graph_reading.hpp"
#include "core/util/errors.hpp"
#include "core/util/input_file.hpp"
#include "core/util/line_reader.hpp"
#include "core/util/parse_number.hpp"
#include "core/util/utf8.hpp"

namespace latent::core::graph_detail {
namespace {

constexpr std::size_t kMaxIgraphLineBytes = std::size_t{4} << 20;

std::string_view nextWord(std::string_view& rest) {
  std::size_t i = 0;
  while (i < rest.size() && (rest[i] == ' ' || rest[i] == '\t')) ++i;
  std::size_t j = i;
  while (j < rest.size() && rest[j] != ' ' && rest[j] != '\t') ++j;
  const auto out = rest.substr(i, j - i);
  rest.remove_prefix(j);
  return out;
}

class PajekScanner {
 public:
  explicit PajekScanner(IgraphScan& scan) : m_scan(scan) {}

  void line(std::string_view text, const LineReader& lines) {
    std::string_view rest = trimSpaces(text);
    const auto first = nextWord(rest);
    if (first.empty() || first.front() == '%') return;
    if (first.front() == '*') {
      std::string keyword(first);
      std::transform(keyword.begin(), keyword.end(), keyword.begin(),
                     [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
      if (keyword == "*vertices") {
        m_vertices = parseInteger(nextWord(rest)).value_or(-1);
        m_verticesLine = lines.lineNumber();
      }
      m_inVertices = keyword == "*vertices";
      m_lists = keyword == "*arcslist" || keyword == "*edgeslist";
      m_matrix = keyword == "*matrix";
      m_pairs = keyword == "*arcs" || keyword == "*edges";
      const bool arcs = keyword == "*arcs" || keyword == "*arcslist";
      const bool edges = keyword == "*edges" || keyword == "*edgeslist";
      if (m_scan.pajekMixedLine == 0 && ((arcs && m_seenEdges) || (edges && m_seenArcs)))
        m_scan.pajekMixedLine = lines.lineNumber();
      m_seenArcs = m_seenArcs || arcs;
      m_seenEdges = m_seenEdges || edges;
      // Edges from list and matrix sections cannot be matched to lines one by one.
      if (keyword == "*arcslist" || keyword == "*edgeslist" || keyword == "*matrix") m_scan.pajekPlain = false;
      return;
    }
    if (m_inVertices && parseInteger(first)) ++m_labelled;
    // igraph takes an unclosed quote for a label running to the end of the line.
    if (m_inVertices && std::count(text.begin(), text.end(), '"') % 2 != 0)
      lines.fail("this vertex line opens a quote it does not close");
    if (m_matrix) ++m_matrixRows;
    if (m_lists)
      for (auto word = first; !word.empty(); word = nextWord(rest))
        m_used = std::max(m_used, parseInteger(word).value_or(0));
    if (!m_pairs) return;
    const auto source = parseInteger(first);
    const auto target = parseInteger(nextWord(rest));
    if (!source || !target) {
      m_scan.pajekPlain = false;  // igraph decides what this line is
      return;
    }
    for (const auto v : {*source, *target})
      if (m_vertices >= 0 && (v < 1 || v > m_vertices))
        lines.fail("vertex " + std::to_string(v) + " is out of range: *Vertices declares " +
                   std::to_string(m_vertices) + " vertices, numbered 1 to " + std::to_string(m_vertices));
    m_used = std::max({m_used, *source, *target});
    m_scan.pajekEdgeLines.push_back(lines.lineNumber());
    m_scan.pajekEdgeHasValue.push_back(parseReal(nextWord(rest)).has_value());
  }

  // igraph reserves every vertex *Vertices declares: believed only as far as the file labels or
  // links them, plus a thousand and ten per such vertex (31 bytes declaring 200 million vertices
  // took 15 GB before this).
  void finish(const LineReader& lines) const {
    const std::int64_t supported = std::max({m_labelled, m_used, m_matrixRows});
    if (m_vertices > supported && m_vertices - supported > 1000 + 10 * supported)
      throw InputError(lines.displayName(), m_verticesLine,
                       "*Vertices declares " + std::to_string(m_vertices) + " vertices, but the file labels or links " +
                           std::to_string(supported) +
                           "; so many vertices with nothing about them are taken for a damaged header (list "
                           "isolated vertices one per line to import them)");
  }

 private:
  IgraphScan& m_scan;
  std::int64_t m_vertices = -1, m_verticesLine = 0;
  std::int64_t m_labelled = 0, m_used = 0, m_matrixRows = 0;
  bool m_inVertices = false, m_lists = false, m_matrix = false;
  bool m_pairs = false;
  bool m_seenArcs = false, m_seenEdges = false;
};

// "nan", "-inf", "Infinity", "1e999": what strtod reads whole as a value that is not finite.
bool isNonFiniteNumber(std::string_view word) {
  if (word.empty() || word.size() > 64) return false;
  const std::string text(word);
  char* end = nullptr;
  const double value = std::strtod(text.c_str(), &end);
  return end == text.c_str() + text.size() && !std::isfinite(value);
}

// GML: "weight nan" or "value inf" anywhere on the line.
bool hasNonFiniteWeight(std::string_view line) {
  std::string_view rest = line;
  for (auto word = nextWord(rest); !word.empty(); word = nextWord(rest)) {
    std::string key(word);
    std::transform(key.begin(), key.end(), key.begin(), [](unsigned char c) { return std::tolower(c); });
    if ((key == "weight" || key == "value") && isNonFiniteNumber(nextWord(rest))) return true;
  }
  return false;
}

void scanLines(const std::filesystem::path& source, GraphFormat format, const ImportControl& control, IgraphScan& scan,
               bool& content) {
  ProgressThrottle progress(control);
  LineReader lines(source, LineReader::Options{kMaxIgraphLineBytes, true});
  PajekScanner pajek(scan);
  std::string_view line;
  while (lines.next(line)) {
    if (const auto bad = utf8::firstInvalid(line); bad != utf8::npos) lines.fail(utf8::invalidMessage(line, bad));
    if (!trimSpaces(line).empty()) content = true;
    if (format == GraphFormat::Pajek) pajek.line(line, lines);
    if (format == GraphFormat::Gml && scan.nonFiniteLine == 0 && hasNonFiniteWeight(line))
      scan.nonFiniteLine = lines.lineNumber();
    progress.update(lines.bytesConsumed(), lines.fileSize());
  }
  if (format == GraphFormat::Pajek) pajek.finish(lines);
  scan.lineCount = lines.lineNumber();
}

// UTF-16 text (a GraphML file that says so) narrowed for the scan: each code unit below 0x80 as
// its byte, any other as 'x' (the scan looks only at ASCII: '<', '>', line ends and numbers).
// A code unit split between two reads is carried over in `pending`.
class Utf16Narrower {
 public:
  explicit Utf16Narrower(bool bigEndian) : m_bigEndian(bigEndian) {}
  std::string_view narrow(const char* data, std::size_t size) {
    m_out.clear();
    std::size_t i = 0;
    if (m_hasPending && size > 0) {
      push(m_pending, data[0]);
      m_hasPending = false;
      i = 1;
    }
    for (; i + 1 < size; i += 2) push(data[i], data[i + 1]);
    if (i < size) {
      m_pending = data[i];
      m_hasPending = true;
    }
    return m_out;
  }

 private:
  void push(char a, char b) {
    const auto first = static_cast<unsigned char>(a), second = static_cast<unsigned char>(b);
    const unsigned unit = m_bigEndian ? (first << 8) | second : (second << 8) | first;
    m_out.push_back(unit == 0 ? '\0' : unit < 0x80 ? static_cast<char>(unit) : 'x');
  }
  bool m_bigEndian;
  std::string m_out;
  char m_pending = 0;
  bool m_hasPending = false;
};

// GraphML may be one huge line and may declare another encoding, so only bytes are looked at: the
// file's own for UTF-8 (or any ASCII-based encoding), the narrowed code units for UTF-16 with a
// byte order mark (libxml2 reads it as such).
void scanBytes(const std::filesystem::path& source, const ImportControl& control, IgraphScan& scan, bool& content) {
  ProgressThrottle progress(control);
  const std::string file = source.string();
  const auto f = openInputFile(source);  // igraph's readers take a FILE*
  std::error_code ec;
  const auto total = std::filesystem::file_size(source, ec);
  std::vector<char> buffer(std::size_t{1} << 20);
  std::int64_t line = 1;
  std::uint64_t done = 0;
  char last = '\n';
  // The text of the element being read (">NaN<"), kept across buffers, for nonFiniteLine.
  std::string text;
  bool inText = false;
  std::optional<Utf16Narrower> utf16;
  while (const std::size_t read = std::fread(buffer.data(), 1, buffer.size(), f.get())) {
    const char* begin = buffer.data();
    std::size_t got = read;
    if (done == 0 && read >= 2) {
      const bool little = std::memcmp(begin, "\xFF\xFE", 2) == 0, big = std::memcmp(begin, "\xFE\xFF", 2) == 0;
      if (little || big) {
        utf16.emplace(big);
        begin += 2;
        got -= 2;
      }
    }
    done += read;
    progress.update(done, ec ? 0 : total);
    if (utf16) {
      const auto narrowed = utf16->narrow(begin, got);
      begin = narrowed.data();
      got = narrowed.size();
    }
    if (got == 0) continue;
    if (const void* nul = std::memchr(begin, '\0', got)) {
      line += std::count(begin, static_cast<const char*>(nul), '\n');
      throw InputError(file, line, "contains a NUL byte: this looks like a binary file, not text");
    }
    if (!content) {
      const char* first =
          std::find_if(begin, begin + got, [](char c) { return !std::isspace(static_cast<unsigned char>(c)); });
      if (first != begin + got) {
        const bool bom =
            !utf16 && done == read && first == begin && got >= 3 && std::memcmp(begin, "\xEF\xBB\xBF", 3) == 0;
        content = true;
        if (*first != '<' && !bom)
          throw InputError(file, line + std::count(begin, first, '\n'),
                           "does not look like GraphML: an XML file starts with '<' (such as <?xml or <graphml>)");
      }
    }
    if (scan.nonFiniteLine == 0) {
      std::int64_t at = line;
      for (const char* c = begin; c != begin + got; ++c) {
        if (*c == '\n') ++at;
        if (*c == '>') {
          inText = true;
          text.clear();
        } else if (*c == '<') {
          if (inText && isNonFiniteNumber(trimSpaces(text))) {
            scan.nonFiniteLine = at;
            break;
          }
          inText = false;
        } else if (inText && text.size() <= 64) {
          text += *c;
        }
      }
    }
    line += std::count(begin, begin + got, '\n');
    last = begin[got - 1];
  }
  scan.lineCount = last == '\n' ? line - 1 : line;
}

}  // namespace

IgraphScan scanForIgraph(const std::filesystem::path& source, GraphFormat format, const ImportControl& control) {
  IgraphScan scan;
  bool content = false;
  if (format == GraphFormat::GraphMl)
    scanBytes(source, control, scan, content);
  else
    scanLines(source, format, control, scan, content);
  if (!content) throw InputError(source.string(), 0, "holds no graph, only blank lines");
  return scan;
}

}  // namespace latent::core::graph_detail
