#!/usr/bin/python3
"""Writes the small HDF5 files the bad-input corpus refers to (data.h5, corrupt.h5). The outputs are committed;
rerun only to change them: /usr/bin/python3 tests/bad_inputs/make_h5.py (Debian's python3-numpy, python3-h5py)."""
import os

import h5py
import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))

# data.h5 holds one well-formed dataset for the DEPTH_TO_SPACE1 cases ({1,4,1,2} UINT32) plus datasets that are
# wrong for that tensor in exactly one way each, so every case that uses them fails for a single reason.
with h5py.File(os.path.join(HERE, "data.h5"), "w") as f:
    good = np.arange(10, 18, dtype=np.uint32).reshape(1, 4, 1, 2)
    f["/d2s/input"] = good
    f["/d2s/input_float32"] = good.astype(np.float32)  # right shape, wrong element type
    f["/d2s/input_2x4"] = good.reshape(2, 4)  # right type and count, wrong shape (neither Sizes nor 1-D)

# corrupt.h5 is random bytes: not an HDF5 file, though its name says so. Seeded so the file is reproducible.
with open(os.path.join(HERE, "corrupt.h5"), "wb") as f:
    f.write(np.random.default_rng(20240607).integers(0, 256, size=1024, dtype=np.uint8).tobytes())

# generated/h5/: fixtures for the generated corpus (gen_corpus.py), one wrong thing per dataset for the
# DEPTH_TO_SPACE1 input {1,4,1,2}. They sit below generated/ because a case may not read above its own directory.
H5_DIR = os.path.join(HERE, "generated", "h5")
os.makedirs(H5_DIR, exist_ok=True)
FIXTURES = os.path.join(H5_DIR, "fixtures.h5")
with h5py.File(FIXTURES, "w") as f:
    good = np.arange(8, dtype=np.uint32).reshape(1, 4, 1, 2)
    f["/int32"] = good.astype(np.int32)  # signed for an unsigned tensor
    f["/float16"] = good.astype(np.float16)  # half for a FLOAT32 tensor
    f["/strings"] = np.array([b"a"] * 8).reshape(1, 4, 1, 2)
    f["/compound"] = np.zeros((1, 4, 1, 2), dtype=[("x", np.uint32), ("y", np.uint32)])
    f["/bool"] = np.zeros((1, 4, 1, 2), dtype=bool)
    f["/rank3"] = good.reshape(1, 4, 2)
    f["/flat_9"] = np.arange(9, dtype=np.uint32)
    f["/scalar"] = np.uint32(7)
    f["/empty"] = np.zeros((0,), dtype=np.uint32)
    f["/dangling"] = h5py.SoftLink("/no/such/object")
    f["/external"] = h5py.ExternalLink("elsewhere.h5", "/data")
    # Raw data in a separate file next to this one, and a virtual dataset mapping another file's data.
    f.create_dataset("/external_storage", shape=(1, 4, 1, 2), dtype=np.uint32,
                     external=[("external_raw.bin", 0, 32)])
    layout = h5py.VirtualLayout(shape=(1, 4, 1, 2), dtype=np.uint32)
    layout[...] = h5py.VirtualSource("elsewhere.h5", "/data", shape=(1, 4, 1, 2))
    f.create_virtual_dataset("/virtual", layout)
with open(os.path.join(H5_DIR, "external_raw.bin"), "wb") as f:
    f.write(np.arange(8, dtype=np.uint32).tobytes())
with open(FIXTURES, "rb") as f:
    head = f.read(1024)
with open(os.path.join(H5_DIR, "truncated.h5"), "wb") as f:
    f.write(head)  # a valid superblock whose objects lie beyond the end of the file
open(os.path.join(H5_DIR, "empty.h5"), "wb").close()
with open(os.path.join(H5_DIR, "text.h5"), "w") as f:
    f.write("not HDF5: a text file with an .h5 name\n")
