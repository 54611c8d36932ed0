"""The record the title stage gives for each paper: a title and how it was found."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class InferredTitle:
    """A title and how it was found."""

    title: str
    source: str  # "named-method", "headline" or "contribution"
    name: str = ""
    #: How likely a strict reader would not call the title bad (calibrated on the tune parts; 0 to 1).
    confidence: float = 1.0
