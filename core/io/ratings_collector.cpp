// SPDX-License-Identifier: GPL-3.0-or-later
// RatingsCollector and the duplicate check shared by every ratings reader, plus their messages.
#include <algorithm>
#include <cctype>
#include <cstdio>
#include <limits>

#include "core/io/ratings_reading.hpp"
#include "core/util/ascii.hpp"
#include "core/util/errors.hpp"
#include "core/util/utf8.hpp"

namespace latent::core::ratings_detail {
namespace {

std::string quoted(std::string_view text) { return "'" + shown(text) + "'"; }

}  // namespace

std::string shown(std::string_view text, std::size_t maxBytes) {
  std::string out;
  while (!text.empty()) {
    const std::size_t bad = utf8::firstInvalid(text);
    const std::string_view good = text.substr(0, bad);
    if (out.size() + good.size() > maxBytes) {
      std::size_t cut = maxBytes - out.size();
      while (cut > 0 && (static_cast<unsigned char>(good[cut]) & 0xC0) == 0x80) --cut;
      out.append(good.substr(0, cut));
      return out + "...";
    }
    out.append(good);
    if (bad == utf8::npos) break;
    if (out.size() + 1 > maxBytes) return out + "...";
    out.push_back('?');
    text.remove_prefix(bad + 1);
  }
  return out;
}

RatingsCollector::RatingsCollector(std::string fileName, const ImportControl& control)
    : m_file(std::move(fileName)), m_maxRecords(control.maxRecords) {}

bool RatingsCollector::full() const noexcept {
  return m_maxRecords >= 0 && static_cast<std::int64_t>(m_ratings.size()) >= m_maxRecords;
}

void RatingsCollector::add(std::string_view user, std::string_view item, double value, std::int64_t time,
                           std::int64_t line) {
  // Indices are 32-bit (in the containers and the duplicate check).
  if (m_ratings.size() >= static_cast<std::size_t>(std::numeric_limits<std::int32_t>::max()))
    throw InputError(m_file, line, "holds more than 2 billion ratings, more than Latent Studio can import");
  const auto index = m_ratings.size();
  const std::int64_t step = line - static_cast<std::int64_t>(index);
  if (m_lineSteps.empty() || m_lineSteps.back().second != step) m_lineSteps.emplace_back(index, step);
  m_ratings.push_back({m_users.intern(user), m_items.intern(item), value, time});
}

std::int64_t RatingsCollector::lineOf(std::size_t index) const {
  auto it = std::upper_bound(m_lineSteps.begin(), m_lineSteps.end(), index,
                             [](std::size_t i, const auto& step) { return i < step.first; });
  // m_lineSteps starts at index 0, so `it` is never begin() for a valid index.
  --it;
  return static_cast<std::int64_t>(index) + it->second;
}

Ratings RatingsCollector::finish(bool hasTime) {
  DuplicatePair dup;
  if (findFirstDuplicate(m_ratings, m_users.size(), m_items.size(), dup)) {
    const Rating& r = m_ratings[dup.second];
    throw InputError(m_file, lineOf(dup.second),
                     "user " + shown(m_users.ids()[static_cast<std::size_t>(r.user)]) + " rated item " +
                         shown(m_items.ids()[static_cast<std::size_t>(r.item)]) + " twice (lines " +
                         std::to_string(lineOf(dup.first)) + " and " + std::to_string(lineOf(dup.second)) +
                         "); keep one rating per user and item");
  }
  Ratings out;
  out.userIds = m_users.release();
  out.itemIds = m_items.release();
  out.itemNames = out.itemIds;
  out.ratings = std::move(m_ratings);
  out.hasTime = hasTime;
  m_lineSteps.clear();
  return out;
}

bool findFirstDuplicate(const std::vector<Rating>& ratings, std::size_t userCount, std::size_t itemCount,
                        DuplicatePair& found) {
  // Counting sort of rating indices by user keeps file order within each user.
  std::vector<std::uint32_t> start(userCount + 1, 0);
  for (const auto& r : ratings) ++start[static_cast<std::size_t>(r.user) + 1];
  for (std::size_t u = 0; u < userCount; ++u) start[u + 1] += start[u];
  std::vector<std::uint32_t> byUser(ratings.size());
  {
    std::vector<std::uint32_t> fill(start.begin(), start.end() - 1);
    for (std::size_t i = 0; i < ratings.size(); ++i)
      byUser[fill[static_cast<std::size_t>(ratings[i].user)]++] = static_cast<std::uint32_t>(i);
  }
  // seenBy[item] = 1 + the last user who rated it, firstAt[item] = where that user did.
  std::vector<std::uint32_t> seenBy(itemCount, 0), firstAt(itemCount, 0);
  bool any = false;
  for (std::size_t u = 0; u < userCount; ++u) {
    for (std::uint32_t k = start[u]; k < start[u + 1]; ++k) {
      const std::uint32_t i = byUser[k];
      const auto item = static_cast<std::size_t>(ratings[i].item);
      if (seenBy[item] == u + 1) {
        // The first repeat of this user is its earliest; keep the earliest over all users.
        if (!any || i < found.second) found = {firstAt[item], i};
        any = true;
        break;
      }
      seenBy[item] = static_cast<std::uint32_t>(u + 1);
      firstAt[item] = i;
    }
  }
  return any;
}

std::string decodeItemText(std::string_view text, bool& wasLatin1) {
  wasLatin1 = !utf8::isValid(text);
  return wasLatin1 ? utf8::fromLatin1(text) : std::string(text);
}

std::string badRatingMessage(std::string_view text) {
  if (text.empty()) return "the rating is empty";
  const std::string lower = lowerAscii(text);
  const std::string_view unsignedLower =
      lower.front() == '-' || lower.front() == '+' ? std::string_view(lower).substr(1) : std::string_view(lower);
  if (unsignedLower == "nan" || unsignedLower == "inf" || unsignedLower == "infinity")
    return "rating " + quoted(text) + " is not a finite number";
  if (!utf8::isValid(text)) return "the rating is not a number (it holds bytes that are not UTF-8 text)";
  return "rating " + quoted(text) + " is not a number";
}

std::string badTimeMessage(std::string_view text) {
  if (text.empty()) return "the timestamp is empty";
  if (!utf8::isValid(text)) return "the timestamp is not a whole number (it holds bytes that are not UTF-8 text)";
  return "timestamp " + quoted(text) +
         " is not a whole number of seconds (dates such as 2004-05-01 are not read: give seconds since 1970)";
}

std::string badUtf8Message(std::string_view what, std::string_view text) {
  const std::size_t offset = utf8::firstInvalid(text);
  char hex[8];
  std::snprintf(hex, sizeof hex, "0x%02X", static_cast<unsigned>(static_cast<unsigned char>(text[offset])));
  return std::string(what) + " is not valid UTF-8 (byte " + hex +
         "); save the file as UTF-8, for example with iconv -f latin1 -t utf-8";
}

}  // namespace latent::core::ratings_detail
