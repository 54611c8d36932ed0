"""paper-digest: turn a pile of conference abstracts into a searchable website."""

__version__ = "0.1.0"
