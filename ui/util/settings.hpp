// SPDX-License-Identifier: GPL-3.0-or-later
// The application's settings store: window state and recent projects.
#pragma once

#include <QSettings>

namespace latent::ui {

inline constexpr int kMaxRecentProjects = 10;

// Always the same organisation and application names, whatever the QApplication says, so that
// tests and the application agree.
inline QSettings appSettings() { return QSettings(QStringLiteral("Latent Studio"), QStringLiteral("latent-studio")); }

}  // namespace latent::ui
