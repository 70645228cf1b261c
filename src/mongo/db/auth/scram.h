// SCRAM (RFC 5802, RFC 7677) as MongoDB uses it: the stored credential format of
// admin.system.users (`credentials.SCRAM-SHA-1` / `credentials.SCRAM-SHA-256`), and the
// server side of one SASL conversation. SCRAM-SHA-1 hashes the MongoDB password digest
// (hex MD5 of "user:mongo:pwd"); SCRAM-SHA-256 the SASLprep'ed password.
#pragma once

#include <functional>
#include <optional>
#include <string>

#include "mongo/base/status.h"
#include "mongo/bson/bsonobj.h"
#include "mongo/db/auth/crypto.h"

namespace mongo::auth {

constexpr StringData kScramSha1 = "SCRAM-SHA-1";
constexpr StringData kScramSha256 = "SCRAM-SHA-256";

/** The algorithm of a mechanism name, or nullopt for a mechanism that is not SCRAM. */
std::optional<HashAlgorithm> scramAlgorithm(StringData mechanism);
StringData mechanismName(HashAlgorithm alg);

/** One mechanism's stored credential: {iterationCount, salt, storedKey, serverKey} (base64). */
struct ScramCredentials {
    int iterationCount = 0;
    std::string salt;       // base64
    std::string storedKey;  // base64
    std::string serverKey;  // base64

    BSONObj toBSON() const;
    /** BadValue/TypeMismatch when a field is missing or malformed. */
    static StatusWith<ScramCredentials> parse(const BSONObj& obj);
};

/** "user:mongo:pwd" hashed with MD5, hex: the password SCRAM-SHA-1 salts. */
std::string mongoPasswordDigest(StringData user, StringData password);

/**
 * Credentials for `password` (already digested for SHA-1 or SASLprep'ed for SHA-256) with a
 * fresh random salt (hash length - 4 bytes, as upstream). Cost O(iterations).
 */
ScramCredentials generateScramCredentials(HashAlgorithm alg, StringData password, int iterations);
/** The same with a given raw salt (test vectors). */
ScramCredentials generateScramCredentialsWithSalt(HashAlgorithm alg, StringData password,
                                                  StringData rawSalt, int iterations);

/**
 * The server side of one SCRAM conversation. step() takes the client's message and
 * returns the server's reply: client-first -> server-first, client-final -> server-final
 * ("v=..."), then (when the client did not ask to skip it) an empty final exchange.
 * Errors: AuthenticationFailed 18 for a wrong proof or an unknown user, BadValue 2 for a
 * malformed message, ProtocolError 17 for a step out of order.
 */
class ScramServerConversation {
public:
    /** Finds the stored credentials of a user for this mechanism (UserNotFound 11 etc.). */
    using CredentialLookup = std::function<StatusWith<ScramCredentials>(const std::string& user)>;

    ScramServerConversation(HashAlgorithm alg, CredentialLookup lookup)
        : _alg(alg), _lookup(std::move(lookup)) {}

    StatusWith<std::string> step(StringData input);

    /** True once the empty exchange after the server-final message is over. */
    bool isDone() const {
        return _state == State::kDone;
    }
    /** True once the client's proof was verified. */
    bool proofVerified() const {
        return _state == State::kProofVerified || _state == State::kDone;
    }
    /** The user name the client gave (un-escaped), once the first step ran. */
    const std::string& userName() const {
        return _user;
    }
    HashAlgorithm algorithm() const {
        return _alg;
    }
    /** Fixes the server nonce (tests only). */
    void setServerNonceForTest(std::string nonce) {
        _fixedNonce = std::move(nonce);
    }

private:
    enum class State { kStart, kSentServerFirst, kProofVerified, kDone };
    StatusWith<std::string> _first(StringData input);
    StatusWith<std::string> _final(StringData input);

    HashAlgorithm _alg;
    CredentialLookup _lookup;
    State _state = State::kStart;
    std::string _user;
    std::string _nonce;
    std::string _clientFirstBare;
    std::string _serverFirst;
    std::string _fixedNonce;
    ScramCredentials _creds;
};

}  // namespace mongo::auth
