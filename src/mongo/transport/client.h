// Client: the per-connection state owned by the transport layer (one per accepted
// socket). The db layer may hang its own per-connection state on `dbState`.
//
// Thread safety: identity fields are immutable. Client metadata is guarded by an
// internal mutex (readable from other threads, e.g. currentOp). `dbState` is only
// touched by the connection's own thread.
#pragma once

#include <atomic>
#include <cstdint>
#include <memory>
#include <mutex>
#include <string>

#include "mongo/bson/bsonobj.h"

namespace mongo {

class Client {
public:
    Client(std::int64_t connectionId, std::string remote, std::string local);

    Client(const Client&) = delete;
    Client& operator=(const Client&) = delete;

    /** 1, 2, 3... in accept order. */
    std::int64_t connectionId() const {
        return _connectionId;
    }
    /** "127.0.0.1:5555" */
    const std::string& remote() const {
        return _remote;
    }
    const std::string& local() const {
        return _local;
    }
    /** "conn12" (also the thread name). */
    std::string desc() const;

    /**
     * Records the handshake's `client` document. Returns false (and changes nothing)
     * if metadata was already set: upstream rejects a second one with
     * ClientMetadataCannotBeMutated (186), which the command layer reports.
     */
    bool setClientMetadata(const BSONObj& metadata);
    /** The metadata (owned copy), or an empty object. */
    BSONObj clientMetadata() const;
    bool hasClientMetadata() const;

    /** The Client of the calling connection thread, or nullptr. */
    static Client* getCurrent();
    /** Sets the calling thread's current Client (the transport layer does this). */
    static void setCurrent(Client* client);

    /**
     * True once the transport noticed that the peer closed the connection (checked while a
     * request runs; see TransportLayer). Operations read it through
     * OperationContext::setClientDisconnectedFlag().
     */
    const std::atomic<bool>& disconnectedFlag() const {
        return _disconnected;
    }
    bool isDisconnected() const {
        return _disconnected.load();
    }
    void markDisconnected() {
        _disconnected.store(true);
    }

    /**
     * TLS: set by the transport layer once, after the handshake and before the first
     * request (so only the connection's own thread reads them). The subject is the RFC 2253
     * name of a client certificate that passed verification against the CA file; empty
     * without one (or when an invalid certificate was let through).
     */
    void setTls(std::string verifiedPeerSubject) {
        _isTls = true;
        _peerSubject = std::move(verifiedPeerSubject);
    }
    bool isTls() const {
        return _isTls;
    }
    const std::string& verifiedPeerSubject() const {
        return _peerSubject;
    }

    /** Per-connection state for the db layer (cursors, sessions, ...). */
    std::shared_ptr<void> dbState;
    /** The connection's auth::AuthorizationSession (db/auth), created on first use. */
    std::shared_ptr<void> authState;

private:
    const std::int64_t _connectionId;
    const std::string _remote;
    const std::string _local;

    std::atomic<bool> _disconnected{false};
    bool _isTls = false;
    std::string _peerSubject;

    mutable std::mutex _mutex;
    BSONObj _metadata;
    bool _hasMetadata = false;
};

}  // namespace mongo
