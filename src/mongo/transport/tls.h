// TLS settings of the listener (--tlsMode, --tlsCertificateKeyFile, ...): parsing and
// upstream's start-up checks, and the RFC 2253 form of a certificate subject that
// MONGODB-X509 uses as the user name. The handshake itself is in transport_layer.cpp.
#pragma once

#include <string>

#include "mongo/base/status.h"
#include "mongo/base/string_data.h"

typedef struct X509_name_st X509_NAME;

namespace mongo {

enum class TlsMode { kDisabled, kAllowTLS, kPreferTLS, kRequireTLS };

/** "disabled", "allowTLS", "preferTLS", "requireTLS" (the *SSL spellings too, as upstream). */
StatusWith<TlsMode> parseTlsMode(StringData name);
StringData tlsModeName(TlsMode mode);

/** Bits of TlsOptions::disabledProtocols. */
enum TlsProtocol : unsigned { kTls1_0 = 1, kTls1_1 = 2, kTls1_2 = 4, kTls1_3 = 8 };

/**
 * --tlsDisabledProtocols: a comma-separated list of TLS1_0, TLS1_1, TLS1_2, TLS1_3, or
 * "none". Returns the bit set. BadValue for anything else.
 */
StatusWith<unsigned> parseTlsDisabledProtocols(StringData list);

struct TlsOptions {
    TlsMode mode = TlsMode::kDisabled;
    std::string certificateKeyFile;          // PEM: certificate chain and private key
    std::string certificateKeyFilePassword;  // for an encrypted private key
    std::string caFile;                      // verifies client certificates; none: not asked
    bool allowInvalidCertificates = false;
    bool allowConnectionsWithoutCertificates = false;
    bool disabledProtocolsGiven = false;
    /** TLS 1.0 is off unless --tlsDisabledProtocols says otherwise (upstream's default). */
    unsigned disabledProtocols = kTls1_0;
};

/**
 * Upstream's start-up checks (BadValue): a mode other than disabled needs a certificate key
 * file; certificate options without a mode are refused.
 */
Status validateTlsOptions(const TlsOptions& options);

/**
 * The subject as RFC 2253 prints it: most specific attribute first, "CN=client,OU=x,O=y",
 * with `,+"\<>;` escaped and UTF-8 kept as is.
 */
std::string x509NameToRfc2253(const X509_NAME* name);

}  // namespace mongo
