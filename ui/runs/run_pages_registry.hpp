// SPDX-License-Identifier: GPL-3.0-or-later
// The families of result pages a run's tab can show: a new family of results is one folder under
// ui/runs and one row in run_pages_registry.cpp.
#pragma once

#include <vector>

#include "ui/runs/run_pages.hpp"

namespace latent::ui {

// One of each family, children of `parent`, in the registry's order (the order of their tabs).
std::vector<RunPages*> makeRunPages(const RunPagesContext& context, QObject* parent);

}  // namespace latent::ui
