#include "mongo/db/auth/scram.h"

#include <vector>

#include "mongo/bson/bsonobjbuilder.h"

namespace mongo::auth {
namespace {

constexpr StringData kIterationCount = "iterationCount";
constexpr StringData kSalt = "salt";
constexpr StringData kStoredKey = "storedKey";
constexpr StringData kServerKey = "serverKey";

Status malformed(const std::string& what) {
    return Status(ErrorCodes::BadValue, "Incorrect SCRAM " + what);
}

std::vector<std::string> splitComma(StringData s) {
    std::vector<std::string> out;
    size_t start = 0;
    while (true) {
        size_t comma = s.find(',', start);
        out.emplace_back(
            s.substr(start, comma == StringData::npos ? StringData::npos : comma - start));
        if (comma == StringData::npos)
            return out;
        start = comma + 1;
    }
}

/** "n=alice" -> "alice" when the attribute letter matches. */
bool attribute(const std::string& part, char letter, std::string* value) {
    if (part.size() < 2 || part[0] != letter || part[1] != '=')
        return false;
    *value = part.substr(2);
    return true;
}

/** RFC 5802 saslname: "=2C" is ',' and "=3D" is '='; any other '=' is malformed. */
StatusWith<std::string> decodeSaslName(const std::string& s) {
    std::string out;
    for (size_t i = 0; i < s.size(); ++i) {
        if (s[i] != '=') {
            out += s[i];
        } else if (s.compare(i, 3, "=2C") == 0) {
            out += ',';
            i += 2;
        } else if (s.compare(i, 3, "=3D") == 0) {
            out += '=';
            i += 2;
        } else {
            return malformed("user name encoding");
        }
    }
    return out;
}

std::string xorBytes(StringData a, StringData b) {
    std::string out(a.size(), '\0');
    for (size_t i = 0; i < a.size(); ++i)
        out[i] = static_cast<char>(a[i] ^ b[i]);
    return out;
}

}  // namespace

std::optional<HashAlgorithm> scramAlgorithm(StringData mechanism) {
    if (mechanism == kScramSha1)
        return HashAlgorithm::kSha1;
    if (mechanism == kScramSha256)
        return HashAlgorithm::kSha256;
    return std::nullopt;
}

StringData mechanismName(HashAlgorithm alg) {
    return alg == HashAlgorithm::kSha1 ? kScramSha1 : kScramSha256;
}

BSONObj ScramCredentials::toBSON() const {
    return BSON(kIterationCount << iterationCount << kSalt << salt << kStoredKey << storedKey
                                << kServerKey << serverKey);
}

StatusWith<ScramCredentials> ScramCredentials::parse(const BSONObj& obj) {
    ScramCredentials c;
    BSONElement it = obj[kIterationCount];
    if (!it.isNumber())
        return Status(ErrorCodes::TypeMismatch, "SCRAM credentials lack a numeric iterationCount");
    c.iterationCount = it.numberInt();
    for (auto [name, field] : {std::pair{kSalt, &c.salt}, std::pair{kStoredKey, &c.storedKey},
                               std::pair{kServerKey, &c.serverKey}}) {
        BSONElement e = obj[name];
        if (e.type() != BSONType::kString)
            return Status(ErrorCodes::TypeMismatch,
                          "SCRAM credentials lack a string " + std::string(name));
        *field = std::string(e.valueStringData());
    }
    return c;
}

std::string mongoPasswordDigest(StringData user, StringData password) {
    return md5Hex(std::string(user) + ":mongo:" + std::string(password));
}

ScramCredentials generateScramCredentialsWithSalt(HashAlgorithm alg, StringData password,
                                                  StringData rawSalt, int iterations) {
    std::string salted = pbkdf2(alg, password, rawSalt, iterations);
    std::string clientKey = hmacOf(alg, salted, "Client Key");
    ScramCredentials c;
    c.iterationCount = iterations;
    c.salt = base64Encode(rawSalt);
    c.storedKey = base64Encode(hashOf(alg, clientKey));
    c.serverKey = base64Encode(hmacOf(alg, salted, "Server Key"));
    return c;
}

ScramCredentials generateScramCredentials(HashAlgorithm alg, StringData password, int iterations) {
    return generateScramCredentialsWithSalt(alg, password, secureRandomBytes(digestLength(alg) - 4),
                                            iterations);
}

StatusWith<std::string> ScramServerConversation::step(StringData input) {
    switch (_state) {
        case State::kStart:
            return _first(input);
        case State::kSentServerFirst:
            return _final(input);
        case State::kProofVerified:
            _state = State::kDone;
            return std::string();
        case State::kDone:
            break;
    }
    return Status(ErrorCodes::ProtocolError, "SCRAM conversation already completed");
}

StatusWith<std::string> ScramServerConversation::_first(StringData input) {
    // gs2-header "n,," (or "y,,"; "p=" asks for channel binding, which we do not offer),
    // then client-first-message-bare "n=<user>,r=<nonce>[,extensions]".
    if (input.size() < 3 || (input[0] != 'n' && input[0] != 'y') || input[1] != ',')
        return malformed("client-first message: bad gs2 header");
    size_t authzEnd = input.find(',', 2);
    if (authzEnd == StringData::npos)
        return malformed("client-first message");
    if (authzEnd != 2)
        return Status(ErrorCodes::BadValue, "SCRAM authorization identities are not supported");
    _clientFirstBare = std::string(input.substr(authzEnd + 1));
    auto parts = splitComma(_clientFirstBare);
    std::string rawUser, clientNonce;
    if (parts.size() < 2 || !attribute(parts[0], 'n', &rawUser) ||
        !attribute(parts[1], 'r', &clientNonce) || clientNonce.empty())
        return malformed("client-first message");
    auto user = decodeSaslName(rawUser);
    if (!user.isOK())
        return user.getStatus();
    _user = user.getValue();

    auto creds = _lookup(_user);
    if (!creds.isOK())
        return creds.getStatus();
    _creds = creds.getValue();
    if (!base64Decode(_creds.salt).isOK() || _creds.iterationCount <= 0)
        return Status(ErrorCodes::AuthenticationFailed, "Stored SCRAM credentials are malformed");

    std::string serverNonce =
        _fixedNonce.empty() ? base64Encode(secureRandomBytes(24)) : _fixedNonce;
    _nonce = clientNonce + serverNonce;
    _serverFirst =
        "r=" + _nonce + ",s=" + _creds.salt + ",i=" + std::to_string(_creds.iterationCount);
    _state = State::kSentServerFirst;
    return _serverFirst;
}

StatusWith<std::string> ScramServerConversation::_final(StringData input) {
    // client-final-message: "c=<base64 gs2 header>,r=<nonce>[,ext],p=<proof>"
    size_t proofAt = input.rfind(",p=");
    if (proofAt == StringData::npos)
        return malformed("client-final message: no proof");
    std::string withoutProof(input.substr(0, proofAt));
    auto parts = splitComma(withoutProof);
    std::string binding, nonce;
    if (parts.size() < 2 || !attribute(parts[0], 'c', &binding) ||
        !attribute(parts[1], 'r', &nonce))
        return malformed("client-final message");
    if (binding != "biws" && binding != "eSws")  // base64 of "n,," and "y,,"
        return Status(ErrorCodes::BadValue, "SCRAM channel binding is not supported");
    if (nonce != _nonce)
        return Status(ErrorCodes::BadValue, "Unmatched SCRAM nonce received from client");
    auto proof = base64Decode(input.substr(proofAt + 3));
    if (!proof.isOK() || proof.getValue().size() != digestLength(_alg))
        return malformed("client proof");

    auto storedKey = base64Decode(_creds.storedKey);
    auto serverKey = base64Decode(_creds.serverKey);
    if (!storedKey.isOK() || !serverKey.isOK())
        return Status(ErrorCodes::AuthenticationFailed, "Stored SCRAM credentials are malformed");
    const std::string authMessage = _clientFirstBare + "," + _serverFirst + "," + withoutProof;
    std::string clientSignature = hmacOf(_alg, storedKey.getValue(), authMessage);
    std::string clientKey = xorBytes(proof.getValue(), clientSignature);
    if (!constantTimeEquals(hashOf(_alg, clientKey), storedKey.getValue()))
        return Status(ErrorCodes::AuthenticationFailed,
                      "SCRAM authentication failed, storedKey mismatch");
    _state = State::kProofVerified;
    return "v=" + base64Encode(hmacOf(_alg, serverKey.getValue(), authMessage));
}

}  // namespace mongo::auth
