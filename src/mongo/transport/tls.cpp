#include "mongo/transport/tls.h"

#include <openssl/bio.h>
#include <openssl/x509.h>

#include <memory>

namespace mongo {

StatusWith<TlsMode> parseTlsMode(StringData name) {
    if (name == "disabled")
        return TlsMode::kDisabled;
    if (name == "allowTLS" || name == "allowSSL")
        return TlsMode::kAllowTLS;
    if (name == "preferTLS" || name == "preferSSL")
        return TlsMode::kPreferTLS;
    if (name == "requireTLS" || name == "requireSSL")
        return TlsMode::kRequireTLS;
    return Status(ErrorCodes::BadValue, "unsupported value for tlsMode " + std::string(name));
}

StringData tlsModeName(TlsMode mode) {
    switch (mode) {
        case TlsMode::kDisabled:
            return "disabled";
        case TlsMode::kAllowTLS:
            return "allowTLS";
        case TlsMode::kPreferTLS:
            return "preferTLS";
        case TlsMode::kRequireTLS:
            return "requireTLS";
    }
    return "disabled";
}

StatusWith<unsigned> parseTlsDisabledProtocols(StringData list) {
    if (list == "none")
        return 0u;
    unsigned bits = 0;
    std::size_t start = 0;
    const std::string s(list);
    while (start <= s.size()) {
        std::size_t comma = s.find(',', start);
        if (comma == std::string::npos)
            comma = s.size();
        const std::string item = s.substr(start, comma - start);
        if (item == "TLS1_0")
            bits |= kTls1_0;
        else if (item == "TLS1_1")
            bits |= kTls1_1;
        else if (item == "TLS1_2")
            bits |= kTls1_2;
        else if (item == "TLS1_3")
            bits |= kTls1_3;
        else
            return Status(ErrorCodes::BadValue, "Unrecognized disabledProtocols '" + item + "'");
        start = comma + 1;
    }
    if (bits == (kTls1_0 | kTls1_1 | kTls1_2 | kTls1_3))
        return Status(ErrorCodes::BadValue, "tlsDisabledProtocols disables every TLS version");
    return bits;
}

Status validateTlsOptions(const TlsOptions& o) {
    if (o.mode != TlsMode::kDisabled) {
        if (o.certificateKeyFile.empty())
            return Status(ErrorCodes::BadValue,
                          "need tlsCertificateKeyFile or certificateSelector when TLS is enabled");
        return Status::OK();
    }
    if (!o.certificateKeyFile.empty() || !o.certificateKeyFilePassword.empty() ||
        !o.caFile.empty() || o.disabledProtocolsGiven || o.allowConnectionsWithoutCertificates)
        return Status(ErrorCodes::BadValue,
                      "need to enable TLS via the sslMode/tlsMode flag when using TLS "
                      "configuration parameters");
    return Status::OK();
}

std::string x509NameToRfc2253(const X509_NAME* name) {
    if (!name)
        return {};
    std::unique_ptr<BIO, decltype(&BIO_free)> bio(BIO_new(BIO_s_mem()), &BIO_free);
    if (!bio)
        return {};
    // RFC 2253 escaping, but multi-byte UTF-8 is kept rather than printed as \XX.
    const unsigned long flags = XN_FLAG_RFC2253 & ~ASN1_STRFLGS_ESC_MSB;
    if (X509_NAME_print_ex(bio.get(), name, 0, flags) < 0)
        return {};
    char* data = nullptr;
    const long len = BIO_get_mem_data(bio.get(), &data);
    return len > 0 ? std::string(data, static_cast<std::size_t>(len)) : std::string();
}

}  // namespace mongo
