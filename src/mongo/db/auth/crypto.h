// The cryptographic primitives SCRAM needs, all from OpenSSL (libcrypto): hashes, HMAC,
// PBKDF2, a CSPRNG, base64, constant-time comparison. Nothing here is hand-written
// cryptography; this file only adapts OpenSSL's C API to std::string.
#pragma once

#include <string>

#include "mongo/base/status.h"
#include "mongo/base/string_data.h"

namespace mongo::auth {

enum class HashAlgorithm { kSha1, kSha256 };

/** Digest length in bytes: 20 for SHA-1, 32 for SHA-256. */
size_t digestLength(HashAlgorithm alg);
/** H(data). */
std::string hashOf(HashAlgorithm alg, StringData data);
/** HMAC(key, data). */
std::string hmacOf(HashAlgorithm alg, StringData key, StringData data);
/** PBKDF2 with HMAC-`alg` (RFC 8018): `digestLength(alg)` bytes. Cost O(iterations). */
std::string pbkdf2(HashAlgorithm alg, StringData password, StringData salt, int iterations);
/** `n` bytes from OpenSSL's CSPRNG. */
std::string secureRandomBytes(size_t n);
/** Lower-case hex MD5 of `data` (the SCRAM-SHA-1 password digest). */
std::string md5Hex(StringData data);

std::string base64Encode(StringData data);
/** BadValue unless `data` is well-formed padded base64. */
StatusWith<std::string> base64Decode(StringData data);

/** Equality in time independent of where the strings differ. */
bool constantTimeEquals(StringData a, StringData b);

}  // namespace mongo::auth
