#!/usr/bin/env python3
"""Writes the seed corpora of the KeyString, DocDiff and match-expression fuzzers
(buildscripts/fuzz_corpus/<fuzzer>/seed-<n>). The pipeline fuzzer is grammar-aware and
needs no seeds. Input layouts are described at the top of each *_fuzzer.cpp."""
import os
import struct

HERE = os.path.dirname(os.path.abspath(__file__))


def cstr(s):
    return s.encode() + b'\0'


def elem(name, v):
    if isinstance(v, bool):
        return b'\x08' + cstr(name) + (b'\x01' if v else b'\x00')
    if v is None:
        return b'\x0a' + cstr(name)
    if isinstance(v, int):
        return b'\x10' + cstr(name) + struct.pack('<i', v)
    if isinstance(v, float):
        return b'\x01' + cstr(name) + struct.pack('<d', v)
    if isinstance(v, str):
        e = v.encode()
        return b'\x02' + cstr(name) + struct.pack('<i', len(e) + 1) + e + b'\0'
    if isinstance(v, bytes):
        return b'\x05' + cstr(name) + struct.pack('<i', len(v)) + b'\0' + v
    if isinstance(v, list):
        return b'\x04' + cstr(name) + doc([(str(i), x) for i, x in enumerate(v)])
    return b'\x03' + cstr(name) + doc(list(v.items()) if isinstance(v, dict) else v)


def doc(pairs):
    if isinstance(pairs, dict):
        pairs = list(pairs.items())
    body = b''.join(elem(k, v) for k, v in pairs) + b'\0'
    return struct.pack('<i', len(body) + 4) + body


def write(fuzzer, seeds):
    d = os.path.join(HERE, fuzzer)
    os.makedirs(d, exist_ok=True)
    for i, s in enumerate(seeds):
        with open(os.path.join(d, 'seed-%d' % i), 'wb') as f:
            f.write(s)


def key_string_input(order_bits, type_bits, key):
    return struct.pack('<I', order_bits) + bytes([len(type_bits)]) + type_bits + key


# Keys built by hand from src/mongo/db/storage/README.md: int 5, "ab", {x: 1}, [1, "a"],
# -2.5, true, null, MinKey / MaxKey, then a descending int.
KEYS = [
    (0, b'i', bytes([33, 1, 5, 0, 4])),
    (0, b's', bytes([60]) + b'ab' + bytes([0, 0, 4])),
    (0, b'i', bytes([70, 12]) + b'x\0' + bytes([33, 1, 1, 0, 0, 4])),
    (0, b'is', bytes([80, 12, 33, 1, 1, 0, 17, 60]) + b'a' + bytes([0, 0, 0, 4])),
    (0, b'd', bytes([31] + [0xff ^ b for b in [1, 2, 1] + list(struct.pack('>d', 0.5))]) + b'\x04'),
    (0, b'', bytes([111, 20, 10, 240, 4])),
    (1, b'i', bytes([0xff ^ b for b in [33, 1, 7, 0]]) + b'\x04'),
    (0, b'l', bytes([33, 1, 9, 0, 4]) + bytes(8)),
]

FILTERS = [
    {'a': 1},
    {'a': {'$gt': 0, '$lt': 5}},
    {'b': {'$in': ['abc', 'x']}},
    {'$or': [{'a': None}, {'c.d': {'$exists': True}}]},
    {'a': {'$elemMatch': {'b': {'$gte': 3}}}},
    {'b': {'$regex': '^a', '$options': 'i'}},
    {'a': {'$not': {'$type': 'string'}}},
    {'c': {'$size': 2}, 'a': {'$all': [1, 2]}},
    {'a': {'$mod': [2, 1]}},
    {'$nor': [{'b': 'ABC'}], '_id': {'$ne': 1}},
]

PRE = {'_id': 1, 'a': 1, 'b': 'x', 'c': {'d': 2}}
DIFFS = [
    {'u': {'a': 2}},
    {'d': {'b': False}, 'i': {'e': [1, 2]}},
    {'sc': {'u': {'d': 3}}},
    {'sarr': {'a': True, 'l': 2, 'u1': 5}},
    {'b': {'bin': {'o': 2, 'd': b'\x09\x09'}}},
]

if __name__ == '__main__':
    write('key_string_fuzzer', [key_string_input(*k) for k in KEYS])
    write('match_expression_fuzzer', [bytes([i % 2]) + doc(f) for i, f in enumerate(FILTERS)])
    write('doc_diff_fuzzer', [b'\x00' + doc(d) for d in DIFFS] +
          [b'\x00' + doc(PRE) + doc(d) for d in DIFFS[:3]] +
          [b'\x01' + bytes(range(7, 200, 3))])
