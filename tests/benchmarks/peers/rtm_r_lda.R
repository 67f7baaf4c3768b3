# R lda's relational topic model (rtm.collapsed.gibbs.sampler, Chang's CRAN package) on the split
# that tests/evidence/tst_rtm_evidence.cpp wrote: training documents, their links (either
# direction) and the hidden pairs. Scores the hidden pairs as latent-cli does (ROC AUC; precision at
# 10 of each document with a hidden link, ranking every training document it is not linked to) with
# predictive.link.probability's score, and prints one line: auc, precision at 10, sampler seconds.
# Usage: Rscript rtm_r_lda.R SPLIT_DIR K SWEEPS ALPHA ETA LINK_BETA SEED
args <- commandArgs(trailingOnly = TRUE)
dir <- args[1]
K <- as.integer(args[2])
sweeps <- as.integer(args[3])
alpha <- as.numeric(args[4])
eta <- as.numeric(args[5])
link.beta <- as.numeric(args[6])
set.seed(as.integer(args[7]))
suppressPackageStartupMessages(library(lda))

doc.lines <- readLines(file.path(dir, "documents.txt"))
documents <- lapply(doc.lines, function(line) {
  parts <- strsplit(trimws(line), " ", fixed = TRUE)[[1]]
  parts <- parts[nchar(parts) > 0]
  pairs <- matrix(as.integer(unlist(strsplit(parts, ":", fixed = TRUE))), nrow = 2)
  storage.mode(pairs) <- "integer"
  pairs
})
link.lines <- readLines(file.path(dir, "links.txt"))
links <- lapply(link.lines, function(line) {
  parts <- strsplit(trimws(line), " ", fixed = TRUE)[[1]]
  as.integer(parts[nchar(parts) > 0])
})
hidden <- read.csv(file.path(dir, "hidden.csv"))
V <- max(sapply(documents, function(d) if (ncol(d) > 0) max(d[1, ]) else 0L)) + 1L
vocab <- as.character(seq_len(V))
D <- length(documents)

seconds <- system.time(
  fit <- rtm.collapsed.gibbs.sampler(documents, links, K, vocab, sweeps, alpha, eta, rep(link.beta, K))
)[["elapsed"]]

# predictive.link.probability's score for every pair at once: its exponent, beta (theta_a o theta_b)
# with theta = (document_sums + alpha) normalised, a monotone transform of its probability.
theta <- t(fit$document_sums + alpha)
theta <- theta / rowSums(theta)
score <- (theta * link.beta) %*% t(theta)

auc <- function(s, y) {
  r <- rank(s)
  n1 <- sum(y == 1); n0 <- sum(y == 0)
  (sum(r[y == 1]) - n1 * (n1 + 1) / 2) / (n1 * n0)
}
a <- hidden$a + 1L; b <- hidden$b + 1L
pair.score <- score[cbind(a, b)]
hidden.auc <- auc(pair.score, hidden$linked)

linked <- hidden[hidden$linked == 1, ]
relevant <- split(c(linked$b, linked$a) + 1L, c(linked$a, linked$b) + 1L)
precisions <- sapply(names(relevant), function(name) {
  d <- as.integer(name)
  excluded <- c(d, links[[d]] + 1L)
  candidates <- setdiff(seq_len(D), excluded)
  s <- score[d, candidates]
  top <- candidates[order(-s, candidates)[seq_len(min(10, length(candidates)))]]
  sum(top %in% relevant[[name]]) / 10
})
cat(sprintf("r-lda auc %.4f precision_at_10 %.4f seconds %.3f\n", hidden.auc, mean(precisions), seconds))
