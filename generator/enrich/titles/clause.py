"""The safe form of a title: the contribution sentence's own clause, said whole as a title.

Authors title a paper after what it says it does, and a reader checks a title
against that sentence. `render_clause(sentence)` reads the sentence's cue verb
and renders the clause after it the way titles are written, never cut inside a
clause:

- "we propose a class of structured diffusion models, in which ..." -> "Structured
  Diffusion Models" is not said; "A Class of Structured Diffusion Models" is (the
  object up to its first clause boundary, without "novel" and the article);
- "we show that sparse training beats dense training in robustness" -> "Sparse
  Training Beats Dense Training in Robustness" (the finding as a claim);
- "this paper studies whether LLMs can plan" -> "Can LLMs Plan?"; "we investigate
  how X affects Y" -> "How X Affects Y"; "we study the X of Y" -> "On the X of Y";
- "we aim to characterize the properties of ..." -> "Characterizing the Properties of ...".

A clause longer than a title is shortened only before a preposition that starts
a phrase of its own ("for", "in", "via", ...), never inside an "of" phrase or a
relative clause. Pure functions of text; `polish` and `title_defects` (the
caller's) decide whether the result reads clean.
"""

from __future__ import annotations

import re

from .cleaning import dictionary
from .compress import PARENTHETICAL
from .contribution import listed_item

_SUBJECT = (
    r"(?:we|us to|this (?:paper|work|study|article)|"
    r"our (?:work|paper|study|studies|results|experiments|analys[ie]s|findings))\s+(?:\w+ly\s+)?"
    r"(?:also\s+|further\s+|first\s+|then\s+|instead\s+|here\s+)?"
)
_VERB = re.compile(
    rf"\b{_SUBJECT}(introduc|propos|present|develop|design|devis|formulat|construct|buil[dt]|creat|"
    r"stud(?:y|ie)|investigat|explor|examin|analy[sz]|revisit|characteri[sz]|consider|"
    r"show|demonstrat|prov|find|found|reveal|establish|argu|observ|uncover|discover|"
    r"aim|seek)(?:e|es|ed|d|s|ing)?\b\s*",
    re.I,
)
_KIND = {
    "introduc": "propose", "propos": "propose", "present": "propose", "develop": "propose", "design": "propose",
    "devis": "propose", "formulat": "propose", "construct": "propose", "build": "propose", "built": "propose",
    "creat": "propose", "study": "study", "studie": "study", "investigat": "study", "explor": "study",
    "examin": "study", "consider": "study", "analys": "study", "analyz": "study", "revisit": "study",
    "characteris": "study",
    "characteriz": "study", "show": "show", "demonstrat": "show", "prov": "show", "find": "show", "found": "show",
    "reveal": "show", "establish": "show", "argu": "show", "observ": "show", "uncover": "show",
    "discover": "show", "aim": "aim", "seek": "aim",
}
# What ends the object or the claim: a relative clause, a participle after a comma, a second verb.
# (Any comma: "networks, reversible architectures that ..." is an aside, "X, Y, and Z" a list a title
# does not need whole.)
_BOUNDARY = re.compile(
    r",\s"
    r"|;|:\s|\s[-\u2013\u2014]\s|\u2014|-{2,}"
    # (a sentence the splitter left joined: "... of thought.' We observe")
    r"|[.!?]['’”\"_]*\s+(?=[A-Z])"
    r"|\s+(?:focusing|mainly|including|considering|especially|particularly|namely)\s"
    r"|\s+(?:which|where|whereby|whose|wherein|who|whom|so that|such that|in order to|thereby|while|whereas)\s"
    # ("the assumption that ...", "the fact that ...": a "that" the noun needs)
    r"|(?<!assumption)(?<!fact)(?<!idea)(?<!hypothesis)(?<!observation)(?<!notion)(?<!claim)(?<!insight)"
    r"(?<!finding)(?<!evidence)(?<!intuition)(?<!conjecture)(?<!premise)(?<!belief)\s+that\s"
    r"|\s+(?:in|through|by|for|under|with|from|on|of) (?:which|whom)\s"
    r"|\s+and\s+(?:then\s+)?(?:show|shows|demonstrate|find|prove|evaluate|validate|apply|use|propose|introduce|"
    r"present|provide|conduct|theoretically|empirically|further|also|achieve|obtain|derive|establish|analy[sz]e|"
    r"characteri[sz]e|investigate|explore|study|examine|discuss|compare|highlight|identify|develop|design|"
    r"reveal|offer|release|construct|build|train|test|measure|quantify|leverage|extend|verify)\b",
    re.I,
)
# A purpose clause ("... to enhance the learning process") after an object already said.
# ("tailored to children's speech", "robust to noise": "to" after a participle or adjective is no purpose.)
_PURPOSE = re.compile(
    r"(?<!ed)(?<!\bdue)(?<!\bclose)(?<!\bsimilar)(?<!\brobust)(?<!\bapplicable)(?<!\binvariant)(?<!\bequivalent)"
    # ("without the need to ...", "the ability to ...": the noun needs its "to")
    r"(?<!\bneed)(?<!\bability)(?<!\bway)(?<!\bable)(?<!\bcapability)(?<!\btendency)(?<!\bfailure)"
    r"\s+to\s+(?:better\s+|effectively\s+|efficiently\s+)?[a-z]+\b(?<!\bto be)(?!')"
)
# The words before the object that a title leaves out ("a" stays: "A Class of ...", "A Framework for ...").
# ("A New Concept in ...", "A Systematic Investigation into ..." keep their word: only praise a title never
# says goes.)
_OPENING = re.compile(r"^(?:(a|an|the)\s+)?(?:(?:novel|innovative|first|and|,)\s+)*", re.I)
# Where a long object may be shortened: before a phrase saying what for, where or how.
_SHORTEN_BEFORE = frozenset(("for", "in", "on", "with", "via", "using", "through", "under", "across", "by", "from",
                             "without", "at", "that", "toward", "towards", "against", "beyond",
                             # a participle or adjective after the noun: "Model Capable of ...", "... Designed for"
                             "capable", "designed", "tailored", "specifically", "equipped", "trained", "based",
                             "built", "consisting", "comprising", "containing", "enabling", "leveraging"))
_AUXILIARIES = frozenset(("can", "could", "do", "does", "did", "is", "are", "was", "were", "will", "would",
                          "should", "might", "may", "has", "have"))
_PROBLEM_OF = re.compile(r"^(?:the|a)\s+(?:\w+\s+){0,2}(?:problem|task|challenge|question|setting|issue)\s+of\s+(?=\w)",
                         re.I)
_ADVERB = re.compile(r"^[a-z]+ly\s+(?=(?:the|a|an|how|whether|why|what)\b)", re.I)
_THAT_NOUNS = frozenset(("assumption", "fact", "idea", "hypothesis", "observation", "notion", "claim", "insight",
                         "finding", "evidence", "intuition", "conjecture", "premise", "belief"))
_CALLED = re.compile(r"\s(?:called|named|dubbed|termed|coined)\s+(?=[A-Z])")
_QUESTION_WORDS = frozenset(("how", "why", "when", "what", "which"))
# "reasoning in this framework": a phrase that points into the abstract says nothing in a title.
_HERE = re.compile(
    r"(?:^|\s+)(?:in|of|for|with|under|within) (?:this|these|our) (?:paper|work|study|setting|settings|framework|"
    r"regime|context|case|cases|way|manner|direction|domain|area|field|scenario|scenarios|sense|article)(?= |,|$)",
    re.I,
)
# Quotes around a phrase ("'lines of thought'"), not an apostrophe ("model's").
_QUOTES = re.compile(r"(?<!\w)['‘“\"]([^'‘’“”\"]{1,80})['’”\"](?!\w)")
MAX_WORDS = 14
_MIN_WORDS = 2


def render_clause(sentence: str) -> list[str]:
    """Return the titles the contribution sentence's clause makes, the fullest first (may be empty)."""
    if "(" in sentence or "[" in sentence:
        # "(I) when ..., we find that ...": one item of the paper's own list of findings, not the paper.
        if listed_item(sentence):
            return []
        sentence = PARENTHETICAL.sub("", sentence)
    match = _VERB.search(sentence)
    if match is None:
        return []
    if _SECONDARY.match(sentence) or _SECONDARY_SUBJECT.search(match.group(0)):
        return []  # "Additionally, we observed that ...", "We then study ...": a side result, not the paper
    stem = match.group(1).lower()
    kind = _KIND.get(stem, _KIND.get(stem.rstrip("e"), ""))
    rest = sentence[match.end():].strip().rstrip(".")
    # ("these limitations" stays: a title pointing outside itself is a defect the caller rejects.)
    rest = _QUOTES.sub(r"\1", _HERE.sub("", rest))
    if kind == "show":
        said = _claim(rest)
    elif kind == "aim":
        said = _aim(rest)
    elif kind == "study":
        said = _studied(rest)
    elif kind == "propose":
        said = _aim(rest) if rest.lower().startswith("to ") else _object(rest)
    else:
        said = []
    return [text for text in said if not vague(text)]


_SECONDARY = re.compile(
    r"^(?:additionally|moreover|furthermore|besides|finally|lastly|also|further|second(?:ly)?|third(?:ly)?|"
    r"in addition|beyond this|as a byproduct)\b",
    re.I,
)
_SECONDARY_SUBJECT = re.compile(r"\b(?:also|further|then)\b", re.I)
# The head a title needs a subject for: "A Typical Scenario", "On the Attacker's Perspective".
_VAGUE = frozenset((
    "scenario", "scenarios", "setting", "settings", "perspective", "perspectives", "class", "classes", "aspect",
    "aspects", "type", "types", "kind", "kinds", "way", "ways", "structure", "structures", "issue", "issues",
    "phenomenon", "phenomena", "problem", "problems", "question", "questions", "family", "variety", "range",
    "number", "set", "series", "data", "limitations", "challenges",
))
#: Of those, the words a title still may end on ("... for Minimax Problems", "... from Data").
_FINE_END = frozenset(("problem", "problems", "data", "set", "series", "number", "range", "family", "variety",
                       "question", "questions"))
_GENERIC_NOUNS = frozenset(("method", "methods", "approach", "framework", "model", "models", "algorithm", "dataset",
                            "benchmark", "system", "technique", "strategy", "tool", "pipeline", "solution"))
# "An Approach for Membership Inference", "A Method for Causal Graph Recovery": a generic head and a field.
_GENERIC_HEAD = re.compile(
    r"^(?:an?\s+)?(?:\w+\s+)?(?:approach|framework|method|technique|model|algorithm|system|strategy|scheme|pipeline|"
    r"paradigm|solution|tool)s?\s+(?:for|to|of|in|on)\s+\S+(?:\s+\S+){0,2}$",
    re.I,
)


def vague(text: str) -> bool:
    """Return True for a clause a reader cannot tell the paper by: a vague head ("A Typical Scenario") or a
    generic one before a field ("An Approach for Membership Inference")."""
    words = [w.strip(",.;:'’").lower() for w in text.split()]
    if not words:
        return True
    at = next((i for i, w in enumerate(words) if i > 0 and (w in _SHORTEN_BEFORE or w == "of")), len(words))
    # The head noun before the first phrase, and how much the phrase after it says.
    head, after = words[at - 1], len(words) - at - 1
    vague_end = words[-1] in _VAGUE and words[-1] not in _FINE_END
    # ("A Purely Self-Supervised Method", "A High-Quality Medical Dataset": praise and a generic noun)
    bare = len(words) <= 4 and words[-1] in _GENERIC_NOUNS
    return vague_end or bare or (head in _VAGUE and after <= 2) or bool(_GENERIC_HEAD.match(text))


def _claim(rest: str) -> list[str]:
    """ "that X improves Y, which ..." -> ["X Improves Y"]: the finding, whole."""
    lowered = rest.lower()
    if lowered.startswith(("how ", "why ", "when ", "whether ")):
        return _studied(rest)
    if not lowered.startswith("that "):
        return []
    clause = _until_boundary(rest[5:])
    words = clause.split()
    return [clause] if _MIN_WORDS + 1 <= len(words) <= MAX_WORDS + 2 else []


def _aim(rest: str) -> list[str]:
    """ "to characterize the properties of X" -> ["Characterizing the Properties of X"]."""
    words = rest.split()
    if len(words) < 3 or words[0].lower() != "to":
        return []
    gerund = _gerund(words[1].lower())
    if not gerund:
        return []
    return [f"{gerund} {phrase}" for phrase in _object(" ".join(words[2:]), keep_article=True)]


def _studied(rest: str) -> list[str]:
    """The question or the subject a paper studies: "whether X can Y" -> "Can X Y?", "the X of Y" -> "On the X of Y"."""
    rest = _ADVERB.sub("", rest)  # "we study thoroughly the question of ..."
    words = rest.split()
    if not words:
        return []
    first = words[0].lower()
    if first == "whether":
        asked = _until_boundary(" ".join(words[1:])).split()
        at = next((i for i, w in enumerate(asked[:8]) if w.lower() in _AUXILIARIES), -1)
        if at <= 0 or len(asked) > MAX_WORDS or len(asked) < 3:
            return []
        question = [asked[at].capitalize(), *asked[:at], *asked[at + 1:]]
        return [" ".join(question).rstrip("?,") + "?"]
    if first in _QUESTION_WORDS:
        text = _ASIDE.sub(" ", rest)
        clause = _until_boundary(text)
        # "how different factors, such as ..., impact ...": a question cut at a comma has lost its verb.
        # (or at a dash: "how mechanistic interpretability---which ...---can improve ...")
        cut_at_comma = text[len(clause):].lstrip().startswith((",", "-", "\u2013", "\u2014"))
        return [clause] if 3 <= len(clause.split()) <= MAX_WORDS and not cut_at_comma else []
    problem = _PROBLEM_OF.match(rest)
    if problem:
        # "we study the problem of predicting X" -> "Predicting X" (not "On the Problem of Predicting X").
        rest = rest[problem.end():]
        if rest.lower().startswith("the "):
            return [f"On {phrase}" for phrase in _object(rest, keep_article=True)]
        return _object(rest, keep_article=True)
    if first == "the":
        return [f"On {phrase}" for phrase in _object(rest, keep_article=True)]
    return _object(rest)


def _object(rest: str, keep_article: bool = False) -> list[str]:
    """The object of "we propose": up to its first clause boundary, shortened before a phrase when too long."""
    problem = _PROBLEM_OF.match(rest)
    if problem:
        rest, keep_article = rest[problem.end():], True  # "we introduce the task of X" -> "X"
    if not keep_article:
        opening = _OPENING.match(rest)
        if opening:
            article = (opening.group(1) or "").lower()
            rest = ("a " if article in ("a", "an") else "") + rest[opening.end():]
    phrase = _until_boundary(rest)
    called = _CALLED.search(phrase)
    if called and len(phrase[called.end():].split()) >= 2:
        phrase = phrase[called.end():]  # "a framework named Coupling Category Alignment for GDA" -> its name
    purpose = _PURPOSE.search(phrase)
    if purpose and len(phrase[: purpose.start()].split()) >= 3:
        phrase = phrase[: purpose.start()]
    words = phrase.split()
    if len(words) < _MIN_WORDS:
        return []
    # (Not right after another such word: "... Tasks Specifically Tailored" is cut before "specifically".)
    cuts = [i for i in range(3, min(len(words), MAX_WORDS + 1))
            if words[i].lower() in _SHORTEN_BEFORE and words[i - 1].lower() not in _SHORTEN_BEFORE
            and not (words[i].lower() == "that" and words[i - 1].lower().strip(",") in _THAT_NOUNS)]
    return ([phrase] if len(words) <= MAX_WORDS else []) + [" ".join(words[:cut]) for cut in reversed(cuts)]


# ", such as model size, ": an aside between commas, left out (the clause goes on after it).
_ASIDE = re.compile(r",\s+(?:such as|e\.g\.|i\.e\.|including|like|especially|particularly|notably)\s+[^,;]{1,60},\s")


def _until_boundary(text: str) -> str:
    """Return `text` up to its first clause boundary (the whole text when it has none)."""
    text = _ASIDE.sub(" ", text)
    boundary = _BOUNDARY.search(text)
    return (text[: boundary.start()] if boundary else text).strip(" ,;:")


def _gerund(verb: str) -> str:
    """Return "Characterizing" for "characterize" (a word of the dictionary), or ""."""
    if not verb.isalpha():
        return ""
    forms = [verb + "ing", verb[:-1] + "ing" if verb.endswith("e") else "", verb + verb[-1] + "ing"]
    words = dictionary()
    known = next((form for form in forms if form and form in words), "")
    return known.capitalize()


# "KidSpeak, a multi-task foundation model ...": the description a sentence gives right after the name.
_APPOSITIVE = re.compile(r"^(?:\s*\([^()]*\))?\s*(?:,|\u2013|\u2014|-)\s+(?:(a|an|the)\s+)", re.I)
_SECOND_VERB = re.compile(r"\s+and\s+(?:\w+ly\s+)?[a-z]+s\b")
# "NAME, which adds ...": what the name does, said as a gerund.
_WHICH_DOES = re.compile(r"^,?\s+(?:which|that)\s+([a-z]{3,}s)\s+", re.I)


def _stem(verb: str) -> str:
    """Return the base form of a verb in the third person: "adds" -> "add", "applies" -> "apply"."""
    if verb.endswith("ies"):
        return verb[:-3] + "y"
    if verb.endswith(("sses", "shes", "ches", "xes", "zes")):
        return verb[:-2]
    return verb[:-1]


# "a novel clustering algorithm called NAME": the words that introduce a name after its description.
_NAMING = re.compile(r"[\s,]*(?:(?:which is |that is )?(?:called|named|dubbed|termed|namely|coined))?[\s,]*$", re.I)


def render_named(sentence: str, name: str) -> list[str]:
    """Return descriptions of `name` from the sentence that introduces it, said whole ("A Model for X").

    "we propose KidSpeak, a foundation model for children's speech" -> "A Foundation Model for Children's
    Speech"; "we introduce a novel SpaceGNN model designed for NAD tasks" -> "A Model Designed for NAD Tasks";
    "a clustering algorithm called TB" -> "A Clustering Algorithm".
    """
    if "(" in sentence or "[" in sentence:
        sentence = PARENTHETICAL.sub("", sentence)
    match = _VERB.search(sentence)
    at = sentence.find(name, match.end()) if match else -1
    if match is None or at < 0:
        return []
    after = sentence[at + len(name):]
    appositive = _APPOSITIVE.match(after)
    if appositive:
        rest = after[appositive.end():]
        article = (appositive.group(1) or "").lower()
        return _object(("a " if article in ("a", "an") else "") + _QUOTES.sub(r"\1", rest))
    does = _WHICH_DOES.match(after)
    if does and _gerund(_stem(does.group(1).lower())):
        # "RevGuard, which adds auxiliary variables to the objective" -> "Adding Auxiliary Variables to the Objective".
        # (up to a second verb: "... and provably avoids the reversal")
        said = _SECOND_VERB.split(after[does.end():], 1)[0]
        return [f"{_gerund(_stem(does.group(1).lower()))} {phrase}" for phrase in _object(said, keep_article=True)]
    before = sentence[match.end():at]
    if after[:1].isalnum() or after[:1] == "-":
        return []  # "NAME-style": the name is part of a longer word
    if before.strip():
        # The name inside its own description ("a novel SpaceGNN model designed for ...") or after it.
        naming = _NAMING.search(before)
        said = before[: naming.start()] if naming and naming.group(0).strip(" ,") else f"{before}{after}"
        return _object(_QUOTES.sub(r"\1", " ".join(said.split())))
    return []
