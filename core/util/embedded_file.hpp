// SPDX-License-Identifier: GPL-3.0-or-later
// A text resource compiled into the binary (see cmake/EmbedText.cmake).
#pragma once

#include <span>
#include <string_view>

namespace latent::core {

struct EmbeddedFile {
  std::string_view name;
  std::string_view contents;
};

}  // namespace latent::core
