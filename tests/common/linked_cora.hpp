// SPDX-License-Identifier: GPL-3.0-or-later
// Cora with its citations (the R package lda's, /work/shared/datasets/cora) for the evidence tests
// and benchmarks of the linked-document models, read by the project's own importers: the UCI bag of
// words with its vocabulary, then links.csv with `doc` linking to `linked_doc` by document id.
#pragma once

#include <filesystem>
#include <string>

#include "core/jobs/import_job.hpp"
#include "core/jobs/link_import.hpp"
#include "core/store/corpus_store.hpp"
#include "core/store/project.hpp"

namespace latent::test {

// Imports the folder's files into `projectFile` (created) and loads the corpus with its links.
inline core::Corpus loadLinkedCora(const std::filesystem::path& dir, const std::filesystem::path& projectFile) {
  core::Project project(projectFile);
  core::CorpusImportRequest corpus;
  corpus.name = "cora";
  corpus.source = dir / "docword.cora.txt";
  corpus.read.format = core::CorpusFormat::Uci;
  corpus.read.vocabulary = dir / "vocab.cora.txt";
  const auto id = core::importCorpus(project, corpus).dataset.id;
  core::LinksImportRequest links;
  links.corpus = std::to_string(id);
  links.source = dir / "links.csv";
  links.sourceColumn = "doc";
  links.targetColumn = "linked_doc";
  links.key = "id";
  core::importDocumentLinks(project, links);
  return core::loadCorpus(project, id);
}

}  // namespace latent::test
