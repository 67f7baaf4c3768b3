// SPDX-License-Identifier: GPL-3.0-or-later
// RFC 4180 output: quotes a field only when it holds a comma, a quote or a line break.
#pragma once

#include <ostream>
#include <string>
#include <string_view>

namespace latent::core {

class CsvWriter {
 public:
  explicit CsvWriter(std::ostream& out) : m_out(out) {}

  CsvWriter& field(std::string_view text);
  CsvWriter& field(double value);  // shortest text that reads back to the same double
  CsvWriter& field(std::int64_t value);
  CsvWriter& field(int value) { return field(static_cast<std::int64_t>(value)); }
  CsvWriter& field(std::size_t value) { return field(static_cast<std::int64_t>(value)); }
  void endRow();

 private:
  void separator();
  std::ostream& m_out;
  bool m_rowStarted = false;
};

}  // namespace latent::core
