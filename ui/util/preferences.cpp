// SPDX-License-Identifier: GPL-3.0-or-later
// Preferences in QSettings, and the theme's palettes.
#include "ui/util/preferences.hpp"

#include <QApplication>
#include <QThread>

#include <algorithm>
#include <optional>

#include "ui/util/settings.hpp"

namespace latent::ui {
namespace {

const QString kThreadsKey = QStringLiteral("preferences/threads");
const QString kSeedKey = QStringLiteral("preferences/seed");
const QString kStopWordsKey = QStringLiteral("preferences/stopWords");
const QString kThemeKey = QStringLiteral("preferences/theme");

// The platform's palette, kept from before the first theme was applied.
std::optional<QPalette>& prefsSystemPalette() {
  static std::optional<QPalette> palette;
  return palette;
}

}  // namespace

Preferences loadPreferences() {
  auto settings = appSettings();
  Preferences p;
  p.threads = std::max(0, settings.value(kThreadsKey, 0).toInt());
  p.seed = settings.value(kSeedKey, 1).toUInt();
  p.stopWords = settings.value(kStopWordsKey).toString();
  p.theme = themeFromName(settings.value(kThemeKey).toString());
  return p;
}

void savePreferences(const Preferences& preferences) {
  auto settings = appSettings();
  settings.setValue(kThreadsKey, preferences.threads);
  settings.setValue(kSeedKey, preferences.seed);
  settings.setValue(kStopWordsKey, preferences.stopWords);
  settings.setValue(kThemeKey, themeName(preferences.theme));
}

int preferredThreads(const Preferences& preferences) {
  return preferences.threads > 0 ? preferences.threads : std::max(1, QThread::idealThreadCount() - 1);
}

QString themeName(Theme theme) {
  switch (theme) {
    case Theme::Light:
      return QStringLiteral("light");
    case Theme::Dark:
      return QStringLiteral("dark");
    case Theme::System:
      break;
  }
  return QStringLiteral("system");
}

Theme themeFromName(const QString& name) {
  if (name == QLatin1String("light")) return Theme::Light;
  if (name == QLatin1String("dark")) return Theme::Dark;
  return Theme::System;
}

QPalette lightThemePalette() {
  // Qt's own derivation from a light button colour, with a white Base and near-black text.
  QPalette p(QColor(0xef, 0xef, 0xef), QColor(0xf2, 0xf2, 0xf2));
  p.setColor(QPalette::Base, Qt::white);
  p.setColor(QPalette::AlternateBase, QColor(0xf5, 0xf5, 0xf5));
  for (auto role : {QPalette::Text, QPalette::WindowText, QPalette::ButtonText})
    p.setColor(role, QColor(0x1d, 0x1d, 0x1d));
  p.setColor(QPalette::PlaceholderText, QColor(0x6e, 0x6e, 0x6e));
  p.setColor(QPalette::Highlight, QColor(0x30, 0x8c, 0xc6));
  p.setColor(QPalette::HighlightedText, Qt::white);
  p.setColor(QPalette::Link, QColor(0x1d, 0x6f, 0xb8));
  p.setColor(QPalette::ToolTipBase, QColor(0xff, 0xff, 0xdc));
  p.setColor(QPalette::ToolTipText, Qt::black);
  return p;
}

QPalette darkThemePalette() {
  QPalette p(QColor(0x3a, 0x3a, 0x3c), QColor(0x2d, 0x2d, 0x30));
  p.setColor(QPalette::Base, QColor(0x1e, 0x1e, 0x20));
  p.setColor(QPalette::AlternateBase, QColor(0x26, 0x26, 0x29));
  for (auto role : {QPalette::Text, QPalette::WindowText, QPalette::ButtonText})
    p.setColor(role, QColor(0xe6, 0xe6, 0xe6));
  p.setColor(QPalette::BrightText, Qt::white);
  p.setColor(QPalette::PlaceholderText, QColor(0x9a, 0x9a, 0x9e));
  // The bevel roles lighter than Base, so that frames and outlines drawn with them show.
  p.setColor(QPalette::Light, QColor(0x5a, 0x5a, 0x5e));
  p.setColor(QPalette::Midlight, QColor(0x4a, 0x4a, 0x4e));
  p.setColor(QPalette::Mid, QColor(0x6a, 0x6a, 0x6e));
  p.setColor(QPalette::Dark, QColor(0x18, 0x18, 0x1a));
  p.setColor(QPalette::Shadow, QColor(0x0c, 0x0c, 0x0c));
  p.setColor(QPalette::Highlight, QColor(0x3d, 0x7a, 0xd6));
  p.setColor(QPalette::HighlightedText, Qt::white);
  p.setColor(QPalette::Link, QColor(0x6c, 0xb4, 0xf0));
  p.setColor(QPalette::LinkVisited, QColor(0xb0, 0x9a, 0xf0));
  p.setColor(QPalette::ToolTipBase, QColor(0x3a, 0x3a, 0x3c));
  p.setColor(QPalette::ToolTipText, QColor(0xe6, 0xe6, 0xe6));
  for (auto role : {QPalette::Text, QPalette::WindowText, QPalette::ButtonText})
    p.setColor(QPalette::Disabled, role, QColor(0x80, 0x80, 0x84));
  return p;
}

void applyTheme(Theme theme) {
  auto& system = prefsSystemPalette();
  // System before any other theme leaves the palette alone, so that it keeps following the
  // platform's; after one, the platform's palette as it was comes back.
  if (!system) {
    if (theme == Theme::System) return;
    system = QApplication::palette();
  }
  switch (theme) {
    case Theme::System:
      QApplication::setPalette(*system);
      break;
    case Theme::Light:
      QApplication::setPalette(lightThemePalette());
      break;
    case Theme::Dark:
      QApplication::setPalette(darkThemePalette());
      break;
  }
}

}  // namespace latent::ui
