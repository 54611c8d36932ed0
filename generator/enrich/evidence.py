"""Which of an abstract's phrase matches name a subject: the field topic model's evidence (`tags.topic_hits`).

A word inside another topic's longer phrase, an acronym that begins a method's name, an acronym the
abstract defines as other words: none names the subject it would otherwise stand for. Pure: one
abstract's matches at a time, word by word in order.
"""

from __future__ import annotations

import re
from bisect import bisect_left

#: An acronym the abstract defines after its expansion: "relation extraction (RE)".
_DEFINED = re.compile(r"\(\s*([A-Z][A-Za-z0-9]*[A-Z][A-Za-z0-9]*?)s?\s*[),;]")


class StrictMatches:
    """What of one abstract's matches names a subject (`topic_hits(strict=True)`), word by word in order.

    A phrase match inside a longer match of its group (its field's topics) that starts at or before its
    word is dropped: a word of several subjects inside the phrase of one ("speech" of "hate speech"). A
    longer phrase of another field takes nothing: a vision topic's "visual odometry" leaves "odometry"
    to robotics' odometry topic, whose digest never shows the vision one. An acronym joined by a hyphen
    to a following name ("SR-LSTM") names a method, not its subject. An acronym the abstract defines (in
    parentheses after its expansion) belongs to the topics whose phrase ends the expansion, and, when
    such a topic exists, to no other; its later uses are matches of those topics.
    """

    def __init__(self, text: str, tokens: list[re.Match[str]], originals: list[str],
                 acronyms: dict[str, tuple[int, ...]], groups: tuple[int, ...]) -> None:
        self.text, self.tokens, self.originals, self.acronyms = text, tokens, originals, acronyms
        #: Each topic's group: topics compete for words only within their group.
        self.groups = groups
        #: Per group, the end of its longest match so far (a word index past it).
        self.reach = [-1] * (max(groups, default=-1) + 1)
        #: Word index -> the topics whose multi-word match ends there (only when something is defined).
        self.ends_at: dict[int, tuple[int, ...]] = {}
        #: Defined acronym -> (its word index, the character offset of its parenthesis).
        self.definitions: dict[str, tuple[int, int]] = {}
        if "(" in text:
            starts = [token.start() for token in tokens]
            for match in _DEFINED.finditer(text):
                if match.group(1) not in self.definitions:
                    self.definitions[match.group(1)] = (bisect_left(starts, match.start(1)), match.start())
        #: Defined acronym -> the topics its expansion names (filled as the definitions are passed).
        self.owners: dict[str, tuple[int, ...]] = {}
        #: Defined acronyms no topic has as its own, whose later uses are found after the pass.
        self.later = [name for name in self.definitions if name not in acronyms]

    def step(self, i: int, found: dict[int, int]) -> tuple[dict[int, int], tuple[int, ...]]:
        """Return the phrase matches that start at word `i` and name a subject, and the topics its acronym names."""
        groups, reach = self.groups, self.reach
        widest: dict[int, int] = {}
        for topic, n in found.items():
            group = groups[topic]
            if n > widest.get(group, 0):
                widest[group] = n
        # Inside a longer match of its group that began earlier, or shorter than another of its group beginning
        # here: none.
        if len(widest) == 1:  # one field's topics (a topic and its area's column, mostly): no grouping needed
            ((group, most),) = widest.items()
            if i + most <= reach[group]:
                found = {}
            elif min(found.values()) != most:
                found = {t: n for t, n in found.items() if n == most}
        elif any(n != widest[groups[t]] or i + n <= reach[groups[t]] for t, n in found.items()):
            found = {t: n for t, n in found.items() if n == widest[groups[t]] and i + n > reach[groups[t]]}
        if found and self.definitions:
            for topic, n in found.items():
                if n > 1:
                    self.ends_at[i + n - 1] = (*self.ends_at.get(i + n - 1, ()), topic)
        named: tuple[int, ...] = ()
        original = self.originals[i]
        if original in self.acronyms:
            named = tuple(t for t in self._acronym(i, original)
                          if widest.get(groups[t], 1) == 1 and i + 1 > reach[groups[t]])
        for group, n in widest.items():
            if i + n > reach[group]:
                reach[group] = i + n
        return found, named

    def _acronym(self, i: int, original: str) -> tuple[int, ...]:
        end = self.tokens[i].end()
        if end < len(self.text) and self.text[end] == "-" and i + 1 < len(self.originals):
            after = self.originals[i + 1][:1]
            if after.isupper() or after.isdigit():
                return ()  # the first part of a compound name: "SR-LSTM"
        definition = self.definitions.get(original)
        if definition is None:
            return self.acronyms[original]
        if definition[0] == i:
            self.owners[original] = self.ends_at.get(i - 1, ())
            return ()  # the definition itself: its expansion counted already
        return self.owners.get(original) or self.acronyms[original]

    def defined_uses(self) -> list[tuple[int, int]]:
        """Return (word index, topic) of each later use of an acronym the abstract defined as a topic's phrase."""
        uses = []
        for name in self.later:
            at = self.definitions[name][0]
            owners = self.ends_at.get(at - 1, ())
            uses += [(k, topic) for k in range(at + 1, len(self.originals)) if self.originals[k] == name
                     for topic in owners]
        return uses
