// SPDX-License-Identifier: GPL-3.0-or-later
// Registers the icons compiled into the static latent_ui library (a static library's resources
// are only linked in when something names them).
#pragma once

namespace latent::ui {

void initResources();

}  // namespace latent::ui
