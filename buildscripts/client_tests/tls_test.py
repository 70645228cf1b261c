#!/usr/bin/python3
"""TLS and MONGODB-X509 with real clients.

Throw-away certificates are made at test time by the openssl CLI in a temporary directory
(a CA, a server certificate for 127.0.0.1/localhost, client certificates, and a client
certificate from another CA); nothing is kept. Checks: start-up refusals (exit code 2);
requireTLS with --auth (plain clients refused, untrusted and missing client certificates
refused, X.509 login as a $external user with pymongo, the Node driver (speculative, in
hello) and mongosh, a role check, upstream's codes for a wrong name (18) and an unknown
user (11), connectionStatus, serverStatus.security; SCRAM-SHA-256 and SCRAM-SHA-1 logins over
TLS with right and wrong passwords (18), no credentials (13), a readWrite user on a time-series
collection); preferTLS from a YAML config file
(plain and TLS clients on one port, no client certificate needed); allowTLS without a CA
file; tlsAllowInvalidCertificates (the connection is let in, X.509 login is not); maxConns and
the disconnect poller with TLS sessions; disabled.
Prints one line per check and `N passed, M failed`.
Usage: tls_test.py --mongod PATH
"""
import argparse
import datetime
import json
import os
import shutil
import socket
import ssl
import struct
import subprocess
import sys
import tempfile
import time

import bson
import pymongo
from pymongo.errors import OperationFailure, PyMongoError

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
results = []
ALICE = "CN=alice,OU=clients,O=tsmongod test,C=US"
BOB = "CN=bob,OU=clients,O=tsmongod test,C=US"


def check(name, ok, detail=""):
    results.append(bool(ok))
    print("[tls] %s %s%s" % ("PASS" if ok else "FAIL", name,
                             (": " + str(detail)) if detail and not ok else ""), flush=True)


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def openssl(*args, cwd):
    subprocess.run(["openssl"] + list(args), cwd=cwd, check=True, capture_output=True)


def make_certs(d):
    """CA, server, alice and bob (signed by the CA), mallory (same subject as alice, other CA)."""
    ec = ["-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes"]
    for ca in ("ca", "otherca"):
        openssl("req", "-x509", *ec, "-keyout", ca + ".key", "-out", ca + ".pem", "-days", "2",
                "-subj", "/O=tsmongod test/CN=%s" % ca, cwd=d)
    with open(os.path.join(d, "server.ext"), "w") as f:
        f.write("subjectAltName=IP:127.0.0.1,DNS:localhost\n")
    with open(os.path.join(d, "client.ext"), "w") as f:
        f.write("extendedKeyUsage=clientAuth\n")
    certs = [("server", "/O=tsmongod test/OU=servers/CN=localhost", "ca", "server.ext"),
             ("alice", "/C=US/O=tsmongod test/OU=clients/CN=alice", "ca", "client.ext"),
             ("bob", "/C=US/O=tsmongod test/OU=clients/CN=bob", "ca", "client.ext"),
             ("mallory", "/C=US/O=tsmongod test/OU=clients/CN=alice", "otherca", "client.ext")]
    for name, subj, ca, ext in certs:
        openssl("req", *ec, "-keyout", name + ".key", "-out", name + ".csr", "-subj", subj,
                cwd=d)
        openssl("x509", "-req", "-in", name + ".csr", "-CA", ca + ".pem", "-CAkey", ca + ".key",
                "-CAcreateserial", "-out", name + ".crt", "-days", "2", "-extfile", ext, cwd=d)
        with open(os.path.join(d, name + ".pem"), "w") as out:
            for part in (name + ".crt", name + ".key"):
                with open(os.path.join(d, part)) as f:
                    out.write(f.read())
    # The server key again, encrypted, for --tlsCertificateKeyFilePassword.
    openssl("pkey", "-in", "server.key", "-aes256", "-passout", "pass:s3cret", "-out",
            "server-enc.key", cwd=d)
    with open(os.path.join(d, "server-enc.pem"), "w") as out:
        for part in ("server.crt", "server-enc.key"):
            with open(os.path.join(d, part)) as f:
                out.write(f.read())
    return {n: os.path.join(d, n + ".pem") for n in
            ("ca", "otherca", "server", "alice", "bob", "mallory", "server-enc")}


class Mongod:
    def __init__(self, path, workdir, name, args):
        self.dbpath = os.path.join(workdir, name)
        os.makedirs(self.dbpath, exist_ok=True)
        self.port = free_port()
        self.args = [path, "--dbpath", self.dbpath, "--port", str(self.port), "--bind_ip",
                     "127.0.0.1", "--logpath", os.path.join(self.dbpath, "mongod.log")] + args
        self.proc = None

    def start(self, ready):
        self.proc = subprocess.Popen(self.args, stdout=subprocess.DEVNULL,
                                     stderr=subprocess.DEVNULL)
        deadline = time.time() + 60
        while time.time() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError("mongod exited with %d" % self.proc.returncode)
            probe = ready(self)
            try:
                probe.admin.command("ping")
                return self
            except Exception:
                time.sleep(0.2)
            finally:
                probe.close()
        raise RuntimeError("mongod did not start")

    def client(self, **kw):
        kw.setdefault("serverSelectionTimeoutMS", 3000)
        return pymongo.MongoClient("127.0.0.1", self.port, **kw)

    def log(self):
        with open(os.path.join(self.dbpath, "mongod.log")) as f:
            return f.read()

    def stop(self):
        if self.proc and self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(30)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()


def fails_to_connect(client):
    try:
        client.admin.command("ping")
        return False
    except PyMongoError:
        return True
    finally:
        client.close()


def code_of(fn):
    try:
        fn()
        return None
    except OperationFailure as e:
        return e.code


def startup_refusals(mongod, work, certs):
    cases = [
        ("requireTLS without a certificate key file",
         ["--tlsMode", "requireTLS", "--tlsCAFile", certs["ca"]],
         "need tlsCertificateKeyFile or certificateSelector when TLS is enabled"),
        ("a CA file without a TLS mode", ["--tlsCAFile", certs["ca"]],
         "need to enable TLS via the sslMode/tlsMode flag when using TLS configuration "
         "parameters"),
        ("an unknown tlsMode", ["--tlsMode", "sometimesTLS"],
         "unsupported value for tlsMode sometimesTLS"),
        ("an unknown disabled protocol",
         ["--tlsMode", "requireTLS", "--tlsCertificateKeyFile", certs["server"],
          "--tlsDisabledProtocols", "SSL3"], "Unrecognized disabledProtocols 'SSL3'"),
    ]
    for name, args, message in cases:
        dbpath = tempfile.mkdtemp(dir=work)
        out = subprocess.run([mongod, "--dbpath", dbpath, "--port", str(free_port())] + args,
                             capture_output=True, text=True, timeout=60)
        check("start-up refused (exit 2): " + name,
              out.returncode == 2 and message in out.stdout + out.stderr,
              "rc=%d %s" % (out.returncode, (out.stdout + out.stderr)[-500:]))
    dbpath = tempfile.mkdtemp(dir=work)
    out = subprocess.run([mongod, "--dbpath", dbpath, "--port", str(free_port()), "--tlsMode",
                          "requireTLS", "--tlsCertificateKeyFile", certs["server-enc"],
                          "--tlsCertificateKeyFilePassword", "wrong"],
                         capture_output=True, text=True, timeout=60)
    check("start-up refused: an encrypted key with the wrong password",
          out.returncode != 0 and
          "InvalidSSLConfiguration: cannot read PEM key file" in out.stdout + out.stderr,
          "rc=%d %s" % (out.returncode, (out.stdout + out.stderr)[-500:]))


def require_tls_steps(mongod, work, certs):
    m = Mongod(mongod, work, "require", [
        "--auth", "--tlsMode", "requireTLS", "--tlsCertificateKeyFile", certs["server-enc"],
        "--tlsCertificateKeyFilePassword", "s3cret", "--tlsCAFile", certs["ca"]])
    tls = {"tls": True, "tlsCAFile": certs["ca"]}
    m.start(lambda m: m.client(tlsCertificateKeyFile=certs["alice"], **tls))
    try:
        check("requireTLS: a plain client is refused", fails_to_connect(m.client()))
        check("requireTLS: the log names the refused plain connection",
              "The server is configured to only allow SSL connections" in m.log())
        check("TLS 1.0 is disabled by default (log 23285)",
              "Automatically disabling TLS 1.0" in m.log())
        check("requireTLS: a client without a certificate is refused (CA file given)",
              fails_to_connect(m.client(**tls)))
        check("requireTLS: a certificate from another CA is refused",
              fails_to_connect(m.client(tlsCertificateKeyFile=certs["mallory"], **tls)))
        # The first user through the localhost exception (over TLS), then the X.509 user.
        c = m.client(tlsCertificateKeyFile=certs["alice"], **tls)
        c.admin.command("createUser", "admin", pwd="apw", roles=["root"])
        c.close()
        admin = m.client(tlsCertificateKeyFile=certs["alice"], username="admin", password="apw",
                         authSource="admin", **tls)
        admin["$external"].command("createUser", ALICE,
                                   roles=[{"role": "read", "db": "test"}])
        admin.test.c.insert_many([{"_id": i} for i in range(3)])
        scram_over_tls(m, certs, tls, admin)
        st = admin.admin.command("serverStatus")["security"]
        check("serverStatus.security names the server certificate",
              st.get("SSLServerSubjectName") == "CN=localhost,OU=servers,O=tsmongod test" and
              st.get("SSLServerHasCertificateAuthority") is True and
              "SSLServerCertificateExpirationDate" in st, st)

        x = m.client(tlsCertificateKeyFile=certs["alice"], authMechanism="MONGODB-X509", **tls)
        users = x.test.command("connectionStatus")["authInfo"]["authenticatedUsers"]
        check("pymongo: MONGODB-X509 login as the certificate subject",
              users == [{"user": ALICE, "db": "$external"}], users)
        check("pymongo: the X.509 user reads with its read role",
              x.test.c.count_documents({}) == 3)
        check("pymongo: the X.509 user's insert fails with 13 Unauthorized",
              code_of(lambda: x.test.c.insert_one({"_id": 9})) == 13)
        x.close()

        raw = m.client(tlsCertificateKeyFile=certs["alice"], **tls)
        reply = raw["$external"].command("authenticate", mechanism="MONGODB-X509")
        check("authenticate without a user name replies {user, dbname}",
              reply.get("user") == ALICE and reply.get("dbname") == "$external", reply)
        check("authenticate with another user's name fails with 18",
              code_of(lambda: raw["$external"].command("authenticate", user=BOB,
                                                        mechanism="MONGODB-X509")) == 18)
        check("authenticate on a database other than $external fails with 17 ProtocolError",
              code_of(lambda: raw.test.command("authenticate", mechanism="MONGODB-X509")) == 17)
        check("authenticate with another mechanism fails with 18",
              code_of(lambda: raw["$external"].command("authenticate", mechanism="PLAIN")) == 18)
        raw.close()
        b = m.client(tlsCertificateKeyFile=certs["bob"], **tls)
        check("authenticate as a certificate without a $external user fails with 11",
              code_of(lambda: b["$external"].command("authenticate",
                                                     mechanism="MONGODB-X509")) == 11)
        b.close()
        s = m.client(tlsCertificateKeyFile=certs["alice"], **tls)
        r = s["$external"].command("saslStart", mechanism="MONGODB-X509", payload=b"")
        users = s.test.command("connectionStatus")["authInfo"]["authenticatedUsers"]
        check("saslStart MONGODB-X509 logs in in one step",
              r.get("done") is True and users == [{"user": ALICE, "db": "$external"}], r)
        s.close()
        node_steps(m, certs)
        mongosh_steps(m, certs)
        admin.close()
    finally:
        m.stop()


def scram_over_tls(m, certs, tls, admin):
    """The SCRAM acceptance steps of issue #13, over a requireTLS connection."""
    def who(c):
        return c.test.command("connectionStatus")["authInfo"]["authenticatedUsers"]
    for mech in ("SCRAM-SHA-256", "SCRAM-SHA-1"):
        c = m.client(tlsCertificateKeyFile=certs["alice"], username="admin", password="apw",
                     authSource="admin", authMechanism=mech, **tls)
        check("TLS: %s login with the right password" % mech,
              who(c) == [{"user": "admin", "db": "admin"}])
        c.close()
        bad = m.client(tlsCertificateKeyFile=certs["alice"], username="admin", password="nope",
                       authSource="admin", authMechanism=mech, **tls)
        check("TLS: %s with a wrong password fails with 18" % mech,
              code_of(lambda: bad.admin.command("ping")) == 18)
        bad.close()
    anon = m.client(tlsCertificateKeyFile=certs["alice"], **tls)
    check("TLS: find without credentials fails with 13",
          code_of(lambda: anon.test.c.find_one()) == 13)
    anon.close()
    admin.admin.command("createUser", "writer", pwd="wpw",
                        roles=[{"role": "readWrite", "db": "tsdb"}])
    admin.tsdb.create_collection("ts", timeseries={"timeField": "t", "metaField": "m"})
    w = m.client(tlsCertificateKeyFile=certs["alice"], username="writer", password="wpw",
                 authSource="admin", **tls)
    w.tsdb.ts.insert_many([{"t": datetime.datetime(2024, 1, 1, 0, i), "m": 1, "v": i}
                           for i in range(5)])
    n = list(w.tsdb.ts.aggregate([{"$count": "n"}]))
    check("TLS: a readWrite user inserts into and aggregates a time-series collection",
          n == [{"n": 5}], n)
    # readWrite holds dropCollection (as upstream's role does) but not dropDatabase.
    check("TLS: the readWrite user's dropDatabase fails with 13",
          code_of(lambda: w.drop_database("tsdb")) == 13)
    w.close()


def node_steps(m, certs):
    script = r"""
const {MongoClient} = require('mongodb');
(async () => {
  const uri = `mongodb://127.0.0.1:${process.argv[1]}/?tls=true&authMechanism=MONGODB-X509`;
  const c = new MongoClient(uri, {tlsCAFile: process.argv[2],
                                  tlsCertificateKeyFile: process.argv[3],
                                  serverSelectionTimeoutMS: 5000});
  await c.connect();
  const st = await c.db('test').command({connectionStatus: 1});
  const n = await c.db('test').collection('c').countDocuments({});
  let code = null;
  try { await c.db('test').collection('c').insertOne({_id: 100}); } catch (e) { code = e.code; }
  console.log(JSON.stringify({users: st.authInfo.authenticatedUsers, n, code}));
  await c.close();
})().catch(e => { console.log('ERROR ' + e); process.exit(1); });
"""
    out = subprocess.run(["node", "-e", script, str(m.port), certs["ca"], certs["alice"]],
                         capture_output=True, text=True, timeout=120, cwd=ROOT)
    try:
        res = json.loads(out.stdout.strip().splitlines()[-1])
    except Exception:
        res = {}
    check("Node driver: MONGODB-X509 login, read allowed, insert 13",
          res.get("users") == [{"user": ALICE, "db": "$external"}] and res.get("n") == 3 and
          res.get("code") == 13, out.stdout + out.stderr[-1500:])
    check("Node driver: the login was speculative (in hello)",
          '"isSpeculative":true,"isClusterMember":false,"mechanism":"MONGODB-X509"' in m.log())


def mongosh_steps(m, certs):
    mongosh = os.path.join(ROOT, "node_modules", ".bin", "mongosh")
    env = dict(os.environ, MONGOSH_FORCE_DISABLE_TELEMETRY_FOR_TESTING="1")
    out = subprocess.run([mongosh, "--quiet", "--norc", "--tls", "--tlsCAFile", certs["ca"],
                          "--tlsCertificateKeyFile", certs["alice"], "--authenticationMechanism",
                          "MONGODB-X509", "--authenticationDatabase", "$external",
                          "mongodb://127.0.0.1:%d/test" % m.port, "--eval",
                          "print(JSON.stringify(db.runCommand({connectionStatus: 1}).authInfo"
                          ".authenticatedUsers)); print(db.c.countDocuments({}));"],
                         capture_output=True, text=True, timeout=120, env=env)
    check("mongosh --tls: MONGODB-X509 login and a read",
          ALICE in out.stdout and out.stdout.strip().endswith("3"),
          out.stdout + out.stderr[-1000:])
    plain = subprocess.run([mongosh, "--quiet", "--norc", "mongodb://127.0.0.1:%d/test" % m.port,
                            "--eval", "print('connected')"], capture_output=True, text=True,
                           timeout=120, env=env)
    check("mongosh without --tls cannot connect under requireTLS",
          plain.returncode != 0 and "connected" not in plain.stdout,
          plain.stdout + plain.stderr[-500:])


def prefer_tls_steps(mongod, work, certs):
    conf = os.path.join(work, "prefer.conf")
    with open(conf, "w") as f:
        f.write("net:\n  tls:\n    mode: preferTLS\n    certificateKeyFile: %s\n"
                "    CAFile: %s\n    allowConnectionsWithoutCertificates: true\n"
                % (certs["server"], certs["ca"]))
    m = Mongod(mongod, work, "prefer", ["--config", conf])
    m.start(lambda m: m.client())
    try:
        check("preferTLS (YAML net.tls): a plain client works", m.client().test.c.insert_one({}))
        t = m.client(tls=True, tlsCAFile=certs["ca"])
        check("preferTLS: a TLS client without a certificate works",
              t.test.c.count_documents({}) == 1)
        opts = t.admin.command("getCmdLineOpts")["parsed"]["net"]["tls"]
        check("getCmdLineOpts shows net.tls from the config file",
              opts.get("mode") == "preferTLS", opts)
        t.close()
        check("preferTLS: a certificate from another CA is still refused",
              fails_to_connect(m.client(tls=True, tlsCAFile=certs["ca"],
                                        tlsCertificateKeyFile=certs["mallory"])))
        c = m.client(tls=True, tlsCAFile=certs["ca"], tlsCertificateKeyFile=certs["alice"])
        check("preferTLS: a trusted client certificate works", c.admin.command("ping")["ok"])
        c.close()
    finally:
        m.stop()


def allow_tls_steps(mongod, work, certs):
    m = Mongod(mongod, work, "allow", ["--tlsMode", "allowTLS", "--tlsCertificateKeyFile",
                                        certs["server"], "--tlsDisabledProtocols", "none"])
    m.start(lambda m: m.client())
    try:
        check("allowTLS: a plain client works", m.client().admin.command("ping")["ok"])
        check("--tlsDisabledProtocols none: TLS 1.0 is not disabled",
              "Automatically disabling TLS 1.0" not in m.log())
        t = m.client(tls=True, tlsCAFile=certs["ca"], tlsCertificateKeyFile=certs["mallory"])
        check("allowTLS without a CA file: client certificates are not checked",
              t.admin.command("ping")["ok"])
        check("allowTLS without a CA file: no verified subject, so X.509 fails with 18",
              code_of(lambda: t["$external"].command("authenticate",
                                                     mechanism="MONGODB-X509")) == 18)
        t.close()
        check("allowTLS: the TLS client was not sent to a plain session",
              fails_to_connect(m.client(tls=True, tlsCAFile=certs["otherca"])))
    finally:
        m.stop()


def invalid_certs_steps(mongod, work, certs):
    m = Mongod(mongod, work, "invalid", [
        "--tlsMode", "requireTLS", "--tlsCertificateKeyFile", certs["server"], "--tlsCAFile",
        certs["ca"], "--tlsAllowInvalidCertificates"])
    tls = {"tls": True, "tlsCAFile": certs["ca"]}
    m.start(lambda m: m.client(tlsCertificateKeyFile=certs["alice"], **tls))
    try:
        bad = m.client(tlsCertificateKeyFile=certs["mallory"], **tls)
        check("tlsAllowInvalidCertificates: an untrusted client certificate connects",
              bad.admin.command("ping")["ok"])
        m.client(tlsCertificateKeyFile=certs["alice"], **tls)["$external"].command(
            "createUser", ALICE, roles=[{"role": "read", "db": "test"}])
        check("tlsAllowInvalidCertificates: but its subject is not used for X.509 (18)",
              code_of(lambda: bad["$external"].command("authenticate",
                                                       mechanism="MONGODB-X509")) == 18)
        check("tlsAllowInvalidCertificates: the log names the failed validation",
              "SSL peer certificate validation failed" in m.log())
        bad.close()
    finally:
        m.stop()


def tls_socket(port, certs):
    ctx = ssl.create_default_context(cafile=certs["ca"])
    sock = socket.create_connection(("127.0.0.1", port), timeout=10)
    return ctx.wrap_socket(sock, server_hostname="localhost")


def send_op_msg(sock, doc):
    body = struct.pack("<i", 0) + b"\x00" + bson.BSON.encode(doc)
    sock.sendall(struct.pack("<iiii", 16 + len(body), 7, 0, 2013) + body)


def recv_reply(sock):
    def exact(n):
        buf = b""
        while len(buf) < n:
            chunk = sock.recv(n - len(buf))
            if not chunk:
                raise ConnectionError("closed")
            buf += chunk
        return buf
    header = exact(16)
    length = struct.unpack("<i", header[:4])[0]
    return bson.BSON(exact(length - 16)[5:]).decode()


def connection_limits_steps(mongod, work, certs):
    """maxConns and the disconnect poller with TLS sessions (no CA file: no client certs)."""
    m = Mongod(mongod, work, "limits", [
        "--tlsMode", "requireTLS", "--tlsCertificateKeyFile", certs["server"], "--maxConns", "5",
        "--setParameter", "enableTestCommands=1"])
    tls = {"tls": True, "tlsCAFile": certs["ca"]}
    m.start(lambda m: m.client(**tls))
    socks = []
    try:
        # The readiness probe's connections end asynchronously: wait for them.
        deadline = time.time() + 10
        while time.time() < deadline and m.log().count('"Connection ended"') < \
                m.log().count('"Connection accepted"'):
            time.sleep(0.1)
        c = m.client(**tls)  # a monitoring and an application connection
        c.admin.command("ping")
        for _ in range(3):
            s = tls_socket(m.port, certs)
            send_op_msg(s, {"ping": 1, "$db": "admin"})
            recv_reply(s)
            socks.append(s)
        refused = False
        try:
            extra = tls_socket(m.port, certs)
            send_op_msg(extra, {"ping": 1, "$db": "admin"})
            recv_reply(extra)
        except (OSError, ConnectionError, ssl.SSLError):
            refused = True
        check("maxConns 5: a sixth TLS connection is closed", refused)
        socks.pop().close()
        time.sleep(0.5)
        conns = c.admin.command("serverStatus")["connections"]
        check("maxConns: serverStatus counts TLS sessions",
              conns["current"] + conns["available"] == 5, conns)

        c.admin.command("configureFailPoint", "failCommand", mode="alwaysOn",
                        data={"failCommands": ["find"], "blockConnection": True,
                              "blockTimeMS": 30000})
        blocked = socks.pop()
        send_op_msg(blocked, {"find": "blockme", "$db": "test"})

        def running():
            return list(c.admin.aggregate([{"$currentOp": {"allUsers": True}},
                                           {"$match": {"command.find": "blockme"}}]))
        deadline = time.time() + 10
        while time.time() < deadline and not running():
            time.sleep(0.1)
        seen = bool(running())
        blocked.close()
        deadline = time.time() + 5
        while time.time() < deadline and running():
            time.sleep(0.1)
        check("a TLS client hanging up stops its running operation (disconnect poller)",
              seen and not running(), "seen=%s running=%s" % (seen, running()))
        c.admin.command("configureFailPoint", "failCommand", mode="off")
        c.close()
    finally:
        for s in socks:
            s.close()
        m.stop()


def disabled_steps(mongod, work, certs):
    m = Mongod(mongod, work, "disabled", [])
    m.start(lambda m: m.client())
    try:
        check("tlsMode disabled: a TLS client cannot connect",
              fails_to_connect(m.client(tls=True, tlsCAFile=certs["ca"])))
        check("tlsMode disabled: plain clients still work",
              m.client().admin.command("ping")["ok"])
    finally:
        m.stop()


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--mongod", required=True)
    args = ap.parse_args()
    mongod = os.path.abspath(args.mongod)
    work = tempfile.mkdtemp(prefix="tls-test-")
    try:
        certs = make_certs(work)
        for steps in (startup_refusals, require_tls_steps, prefer_tls_steps, allow_tls_steps,
                      invalid_certs_steps, connection_limits_steps, disabled_steps):
            try:
                steps(mongod, work, certs)
            except Exception as e:  # a crashed scenario is a failure, the others still run
                check(steps.__name__ + " ran", False, repr(e))
    finally:
        shutil.rmtree(work, ignore_errors=True)
    passed = sum(results)
    print("%d passed, %d failed" % (passed, len(results) - passed))
    return 0 if passed == len(results) else 1


if __name__ == "__main__":
    sys.exit(main())
