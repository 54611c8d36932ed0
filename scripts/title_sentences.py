"""The title model's sentence parts, for scripts/train_title_model.py: what a title is cut from, and what it keeps.

1. the sentence scorer: logistic regression over each of the first sentences'
   features (contribution.SENTENCE_FEATURES), labelled by whether it is the sentence
   that shares the longest common word sequence with the real title (the title's
   source); titles and summaries read its scores;
2. the word labeller (compress.py): each real title's words are aligned to its
   source sentence (the longest common word sequence); where the title takes at
   least half its words from that sentence, every word of the sentence is labelled
   kept or dropped, and a logistic regression over the words' features (those seen
   in at least MIN_FEATURE_COUNT words) gives the keep scores; the keep/drop
   transition weights are the log-odds of each label after the one before,
   against its overall rate.
"""

from __future__ import annotations

import numpy as np
from sklearn.linear_model import LogisticRegression

from bench.titles import lcs_length, tokens
from generator.enrich.titles.candidates import sentences, word_rates
from generator.enrich.titles.compress import Compressor, sentence_words, word_features
from generator.enrich.titles.compress import key as word_of
from generator.enrich.titles.contribution import READ_SENTENCES, sentence_features
from generator.enrich.titles.model import SCORE_DECIMALS, Linear


def fit_logistic(x: np.ndarray, y: np.ndarray) -> Linear:
    """Fit a logistic regression and return its weights rounded as the model file keeps them."""
    model = LogisticRegression(C=1.0, max_iter=2000)
    model.fit(x, y)
    weights = tuple(round(float(w), SCORE_DECIMALS) for w in model.coef_[0])
    return Linear(weights, round(float(model.intercept_[0]), SCORE_DECIMALS))


def title_source_sentence(title: str, parts: list[str]) -> int:
    """Return the index of the sentence sharing the longest common word sequence with the title (earliest on a tie)."""
    words = title_words(title)
    overlaps = [lcs_length(words, title_words(part)) for part in parts]
    return max(range(len(parts)), key=lambda i: (overlaps[i], -i))


def title_words(text: str) -> list[str]:
    """Return the lowercase words of a text, as ROUGE-L counts them."""
    return tokens(text)


def train_sentences(records: list[dict]) -> Linear:
    """Fit the sentence scorer: is this the sentence the real title was taken from?"""
    rows, labels = [], []
    for record in records:
        parts = sentences(record["plain"])[:READ_SENTENCES]
        if len(parts) < 2 or not title_words(record["title"]):
            continue
        source = title_source_sentence(record["title"], parts)
        for index, part in enumerate(parts):
            rows.append(sentence_features(part, index, len(parts)))
            labels.append(index == source)
    scorer = fit_logistic(np.array(rows), np.array(labels))
    print(f"sentence scorer: {len(rows)} sentences of {len(records)} abstracts")
    return scorer


#: A word feature seen in fewer training words gets no weight.
MIN_FEATURE_COUNT = 5
#: A title teaches the labeller only when at least this share of its words come from one sentence.
ALIGNED_SHARE = 0.5


def aligned_labels(title: str, words: list[str]) -> tuple[list[int], int]:
    """Label each word of a sentence kept (1) when it is on the longest common word sequence with the title."""
    wanted = [w for w in (word_of(word) for word in title.replace(":", " ").split()) if w]
    have = [word_of(word) for word in words]
    n, m = len(wanted), len(have)
    table = [[0] * (m + 1) for _ in range(n + 1)]
    for i in range(n - 1, -1, -1):
        for j in range(m - 1, -1, -1):
            same = wanted[i] == have[j] and wanted[i]
            table[i][j] = table[i + 1][j + 1] + 1 if same else max(table[i + 1][j], table[i][j + 1])
    labels, i, j = [0] * m, 0, 0
    while i < n and j < m:
        if wanted[i] == have[j] and wanted[i]:
            labels[j] = 1
            i, j = i + 1, j + 1
        elif table[i + 1][j] >= table[i][j + 1]:
            i += 1
        else:
            j += 1
    return labels, len(wanted)


def train_compressor(records: list[dict], vocabulary) -> Compressor:
    """Fit the word labeller on the sentences real titles were taken from."""
    from sklearn.feature_extraction import DictVectorizer

    rows: list[dict[str, int]] = []
    labels: list[int] = []
    pairs = np.zeros((2, 2))
    for record in records:
        parts = sentences(record["plain"])[:READ_SENTENCES]
        if not parts or not title_words(record["title"]):
            continue
        # The sentence sharing most words with the title, the earliest on a tie.
        labelled = [(i, words, *aligned_labels(record["title"], words)) for i, words in
                    enumerate(sentence_words(part) for part in parts)]
        index, words, kept, wanted = max(labelled, key=lambda row: (sum(row[2]), -row[0]))
        if sum(kept) < ALIGNED_SHARE * wanted:
            continue
        keys = [word_of(w) for w in words]
        for features in word_features(words, keys, word_rates(words, vocabulary), index):
            rows.append(dict.fromkeys(features, 1))
        labels.extend(kept)
        for before, after in zip([0, *kept], kept, strict=False):
            pairs[before, after] += 1
    vectorizer = DictVectorizer()
    x = vectorizer.fit_transform(rows)
    seen = np.flatnonzero(np.asarray((x != 0).sum(axis=0)).ravel() >= MIN_FEATURE_COUNT)
    names = [vectorizer.feature_names_[i] for i in seen]
    model = LogisticRegression(C=0.5, max_iter=3000)
    model.fit(x[:, seen], np.array(labels))
    weights = {n: round(float(w), 4) for n, w in zip(names, model.coef_[0], strict=True) if abs(w) >= 1e-3}
    rate = np.array([1 - np.mean(labels), np.mean(labels)])
    transitions = np.log(pairs / pairs.sum(axis=1, keepdims=True)) - np.log(rate)
    print(f"word labeller: {len(labels)} words, {sum(labels)} kept, {len(weights)} features")
    (a, b), (c, d) = (tuple(round(float(v), SCORE_DECIMALS) for v in row) for row in transitions)
    return Compressor(weights, round(float(model.intercept_[0]), SCORE_DECIMALS), ((a, b), (c, d)))
