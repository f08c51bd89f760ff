"""What a model file may claim, checked before anything it claims is allocated.

A model file (an ``.npz`` policy, an SB3 ``.zip``, and the ``policy.pth`` inside one) is a zip
archive, and some of its numbers drive allocations and loops: the size of its directory, the
number of its members, each member's unpacked size, and inside the members a policy's layer
count, the shapes of its arrays and the length of its JSON. Each is checked against a bound
below before anything is done with it, so a damaged or hostile file is refused at once, with
one line that says what the file claims and what is allowed. ``zipfile`` never unpacks a member
past the size the directory declares for it, so checking declared sizes also bounds what a
compression bomb can unpack.

The bounds are far above what training makes and far below what strains a laptop:

| bound | value | what real models use |
| --- | --- | --- |
| ``MAX_FILE_BYTES`` | 1 GiB | the shipped ``ppo_v0.npz``: 1.1 MB; an SB3 zip of a 256 x 256 policy: 2.3 MB; a training checkpoint of the largest policy allowed (its critic, optimizer state and 8 snapshots beside it): about 0.9 GiB by estimate |
| ``MAX_LAYERS`` | 16 | the shipped policy and ``tressette train``'s default: 3 (two hidden, then the action head) |
| ``MAX_WIDTH`` | 4096 | inputs: the largest observation has 2026 entries (a perdere for 8 players, history observation); outputs: 161 or 255 actions; hidden: 256 shipped, 128 to 256 in the benchmarks |
| ``MAX_PARAMETERS`` | 2**24, 16.8 million | the shipped policy has 309,569 (54 times fewer); two hidden layers of 2048 over the largest observation have 8.9 million |
| ``MAX_JSON_BYTES`` | 4 MiB | an ``.npz``'s ``meta`` (NumPy stores 4 bytes a character: 1 Mi characters): 1,791 characters shipped; an SB3 zip's ``data``: 23 KB |
| ``MAX_ENTRY_BYTES`` | 256 MiB | one member read whole, unpacked (``policy.pth``, the actor and the critic): 2.3 MB for 256 x 256, 128 MiB for the largest policy in float32 |
| ``MAX_ENTRIES`` | 256 | members of an ``.npz``: 1 + 2 a layer, at most 33; of an SB3 zip: 6, 8 in a checkpoint; tensors in ``policy.pth``: 4 a hidden layer and 4 more, 64 at 16 layers (its records: 6 more) |
| ``MAX_DIRECTORY_BYTES`` | 1 MiB | a model's zip directory: 366 bytes shipped, 4.3 KB in ``policy.pth`` at 16 layers |
"""

from __future__ import annotations

import os
import struct
import zipfile
from pathlib import Path
from typing import BinaryIO

import numpy as np

MAX_FILE_BYTES = 2**30
"""The size of a model file on disk, at most."""
MAX_LAYERS = 16
"""A policy's layers (hidden ones and the action head), at most."""
MAX_WIDTH = 4096
"""Every dimension of every weight: inputs, hidden widths, actions; at least 1, at most this."""
MAX_PARAMETERS = 2**24
"""The numbers in a policy's weights and biases together, at most."""
MAX_JSON_BYTES = 2**22
"""An ``.npz``'s ``meta`` (4 bytes a character) or an SB3 zip's ``data`` entry, at most."""
MAX_ENTRY_BYTES = 2**28
"""The unpacked size of one archive member read whole (``policy.pth``, the records inside it together), at most."""
MAX_ENTRIES = 256
"""The members of one zip archive, or the tensors of one state dict, at most."""
MAX_DIRECTORY_BYTES = 2**20
"""The size of a zip archive's central directory (the list of its members), at most."""


class ModelFileError(ValueError):
    """A model file that cannot be played: damaged, of another kind, or not a policy of the right shape.

    The message is one line, ``<path>: <what is wrong>``; ``tressette eval`` prints it and exits with status 1.
    """

    def __init__(self, path: str | Path, problem: str):
        self.path = Path(path)
        self.problem = problem
        super().__init__(f"{path}: {problem}")

    def __reduce__(self):  # pickles (to and from worker processes) with both arguments
        return type(self), (self.path, self.problem)


def checked_file_size(path: Path, stream: BinaryIO) -> int:
    """The size of the open model file ``stream``, once it is known to be at most ``MAX_FILE_BYTES``."""
    size = os.fstat(stream.fileno()).st_size
    if size > MAX_FILE_BYTES:
        raise ModelFileError(path, f"a file of {size} bytes: a model file has at most {MAX_FILE_BYTES} (1 GiB)")
    return size


def checked_zip(path: Path, stream: BinaryIO, what: str = "") -> zipfile.ZipFile:
    """``stream`` opened as a zip archive, once its directory and its number of members are within bounds.

    ``what`` names the archive in errors when it is not the file itself (``"policy.pth: "``).

    Raises:
        ModelFileError: the directory is larger than ``MAX_DIRECTORY_BYTES``, or lists more
            than ``MAX_ENTRIES`` members.
        zipfile.BadZipFile, OSError, ValueError: not a readable zip archive (the caller says so in its words).
    """
    claimed = _directory_bytes(stream)
    if claimed is not None and claimed > MAX_DIRECTORY_BYTES:
        raise ModelFileError(
            path,
            f"{what}its zip directory claims {claimed} bytes: at most {MAX_DIRECTORY_BYTES} (a model's has a few KB)",
        )
    archive = zipfile.ZipFile(stream)
    count = len(archive.infolist())
    if count > MAX_ENTRIES:
        archive.close()
        raise ModelFileError(path, f"{what}{count} zip members: a model archive has at most {MAX_ENTRIES}")
    return archive


def checked_member(path: Path, archive: zipfile.ZipFile, name: str, limit: int) -> bytes:
    """The member ``name`` of ``archive``, unpacked, once its declared size is known to be at most ``limit`` bytes."""
    size = archive.getinfo(name).file_size
    if size > limit:
        raise ModelFileError(path, f"its {name!r} entry unpacks to {size} bytes: at most {limit}")
    return archive.read(name)


def npy_header(archive: zipfile.ZipFile, name: str) -> tuple[tuple[int, ...], np.dtype]:
    """The shape and dtype that the ``.npy`` member ``name`` declares, read from its header alone (no data)."""
    with archive.open(name) as stream:
        version = np.lib.format.read_magic(stream)
        if version == (1, 0):
            shape, _, dtype = np.lib.format.read_array_header_1_0(stream)
        elif version == (2, 0):
            shape, _, dtype = np.lib.format.read_array_header_2_0(stream)
        else:  # 3.0 is only written for field names outside Latin-1, never for numbers
            raise ValueError(f".npy format {version[0]}.{version[1]}: a policy's entries are in 1.0 or 2.0")
    return shape, dtype


def npy_array(archive: zipfile.ZipFile, name: str) -> np.ndarray:
    """The array in the ``.npy`` member ``name``: call only once its header (``npy_header``) has been checked."""
    with archive.open(name) as stream:
        return np.lib.format.read_array(stream, allow_pickle=False)


# The records at the end of a zip archive that say where its directory is and how large (APPNOTE 4.3.14-16).
_END = struct.Struct("<4s4H2LH")
_END_SIGNATURE = b"PK\x05\x06"
_ZIP64_LOCATOR = struct.Struct("<4sLQL")
_ZIP64_LOCATOR_SIGNATURE = b"PK\x06\x07"
_ZIP64_END = struct.Struct("<4sQ2H2L4Q")
_ZIP64_END_SIGNATURE = b"PK\x06\x06"


def _directory_bytes(stream: BinaryIO) -> int | None:
    """The size of the central directory that ``zipfile`` will read from ``stream``, or None when it finds no end record.

    The end records are looked for as ``zipfile`` looks for them: the end record at the very
    end, or the last one in the 64 KiB (its comment) before the end; then a zip64 record just
    before the zip64 locator, or where the locator points (``zipfile`` reads one of the two,
    depending on its version: the larger claim counts). Torch writes zip64 records in every
    ``policy.pth``.
    """
    stream.seek(0, os.SEEK_END)
    size = stream.tell()
    tail_start = max(size - _END.size - 0xFFFF, 0)
    stream.seek(tail_start)
    tail = stream.read()
    at = len(tail) - _END.size
    if not (at >= 0 and tail[at : at + 4] == _END_SIGNATURE and tail[-2:] == b"\0\0"):
        at = tail.rfind(_END_SIGNATURE)
    if at < 0 or len(tail) - at < _END.size:
        return None
    end = tail_start + at
    claims = []
    if end >= _ZIP64_LOCATOR.size:
        stream.seek(end - _ZIP64_LOCATOR.size)
        signature, _, pointed, _ = _ZIP64_LOCATOR.unpack(stream.read(_ZIP64_LOCATOR.size))
        if signature == _ZIP64_LOCATOR_SIGNATURE:
            for where in (end - _ZIP64_LOCATOR.size - _ZIP64_END.size, pointed):
                if 0 <= where <= size - _ZIP64_END.size:
                    stream.seek(where)
                    record = _ZIP64_END.unpack(stream.read(_ZIP64_END.size))
                    if record[0] == _ZIP64_END_SIGNATURE:
                        claims.append(record[8])
    if not claims:  # zipfile reads the zip64 record's size when there is one, else the end record's
        claims.append(_END.unpack_from(tail, at)[5])
    return max(claims)
