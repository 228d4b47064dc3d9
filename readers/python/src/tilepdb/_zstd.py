"""The zstd decoder: the ``zstandard`` package, or on Python >= 3.14 the
standard library's ``compression.zstd`` when ``zstandard`` is not installed.

Both wrap libzstd, which verifies each frame's content checksum (RFC 8878
section 3.1.1) when the frame has one; a mismatch is reported as an error
whose message mentions the checksum.
"""

from __future__ import annotations

try:
    import zstandard as _zstandard

    ZstdError: type[Exception] = _zstandard.ZstdError
    _dctx = _zstandard.ZstdDecompressor()

    def decompress(frame, size: int) -> bytes:
        """Decompresses one zstd frame whose header records its content size (checked by the caller)."""
        return _dctx.decompress(frame, max_output_size=size)

    BACKEND = f"zstandard {_zstandard.__version__}"
except ImportError:  # pragma: no cover - Python >= 3.14 without zstandard
    from compression import zstd as _stdzstd  # type: ignore[import-not-found]

    ZstdError = _stdzstd.ZstdError

    def decompress(frame, size: int) -> bytes:
        """Decompresses one zstd frame whose header records its content size (checked by the caller)."""
        return _stdzstd.decompress(bytes(frame))

    BACKEND = "compression.zstd"


def is_checksum_error(e: Exception) -> bool:
    """Whether a decoder error is a content checksum mismatch (SPEC class *checksum*)."""
    return "checksum" in str(e).lower()
