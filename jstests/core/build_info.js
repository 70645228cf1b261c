/**
 * buildInfo says what the binary links: the allocator (gperftools' tcmalloc, which the build
 * links into mongod, in 8.0's name "tcmalloc-gperf") and the OpenSSL that TLS and SCRAM use.
 */
const info = assert.commandWorked(db.adminCommand({buildInfo: 1}));
assert.eq("tcmalloc-gperf", info.allocator, tojson(info));
assert(/^OpenSSL \d+\.\d+/.test(info.openssl.running), tojson(info.openssl));
assert(/^OpenSSL \d+\.\d+/.test(info.openssl.compiled), tojson(info.openssl));
assert.eq(info.version, info.versionArray.slice(0, 3).join("."), tojson(info));
