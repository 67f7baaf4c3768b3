// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/io/gzip_writer.hpp"

#include <stdexcept>
#include <string>

namespace latent::core {
namespace {

constexpr std::size_t kGzipChunk = 1 << 16;
// zlib's window bits for a gzip header and trailer instead of zlib's own (15 + 16).
constexpr int kGzipWindowBits = 15 + 16;
constexpr int kGzipMemoryLevel = 8;

}  // namespace

GzipWriter::GzipWriter(std::ostream& out) : m_out(out), m_buffer(kGzipChunk) {
  if (deflateInit2(&m_stream, Z_DEFAULT_COMPRESSION, Z_DEFLATED, kGzipWindowBits, kGzipMemoryLevel,
                   Z_DEFAULT_STRATEGY) != Z_OK)
    throw std::runtime_error("cannot start gzip compression");
}

GzipWriter::~GzipWriter() {
  if (!m_finished) {
    try {
      finish();
    } catch (...) {
    }
  }
  deflateEnd(&m_stream);
}

GzipWriter& GzipWriter::operator<<(std::string_view text) {
  m_stream.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(text.data()));
  m_stream.avail_in = static_cast<uInt>(text.size());
  deflateInto(Z_NO_FLUSH);
  return *this;
}

void GzipWriter::finish() {
  if (m_finished) return;
  m_finished = true;
  m_stream.next_in = nullptr;
  m_stream.avail_in = 0;
  deflateInto(Z_FINISH);
  m_out.flush();
  if (!m_out) throw std::runtime_error("cannot write the compressed output");
}

void GzipWriter::deflateInto(int flush) {
  do {
    m_stream.next_out = m_buffer.data();
    m_stream.avail_out = static_cast<uInt>(m_buffer.size());
    const int status = deflate(&m_stream, flush);
    if (status == Z_STREAM_ERROR) throw std::runtime_error("gzip compression failed");
    m_out.write(reinterpret_cast<const char*>(m_buffer.data()),
                static_cast<std::streamsize>(m_buffer.size() - m_stream.avail_out));
  } while (m_stream.avail_out == 0 || (flush == Z_FINISH && m_stream.avail_in > 0));
}

}  // namespace latent::core
