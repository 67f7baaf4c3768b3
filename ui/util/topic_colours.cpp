// SPDX-License-Identifier: GPL-3.0-or-later
// Topic colours: a hue per topic, its lightness moved until the contrast with Base is enough.
#include "ui/util/topic_colours.hpp"

#include <array>
#include <cmath>

namespace latent::ui {
namespace {

// Hues (degrees) far apart in the order topics are numbered, the first ten at least 30 degrees
// from each other: blue, orange, green, red, purple, yellow (olive once darkened for a light
// background), teal, magenta, lime, indigo; then jade and violet.
constexpr std::array<double, 12> kHues = {212, 28, 135, 352, 272, 58, 182, 318, 98, 242, 158, 295};

double channel(double c) { return c <= 0.04045 ? c / 12.92 : std::pow((c + 0.055) / 1.055, 2.4); }

double luminance(const QColor& c) {
  return 0.2126 * channel(c.redF()) + 0.7152 * channel(c.greenF()) + 0.0722 * channel(c.blueF());
}

}  // namespace

double contrastRatio(const QColor& a, const QColor& b) {
  const double la = luminance(a), lb = luminance(b);
  return (std::max(la, lb) + 0.05) / (std::min(la, lb) + 0.05);
}

QColor mixColours(const QColor& a, const QColor& b, double t) {
  auto mix = [t](double x, double y) { return static_cast<float>(x * (1 - t) + y * t); };
  return QColor::fromRgbF(mix(a.redF(), b.redF()), mix(a.greenF(), b.greenF()), mix(a.blueF(), b.blueF()));
}

QColor topicColour(int topic, const QPalette& palette) {
  const QColor base = palette.color(QPalette::Base);
  const bool dark = luminance(base) < 0.18;
  double hue = 0, saturation = 0.78;
  if (topic < 0) topic = 0;
  if (topic < static_cast<int>(kHues.size())) {
    hue = kHues[static_cast<std::size_t>(topic)];
  } else {
    // Golden-angle steps keep later hues apart from their neighbours; saturation alternates.
    hue = std::fmod(kHues.back() + (topic - static_cast<int>(kHues.size()) + 1) * 137.508, 360.0);
    saturation = topic % 2 ? 0.62 : 0.85;
  }
  // Start bright enough to be colourful, then darken (light mode) or lighten (dark mode) until the
  // colour reads as text on Base and on the strongest tint drawn under an emphasised word.
  auto readable = [&](const QColor& c) {
    return contrastRatio(c, base) >= kMinTopicContrast &&
           contrastRatio(c, mixColours(base, c, kMaxTintStrength)) >= kMinTopicContrast;
  };
  double lightness = dark ? 0.60 : 0.46;
  QColor colour =
      QColor::fromHslF(static_cast<float>(hue / 360.0), static_cast<float>(saturation), static_cast<float>(lightness));
  for (int step = 0; step < 60 && !readable(colour); ++step) {
    lightness += dark ? 0.01 : -0.01;
    if (lightness <= 0.0 || lightness >= 1.0) break;
    colour = QColor::fromHslF(static_cast<float>(hue / 360.0), static_cast<float>(saturation),
                              static_cast<float>(lightness));
  }
  return colour;
}

QColor topicTint(const QColor& colour, const QPalette& palette, double strength) {
  return mixColours(palette.color(QPalette::Base), colour, strength);
}

}  // namespace latent::ui
