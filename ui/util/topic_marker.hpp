// SPDX-License-Identifier: GPL-3.0-or-later
// Draws the marker shape that tells apart topics (blocks, groups) of the same colour.
#pragma once

#include <QPainterPath>
#include <QPointF>
#include <QString>
#include <Qt>

#include "ui/util/topic_colours.hpp"

class QPainter;

namespace latent::ui {

// The outline of `marker` centred on `centre`, about as large as a disc of radius `radius`.
QPainterPath topicMarkerPath(TopicMarker marker, QPointF centre, double radius);

// Fills and strokes the marker with the painter's brush and pen.
void drawTopicMarker(QPainter& painter, TopicMarker marker, QPointF centre, double radius);

// The marker as a character for rich-text legends: ● ■ ▲ ◆ ▼.
QString topicMarkerGlyph(TopicMarker marker);

// The same cue for lines: solid for the first twelve topics, then dashes, dots and their mixes.
Qt::PenStyle topicPenStyle(int topic);

}  // namespace latent::ui
