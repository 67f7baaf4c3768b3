// SPDX-License-Identifier: GPL-3.0-or-later
// CsvWriter.
#include "core/io/csv_writer.hpp"

#include <charconv>
#include <cmath>

namespace latent::core {

void CsvWriter::separator() {
  if (m_rowStarted) m_out.put(',');
  m_rowStarted = true;
}

CsvWriter& CsvWriter::field(std::string_view text) {
  separator();
  if (text.find_first_of(",\"\r\n") == std::string_view::npos) {
    m_out << text;
    return *this;
  }
  m_out.put('"');
  for (const char c : text) {
    if (c == '"') m_out.put('"');
    m_out.put(c);
  }
  m_out.put('"');
  return *this;
}

CsvWriter& CsvWriter::field(double value) {
  separator();
  if (std::isnan(value)) return *this;  // empty field: no value
  char buffer[32];
  const auto [end, ec] = std::to_chars(buffer, buffer + sizeof buffer, value);
  m_out.write(buffer, end - buffer);
  return *this;
}

CsvWriter& CsvWriter::field(std::int64_t value) {
  separator();
  m_out << value;
  return *this;
}

void CsvWriter::endRow() {
  m_out.put('\n');
  m_rowStarted = false;
}

}  // namespace latent::core
