// SPDX-License-Identifier: GPL-3.0-or-later
// One look for every table: rows one line of text high, no row numbers, alternating colours.
#pragma once

#include <QHeaderView>
#include <QTableView>

namespace latent::ui {

inline void makeCompact(QTableView* table) {
  table->verticalHeader()->setVisible(false);
  table->verticalHeader()->setSectionResizeMode(QHeaderView::Fixed);
  table->verticalHeader()->setDefaultSectionSize(table->fontMetrics().height() + 8);
  table->setAlternatingRowColors(true);
  table->setWordWrap(false);
  table->horizontalHeader()->setHighlightSections(false);
}

}  // namespace latent::ui
