// SPDX-License-Identifier: GPL-3.0-or-later
// A model of linked documents: its most likely new links (`export --what predicted-links`).
#include <string>

#include "core/eval/link_prediction.hpp"
#include "core/io/csv_writer.hpp"
#include "core/io/run_export_detail.hpp"
#include "core/store/corpus_store.hpp"
#include "core/store/run_store.hpp"
#include "core/util/errors.hpp"

namespace latent::core::detail {

std::int64_t exportPredictedLinks(Project& project, const RunRecord& run, std::ostream& out,
                                  std::optional<std::int64_t>) {
  const auto links = loadMatrix(project, run.id, kPredictedLinks);
  const auto documents = listDocuments(project, run.datasetId);
  if (!links || links->cols() != 3)
    throw UsageError("run " + std::to_string(run.id) + " (" + run.model + ") has no predicted links");
  CsvWriter csv(out);
  csv.field("document").field("title").field("other_document").field("other_title").field("probability").endRow();
  const auto n = static_cast<double>(documents.size());
  for (Eigen::Index r = 0; r < links->rows(); ++r) {
    const double a = (*links)(r, 0), b = (*links)(r, 1);
    if (!(a >= 0 && a < n && b >= 0 && b < n))
      throw UsageError("run " + std::to_string(run.id) + ": a predicted link names a document the corpus lacks");
    const auto& x = documents[static_cast<std::size_t>(a)];
    const auto& y = documents[static_cast<std::size_t>(b)];
    csv.field(x.id).field(x.title).field(y.id).field(y.title).field((*links)(r, 2)).endRow();
  }
  return -1;
}

}  // namespace latent::core::detail
