// SPDX-License-Identifier: GPL-3.0-or-later
// The dark palette the screenshot suites switch to, to check the views follow the palette.
#pragma once

#include <QColor>
#include <QPalette>

namespace latent::test {

inline QPalette darkPalette() {
  QPalette dark;
  dark.setColor(QPalette::Window, QColor(0x2b, 0x2b, 0x2b));
  dark.setColor(QPalette::WindowText, QColor(0xe8, 0xe8, 0xe8));
  dark.setColor(QPalette::Base, QColor(0x1f, 0x1f, 0x1f));
  dark.setColor(QPalette::AlternateBase, QColor(0x27, 0x27, 0x27));
  dark.setColor(QPalette::Text, QColor(0xe8, 0xe8, 0xe8));
  dark.setColor(QPalette::Button, QColor(0x35, 0x35, 0x35));
  dark.setColor(QPalette::ButtonText, QColor(0xe8, 0xe8, 0xe8));
  dark.setColor(QPalette::Highlight, QColor(0x3d, 0x7a, 0xd6));
  dark.setColor(QPalette::HighlightedText, Qt::white);
  dark.setColor(QPalette::PlaceholderText, QColor(0x9a, 0x9a, 0x9a));
  return dark;
}

}  // namespace latent::test
