"""A compressed reply is decompressed a bounded piece at a time: a few kilobytes that
inflate to gigabytes are refused as too large without ever being inflated whole, and an
encoding rttool does not read (two layers, brotli) is the implementation's error."""

from __future__ import annotations

import zlib
from collections.abc import Iterator

import httpx
import pytest

from adapters._deadline import BodyTooLarge, read_capped

LIMIT = 1 << 20


class _Streamed(httpx.SyncByteStream):
    """A body read off the network in 4 KB pieces, as a real transport hands it on."""

    def __init__(self, data: bytes) -> None:
        self._data = data

    def __iter__(self) -> Iterator[bytes]:
        for start in range(0, len(self._data), 4096):
            yield self._data[start : start + 4096]


def _gzipped(data: bytes) -> bytes:
    packer = zlib.compressobj(9, zlib.DEFLATED, 31)
    return packer.compress(data) + packer.flush()


def _reply(body: bytes, encoding: str) -> httpx.Response:
    request = httpx.Request("POST", "http://impl.test/rttool")
    headers = {"Content-Encoding": encoding}
    return httpx.Response(200, headers=headers, stream=_Streamed(body), request=request)


def test_a_small_gzip_reply_is_read() -> None:
    assert read_capped(_reply(_gzipped(b'{"ok": true}'), "gzip"), limit=LIMIT, at=1e18) == (
        b'{"ok": true}'
    )


def test_a_reply_inflating_past_the_cap_is_refused_before_it_is_inflated_whole() -> None:
    bomb = _gzipped(b"\0" * (64 * LIMIT))  # 64 MiB of zeros in about 64 KB
    assert len(bomb) < LIMIT
    with pytest.raises(BodyTooLarge):
        read_capped(_reply(bomb, "gzip"), limit=LIMIT, at=1e18)


@pytest.mark.parametrize("encoding", ["gzip, gzip", "br", "zstd"])
def test_an_encoding_rttool_does_not_read_is_a_decoding_error(encoding: str) -> None:
    with pytest.raises(httpx.DecodingError, match="rttool reads one layer"):
        read_capped(_reply(_gzipped(_gzipped(b"{}")), encoding), limit=LIMIT, at=1e18)


def test_a_body_that_does_not_decompress_is_a_decoding_error() -> None:
    with pytest.raises(httpx.DecodingError, match="does not decompress"):
        read_capped(_reply(b"not gzip at all", "gzip"), limit=LIMIT, at=1e18)
