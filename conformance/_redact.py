"""Credentials out of everything rttool prints or writes (kept import-light).

An implementation spec may carry secrets: a password in a URL, a token in a query
string, an ``--api-key`` flag or an ``API_KEY=...`` prefix of a harness command.  The
adapters repeat the spec in their error messages, so every message bound for a report,
a file or the terminal goes through :func:`redacted`.
"""

from __future__ import annotations

import re

__all__ = ["redacted"]

# A name that *ends* in a credential word, in parts joined by ``_`` or ``-``:
# ``token``, ``api_key``, ``API-KEY``, ``client_secret``; never ``monkey`` or ``max_tokens``.
_WORD = r"(?:[a-z0-9]+[_-])*(?:api[_-]?key|key|token|secret|password|passwd)"
# A value: quoted (with the quotes), or up to a space, ``&`` or quote.
_VALUE = r"(\"[^\"]*\"|'[^']*'|[^\s&'\"]+)"
_USERINFO = re.compile(r"(?<=://)[^/@\s]+@")
# --api-key VALUE, --token=VALUE (a flag starts a word: ``non-token`` is no flag)
_FLAG = re.compile(rf"(?i)(?<![\w-])(--?{_WORD}[= ]){_VALUE}")
# API_KEY=VALUE (a command's environment), ?token=VALUE (a URL's query)
_ASSIGNMENT = re.compile(rf"(?i)(?<![\w-])({_WORD}=){_VALUE}")


def redacted(text: str) -> str:
    """``text`` with credentials replaced by ``***``: the user part of a URL, and the
    values of flags, variables and query parameters whose names speak of keys, tokens,
    secrets or passwords."""
    text = _USERINFO.sub("***@", text)
    text = _FLAG.sub(r"\1***", text)
    return _ASSIGNMENT.sub(r"\1***", text)
