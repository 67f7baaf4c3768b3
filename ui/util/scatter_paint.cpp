// SPDX-License-Identifier: GPL-3.0-or-later
// DotPainter's sprites and blending, and the tick choice.
#include "ui/util/scatter_paint.hpp"

#include <QLocale>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <utility>

namespace latent::ui {

// One dot ready to blend: its premultiplied colour per pixel (coverage x opacity x colour) and
// the first and last pixel it touches in each row.
struct DotPainter::Sprite {
  int half = 0;
  std::vector<QRgb> pixels;                  // (2 half + 1)^2
  std::vector<std::pair<int, int>> columns;  // per row; first > last for an empty row
};

namespace {

// x times a / 255 for the four bytes of a pixel at once (two at a time in 32 bits).
inline QRgb byteMultiply(QRgb x, std::uint32_t a) {
  std::uint32_t t = (x & 0xff00ff) * a;
  t = ((t + ((t >> 8) & 0xff00ff) + 0x800080) >> 8) & 0xff00ff;
  x = ((x >> 8) & 0xff00ff) * a;
  x = (x + ((x >> 8) & 0xff00ff) + 0x800080) & 0xff00ff00;
  return x | t;
}

}  // namespace

DotPainter::DotPainter(QImage& image) : m_image(image) {
  if (m_image.format() != QImage::Format_ARGB32_Premultiplied) m_image.convertTo(QImage::Format_ARGB32_Premultiplied);
  m_colours[0] = m_colours[1] = Qt::black;
}

DotPainter::~DotPainter() = default;

void DotPainter::setColour(DotShape shape, const QColor& colour) {
  m_colours[shape == DotShape::Diamond ? 1 : 0] = colour;
  m_sprites.clear();
}

const DotPainter::Sprite& DotPainter::sprite(double radius, double opacity, DotShape shape) {
  const int r4 = static_cast<int>(std::lround(std::max(0.0, radius) * 4));
  const int level = static_cast<int>(std::lround(std::clamp(opacity, 0.0, 1.0) * 32));
  const bool diamond = shape == DotShape::Diamond;
  const auto key = static_cast<std::size_t>((r4 * 33 + level) * 2 + (diamond ? 1 : 0));
  if (key >= m_sprites.size()) m_sprites.resize(key + 1);
  if (m_sprites[key]) return *m_sprites[key];

  auto s = std::make_unique<Sprite>();
  const double r = r4 / 4.0, alpha = level / 32.0;
  const QColor& colour = m_colours[diamond ? 1 : 0];
  s->half = static_cast<int>(std::ceil(r + 0.5));
  const int side = 2 * s->half + 1;
  s->pixels.assign(static_cast<std::size_t>(side * side), 0);
  s->columns.assign(static_cast<std::size_t>(side), {side, -1});
  for (int dy = -s->half; dy <= s->half; ++dy)
    for (int dx = -s->half; dx <= s->half; ++dx) {
      // Signed distance to the edge, so the rim is anti-aliased over one pixel.
      const double edge = diamond ? (std::abs(dx) + std::abs(dy) - r) / std::sqrt(2.0) : std::hypot(dx, dy) - r;
      const int a = static_cast<int>(std::clamp(0.5 - edge, 0.0, 1.0) * alpha * 255.0 + 0.5);
      if (a <= 0) continue;
      const int row = dy + s->half, column = dx + s->half;
      s->pixels[static_cast<std::size_t>(row * side + column)] =
          qRgba(colour.red() * a / 255, colour.green() * a / 255, colour.blue() * a / 255, a);
      auto& span = s->columns[static_cast<std::size_t>(row)];
      span.first = std::min(span.first, column);
      span.second = std::max(span.second, column);
    }
  m_sprites[key] = std::move(s);
  return *m_sprites[key];
}

void DotPainter::draw(double x, double y, double radius, double opacity, DotShape shape) {
  const Sprite& s = sprite(radius, opacity, shape);
  const int w = m_image.width(), h = m_image.height(), side = 2 * s.half + 1;
  // Dots far outside (a panned or zoomed view) are left out before any rounding.
  if (!(x > -s.half - 1 && x < w + s.half + 1 && y > -s.half - 1 && y < h + s.half + 1)) return;
  const int cx = static_cast<int>(std::lround(x)), cy = static_cast<int>(std::lround(y));
  for (int row = 0; row < side; ++row) {
    const int py = cy - s.half + row;
    const auto [first, last] = s.columns[static_cast<std::size_t>(row)];
    if (py < 0 || py >= h || first > last) continue;
    auto* line = reinterpret_cast<QRgb*>(m_image.scanLine(py));
    const QRgb* src = s.pixels.data() + static_cast<std::ptrdiff_t>(row) * side;
    const int from = std::max(first, s.half - cx), to = std::min(last, w - 1 - cx + s.half);
    for (int column = from; column <= to; ++column) {
      const QRgb p = src[column];
      QRgb& d = line[cx - s.half + column];
      d = p + byteMultiply(d, 255 - qAlpha(p));
    }
  }
}

std::vector<double> niceTicks(double lo, double hi, int target, double* step) {
  std::vector<double> ticks;
  const double span = hi - lo;
  if (!(span > 0) || !std::isfinite(span)) return ticks;
  const double raw = span / std::max(1, target);
  const double magnitude = std::pow(10.0, std::floor(std::log10(raw)));
  const double r = raw / magnitude;
  *step = (r < 1.5 ? 1.0 : r < 3.0 ? 2.0 : r < 7.0 ? 5.0 : 10.0) * magnitude;
  // Multiples of the step, so that no error builds up from tick to tick.
  for (auto k = static_cast<long long>(std::ceil(lo / *step)); k * *step <= hi + *step * 1e-9; ++k)
    ticks.push_back(static_cast<double>(k) * *step);
  return ticks;
}

QString tickText(double value, double step) {
  const int decimals = std::max(0, static_cast<int>(-std::floor(std::log10(step) + 1e-9)));
  return QLocale().toString(value, 'f', decimals);
}

}  // namespace latent::ui
