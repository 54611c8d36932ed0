"""Which field's vocabulary each paper of a digest is shown in, and the topics it then has.

A digest of machine learning keeps ICLR's vocabulary; a digest of another field (NLP, vision,
robotics, ...) shows its papers in that field's areas and topics (`in_digest_fields` decides
per paper). These are the digest-wide steps that follow that choice.
"""

from __future__ import annotations

from dataclasses import replace

from ..model import Tag
from .areas import load_model
from .field_record import FieldTags
from .field_vocabulary import MACHINE_LEARNING, bundled_field_topics, vocabulary_topics
from .fields import MACHINE_LEARNING_TAGS, load_field_tagger
from .folding import merge_tags, topic_parents
from .keywords import keyword_tags
from .tags import Topic

#: In a digest of a field other than machine learning, a paper the field model gives at least this
#: probability of the digest's field is shown in that field (a multimodal ACL paper stays an NLP paper).
IN_DIGEST_FIELD = 0.15
#: A digest at least this share of whose papers are of one field is that field's digest (a venue's list: ACL,
#: CVPR, IROS): each of its papers is shown in that field, whose areas are the home a reader of it looks for.
FIELD_DIGEST_SHARE = 0.75


def digest_field(fields: list[str]) -> str:
    """Return the field most of a digest's papers are of (machine learning on a tie or an empty digest).

    Machine learning keeps today's areas and topics; a digest of another field shows, for each
    of its papers outside machine learning, that paper's field's own areas and topics.
    """
    counts = {name: fields.count(name) for name in set(fields)}
    if not counts:
        return MACHINE_LEARNING
    best = max(counts.values())
    return MACHINE_LEARNING if counts.get(MACHINE_LEARNING) == best else min(n for n, c in counts.items() if c == best)


#: arXiv categories that name a field (an arXiv export's keywords): the source's own word on the paper's field.
ARXIV_FIELDS = {
    "cs.CL": "Natural Language Processing", "cs.CV": "Computer Vision", "eess.IV": "Computer Vision",
    "cs.RO": "Robotics", "cs.LG": MACHINE_LEARNING, "stat.ML": MACHINE_LEARNING, "cs.NE": MACHINE_LEARNING,
    "cs.AI": "Artificial Intelligence", "cs.MA": "Artificial Intelligence", "cs.LO": "Artificial Intelligence",
    "math.ST": "Learning Theory & Statistics", "stat.TH": "Learning Theory & Statistics",
    "cs.IR": "Web & Data Mining", "cs.SI": "Web & Data Mining", "cs.GR": "Computer Graphics",
}


def with_source_field(tags: FieldTags, keywords: tuple[str, ...]) -> FieldTags:
    """Return a paper's field tags with the field its first arXiv category names, when it gives one.

    An arXiv export lists a paper's categories as its keywords, the primary one first ("cs.CL").
    """
    field = next((ARXIV_FIELDS[k.strip()] for k in keywords if k.strip() in ARXIV_FIELDS), None)
    if field is None or field == tags.field:
        return tags
    others = tuple((name, p) for name, p in tags.probabilities if name != field)
    return replace(tags, field=field, probabilities=((field, 1.0), *others))


def in_digest_fields(tags: list[FieldTags], plains: list[str]) -> list[FieldTags]:
    """Return, for each paper of a digest, the field tags it is shown with (none: the ICLR areas and topics).

    A digest most of whose papers are of machine learning (ICLR, NeurIPS) keeps the ICLR areas and
    topics for every paper. In a digest at least half of whose papers are of another field (ACL, CVPR,
    IROS), a paper that may be of that field (`IN_DIGEST_FIELD`) is shown in it and any other keeps the
    ICLR areas and topics; in a venue's digest (`FIELD_DIGEST_SHARE` of it of one field), every paper is
    shown in that field. In a mixed library (no field holds half of it), each paper of a field other
    than machine learning is shown in its own field.
    """
    main = digest_field([t.field for t in tags])
    tagger = load_field_tagger()
    if main == MACHINE_LEARNING or tagger is None:
        return [MACHINE_LEARNING_TAGS for _ in tags]
    # A digest of one field: a paper that may be of it is shown in it. A mixed one (a library of several
    # fields): each paper in its own field.
    share = sum(t.field == main for t in tags) / len(tags)
    single = share >= 0.5
    # A venue's digest: its multimodal or learning papers are still papers of the venue's field.
    floor = 0.0 if share >= FIELD_DIGEST_SHARE else IN_DIGEST_FIELD
    # In a digest of one field, a paper not of it keeps ICLR's broad vocabulary: one site, two taxonomies
    # at most. In a mixed library each paper is shown in its own field.
    target = [
        (main if t.field == main or t.probability(main) >= floor else MACHINE_LEARNING) if single
        else t.field
        for t in tags
    ]
    rows = [i for i, field in enumerate(target) if tagger.has_areas(field)]
    placed = [MACHINE_LEARNING_TAGS if target[i] == MACHINE_LEARNING else tags[i] for i in range(len(tags))]
    if rows:
        texts = [plains[i] for i in rows]
        found = tagger.tag_in(texts, load_model().features(texts), [target[i] for i in rows])
        for i, tagged in zip(rows, found, strict=True):
            placed[i] = replace(tagged, probabilities=tags[i].probabilities)
    return placed


def in_own_fields(
    fields: list[FieldTags], topics: list[list[Tag]], plains: list[str], keywords: list[tuple[str, ...]],
    vocabulary: tuple[Topic, ...],
) -> tuple[list[FieldTags], list[list[Tag]]]:
    """Return each paper's field as shown in this digest, and its topics there.

    A paper shown in a field other than machine learning gets the source's keywords first, joined to
    the field's topics where they name one, then the field's inferred topics; a paper no topic fits
    has none and is listed under its area. A keyword no vocabulary names stays the topic of its own
    it is in a machine-learning digest (the source's own subjects first). A paper shown in machine
    learning keeps `topics` as they are.
    """
    known = {topic.slug for topic in vocabulary}
    placed = in_digest_fields(fields, plains)
    shown = []
    for field, found, plain, given in zip(placed, topics, plains, keywords, strict=True):
        if not field.areas:
            shown.append(found)
            continue
        own = keyword_tags(given, vocabulary_topics(field.field), plain)
        named = {tag.slug for tag in own} | {tag.slug for tag in field.topics}
        unnamed = [tag for tag in found if tag.evidence[:1] and tag.evidence[0].startswith("keyword: ")
                   and tag.slug not in known and tag.slug not in named]
        shown.append(merge_tags(list(field.topics), [*own, *unnamed]))
    return placed, shown


def field_parents(topics: tuple[Topic, ...], fields: bool) -> dict[str, tuple[str, str]]:
    """Return each topic's parent; in a digest shown in other fields, a field's topic has its field's parent.

    A field topic spelled as an ICLR topic ("Legged Locomotion") is not a sub-topic of ICLR's parent
    ("Robotics & Manipulation") in a robotics digest, where Legged Locomotion is a topic of its own.
    """
    parents = topic_parents(topics)
    if not fields:
        return parents
    own = bundled_field_topics()
    names = {topic.slug for topic in own}
    return {slug: p for slug, p in parents.items() if slug not in names} | topic_parents(own)
