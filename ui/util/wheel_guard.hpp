// SPDX-License-Identifier: GPL-3.0-or-later
// Number fields and drop-down lists in scrolling forms (the Run panel, the import dialog) take
// the mouse wheel only once the user has clicked or tabbed into them; until then the wheel
// scrolls the form, as it would over a label. Otherwise a field passing under the pointer while
// the user scrolls has its value changed unseen (issue 20: "Restarts 0 -> 35").
#pragma once

class QWidget;

namespace latent::ui {

// Gives `field` click or tab focus only (not wheel focus) and sends the wheel events it receives
// while unfocused to the scroll area around it (or drops them when there is none).
void guardWheel(QWidget* field);

}  // namespace latent::ui
