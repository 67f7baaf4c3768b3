// SPDX-License-Identifier: GPL-3.0-or-later
// Q_INIT_RESOURCE must be used outside any namespace, hence the file-scope helper.
#include "ui/util/resources.hpp"

#include <QtGlobal>

static void initLatentIcons() { Q_INIT_RESOURCE(icons); }
static void initLatentHelp() { Q_INIT_RESOURCE(help); }

namespace latent::ui {

void initResources() {
  static const bool done = (initLatentIcons(), initLatentHelp(), true);
  (void)done;
}

}  // namespace latent::ui
