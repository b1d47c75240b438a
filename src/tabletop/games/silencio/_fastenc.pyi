"""The compiled encoder (C source: _fastenc.c), used through `SilencioEncoder.encode_fast`."""

from array import array
from typing import Any

def encode(state: Any, seat: int, cfg: array[int], said_cache: dict[str, Any], /) -> bytearray | None: ...
def bind(names: tuple[str, ...], /) -> None: ...
