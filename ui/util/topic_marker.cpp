// SPDX-License-Identifier: GPL-3.0-or-later
// Marker outlines of equal visual weight: the polygons are sized to cover about a disc's area.
#include "ui/util/topic_marker.hpp"

#include <QPainter>
#include <QPolygonF>

#include <cmath>

namespace latent::ui {

QPainterPath topicMarkerPath(TopicMarker marker, QPointF centre, double radius) {
  QPainterPath path;
  const double x = centre.x(), y = centre.y();
  switch (marker) {
    case TopicMarker::Disc:
      path.addEllipse(centre, radius, radius);
      break;
    case TopicMarker::Square: {
      const double h = radius * 0.89;  // the square of a disc's area
      path.addRect(QRectF(x - h, y - h, 2 * h, 2 * h));
      break;
    }
    case TopicMarker::Diamond: {
      const double h = radius * 1.25;
      path.addPolygon(QPolygonF({{x, y - h}, {x + h, y}, {x, y + h}, {x - h, y}, {x, y - h}}));
      break;
    }
    case TopicMarker::Triangle:
    case TopicMarker::InvertedTriangle: {
      const double h = radius * 1.35, s = marker == TopicMarker::Triangle ? 1.0 : -1.0;
      const double half = h * std::sqrt(3.0) / 2;
      path.addPolygon(
          QPolygonF({{x, y - s * h}, {x + half, y + s * h / 2}, {x - half, y + s * h / 2}, {x, y - s * h}}));
      break;
    }
  }
  return path;
}

QString topicMarkerGlyph(TopicMarker marker) {
  switch (marker) {
    case TopicMarker::Disc:
      return QStringLiteral("\u25CF");
    case TopicMarker::Square:
      return QStringLiteral("\u25A0");
    case TopicMarker::Triangle:
      return QStringLiteral("\u25B2");
    case TopicMarker::Diamond:
      return QStringLiteral("\u25C6");
    case TopicMarker::InvertedTriangle:
      return QStringLiteral("\u25BC");
  }
  return QStringLiteral("\u25CF");
}

Qt::PenStyle topicPenStyle(int topic) {
  switch (topicMarker(topic)) {
    case TopicMarker::Disc:
      return Qt::SolidLine;
    case TopicMarker::Square:
      return Qt::DashLine;
    case TopicMarker::Triangle:
      return Qt::DotLine;
    case TopicMarker::Diamond:
      return Qt::DashDotLine;
    case TopicMarker::InvertedTriangle:
      return Qt::DashDotDotLine;
  }
  return Qt::SolidLine;
}

void drawTopicMarker(QPainter& painter, TopicMarker marker, QPointF centre, double radius) {
  painter.drawPath(topicMarkerPath(marker, centre, radius));
}

}  // namespace latent::ui
