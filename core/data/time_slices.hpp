// SPDX-License-Identifier: GPL-3.0-or-later
// Documents' times as years, and their grouping into time slices of a fixed width (the dynamic topic
// model's slices, 000 §27.4.2): slices aligned to multiples of the width (decades start at 1790,
// 1800, ...), empty slices kept between the first and the last so that time runs evenly.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace latent::core {

// A time as a year with its fraction: a number ("1790", "1790.5", "-44") or an ISO date
// ("1790-01-08", "1790-01", "2001-09-11T09:00:00Z"; the part after the day is ignored). Empty or
// anything else: nullopt.
std::optional<double> parseYear(std::string_view text);

struct TimeSlices {
  double width = 1.0;
  std::vector<double> starts;           // slice t covers [starts[t], starts[t] + width)
  std::vector<std::int32_t> sliceOf;    // per document of the input
  std::vector<std::int64_t> documents;  // per slice

  std::size_t size() const noexcept { return starts.size(); }
  // "1790" for a slice of whole years one year wide, "1790-1799" for a decade, "1790.5-1791" otherwise.
  std::string label(std::size_t slice) const;
};

// The most slices a corpus may be cut into (each is a state of every topic's random walk).
inline constexpr std::size_t kMaxTimeSlices = 2000;

// The slices of documents with these times (UsageError naming the first document without a
// readable time, or when the slices would be more than kMaxTimeSlices).
TimeSlices sliceByTime(std::span<const std::string> times, double width);

// The slice a time falls in, or -1 outside them (and for an unreadable time).
std::int32_t sliceOfTime(const TimeSlices& slices, std::string_view time);

}  // namespace latent::core
