// TransportLayer: the TCP listener. One Asio acceptor per bind address on a
// listener thread, and one thread per connection ("conn<N>") that reads framed
// messages, calls ServiceEntryPoint::handleRequest and writes the reply.
// Frames shorter than 16 bytes or longer than kMaxMessageSizeBytes close the
// connection; exceptions from the entry point close the connection, never the server.
// A poller thread watches the sockets of sessions that are running a request and marks
// the session's Client disconnected when the peer hangs up (operations then stop with
// ClientDisconnect at their next interrupt check). Connections beyond maxConns are
// closed as soon as they are accepted.
//
// Thread safety: all public functions may be called from any thread.
// Asio is kept out of this header (see transport_layer.cpp).
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "mongo/base/status.h"
#include "mongo/transport/tls.h"

namespace mongo {

class ServiceEntryPoint;

class TransportLayer {
public:
    struct Options {
        /** IPv4 addresses, "localhost", or comma-separated lists of them. */
        std::vector<std::string> bindIps{"127.0.0.1"};
        /** 0 picks an ephemeral port (see boundPort()). */
        int port = 27017;
        /** maxIncomingConnections (--maxConns); upstream's default. */
        int maxConns = 1'000'000;
        /**
         * TLS unless mode is disabled: the OpenSSL context is made in setup(). Under
         * allowTLS/preferTLS a connection's first byte decides (0x16 starts a TLS
         * handshake), requireTLS closes plain connections: one peek per connection, the
         * plain message path is unchanged. Client certificates are asked for only with a
         * CA file; a verified one's subject is put on the Client (Client::setTls).
         */
        TlsOptions tls{};
    };

    /** `sep` must outlive the TransportLayer. */
    TransportLayer(Options options, ServiceEntryPoint* sep);
    ~TransportLayer();  // calls shutdown()

    TransportLayer(const TransportLayer&) = delete;
    TransportLayer& operator=(const TransportLayer&) = delete;

    /**
     * Resolves, binds (SO_REUSEADDR) and listens. Errors: SocketException (9001) with
     * the OS reason, e.g. "Address already in use"; BadValue for an unresolvable address;
     * InvalidOptions for a certificate, key or CA file OpenSSL cannot use (upstream says
     * InvalidSSLConfiguration 140, not in our error_codes.idl yet).
     */
    Status setup();
    /**
     * Starts accepting on a listener thread. REQUIRES: setup() succeeded. Logs nothing:
     * the caller logs "Waiting for connections" (23016) with boundPort().
     */
    void start();
    /** Stops accepting, closes every session and waits for their threads. Idempotent. */
    void shutdown();

    /** The port actually bound (useful with port 0); 0 before setup(). */
    int boundPort() const;
    int numOpenConnections() const;
    int maxConns() const;
    long long totalCreated() const;
    TlsMode tlsMode() const;
    /** The server certificate's subject (RFC 2253) and expiry (ms since the epoch); TLS only. */
    const std::string& tlsServerSubject() const;
    long long tlsServerCertificateExpiry() const;
    bool tlsHasCA() const;

    struct Impl;

private:
    std::shared_ptr<Impl> _impl;
};

}  // namespace mongo
