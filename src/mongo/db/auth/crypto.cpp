#include "mongo/db/auth/crypto.h"

#include <openssl/crypto.h>
#include <openssl/evp.h>
#include <openssl/hmac.h>
#include <openssl/rand.h>

#include "mongo/util/assert_util.h"

namespace mongo::auth {
namespace {

const EVP_MD* md(HashAlgorithm alg) {
    return alg == HashAlgorithm::kSha1 ? EVP_sha1() : EVP_sha256();
}

const unsigned char* bytes(StringData s) {
    return reinterpret_cast<const unsigned char*>(s.data());
}

}  // namespace

size_t digestLength(HashAlgorithm alg) {
    return alg == HashAlgorithm::kSha1 ? 20 : 32;
}

std::string hashOf(HashAlgorithm alg, StringData data) {
    unsigned char out[EVP_MAX_MD_SIZE];
    unsigned int len = 0;
    invariant(EVP_Digest(data.data(), data.size(), out, &len, md(alg), nullptr) == 1);
    return std::string(reinterpret_cast<char*>(out), len);
}

std::string hmacOf(HashAlgorithm alg, StringData key, StringData data) {
    unsigned char out[EVP_MAX_MD_SIZE];
    unsigned int len = 0;
    invariant(HMAC(md(alg), key.data(), static_cast<int>(key.size()), bytes(data), data.size(), out,
                   &len) != nullptr);
    return std::string(reinterpret_cast<char*>(out), len);
}

std::string pbkdf2(HashAlgorithm alg, StringData password, StringData salt, int iterations) {
    std::string out(digestLength(alg), '\0');
    invariant(PKCS5_PBKDF2_HMAC(password.data(), static_cast<int>(password.size()), bytes(salt),
                                static_cast<int>(salt.size()), iterations, md(alg),
                                static_cast<int>(out.size()),
                                reinterpret_cast<unsigned char*>(out.data())) == 1);
    return out;
}

std::string secureRandomBytes(size_t n) {
    std::string out(n, '\0');
    invariant(RAND_bytes(reinterpret_cast<unsigned char*>(out.data()), static_cast<int>(n)) == 1);
    return out;
}

std::string md5Hex(StringData data) {
    unsigned char out[EVP_MAX_MD_SIZE];
    unsigned int len = 0;
    invariant(EVP_Digest(data.data(), data.size(), out, &len, EVP_md5(), nullptr) == 1);
    static const char* kHex = "0123456789abcdef";
    std::string hex;
    for (unsigned int i = 0; i < len; ++i) {
        hex += kHex[out[i] >> 4];
        hex += kHex[out[i] & 0xf];
    }
    return hex;
}

std::string base64Encode(StringData data) {
    std::string out(4 * ((data.size() + 2) / 3) + 1, '\0');
    int n = EVP_EncodeBlock(reinterpret_cast<unsigned char*>(out.data()), bytes(data),
                            static_cast<int>(data.size()));
    out.resize(n);
    return out;
}

StatusWith<std::string> base64Decode(StringData data) {
    if (data.size() % 4 != 0)
        return Status(ErrorCodes::BadValue, "Invalid base64 length");
    for (char c : data) {
        if (!(isalnum(static_cast<unsigned char>(c)) || c == '+' || c == '/' || c == '='))
            return Status(ErrorCodes::BadValue, "Invalid base64 character");
    }
    std::string out(data.size() / 4 * 3 + 1, '\0');
    int n = EVP_DecodeBlock(reinterpret_cast<unsigned char*>(out.data()), bytes(data),
                            static_cast<int>(data.size()));
    if (n < 0)
        return Status(ErrorCodes::BadValue, "Invalid base64");
    // EVP_DecodeBlock counts padding as zero bytes.
    size_t pad = 0;
    if (data.size() >= 1 && data[data.size() - 1] == '=')
        ++pad;
    if (data.size() >= 2 && data[data.size() - 2] == '=')
        ++pad;
    out.resize(n - pad);
    return out;
}

bool constantTimeEquals(StringData a, StringData b) {
    return a.size() == b.size() && CRYPTO_memcmp(a.data(), b.data(), a.size()) == 0;
}

}  // namespace mongo::auth
