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
#include <charconv>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <optional>
#include <set>
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

// A word strtod reads whole but only by overflowing or underflowing the range of a double
// ("1e999", "1e-999"): igraph's parsers fail on it with "Failed to parse real number" and no line.
bool isOutOfRangeNumber(std::string_view word) {
  if (word.empty() || word.size() > 400) return false;
  const char c = word.front();
  if (!std::isdigit(static_cast<unsigned char>(c)) && c != '-' && c != '+' && c != '.') return false;
  // Only an exponent (decimal or hexadecimal) or some 300 digits leave a double's range: most
  // words are weights and vertex numbers, which need no strtod here.
  if (word.size() < 300 && word.find_first_of("eEpP") == std::string_view::npos) return false;
  const std::string text(word);
  char* end = nullptr;
  errno = 0;
  std::strtod(text.c_str(), &end);
  return end == text.c_str() + text.size() && errno == ERANGE;
}

void suspectNumber(IgraphScan& scan, std::string_view word, std::int64_t line) {
  if (isOutOfRangeNumber(word))
    scan.suspect("real number", line, shownText(std::string(word)) + " is beyond the range of a double");
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
        // "*Vertices n n1": a two-mode network whose first n1 vertices are one kind.
        if (const auto firstKind = parseInteger(nextWord(rest));
            firstKind && (*firstKind < 0 || *firstKind > m_vertices))
          m_scan.suspect("bipartite", m_verticesLine,
                         "the first kind's " + std::to_string(*firstKind) + " vertices are not among the " +
                             std::to_string(m_vertices) + " declared");
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
    checkNumbers(text, lines.lineNumber());
    if (m_inVertices && parseInteger(first)) {
      ++m_labelled;
      if (const auto v = *parseInteger(first); m_vertices >= 0 && (v < 1 || v > m_vertices))
        m_scan.suspect("Invalid vertex id", lines.lineNumber());
    }
    // igraph takes an unclosed quote for a label running to the end of the line.
    if (m_inVertices && std::count(text.begin(), text.end(), '"') % 2 != 0)
      lines.fail("this vertex line opens a quote it does not close");
    if (m_matrix) {
      ++m_matrixRows;
      std::int64_t values = 0;
      for (auto word = first; !word.empty(); word = nextWord(rest)) ++values;
      if (m_vertices >= 0 && (m_matrixRows > m_vertices || values > m_vertices))
        m_scan.suspect("Out-of-range vertex IDs", lines.lineNumber(),
                       "*Matrix row " + std::to_string(m_matrixRows) + " reaches beyond the " +
                           std::to_string(m_vertices) + " vertices *Vertices declares");
    }
    if (m_lists)
      for (auto word = first; !word.empty(); word = nextWord(rest)) {
        const auto v = parseInteger(word).value_or(0);
        m_used = std::max(m_used, v);
        if (m_vertices >= 0 && (v < 1 || v > m_vertices))
          m_scan.suspect("Out-of-range vertex IDs", lines.lineNumber(),
                         "vertex " + std::string(word) + " is out of range: *Vertices declares " +
                             std::to_string(m_vertices) + " vertices, numbered 1 to " + std::to_string(m_vertices));
      }
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

  // Words outside quotes that are numbers beyond a double's range.
  void checkNumbers(std::string_view text, std::int64_t line) {
    bool quoted = false;
    std::string_view rest = text;
    for (auto word = nextWord(rest); !word.empty(); word = nextWord(rest)) {
      const auto quotes = std::count(word.begin(), word.end(), '"');
      if (!quoted && quotes == 0) suspectNumber(m_scan, word, line);
      if (quotes % 2 != 0) quoted = !quoted;
    }
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

// GML's structure, as far as errors need it: where each node and edge of the first graph starts
// (at depth 1 inside "graph [") and the numbers igraph cannot read. Strings may span lines.
class GmlScanner {
 public:
  explicit GmlScanner(IgraphScan& scan) : m_scan(scan) {}

  void line(std::string_view text, std::int64_t line) {
    std::size_t i = 0;
    while (i < text.size()) {
      if (m_inString) {
        const auto close = text.find('"', i);
        if (close == std::string_view::npos) return;
        m_inString = false;
        i = close + 1;
        continue;
      }
      const char c = text[i];
      if (c == ' ' || c == '\t' || c == '\r') {
        ++i;
      } else if (c == '#') {
        return;  // a comment to the end of the line
      } else if (c == '"') {
        m_inString = true;
        m_key.clear();
        ++i;
      } else if (c == '[') {
        open(line);
        ++i;
      } else if (c == ']') {
        if (m_depth > 0 && --m_depth == 0 && m_inGraph) {
          m_inGraph = false;
          m_graphDone = true;
        }
        m_key.clear();
        ++i;
      } else {
        std::size_t j = i;
        while (j < text.size() && text[j] != ' ' && text[j] != '\t' && text[j] != '\r' && text[j] != '[' &&
               text[j] != ']' && text[j] != '"')
          ++j;
        const auto word = text.substr(i, j - i);
        suspectNumber(m_scan, word, line);
        m_key.assign(word);
        i = j;
      }
    }
  }

 private:
  void open(std::int64_t line) {
    if (m_depth == 0 && m_key == "graph" && !m_graphDone) m_inGraph = true;
    if (m_depth == 1 && m_inGraph) {
      if (m_key == "node") m_scan.nodeLines.push_back(line);
      if (m_key == "edge") m_scan.edgeLines.push_back(line);
    }
    ++m_depth;
    m_key.clear();
  }

  IgraphScan& m_scan;
  std::string m_key;  // the last word, which names the list a '[' opens
  std::int64_t m_depth = 0;
  bool m_inString = false, m_inGraph = false, m_graphDone = false;
};

void scanLines(const std::filesystem::path& source, GraphFormat format, const ImportControl& control, IgraphScan& scan,
               bool& content) {
  ProgressThrottle progress(control);
  LineReader lines(source, LineReader::Options{kMaxIgraphLineBytes, true});
  PajekScanner pajek(scan);
  GmlScanner gml(scan);
  std::string_view line;
  while (lines.next(line)) {
    if (const auto bad = utf8::firstInvalid(line); bad != utf8::npos) lines.fail(utf8::invalidMessage(line, bad));
    if (!trimSpaces(line).empty()) content = true;
    if (format == GraphFormat::Pajek) pajek.line(line, lines);
    if (format == GraphFormat::Gml) {
      gml.line(line, lines.lineNumber());
      if (scan.nonFiniteLine == 0 && hasNonFiniteWeight(line)) scan.nonFiniteLine = lines.lineNumber();
    }
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

// The value of attribute `name` in a tag's text ("node id=\"a\"" -> a); nothing when it has none.
std::optional<std::string_view> tagAttribute(std::string_view tag, std::string_view name) {
  const auto space = [](char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; };
  for (auto at = tag.find(name); at != std::string_view::npos; at = tag.find(name, at + 1)) {
    if (at == 0 || !space(tag[at - 1])) continue;
    auto i = at + name.size();
    while (i < tag.size() && space(tag[i])) ++i;
    if (i >= tag.size() || tag[i] != '=') continue;
    ++i;
    while (i < tag.size() && space(tag[i])) ++i;
    if (i >= tag.size() || (tag[i] != '"' && tag[i] != '\'')) continue;
    const auto close = tag.find(tag[i], i + 1);
    if (close == std::string_view::npos) return std::nullopt;
    return tag.substr(i + 1, close - i - 1);
  }
  return std::nullopt;
}

// An attribute's value as an XML parser hands it on: the five named entities and character
// references decoded (node ids are compared with igraph's); anything else left as written.
std::string decodeXmlAttribute(std::string_view raw) {
  std::string out;
  out.reserve(raw.size());
  for (std::size_t i = 0; i < raw.size(); ++i) {
    const auto semicolon = raw[i] == '&' ? raw.find(';', i) : std::string_view::npos;
    if (semicolon == std::string_view::npos || semicolon - i > 12) {
      out += raw[i];
      continue;
    }
    const auto entity = raw.substr(i + 1, semicolon - i - 1);
    std::optional<std::uint32_t> code;
    if (entity == "amp")
      code = '&';
    else if (entity == "lt")
      code = '<';
    else if (entity == "gt")
      code = '>';
    else if (entity == "quot")
      code = '"';
    else if (entity == "apos")
      code = '\'';
    else if (entity.size() > 1 && entity[0] == '#') {
      const bool hex = entity[1] == 'x' || entity[1] == 'X';
      const auto digits = entity.substr(hex ? 2 : 1);
      std::uint32_t value = 0;
      const auto [end, error] = std::from_chars(digits.data(), digits.data() + digits.size(), value, hex ? 16 : 10);
      if (error == std::errc() && end == digits.data() + digits.size() && !digits.empty() && value <= 0x10FFFF)
        code = value;
    }
    if (!code) {
      out += raw[i];
      continue;
    }
    // UTF-8 of the code point.
    const auto c = *code;
    if (c < 0x80) {
      out += static_cast<char>(c);
    } else if (c < 0x800) {
      out += static_cast<char>(0xC0 | (c >> 6));
      out += static_cast<char>(0x80 | (c & 0x3F));
    } else if (c < 0x10000) {
      out += static_cast<char>(0xE0 | (c >> 12));
      out += static_cast<char>(0x80 | ((c >> 6) & 0x3F));
      out += static_cast<char>(0x80 | (c & 0x3F));
    } else {
      out += static_cast<char>(0xF0 | (c >> 18));
      out += static_cast<char>(0x80 | ((c >> 12) & 0x3F));
      out += static_cast<char>(0x80 | ((c >> 6) & 0x3F));
      out += static_cast<char>(0x80 | (c & 0x3F));
    }
    i = semicolon;
  }
  return out;
}

// GraphML's elements as far as errors need them, from the bytes: the lines of the first graph's
// edges and nodes, the first element behind each igraph error that comes without a line, the first
// text that is a non-finite number, and the size of every tag and text. libxml2 takes time
// superlinear in the length of one text node (a 50 MB attribute took five minutes), and igraph
// cannot be interrupted inside it, so a tag or text beyond kMaxIgraphLineBytes is refused here,
// with its line, before igraph sees the file.
class GraphmlScanner {
 public:
  GraphmlScanner(IgraphScan& scan, std::string file) : m_scan(scan), m_file(std::move(file)) {}

  void feed(const char* begin, std::size_t size) {
    for (const char* c = begin; c != begin + size; ++c) {
      if (m_inTag) {
        // An element's attribute values may hold '>'; comments and the like have no quotes.
        if (m_quote != 0) {
          if (*c == m_quote) m_quote = 0;
        } else if ((*c == '"' || *c == '\'') && !m_tag.empty() && m_tag.front() != '!' && m_tag.front() != '?') {
          m_quote = *c;
        }
        if (*c == '>' && m_quote == 0 && tagEnds()) {
          m_inTag = false;
          tag();
          m_tag.clear();
          m_textSize = 0;
          m_text.clear();
          m_textLine = m_line;
        } else {
          m_tag += *c;
          if (m_tag.size() > kMaxIgraphLineBytes)
            throw InputError(m_file, m_tagLine,
                             "holds a tag (or comment) longer than 4 MB; names and attributes that long are taken "
                             "for a damaged file");
        }
      } else if (*c == '<') {
        text();
        m_inTag = true;
        m_tagLine = m_line;
      } else {
        if (++m_textSize > kMaxIgraphLineBytes)
          throw InputError(m_file, m_textLine,
                           "holds a text longer than 4 MB in one element; names and attributes that long are "
                           "taken for a damaged file");
        if (m_text.size() <= 64) m_text += *c;
      }
      if (*c == '\n') ++m_line;
    }
  }

 private:
  // A '>' ends a tag, except inside a comment or CDATA section (which end with "-->" and "]]>").
  bool tagEnds() const {
    const std::string_view t = m_tag;
    if (t.starts_with("!--")) return t.size() >= 5 && t.ends_with("--");
    if (t.starts_with("![CDATA[")) return t.ends_with("]]");
    return true;
  }

  void text() {
    if (m_scan.nonFiniteLine == 0 && m_text.size() <= 64 && isNonFiniteNumber(trimSpaces(m_text)))
      m_scan.nonFiniteLine = m_line;
  }

  void tag() {
    std::string_view t = m_tag;
    if (t.empty() || t.front() == '?' || t.front() == '!') return;
    const bool closing = t.front() == '/';
    if (closing) t.remove_prefix(1);
    auto nameEnd = t.find_first_of(" \t\r\n/");
    auto name = t.substr(0, nameEnd);
    if (const auto colon = name.find(':'); colon != std::string_view::npos) name.remove_prefix(colon + 1);
    if (closing) {
      if (name == "graph" && m_graphDepth > 0 && --m_graphDepth == 0) m_graphDone = true;
      if (name == "data" && m_numericKeys.count(m_dataKey) > 0) checkNumber();
      m_dataKey.clear();
      return;
    }
    const bool inGraph = m_graphDepth == 1 && !m_graphDone;
    if (name == "key") {
      const auto id = tagAttribute(t, "id");
      if (!id) m_scan.suspect("no 'id' attribute", m_tagLine);
      const auto type = tagAttribute(t, "attr.type");
      if (type && *type != "boolean" && *type != "string" && *type != "int" && *type != "long" && *type != "float" &&
          *type != "double")
        m_scan.suspect("Unknown attribute type", m_tagLine);
      if (id && type && (*type == "int" || *type == "long" || *type == "float" || *type == "double"))
        m_numericKeys.emplace(*id);
    } else if (name == "graph") {
      if (!m_graphDone && !t.ends_with("/")) ++m_graphDepth;
    } else if (name == "node" && inGraph) {
      if (const auto id = tagAttribute(t, "id"))
        m_scan.nodeIdLines.try_emplace(decodeXmlAttribute(*id), m_tagLine);
      else
        m_scan.suspect("Node with missing ID", m_tagLine);
    } else if (name == "edge" && inGraph) {
      m_scan.edgeLines.push_back(m_tagLine);
      const auto from = tagAttribute(t, "source"), to = tagAttribute(t, "target");
      if (!from || !to) m_scan.suspect("missing source or target", m_tagLine);
      for (const auto& end : {from, to})
        if (end) m_scan.edgeEndLines.try_emplace(decodeXmlAttribute(*end), m_tagLine);
    } else if (name == "data" && !t.ends_with("/")) {
      m_dataKey = std::string(tagAttribute(t, "key").value_or(""));
      m_dataLine = m_tagLine;
    }
  }

  // The text of a <data> element whose key declares a number.
  void checkNumber() {
    const auto value = trimSpaces(m_text);
    if (value.empty()) return;  // igraph reads a missing number as NaN
    if (m_textSize > 64) {
      m_scan.suspect("real number", m_dataLine, "this <data> is text, not a number");
      return;
    }
    const std::string text(value);
    char* end = nullptr;
    errno = 0;
    std::strtod(text.c_str(), &end);
    if (end != text.c_str() + text.size())
      m_scan.suspect("real number", m_dataLine, shownText(text) + " is not a number");
    else if (errno == ERANGE)
      m_scan.suspect("real number", m_dataLine, shownText(text) + " is beyond the range of a double");
  }

  IgraphScan& m_scan;
  std::string m_file;
  std::int64_t m_line = 1, m_tagLine = 1, m_textLine = 1, m_dataLine = 0;
  bool m_inTag = false;
  char m_quote = 0;  // the quote of the attribute value being read, 0 outside one
  std::string m_tag;
  std::string m_text;  // the current text's first 65 bytes
  std::size_t m_textSize = 0;
  int m_graphDepth = 0;
  bool m_graphDone = false;
  std::string m_dataKey;
  std::set<std::string, std::less<>> m_numericKeys;
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
  GraphmlScanner elements(scan, file);
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
    elements.feed(begin, got);
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

std::int64_t findPajekVertexLine(const std::filesystem::path& source, std::int64_t number) {
  LineReader lines(source, LineReader::Options{kMaxIgraphLineBytes, true});
  std::string_view line;
  bool vertices = false, pairs = false, lists = false;
  while (lines.next(line)) {
    std::string_view rest = trimSpaces(line);
    const auto first = nextWord(rest);
    if (first.empty() || first.front() == '%') continue;
    if (first.front() == '*') {
      std::string keyword(first);
      std::transform(keyword.begin(), keyword.end(), keyword.begin(),
                     [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
      vertices = keyword == "*vertices";
      pairs = keyword == "*arcs" || keyword == "*edges";
      lists = keyword == "*arcslist" || keyword == "*edgeslist";
      continue;
    }
    const auto names = [&](std::string_view word) { return parseInteger(word) == number; };
    if (vertices && names(first)) return lines.lineNumber();
    if (pairs && (names(first) || names(nextWord(rest)))) return lines.lineNumber();
    if (lists)
      for (auto word = first; !word.empty(); word = nextWord(rest))
        if (names(word)) return lines.lineNumber();
  }
  return 0;
}

}  // namespace latent::core::graph_detail
