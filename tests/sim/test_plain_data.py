"""nbl_sim.runs.plain_data through the cache: every plain-data value comes back with the same types
(a tuple stays a tuple, np.float32 stays np.float32, an int key stays an int), the same dict
order and bit-identical numbers — every float bit pattern (NaN payloads, -0.0, ±inf), every bool/int/uint/float/complex/
unicode array dtype and byte order, empty and 0-d arrays. Refusals and hostile entries:
test_cache_security.py."""

import struct

import numpy as np
import pytest
from hypothesis import example, given
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

from nbl_sim.runs.cache import ChunkCache
from nbl_sim.runs.plain_data import decode, encode


@pytest.fixture(scope="module")
def cache(tmp_path_factory):
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("NBL_CACHE_DIR", str(tmp_path_factory.mktemp("nbl-home")))
        yield ChunkCache(tmp_path_factory.mktemp("c"), "plain")


def _identical(a, b, where="value"):
    """Same type, same structure, same bits."""
    assert type(a) is type(b), (where, type(a), type(b))
    if isinstance(a, np.ndarray):
        assert a.dtype == b.dtype and a.dtype.str == b.dtype.str, where
        assert a.shape == b.shape and a.tobytes() == b.tobytes(), where
    elif isinstance(a, np.generic):
        assert a.dtype.str == b.dtype.str and a.tobytes() == b.tobytes(), where
    elif isinstance(a, float):
        assert struct.pack(">d", a) == struct.pack(">d", b), where
    elif isinstance(a, dict):
        assert len(a) == len(b), where
        for (ka, va), (kb, vb) in zip(a.items(), b.items()):
            _identical(ka, kb, f"a key of {where}")
            _identical(va, vb, f"{where}[{ka!r}]")
    elif isinstance(a, (list, tuple)):
        assert len(a) == len(b), where
        for i, (x, y) in enumerate(zip(a, b)):
            _identical(x, y, f"{where}[{i}]")
    else:
        assert a == b, where


_DTYPES = st.one_of(
    hnp.boolean_dtypes(),
    hnp.integer_dtypes(),
    hnp.unsigned_integer_dtypes(),
    hnp.floating_dtypes(),
    hnp.complex_number_dtypes(),
    hnp.unicode_string_dtypes(min_len=1, max_len=6),
)
_ARRAYS = _DTYPES.flatmap(
    lambda dt: hnp.arrays(dt, hnp.array_shapes(min_dims=0, max_dims=3, min_side=0, max_side=4))
)
_FLOAT_BITS = st.integers(0, 2**64 - 1).map(lambda b: struct.unpack(">d", b.to_bytes(8, "big"))[0])
_KEYS = st.recursive(
    st.one_of(
        st.none(),
        st.booleans(),
        st.integers(),
        st.floats(),
        st.text(),
        st.integers(-5, 5).map(np.int64),
    ),
    lambda inner: st.lists(inner, max_size=3).map(tuple),
    max_leaves=5,
)
_LEAVES = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(),
    _FLOAT_BITS,
    st.floats(),
    st.text(max_size=8),
    _ARRAYS,
    _ARRAYS.filter(lambda a: a.ndim == 0).map(lambda a: a[()]),
)
_VALUES = st.recursive(
    _LEAVES,
    lambda inner: st.one_of(
        st.lists(inner, max_size=4),
        st.lists(inner, max_size=4).map(tuple),
        st.dictionaries(st.text(max_size=6), inner, max_size=4),
        st.dictionaries(_KEYS, inner, max_size=4),
    ),
    max_leaves=25,
)


@given(_VALUES)
@example({"lambda_star": np.array([-0.0236965]), "sign": ["unstable"], "t": (1, 2.5, None)})
@example(
    [
        struct.unpack(">d", bytes.fromhex("7ff0000000000001"))[0],  # signalling NaN
        struct.unpack(">d", bytes.fromhex("fff8000000000000"))[0],  # negative quiet NaN
        -0.0,
        float("inf"),
        -float("inf"),
        5e-324,
        2**70,
        -(2**70),
    ]
)
@example({"\ud800": "lone \udfff surrogates", "": [], "z": {}, "a": ()})
@example(
    {
        2: {"mean": [1.0]},
        5: None,
        (1, "a"): 0.5,
        None: 1,
        np.int64(7): (),
        2.5: "f",
        float("nan"): 1,
        float("nan"): 2,
        -0.0: "negative zero",
    }
)
@example(
    [
        np.float32("nan"),
        np.int8(-1),
        np.uint64(2**64 - 1),
        np.bool_(True),
        np.complex64(1 - 2j),
        np.array([], dtype=">f8").reshape(0, 3),
        np.array(["delta", "mu2"]),
        np.str_("text"),
    ]
)
def test_round_trip_is_exact(cache, value):
    tree, arrays = encode(value)
    _identical(decode(tree, arrays), value)
    cache.put("roundtrip", value)
    hit, back = cache.get("roundtrip")
    assert hit
    _identical(back, value)


def test_entry_holds_the_structure_as_json_and_the_arrays_as_npz(cache):
    import json

    cache.put("layout", {"x": np.arange(3.0), "s": "text", "n": 2})
    js = cache._path("layout")
    entry = json.loads(js.read_text())
    assert entry["schema"] == "nbl-cache-entry" and entry["version"] == 1
    assert entry["value"] == {"dict": {"x": {"array": 0}, "s": "text", "n": 2}}
    assert entry["arrays"] == [{"dtype": "<f8", "shape": [3]}]
    with np.load(js.with_suffix(".npz"), allow_pickle=False) as npz:
        assert npz.files == ["a0"] and npz["a0"].tolist() == [0.0, 1.0, 2.0]
    cache.put("no-arrays", [1, "a"])
    assert not cache._path("no-arrays").with_suffix(".npz").exists()
