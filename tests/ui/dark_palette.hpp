// SPDX-License-Identifier: GPL-3.0-or-later
// The dark palette the screenshot suites switch to, to check the views follow the palette: the
// application's own dark theme (Edit > Preferences > Theme).
#pragma once

#include <QPalette>

#include "ui/util/preferences.hpp"

namespace latent::test {

inline QPalette darkPalette() { return ui::darkThemePalette(); }

}  // namespace latent::test
