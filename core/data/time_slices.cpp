// SPDX-License-Identifier: GPL-3.0-or-later
// Reading years and dates, and cutting time into slices.
#include "core/data/time_slices.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdio>

#include "core/util/errors.hpp"

namespace latent::core {
namespace {

bool isLeap(int year) { return (year % 4 == 0 && year % 100 != 0) || year % 400 == 0; }

std::optional<int> digits(std::string_view text, std::size_t from, std::size_t count) {
  if (from + count > text.size()) return std::nullopt;
  int value = 0;
  const auto [end, error] = std::from_chars(text.data() + from, text.data() + from + count, value);
  if (error != std::errc() || end != text.data() + from + count) return std::nullopt;
  return value;
}

}  // namespace

std::optional<double> parseYear(std::string_view text) {
  while (!text.empty() && (text.front() == ' ' || text.front() == '\t')) text.remove_prefix(1);
  while (!text.empty() && (text.back() == ' ' || text.back() == '\t' || text.back() == '\r')) text.remove_suffix(1);
  if (text.empty()) return std::nullopt;
  // ISO dates: YYYY-MM or YYYY-MM-DD, perhaps followed by a time.
  if (text.size() >= 7 && text[4] == '-') {
    const auto year = digits(text, 0, 4), month = digits(text, 5, 2);
    if (!year || !month || *month < 1 || *month > 12) return std::nullopt;
    int day = 1;
    if (text.size() > 7) {
      if (text[7] != '-') return std::nullopt;
      const auto d = digits(text, 8, 2);
      if (!d || *d < 1 || *d > 31 || (text.size() > 10 && text[10] != 'T' && text[10] != ' ')) return std::nullopt;
      day = *d;
    }
    static constexpr int kDaysBefore[] = {0, 31, 59, 90, 120, 151, 181, 212, 243, 273, 304, 334};
    const double dayOfYear = kDaysBefore[*month - 1] + (day - 1) + (*month > 2 && isLeap(*year) ? 1 : 0);
    return *year + dayOfYear / (isLeap(*year) ? 366.0 : 365.0);
  }
  double value = 0.0;
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (error != std::errc() || end != text.data() + text.size() || !std::isfinite(value)) return std::nullopt;
  return value;
}

std::string TimeSlices::label(std::size_t slice) const {
  const double start = starts[slice];
  const auto whole = [](double x) { return std::abs(x - std::round(x)) < 1e-9; };
  char buffer[64];
  if (whole(start) && whole(width)) {
    const auto first = static_cast<long long>(std::llround(start));
    const auto last = first + static_cast<long long>(std::llround(width)) - 1;
    if (last == first)
      std::snprintf(buffer, sizeof buffer, "%lld", first);
    else
      std::snprintf(buffer, sizeof buffer, "%lld-%lld", first, last);
  } else {
    std::snprintf(buffer, sizeof buffer, "%g-%g", start, start + width);
  }
  return buffer;
}

TimeSlices sliceByTime(std::span<const std::string> times, double width) {
  if (!(width > 0.0 && std::isfinite(width))) throw UsageError("the slice width must be a positive number of years");
  if (times.empty())
    throw UsageError(
        "the corpus has no document times: import it with --time-column NAME (a column of years or dates)");
  std::vector<double> years;
  years.reserve(times.size());
  for (std::size_t d = 0; d < times.size(); ++d) {
    const auto year = parseYear(times[d]);
    if (!year)
      throw UsageError("document " + std::to_string(d + 1) +
                       (times[d].empty() ? " has no time"
                                         : " has the time \"" + times[d] + "\", which is neither a year nor a date") +
                       ": every document needs one (a year such as 1790 or a date such as 1790-01-08)");
    years.push_back(*year);
  }
  const auto [lowest, highest] = std::minmax_element(years.begin(), years.end());
  const double first = std::floor(*lowest / width) * width;
  const auto count = static_cast<std::size_t>(std::floor((*highest - first) / width)) + 1;
  if (count > kMaxTimeSlices)
    throw UsageError("the documents' times span " + std::to_string(count) + " slices of " + std::to_string(width) +
                     " years; at most " + std::to_string(kMaxTimeSlices) + " are allowed: choose a wider slice");
  TimeSlices out;
  out.width = width;
  for (std::size_t t = 0; t < count; ++t) out.starts.push_back(first + static_cast<double>(t) * width);
  out.documents.assign(count, 0);
  for (const double year : years) {
    const auto t = std::min(count - 1, static_cast<std::size_t>(std::floor((year - first) / width)));
    out.sliceOf.push_back(static_cast<std::int32_t>(t));
    ++out.documents[t];
  }
  return out;
}

std::int32_t sliceOfTime(const TimeSlices& slices, std::string_view time) {
  const auto year = parseYear(time);
  if (!year || slices.starts.empty()) return -1;
  const double offset = std::floor((*year - slices.starts.front()) / slices.width);
  if (offset < 0 || offset >= static_cast<double>(slices.size())) return -1;
  return static_cast<std::int32_t>(offset);
}

}  // namespace latent::core
