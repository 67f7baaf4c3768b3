// SPDX-License-Identifier: GPL-3.0-or-later
// Makes a Qt Charts chart follow the widget palette (light or dark) instead of its own theme.
#pragma once

#include <QPalette>

class QChart;

namespace latent::ui {

bool isDarkPalette(const QPalette& palette);
// Call after the series and axes are attached (axes are restyled too).
void styleChart(QChart* chart, const QPalette& palette);

}  // namespace latent::ui
