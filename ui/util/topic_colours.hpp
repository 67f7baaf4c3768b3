// SPDX-License-Identifier: GPL-3.0-or-later
// One colour per topic (or block, or group), readable as text on the palette's base colour in
// light and in dark mode, and a second cue (a marker shape) for when colours alone repeat.
//
// Colours are chosen in CIELAB: twelve hues at one lightness (so that no hue stands out or fades),
// as much chroma as sRGB allows (so that none washes out to a pastel), then a second lightness for
// topics 12 to 23. Every colour has a contrast ratio of at least 4.5 (WCAG 2 AA for body text)
// against Base, and against Base tinted for that topic up to kMaxTintStrength.
#pragma once

#include <QColor>
#include <QPalette>

namespace latent::ui {

inline constexpr double kMinTopicContrast = 4.5;
// The strongest tint (see topicTint) a topic colour stays readable on.
inline constexpr double kMaxTintStrength = 0.30;
// Distinct hues, and distinct lightness steps of each, before colours repeat.
inline constexpr int kTopicHues = 12;
inline constexpr int kTopicLightnessSteps = 2;

// The colour of topic `topic` (0-based) for text and marks on `palette`'s Base colour. Topic k
// has hue k mod 12 and lightness step (k / 12) mod 2; past 24 topics the colours repeat, and
// topicMarker tells those apart.
QColor topicColour(int topic, const QPalette& palette);

// The second cue: a marker shape per round of twelve topics, so that two topics with the same
// hue never share a shape below 12 x kTopicMarkerCount topics.
enum class TopicMarker { Disc, Square, Triangle, Diamond, InvertedTriangle };
inline constexpr int kTopicMarkerCount = 5;
TopicMarker topicMarker(int topic);

// A faint background for the words of a topic: `colour` (in dark mode a dark shade of its hue,
// so that the tint stays dark under light text) mixed into Base at `strength` (0..1).
QColor topicTint(const QColor& colour, const QPalette& palette, double strength = 0.14);

// WCAG 2 contrast ratio of two opaque colours, 1 (same) to 21 (black on white).
double contrastRatio(const QColor& a, const QColor& b);

// The CIE 1976 colour difference (Euclidean distance in CIELAB): about 2.3 is just noticeable,
// two categorical colours a reader tells apart at a glance differ by well over 10.
double colourDifference(const QColor& a, const QColor& b);

// CIELAB chroma (colourfulness): 0 for greys, pastels below about 30.
double colourChroma(const QColor& colour);

// True when the palette's Base is dark (light text on a dark background).
bool isDarkBase(const QPalette& palette);

// `a` mixed with `b`: t = 0 gives a, t = 1 gives b.
QColor mixColours(const QColor& a, const QColor& b, double t);

}  // namespace latent::ui
