"""Errors the CLI reports to the user without a traceback."""

from __future__ import annotations

from pathlib import Path

import click


class DigestError(click.ClickException):
    """A problem with the user's input or project that stops the pipeline.

    A click exception: click prints it as one "error: ..." line and exits with
    status 1, from every command, without a traceback.
    """

    exit_code = 1

    def show(self, file=None) -> None:
        click.echo(f"error: {self.format_message()}", file=file, err=True)


class SettingsError(DigestError):
    """A bad settings file or setting: names the file, the setting, what was expected and what was found."""

    def __init__(self, setting: str, problem: str, path: Path | None = None) -> None:
        self.setting, self.problem, self.path = setting, problem, path
        where = f"{path}: " if path else ""
        what = f"setting `{setting}`: " if setting else ""
        super().__init__(f"{where}{what}{problem}")

    def at(self, path: Path | None) -> SettingsError:
        """Return the same error, said of the settings file `path` (None: the command line)."""
        return SettingsError(self.setting, self.problem, path)


class BadFile(DigestError):
    """A source file that cannot be read whole (cut off, broken quoting, not XML): nothing of it is used.

    `seen` counts the records with an abstract found in it, before the break and (where the
    rest can be told apart) after it: what leaving the file out loses.
    """

    def __init__(self, file: str, line: int | None, reason: str, seen: int = 0) -> None:
        self.file, self.line, self.reason, self.seen = file, line, reason, seen
        super().__init__(f"{file}:{line}: {reason}" if line else f"{file}: {reason}")
