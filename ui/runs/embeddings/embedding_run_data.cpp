// SPDX-License-Identifier: GPL-3.0-or-later
// Reading an embedding run, and the component ends and cosine neighbours the pages show.
#include "ui/runs/embeddings/embedding_run_data.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>

#include "core/results/embedding_results.hpp"
#include "core/store/run_results.hpp"
#include "ui/jobs/project_session.hpp"
#include "ui/util/qt_convert.hpp"

namespace latent::ui {

double EmbeddingRunData::share(int k) const {
  if (squaredNorm <= 0.0) return std::numeric_limits<double>::quiet_NaN();
  return singularValues[k] * singularValues[k] / squaredNorm;
}

QString EmbeddingRunData::documentName(int d) const {
  const auto& header = documentHeaders[static_cast<std::size_t>(d)];
  return qs(header.title.empty() ? header.id : header.title);
}

EmbeddingRunLoad loadEmbeddingRun(const std::filesystem::path& projectFile, std::int64_t runId) {
  EmbeddingRunLoad out;
  try {
    core::Project project(offGuiThread(projectFile), core::Project::Access::ReadOnly);
    auto data = std::make_shared<EmbeddingRunData>();
    data->run = core::loadRun(project, runId);
    auto result = core::loadResult(project, runId, {core::embedding::kWordVectors, core::embedding::kSingularValues},
                                   {core::embedding::kDocVectors});
    if (!result) return out;
    const Eigen::MatrixXd& s = *result->find(core::embedding::kSingularValues);
    const Eigen::MatrixXd& w = *result->find(core::embedding::kWordVectors);
    const auto vocabulary = core::loadVocabulary(project, data->run.datasetId);
    if (s.cols() != 1 || w.cols() != s.rows() || static_cast<std::size_t>(w.rows()) != vocabulary.size()) {
      out.error = QObject::tr("the stored vectors do not fit the dataset's vocabulary");
      return out;
    }
    data->singularValues = s.col(0);
    data->words = w * data->singularValues.asDiagonal();
    for (const auto& entry : vocabulary) data->wordNames.push_back(entry.word);
    data->documentHeaders = core::listDocuments(project, data->run.datasetId);
    if (const auto* u = result->find(core::embedding::kDocVectors);
        u && u->cols() == s.rows() && static_cast<std::size_t>(u->rows()) == data->documentHeaders.size())
      data->documents = *u * data->singularValues.asDiagonal();
    const auto norm = data->run.finalMetrics.find(core::embedding::kTrainSquaredNorm);
    if (norm != data->run.finalMetrics.end() && norm->is_number()) data->squaredNorm = norm->get<double>();
    out.data = std::move(data);
  } catch (const std::exception& e) {
    out.error = qs(e.what());
  }
  return out;
}

std::vector<int> componentExtremes(const Eigen::MatrixXd& coordinates, int component, int count, bool positive) {
  std::vector<int> rows(static_cast<std::size_t>(coordinates.rows()));
  std::iota(rows.begin(), rows.end(), 0);
  const auto value = [&](int r) { return positive ? coordinates(r, component) : -coordinates(r, component); };
  const auto n = std::min<std::size_t>(rows.size(), static_cast<std::size_t>(std::max(count, 0)));
  std::partial_sort(rows.begin(), rows.begin() + static_cast<std::ptrdiff_t>(n), rows.end(),
                    [&](int a, int b) { return value(a) > value(b) || (value(a) == value(b) && a < b); });
  rows.resize(n);
  // Only rows that lie on that side of zero.
  rows.erase(std::remove_if(rows.begin(), rows.end(), [&](int r) { return value(r) <= 0.0; }), rows.end());
  return rows;
}

std::vector<Neighbour> nearestByCosine(const Eigen::MatrixXd& rows, const Eigen::RowVectorXd& query, int count,
                                       int exclude) {
  std::vector<Neighbour> all;
  const double queryNorm = query.norm();
  if (queryNorm <= 0.0) return all;
  for (Eigen::Index r = 0; r < rows.rows(); ++r) {
    const double norm = rows.row(r).norm();
    if (r == exclude || norm <= 0.0) continue;
    all.push_back({static_cast<int>(r), rows.row(r).dot(query) / (norm * queryNorm)});
  }
  const auto n = std::min<std::size_t>(all.size(), static_cast<std::size_t>(std::max(count, 0)));
  std::partial_sort(all.begin(), all.begin() + static_cast<std::ptrdiff_t>(n), all.end(),
                    [](const Neighbour& a, const Neighbour& b) {
                      return a.similarity > b.similarity || (a.similarity == b.similarity && a.row < b.row);
                    });
  all.resize(n);
  return all;
}

}  // namespace latent::ui
