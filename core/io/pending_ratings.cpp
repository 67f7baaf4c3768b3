// SPDX-License-Identifier: GPL-3.0-or-later
// Temporary: lets the tree link until the ratings readers land (this file is deleted then).
#include <stdexcept>

#include "io/ratings_import.hpp"
#include "io/text_preview.hpp"

namespace latent::core {
std::string_view toString(RatingsFormat) noexcept { return "auto"; }
std::optional<RatingsFormat> ratingsFormatFromString(std::string_view) noexcept { return std::nullopt; }
RatingsFormat detectRatingsFormat(const std::filesystem::path&) { throw std::logic_error("ratings readers pending"); }
Ratings readRatings(const std::filesystem::path&, const RatingsReadOptions&, const ImportControl&, RatingsReadReport*) {
  throw std::logic_error("ratings readers pending");
}
std::vector<std::string> previewLines(const std::filesystem::path&, std::size_t, std::size_t) { return {}; }
}  // namespace latent::core
