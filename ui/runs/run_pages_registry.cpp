// SPDX-License-Identifier: GPL-3.0-or-later
// The registry of result-page families, in display order.
#include "ui/runs/run_pages_registry.hpp"

#include "ui/runs/blocks/block_pages.hpp"
#include "ui/runs/embeddings/embedding_pages.hpp"
#include "ui/runs/factors/factor_pages.hpp"
#include "ui/runs/gibbs/gibbs_pages.hpp"
#include "ui/runs/hidden/hidden_pages.hpp"
#include "ui/runs/k_choice/k_choice_pages.hpp"
#include "ui/runs/topics/topic_pages.hpp"

namespace latent::ui {
namespace {

using Factory = RunPages* (*)(const RunPagesContext&, QObject*);

template <typename Family>
RunPages* make(const RunPagesContext& context, QObject* parent) {
  return new Family(context, parent);
}

// The results of a run's own family come first (a family applies when the run holds its result,
// and a run holds one family's results only, so at most one of them shows; topics and hidden
// units both apply to corpora), then the Gibbs sampler's picture just before Training, then
// Choosing K just after it; each family places its tabs so, whichever of their loads ends first.
constexpr Factory kFamilies[] = {
    &make<TopicPages>,     &make<FactorPages>, &make<BlockPages>,   &make<HiddenPages>,
    &make<EmbeddingPages>, &make<GibbsPages>,  &make<KChoicePages>,
};

}  // namespace

std::vector<RunPages*> makeRunPages(const RunPagesContext& context, QObject* parent) {
  std::vector<RunPages*> out;
  for (const auto factory : kFamilies) out.push_back(factory(context, parent));
  return out;
}

}  // namespace latent::ui
