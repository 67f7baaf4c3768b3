// SPDX-License-Identifier: GPL-3.0-or-later
// Numeric arrays to and from BLOB columns (little-endian, as the schema says).
#pragma once

#include <bit>
#include <cstddef>
#include <cstring>
#include <span>
#include <stdexcept>
#include <vector>

namespace latent::core {

static_assert(std::endian::native == std::endian::little,
              "the project file stores little-endian arrays; a big-endian port needs byte swapping here");

template <typename T>
std::vector<T> blobToVector(std::span<const std::byte> blob) {
  if (blob.size() % sizeof(T) != 0) throw std::runtime_error("corrupt array in the project file");
  std::vector<T> out(blob.size() / sizeof(T));
  if (!blob.empty()) std::memcpy(out.data(), blob.data(), blob.size());
  return out;
}

}  // namespace latent::core
