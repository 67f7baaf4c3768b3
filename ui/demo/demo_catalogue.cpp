// SPDX-License-Identifier: GPL-3.0-or-later
// The demo list. Only demos use model names directly; everything else reads the catalogue.
#include "ui/demo/demo_catalogue.hpp"

#include <QObject>
#include <QStringList>

#include "core/jobs/samples.hpp"
#include "ui/util/qt_convert.hpp"

namespace latent::ui {

QVector<DemoSpec> demoCatalogue() {
  return {
      {QStringLiteral("corpus-unigram"),
       QObject::tr("State of the Union: the unigram baseline"),
       QObject::tr("240 State of the Union addresses are imported and the unigram model is fitted with 10% of the "
                   "addresses held out. The run view lists the most probable words and the held-out perplexity by "
                   "document completion: the number every topic model has to beat."),
       QStringLiteral("sotu"),
       QStringLiteral("unigram"),
       QString(),
       {},
       0.1,
       {},
       {}},
      {QStringLiteral("corpus-lda"),
       QObject::tr("State of the Union: ten topics"),
       QObject::tr("LDA with 10 topics is fitted to 240 State of the Union addresses by collapsed Gibbs sampling, with "
                   "10% of the addresses held out. Name the topics in the Topics page and move the relevance slider; "
                   "the Documents page shows every word of an address coloured by its topic, and the Topic map page "
                   "places the topics by how alike their words are (as LDAvis) with each one's most relevant words."),
       QStringLiteral("sotu"),
       QStringLiteral("lda-gibbs"),
       QString(),
       QVariantMap{{QStringLiteral("k"), 10}, {QStringLiteral("iterations"), 200}},
       0.1,
       {},
       {}},
      {QStringLiteral("folding-in"),
       QObject::tr("Held-out perplexity: document completion against full folding-in"),
       QObject::tr("PLSA is fitted to the Cora abstracts for K = 5 to 160 with 10% held out, and each fit scores the "
                   "held-out abstracts twice: by document completion (the mixture fitted to half of each abstract's "
                   "words, the other half scored) and by full folding-in (fitted to all the words, the same words "
                   "scored). Full folding-in keeps improving as K grows because it grades its own homework, while "
                   "document completion turns up once PLSA overfits: that is why it is the number we report."),
       QStringLiteral("cora"),
       QStringLiteral("plsa"),
       QString(),
       {},
       0.1,
       {5, 10, 20, 40, 80, 160},
       {}},
      {QStringLiteral("gibbs-toy"),
       QObject::tr("The Gibbs sampling toy corpus"),
       QObject::tr("16 documents drawn from two topics, money/loan/bank and river/stream/bank, as in the textbook's "
                   "Gibbs sampling example, and LDA with 2 topics after 64 Gibbs sweeps. Every word is a dot, white "
                   "or black by its topic: mixed at the random start, split by sense after the sweeps, with "
                   "“bank” taking the topic of the words around it."),
       QStringLiteral("gibbs-toy"),
       QStringLiteral("lda-gibbs"),
       QString(),
       // One start, so that the picture's "after" is exactly 64 sweeps from the random start it draws;
       // the sparse sampler, which visits the tokens document by document, as the textbook's sampler.
       QVariantMap{{QStringLiteral("k"), 2},
                   {QStringLiteral("iterations"), 64},
                   {QStringLiteral("restarts"), 1},
                   {QStringLiteral("sampler"), QStringLiteral("sparse")}},
       0.0,
       {},
       {}},
      {QStringLiteral("sampson"),
       QObject::tr("Sampson's monks"),
       QObject::tr("Who liked whom among 18 novices just before their monastery split, ordered by Sampson's own "
                   "four groups. The dense blocks on the diagonal are the groups a block model should find."),
       QStringLiteral("sampson"),
       QString(),
       QStringLiteral("group"),
       {},
       0.1,
       {},
       {}},
      {QStringLiteral("sampson-mmsb"),
       QObject::tr("Sampson's monks: mixed memberships"),
       QObject::tr("The mixed membership stochastic block model with three blocks is fitted to who liked whom among "
                   "Sampson's 18 novices, nothing held out. On the Memberships page the Young Turks, the Loyal "
                   "Opposition and the Outcasts gather in three corners of the triangle; of the three waverers, Victor "
                   "and Romauld side with the Loyal Opposition while Amand sits half-way between it and the Outcasts."),
       QStringLiteral("sampson"),
       QStringLiteral("mmsb"),
       QString(),
       QVariantMap{{QStringLiteral("k"), 3}},
       0.0,
       {},
       {}},
      {QStringLiteral("sampson-relations"),
       QObject::tr("All of Sampson's relations"),
       QObject::tr("The multi-relational infinite relational model finds one partition of Sampson's 18 novices from "
                   "all eight relations at once (like, dislike, esteem, disesteem, influence, negative influence, "
                   "praise, blame), with whether each attended Cloisterville clustered alongside. On the Relations "
                   "page each relation is drawn with the novices ordered by the blocks found: liking, esteem, "
                   "influence and praise fall inside the blocks, dislike, disesteem and blame between them."),
       QStringLiteral("sampson-relations"),
       QStringLiteral("irm-multi"),
       QString(),
       QVariantMap{{QStringLiteral("features"), QStringLiteral("cloisterville")}},
       0.0,
       {},
       {}},
      {QStringLiteral("citations-cora"),
       QObject::tr("Citations in Cora"),
       QObject::tr("The relational topic model learns 20 topics from 2,410 computer-science papers and their "
                   "citations, a tenth of both held out. The Network page draws the papers by their citations, "
                   "coloured by topic, with the citations the model expects but the corpus lacks dashed; its final "
                   "metrics compare its held-out link prediction with LDA topics alone and with MMSB on the links "
                   "alone. Click a paper to read its links and its most likely new ones."),
       QStringLiteral("cora"),
       QStringLiteral("rtm"),
       QString(),
       QVariantMap{{QStringLiteral("k"), 20}, {QStringLiteral("iterations"), 200}},
       0.1,
       {},
       {}},
      {QStringLiteral("karate"),
       QObject::tr("Zachary's karate club"),
       QObject::tr("Friendships among 34 members of a karate club, ordered by the side each member took when the "
                   "club split. Most edges stay within a side: the community structure a block model recovers."),
       QStringLiteral("karate"),
       QString(),
       QStringLiteral("club_after_split"),
       {},
       0.1,
       {},
       {}},
      {QStringLiteral("insteval"),
       QObject::tr("InstEval: students rating lecturers"),
       QObject::tr("73,421 ratings of ETH Zurich lecturers by their students, on a scale of 1 to 5. The histogram "
                   "shows how the values spread and the table which lecturers were rated most."),
       QStringLiteral("insteval"),
       QString(),
       QString(),
       {},
       0.1,
       {},
       {}},
      {QStringLiteral("ratings-pmf"),
       QObject::tr("InstEval: lecturers on latent factors"),
       QObject::tr("Probabilistic matrix factorisation (30 factors, 15 sweeps of alternating least squares) is fitted "
                   "to 73,421 student ratings of lecturers, with 10% of the ratings held out. Compare the held-out "
                   "RMSE in the final metrics with the bias-only baseline (the factors gain only a little over how "
                   "strict each student and how liked each lecturer is), and in the Factors page see the lecturers "
                   "on two factors and one student's recommendations."),
       QStringLiteral("insteval"),
       QStringLiteral("pmf"),
       QString(),
       QVariantMap{{QStringLiteral("k"), 30}, {QStringLiteral("iterations"), 15}},
       0.1,
       {},
       {}},
      {QStringLiteral("ratings-rbm"),
       QObject::tr("InstEval: an RBM's view of students' tastes"),
       QObject::tr("The categorical RBM for ratings (20 hidden units) is fitted to 73,421 student ratings of "
                   "lecturers, with 10% held out. The Hidden units page lists, for each unit, the lecturers whose "
                   "expected rating it raises and lowers most; Activations shows each student's units; the held-out "
                   "RMSE compares with pmf's in the ratings-pmf demo (pmf is better on these ratings)."),
       QStringLiteral("insteval"),
       QStringLiteral("rbm-ratings"),
       QString(),
       {},
       0.1,
       {},
       {}},
      {QStringLiteral("bayesian-harmonium"),
       QObject::tr("A Bayesian harmonium on synthetic binary data"),
       QObject::tr("The synthetic experiment of the Bayesian harmonium paper (004 §5.1): 200 cases of 100 binary units "
                   "drawn exactly from a harmonium with 10 hidden units, fitted by 300 Langevin iterations under the "
                   "paper's prior (sd 0.1), the first 100 burn-in, 10% of the cases held out. The Langevin chain page "
                   "shows the traced weights leaving their start and then wandering, as a single weight is not "
                   "identified (rotating the hidden units gives the same model), and each weight's posterior spread; "
                   "run it again with inference ml to compare with maximum likelihood."),
       QStringLiteral("efh-synthetic"),
       QStringLiteral("gb-efh"),
       QString(),
       QVariantMap{
           {QStringLiteral("iterations"), 300}, {QStringLiteral("burn_in"), 100}, {QStringLiteral("prior_sd"), 0.1}},
       0.1,
       {},
       {}},
      {QStringLiteral("rsm-vs-lda"),
       QObject::tr("Replicated softmax against LDA"),
       QObject::tr(
           "A replicated softmax with 50 hidden units and LDA with 50 topics are fitted in turn to the 240 State "
           "of the Union addresses, with the same 10% held out (000 Fig. 27.32-27.33). The last tab ranks the "
           "training addresses for each held-out one by the similarity of their hidden units or topic "
           "proportions: precision against recall when an address of the same party counts as relevant, "
           "with each model's held-out perplexity by document completion beside it. On these long addresses "
           "(3,300 words on average) LDA comes out ahead on both: the replicated softmax's hidden units end "
           "all but saturated, each plainly on or off, so its codes tell the parties apart little better "
           "than chance."),
       QStringLiteral("sotu"),
       QStringLiteral("rsm"),
       QString(),
       QVariantMap{{QStringLiteral("k"), 50}},
       0.1,
       {},
       {DemoFit{QStringLiteral("lda-gibbs"), QVariantMap{{QStringLiteral("k"), 50}}}}},
      {QStringLiteral("ways-to-factor"),
       QObject::tr("Five ways to factor a corpus, and 003's pitfall"),
       QObject::tr("NMF, GaP, PLSA, multinomial ePCA and LDA (variational Bayes) are each fitted to Cora at K = 2, "
                   "5, 10 and 20, on the same 10% of documents held out (about a minute and a half). Choosing K "
                   "draws every model's held-out perplexity against K under both protocols: by full folding-in "
                   "(dashed) every model keeps improving with K, while by document completion (solid), the fair "
                   "protocol, NMF is best at K = 10 and ePCA levels off there. GaP is NMF's Poisson model with Gamma "
                   "priors on the documents' scores, integrated out rather than fitted: on the same data it keeps "
                   "improving to K = 20, as do PLSA and LDA (the folding-in demo takes PLSA to K = 160, where it "
                   "turns). LSA has no perplexity, being no model of words: see the words-on-a-map demo."),
       QStringLiteral("cora"),
       QStringLiteral("nmf"),
       QString(),
       {},
       0.1,
       {2, 5, 10, 20},
       {DemoFit{QStringLiteral("gap"), {}}, DemoFit{QStringLiteral("plsa"), {}},
        DemoFit{QStringLiteral("epca"), QVariantMap{{QStringLiteral("iterations"), 150}}},
        DemoFit{QStringLiteral("lda-vb"), QVariantMap{{QStringLiteral("iterations"), 50}}}}},
      {QStringLiteral("survey-map"),
       QObject::tr("Survey answers on a map: ANES 1996"),
       QObject::tr("Categorical PCA (two components) of 944 voters' answers to nine questions of the 1996 American "
                   "National Election Study, with 10% of the voters held out. The Map page places every answer "
                   "on the two components: the first runs from strong Democrats, Clinton voters and those who "
                   "call Clinton a moderate on the left to strong Republicans, Dole voters and those who call him "
                   "extremely liberal on the right; the second from educated, well-off liberals at the bottom to "
                   "older voters with little schooling and extreme or reversed placements of the candidates at the "
                   "top. The points are integrated out (variational EM). Switch to documents to see the voters, or "
                   "find an answer for its neighbours. The final metrics predict each held-out voter's hidden "
                   "answers from their others: over all questions a little better than the answers' frequencies "
                   "(two components say little about age or TV news), the vote far better (76% right against 61%)."),
       QStringLiteral("anes96"),
       QStringLiteral("catpca"),
       QString(),
       QVariantMap{{QStringLiteral("k"), 2}},
       0.1,
       {},
       {}},
      {QStringLiteral("topics-together"),
       QObject::tr("Which topics go together: a correlated topic model of the State of the Union"),
       QObject::tr(
           "A correlated topic model (20 topics) of the 240 State of the Union addresses, 10% of them held out: "
           "LDA with a logistic-normal prior whose covariance is learnt (000 §27.4.1). The Correlations "
           "page places topics that share addresses together (000 Fig. 27.10) and joins the most "
           "correlated pairs: the addresses span 1790 to 2020, and what their topics share most is their "
           "era, the nineteenth century's (Britain, Mexico, the constitution, commerce) on one side, the "
           "twentieth's and our own (the economy, security, jobs, applause) on the other. Move the slider "
           "for more or fewer links, hover over a topic for what it goes with and least with, click it to "
           "open its words."),
       QStringLiteral("sotu"),
       QStringLiteral("ctm"),
       QString(),
       QVariantMap{{QStringLiteral("k"), 20}},
       0.1,
       {},
       {}},
      {QStringLiteral("topics-over-time"),
       QObject::tr("Topics of the State of the Union over two centuries"),
       QObject::tr(
           "A dynamic topic model (10 topics) of the 240 State of the Union addresses, 1790 to 2020, in decades, "
           "10% held out (000 §27.4.2): each topic's words drift from one decade to the next. The Topics over "
           "time page shows a topic's top words decade by decade, the words that changed most within it as "
           "lines, and every topic's share of each decade. Slavery peaks in its topic in the 1850s and has "
           "all but gone by the 1880s; terrorism rises from the 1970s. The addresses' language changes so "
           "much that most decades are dominated by one or two topics. Click a decade for its addresses."),
       QStringLiteral("sotu"),
       QStringLiteral("dtm"),
       QString(),
       QVariantMap{{QStringLiteral("k"), 10}},
       0.1,
       {},
       {}},
      {QStringLiteral("response-year"),
       QObject::tr("What predicts a speech's year"),
       QObject::tr(
           "Supervised LDA (10 topics) of the 240 State of the Union addresses, 20% held out (000 §27.4.4.1; Blei & "
           "McAuliffe 2007): the topics are fitted to the words and to each address's year at once, so they form "
           "around what tells the eras apart. The Response page sorts the topics by the year of an address all "
           "about them, their top words beside them; the Documents page gives each address's year predicted from "
           "its text alone. The held-out addresses' years come out within about 12 years (root mean square), "
           "no better than ridge regression on the words or plain LDA topics with the year regressed on them: "
           "the addresses are long, so one year per address barely moves the topics."),
       QStringLiteral("sotu"),
       QStringLiteral("slda"),
       QString(),
       QVariantMap{{QStringLiteral("k"), 10}, {QStringLiteral("response"), QStringLiteral("time")}},
       0.2,
       {},
       {}},
      {QStringLiteral("topics-by-party"),
       QObject::tr("Topics by party and era: DMR on the State of the Union"),
       QObject::tr(
           "Dirichlet-multinomial regression (Mimno & McCallum 2008; 000 §27.4.4.2) with 20 topics on the 240 State "
           "of the Union addresses, 10% held out: LDA in which each address's prior over topics depends on its "
           "year and its president's party. The Metadata page shows, for the year or a party, the topics it "
           "raises or lowers, each with its top words: pick a feature from the list. From 1790 to 2020 the "
           "topics of the early republic (commerce and shipping, treaties with Mexico, the banks and the "
           "currency) fall by factors of thousands while jobs, families and taxes, energy and health, and "
           "security rise; a party's bars compare its addresses with others of the same years."),
       QStringLiteral("sotu"),
       QStringLiteral("dmr"),
       QString(),
       QVariantMap{{QStringLiteral("k"), 20}, {QStringLiteral("features"), QStringLiteral("time,label")}},
       0.1,
       {},
       {}},
      {QStringLiteral("function-words"),
       QObject::tr("Function and content words in the State of the Union"),
       QObject::tr("LDA-HMM (20 topics, 20 syntactic classes) of the 240 State of the Union addresses with every word "
                   "kept, 10% held out (000 §27.4.3, about a minute): a hidden Markov chain over classes runs "
                   "along each address, and one class draws its words from the topics. The Documents page colours "
                   "content words by topic and marks function words with their class (c1, c2, ...), shaded by "
                   "their chance of being content after all, as 000 Fig. 27.14 does; on the Topics page the "
                   "topics hold content words, while plain LDA on the same words fills its topics with the, of "
                   "and to (000 Table 27.1)."),
       QStringLiteral("sotu-words"),
       QStringLiteral("lda-hmm"),
       QString(),
       QVariantMap{{QStringLiteral("iterations"), 200}},
       0.1,
       {},
       {}},
      {QStringLiteral("words-on-a-map"),
       QObject::tr("LSA: the State of the Union's words on a map"),
       QObject::tr("Latent semantic analysis (a truncated SVD of the tf-idf weighted counts, 100 components) of the "
                   "240 State of the Union addresses, with 10% held out. The Map page places the words on the "
                   "second and third components; find a word (slavery, tariff, terrorism) for its nearest neighbours "
                   "over all 100 components, or switch to documents to see addresses of one era together. "
                   "Components shows how little each component captures: tf-idf counts are far from low-rank."),
       QStringLiteral("sotu"),
       QStringLiteral("lsa"),
       QString(),
       QVariantMap{{QStringLiteral("k"), 100}},
       0.1,
       {},
       {}},
  };
}

std::optional<DemoSpec> findDemo(const QString& name) {
  for (const auto& d : demoCatalogue())
    if (d.name == name) return d;
  if (name.startsWith(QLatin1String("sample:"))) {
    const QString sample = name.mid(7);
    for (const auto& s : core::builtInSamples())
      if (qs(s.name) == sample)
        return DemoSpec{name,
                        qs(s.title),
                        qs(s.description) + QLatin1Char(' ') +
                            QObject::tr("This is a temporary project, removed when the window closes; to keep your "
                                        "work, create a project and use File ▸ Import Sample."),
                        sample,
                        QString(),
                        QString(),
                        {},
                        0.1,
                        {},
                        {}};
  }
  return std::nullopt;
}

QString demoNames() {
  QStringList names;
  for (const auto& d : demoCatalogue()) names << d.name;
  return names.join(QStringLiteral(", "));
}

}  // namespace latent::ui
