"""Argument types shared by the command line and the pytest plugin (kept import-light).

Each raises :class:`argparse.ArgumentTypeError`, which argparse (and so pytest's option
parser) turns into a usage error naming the option.
"""

from __future__ import annotations

import argparse
import math

__all__ = [
    "EXAMPLE_DB_FORMS",
    "MAX_SECONDS",
    "MAX_SHARDS",
    "example_db",
    "non_negative_int",
    "positive_float",
    "positive_int",
    "shard",
]

#: The forms of ``--example-db``, as they are written.
EXAMPLE_DB_FORMS = ("dir:PATH", "redis://HOST:PORT/DB", "github-artifact:OWNER/REPO")

#: The most shards a run may be split into (a CI matrix wider than this is a typo).
MAX_SHARDS = 256

#: The longest time any option may name: a day.  Far longer ends in an overflow deep in
#: the clocks and sockets that wait (``1e308`` seconds is an ``OverflowError`` there).
MAX_SECONDS = 86_400.0


def positive_int(text: str) -> int:
    """A whole number of at least 1."""
    return _whole_number(text, 1)


#: The most worker processes a run starts: each is a whole process with the suite
#: loaded, and a machine's process table is not the suite's to fill.
MAX_WORKERS = 64


def worker_count(text: str) -> int:
    """A number of worker processes, from 1 to :data:`MAX_WORKERS`."""
    count = _whole_number(text, 1)
    if count > MAX_WORKERS:
        raise argparse.ArgumentTypeError(
            f"expected at most {MAX_WORKERS} workers (each is a process of its own), got {count}"
        )
    return count


def non_negative_int(text: str) -> int:
    """A whole number of at least 0."""
    return _whole_number(text, 0)


def _whole_number(text: str, least: int) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a whole number, got {text!r}") from None
    if value < least:
        raise argparse.ArgumentTypeError(f"must be at least {least}, got {value}")
    return value


def positive_float(text: str) -> float:
    """A finite number greater than 0 (seconds), at most :data:`MAX_SECONDS`."""
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a number of seconds, got {text!r}") from None
    if not math.isfinite(value) or value <= 0:
        raise argparse.ArgumentTypeError(f"must be a number of seconds above 0, got {text}")
    if value > MAX_SECONDS:
        raise argparse.ArgumentTypeError(
            f"must be at most {MAX_SECONDS:.0f} seconds (a day), got {text[:40]}"
        )
    return value


def shard(text: str) -> tuple[int, int]:
    """``K/N``: the K-th (from 1) of N shards."""
    index, slash, count = text.partition("/")
    try:
        pair = (int(index), int(count)) if slash else None
    except ValueError:
        pair = None
    if pair is None:
        raise argparse.ArgumentTypeError(f"expected K/N such as 2/4, got {text!r}")
    if not 1 <= pair[1] <= MAX_SHARDS:
        raise argparse.ArgumentTypeError(f"N must be from 1 to {MAX_SHARDS}, got {text!r}")
    if not 1 <= pair[0] <= pair[1]:
        raise argparse.ArgumentTypeError(f"K must be from 1 to N, got {text!r}")
    return pair


def example_db(url: str) -> str:
    """An example database URL: one of :data:`EXAMPLE_DB_FORMS`, checked whole before
    the run starts (a URL its store would refuse mid-hunt is refused here, with why)."""
    if url.startswith("dir:") and url.removeprefix("dir:").strip("/"):
        return _directory_url(url)
    if url.startswith("redis://") and url.removeprefix("redis://").strip("/"):
        return _redis_url(url)
    if url.startswith("github-artifact:"):
        owner, slash, repo = url.removeprefix("github-artifact:").partition("/")
        if owner and slash and repo and "/" not in repo:
            return _github_url(url, owner, repo)
    raise argparse.ArgumentTypeError(
        f"expected one of {', '.join(EXAMPLE_DB_FORMS)}, got {_shown(url)!r}"
    )


def _shown(url: str) -> str:
    from conformance._redact import redacted

    return redacted(url)[:200]


def _refused(url: str, reason: str) -> argparse.ArgumentTypeError:
    return argparse.ArgumentTypeError(f"{reason}: {_shown(url)!r}")


def _directory_url(url: str) -> str:
    import os

    path = url.removeprefix("dir:")
    if os.path.exists(path) and not os.path.isdir(path):
        raise _refused(url, "dir:PATH names something that is not a directory")
    # A folder not there yet is made by the first example saved, inside one that is: a
    # misspelt path is refused before the run, not found lost (or made at the root) after.
    folder = path if os.path.isdir(path) else os.path.dirname(os.path.abspath(path))
    if not os.path.isdir(folder):
        raise _refused(url, "dir:PATH is in a folder that does not exist")
    if not os.access(folder, os.W_OK | os.X_OK):
        raise _refused(url, "dir:PATH is in a folder this user cannot write")
    return url


#: What a Redis URL's query may set: rttool's own time-outs are not to be changed.
REDIS_QUERY = ("db", "password", "username", "protocol", "client_name")
_MAX_PORT = 65535


def _redis_url(url: str) -> str:
    """``redis://[USER:PASSWORD@]HOST[:PORT][/DB][?password=...&db=...]``."""
    from urllib.parse import parse_qsl, urlsplit

    # urllib's own complaints quote the URL (a password's piece may be taken for a port):
    # each is said in rttool's words instead.
    try:
        parts = urlsplit(url)
    except ValueError:
        raise _refused(url, "not a Redis URL (an IPv6 address not closed by ])") from None
    try:
        port = parts.port
    except ValueError:
        raise _refused(url, f"the port must be a number from 1 to {_MAX_PORT}") from None
    if not parts.hostname:
        raise _refused(url, "a Redis URL names its host")
    if port == 0 or (port is not None and port > _MAX_PORT):
        raise _refused(url, f"the port must be a number from 1 to {_MAX_PORT}")
    if parts.fragment:
        raise _refused(url, "a Redis URL has no #fragment")
    database = parts.path.strip("/")
    if database and not (database.isdigit() and database.isascii()):
        raise _refused(url, "the path must be a database number (/0)")
    taken = ", ".join(REDIS_QUERY)
    for pair in parts.query.split("&") if parts.query else ():
        name, equals, _ = pair.partition("=")
        if not equals:  # a bare value, which may be a secret: never shown
            raise _refused(url, f"a Redis URL parameter is NAME=VALUE (taken: {taken})")
        if name not in REDIS_QUERY:
            shown = name[:40] if name.isidentifier() else "(not a name)"
            raise _refused(url, f"unknown Redis URL parameter {shown!r} (taken: {taken})")
    names = [name for name, _ in parse_qsl(parts.query, keep_blank_values=True)]
    if len(set(names)) < len(names):
        raise _refused(url, "a Redis URL parameter is given twice")
    values = dict(parse_qsl(parts.query, keep_blank_values=True))
    if not values.get("db", "0").isdigit():
        raise _refused(url, "db= must be a database number")
    if values.get("protocol", "2") not in ("2", "3"):
        raise _refused(url, "protocol= must be 2 or 3")
    return url


def _github_url(url: str, owner: str, repo: str) -> str:
    import re

    if not re.fullmatch(r"[A-Za-z0-9](?:[A-Za-z0-9-]{0,38})", owner):
        raise _refused(url, "not a GitHub owner name")
    if not re.fullmatch(r"[A-Za-z0-9._-]{1,100}", repo) or repo in (".", ".."):
        raise _refused(url, "not a GitHub repository name")
    return url
