// SPDX-License-Identifier: GPL-3.0-or-later
// Topic colours: CIELCh hues at a fixed lightness with the most chroma sRGB holds, the lightness
// moved away from Base until the contrast is enough; the marker shape per round of hues.
#include "ui/util/topic_colours.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <numbers>
#include <unordered_map>

namespace latent::ui {
namespace {

// CIELCh hues (degrees) in the order topics are numbered, neighbours far apart: blue, orange,
// green, red, purple, yellow, teal, magenta, lime, indigo, jade, amber.
constexpr std::array<double, kTopicHues> kTopicHueAngles = {255, 55, 140, 25, 305, 90, 200, 345, 120, 280, 170, 70};
// CIELAB lightness of each step: on a light Base (darker colours first) and on a dark one.
constexpr std::array<double, kTopicLightnessSteps> kLightBaseSteps = {36, 28};
constexpr std::array<double, kTopicLightnessSteps> kDarkBaseSteps = {64, 78};
// The chroma asked for; the gamut cuts it where a hue cannot reach it at that lightness.
constexpr double kTopicChroma = 80;
// The lightness of the shade a dark-mode tint mixes in.
constexpr double kDarkTintLightness = 35;

// D65 white.
constexpr double kWhiteX = 0.95047, kWhiteY = 1.0, kWhiteZ = 1.08883;

double toLinear(double c) { return c <= 0.04045 ? c / 12.92 : std::pow((c + 0.055) / 1.055, 2.4); }
double fromLinear(double c) { return c <= 0.0031308 ? 12.92 * c : 1.055 * std::pow(c, 1 / 2.4) - 0.055; }

double luminance(const QColor& c) {
  return 0.2126 * toLinear(c.redF()) + 0.7152 * toLinear(c.greenF()) + 0.0722 * toLinear(c.blueF());
}

struct TopicLab {
  double l, a, b;
};

TopicLab labOf(const QColor& c) {
  const double r = toLinear(c.redF()), g = toLinear(c.greenF()), b = toLinear(c.blueF());
  const double x = (0.4124564 * r + 0.3575761 * g + 0.1804375 * b) / kWhiteX;
  const double y = (0.2126729 * r + 0.7151522 * g + 0.0721750 * b) / kWhiteY;
  const double z = (0.0193339 * r + 0.1191920 * g + 0.9503041 * b) / kWhiteZ;
  auto f = [](double t) { return t > 0.008856 ? std::cbrt(t) : 7.787 * t + 16.0 / 116.0; };
  return {116 * f(y) - 16, 500 * (f(x) - f(y)), 200 * (f(y) - f(z))};
}

// Linear sRGB of a CIELAB colour, possibly outside [0, 1].
std::array<double, 3> linearOfLab(double l, double a, double b) {
  const double fy = (l + 16) / 116, fx = fy + a / 500, fz = fy - b / 200;
  auto finv = [](double t) { return t * t * t > 0.008856 ? t * t * t : (t - 16.0 / 116.0) / 7.787; };
  const double x = kWhiteX * finv(fx), y = kWhiteY * finv(fy), z = kWhiteZ * finv(fz);
  return {3.2404542 * x - 1.5371385 * y - 0.4985314 * z, -0.9692660 * x + 1.8760108 * y + 0.0415560 * z,
          0.0556434 * x - 0.2040259 * y + 1.0572252 * z};
}

// The colour of lightness `l` and hue `hue` with the most chroma up to `chroma` inside sRGB.
QColor colourOfLch(double l, double chroma, double hue) {
  const double radians = hue * std::numbers::pi / 180;
  for (double c = chroma;; c -= 1) {
    const auto rgb = linearOfLab(l, std::max(0.0, c) * std::cos(radians), std::max(0.0, c) * std::sin(radians));
    const bool inside = std::all_of(rgb.begin(), rgb.end(), [](double v) { return v >= -1e-9 && v <= 1 + 1e-9; });
    if (inside || c <= 0) {
      // Whole 8-bit channels: the contrast is checked on the colour as drawn and remembered.
      auto channel = [](double v) {
        return static_cast<int>(std::lround(255 * std::clamp(fromLinear(std::clamp(v, 0.0, 1.0)), 0.0, 1.0)));
      };
      return QColor(channel(rgb[0]), channel(rgb[1]), channel(rgb[2]));
    }
  }
}

double hueOf(const QColor& c) {
  const TopicLab lab = labOf(c);
  return std::atan2(lab.b, lab.a) * 180 / std::numbers::pi;
}

}  // namespace

double contrastRatio(const QColor& a, const QColor& b) {
  const double la = luminance(a), lb = luminance(b);
  return (std::max(la, lb) + 0.05) / (std::min(la, lb) + 0.05);
}

double colourDifference(const QColor& a, const QColor& b) {
  const TopicLab x = labOf(a), y = labOf(b);
  return std::sqrt((x.l - y.l) * (x.l - y.l) + (x.a - y.a) * (x.a - y.a) + (x.b - y.b) * (x.b - y.b));
}

double colourChroma(const QColor& colour) {
  const TopicLab lab = labOf(colour);
  return std::hypot(lab.a, lab.b);
}

bool isDarkBase(const QPalette& palette) { return luminance(palette.color(QPalette::Base)) < 0.18; }

QColor mixColours(const QColor& a, const QColor& b, double t) {
  auto mix = [t](double x, double y) { return static_cast<float>(x * (1 - t) + y * t); };
  return QColor::fromRgbF(mix(a.redF(), b.redF()), mix(a.greenF(), b.greenF()), mix(a.blueF(), b.blueF()));
}

QColor topicColour(int topic, const QPalette& palette) {
  const QColor base = palette.color(QPalette::Base);
  topic = std::max(topic, 0);
  // Views ask per node or per document (thousands of times a paint): each colour is searched
  // once per Base and remembered.
  thread_local std::unordered_map<std::uint64_t, QRgb> known;
  const std::uint64_t key = (static_cast<std::uint64_t>(base.rgb()) << 32) | static_cast<std::uint32_t>(topic);
  if (const auto it = known.find(key); it != known.end()) return QColor::fromRgb(it->second);
  const bool dark = isDarkBase(palette);
  const double hue = kTopicHueAngles[static_cast<std::size_t>(topic % kTopicHues)];
  const auto step = static_cast<std::size_t>((topic / kTopicHues) % kTopicLightnessSteps);
  // Start at the step's lightness, then move away from Base (lighter on a dark Base, darker on a
  // light one) until the colour reads as text on Base and on the strongest tint of its topic.
  double lightness = dark ? kDarkBaseSteps[step] : kLightBaseSteps[step];
  QColor colour = colourOfLch(lightness, kTopicChroma, hue);
  auto readable = [&](const QColor& c) {
    return contrastRatio(c, base) >= kMinTopicContrast &&
           contrastRatio(c, topicTint(c, palette, kMaxTintStrength)) >= kMinTopicContrast;
  };
  while (!readable(colour) && lightness > 1 && lightness < 99) {
    lightness += dark ? 1 : -1;
    colour = colourOfLch(lightness, kTopicChroma, hue);
  }
  if (known.size() > 4096) known.clear();
  known.emplace(key, colour.rgb());
  return colour;
}

TopicMarker topicMarker(int topic) {
  return static_cast<TopicMarker>((std::max(topic, 0) / kTopicHues) % kTopicMarkerCount);
}

QColor topicTint(const QColor& colour, const QPalette& palette, double strength) {
  const QColor base = palette.color(QPalette::Base);
  // On a dark Base a tint of the light text colour itself would turn light and take the text's
  // contrast with it: a dark shade of the same hue keeps the tint dark.
  const QColor shade =
      isDarkBase(palette) ? colourOfLch(kDarkTintLightness, std::min(kTopicChroma, colourChroma(colour)), hueOf(colour))
                          : colour;
  return mixColours(base, shade, strength);
}

}  // namespace latent::ui
