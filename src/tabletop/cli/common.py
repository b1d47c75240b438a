"""What every subcommand shares: one-line errors, output paths checked before the work, fallbacks after it."""

from __future__ import annotations

import difflib
import os
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import TypeVar

from rich.text import Text

from tabletop.core import Action, TabletopError
from tabletop.core.errors import shorten

T = TypeVar("T")


class Refused(TabletopError):
    """A command-line request refused before any work: a bad argument or path (exit status 2)."""


def error_line(message: object) -> str:
    """`tabletop: error: ...` on one line, whatever the message holds."""
    text = " ".join(str(message).split())
    if len(text) > 400:
        text = text[:397] + "..."
    return f"tabletop: error: {text}"


def fail(message: object) -> int:
    """Print the one-line error on stderr; the exit status of a refused request, 2."""
    print(error_line(message), file=sys.stderr, flush=True)
    return 2


def check_output_path(path: str | os.PathLike[str], what: str) -> Path:
    """`path` if a file can be written there (without creating it), else Refused saying why; checked before work."""
    p = Path(path)
    name = shorten(str(path))
    if str(path) == "":
        raise Refused(f"{what}: the file name is empty")
    if p.is_dir():
        raise Refused(f"{what}: {name} is a directory; give a file name")
    parent = p.parent
    if not parent.exists():
        # a path under a regular file also lands here or in the next check
        raise Refused(f"{what}: the folder {shorten(str(parent))} of {name} does not exist")
    if not parent.is_dir():
        raise Refused(f"{what}: {shorten(str(parent))} is not a folder, so {name} cannot be written")
    if p.exists() and not os.access(p, os.W_OK):
        raise Refused(f"{what}: {name} exists and is not writable")
    if not p.exists() and not os.access(parent, os.W_OK | os.X_OK):
        raise Refused(f"{what}: the folder {shorten(str(parent))} is not writable")
    return p


def check_new_output(path: str | os.PathLike[str], what: str, force: bool = False, same_as: str | None = None) -> Path:
    """`check_output_path`, and an existing file is overwritten only when asked: with `force` (the `--force` flag),
    when it is `same_as` (a resumed game saved back to its own file), or after a yes at a terminal's prompt;
    otherwise Refused, naming the flag that forces it."""
    p = check_output_path(path, what)
    if not p.is_file() or force or (same_as is not None and Path(same_as).resolve() == p.resolve()):
        return p
    name = shorten(str(path))
    if sys.stdin.isatty() and sys.stdout.isatty():
        try:
            answer = input(f"{name} exists: overwrite it? [y/N] ")
        except EOFError:
            answer = ""
        if answer.strip().lower() in ("y", "yes"):
            return p
        raise Refused(f"{what}: {name} exists and was kept; give another file name or add --force to overwrite it")
    raise Refused(f"{what}: {name} exists; give another file name or add --force to overwrite it")


def fallback_path(stem: str, suffix: str) -> Path:
    """A fresh file name to keep work whose own path failed at the end: in the current folder, else the temp one."""
    stamp = time.strftime("%Y%m%d-%H%M%S")
    for folder in (Path.cwd(), Path(tempfile.gettempdir())):
        candidate = folder / f"{stem}-{stamp}-{os.getpid()}{suffix}"
        if os.access(folder, os.W_OK | os.X_OK) and not candidate.exists():
            return candidate
    return Path(tempfile.mkstemp(prefix=f"{stem}-", suffix=suffix)[1])


def write_keeping_work(
    write: Callable[[Path], T], path: Path, stem: str, suffix: str, say: Callable[[str], None]
) -> T | None:
    """`write(path)`; if that fails (the disk changed since the check), `write` to a fallback file and say where."""
    try:
        return write(path)
    except (OSError, ValueError) as e:
        spare = fallback_path(stem, suffix)
        say(f"could not write {shorten(str(path))} ({shorten(str(e), 120)}); writing {spare} instead")
        try:
            return write(spare)
        except (OSError, ValueError) as e2:
            say(f"could not write {spare} either ({shorten(str(e2), 120)}): nothing was kept")
            return None


def refusal(answer: str, shown: list[Action]) -> Text:
    """What to say when a typed text is no legal action: closest legal texts, never the whole (long) list."""
    out = Text(f"{shorten(answer)} is not legal now (not one of the actions above).", style="red")
    number = {a.text: i + 1 for i, a in enumerate(shown)}
    close = difflib.get_close_matches(answer.lower(), list(number), n=3, cutoff=0.5) if len(answer) < 200 else []
    if close:
        out.append(" Did you mean " + " or ".join(f"{number[c]} ({c})" for c in close) + "?", style="yellow")
    out.append(" Type a number from the menu or an action's text as shown.", style="red")
    return out
