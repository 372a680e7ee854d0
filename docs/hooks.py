"""MkDocs hooks of the docs site (``mkdocs.yml``): pages made from the code and the project's
own files, so that the site cannot drift from them.

- ``<!-- generated: problem-codes -->``: every problem code the hub answers, from the
  ``HubError`` tree itself (its status, code, title and docstring).
- ``<!-- generated: cli -->``: ``agenthub --help`` and each command's, from its parser.
- ``<!-- include: PATH -->``: a file of the repository (CONFORMANCE.md, SECURITY.md…), its
  links rewritten for the page that includes it: to the page the site has for a file it
  links, else to the file in the source repository.
"""

from __future__ import annotations

import argparse
import importlib
import pkgutil
import re
from pathlib import Path
from typing import Any

ROOT = Path(__file__).parents[1]
SOURCE = "https://github.com/agenthub/agenthub/blob/main/"
PAGES = {  # a repository file the site has a page for, and that page
    "README.md": "index.md",
    "CONFORMANCE.md": "reference/conformance.md",
    "ARCHITECTURE.md": "reference/architecture.md",
    "BENCHMARKS.md": "reference/benchmarks.md",
    "CHANGELOG.md": "changelog.md",
    "CONTRIBUTING.md": "development.md",
    "SECURITY.md": "operator/security.md",
    "deploy/README.md": "operator/deploy.md",
}
INCLUDE = re.compile(r"^<!-- include: (\S+) -->$", re.M)
LINK = re.compile(r"(!?\[[^\]]*\])\(([^)\s]+)\)")


def on_page_markdown(markdown: str, page: Any, **_: Any) -> str:
    markdown = INCLUDE.sub(lambda m: _included(m.group(1), page.file.src_uri), markdown)
    for marker, make in GENERATED.items():
        if marker in markdown:  # made for the page that asks, not for every page
            markdown = markdown.replace(marker, make())
    return markdown


def _included(path: str, page_uri: str) -> str:
    text = (ROOT / path).read_text(encoding="utf-8")
    text = re.sub(r"^<!-- readme-test: [^>]*-->\n", "", text, flags=re.M)
    base = Path(path).parent
    up = "../" * page_uri.count("/")

    def link(match: re.Match[str]) -> str:
        label, target = match.groups()
        if re.match(r"^[a-z]+:|^#", target):
            return match.group(0)
        where, _, anchor = target.partition("#")
        resolved = (base / where).as_posix() if where else path
        resolved = str(Path(resolved)).replace("\\", "/")
        if resolved in PAGES:
            new = up + PAGES[resolved]
        elif resolved.startswith("docs/"):
            new = up + resolved.removeprefix("docs/")
        else:
            new = SOURCE + resolved
        return f"{label}({new}{'#' + anchor if anchor else ''})"

    return LINK.sub(link, _demoted(text))


def _demoted(text: str) -> str:
    """The included file's title stays the page's: its other headings keep their levels."""
    lines: list[str] = []
    fenced = False
    for line in text.splitlines():
        if line.startswith("```"):
            fenced = not fenced
        if not fenced and line.startswith("# ") and not lines:
            continue  # its title: the including page has one
        lines.append(line)
    return "\n".join(lines)


def problem_codes() -> str:
    """A table of every code, by status then code, from the classes the hub raises."""
    import app
    from app.errors import HubError

    for module in pkgutil.walk_packages(app.__path__, "app."):
        if module.name.endswith(".errors"):
            importlib.import_module(module.name)
    rows = []
    seen: set[str] = set()
    stack: list[type[HubError]] = [HubError]
    while stack:
        kind = stack.pop()
        stack.extend(kind.__subclasses__())
        if kind.code in seen:
            continue
        seen.add(kind.code)
        doc = " ".join((kind.__doc__ or "").split()) if kind.__doc__ != HubError.__doc__ else ""
        rows.append((kind.status, kind.code, kind.title, doc.replace("|", "\\|")))
    lines = ["| status | code | title | when |", "| --- | --- | --- | --- |"]
    lines += [f"| {s} | `{c}` | {t} | {d} |" for s, c, t, d in sorted(rows)]
    return "\n".join(lines)


def cli() -> str:
    """``agenthub --help`` and every command's help, as the parser prints them."""
    from app.cli import build_parser

    parser = build_parser()
    parts = ["## agenthub", "", "```text", parser.format_help().rstrip(), "```"]
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for name, sub in action.choices.items():
                parts += [
                    "",
                    f"## agenthub {name}",
                    "",
                    "```text",
                    sub.format_help().rstrip(),
                    "```",
                ]
    return "\n".join(parts)


GENERATED = {"<!-- generated: problem-codes -->": problem_codes, "<!-- generated: cli -->": cli}
