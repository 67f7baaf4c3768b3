// SPDX-License-Identifier: GPL-3.0-or-later
// Text written to a stream as a gzip file (RFC 1952), through zlib: what MALLET's state file is.
#pragma once

#include <ostream>
#include <string_view>
#include <vector>

#include <zlib.h>

namespace latent::core {

class GzipWriter {
 public:
  explicit GzipWriter(std::ostream& out);
  ~GzipWriter();
  GzipWriter(const GzipWriter&) = delete;
  GzipWriter& operator=(const GzipWriter&) = delete;

  GzipWriter& operator<<(std::string_view text);
  // Writes the rest and the gzip trailer; the destructor does it when not called (errors then go
  // unreported).
  void finish();

 private:
  void deflateInto(int flush);

  std::ostream& m_out;
  z_stream m_stream{};
  std::vector<unsigned char> m_buffer;
  bool m_finished = false;
};

}  // namespace latent::core
