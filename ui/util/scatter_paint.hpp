// SPDX-License-Identifier: GPL-3.0-or-later
// Painting helpers for hand-drawn scatter plots: many anti-aliased dots blended straight into an
// image (far quicker than a QPainter call per dot), and round axis ticks.
#pragma once

#include <QColor>
#include <QImage>
#include <QString>

#include <memory>
#include <vector>

namespace latent::ui {

enum class DotShape { Disc, Diamond };

// Draws dots into a premultiplied ARGB32 image, source over. Dots of the same radius (to a
// quarter pixel), opacity (to 1/32) and shape share one pre-blended sprite, so a dot costs a
// blend of the pixels it covers and nothing more; positions are rounded to whole pixels.
class DotPainter {
 public:
  explicit DotPainter(QImage& image);
  ~DotPainter();
  void setColour(DotShape shape, const QColor& colour);
  // Centre and radius in the image's own (device) pixels.
  void draw(double x, double y, double radius, double opacity, DotShape shape);

 private:
  struct Sprite;
  const Sprite& sprite(double radius, double opacity, DotShape shape);

  QImage& m_image;
  QColor m_colours[2];
  std::vector<std::unique_ptr<Sprite>> m_sprites;
};

// Tick positions at 1, 2 or 5 times a power of ten, about `target` of them over [lo, hi]; the
// step between them in `step`.
std::vector<double> niceTicks(double lo, double hi, int target, double* step);
// A tick's label with as many decimals as the step needs, in the user's locale.
QString tickText(double value, double step);

}  // namespace latent::ui
