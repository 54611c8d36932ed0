"""Tell what a reader would see as broken in a title (inferred or real).

`title_defects(title)` names each defect: markup, brackets, a dangling end, a
fragment, a statement instead of a title, a field's name or the background instead
of the paper, a counted side detail, casing. The field's words and phrases are
measured on the corpora (`scripts/build_title_lists.py`). Pure functions of text.
"""

from __future__ import annotations

import re
from functools import lru_cache
from importlib import resources

from .cleaning import NEEDS_MORE, SMALL_WORDS, acronym_cased, word_set

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
    "considered studied shown given used observed reported employed adopted utilized prove show demonstrate "
    "propose introduce analyze analyse address tackle overcome mitigate alleviate resolve use built evaluate assess "
    "find fewer "
    # "... Datasets Consisting of Trillions": a count whose noun was cut.
    "dozens hundreds thousands millions billions trillions"
)
# "... and Beyond" ends a real title well; the other words leave it unfinished.
_BAD_ENDINGS = ((SMALL_WORDS | NEEDS_MORE) - {"beyond", "whether", "how", "when"}) | _ENDING_VERBS
# "Since AI Models", "Unlike Diffusion Models": a subordinate clause's opening, not a title.
_SUBORDINATE_STARTS = word_set("since unlike although though because despite whereas whether as for")
_QUESTION_WORDS = word_set("how why what when where which who whether")
# "Of Multi-View Video Generation", "Given Two Pre-Trained Models": the start of a phrase cut off.
_CUT_STARTS = word_set("of and or but nor given into with by from via at in")
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
    # "GIH: Extensive Experimental Results": the experiments, not what they test.
    " extensive experimental experiments empirical evaluation evaluations"
)
_CLAUSE_STARTS = word_set("which that who whose where whereas whereby while and or but thus hence also")
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
# "GenXD: Multiview-Temporal Modules, Which Disentangle ...": a relative clause lifted from a sentence;
# "Machine Learning Approaches, Particularly Graph Neural Networks": an aside of the background.
_COMMA_CLAUSE = re.compile(
    r",\s+(?:where|which|whose|who|while|whereas|particularly|especially|notably|such as|e\.g\.|i\.e\.)\s", re.I
)
# "... Results That Validate", "... Decision-Making Is Central": a clause cut after its verb.
_CLAUSE_VERBS = word_set("that which who is are was were has have had")
_MODALS = word_set("can could may might will would should must")
# "(1)", "(ii)", "(a)": an item of the abstract's own list, cut out of it.
_LIST_MARKER = re.compile(r"(?<![A-Za-z])\((?:\d{1,2}|[ivx]{1,4}|[a-h])\)")  # not "SO(3)"
_FIRST_PERSON = word_set("we our us")
# "Analyze, and Evaluate a Novel ...": the tail of a list of verbs.
_LEADING_LIST = re.compile(r"^[A-Z][a-z]+, (?:and|or) ")
# ("N > 5000 LLMs": a comparison before a number is text; "Xk+1 = Xk - αk" and "-DP", where the math
# around a word was dropped, are formulas.)
_MARKUP = re.compile(r"[\\$*_`{}^~|#]|(?<!\s)[<>]|[<>](?!\s\d)|\*\*|\]\(|\s=\s|(?:^|\s)-\w")
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
    "lack becomes become typically often commonly usually gained received attracts attracted "
    # "... to a Broader Framework and Introduces GEFA", "Fairness-Aware Learning Studies the ...": a sentence's verb
    "introduces proposes presents studies investigates"
)
# "A Teacher-Student Model, Called , to ...": a name the text left out, or the phrase that introduced it.
_LIFTED_NAMING = re.compile(r"\s,|\b(?:Called|Dubbed|Termed|Namely|Coined)\b")
# "Motivated by the Stage-Wise Learning Phenomenon", "Moreover, ...": a sentence's lead-in, not a title.
_LEAD_INS = word_set(
    "motivated inspired building based given compared following specifically notably additionally moreover "
    "furthermore however thus therefore hence consequently finally overall instead here"
)
# "... Can Appear State-Of-The-Art Unless Calibration": a subordinate clause cut short.
_CUT_CLAUSE = re.compile(
    r"\b(?:unless|because|although|though|whereas|until|if|when|while|since)(?:\s+\S+){0,2}$", re.I
)
# "Existing Offline RL Approaches", "Prior Methods": what others did, the background of the paper.
_BACKGROUND_STARTS = word_set("existing prior previous traditional conventional current recent most many")
# "Two Standard Feature-Based ...", "Several Benchmarks": a count of something the abstract mentions.
_COUNTS = word_set("two three four five six seven eight nine ten several multiple various numerous")
_COUNTED_DETAIL = re.compile(
    r"\b(?i:comprising|containing|consisting of|covering|spanning|including|with|of|across|over)\s+"
    r"(?i:more than |over |about |nearly |approximately |around )?\d[\d,.]*[KMB]?\+?\s+[A-Z]"
)
_WORD = re.compile(r"[^\s]+")
_CAMEL_START = re.compile(r"^[a-z]+[A-Z]")
_IS_ARE = re.compile(r"\s(?:[Ii]s|[Aa]re)\s")
_CUT_OR_LEAD = _CUT_STARTS | _LEAD_INS
# "Framework for Global Convergence ... for Global Convergence": a phrase said twice (a compression's echo).
_REPEATED = re.compile(r"\b(\w{3,} \w{3,})\b.*\b\1\b", re.I)
# "... Diffusion Models, in Which the Prior Distribution", "Algorithms Whose Utility Bound": a relative
# clause lifted from a sentence (a title asks "Which ...?" only as a question).
# "Under Mild Assumptions That a Student Model": a "that" clause opened and cut.
_RELATIVE = re.compile(
    r"(?<=\w)(?:,?\s+(?:in|on|of|for|by|to|under|with|from)\s+(?:[Ww]hich|[Ww]hom)|\s+(?:[Ww]hose|[Ww]hich|[Ww]hereby|[Ww]herein|[Ww]here)"
    r"|\s+That(?=\s+(?:[Aa]|[Aa]n|[Tt]he)\s))\s"
)
# "Characterize the ...", "Consider Gradient Descent ...": a sentence's verb, the subject cut off.
_VERB_LED = word_set(
    "characterize characterise consider propose introduce present develop design study investigate analyze "
    "analyse examine explore establish prove provide derive identify address tackle formulate find build "
    "construct release curate offer leverage extend reveal argue describe report evaluate aim seek apply "
    "demonstrate show obtain achieve employ utilize replace use"
)
# "SURE: Inspired by ...", "R-SCORE: As a Recursive ...", "Slerp: When Integrated with ...": a
# sentence's lead-in where a name's description should be ("X: From A to B" is a title).
_DESCRIPTION_STARTS = word_set(
    "since unlike although though because despite whereas as given into with by via at and or but nor of "
    "existing prior previous traditional conventional extensive to two three four five six proposed "
    "standing stands"  # ("SONNET: Standing for SOlar-disaggregatioN-Based ...": the name spelled out)
)
# "The Recently Proposed ...", "The Existing ...": others' work.
_THE_BACKGROUND = word_set("recently recent existing prior previous traditional conventional")
# "The Proposed Approach ...", "ADCE: The Corresponding Surrogates": a "the" that points back into the abstract.
_THE_POINTER = word_set("proposed corresponding aforementioned above-mentioned resulting former latter")
# "... Uncertainty with Respect", "Leveraging Code as a Means": an idiom cut before its object.
_CUT_IDIOM = re.compile(r"\b(?:with respect|with regard|in terms|as a means|by means|in order|on top|in front)$", re.I)
@lru_cache(maxsize=1)
def field_words() -> frozenset[str]:
    """Return the words most abstracts use, a field's words (generator/data/field_words.txt)."""
    text = resources.files("generator").joinpath("data/field_words.txt").read_text(encoding="utf-8")
    return frozenset(line for line in text.splitlines() if line and not line.startswith("#"))


@lru_cache(maxsize=1)
def field_phrases() -> frozenset[str]:
    """Return the phrases many abstracts open with as their topic (generator/data/field_phrases.txt)."""
    text = resources.files("generator").joinpath("data/field_phrases.txt").read_text(encoding="utf-8")
    return frozenset(line for line in text.splitlines() if line and not line.startswith("#"))


# Words around a field's name that leave it a field: "A Novel ... Method", "Existing ... Approaches".
_FIELD_LEAD = word_set("a an the novel new existing recent current modern standard typical classical general")
_FIELD_HEADS = word_set(
    "method methods approach approaches technique techniques framework frameworks model models task tasks problem "
    "problems setting settings paradigm paradigms algorithm algorithms research literature field"
)


def field_core(words: list[str]) -> list[str]:
    """Return a headline's words without the article, praise and generic head around its subject."""
    start, end = 0, len(words)
    while start < end and words[start] in _FIELD_LEAD:
        start += 1
    while end - start > 1 and words[end - 1] in _FIELD_HEADS:
        end -= 1
    return words[start:end]


def is_field_phrase(words: list[str]) -> bool:
    """Return True when a headline (lowercase words) only names a topic many abstracts open with."""
    core = field_core(words)
    return 2 <= len(core) <= 4 and " ".join(core) in field_phrases()


def _only_field_words(words: list[str]) -> bool:
    common = field_words()
    return all(
        w in SMALL_WORDS or w in _GENERIC or w in common or all(p in common for p in w.split("-")) for w in words
    )


def _opens_description_badly(title: str) -> bool:
    """Return True when the part after "NAME: " opens as a sentence's lead-in ("Inspired by", "As a", "When ...ed")."""
    if ": " not in title:
        return False
    words = title.split(": ", 1)[1].lower().split()
    if not words:
        return False
    first = words[0].strip(",")
    # ("MallowsPO: Empirically How to Use": an adverb of the sentence, not a description)
    return first in _DESCRIPTION_STARTS or first in _LEAD_INS or first.endswith("ally") or (
        first in ("when", "while", "if", "once") and len(words) > 1 and words[1].endswith("ed")
    ) or first in ("recent", "recently")


def title_defects(title: str) -> list[str]:
    """Return what a reader would see as broken in `title` (empty when it reads clean).

    Defects: "markup" (LaTeX/Markdown or a stray ^ _ * $ { }), "brackets" (unbalanced),
    "ellipsis", "reference" (a "this", "these", "our", "we" ... pointing outside the title),
    "ending" (ends on a function word such as "via", "of", "and", "to", right after "that" or "has", on a
    verb such as "Presents" or "Have", or on a verb's "-ing" after a preposition: "Framework for Selecting",
    or "both" without its "and"),
    "length" (not 3-16 words), "generic" (the part after "NAME: " has under two specific words, or a
    headline of at most six words that are all a field's words, "Large Language Models", or only a phrase
    many abstracts open with as their topic, "Offline Reinforcement Learning Methods"), "detail" (a headline
    opening on the background, "Existing ...", or on a count, "Two Approximation Schemes", or a count of
    what the paper built, "Benchmark Comprising 1,000 Test Cases"),
    "fragment" (a title or its description starting with "which", "that", "and", "yet", a verb such as
    "Is" or "Can" outside a question, or a sentence's fronted phrase "For Generation, ...", a relative
    clause after a comma ", Which Enables ...", or holding a list marker such as "(1)"), "sentence" (a
    statement such as "X Is an Important Component" or "Deep Learning Has Advanced ..." instead of a title),
    "casing" (all capitals, a lowercase start, or acronym casing inside a word like "cApability" or "REward"),
    "repeated" (a phrase said twice: "... for Global Convergence ... for Global Convergence").
    """
    defects = []
    if _MARKUP.search(title) or _LONE_SCRIPT.search(title):
        defects.append("markup")
    if any(title.count(a) != title.count(b) for a, b in ("()", "[]")):
        defects.append("brackets")
    if "…" in title or "..." in title:
        defects.append("ellipsis")
    tokens = _WORD.findall(title)
    words = [w.strip(",;:.!?()[]\"'“”").lower() for w in tokens]
    words = [w for w in words if w]
    segment_starts = {0} | {i + 1 for i, w in enumerate(tokens) if w.endswith((":", "?"))}
    # A segment may start "This Is ..." but not "This Symmetry ...": that "this" points outside.
    leading = any(
        (words[i] in _REFERENCES or words[i] == "it") and words[i + 1 : i + 2] not in (["is"], ["are"])
        for i in segment_starts
        if i + 1 < len(words)
    )
    inside = any(w in _FIRST_PERSON or (w in _REFERENCES and i not in segment_starts) for i, w in enumerate(words))
    pointer = any(i + 1 < len(words) and words[i] == "the" and words[i + 1] in _THE_POINTER for i in segment_starts)
    if leading or inside or pointer:
        defects.append("reference")
    description = title.split(": ", 1)[1] if ": " in title else ""
    background = ": " not in title and "?" not in title and any(
        w in _BACKGROUND_VERBS and words[i - 1] not in SMALL_WORDS for i, w in enumerate(words) if i > 0
    )
    if (background or _STATEMENT.search(title) or _BACKGROUND_HEAD.search(title)
            or _IS_ARE.search(description)):
        # "Negative Sampling Is an Important Component", "LLMs Are Particularly Appealing Choices".
        defects.append("sentence")
    tail = title.rsplit(",", 1)[1].split() if "," in title else []
    # "... Synthesizes Diverse, Verifiable": a list cut before its last item.
    unfinished_list = 0 < len(tail) <= 2 and not {"and", "or"} & {w.lower() for w in tail}
    # "... Framework for Selecting": the gerund's object was cut ("... for Continual Learning" is a noun).
    cut_gerund = len(words) > 2 and words[-1] in _CUT_GERUNDS and words[-2] in _PREPOSITIONS
    # "... Applicable to Both Docking": "both" promises an "and" the cut left out.
    both = "both" in words[1:] and "and" not in words[words.index("both", 1):]
    # "... Datasets That Have Been", "An Adversary That Can Arrange": a relative clause cut after its verb.
    clause_cut = len(words) > 2 and (words[-2] in _CLAUSE_VERBS or (
        len(words) > 3 and words[-3] in ("that", "which", "who") and words[-2] in _MODALS))
    if words and (both or words[-1] in _BAD_ENDINGS or clause_cut or unfinished_list or cut_gerund or (
        "?" not in title and _CUT_CLAUSE.search(title)
    ) or _CUT_IDIOM.search(title.rstrip(".,;:"))):
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
    ) or (words and words[0] in _CUT_OR_LEAD) or (
        # "How an Adversary": a question's subject without its verb.
        len(words) <= 3 and words[0] in _QUESTION_WORDS and words[1:2] in (["a"], ["an"], ["the"]) and not question
    ) or _LEADING_LIST.match(title) or _LIFTED.search(title) or (
        _LIFTED_NAMING.search(title)
    ) or (
        # "Even Though Memorization": a subordinate clause's opening.
        words[:2] in (["even", "though"], ["even", "if"], ["even", "when"], ["for", "example"], ["for", "instance"])
    ) or (
        any(_FRONTED.match(segment) for segment in title.split(": "))
        or (not question and (_COMMA_CLAUSE.search(title) or _RELATIVE.search(title)))
    ) or (words and words[0] in _VERB_LED and words[1:2] != ["of"] and not title.split()[0].endswith(":")) or (
        _opens_description_badly(title)
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
    elif ": " not in title and len(words) <= 6 and (
        _only_field_words(words) or words[-1] in _TASK_WORDS or is_field_phrase(words)
    ):
        # "Large Language Models", "Graph Neural Networks", "Existing Offline RL Approaches": the field, not the paper.
        defects.append("generic")
    if _REPEATED.search(title):
        defects.append("repeated")
    if ": " not in title and words and (
        words[0] in _BACKGROUND_STARTS or words[0] in _COUNTS or words[0].isdigit()
        or any(i + 1 < len(words) and words[i] in ("the", "a") and words[i + 1] in _THE_BACKGROUND for i in (0, 1))
    ):
        # "Existing Offline RL Approaches", "Two Approximation Schemes": the background or a counted side detail.
        defects.append("detail")
    elif _COUNTED_DETAIL.search(title):
        # "SurvivalBench: Benchmark Comprising 1,000 Test Cases ...": a count, not what the paper does.
        defects.append("detail")
    letters = list(filter(str.isalpha, title))
    if (
        (len(letters) > 12 and all(map(str.isupper, letters)))
        or (letters and title.lstrip("\"'“(")[:1].islower() and not _CAMEL_START.match(title))
        or any(acronym_cased(part.strip(",;:.()")) for w in title.split() for part in w.split("-"))
    ):
        defects.append("casing")
    return defects
