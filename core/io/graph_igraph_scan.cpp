// SPDX-License-Identifier: GPL-3.0-or-later
// The look at a GML, GraphML or Pajek file before igraph parses it, so errors can name a line.
//
// igraph's parsers give no line for some errors and none at all for bad bytes, so this pass
// rejects, with the line: a NUL byte (a binary file); for GML and Pajek, invalid UTF-8 and lines
// over 4 MB; for GraphML, a first non-blank character other than '<' (libxml2 would only say
// "Document is empty"); for Pajek, an *Arcs/*Edges line naming a vertex outside 1..n. A file of
// blank lines holds no graph. It also notes, for Pajek's plain *Arcs/*Edges lines, each edge's
// line and whether it gives a value: igraph 0.10.2 pads the weights of earlier edges without a
// value with 0 (later ones with NaN), and the reader needs to tell those from a written 0. And it
// notes where a file mixes *Arcs and *Edges: igraph 0.10.2 then takes the direction of the last
// section for the whole graph, so the reader refuses such a file unless --undirected is given.
#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <memory>

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
      if (keyword == "*vertices") m_vertices = parseInteger(nextWord(rest)).value_or(-1);
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
    m_scan.pajekEdgeLines.push_back(lines.lineNumber());
    m_scan.pajekEdgeHasValue.push_back(parseReal(nextWord(rest)).has_value());
  }

 private:
  IgraphScan& m_scan;
  std::int64_t m_vertices = -1;
  bool m_pairs = false;
  bool m_seenArcs = false, m_seenEdges = false;
};

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
    progress.update(lines.bytesConsumed(), lines.fileSize());
  }
  scan.lineCount = lines.lineNumber();
}

// GraphML may be one huge line and may declare another encoding, so only bytes are looked at.
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
  while (const std::size_t got = std::fread(buffer.data(), 1, buffer.size(), f.get())) {
    const char* begin = buffer.data();
    if (const void* nul = std::memchr(begin, '\0', got)) {
      line += std::count(begin, static_cast<const char*>(nul), '\n');
      throw InputError(file, line, "contains a NUL byte: this looks like a binary file, not text");
    }
    if (!content) {
      const char* first =
          std::find_if(begin, begin + got, [](char c) { return !std::isspace(static_cast<unsigned char>(c)); });
      if (first != begin + got) {
        content = true;
        const bool bom = done == 0 && first == begin && got >= 3 && std::memcmp(begin, "\xEF\xBB\xBF", 3) == 0;
        if (*first != '<' && !bom)
          throw InputError(file, line + std::count(begin, first, '\n'),
                           "does not look like GraphML: an XML file starts with '<' (such as <?xml or <graphml>)");
      }
    }
    line += std::count(begin, begin + got, '\n');
    last = begin[got - 1];
    done += got;
    progress.update(done, ec ? 0 : total);
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
