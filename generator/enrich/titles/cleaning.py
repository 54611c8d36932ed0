"""Clean a candidate title and tell what is wrong with a title.

`polish` turns a phrase cut from an abstract into a title as a venue would
print it; `title_defects` names what a reader would see as broken in any title
(inferred or real). Both are pure functions of text.
"""

from __future__ import annotations

import re
from functools import lru_cache
from importlib import resources


def word_set(text: str) -> frozenset[str]:
    """Return the words of a space-separated list."""
    return frozenset(text.split())


SMALL_WORDS = word_set(
    "a an and as at but by for from in into nor of on onto or over the to up via vs with without per "
    "than"
)
# Words that promise a continuation: a title cut right after one reads unfinished
# ("... Response Quality Based", "... Models Using").
NEEDS_MORE = word_set(
    "based using that which whose where while when such through including across between toward "
    "towards leveraging given like against beyond within among along under is are was were be been "
    "can will this these those their our its we us it they them whether how aims seeks tends needs "
    "attempts tries allows enables helps requires fails struggles remains serves see"
)
# Words that point at something outside the title ("... Resolves These Issues").
_REFERENCES = word_set("this these those such their our we us its they them")
# A title cut right after its verb: "Self-Supervised Learning Presents", "Diffusion Models Have",
# "... of Diffusion Models Trained".
_ENDING_VERBS = word_set(
    "presents rely relies remain has have had suffer suffer struggle lack lacks exhibit exhibits depend depends "
    "pose poses exist exists emerge emerges achieve perform performs offer offers provide provides make makes "
    "become becomes lead leads yield yields consisting comprising during regarding containing involving "
    "concerning spanning applicable capable able due according compared designed tailored aimed "
    "trained pretrained pre-trained fine-tuned conditioned obtained derived applied aim aims powered driven "
    "guided based known automates enables improves achieves outperforms allows shows demonstrates requires "
    "reduces increases enhances generates learns captures exploits solves predicts produces includes contains "
    "supports operates occurs fails succeeds works spread presented proposed introduced described discussed "
    "considered studied shown given used observed reported employed adopted utilized"
)
# "... and Beyond" ends a real title well; the other words leave it unfinished.
_BAD_ENDINGS = ((SMALL_WORDS | NEEDS_MORE) - {"beyond", "whether", "how", "when"}) | _ENDING_VERBS
# "Since AI Models", "Unlike Diffusion Models": a subordinate clause's opening, not a title.
_SUBORDINATE_STARTS = word_set("since unlike although though because despite whereas whether as for")
# "Of Multi-View Video Generation", "Given Two Pre-Trained Models": the start of a phrase cut off.
_CUT_STARTS = word_set("of and or but nor given")
# "... Framework for Selecting": a verb's "-ing" whose object was cut. Real titles end on gerunds
# that are nouns ("via Watermarking", "for Pansharpening"): only these verbs are taken as cut.
_CUT_GERUNDS = word_set(
    "selecting evaluating finding solving storing exploring inferring trying preserving enforcing proposing "
    "dealing designing generating improving using enabling achieving building creating identifying detecting "
    "estimating predicting producing capturing handling addressing reducing increasing providing obtaining "
    "leveraging incorporating integrating combining performing applying extracting learning-based ensuring "
    "facilitating enhancing mitigating assessing measuring bridging"
)
_PREPOSITIONS = word_set("for by of to in via with from on towards toward through without and into")
# "The Audio-Visual Segmentation Task": a short headline naming a task or a setting, not a contribution.
_TASK_WORDS = word_set("task tasks setting settings scenario scenarios")

_GENERIC = SMALL_WORDS | word_set(
    "novel new simple effective efficient general unified first framework method approach model "
    "benchmark dataset system technique algorithm pipeline paradigm strategy scheme mechanism "
    "training toolkit suite tool library agent architecture network module methods models frameworks "
    # "AuxDPO: The Superior Performance": the results sentence says how well, not what.
    "superior superiority performance effectiveness efficacy advantage advantages benefits improvements results"
)
_CLAUSE_STARTS = word_set("which that who whose where whereas while and or but thus hence also")
# "AugCLIP: Yet Effective Evaluation Metric": "simple yet effective" cut after "simple" (but "YaRN: Yet
# Another RoPE Extension Method" is the name's own expansion).
_YET_ADJECTIVES = word_set(
    "effective efficient powerful simple accurate robust scalable strong practical flexible general lightweight "
    "competitive principled expressive elegant versatile"
)
# "SuperDiff: Is Scalable to ...", "GenC: Can Be Used as ...": a predicate where a title should be
# (a question, "Can LLMs Reason?", is a title).
_VERB_STARTS = word_set("is are was were can could will would should may might does do has have had")
# "CellFlow: For Generation, a Flow-Based ...", "Under Distribution Shifts, Deep Networks ...":
# a sentence's fronted phrase. (Not a list after it: "On Cycles, Attackers and Supporters".)
_FRONTED = re.compile(
    r"^(?:For|In|On|With|By|From|At|Under|Through|Via|To)\s+(?:\S+\s+){0,2}\S+,\s(?!(?:.*\s)?(?:and|or)\s)"
)
# "GenXD: Multiview-Temporal Modules, Which Disentangle ...": a relative clause lifted from a sentence.
_COMMA_CLAUSE = re.compile(r",\s+(?:where|which|whose|who|while|whereas)\s", re.I)
# "... Results That Validate", "... Decision-Making Is Central": a clause cut after its verb.
_CLAUSE_VERBS = word_set("that which who is are was were has have had")
# "(1)", "(ii)", "(a)": an item of the abstract's own list, cut out of it.
_LIST_MARKER = re.compile(r"(?<![A-Za-z])\((?:\d{1,2}|[ivx]{1,4}|[a-h])\)")  # not "SO(3)"
_FIRST_PERSON = word_set("we our us")
# "Analyze, and Evaluate a Novel ...": the tail of a list of verbs.
_LEADING_LIST = re.compile(r"^[A-Z][a-z]+, (?:and|or) ")
_SUPERSCRIPTS = str.maketrans("0123456789+-n", "⁰¹²³⁴⁵⁶⁷⁸⁹⁺⁻ⁿ")
_POWER = re.compile(r"\^\{?([0-9+\-n]{1,3})\}?")
_SUBSCRIPT = re.compile(r"_\{?([A-Za-z0-9]{1,3})\}?")
_MARKUP = re.compile(r"[\\$*_`{}^~|<>#]|\*\*|\]\(")
_STRAY = re.compile(r"[\\$*_`{}^~|<>#\"“”]")
# "cApability", "reinfOrcement": a word typeset to spell an acronym, not a name's own casing.
_ACRONYM_CASED = re.compile(r"^[a-z]+[A-Z][a-z]{2,}$|^[a-z]{2,}[A-Z][a-z]+$|^[a-z]{5,}[A-Z]$")
_STATEMENT = re.compile(
    r"\b(?:[Ii]s|[Aa]re)\s+(?i:a|an|the|particularly|very|highly|often|critical|crucial|important|essential|widely|"
    r"increasingly|central|key|becoming|still|typically|usually|commonly|prevalent|ubiquitous|popular|common)\b",
)
# "The Challenges of Establishing ...", "SyntheOcc: The Advancement of Autonomous Driving": the problem
# or background an abstract opens with, named as a headline, not the paper's own contribution.
_BACKGROUND_HEAD = re.compile(
    r"(?:^|: )The (?:Challenges?|Problems?|Emergence|Advancements?|Rise|Success|Development|Difficulty|"
    r"Need|Lack|Growing|Increasing|Recent|Rapid|Widespread) (?:of|in|for)\b"
)
# "Spectral Framework Known for Examining ...": a relative clause of the abstract lifted into the title.
_LIFTED = re.compile(r"\bKnown (?:for|as)\b")
# "ALR: ², a Method ...": a superscript or subscript left alone when the math around it was dropped.
_LONE_SCRIPT = re.compile(r"(?<![\w)\]])[\u00b2\u00b3\u00b9\u2070-\u209f]")
# "Deep Learning Has Significantly Advanced ...", "Quantization Offers a Promising Solution": the
# background an abstract opens with, as a sentence. (Real titles state findings with "Enables",
# "Requires", "Struggle": those verbs are left alone.)
_BACKGROUND_VERBS = word_set(
    "has have excels excel offers offer provides provide relies rely remains remain aims aim suffers suffer lacks "
    "lack becomes become typically often commonly usually gained received attracts attracted"
)
_LEADING_BOTH = re.compile(r"^(?:Both|Either)\s+(?=\S+\s+\S)")
_A_VOWEL = re.compile(r"\bA (?=[AEIO][a-z])")
_WORD = re.compile(r"[^\s]+")


def math_as_text(text: str) -> str:
    """Render simple math in a name as text: "BrainM^3" -> "BrainM³", "x_{t}" -> "xt"."""
    if "^" in text:
        text = _POWER.sub(lambda m: m.group(1).translate(_SUPERSCRIPTS), text)
    if "_" in text:
        text = _SUBSCRIPT.sub(r"\1", text)
    return text


@lru_cache(maxsize=1)
def field_words() -> frozenset[str]:
    """Return the words most abstracts use, a field's words (generator/data/field_words.txt)."""
    text = resources.files("generator").joinpath("data/field_words.txt").read_text(encoding="utf-8")
    return frozenset(line for line in text.splitlines() if line and not line.startswith("#"))


@lru_cache(maxsize=1)
def dictionary() -> frozenset[str]:
    """Return the lowercase words common in abstracts (generator/data/words.txt)."""
    text = resources.files("generator").joinpath("data/words.txt").read_text(encoding="utf-8")
    return frozenset(text.split())


def acronym_cased(part: str) -> bool:
    """Return True for a dictionary word typeset to spell an acronym ("cApability", "reinfOrcement")."""
    # Only a dictionary word is mended: "fastText" or "mixGen" are names, "cApability" is not.
    if len(part) < 5 or not part.isalpha() or not part[0].islower() or part.islower():
        return False
    return part.lower() in dictionary()


def mend_casing(word: str) -> str:
    """Lower a word whose capitals spell an acronym inside it ("cApability" -> "capability")."""
    if word.islower() or word.isupper():
        return word
    return "-".join(part.lower() if acronym_cased(part) else part for part in word.split("-"))


def mend_expansion(text: str) -> str:
    """Write an acronym's expansion as words: "Length-bAsed StEp Reward" -> "Length-Based Step Reward".

    One capital inside a word of an expansion marks the acronym's letter ("bAsed", "extensioN");
    a word with more ("RoPE") is a name and keeps its casing.
    """
    words = []
    for word in text.split():
        parts = word.split("-")
        words.append("-".join(
            p[:1].upper() + p[1:].lower() if p.isalpha() and sum(c.isupper() for c in p[1:]) == 1 else p
            for p in parts
        ))
    return " ".join(words)


def title_case(text: str) -> str:
    """Capitalise like a venue title, keeping acronyms and names as written."""
    text = _STRAY.sub("", math_as_text(text)).strip().strip(" ,;:").rstrip(".")
    out: list[str] = []
    for i, word in enumerate(text.split()):
        word = mend_casing(word)
        lower = word.lower()
        if i > 0 and lower in SMALL_WORDS and not out[-1].endswith(":"):
            out.append(lower)
        else:
            # Capitalise each all-lowercase part ("length-based" -> "Length-Based");
            # keep parts with capitals as written (acronyms, names: "GaLLoP" stays).
            out.append("-".join(p[:1].upper() + p[1:] if p.islower() else p for p in word.split("-")))
    return " ".join(out)


def drop_dangling(words: list[str]) -> list[str]:
    """Drop trailing words a title must not end on ("of", "and", "using", "these")."""
    while len(words) > 1 and (
        words[-1].lower().strip(",;:") in SMALL_WORDS
        or words[-1].lower().strip(",;:") in NEEDS_MORE
        or words[-1].endswith(("(", "-", "/"))
        or len(words[-1].strip(",.;:")) < 2
    ):
        words = words[:-1]
    if words:
        words[-1] = words[-1].rstrip(",;:")
    return words


def balance_brackets(text: str) -> str:
    """Remove brackets that do not close (or open) within the title."""
    for left, right in ("()", "[]", "{}"):
        while text.count(left) != text.count(right):
            index = text.rfind(left) if text.count(left) > text.count(right) else text.find(right)
            text = (text[:index] + text[index + 1 :]).replace("  ", " ")
    return text.strip()


# A relative clause lifted from a sentence, said as a title says it: "Framework Designed for X" and
# "Framework Capable of X" -> "Framework for X"; "Method That Aims to X" -> "Method to X"; "Framework
# That Integrates X" -> "Framework Integrating X" (when the "-ing" form is a word of the dictionary).
_FOR_CLAUSE = re.compile(r"(?<=\w) (?:Designed|Tailored|Developed|Built|Intended|Specifically Designed) for ")
_CAPABLE_OF = re.compile(r"(?<=\w) Capable of (?=\w+ing\b)")
_AIMS_TO = re.compile(r"(?<=\w) (?:That|Which) (?:Aims|Seeks|Tries|Strives) to ")
_THAT_VERB = re.compile(
    r"\b((?:Framework|Method|Approach|Model|System|Pipeline|Algorithm|Benchmark|Dataset|Tool|Technique|"
    r"Strategy|Paradigm|Architecture|Module|Mechanism|Network|Agent|Simulator|Metric|Loss|Objective|Scheme|"
    r"Library|Platform|Suite|Environment|Procedure|Estimator|Policy|Encoder|Decoder|Layer|Regularizer|"
    r"Attack|Defense|Protocol|Solver|Optimizer|Planner|Generator|Formulation|Criterion|Bonus)) "
    r"(?:That|Which) ([A-Z][a-z]{2,}s) (?!(?:[Tt]hat|[Ii]s|[Aa]re)\b)"
)


_AND_VERB = re.compile(r"\s(?:and|or)\s[A-Z][a-z]+s\b")


def _gerund(verb: str) -> str:
    """Return the "-ing" form of a verb in the third person ("Integrates" -> "Integrating"), or ''."""
    stem = verb[:-1].lower()
    forms = [stem + "ing", stem[:-1] + "ing" if stem.endswith("e") else "", stem + stem[-1] + "ing"]
    if stem.endswith(("sse", "she", "che", "xe", "ze")):
        forms.insert(0, stem[:-1] + "ing")  # "Processes" -> "Processing"
    words = dictionary()
    known = next((form for form in forms if form and form in words), "")
    return known.capitalize() if known else ""


def compress(text: str) -> str:
    """Return a title with its lifted relative clauses said briefly (see above); `text` is title-cased."""
    # Most titles have none of these words: the regexes run only where they can match (titles are hot).
    if " for " in text and ("Designed" in text or "Tailored" in text or "Developed" in text or "Built" in text
                            or "Intended" in text):
        text = _FOR_CLAUSE.sub(" for ", text)
    if " Capable of " in text:
        text = _CAPABLE_OF.sub(" for ", text)
    if " That " not in text and " Which " not in text:
        return text
    text = _AIMS_TO.sub(" to ", text)
    match = _THAT_VERB.search(text)
    # "... That Accelerates X and Employs Y": a second verb would be left in the third person.
    if match is None or _AND_VERB.search(text, match.end() - 1) or not _gerund(match.group(2)):
        return text
    return f"{text[: match.start()]}{match.group(1)} {_gerund(match.group(2))} {text[match.end():]}"


def polish(text: str) -> str:
    """Return `text` as a clean title: no markup, balanced brackets, no dangling end, venue casing."""
    text = compress(balance_brackets(" ".join(title_case(text).split())))
    text = _A_VOWEL.sub("An ", re.sub(r"\(\s*\)", "", text))
    # "Both X and Y" cut from "performs both X and Y": a title does not start with "Both".
    text = _LEADING_BOTH.sub("", text)
    return " ".join(drop_dangling(text.split())).strip(" ,;:")


def _only_field_words(words: list[str]) -> bool:
    common = field_words()
    return all(
        w in SMALL_WORDS or w in _GENERIC or w in common or all(p in common for p in w.split("-")) for w in words
    )


def title_defects(title: str) -> list[str]:
    """Return what a reader would see as broken in `title` (empty when it reads clean).

    Defects: "markup" (LaTeX/Markdown or a stray ^ _ * $ { }), "brackets" (unbalanced),
    "ellipsis", "reference" (a "this", "these", "our", "we" ... pointing outside the title),
    "ending" (ends on a function word such as "via", "of", "and", "to", right after "that" or "has", on a
    verb such as "Presents" or "Have", or on a verb's "-ing" after a preposition: "Framework for Selecting",
    or "both" without its "and"),
    "length" (not 3-16 words), "generic" (the part after "NAME: " has under two specific words, or a
    headline of at most five words that are all a field's words: "Large Language Models"),
    "fragment" (a title or its description starting with "which", "that", "and", "yet", a verb such as
    "Is" or "Can" outside a question, or a sentence's fronted phrase "For Generation, ...", a relative
    clause after a comma ", Which Enables ...", or holding a list marker such as "(1)"), "sentence" (a
    statement such as "X Is an Important Component" or "Deep Learning Has Advanced ..." instead of a title),
    "casing" (all capitals, a lowercase start, or acronym casing inside a word like "cApability").
    """
    defects = []
    if _MARKUP.search(title) or _LONE_SCRIPT.search(title):
        defects.append("markup")
    if any(title.count(a) != title.count(b) for a, b in ("()", "[]")):
        defects.append("brackets")
    if "…" in title or "..." in title:
        defects.append("ellipsis")
    words = [w.strip(",;:.!?()[]\"'“”").lower() for w in _WORD.findall(title)]
    words = [w for w in words if w]
    segment_starts = {0} | {i + 1 for i, w in enumerate(_WORD.findall(title)) if w.endswith((":", "?"))}
    # A segment may start "This Is ..." but not "This Symmetry ...": that "this" points outside.
    leading = any(
        words[i] in _REFERENCES and words[i + 1 : i + 2] not in (["is"], ["are"])
        for i in segment_starts
        if i + 1 < len(words)
    )
    inside = any(w in _FIRST_PERSON or (w in _REFERENCES and i not in segment_starts) for i, w in enumerate(words))
    if leading or inside:
        defects.append("reference")
    description = title.split(": ", 1)[1] if ": " in title else ""
    background = ": " not in title and "?" not in title and any(
        w in _BACKGROUND_VERBS and words[i - 1] not in SMALL_WORDS for i, w in enumerate(words) if i > 0
    )
    if (background or _STATEMENT.search(title) or _BACKGROUND_HEAD.search(title)
            or re.search(r"\s(?:[Ii]s|[Aa]re)\s", description)):
        # "Negative Sampling Is an Important Component", "LLMs Are Particularly Appealing Choices".
        defects.append("sentence")
    tail = title.rsplit(",", 1)[1].split() if "," in title else []
    # "... Synthesizes Diverse, Verifiable": a list cut before its last item.
    unfinished_list = 0 < len(tail) <= 2 and not {"and", "or"} & {w.lower() for w in tail}
    # "... Framework for Selecting": the gerund's object was cut ("... for Continual Learning" is a noun).
    cut_gerund = len(words) > 2 and words[-1] in _CUT_GERUNDS and words[-2] in _PREPOSITIONS
    # "... Applicable to Both Docking": "both" promises an "and" the cut left out.
    both = "both" in words[1:] and "and" not in words[words.index("both", 1):]
    clause_cut = len(words) > 2 and words[-2] in _CLAUSE_VERBS
    if words and (both or words[-1] in _BAD_ENDINGS or clause_cut or unfinished_list or cut_gerund):
        defects.append("ending")
    question = "?" in title
    # Each segment's first word and the one after it ("" at the end).
    openings = [(words[i], words[i + 1] if i + 1 < len(words) else "") for i in segment_starts if i < len(words)]
    badly_opened = any(
        first in _CLAUSE_STARTS
        or (first in _VERB_STARTS and after != "not" and not question)
        or (first == "yet" and after in _YET_ADJECTIVES)
        for first, after in openings
    )
    if badly_opened or (
        words and words[0] in _SUBORDINATE_STARTS and ": " not in title and not question
    ) or (words and words[0] in _CUT_STARTS) or _LEADING_LIST.match(title) or _LIFTED.search(title) or (
        # "Even Though Memorization": a subordinate clause's opening.
        words[:2] in (["even", "though"], ["even", "if"], ["even", "when"])
    ) or (
        any(_FRONTED.match(segment) for segment in title.split(": "))
        or (not question and _COMMA_CLAUSE.search(title))
    ):
        # "WizardMath: Which Enhances ...": a relative clause where a description should be.
        defects.append("fragment")
    elif _LIST_MARKER.search(title):
        # "LiveBench: First Benchmark That (1) Contains ...": a list item of the abstract.
        defects.append("fragment")
    if not 3 <= len(words) <= 16:
        defects.append("length")
    elif ": " in title and len([w for w in title.split(": ", 1)[1].lower().split() if w not in _GENERIC]) < 2:
        # "ROSA: Training Paradigm", "ENACT: A Benchmark": the description says nothing.
        defects.append("generic")
    elif ": " not in title and len(words) <= 3 and words[0] in ("a", "an", "the"):
        # "A Unified View", "The Proposed Method": an article and a noun, no subject.
        defects.append("generic")
    elif ": " not in title and len(words) <= 5 and (_only_field_words(words) or words[-1] in _TASK_WORDS):
        # "Large Language Models", "Graph Neural Networks": the field, not the paper.
        defects.append("generic")
    letters = [c for c in title if c.isalpha()]
    if (
        (len(letters) > 12 and all(c.isupper() for c in letters))
        or (letters and title.lstrip("\"'“(")[:1].islower() and not re.match(r"^[a-z]+[A-Z]", title))
        or any(acronym_cased(part.strip(",;:.()")) for w in title.split() for part in w.split("-"))
    ):
        defects.append("casing")
    return defects
