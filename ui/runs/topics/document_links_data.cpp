// SPDX-License-Identifier: GPL-3.0-or-later
// loadDocumentLinksData: links, their two ends per document, predictions and the layout.
#include "ui/runs/topics/document_links_data.hpp"

#include <algorithm>
#include <memory>

#include "core/data/graph_layout.hpp"
#include "core/eval/link_prediction.hpp"
#include "core/store/document_link_store.hpp"
#include "core/store/run_results.hpp"
#include "core/store/run_store.hpp"
#include "ui/util/qt_convert.hpp"

namespace latent::ui {

namespace {
constexpr std::uint64_t kDocumentLayoutSeed = 1;
}

std::shared_ptr<const DocumentLinksData> loadDocumentLinksData(core::Project& project, std::int64_t datasetId,
                                                               std::int64_t runId, std::size_t documentCount) {
  auto links = core::loadDocumentLinks(project, datasetId, documentCount);
  if (links.empty()) return nullptr;
  auto data = std::make_shared<DocumentLinksData>();
  data->links = std::move(links);
  data->neighbours.resize(documentCount);
  for (const auto& l : data->links) {
    data->neighbours[static_cast<std::size_t>(l.source)].push_back({l.target, true});
    data->neighbours[static_cast<std::size_t>(l.target)].push_back({l.source, false});
  }
  for (auto& list : data->neighbours)
    std::sort(list.begin(), list.end(), [](const auto& x, const auto& y) { return x.other < y.other; });

  if (const auto predicted = core::loadMatrix(project, runId, core::kPredictedLinks);
      predicted && predicted->cols() == 3) {
    const auto n = static_cast<double>(documentCount);
    for (Eigen::Index r = 0; r < predicted->rows(); ++r) {
      const double a = (*predicted)(r, 0), b = (*predicted)(r, 1), p = (*predicted)(r, 2);
      if (!(a >= 0 && a < n && b >= 0 && b < n && a != b && p >= 0 && p <= 1)) continue;
      data->predicted.push_back({static_cast<std::int64_t>(a), static_cast<std::int64_t>(b), p});
    }
    std::stable_sort(data->predicted.begin(), data->predicted.end(),
                     [](const auto& x, const auto& y) { return x.probability > y.probability; });
    data->predictedOf.resize(documentCount);
    for (std::size_t i = 0; i < data->predicted.size(); ++i) {
      data->predictedOf[static_cast<std::size_t>(data->predicted[i].a)].push_back(static_cast<std::int64_t>(i));
      data->predictedOf[static_cast<std::size_t>(data->predicted[i].b)].push_back(static_cast<std::int64_t>(i));
    }
  }
  try {
    data->layout = core::layoutGraph(static_cast<std::int64_t>(documentCount), data->links, kDocumentLayoutSeed);
  } catch (const std::exception& e) {
    data->layoutError = qs(e.what());
  }
  return data;
}

}  // namespace latent::ui
