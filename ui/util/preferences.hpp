// SPDX-License-Identifier: GPL-3.0-or-later
// The user's preferences (Edit > Preferences): defaults for new runs and imports, and the theme.
// Stored in appSettings() under "preferences/…"; read wherever a default is needed, so a change
// applies to the next run or import without a restart.
#pragma once

#include <QPalette>
#include <QString>

#include <cstdint>

namespace latent::ui {

enum class Theme { System, Light, Dark };

struct Preferences {
  int threads = 0;         // worker threads for a new run; 0: all cores but one
  std::uint32_t seed = 1;  // the seed a new run starts from
  // The stop words of a corpus import: "" (English for text, none for bag of words), "en",
  // "none", or a file's path.
  QString stopWords;
  Theme theme = Theme::System;
};

Preferences loadPreferences();
void savePreferences(const Preferences& preferences);

// The threads a new run gets: the preference, else all cores but one (at least one).
int preferredThreads(const Preferences& preferences);

// Theme names as stored ("system", "light", "dark"); an unknown name reads as System.
QString themeName(Theme theme);
Theme themeFromName(const QString& name);

// The palettes of the two fixed themes: every role set, including the bevel roles (Light, Mid,
// Dark, Shadow) that views draw outlines and grids with.
QPalette lightThemePalette();
QPalette darkThemePalette();

// Sets the application palette for `theme`. System restores the palette the application had
// before the first call (the platform's), so the first call must come before any other change.
void applyTheme(Theme theme);

}  // namespace latent::ui
