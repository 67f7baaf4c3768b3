// SPDX-License-Identifier: GPL-3.0-or-later
// LineReader: chunked reading with a growing buffer bounded by the longest allowed line.
#include "core/util/line_reader.hpp"

#include <algorithm>
#include <cerrno>
#include <cstring>

#include "core/util/errors.hpp"
#include "core/util/input_file.hpp"

namespace latent::core {
namespace {

constexpr std::size_t kChunk = std::size_t{1} << 20;
// The least a reader of a small file holds: its first read then takes the whole file.
constexpr std::size_t kSmallestBuffer = std::size_t{4} << 10;

std::string megabytes(std::size_t bytes) { return std::to_string((bytes + (1 << 20) - 1) >> 20) + " MB"; }

}  // namespace

LineReader::LineReader(const std::filesystem::path& path, Options options) : m_name(path.string()), m_options(options) {
  m_file = openInputFile(path).release();
  std::error_code ec;
  const auto size = std::filesystem::file_size(path, ec);
  m_size = ec ? 0 : size;
  // A file smaller than a chunk gets a buffer of its size: formats are detected by opening a file
  // several times to read its first lines, and a chunk zeroed for each of those was most of the
  // memory touched importing a small file. A file of unknown size (a pipe) reads by chunks.
  m_buffer.resize(ec ? kChunk : std::clamp<std::size_t>(static_cast<std::size_t>(size) + 1, kSmallestBuffer, kChunk));
}

LineReader::~LineReader() {
  if (m_file) std::fclose(m_file);
}

void LineReader::fail(const std::string& reason) const { throw InputError(m_name, m_line, reason); }

bool LineReader::fill() {
  if (m_eof) return false;
  // Move the partial line to the front, then grow only if it already fills the buffer.
  if (m_begin > 0) {
    std::memmove(m_buffer.data(), m_buffer.data() + m_begin, m_end - m_begin);
    m_end -= m_begin;
    m_begin = 0;
  }
  if (m_end == m_buffer.size()) {
    if (m_buffer.size() > m_options.maxLineBytes)
      throw InputError(
          m_name, m_line + 1,
          "line is longer than " + megabytes(m_options.maxLineBytes) + " (is this the right file and format?)");
    m_buffer.resize(std::min(m_buffer.size() * 2, m_options.maxLineBytes + kChunk));
  }
  const std::size_t got = std::fread(m_buffer.data() + m_end, 1, m_buffer.size() - m_end, m_file);
  if (got == 0) {
    if (std::ferror(m_file)) throw InputError(m_name, m_line + 1, std::string("read error: ") + std::strerror(errno));
    m_eof = true;
    return false;
  }
  m_end += got;
  return true;
}

bool LineReader::next(std::string_view& line) {
  if (!m_started) {
    m_started = true;
    fill();
    if (m_end >= 3 && std::memcmp(m_buffer.data(), "\xEF\xBB\xBF", 3) == 0) {
      m_begin = 3;
      m_consumed = 3;
    }
  }
  for (;;) {
    const char* base = m_buffer.data() + m_begin;
    const std::size_t avail = m_end - m_begin;
    const void* nl = std::memchr(base + m_scanned, '\n', avail - m_scanned);
    std::size_t length = 0;
    std::size_t advance = 0;
    if (nl) {
      length = static_cast<std::size_t>(static_cast<const char*>(nl) - base);
      advance = length + 1;
    } else {
      m_scanned = avail;
      if (fill()) continue;
      if (avail == 0) return false;
      length = avail;  // last line without a terminator
      advance = avail;
    }
    m_scanned = 0;
    ++m_line;
    if (length > m_options.maxLineBytes)
      fail("line is longer than " + megabytes(m_options.maxLineBytes) + " (is this the right file and format?)");
    if (m_options.rejectNul && std::memchr(base, '\0', length))
      fail("contains a NUL byte: this looks like a binary file, not text");
    line = std::string_view(base, length);
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    m_begin += advance;
    m_consumed += advance;
    return true;
  }
}

}  // namespace latent::core
