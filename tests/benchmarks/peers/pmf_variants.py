#!/usr/bin/python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""How much low-rank (student x lecturer) signal does InstEval hold? Matrix-factorisation variants
with biases against tuned baselines, every hyperparameter chosen on a validation split carved from
the training ratings (never from the held-out test ratings), in numpy only.

Split: --split DIR reads train.csv/test.csv written by `pmf-speed --mode insteval --write-split DIR`
(our C++ split); otherwise the script draws its own split of the same kind from --ratings: a
seeded shuffle, then the first 10% (--heldout) of ratings whose user and item both keep at least
one training rating are held out (core/eval/rating_split.cpp's rule, numpy's RNG, so not the same
ratings). The validation split is drawn from the training ratings by the same rule (10%, seed +
1000). Each method is tuned on (train - validation, validation), then refitted on the whole
training part with the chosen settings (and the chosen number of sweeps/epochs) and scored once on
the test ratings. Predictions are clipped to [1, 5]. RMSE as 000 eq. 27.84.

Methods (r_ui ~ mu + b_u + b_i [+ p_u . q_i]):
  global-mean      mu.
  bias-only        ridge biases, lambda_u and lambda_i tuned separately (alternating exact updates).
  als              ALS, factors and biases solved jointly per user/item, one lambda for all.
  als-wr           ALS-WR (Zhou et al. 2008): lambda * n_u (n_i) for the user's (item's) solve.
  als-sep          ALS with the bias penalties fixed at bias-only's tuned lambda_u, lambda_i and a
                   separate factor penalty lambda_f.
  als-sep-ens5     als-sep's settings, five random initialisations, predictions averaged.
  bpmf             Bayesian PMF (Salakhutdinov & Mnih 2008) by Gibbs sampling; the bias of each user
                   (item) is one more coordinate of its latent vector under the Normal-Wishart prior
                   (beta0 = 2, nu0 = d, W0 = I, mu0 = 0); noise precision sampled (Gamma(1, 1) prior);
                   predictions averaged over the samples after burn-in.
  svdpp            SVD++ (Koren 2008): user factor p_u + |N(u)|^-1/2 sum_{j in N(u)} y_j, N(u) all
                   lecturers the student rated (train and test pairs: which pairs exist is known,
                   not their ratings), full-batch Adam on the L2-penalised squared error, early
                   stopping on validation.
  knn-item         not low rank, a reference for how much interaction signal exists at all: biases
                   + item-item neighbourhood on bias residuals (shrunk Pearson-like similarity,
                   top-k neighbours among the lecturers the student rated, shrunk weighted mean).
  student-dept     not PMF either: biases + a ridge (student, department) offset, the structured
                   interaction lme4's InstEval examples model.

Cost: --quick (small grids) takes about 50 s of CPU per seed; the default grids a few CPU minutes
per seed (about 28 min of wall clock for seeds 1-3 run as three niced processes on a busy 2-core
machine, 2026-11). Numpy here has no optimised BLAS, so everything is done with segment sums.

Results of 2026-11 (default grids, own splits, held-out RMSE, change against tuned bias-only):
bias-only 1.2020/1.1973/1.1958; ALS, ALS-WR, ALS-sep, 5-seed ensemble -0.05..+0.8% (validation
always chose 1-2 sweeps); BPMF K=10 -0.20..-0.33%; item kNN -0.20..-0.25%; SVD++ K=20 lambda 30
-1.13/-1.40/-1.17% (implicit from training pairs only: -1.02/-1.34/-1.11%); the same Adam fit
without the implicit term -0.14..+0.04%.

Usage:
  OMP_NUM_THREADS=1 OPENBLAS_NUM_THREADS=1 nice /usr/bin/python3 tests/benchmarks/peers/pmf_variants.py \
      [--ratings resources/samples/insteval/ratings.csv] [--seeds 1 2 3] [--heldout 0.1] \
      [--split DIR] [--methods ...] [--quick]
Prints one JSON line per (method, seed) with the tuned settings, validation and held-out RMSE and
the relative change against bias-only on the same split, then a summary table.
"""
import argparse
import csv
import json
import os
import sys
import time

import numpy as np

LOW, HIGH = 1.0, 5.0


# ----------------------------------------------------------------------------------------- data
def load_insteval(path):
    with open(path, newline="") as f:
        rows = list(csv.reader(f))
    head, rows = rows[0], rows[1:]
    col = {name: k for k, name in enumerate(head)}
    s = np.array([int(r[col["student"]]) for r in rows])
    l = np.array([int(r[col["lecturer"]]) for r in rows])
    r = np.array([float(r[col["rating"]]) for r in rows])
    d = np.array([int(r_[col["dept"]]) for r_ in rows]) if "dept" in col else np.zeros(len(rows), int)
    _, u = np.unique(s, return_inverse=True)
    _, i = np.unique(l, return_inverse=True)
    _, d = np.unique(d, return_inverse=True)
    return u, i, r, d


def load_split_dir(path):
    out = []
    for name in ("train.csv", "test.csv"):
        with open(os.path.join(path, name), newline="") as f:
            rows = list(csv.reader(f))[1:]
        out.append(np.array([[float(x) for x in row[:3]] for row in rows]))
    return out


def split(u, i, fraction, seed):
    """Boolean mask of held-out ratings: rating_split.cpp's rule with numpy's RNG."""
    n = len(u)
    order = np.random.default_rng(seed).permutation(n)
    wanted = int(round(fraction * n))
    uleft = np.bincount(u).astype(np.int64)
    ileft = np.bincount(i).astype(np.int64)
    test = np.zeros(n, bool)
    taken = 0
    for k in order:
        if taken >= wanted:
            break
        if uleft[u[k]] <= 1 or ileft[i[k]] <= 1:
            continue
        uleft[u[k]] -= 1
        ileft[i[k]] -= 1
        test[k] = True
        taken += 1
    return test


class Seg:
    """Sums of per-rating values grouped by a key (user or item): reduceat over a sorted order."""

    def __init__(self, keys, n):
        self.order = np.argsort(keys, kind="stable")
        self.count = np.bincount(keys, minlength=n)
        self.nz = np.flatnonzero(self.count)
        self.starts = np.concatenate([[0], np.cumsum(self.count)[:-1]])[self.nz]
        self.n = n

    def sum(self, values):
        out = np.zeros((self.n,) + values.shape[1:])
        if len(values):
            out[self.nz] = np.add.reduceat(values[self.order], self.starts, axis=0)
        return out


class Part:
    """A training set: index arrays and segment sums by user and by item."""

    def __init__(self, u, i, r, nu, ni):
        self.u, self.i, self.r, self.nu, self.ni = u, i, r, nu, ni
        self.mu = float(r.mean())
        self.by_u, self.by_i = Seg(u, nu), Seg(i, ni)
        self.nu_count = self.by_u.count.astype(float)
        self.ni_count = self.by_i.count.astype(float)


def rmse(r, pred):
    return float(np.sqrt(np.mean((r - np.clip(pred, LOW, HIGH)) ** 2)))


# ------------------------------------------------------------------------------------ baselines
def fit_biases(t, lam_u, lam_i, sweeps=60):
    bu, bi = np.zeros(t.nu), np.zeros(t.ni)
    for _ in range(sweeps):
        bu = np.bincount(t.u, t.r - t.mu - bi[t.i], t.nu) / (t.nu_count + lam_u)
        bi = np.bincount(t.i, t.r - t.mu - bu[t.u], t.ni) / (t.ni_count + lam_i)
    return bu, bi


def tune_biases(t, v):
    best = None
    for lu in (1, 2, 3, 5, 7, 10, 15, 20, 30):
        for li in (1, 3, 5, 10, 20, 30, 50, 80):
            bu, bi = fit_biases(t, lu, li)
            e = rmse(v[2], t.mu + bu[v[0]] + bi[v[1]])
            if best is None or e < best[0]:
                best = (e, lu, li)
    return best


# ------------------------------------------------------------------------------------------ ALS
def batched_solve(G, b):
    return np.linalg.solve(G, b[..., None])[..., 0]


def grams(seg, X, rows_x):
    """Per-row sums of x x' over the row's ratings, x = X[rows_x] (done in chunks of d)."""
    Xr = X[rows_x]
    d = X.shape[1]
    G = np.zeros((seg.n, d, d))
    for a in range(d):
        G[:, a, :] = seg.sum(Xr * Xr[:, a:a + 1])
    return G


def als_side(seg, rows_x, target, X, reg):
    """Solve every row's ridge problem  min sum_(its ratings) (target - z . x)^2 + z' diag(reg_row) z,
    x = X[rows_x] for each rating; seg groups the ratings by row."""
    G = grams(seg, X, rows_x)
    d = X.shape[1]
    idx = np.arange(d)
    G[:, idx, idx] += reg
    return batched_solve(G, seg.sum(X[rows_x] * target[:, None]))


class Als:
    """r ~ mu + b_u + b_i + p_u . q_i. User solve: z_u = [b_u, p_u] on x_i = [1, q_i], target
    r - mu - b_i. reg_* are (bias, factor) penalties; weighted multiplies them by n_u (n_i)."""

    def __init__(self, t, k, lam_ub, lam_uf, lam_ib, lam_if, weighted=False, seed=0, init=0.1):
        rng = np.random.default_rng(seed)
        self.t, self.k = t, k
        self.bu, self.bi = fit_biases(t, max(lam_ub, 1e-9), max(lam_ib, 1e-9), sweeps=5)
        self.P = rng.normal(0, init, (t.nu, k))
        self.Q = rng.normal(0, init, (t.ni, k))
        wu = t.nu_count[:, None] if weighted else 1.0
        wi = t.ni_count[:, None] if weighted else 1.0
        self.reg_u = np.concatenate([np.full((t.nu, 1), lam_ub), np.full((t.nu, k), lam_uf)], 1) * wu
        self.reg_i = np.concatenate([np.full((t.ni, 1), lam_ib), np.full((t.ni, k), lam_if)], 1) * wi
        self.reg_u = self.reg_u + 1e-9
        self.reg_i = self.reg_i + 1e-9

    def sweep(self):
        t = self.t
        X = np.concatenate([np.ones((t.ni, 1)), self.Q], 1)
        Z = als_side(t.by_u, t.i, t.r - t.mu - self.bi[t.i], X, self.reg_u)
        self.bu, self.P = Z[:, 0], Z[:, 1:]
        X = np.concatenate([np.ones((t.nu, 1)), self.P], 1)
        Z = als_side(t.by_i, t.u, t.r - t.mu - self.bu[t.u], X, self.reg_i)
        self.bi, self.Q = Z[:, 0], Z[:, 1:]

    def predict(self, u, i):
        return self.t.mu + self.bu[u] + self.bi[i] + np.sum(self.P[u] * self.Q[i], 1)


def run_als(t, v, sweeps, **kw):
    m = Als(t, **kw)
    curve = []
    for _ in range(sweeps):
        m.sweep()
        if v is not None:
            curve.append(rmse(v[2], m.predict(v[0], v[1])))
            if len(curve) - 1 - int(np.argmin(curve)) >= 6:  # early stopping: no gain in 6 sweeps
                break
    return m, curve


def tune_als(t, v, grid, sweeps, make):
    """grid: list of (k, lam); make(k, lam) -> Als kwargs. Returns (val_rmse, k, lam, n_sweeps)."""
    best = None
    for k, lam in grid:
        _, curve = run_als(t, v, sweeps, **make(k, lam))
        s = int(np.argmin(curve))
        if best is None or curve[s] < best[0]:
            best = (curve[s], k, lam, s + 1)
    return best


# ----------------------------------------------------------------------------------------- BPMF
def sample_wishart(rng, W, nu):
    """Bartlett decomposition: a draw from Wishart(W, nu) (mean nu W)."""
    d = W.shape[0]
    L = np.linalg.cholesky(W)
    A = np.zeros((d, d))
    A[np.diag_indices(d)] = np.sqrt(rng.chisquare(nu - np.arange(d)))
    A[np.tril_indices(d, -1)] = rng.normal(size=d * (d - 1) // 2)
    LA = L @ A
    return LA @ LA.T


def sample_hyper(rng, Z, beta0=2.0):
    n, d = Z.shape
    nu0 = d
    zbar = Z.mean(0)
    S = np.cov(Z.T, bias=True) * n
    W0inv = np.eye(d)
    Winv = W0inv + S + beta0 * n / (beta0 + n) * np.outer(zbar, zbar)
    W = np.linalg.inv(Winv)
    W = (W + W.T) / 2
    Lam = sample_wishart(rng, W, nu0 + n)
    mean = n * zbar / (beta0 + n)
    mu = rng.multivariate_normal(mean, np.linalg.inv((beta0 + n) * Lam))
    return mu, Lam


def bpmf_side(rng, seg, rows_x, target, X, alpha, mu, Lam):
    prec = alpha * grams(seg, X, rows_x) + Lam[None]
    rhs = alpha * seg.sum(X[rows_x] * target[:, None]) + (Lam @ mu)[None]
    L = np.linalg.cholesky(prec)
    mean = batched_solve(prec, rhs)
    z = rng.normal(size=mean.shape)
    # x = L^-T z has covariance prec^-1
    noise = np.linalg.solve(np.swapaxes(L, 1, 2), z[..., None])[..., 0]
    return mean + noise


def run_bpmf(t, evals, k, samples, burn, seed, init=None):
    """evals: list of (u, i) arrays to average predictions on. Returns averaged predictions per
    eval set (list over samples kept so far is summarised as running mean) and the curve of the
    running-mean RMSE on evals[0] if it carries ratings (third element)."""
    rng = np.random.default_rng(seed)
    if init is None:
        m, _ = run_als(t, None, 10, k=k, lam_ub=5, lam_uf=10, lam_ib=20, lam_if=10, seed=seed)
        init = m
    U = np.concatenate([init.bu[:, None], init.P], 1)  # z_u = [b_u, p_u]
    V = np.concatenate([init.bi[:, None], init.Q], 1)  # w_i = [b_i, q_i]
    alpha = 1.0
    sums = [np.zeros(len(e[0])) for e in evals]
    kept = 0
    curve = []
    for s in range(samples):
        mu_u, Lam_u = sample_hyper(rng, U)
        mu_v, Lam_v = sample_hyper(rng, V)
        X = np.concatenate([np.ones((t.ni, 1)), V[:, 1:]], 1)
        U = bpmf_side(rng, t.by_u, t.i, t.r - t.mu - V[t.i, 0], X, alpha, mu_u, Lam_u)
        X = np.concatenate([np.ones((t.nu, 1)), U[:, 1:]], 1)
        V = bpmf_side(rng, t.by_i, t.u, t.r - t.mu - U[t.u, 0], X, alpha, mu_v, Lam_v)
        pred_t = t.mu + U[t.u, 0] + V[t.i, 0] + np.sum(U[t.u, 1:] * V[t.i, 1:], 1)
        sse = float(np.sum((t.r - pred_t) ** 2))
        alpha = rng.gamma(1.0 + len(t.r) / 2, 1.0 / (1.0 + sse / 2))
        if s >= burn:
            kept += 1
            for e, acc in zip(evals, sums):
                acc += t.mu + U[e[0], 0] + V[e[1], 0] + np.sum(U[e[0], 1:] * V[e[1], 1:], 1)
            if len(evals[0]) == 3:
                curve.append(rmse(evals[0][2], sums[0] / kept))
    return [acc / max(kept, 1) for acc in sums], curve, alpha


# ---------------------------------------------------------------------------------------- SVD++
class Implicit:
    """N(u): the lecturers each student rated (pairs iu, ij), weights |N(u)|^-1/2."""

    def __init__(self, iu, ij, nu, ni, off=False):
        self.iu, self.ij, self.off = iu, ij, off  # off: no implicit term (plain biased MF)
        self.w = 1.0 / np.sqrt(np.maximum(np.bincount(iu, minlength=nu), 1))[iu]
        self.by_u, self.by_i = Seg(iu, nu), Seg(ij, ni)

    def user_sum(self, Y):  # (nu, k): |N(u)|^-1/2 sum_{j in N(u)} y_j
        if self.off:
            return np.zeros((self.by_u.n, Y.shape[1]))
        return self.by_u.sum(Y[self.ij] * self.w[:, None])

    def item_grad(self, gU):  # (ni, k): sum_{u: j in N(u)} |N(u)|^-1/2 gU_u
        return self.by_i.sum(gU[self.iu] * self.w[:, None])


def run_svdpp(t, imp, v, k, lam, lr, epochs, seed, lam_b=(5.0, 20.0)):
    """Full-batch Adam on 0.5 sum_(u,i) (r - mu - b_u - b_i - q_i.(p_u + |N(u)|^-1/2 sum y_j))^2
    + penalties (lam_b on the biases, lam on P, Q, Y)."""
    rng = np.random.default_rng(seed)
    bu, bi = fit_biases(t, *lam_b, sweeps=20)
    params = {"bu": bu, "bi": bi, "P": rng.normal(0, 0.01, (t.nu, k)),
              "Q": rng.normal(0, 0.01, (t.ni, k)), "Y": rng.normal(0, 0.01, (t.ni, k))}
    lams = {"bu": lam_b[0], "bi": lam_b[1], "P": lam, "Q": lam, "Y": lam}
    m1 = {n: np.zeros_like(x) for n, x in params.items()}
    m2 = {n: np.zeros_like(x) for n, x in params.items()}
    b1, b2, eps = 0.9, 0.999, 1e-8
    curve, best = [], (np.inf, None, 0)
    for ep in range(1, epochs + 1):
        p = params
        U = p["P"] + imp.user_sum(p["Y"])
        Uu, Qi = U[t.u], p["Q"][t.i]
        e = t.mu + p["bu"][t.u] + p["bi"][t.i] + np.sum(Uu * Qi, 1) - t.r
        gU = t.by_u.sum(e[:, None] * Qi)
        g = {"bu": t.by_u.sum(e) + lams["bu"] * p["bu"], "bi": t.by_i.sum(e) + lams["bi"] * p["bi"],
             "P": gU + lam * p["P"], "Q": t.by_i.sum(e[:, None] * Uu) + lam * p["Q"],
             "Y": imp.item_grad(gU) + lam * p["Y"]}
        for n in params:
            m1[n] = b1 * m1[n] + (1 - b1) * g[n]
            m2[n] = b2 * m2[n] + (1 - b2) * g[n] ** 2
            params[n] = params[n] - lr * (m1[n] / (1 - b1 ** ep)) / (np.sqrt(m2[n] / (1 - b2 ** ep)) + eps)
        if v is not None and (ep % 5 == 0 or ep == epochs):
            err = rmse(v[2], svdpp_predict(t, imp, params, v[0], v[1]))
            curve.append((ep, err))
            if err < best[0]:
                best = (err, None, ep)
            elif ep - best[2] >= 30:  # early stopping: no gain in 30 epochs
                break
    return params, curve, best


def svdpp_predict(t, imp, p, u, i):
    U = p["P"] + imp.user_sum(p["Y"])
    return t.mu + p["bu"][u] + p["bi"][i] + np.sum(U[u] * p["Q"][i], 1)


# ------------------------------------------------------------------------------------------ kNN
def knn_item(t, bu, bi, u, i, ks, shrinks, lams):
    """Item-item kNN on residuals e_uj = r_uj - mu - b_u - b_j. Returns dict (k, shrink, lam) ->
    predictions for the pairs (u, i)."""
    res = t.r - t.mu - bu[t.u] - bi[t.i]
    E = np.zeros((t.nu, t.ni))
    E[t.u, t.i] = res
    Mask = np.zeros((t.nu, t.ni))
    Mask[t.u, t.i] = 1.0
    num, sq, n_common = np.zeros((t.ni, t.ni)), np.zeros((t.ni, t.ni)), np.zeros((t.ni, t.ni))
    order = t.by_u.order
    bounds = np.concatenate([[0], np.cumsum(t.by_u.count)])
    for a in range(t.nu):  # co-rated pairs user by user (no fast BLAS needed)
        rows = order[bounds[a]:bounds[a + 1]]
        if len(rows) == 0:
            continue
        js, es = t.i[rows], res[rows]
        ix = np.ix_(js, js)
        num[ix] += np.outer(es, es)
        sq[ix] += (es ** 2)[:, None]  # sq[i, j] = sum over users rating both of e_ui^2
        n_common[ix] += 1.0
    den = np.sqrt(sq * sq.T) + 1e-9
    base_sim = num / den
    np.fill_diagonal(base_sim, 0.0)
    out = {}
    base = t.mu + bu[u] + bi[i]
    for sh in shrinks:
        S = base_sim * n_common / (n_common + sh)
        cand = S[i] * Mask[u]  # (pairs, ni): similarity to each lecturer the student rated
        resid = E[u]
        for k in ks:
            if k >= t.ni:
                W = cand
            else:
                # keep the k largest similarities among rated lecturers (unrated have 0)
                thr = -np.partition(-cand, k - 1, axis=1)[:, k - 1:k]
                W = np.where((cand >= thr) & (cand > 0), cand, 0.0)
            W = np.maximum(W, 0.0)
            numer = np.sum(W * resid, 1)
            wsum = np.sum(W, 1)
            for lam in lams:
                out[(k, sh, lam)] = base + numer / (wsum + lam)
    return out


# ---------------------------------------------------------------------------------- student-dept
def fit_student_dept(t, d_tr, lam_u, lam_i, lam_ud, n_dept, sweeps=40):
    bu, bi = fit_biases(t, lam_u, lam_i, sweeps=20)
    key = t.u * n_dept + d_tr
    nk = t.nu * n_dept
    cnt = np.bincount(key, minlength=nk)
    bud = np.zeros(nk)
    for _ in range(sweeps):
        bu = np.bincount(t.u, t.r - t.mu - bi[t.i] - bud[key], t.nu) / (t.nu_count + lam_u)
        bi = np.bincount(t.i, t.r - t.mu - bu[t.u] - bud[key], t.ni) / (t.ni_count + lam_i)
        bud = np.bincount(key, t.r - t.mu - bu[t.u] - bi[t.i], nk) / (cnt + lam_ud)
    return bu, bi, bud


# ---------------------------------------------------------------------------------------- driver
def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    here = os.path.dirname(os.path.abspath(__file__))
    ap.add_argument("--ratings", default=os.path.join(here, "../../../resources/samples/insteval/ratings.csv"))
    ap.add_argument("--split", help="directory with train.csv/test.csv from pmf-speed --write-split")
    ap.add_argument("--seeds", type=int, nargs="+", default=[1, 2, 3])
    ap.add_argument("--heldout", type=float, default=0.1)
    ap.add_argument("--methods", nargs="+", default=["global-mean", "bias-only", "als", "als-wr", "als-sep",
                                                     "als-sep-ens5", "bpmf", "svdpp", "svdpp-trainimp", "mf-adam",
                                                     "knn-item",
                                                     "student-dept"])
    ap.add_argument("--quick", action="store_true", help="smaller grids and fewer samples")
    args = ap.parse_args()

    u_all, i_all, r_all, d_all = load_insteval(args.ratings)
    nu, ni, nd = u_all.max() + 1, i_all.max() + 1, d_all.max() + 1
    results = []

    def report(method, seed, test_rmse, bias_rmse, **info):
        row = {"method": method, "seed": seed, "heldout_rmse": round(test_rmse, 5)}
        if bias_rmse is not None:
            row["vs_bias_only_pct"] = round(100 * (test_rmse - bias_rmse) / bias_rmse, 3)
        row.update(info)
        results.append(row)
        print(json.dumps(row), flush=True)

    for seed in args.seeds:
        if args.split:
            tr, te = load_split_dir(args.split)
            tu, ti, trr = tr[:, 0].astype(int), tr[:, 1].astype(int), tr[:, 2]
            su, si, sr = te[:, 0].astype(int), te[:, 1].astype(int), te[:, 2]
            nu = int(max(tu.max(), su.max())) + 1
            ni = int(max(ti.max(), si.max())) + 1
            td = sd = None
        else:
            test = split(u_all, i_all, args.heldout, seed)
            tu, ti, trr, td = u_all[~test], i_all[~test], r_all[~test], d_all[~test]
            su, si, sr, sd = u_all[test], i_all[test], r_all[test], d_all[test]
        val = split(tu, ti, 0.1, seed + 1000)
        full = Part(tu, ti, trr, nu, ni)
        fit = Part(tu[~val], ti[~val], trr[~val], nu, ni)
        V = (tu[val], ti[val], trr[val])
        T = (su, si, sr)
        t0 = time.time()

        def elapsed():
            return round(time.time() - t0, 1)

        # bias-only, always (the reference for every relative figure)
        e_val, lam_u, lam_i = tune_biases(fit, V)
        bu, bi = fit_biases(full, lam_u, lam_i)
        bias_rmse = rmse(sr, full.mu + bu[su] + bi[si])
        if "global-mean" in args.methods:
            report("global-mean", seed, rmse(sr, np.full(len(sr), full.mu)), bias_rmse)
        report("bias-only", seed, bias_rmse, bias_rmse, lam_u=lam_u, lam_i=lam_i, val_rmse=round(e_val, 5),
               train_ratings=len(trr), test_ratings=len(sr))
        val_bias = e_val

        q = args.quick
        Ks = (1, 2, 5, 10, 20) if not q else (2, 10)
        sweeps = 25 if not q else 15

        if "als" in args.methods:
            grid = [(k, lam) for k in Ks for lam in ((3, 10, 20, 40, 80) if not q else (10, 40))]
            best = tune_als(fit, V, grid, sweeps,
                            lambda k, lam: dict(k=k, lam_ub=lam, lam_uf=lam, lam_ib=lam, lam_if=lam, seed=seed))
            e, k, lam, ns = best
            m, _ = run_als(full, None, ns, k=k, lam_ub=lam, lam_uf=lam, lam_ib=lam, lam_if=lam, seed=seed)
            report("als", seed, rmse(sr, m.predict(su, si)), bias_rmse, k=k, lam=lam, sweeps=ns,
                   val_rmse=round(e, 5), val_vs_bias_pct=round(100 * (e - val_bias) / val_bias, 3), t=elapsed())

        if "als-wr" in args.methods:
            grid = [(k, lam) for k in Ks for lam in ((0.05, 0.1, 0.2, 0.4, 0.8) if not q else (0.1, 0.4))]
            best = tune_als(fit, V, grid, sweeps,
                            lambda k, lam: dict(k=k, lam_ub=lam, lam_uf=lam, lam_ib=lam, lam_if=lam,
                                                weighted=True, seed=seed))
            e, k, lam, ns = best
            m, _ = run_als(full, None, ns, k=k, lam_ub=lam, lam_uf=lam, lam_ib=lam, lam_if=lam, weighted=True,
                           seed=seed)
            report("als-wr", seed, rmse(sr, m.predict(su, si)), bias_rmse, k=k, lam=lam, sweeps=ns,
                   val_rmse=round(e, 5), val_vs_bias_pct=round(100 * (e - val_bias) / val_bias, 3), t=elapsed())

        sep = None
        if "als-sep" in args.methods or "als-sep-ens5" in args.methods:
            grid = [(k, lam) for k in Ks for lam in ((3, 10, 30, 100, 300, 1000) if not q else (10, 100))]
            best = tune_als(fit, V, grid, sweeps,
                            lambda k, lam: dict(k=k, lam_ub=lam_u, lam_uf=lam, lam_ib=lam_i, lam_if=lam, seed=seed))
            sep = best
            e, k, lam, ns = best
            m, _ = run_als(full, None, ns, k=k, lam_ub=lam_u, lam_uf=lam, lam_ib=lam_i, lam_if=lam, seed=seed)
            pred = m.predict(su, si)
            if "als-sep" in args.methods:
                report("als-sep", seed, rmse(sr, pred), bias_rmse, k=k, lam_f=lam, lam_u=lam_u, lam_i=lam_i,
                       sweeps=ns, val_rmse=round(e, 5), val_vs_bias_pct=round(100 * (e - val_bias) / val_bias, 3),
                       t=elapsed())
            if "als-sep-ens5" in args.methods:
                preds = [pred]
                for extra in range(1, 5):
                    m, _ = run_als(full, None, ns, k=k, lam_ub=lam_u, lam_uf=lam, lam_ib=lam_i, lam_if=lam,
                                   seed=seed * 100 + extra)
                    preds.append(m.predict(su, si))
                report("als-sep-ens5", seed, rmse(sr, np.mean(preds, 0)), bias_rmse, k=k, lam_f=lam, t=elapsed())

        if "bpmf" in args.methods:
            n_s, burn = (80, 20) if not q else (50, 15)
            bk = (2, 5, 10) if not q else (5,)
            best = None
            for k in bk:
                (pv,), curve, _ = run_bpmf(fit, [V], k, n_s, burn, seed)
                e = rmse(V[2], pv)
                if best is None or e < best[0]:
                    best = (e, k)
            e, k = best
            (pt,), _, alpha = run_bpmf(full, [(su, si)], k, n_s + 70 if not q else n_s, burn, seed)
            report("bpmf", seed, rmse(sr, pt), bias_rmse, k=k, samples=(n_s + 70 if not q else n_s), burn=burn,
                   noise_sd=round(float(alpha ** -0.5), 4), val_rmse=round(e, 5),
                   val_vs_bias_pct=round(100 * (e - val_bias) / val_bias, 3), t=elapsed())

        if {"svdpp", "svdpp-trainimp", "mf-adam"} & set(args.methods):
            # implicit feedback N(u): every (student, lecturer) pair of the data set, test pairs included
            # (which lecturers a student rated is known when a prediction is asked for); svdpp-trainimp
            # uses the training pairs only.
            variants = [("svdpp", np.concatenate([tu, su]), np.concatenate([ti, si]))] if "svdpp" in args.methods else []
            if "svdpp-trainimp" in args.methods:
                variants.append(("svdpp-trainimp", tu, ti))
            if "mf-adam" in args.methods:
                variants.append(("mf-adam", tu, ti))
            for name, iu, ij in variants:
                imp = Implicit(iu, ij, nu, ni, off=(name == "mf-adam"))
                best = None
                for k in ((2, 10) if q else (2, 5, 10, 20)):
                    for lam in ((3, 10, 30) if not q else (10,)):
                        _, curve, (e, _, ep) = run_svdpp(fit, imp, V, k, lam, 0.01, 150 if not q else 100, seed,
                                                         lam_b=(lam_u, lam_i))
                        if best is None or e < best[0]:
                            best = (e, k, lam, ep)
                e, k, lam, ep = best
                p, _, _ = run_svdpp(full, imp, None, k, lam, 0.01, ep, seed, lam_b=(lam_u, lam_i))
                report(name, seed, rmse(sr, svdpp_predict(full, imp, p, su, si)), bias_rmse, k=k, lam=lam,
                       epochs=ep, val_rmse=round(e, 5), val_vs_bias_pct=round(100 * (e - val_bias) / val_bias, 3),
                       t=elapsed())

        if "knn-item" in args.methods:
            bu_f, bi_f = fit_biases(fit, lam_u, lam_i)
            ks, shs, lams = (10, 30, 100, 2000), (10, 50, 200), (0.5, 2, 5, 10)
            cands = knn_item(fit, bu_f, bi_f, V[0], V[1], ks, shs, lams)
            (e, key) = min((rmse(V[2], p), key) for key, p in cands.items())
            k, sh, lam = key
            pt = knn_item(full, bu, bi, su, si, (k,), (sh,), (lam,))[key]
            report("knn-item", seed, rmse(sr, pt), bias_rmse, k=k, shrink=sh, lam=lam, val_rmse=round(e, 5),
                   val_vs_bias_pct=round(100 * (e - val_bias) / val_bias, 3), t=elapsed())

        if "student-dept" in args.methods and td is not None:
            best = None
            for lud in (2, 5, 10, 20, 40):
                b = fit_student_dept(fit, td[~val], lam_u, lam_i, lud, nd)
                key_v = V[0] * nd + td[val]
                e = rmse(V[2], fit.mu + b[0][V[0]] + b[1][V[1]] + b[2][key_v])
                if best is None or e < best[0]:
                    best = (e, lud)
            e, lud = best
            b = fit_student_dept(full, td, lam_u, lam_i, lud, nd)
            report("student-dept", seed, rmse(sr, full.mu + b[0][su] + b[1][si] + b[2][su * nd + sd]), bias_rmse,
                   lam_ud=lud, val_rmse=round(e, 5), val_vs_bias_pct=round(100 * (e - val_bias) / val_bias, 3),
                   t=elapsed())
        if args.split:
            break

    # summary table
    methods = list(dict.fromkeys(r["method"] for r in results))
    seeds = list(dict.fromkeys(r["seed"] for r in results))
    print("\nmethod          " + "".join(f"  seed {s:<9}" for s in seeds) + "  mean vs bias-only")
    for mth in methods:
        rows = {r["seed"]: r for r in results if r["method"] == mth}
        cells = "".join(f"  {rows[s]['heldout_rmse']:.4f} {rows[s].get('vs_bias_only_pct', 0):+6.2f}%" if s in rows
                        else "  " + " " * 15 for s in seeds)
        mean = np.mean([rows[s].get("vs_bias_only_pct", 0) for s in rows])
        print(f"{mth:<16}{cells}  {mean:+.2f}%")


if __name__ == "__main__":
    sys.exit(main())
