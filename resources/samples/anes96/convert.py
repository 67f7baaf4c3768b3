#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
# Converts statsmodels' anes96.csv (tab-separated codes) into anes96.csv here: one row per
# respondent, one column per question, each answer written as its label. See README.md.
#   /usr/bin/python3 convert.py /usr/lib/python3/dist-packages/statsmodels/datasets/anes96/anes96.csv
import csv
import sys

SCALE = ["extremely liberal", "liberal", "slightly liberal", "moderate", "slightly conservative",
         "conservative", "extremely conservative"]
PARTY = ["strong Democrat", "weak Democrat", "independent, leans Democrat", "independent",
         "independent, leans Republican", "weak Republican", "strong Republican"]
EDUCATION = ["grades 1-8", "some high school", "high school", "some college", "college degree",
             "master's degree", "PhD"]


def income(code):
    # The survey's 24 brackets, merged into five of about equal width in dollars.
    code = int(code)
    if code <= 10:
        return "under $15k"
    if code <= 15:
        return "$15k-30k"
    if code <= 19:
        return "$30k-50k"
    if code <= 21:
        return "$50k-75k"
    return "$75k and over"


def age(years):
    years = int(float(years))
    for limit, label in ((29, "18-29"), (44, "30-44"), (59, "45-59")):
        if years <= limit:
            return label
    return "60 and over"


def main():
    with open(sys.argv[1], newline="") as source:
        rows = list(csv.reader(source, delimiter="\t"))
    header = [name.strip("'") for name in rows[0]]
    out = csv.writer(open("anes96.csv", "w", newline=""), lineterminator="\n")
    out.writerow(["id", "party", "self", "clinton", "dole", "vote", "education", "income", "age", "tv_news"])
    for number, row in enumerate(rows[1:], start=1):
        r = dict(zip(header, row))
        out.writerow([number, PARTY[int(float(r["PID"]))], SCALE[int(float(r["selfLR"])) - 1],
                      SCALE[int(float(r["ClinLR"])) - 1], SCALE[int(float(r["DoleLR"])) - 1],
                      "Dole" if int(float(r["vote"])) == 1 else "Clinton",
                      EDUCATION[int(float(r["educ"])) - 1], income(r["income"]), age(r["age"]),
                      "%d day%s" % (int(float(r["TVnews"])), "" if int(float(r["TVnews"])) == 1 else "s")])


main()
