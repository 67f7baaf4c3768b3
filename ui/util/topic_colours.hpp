// SPDX-License-Identifier: GPL-3.0-or-later
// One colour per topic, readable as text on the palette's base colour in light and in dark mode:
// every topic colour has a contrast ratio of at least 4.5 (WCAG 2 AA for body text) against Base,
// and against Base tinted with the colour itself up to kMaxTintStrength.
#pragma once

#include <QColor>
#include <QPalette>

namespace latent::ui {

inline constexpr double kMinTopicContrast = 4.5;
// The strongest tint (see topicTint) a topic colour stays readable on.
inline constexpr double kMaxTintStrength = 0.30;

// The colour of topic `topic` (0-based) for text and marks on `palette`'s Base colour. The first
// twelve topics get well separated hues; later ones continue round the colour wheel (their
// numbers, shown next to every coloured word, tell close hues apart).
QColor topicColour(int topic, const QPalette& palette);

// A faint background for the words of a topic: `colour` mixed into Base at `strength` (0..1).
QColor topicTint(const QColor& colour, const QPalette& palette, double strength = 0.14);

// WCAG 2 contrast ratio of two opaque colours, 1 (same) to 21 (black on white).
double contrastRatio(const QColor& a, const QColor& b);

// `a` mixed with `b`: t = 0 gives a, t = 1 gives b.
QColor mixColours(const QColor& a, const QColor& b, double t);

}  // namespace latent::ui
