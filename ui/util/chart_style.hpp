// SPDX-License-Identifier: GPL-3.0-or-later
// Makes a Qt Charts chart follow the widget palette (light or dark) instead of its own theme, and
// the colour of axes and frames for the charts drawn by hand.
#pragma once

#include <QPalette>

class QChart;

namespace latent::ui {

bool isDarkPalette(const QPalette& palette);
// Axes, frames and guides of hand-drawn charts: the text colour half-way to Base. Not the
// style's Mid, which a platform's dark palette can put next to Base, hiding them.
QColor axisColour(const QPalette& palette);
// Call after the series and axes are attached (axes are restyled too).
void styleChart(QChart* chart, const QPalette& palette);

}  // namespace latent::ui
