// SPDX-License-Identifier: GPL-3.0-or-later
// Conversions between core's UTF-8 std::string / std::filesystem::path and Qt's QString.
#pragma once

#include <QString>

#include <filesystem>
#include <string>
#include <string_view>

namespace latent::ui {

inline QString qs(std::string_view text) { return QString::fromUtf8(text.data(), static_cast<qsizetype>(text.size())); }
inline std::string utf8(const QString& text) { return text.toStdString(); }
// Paths travel as UTF-8 on Linux; std::filesystem::path::u8string keeps that explicit.
inline std::filesystem::path toPath(const QString& file) {
  const QByteArray bytes = file.toUtf8();
  return std::filesystem::path(
      std::u8string(reinterpret_cast<const char8_t*>(bytes.constData()), static_cast<std::size_t>(bytes.size())));
}
inline QString fromPath(const std::filesystem::path& path) {
  const auto bytes = path.u8string();
  return QString::fromUtf8(reinterpret_cast<const char*>(bytes.data()), static_cast<qsizetype>(bytes.size()));
}

}  // namespace latent::ui
