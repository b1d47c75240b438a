"""The compiled encoder (C source: _fastenc.c), used through `SiliconVaniaEncoder.encode_fast`."""

from array import array
from typing import Any

def encode(state: Any, seat: int, cfg: array[int], /) -> bytearray: ...
def bind(names: tuple[str, ...], /) -> None: ...
