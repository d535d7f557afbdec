"""Credentials out of everything rttool prints, writes, logs or uses as a key (kept
import-light): the one redaction.

An implementation spec (``--impl``) and an example database URL (``--example-db``) may
carry secrets, and so may the environment a command line was expanded from:

* the user part of a URL (``redis://:PASSWORD@host``, ``http://user:pass@host``);
* every value of a URL's query (``redis://host/0?password=...``, ``http://host/?session=...``:
  any of them may be a credential, so none is shown) and of an in-process spec's
  options (``python:module:create?region=...``), but for the reference runtime's own
  ``mutant`` and ``variant``, which rttool itself names;
* the value of a flag, variable or parameter whose name speaks of a key, token, secret,
  password or credential (``--api-key VALUE``, ``API_KEY=VALUE``, ``token=VALUE``), an
  authorization header's value and a bearer token (``Bearer VALUE``);
* the value of any environment variable so named (``GITHUB_TOKEN``) wherever it appears
  (a command line expanded by the shell carries it bare).

The adapters repeat the spec in their error messages, so every message bound for a
report, a file or the terminal goes through :func:`redacted`; nothing of a spec or URL
is ever a key of a shared store (``conformance/hunt/_database.py`` scopes its keys by a
digest of the implementation's handshake).
"""

from __future__ import annotations

import os
import re
from collections.abc import Mapping

__all__ = ["HIDDEN", "redacted"]

#: What stands in for a credential.
HIDDEN = "***"

# A name that *ends* in a credential word, in parts joined by ``_`` or ``-``:
# ``token``, ``api_key``, ``API-KEY``, ``client_secret``, ``GITHUB_PAT``, ``NPM_AUTH``;
# never ``monkey`` or ``max_tokens``.  A pass word may end a part of its own
# (``PGPASS``, ``PGPASSWORD``, ``SLACKTOKEN``); ``PWD`` is the working folder, no secret.
_WORD = (
    r"(?:[a-z0-9]+[_-]+)*(?:[a-z0-9]*(?:password|passwd|passphrase|pass|token|secret)"
    r"|api[_-]?key|key|pat|auth|cookie|credentials?)"
)
_NAME = re.compile(rf"(?i){_WORD}")
# A value: quoted (with the quotes), or up to a space, ``&`` or quote.
_VALUE = r"(\"[^\"]*\"|'[^']*'|[^\s&'\"]+)"
# ``scheme://`` then everything to the last ``@`` of the URL: a password may hold an
# ``@`` or a ``/`` of its own, and all of it goes (with it, in a URL whose path or query
# holds an ``@``, what comes before: shown too little rather than too much).
_USERINFO = re.compile(r"(?i)(?<=://)[^\s'\"<>]*@")
# A URL's query: ``scheme://...?`` then the pairs, up to a space, a quote or ``#``.
_URL_QUERY = re.compile(r"(?i)(\b[a-z][a-z0-9+.-]*://[^\s?#'\"<>]*\?)([^\s#'\"<>]*)")
# An in-process spec's options: ``python:module:attribute?...``.
_SPEC_QUERY = re.compile(r"(\bpython:[\w.]+:[\w.]+\?)([^\s#'\"<>]*)")
#: Options rttool itself gives the reference runtime: shown, never a credential.
_OWN_OPTIONS = frozenset({"mutant", "variant"})
# --api-key VALUE, --token=VALUE (a flag starts a word: ``non-token`` is no flag)
_FLAG = re.compile(rf"(?i)(?<![\w-])(--?{_WORD}[= ]){_VALUE}")
# API_KEY=VALUE (a command's environment), ?token=VALUE (a URL's query)
_ASSIGNMENT = re.compile(rf"(?i)(?<![\w-])({_WORD}=){_VALUE}")
# A space, or one a command line escapes (``Bearer\\ VALUE``, as a shell splits it).
_SPACE = r"(?:\\?\s)"
_BEARER = re.compile(rf"(?i)\b(bearer{_SPACE}+)([^\s'\"]+)")
# Authorization: Basic VALUE, Authorization=VALUE (a header, or a header option)
_AUTHORIZATION = re.compile(
    rf"(?i)(\bauthorization{_SPACE}*[:=]{_SPACE}*)"
    rf"(?:(?:basic|bearer|digest|token){_SPACE}+)?[^\s'\"\\]+"
)
#: An environment value shorter than this is not looked for: ``1`` or ``true`` are in
#: every text, and are no secret.
_SHORTEST_SECRET = 6


def _hidden_pairs(query: str, *, shown: frozenset[str] = frozenset()) -> str:
    pairs = []
    for pair in query.split("&"):
        name, equals, _ = pair.partition("=")
        if not pair or (equals and name in shown):
            pairs.append(pair)
        else:
            pairs.append(f"{name}={HIDDEN}" if equals else HIDDEN)
    return "&".join(pairs)


def _environment_secrets(environ: Mapping[str, str]) -> list[str]:
    """The values of the environment's credential variables, longest first."""
    found = {
        value
        for name, value in environ.items()
        if _NAME.fullmatch(name) and len(value) >= _SHORTEST_SECRET
    }
    return sorted(found, key=len, reverse=True)


def redacted(text: str, environ: Mapping[str, str] | None = None) -> str:
    """``text`` with every credential replaced by ``***`` (see the module's list);
    ``environ`` is the environment whose credential variables are looked for (the
    process's when not given)."""
    for secret in _environment_secrets(os.environ if environ is None else environ):
        text = text.replace(secret, HIDDEN)
    text = _USERINFO.sub(f"{HIDDEN}@", text)
    text = _URL_QUERY.sub(lambda m: m.group(1) + _hidden_pairs(m.group(2)), text)
    text = _SPEC_QUERY.sub(
        lambda m: m.group(1) + _hidden_pairs(m.group(2), shown=_OWN_OPTIONS), text
    )
    text = _FLAG.sub(rf"\1{HIDDEN}", text)
    text = _AUTHORIZATION.sub(rf"\1{HIDDEN}", text)
    text = _BEARER.sub(rf"\1{HIDDEN}", text)
    return _ASSIGNMENT.sub(rf"\1{HIDDEN}", text)
