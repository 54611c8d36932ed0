"""Infer a specific title for an abstract that has none.

The abstract's own name (if it introduces one) is chosen by a learned scorer
over name evidence (`names.py`); candidate titles are cut from its sentences
and from the name's expansion or description (`candidates.py`); a linear model
learned from real titles ranks them (`model.py`) and the best one without a
defect (`clean.title_defects`) wins. Titles read "NAME: description" when a
name is found (source "named-method"), else they are a headline ("headline").

All functions are pure: text in, text out.
"""

from __future__ import annotations

import re
from dataclasses import replace

from ...read.hyphenation import dehyphenate
from ...text import clean, plain_from_clean
from .candidates import Candidate, generate, sentences
from .choice import choose_name
from .clause import render_named, vague
from .cleaning import SMALL_WORDS, drop_dangling, first_upper, math_as_text, mend_expansion, polish, unpromoted
from .contribution import (
    READ_SENTENCES,
    contribution_index,
    names_the_opening,
    opening_words,
    sentence_scores,
    states_contribution,
)
from .defects import field_core, title_defects
from .describe import descriptions, lighter
from .inferred import InferredTitle
from .model import TitleModel, load_model
from .names import NameCandidate, count_word, looks_like_name, name_candidates
from .stated import FINITE, clause_first, for_task, others_stating, rendered
from .task import named_title_for_task
from .unique import unique_titles

__all__ = [
    "InferredTitle", "contribution_index", "count_word", "infer_title", "infer_title_from", "looks_like_name",
    "sentence_scores", "sentences", "states_contribution", "title_defects", "unique_titles", "without_urls",
]


# Rules for what is plainly right: a name's own expansion, then what the abstract says it is
# ("WorldGym, a world-model environment for ..."), come before the ranker's choices.
_PRIORITY = {"expansion": 0, "appositive": 1}
_HEAD_APPOSITIVE = re.compile(r"^([^,:;]{6,70}), (?=(?:a|an|the) )", re.I)
# "NAME: A Novel Multimodal Agent Framework" -> "NAME: A Multimodal Agent Framework": the title need not say so.
# ("A Novel and Simple Paradigm" -> "A Simple Paradigm", never "A and Simple Paradigm".)
_NOVEL = re.compile(r"^(?:A|An)\s+(?:Novel|New)\s+(?:and\s+)?(?=(\S)\S*\s+\S)", re.I)
# Titles come from the opening of an abstract; reading further only costs time
# (a pathological 1 MB abstract must not make the regexes crawl).
_READ_CHARS = 6000
_URL_IN_TEXT = re.compile(r"\s*\(?\b(?:https?://|www\.)\S+?(?=[.,;:!?)]*(?:\s|$))\)?", re.I)
# "BrainM^3" or "BrainM³": the exponent is part of the name.
_GLUED = re.compile(r"(?<=[a-z]{2})([,.;])(?=[A-Z][A-Za-z])")
_NAME_SUFFIX = re.compile(r"(?:\^\{?[0-9n+]{1,3}\}?|[⁰¹²³⁴⁵⁶⁷⁸⁹⁺]+)")


def infer_title(abstract: str, max_chars: int = 110) -> InferredTitle:
    """Return a specific, clean title for an abstract."""
    raw = clean(abstract[:_READ_CHARS])
    return _without_praise(_infer(raw, plain_from_clean(raw), max_chars))


def infer_title_from(abstract: str, plain: str, max_chars: int = 110) -> InferredTitle:
    """Infer a title when the abstract's plain text is already at hand (same result as infer_title)."""
    if len(abstract) > _READ_CHARS:
        return infer_title(abstract, max_chars)
    return _without_praise(_infer(clean(abstract), plain, max_chars))


def _without_praise(result: InferredTitle) -> InferredTitle:
    # (Only after a name, and not where nothing specific is left: "A Novel Clustered FL Approach" and
    # "RecurFormer: An Architecture" read emptier to a strict reader without "Novel".)
    title = unpromoted(result.title) if result.source == "named-method" else result.title
    if title == result.title or "generic" in title_defects(title):
        return result
    return replace(result, title=title)


def own_name(raw: str, plain: str, model: TitleModel) -> NameCandidate | None:
    """Return the name the abstract introduces for its contribution, or None when it has none."""
    return choose_name(name_candidates(raw, plain), model.name, model.name_threshold)


def without_urls(plain: str) -> str:
    """Remove links from plain text: they are never part of a title (their path still names, see names.py)."""
    if "://" in plain or "www." in plain.lower():
        return _URL_IN_TEXT.sub("", plain)
    return plain


def _infer(raw: str, plain: str, max_chars: int) -> InferredTitle:
    # "in- creasingly" (a PDF's line-break hyphen) must not give a title "Creasingly ...".
    plain = dehyphenate(without_urls(plain))
    if "," in plain or "." in plain:
        # "a novel algorithm,SURE, for targeted unlearning.SURE treats": a space the source lost.
        plain = _GLUED.sub(r"\1 ", plain)
    model = load_model()
    names = name_candidates(raw, plain)
    found = choose_name(names, model.name, model.name_threshold)
    name, described, others = "", [], []
    if found:
        # A description that names another introduced thing describes that thing ("X: OpenDesign, a Benchmark").
        others = [c.name for c in names if c.name != found.name and any(c.features[3:7])]
        described = ([("expansion", found.expansion)] if found.expansion else []) + descriptions(found.name, plain)
        name = _with_suffix(found.name, plain)
    # A named paper's description comes from where the name is introduced or later; if nothing
    # there reads clean, from any sentence; then a terse "NAME: Training-Free Framework" is
    # tolerated; failing that the paper gets a headline. (A generic description before a clean one
    # from another sentence put "LUMA: Unique Benchmark Dataset" on the site.)
    attempts = [(name, True, ()), (name, False, ()), (name, True, ("generic",)), ("", False, ())]
    candidates: list[Candidate] = []
    ranked: list[int] = []
    opening = opening_words(sentences(plain[:1500])[:1])
    for attempt_name, from_name, tolerated in attempts if name else attempts[-1:]:
        if name and not attempt_name:
            # No description reads clean: what the sentence introducing the name says it is, before a headline
            # loses the name.
            said = _named_clause(name, plain, max_chars, model)
            if said:
                said = named_title_for_task(said, name, sentences(plain)[:READ_SENTENCES], max_chars)
                return InferredTitle(said, "named-method", name, _named_confidence(candidates, model))
        if not attempt_name:
            # A paper without a name is titled after the sentence that says what it does, when one does:
            # the opening and the background are what a reader calls a bad title.
            parts = sentences(plain)[:READ_SENTENCES]
            scores = sentence_scores(parts, model.sentence)
            stated = contribution_index(parts, scores)
            quick = clause_first(plain, parts, scores, stated, max_chars, model)
            if quick is not None:
                return _keep_name(name, quick, max_chars)
        candidates = generate(plain, model.vocabulary, attempt_name, described if attempt_name else [], from_name,
                              model.sentence, model.compressor)
        scorer = model.named if attempt_name else model.headline
        ranked = sorted(range(len(candidates)), key=lambda i: (-scorer.score(candidates[i].features), i))
        # A name's own expansion is its title ("PoLR: Path of Least Resistance"): a rule, not a guess.
        # (sorted() is stable: within a priority the ranker's order stays.)
        ranked = sorted(ranked, key=lambda i: _PRIORITY.get(candidates[i].kind, len(_PRIORITY)))
        if not attempt_name and stated is not None:
            ranked = [i for i in ranked if candidates[i].sentence == stated] + [
                i for i in ranked if candidates[i].sentence != stated]
            # The contribution sentence's clause, else the next-best sentence saying what the paper does
            # (reached past `clause_first` only when the clause's own sentence made no candidate).
            for at in [stated, *others_stating(parts, scores, stated)]:
                said_whole = rendered(parts[at], at, candidates, ranked, max_chars, model)
                if said_whole is not None:
                    return _keep_name(name, for_task(said_whole, parts, stated, max_chars), max_chars)
        for index in ranked:
            if attempt_name and any(other in candidates[index].text for other in others):
                continue
            title = compose(attempt_name, candidates[index])
            if title and len(title) <= max_chars and set(title_defects(title)) <= set(tolerated):
                if not attempt_name and not _reads_as_headline(title, candidates[index], opening, model):
                    continue
                if attempt_name and candidates[index].kind == "expansion":
                    title = _with_task(title, candidates[index], candidates, ranked, opening, max_chars, plain)
                elif attempt_name and candidates[index].kind not in _OWN_DESCRIPTIONS:
                    # A phrase cut from some sentence can be the background or a side detail: what the
                    # sentence introducing the name says it is comes first ("SpaceGNN: A Model for NAD Tasks").
                    title = _named_clause(attempt_name, plain, max_chars, model) or title
                logit = model.confidence.logit(candidates[index].features, bool(attempt_name))
                if not attempt_name and logit < model.confidence.threshold:
                    # An unsure headline gives way to the contribution sentence's own title when that is surer.
                    safe = _contribution_clause(plain, candidates, ranked, opening, max_chars, model)
                    if safe and safe[1] > logit:
                        # (`parts`: this attempt's sentences, split above where no name is tried.)
                        return _keep_name(name, for_task(safe[0], parts, None, max_chars), max_chars)
                source = "named-method" if attempt_name else "headline"
                result = InferredTitle(title, source, attempt_name, model.confidence.probability(logit))
                if attempt_name:
                    titled = named_title_for_task(title, attempt_name, sentences(plain)[:READ_SENTENCES], max_chars)
                    return replace(result, title=titled)
                return _keep_name(name, for_task(result, parts, None, max_chars), max_chars)
    return _keep_name(name, _fallback("", candidates, ranked, plain, max_chars, model), max_chars)


#: Words of a headline a name may still lead: "PDETime: Multivariate Time-Series Forecasting" says name and task.
_NAME_AND_TASK_WORDS = 8


def _keep_name(name: str, result: InferredTitle, max_chars: int) -> InferredTitle:
    """Keep the paper's name before a short headline when no description of it reads clean ("NAME: Task")."""
    if not name or len(result.title.split()) > _NAME_AND_TASK_WORDS or ": " in result.title:
        return result
    title = f"{name}: {result.title}"
    if len(title) > max_chars or set(title_defects(title)) - {"generic"}:
        return result
    return replace(result, title=title, source="named-method", name=name)


#: Of the titles that use a frequent word, fewer than this share start (end) with it: a cut phrase does.
_RARE_EDGE = 0.01
_FREQUENT = 3.0  # idf at most this: a word many abstracts use


def _reads_as_headline(title: str, candidate: Candidate, opening: list[str], model: TitleModel) -> bool:
    """Return False for a headline a reader would call bad though it has no defect of its own.

    The topic the abstract opens on ("Neural Network Pruning"); a statement that is not the paper's
    finding ("HMC Is Known to Run Efficiently", from any sentence but "we show that"); a phrase that
    starts or ends where real titles almost never do ("Notably Backdoors Created", "... Models Possess"),
    measured on the corpora's titles.
    """
    words = _words(title)
    if names_the_opening(field_core(words), opening) or vague(title):
        return False
    if candidate.kind != "show" and FINITE.search(title):
        return False
    vocabulary = model.vocabulary
    for word, rates in ((words[0], vocabulary.start_rate), (words[-1], vocabulary.end_rate)):
        if rates.get(word, 1.0) < _RARE_EDGE and vocabulary.idf.get(word, 99.0) <= _FREQUENT:
            return False
    return True


#: The candidates that describe the name itself (`describe.py`), kept over the sentence it is introduced in.
_OWN_DESCRIPTIONS = frozenset(("expansion", "combined", "appositive", "before", "copula"))


def _named_confidence(candidates: list[Candidate], model: TitleModel) -> float:
    """Return the confidence of a named title made without a ranked candidate: the best named candidate's."""
    if not candidates:
        return 0.5
    scored = max(candidates, key=lambda c: model.named.score(c.features))
    return model.confidence.probability(model.confidence.logit(scored.features, True))


def _named_clause(name: str, plain: str, max_chars: int, model: TitleModel) -> str:
    """Return "NAME: <what the sentence introducing it says it is>", or "" when that does not read clean."""
    parts = sentences(plain)[:READ_SENTENCES]
    # (render_named reads only a sentence that says "we propose / introduce ..." before the name.)
    stating = [i for i, p in enumerate(parts) if name in p]
    for index in stating[:2]:
        for text in render_named(parts[index], name):
            for said in lighter(text):
                title = compose(name, Candidate(said, "appositive", index, 0, ()))
                if title and len(title) <= max_chars and not title_defects(title):
                    return title
    return ""


def _contribution_clause(
    plain: str, candidates: list[Candidate], ranked: list[int], opening: list[str], max_chars: int, model: TitleModel
) -> tuple[InferredTitle, float] | None:
    """Return the safe form of an unsure headline and its confidence score: the best title of the contribution sentence.

    The sentence that says in the first person what the paper does ("we propose a ...") is the
    one a reader checks a title against: the best-ranked clean candidate cut or compressed from
    it is never the background or the field. None when no sentence states a contribution or
    none of its candidates reads clean.
    """
    parts = sentences(plain)[:READ_SENTENCES]
    index = contribution_index(parts, sentence_scores(parts, model.sentence))
    if index is None:
        return None
    for at in ranked:
        candidate = candidates[at]
        if candidate.sentence != index or candidate.kind not in _CLAUSE_KINDS:
            continue
        title = compose("", candidate)
        if not title or len(title) > max_chars or title_defects(title):
            continue
        if not _reads_as_headline(title, candidate, opening, model):
            continue
        logit = model.confidence.logit(candidate.features, False)
        return InferredTitle(title, "contribution", "", model.confidence.probability(logit)), logit
    return None


#: The candidates a contribution clause is taken from: what follows "we propose / study / show", compressed or cut.
_CLAUSE_KINDS = frozenset(("propose", "study", "show", "cue", "by", "compressed"))


def _with_task(
    title: str, expansion: Candidate, candidates: list[Candidate], ranked: list[int], opening: list[str],
    max_chars: int, plain: str,
) -> str:
    """Add what the method is for to a name's expansion that does not say it: "LPVS: ... Scaling for Weight Init".

    An expansion says its task when one of its words is a word of the abstract's opening sentence
    (its topic); otherwise the best-ranked "<expansion> for <task>" candidate that reads clean is taken.
    """
    words = {w for w in _words(expansion.text) if w not in SMALL_WORDS}
    if words & set(opening) or not words:
        return title
    name = title.split(": ", 1)[0]
    # The task is said where the paper speaks of its own work: a sentence naming it or stating a contribution
    # (not "Explanations are critical for trust" of the opening).
    own = [p.lower() for p in sentences(plain)[:READ_SENTENCES] if name in p or states_contribution(p)]
    for index in ranked:
        candidate = candidates[index]
        if candidate.kind == "combined" and candidate.text.startswith(expansion.text + " for "):
            # Written as the expansion is ("EXplanation AGREEment" -> "Explanation Agreement").
            longer = compose(name, replace(candidate, kind="expansion"))
            purpose = candidate.text[len(expansion.text) + 1 :]
            task = set(_words(purpose)) - SMALL_WORDS
            if longer and len(longer) <= max_chars and not title_defects(longer) and task & set(opening) and any(
                purpose.lower() in sentence for sentence in own
            ):
                return longer
    return title


def _with_suffix(name: str, plain: str) -> str:
    """Keep an exponent typeset after the name ("BrainM^3" -> "BrainM³")."""
    at = plain.find(name)
    suffix = _NAME_SUFFIX.match(plain, at + len(name)) if at >= 0 else None
    return math_as_text(name + suffix.group(0)) if suffix else name


def compose(name: str, candidate: Candidate) -> str:
    """Return the title a candidate makes: "NAME: Description" or the polished headline."""
    text = polish(mend_expansion(candidate.text) if candidate.kind == "expansion" else candidate.text)
    if not name:
        # "Human-Like Self-Play, a Framework That ..." reads as "Human-Like Self-Play: A Framework That ...".
        head = _HEAD_APPOSITIVE.match(text)
        if head and len(head.group(1).split()) <= 8:
            text = f"{head.group(1)}: {first_upper(text[head.end():])}"
        return first_upper(_one_clause(text, keep_short_head=True))
    lowered = text.lower()
    if lowered.startswith(name.lower()):
        text = text[len(name):].lstrip(" :,-")
    if not text or name.lower() in text.lower().replace(",", " ").split():
        return ""  # "ST-SimDiff: A Framework Named ST-SimDiff" says the name twice
    description = _NOVEL.sub(lambda m: "An " if m.group(1) in "AEIOU" else "A ", _one_clause(text))
    return f"{name}: {first_upper(description)}"


def _one_clause(text: str, keep_short_head: bool = False) -> str:
    """Keep one side of a colon: the title has at most one."""
    if ": " not in text:
        return text
    head, tail = text.split(": ", 1)
    if keep_short_head and len(head.split()) <= 3:
        return f"{head}: {first_upper(tail.replace(': ', ' '))}"
    return tail if len(head.split()) <= 2 else head


def _words(title: str) -> list[str]:
    """Return a title's words, lowercase, without punctuation."""
    return [w.strip(",;:.!?()\"'").lower() for w in title.split()]


def _fallback(
    name: str, candidates: list[Candidate], ranked: list[int], plain: str, max_chars: int, model: TitleModel
) -> InferredTitle:
    """Shorten the best candidate to fit when no candidate reads clean as it is (its confidence: the best's)."""
    source = "named-method" if name else "headline"
    confidence = model.confidence.probability(model.confidence.logit(candidates[ranked[0]].features, bool(name))) \
        if ranked else 0.0
    texts = [compose(name, candidates[i]) for i in ranked] or [name or polish(" ".join(plain.split()[:12]))]
    for text in texts:
        words = drop_dangling(text.split())
        while len(" ".join(words)) > max_chars and len(words) > 3:
            words = drop_dangling(words[:-1])
        title = " ".join(words)
        if title and len(title) <= max_chars and not title_defects(title):
            return InferredTitle(title, source, name, confidence)
    title = " ".join(drop_dangling(texts[0].split()[:12])) if texts[0] else "Untitled Abstract"
    # A word longer than the limit (a pathological abstract) is cut: a title is never longer.
    return InferredTitle((title or "Untitled Abstract")[:max_chars].rstrip(), source, name, confidence)
