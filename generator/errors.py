"""Errors the CLI reports to the user without a traceback."""


class DigestError(Exception):
    """A problem with the user's input or project that stops the pipeline."""
