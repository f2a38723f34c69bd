"""Gzip a cached page whose only per-reader part is a short token (the CSRF token), without
compressing the whole page for every reader.

`prepare()` cuts the page at the token's placeholder and compresses each part once into
deflate blocks that end on a byte boundary; `assemble()` puts the parts and the reader's
token (compressed on its own, a few bytes) together into one valid gzip stream. The gzip
trailer's CRC-32 of the whole text is combined from the parts' CRCs the way zlib's
`crc32_combine` does it, with the "append n zero bytes" operators computed in `prepare()`.
"""

from __future__ import annotations

import struct
import zlib
from functools import lru_cache

GZIP_HEADER = b"\x1f\x8b\x08\x00\x00\x00\x00\x00\x00\xff"  # deflate, no name, mtime 0
_IDENTITY = tuple(1 << n for n in range(32))


def _times(matrix, vector: int) -> int:
    total, i = 0, 0
    while vector:
        if vector & 1:
            total ^= matrix[i]
        vector >>= 1
        i += 1
    return total


def _compose(a, b) -> tuple[int, ...]:
    return tuple(_times(a, column) for column in b)


@lru_cache(maxsize=64)
def zeros_operator(length: int) -> tuple[int, ...]:
    """The GF(2) matrix that advances a CRC-32 over `length` zero bytes."""
    bit = (0xEDB88320, *(1 << n for n in range(31)))  # one zero bit
    power = bit
    for _ in range(3):
        power = _compose(power, power)  # 2, 4, 8 zero bits: one zero byte
    result = _IDENTITY
    while length:
        if length & 1:
            result = _compose(power, result)
        length >>= 1
        if length:
            power = _compose(power, power)  # 2, 4, 8 ... zero bytes
    return result


def crc32_combine(crc1: int, crc2: int, operator) -> int:
    """CRC-32 of A+B from crc(A), crc(B) and zeros_operator(len(B))."""
    return _times(operator, crc1) ^ crc2


def _deflate(data: bytes, *, final: bool) -> bytes:
    packer = zlib.compressobj(6, zlib.DEFLATED, -15)
    return packer.compress(data) + packer.flush(zlib.Z_FINISH if final else zlib.Z_SYNC_FLUSH)


def prepare(page: bytes, placeholder: bytes) -> dict:
    parts = page.split(placeholder)
    last = len(parts) - 1
    return {
        "chunks": [_deflate(p, final=i == last) for i, p in enumerate(parts)],
        "crcs": [zlib.crc32(p) for p in parts],
        "ops": [zeros_operator(len(p)) for p in parts],
        "lengths": [len(p) for p in parts],
    }


def assemble(prepared: dict, token: bytes) -> bytes:
    token_block = _deflate(token, final=False)
    token_crc, token_op = zlib.crc32(token), zeros_operator(len(token))
    chunks, crcs, ops, lengths = (
        prepared["chunks"],
        prepared["crcs"],
        prepared["ops"],
        prepared["lengths"],
    )
    out = [GZIP_HEADER, chunks[0]]
    crc, size = crcs[0], lengths[0]
    for i in range(1, len(chunks)):
        out.append(token_block)
        crc = crc32_combine(crc, token_crc, token_op)
        out.append(chunks[i])
        crc = crc32_combine(crc, crcs[i], ops[i])
        size += len(token) + lengths[i]
    out.append(struct.pack("<II", crc & 0xFFFFFFFF, size & 0xFFFFFFFF))
    return b"".join(out)
