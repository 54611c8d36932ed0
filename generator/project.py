"""The digest project: where it is, what it holds, and the defaults the package fills in.

A project is a folder with `paper-digest.toml` or `mkdocs.yml` (`paper-digest
new` writes one). It holds only what its user changed: templates, theme
overrides, site assets and MkDocs settings it lacks come from the package's
defaults (`defaults_dir()`: shipped inside the package, or this repository's
top-level folders in a source checkout, which are the default project).

MkDocs is run on an engine configuration that the generator writes into
`.paper-digest/`: it inherits the project's mkdocs.yml (MkDocs' own `INHERIT`),
adds the default settings that file leaves out, and points the theme at one
folder holding the default overrides and assets under the project's own.
"""

from __future__ import annotations

import html
import json
import os
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from typing import Any

import yaml

from .errors import DigestError
from .settings import SETTINGS_FILE, Settings

#: The files that mark a project folder.
MARKERS = (SETTINGS_FILE, "mkdocs.yml")
#: The configuration the site engine runs on, written beside the project's mkdocs.yml (Zensical
#: builds only below its configuration's folder, and paths relative to it keep the file, and the
#: build fingerprints that hash it, the same in every checkout), and the theme folder it uses.
ENGINE_CONFIG = ".paper-digest-mkdocs.yml"
THEME_DIR = ".paper-digest/theme"
#: The name MkDocs' site has when nobody named it (the default project's mkdocs.yml says so).
DEFAULT_SITE_NAME = "Paper Digest"


def defaults_dir() -> Path:
    """Return the folder of the default project: mkdocs.yml, templates/, overrides/ and site_src/assets/.

    Inside an installed package, `generator/defaults/` (copied there when the
    wheel is built, see setup.py); in a source checkout, the checkout itself.
    """
    packaged = Path(str(resources.files("generator"))) / "defaults"
    if (packaged / "mkdocs.yml").is_file():
        return packaged
    checkout = Path(__file__).resolve().parent.parent
    if (checkout / "mkdocs.yml").is_file() and (checkout / "templates").is_dir():
        return checkout
    raise DigestError("the package's default site files are missing: reinstall paper-digest")


def find_project(explicit: Path | None = None, start: Path | None = None) -> Path:
    """Return the project folder: `explicit` (--project), else the current folder or the nearest parent with one.

    Outside a project, a DigestError says so in one line and names `paper-digest new`.
    """
    if explicit is not None:
        if not explicit.is_dir():
            raise DigestError(f"{explicit}: no such project folder (start one with `paper-digest new {explicit}`)")
        return explicit.resolve()
    here = (start or Path.cwd()).resolve()
    for folder in (here, *here.parents):
        if any((folder / marker).is_file() for marker in MARKERS):
            return folder
    raise DigestError(
        f"no digest project here ({here} and its parents have no {' or '.join(MARKERS)}); "
        "start one with `paper-digest new DIR`, or name one with --project"
    )


def template_dirs(settings: Settings) -> list[Path]:
    """Return the folders templates are looked up in: the project's own first, then the defaults."""
    own = settings.resolve(settings.templates_dir)
    default = defaults_dir() / "templates"
    return [own, default] if own.is_dir() and own.resolve() != default.resolve() else [default]


class _Env:
    """An `!ENV` value of a MkDocs configuration, kept as it was written."""

    def __init__(self, value: Any) -> None:
        self.value = value


class _Loader(yaml.SafeLoader):
    """Reads a MkDocs configuration's plain values; tags MkDocs resolves itself are kept or left empty."""


class _Dumper(yaml.SafeDumper):
    """Writes the engine configuration, `!ENV` values included."""


def _env(loader: yaml.SafeLoader, node: yaml.Node) -> _Env:
    if isinstance(node, yaml.SequenceNode):
        return _Env(loader.construct_sequence(node))
    return _Env(loader.construct_scalar(node) if isinstance(node, yaml.ScalarNode) else None)


_Loader.add_constructor("!ENV", _env)
_Loader.add_multi_constructor("", lambda loader, suffix, node: None)
_Dumper.add_representer(_Env, lambda dumper, env: (
    dumper.represent_sequence("!ENV", env.value) if isinstance(env.value, list)
    else dumper.represent_scalar("!ENV", str(env.value))
))


def read_config(path: Path) -> dict[str, Any]:
    """Return a MkDocs configuration's plain values ({} when the file is missing or empty)."""
    try:
        data = yaml.load(path.read_text(encoding="utf-8"), Loader=_Loader)
    except FileNotFoundError:
        return {}
    except (yaml.YAMLError, UnicodeDecodeError) as exc:
        raise DigestError(f"{path}: not a valid MkDocs configuration: {exc}") from exc
    if data is not None and not isinstance(data, dict):
        raise DigestError(f"{path}: a MkDocs configuration is a mapping of settings")
    return data or {}


def _missing(default: dict[str, Any], own: dict[str, Any]) -> dict[str, Any]:
    """Return the settings of `default` that `own` leaves out (tables are filled in key by key)."""
    result: dict[str, Any] = {}
    for key, value in default.items():
        if key not in own:
            result[key] = value
        elif isinstance(value, dict) and isinstance(own[key], dict):
            inner = _missing(value, own[key])
            if inner:
                result[key] = inner
    return result


@dataclass(frozen=True)
class SiteIdentity:
    """The site's name, description and interface language, as MkDocs and the pages show them."""

    name: str
    description: str
    #: Material's `theme.language`; "" leaves it to the project's mkdocs.yml (English when that names none).
    language: str = ""


def project_config(settings: Settings) -> Path:
    """Return the project's mkdocs.yml, or the default one when the project has none."""
    own = settings.resolve(settings.config_file)
    return own if own.is_file() else defaults_dir() / "mkdocs.yml"


def configured_identity(settings: Settings) -> SiteIdentity:
    """Return the site name and description the user chose ("" where they chose none).

    paper-digest.toml first; else a name mkdocs.yml gives other than the default one.
    """
    own = read_config(settings.resolve(settings.config_file))
    name = settings.site_name or (own.get("site_name") if own.get("site_name") != DEFAULT_SITE_NAME else "") or ""
    description = settings.site_description or ""
    return SiteIdentity(str(name), str(description))


def write_engine_config(settings: Settings, identity: SiteIdentity) -> Path:
    """Write the configuration MkDocs runs on, and the theme folder it names; return the configuration's path.

    Only files whose bytes change are written: a rebuild with nothing changed writes nothing.
    """
    parent = project_config(settings)
    default = read_config(defaults_dir() / "mkdocs.yml")
    own = read_config(parent) if parent != defaults_dir() / "mkdocs.yml" else default
    theme = _write_theme(settings, own)
    values = _missing(default, own) if own is not default else {}
    path = _engine_config_path(settings)
    values.update({
        "INHERIT": _relative(parent, path.parent),
        # Material writes the name into <title> and the header unescaped: a collection's name is text.
        "site_name": html.escape(" ".join(identity.name.split()), quote=True),
        "docs_dir": _relative(settings.docs_path, path.parent),
        "site_dir": _relative(settings.site_path, path.parent),
    })
    if identity.description:
        values["site_description"] = html.escape(" ".join(identity.description.split()), quote=True)
    values.setdefault("theme", {})["custom_dir"] = _relative(theme, path.parent)
    own_theme = own.get("theme")
    named = isinstance(own_theme, dict) and "language" in own_theme
    # The setting wins; else a language the project's mkdocs.yml names is its user's choice, kept.
    if identity.language and (settings.site_language or not named):
        values["theme"]["language"] = identity.language
    text = (
        "# Written by paper-digest for MkDocs: the project's mkdocs.yml (INHERIT), the default settings it\n"
        "# leaves out, the site's name and the theme folder. Edit mkdocs.yml or paper-digest.toml, not this.\n"
        + yaml.dump(values, Dumper=_Dumper, sort_keys=True, allow_unicode=True, width=1000)
    )
    _write_if_changed(path, text.encode("utf-8"))
    return path


def _engine_config_path(settings: Settings) -> Path:
    return settings.resolve(settings.config_file).parent / ENGINE_CONFIG


def _relative(path: Path, start: Path) -> str:
    """Return `path` relative to `start` when it lies below it ("/"-separated), else absolute (the package's files)."""
    path, start = Path(os.path.abspath(path)), Path(os.path.abspath(start))
    return path.relative_to(start).as_posix() if path.is_relative_to(start) else str(path)


def engine_config(settings: Settings) -> Path:
    """Return the configuration MkDocs runs on (written with the configured name when generate has not run)."""
    path = _engine_config_path(settings)
    if path.is_file():
        return path
    identity = configured_identity(settings)
    return write_engine_config(settings, SiteIdentity(identity.name or DEFAULT_SITE_NAME, identity.description))


def theme_sources(settings: Settings) -> list[Path]:
    """Return the folders the theme folder is made from, defaults first (later ones win)."""
    defaults = defaults_dir()
    own = read_config(settings.resolve(settings.config_file))
    return [defaults / "overrides", defaults / "site_src" / "assets", *_own_theme(settings, own)]


def _own_theme(settings: Settings, own: dict[str, Any]) -> list[Path]:
    theme = own.get("theme") if isinstance(own.get("theme"), dict) else {}
    custom = theme.get("custom_dir") if isinstance(theme, dict) else None
    folder = settings.resolve(str(custom)) if isinstance(custom, str) else settings.resolve("overrides")
    defaults = defaults_dir()
    return [folder] if folder.is_dir() and folder.resolve() != (defaults / "overrides").resolve() else []


def _write_theme(settings: Settings, own: dict[str, Any]) -> Path:
    """Lay the default theme overrides and site assets, then the project's overrides, into one folder.

    MkDocs copies the theme folder's static files into the site, under any file of the same name in
    the docs dir: a project's own `site_src/assets/digest.css` still wins.
    """
    defaults = defaults_dir()
    layers = [(defaults / "overrides", None), (defaults / "site_src" / "assets", "assets")]
    layers += [(folder, None) for folder in _own_theme(settings, own)]
    wanted: dict[str, Path] = {}
    for folder, under in layers:
        for root, _dirs, files in os.walk(folder):
            for name in files:
                source = Path(root) / name
                rel = source.relative_to(folder).as_posix()
                wanted[f"{under}/{rel}" if under else rel] = source
    target = settings.resolve(THEME_DIR)
    for rel, source in sorted(wanted.items()):
        _write_if_changed(target / rel, source.read_bytes())
    if target.is_dir():
        for root, _dirs, files in os.walk(target, topdown=False):
            for name in files:
                path = Path(root) / name
                if path.relative_to(target).as_posix() not in wanted:
                    path.unlink()
            if Path(root) != target and not any(Path(root).iterdir()):
                Path(root).rmdir()
    return target


def _write_if_changed(path: Path, data: bytes) -> None:
    try:
        if path.read_bytes() == data:
            return
    except OSError:
        pass
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(f".{path.name}.tmp")
    tmp.write_bytes(data)
    os.replace(tmp, path)


#: The files `paper-digest new` writes (package data under generator/skeleton/), and where.
SKELETON = {
    "paper-digest.toml": "paper-digest.toml",
    "mkdocs.yml": "mkdocs.yml",
    "gitignore": ".gitignore",
    "example.txt": "data/example.txt",
    "deploy.yml": ".github/workflows/deploy.yml",
    "check.yml": ".github/workflows/check.yml",
}


#: Where a new project's workflows read what to install (`pip install -r`).
REQUIREMENTS = "requirements.txt"


def install_requirement() -> str:
    """Return the pip requirement that installs this paper-digest, or "" when pip knows no address for it.

    pip records where a package came from (PEP 610's direct_url.json): a git URL and its commit, or a
    wheel's URL. An editable or local install has no address CI could install from. (The name alone
    would not do: "paper-digest" on PyPI is another project.)
    """
    from importlib.metadata import PackageNotFoundError, distribution

    try:
        text = distribution("paper-digest").read_text("direct_url.json")
    except PackageNotFoundError:
        return ""
    try:
        info = json.loads(text or "{}")
    except ValueError:
        return ""
    url, vcs = str(info.get("url", "")), info.get("vcs_info")
    if not url.startswith(("https://", "http://")):
        return ""
    if isinstance(vcs, dict) and vcs.get("vcs") and vcs.get("commit_id"):
        return f"paper-digest @ {vcs['vcs']}+{url}@{vcs['commit_id']}"
    return f"paper-digest @ {url}" if "archive_info" in info else ""


def requirements_text(requirement: str) -> str:
    """Return a new project's requirements.txt: the line CI installs paper-digest by, or a note to add it."""
    head = (
        "# What the workflows in .github/workflows install (pip install -r requirements.txt).\n"
        "# The name alone would install another project from PyPI: name this one by its git URL,\n"
        "# pinned to a commit or tag, e.g. paper-digest @ git+https://github.com/OWNER/REPO@v1.0\n"
    )
    if requirement:
        return head + requirement + "\n"
    return head + "# `paper-digest new` did not know where this copy came from: add that line below.\n"


#: The optional workflow that runs `paper-digest infer` on main (`paper-digest new --infer-workflow`).
INFER_WORKFLOW = ("infer.yml", ".github/workflows/infer.yml")


def new_project(target: Path, infer_workflow: bool = False) -> list[str]:
    """Write a new digest project into `target` (missing or empty); return the files written.

    With `infer_workflow`, the workflow that asks a language model on main and commits its results too.
    """
    if target.exists() and (not target.is_dir() or any(target.iterdir())):
        raise DigestError(f"{target}: not an empty folder; `paper-digest new` starts a project in a new one")
    skeleton = resources.files("generator") / "skeleton"
    written = []
    for name, rel in [*SKELETON.items(), *([INFER_WORKFLOW] if infer_workflow else [])]:
        path = target / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(skeleton.joinpath(name).read_bytes())
        written.append(rel)
    (target / REQUIREMENTS).write_text(requirements_text(install_requirement()), encoding="utf-8")
    written.append(REQUIREMENTS)
    return written
