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
