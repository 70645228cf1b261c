"""Raw wire helpers shared by the client tests that start their own mongod: a free port, a
connection, one OP_MSG command round trip (pymongo would hide what these tests look at:
connection counts, refusals, start-up failures)."""
import socket
import struct

import bson


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def recv_exact(sock, n):
    buf = b""
    while len(buf) < n:
        chunk = sock.recv(n - len(buf))
        if not chunk:
            raise ConnectionError("closed by the server")
        buf += chunk
    return buf


def command(sock, doc, request_id=1):
    """One OP_MSG round trip; returns the reply document."""
    body = b"\x00\x00\x00\x00" + b"\x00" + bson.BSON.encode(doc)
    sock.sendall(struct.pack("<iiii", 16 + len(body), request_id, 0, 2013) + body)
    length, = struct.unpack("<i", recv_exact(sock, 4))
    rest = recv_exact(sock, length - 4)
    return bson.BSON(rest[12 + 4 + 1:]).decode()


def connect(port):
    s = socket.create_connection(("127.0.0.1", port), timeout=10)
    return s
