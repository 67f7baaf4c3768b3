// SPDX-License-Identifier: GPL-3.0-or-later
// The blocks of rows of distributed ALS and their messages.
#include "core/models/ratings/pmf_als_distribution.hpp"

#include <algorithm>

namespace latent::core::pmf {

std::vector<std::int32_t> alsRowBlocks(std::span<const std::int64_t> start, int factors, int processes) {
  const auto rows = static_cast<std::int32_t>(start.size() - 1);
  const auto work = [&](std::int32_t r) {  // work of rows [0, r)
    return start[static_cast<std::size_t>(r)] - start[0] + std::int64_t(factors + 1) * r;
  };
  const std::int64_t total = work(rows);
  std::vector<std::int32_t> bounds(static_cast<std::size_t>(processes) + 1, 0);
  bounds.back() = rows;
  std::int32_t r = 0;
  for (int q = 1; q < processes; ++q) {
    // The first row whose preceding work reaches q / Q of the whole.
    const std::int64_t target = total * q / processes;
    while (r < rows && work(r) < target) ++r;
    bounds[static_cast<std::size_t>(q)] = r;
  }
  return bounds;
}

void appendRowBlock(Bytes& out, const FactorTable& rows, std::span<const float> bias, std::int32_t first,
                    std::int32_t last, bool stopped) {
  const auto K = static_cast<std::size_t>(rows.factors);
  out.reserve(out.size() + static_cast<std::size_t>(last - first) * (K + 1) * sizeof(float) + 1);
  for (std::int32_t r = first; r < last; ++r) appendValues(out, std::span<const float>(rows.row(r), K));
  appendValues(out, bias.subspan(static_cast<std::size_t>(first), static_cast<std::size_t>(last - first)));
  appendValue(out, static_cast<std::uint8_t>(stopped ? 1 : 0));
}

bool readRowBlock(std::span<const std::byte> in, FactorTable& rows, std::span<float> bias, std::int32_t first,
                  std::int32_t last) {
  const auto K = static_cast<std::size_t>(rows.factors);
  ByteReader reader(in);
  for (std::int32_t r = first; r < last; ++r) reader.read(std::span<float>(rows.row(r), K));
  reader.read(bias.subspan(static_cast<std::size_t>(first), static_cast<std::size_t>(last - first)));
  const bool stopped = reader.read<std::uint8_t>() != 0;
  if (!reader.done()) throw CommunicatorError("a block of ALS rows was longer than its rows");
  return stopped;
}

}  // namespace latent::core::pmf
