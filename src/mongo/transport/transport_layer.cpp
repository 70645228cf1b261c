// Asio lives only in this file. See transport_layer.h for the model.
#include "mongo/transport/transport_layer.h"

#include <poll.h>
#include <sys/socket.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <chrono>
#include <condition_variable>
#include <cstring>
#include <map>
#include <mutex>
#include <thread>

#include <openssl/asn1.h>
#include <openssl/ssl.h>
#include <openssl/x509.h>
#include <boost/asio.hpp>
#include <boost/asio/ssl.hpp>

#include "mongo/bson/bsonobjbuilder.h"
#include "mongo/logv2/log.h"
#include "mongo/rpc/message.h"
#include "mongo/transport/client.h"
#include "mongo/transport/service_entry_point.h"

namespace mongo {

namespace asio = boost::asio;
using tcp = asio::ip::tcp;

namespace {

constexpr auto kNetwork = logv2::Component::kNetwork;
constexpr auto kShutdownWait = std::chrono::seconds(10);
// How often the sessions that are running a request are checked for a peer that hung up.
constexpr auto kDisconnectPollInterval = std::chrono::milliseconds(100);
// At shutdown, how long running requests get to finish (they are interrupted with
// InterruptedAtShutdown) so that their replies still reach the clients.
constexpr auto kShutdownRequestGrace = std::chrono::seconds(2);

std::atomic<std::int64_t> gNextConnectionId{1};
// The TransportLayer whose session runs on this thread (to avoid waiting for ourselves).
thread_local const TransportLayer::Impl* tlSessionOwner = nullptr;

std::string endpointString(const tcp::endpoint& ep) {
    const auto addr = ep.address();
    const std::string host = addr.is_v6() ? "[" + addr.to_string() + "]" : addr.to_string();
    return host + ":" + std::to_string(ep.port());
}

std::vector<std::string> splitBindIps(const std::vector<std::string>& in) {
    std::vector<std::string> out;
    for (const auto& entry : in) {
        std::size_t start = 0;
        while (start <= entry.size()) {
            std::size_t comma = entry.find(',', start);
            if (comma == std::string::npos)
                comma = entry.size();
            std::string ip = entry.substr(start, comma - start);
            ip.erase(0, ip.find_first_not_of(" \t"));
            ip.erase(ip.find_last_not_of(" \t") + 1);
            if (ip == "localhost")
                ip = "127.0.0.1";
            if (!ip.empty() && std::find(out.begin(), out.end(), ip) == out.end())
                out.push_back(ip);
            start = comma + 1;
        }
    }
    return out;
}

// The RFC 2253 subject of the peer's certificate if it passed verification, else "".
std::string verifiedSubject(SSL* ssl, const std::string& remote, std::int64_t id) {
    X509* peer = SSL_get_peer_certificate(ssl);
    if (!peer)
        return {};
    std::string subject;
    if (SSL_get_verify_result(ssl) == X509_V_OK) {
        subject = x509NameToRfc2253(X509_get_subject_name(peer));
    } else {
        LOGV2_WARNING(23228, "SSL peer certificate validation failed",
                      BSON("reason" << X509_verify_cert_error_string(SSL_get_verify_result(ssl))
                                    << "remote" << remote << "connectionId" << id));
    }
    X509_free(peer);
    return subject;
}

}  // namespace

struct TransportLayer::Impl : std::enable_shared_from_this<Impl> {
    Options options;
    ServiceEntryPoint* sep;
    std::unique_ptr<asio::ssl::context> sslContext;  // null when TLS is disabled
    std::string serverSubject;
    long long serverCertExpiry = 0;

    asio::io_context io;
    std::vector<std::unique_ptr<tcp::acceptor>> acceptors;
    std::thread listener;
    int boundPort = 0;

    mutable std::mutex mutex;
    std::condition_variable allEnded;
    std::map<std::int64_t, int> sessionFds;  // connection id -> native socket, for shutdown
    // Sessions running a request: the poller marks their Client disconnected on a hang-up.
    std::map<std::int64_t, std::pair<int, Client*>> busy;
    int open = 0;
    bool shuttingDown = false;
    std::atomic<long long> created{0};
    std::condition_variable busyChanged;
    std::thread poller;
    std::condition_variable pollerWake;

    Impl(Options o, ServiceEntryPoint* s) : options(std::move(o)), sep(s) {}

    Status setup();
    Status setupTls();
    void doAccept(tcp::acceptor& acceptor);
    void onAccept(tcp::socket socket);
    void runSession(tcp::socket& socket, std::int64_t id, const std::string& remote,
                    const std::string& local);
    template <typename Stream>
    bool serveOne(Stream& stream, int fd, Client& client);
    bool startTls(tcp::socket& socket, Client& client, bool* useTls);
    void endSession(std::int64_t id, const std::string& remote);
    void pollBusySessions();
    void shutdown();
};

namespace {
/** A failed handshake as upstream's logs show a Status: {code, codeName, errmsg}. */
BSONObj handshakeError(const std::string& why) {
    return BSON("code" << static_cast<int>(ErrorCodes::SSLHandshakeFailed) << "codeName"
                       << ErrorCodes::errorString(ErrorCodes::SSLHandshakeFailed) << "errmsg"
                       << why);
}
}  // namespace

Status TransportLayer::Impl::setupTls() {
    const TlsOptions& t = options.tls;
    if (t.mode == TlsMode::kDisabled)
        return Status::OK();
    using ssl = asio::ssl::context;
    auto ctx = std::make_unique<ssl>(ssl::tls_server);
    ssl::options sslOptions =
        ssl::default_workarounds | ssl::no_sslv2 | ssl::no_sslv3 | ssl::single_dh_use;
    if (t.disabledProtocols & kTls1_0)
        sslOptions |= ssl::no_tlsv1;
    if (t.disabledProtocols & kTls1_1)
        sslOptions |= ssl::no_tlsv1_1;
    if (t.disabledProtocols & kTls1_2)
        sslOptions |= ssl::no_tlsv1_2;
    if (t.disabledProtocols & kTls1_3)
        sslOptions |= ssl::no_tlsv1_3;
    boost::system::error_code ec;
    ctx->set_options(sslOptions, ec);
    auto bad = [](const std::string& what) {
        return Status(ErrorCodes::InvalidSSLConfiguration, what);
    };
    if (!t.certificateKeyFilePassword.empty()) {
        const std::string password = t.certificateKeyFilePassword;
        ctx->set_password_callback(
            [password](std::size_t, ssl::password_purpose) { return password; }, ec);
    }
    ctx->use_certificate_chain_file(t.certificateKeyFile, ec);
    if (ec)
        return bad("cannot read certificate file: " + t.certificateKeyFile + " " + ec.message());
    ctx->use_private_key_file(t.certificateKeyFile, ssl::pem, ec);
    if (ec)
        return bad("cannot read PEM key file: " + t.certificateKeyFile + " " + ec.message());
    SSL_CTX* native = ctx->native_handle();
    if (SSL_CTX_check_private_key(native) != 1)
        return bad("SSL private key does not match the certificate: " + t.certificateKeyFile);
    if (X509* cert = SSL_CTX_get0_certificate(native)) {
        serverSubject = x509NameToRfc2253(X509_get_subject_name(cert));
        struct tm expiry {};
        if (ASN1_TIME_to_tm(X509_get0_notAfter(cert), &expiry) == 1)
            serverCertExpiry = static_cast<long long>(timegm(&expiry)) * 1000;
    }
    if (!t.caFile.empty()) {
        ctx->load_verify_file(t.caFile, ec);
        if (ec)
            return bad("cannot read certificate authority file: " + t.caFile + " " + ec.message());
        if (STACK_OF(X509_NAME)* names = SSL_load_client_CA_file(t.caFile.c_str()))
            SSL_CTX_set_client_CA_list(native, names);
        ssl::verify_mode mode = ssl::verify_peer;
        if (!t.allowConnectionsWithoutCertificates)
            mode |= ssl::verify_fail_if_no_peer_cert;
        ctx->set_verify_mode(mode, ec);
        if (t.allowInvalidCertificates) {
            // Accepted, but the subject is not used (see startTls).
            ctx->set_verify_callback([](bool, asio::ssl::verify_context&) { return true; }, ec);
        }
    } else {
        ctx->set_verify_mode(ssl::verify_none, ec);  // client certificates are not asked for
    }
    static const unsigned char kSessionIdContext[] = "mongod";
    SSL_CTX_set_session_id_context(native, kSessionIdContext, sizeof(kSessionIdContext) - 1);
    sslContext = std::move(ctx);
    return Status::OK();
}

Status TransportLayer::Impl::setup() {
    if (Status s = setupTls(); !s.isOK())
        return s;
    const auto ips = splitBindIps(options.bindIps);
    if (ips.empty())
        return Status(ErrorCodes::BadValue, "no bind_ip given");
    int port = options.port;
    for (const auto& ip : ips) {
        boost::system::error_code ec;
        const auto addr = asio::ip::make_address(ip, ec);
        if (ec)
            return Status(ErrorCodes::BadValue, "Invalid bind_ip address: " + ip);
        tcp::endpoint ep(addr, static_cast<unsigned short>(port));
        auto acc = std::make_unique<tcp::acceptor>(io);
        acc->open(ep.protocol(), ec);
        if (!ec)
            acc->set_option(asio::socket_base::reuse_address(true), ec);
        if (!ec && addr.is_v6())
            acc->set_option(asio::ip::v6_only(true), ec);
        if (!ec)
            acc->bind(ep, ec);
        if (!ec)
            acc->listen(asio::socket_base::max_listen_connections, ec);
        if (ec) {
            acceptors.clear();
            return Status(ErrorCodes::SocketException, ec.message());
        }
        port = acc->local_endpoint().port();  // resolves port 0 for the next addresses
        LOGV2_OPTIONS(23015, kNetwork, "Listening on", BSON("address" << ip));
        acceptors.push_back(std::move(acc));
    }
    boundPort = port;
    return Status::OK();
}

void TransportLayer::Impl::doAccept(tcp::acceptor& acceptor) {
    acceptor.async_accept([self = shared_from_this(), &acceptor](
                              const boost::system::error_code& ec, tcp::socket socket) {
        if (ec == asio::error::operation_aborted || !acceptor.is_open())
            return;
        if (ec) {
            LOGV2_OPTIONS(23023, kNetwork, "Error accepting new connection",
                          BSON("error" << ec.message()));
        } else {
            self->onAccept(std::move(socket));
        }
        self->doAccept(acceptor);
    });
}

void TransportLayer::Impl::onAccept(tcp::socket socket) {
    boost::system::error_code ec;
    socket.set_option(tcp::no_delay(true), ec);
    socket.set_option(asio::socket_base::keep_alive(true), ec);
    const auto remoteEp = socket.remote_endpoint(ec);
    if (ec)
        return;  // the peer is already gone
    const std::string remote = endpointString(remoteEp);
    const std::string local = endpointString(socket.local_endpoint(ec));

    std::int64_t id;
    int count;
    {
        std::lock_guard lk(mutex);
        if (shuttingDown)
            return;
        if (open >= options.maxConns) {
            LOGV2_OPTIONS(22942, kNetwork,
                          "Connection refused because there are too many open connections",
                          BSON("remote" << remote << "connectionCount" << open));
            return;
        }
        id = gNextConnectionId.fetch_add(1);
        count = ++open;
        sessionFds[id] = socket.native_handle();
    }
    created.fetch_add(1);
    LOGV2_OPTIONS(22943, kNetwork, "Connection accepted",
                  BSON("remote" << remote << "isLoadBalanced" << false << "connectionId" << id
                                << "connectionCount" << count));

    auto sock = std::make_shared<tcp::socket>(std::move(socket));
    std::thread([self = shared_from_this(), sock, id, remote, local]() mutable {
        self->runSession(*sock, id, remote, local);
        sock.reset();
        self->endSession(id, remote);
    }).detach();
}

void TransportLayer::Impl::runSession(tcp::socket& socket, std::int64_t id,
                                      const std::string& remote, const std::string& local) {
    logv2::setThreadName("conn" + std::to_string(id));
    tlSessionOwner = this;
    auto client = std::make_unique<Client>(id, remote, local);
    Client::setCurrent(client.get());
    const int fd = socket.native_handle();
    try {
        bool useTls = false;
        if (!sslContext || startTls(socket, *client, &useTls)) {
            if (useTls) {
                asio::ssl::stream<tcp::socket&> stream(socket, *sslContext);
                boost::system::error_code ec;
                stream.handshake(asio::ssl::stream_base::server, ec);
                if (ec) {
                    LOGV2_OPTIONS(22988, kNetwork,
                                  "Error receiving request from client. Ending connection from "
                                  "remote",
                                  BSON("error" << handshakeError(ec.message()) << "remote" << remote
                                               << "connectionId" << id));
                } else {
                    client->setTls(verifiedSubject(stream.native_handle(), remote, id));
                    sep->onClientConnect(*client);
                    while (serveOne(stream, fd, *client)) {
                    }
                }
            } else {
                sep->onClientConnect(*client);
                while (serveOne(socket, fd, *client)) {
                }
            }
        }
    } catch (const std::exception& ex) {
        LOGV2_OPTIONS(22990, kNetwork, "Uncaught exception in request handler; ending connection",
                      BSON("error" << ex.what() << "remote" << remote << "connectionId" << id));
    } catch (...) {
        LOGV2_OPTIONS(22990, kNetwork, "Uncaught exception in request handler; ending connection",
                      BSON("error"
                           << "unknown exception"
                           << "remote" << remote << "connectionId" << id));
    }
    try {
        sep->onClientDisconnect(*client);
    } catch (...) {
    }
    {
        std::lock_guard lk(mutex);
        sessionFds.erase(id);  // before the close, so shutdown() never touches a reused fd
    }
    boost::system::error_code ec;
    socket.shutdown(tcp::socket::shutdown_both, ec);
    socket.close(ec);
    Client::setCurrent(nullptr);
    client.reset();
    tlSessionOwner = nullptr;
}

// Peeks at the first byte of a connection (TLS enabled only): a TLS handshake record starts
// with 0x16. Returns false to end the session: EOF, or a plain client under requireTLS.
bool TransportLayer::Impl::startTls(tcp::socket& socket, Client& client, bool* useTls) {
    unsigned char first = 0;
    ssize_t n;
    do {
        n = ::recv(socket.native_handle(), &first, 1, MSG_PEEK);
    } while (n < 0 && errno == EINTR);
    if (n <= 0)
        return false;
    *useTls = first == 0x16;
    if (!*useTls && options.tls.mode == TlsMode::kRequireTLS) {
        LOGV2_OPTIONS(22988, kNetwork,
                      "Error receiving request from client. Ending connection from remote",
                      BSON("error" << handshakeError("The server is configured to only allow "
                                                     "SSL connections")
                                   << "remote" << client.remote() << "connectionId"
                                   << client.connectionId()));
        return false;
    }
    return true;
}

// Reads one request, handles it and writes the reply. Returns false to end the session.
// `stream` is the socket itself or the TLS stream over it; `fd` is the socket's.
template <typename Stream>
bool TransportLayer::Impl::serveOne(Stream& socket, int fd, Client& client) {
    boost::system::error_code ec;
    char header[kMsgHeaderSize];
    asio::read(socket, asio::buffer(header, sizeof(header)), ec);
    if (ec)
        return false;  // EOF or reset: a normal end
    std::int32_t len;
    std::memcpy(&len, header, sizeof(len));
    if (len < kMsgHeaderSize || len > kMaxMessageSizeBytes) {
        LOGV2_OPTIONS(
            22988, kNetwork, "Error receiving request from client. Ending connection from remote",
            BSON("error" << ("ProtocolError: recv(): message msgLen " + std::to_string(len) +
                             " is invalid. Min " + std::to_string(kMsgHeaderSize) +
                             " Max: " + std::to_string(kMaxMessageSizeBytes))
                         << "remote" << client.remote() << "connectionId"
                         << client.connectionId()));
        return false;
    }
    Message request = Message::allocate(len);
    std::memcpy(request.mutableBuf(), header, sizeof(header));
    asio::read(socket, asio::buffer(request.mutableBuf() + kMsgHeaderSize, len - kMsgHeaderSize),
               ec);
    if (ec)
        return false;

    // Busy from the request until its reply is written: the poller watches busy sessions,
    // and shutdown() lets them finish (and reply) before it closes their sockets.
    struct BusyGuard {
        Impl* impl;
        std::int64_t id;
        ~BusyGuard() {
            {
                std::lock_guard lk(impl->mutex);
                impl->busy.erase(id);
            }
            impl->busyChanged.notify_all();
        }
    };
    {
        std::lock_guard lk(mutex);
        busy[client.connectionId()] = {fd, &client};
    }
    BusyGuard busyGuard{this, client.connectionId()};
    DbResponse response = sep->handleRequest(client, request);
    if (client.isDisconnected())
        return false;  // the peer hung up while the request ran: nobody reads the reply
    if (!response.response.empty()) {
        response.response.setResponseToMsgId(request.getId());
        asio::write(socket, asio::buffer(response.response.buf(), response.response.getLen()), ec);
        if (ec) {
            LOGV2_OPTIONS(22989, kNetwork,
                          "Error sending response to client. Ending connection from remote",
                          BSON("error" << ec.message() << "remote" << client.remote()
                                       << "connectionId" << client.connectionId()));
            return false;
        }
    }
    return !response.closeConnection;
}

void TransportLayer::Impl::endSession(std::int64_t id, const std::string& remote) {
    int count;
    {
        std::lock_guard lk(mutex);
        count = --open;
    }
    LOGV2_OPTIONS(22944, kNetwork, "Connection ended",
                  BSON("remote" << remote << "isLoadBalanced" << false << "connectionId" << id
                                << "connectionCount" << count));
    allEnded.notify_all();
}

// Runs on the poller thread until shutdown. poll() with a zero timeout over the sockets of
// busy sessions only; POLLRDHUP/POLLHUP/POLLERR mean the peer closed or reset the connection
// (pending request bytes alone, POLLIN, do not).
void TransportLayer::Impl::pollBusySessions() {
    std::unique_lock lk(mutex);
    while (!shuttingDown) {
        pollerWake.wait_for(lk, kDisconnectPollInterval);
        if (shuttingDown || busy.empty())
            continue;
        std::vector<pollfd> fds;
        std::vector<Client*> clients;
        for (const auto& [id, entry] : busy) {
            if (entry.second->isDisconnected())
                continue;
            fds.push_back(pollfd{entry.first, POLLRDHUP, 0});
            clients.push_back(entry.second);
        }
        // The mutex stays held: a session leaves `busy` (and later closes its fd) only
        // under it, so every fd polled here is still that session's socket.
        if (fds.empty() || ::poll(fds.data(), fds.size(), 0) <= 0)
            continue;
        for (std::size_t i = 0; i < fds.size(); ++i) {
            if (fds[i].revents & (POLLRDHUP | POLLHUP | POLLERR))
                clients[i]->markDisconnected();
        }
    }
}

void TransportLayer::Impl::shutdown() {
    {
        std::lock_guard lk(mutex);
        shuttingDown = true;
    }
    pollerWake.notify_all();
    if (poller.joinable()) {
        if (poller.get_id() == std::this_thread::get_id())
            poller.detach();
        else
            poller.join();
    }
    asio::post(io, [this] {
        for (auto& acc : acceptors) {
            boost::system::error_code ec;
            acc->close(ec);
        }
    });
    if (listener.joinable()) {
        if (listener.get_id() == std::this_thread::get_id()) {
            listener.detach();
        } else {
            listener.join();
        }
    } else {
        for (auto& acc : acceptors) {
            boost::system::error_code ec;
            acc->close(ec);
        }
    }
    io.stop();

    std::unique_lock lk(mutex);
    const bool selfBusy = tlSessionOwner == this && Client::getCurrent() &&
                          busy.count(Client::getCurrent()->connectionId());
    busyChanged.wait_for(lk, kShutdownRequestGrace,
                         [&] { return busy.size() <= (selfBusy ? 1u : 0u); });
    for (const auto& [id, fd] : sessionFds)
        ::shutdown(fd, SHUT_RDWR);  // unblocks reads and writes; the session closes the fd
    const int self = tlSessionOwner == this ? 1 : 0;
    if (!allEnded.wait_for(lk, kShutdownWait, [&] { return open <= self; })) {
        LOGV2_WARNING(4784901, "Timed out waiting for connections to end",
                      BSON("connectionCount" << open));
    }
}

TransportLayer::TransportLayer(Options options, ServiceEntryPoint* sep)
    : _impl(std::make_shared<Impl>(std::move(options), sep)) {}

TransportLayer::~TransportLayer() {
    shutdown();
}

Status TransportLayer::setup() {
    return _impl->setup();
}

void TransportLayer::start() {
    for (auto& acc : _impl->acceptors)
        _impl->doAccept(*acc);
    _impl->listener = std::thread([impl = _impl.get()] {
        logv2::setThreadName("listener");
        impl->io.run();
    });
    _impl->poller = std::thread([impl = _impl.get()] {
        logv2::setThreadName("disconnectPoller");
        impl->pollBusySessions();
    });
}

void TransportLayer::shutdown() {
    _impl->shutdown();
}

int TransportLayer::boundPort() const {
    return _impl->boundPort;
}

int TransportLayer::numOpenConnections() const {
    std::lock_guard lk(_impl->mutex);
    return _impl->open;
}

int TransportLayer::maxConns() const {
    return _impl->options.maxConns;
}

long long TransportLayer::totalCreated() const {
    return _impl->created.load();
}

TlsMode TransportLayer::tlsMode() const {
    return _impl->options.tls.mode;
}

const std::string& TransportLayer::tlsServerSubject() const {
    return _impl->serverSubject;
}

long long TransportLayer::tlsServerCertificateExpiry() const {
    return _impl->serverCertExpiry;
}

bool TransportLayer::tlsHasCA() const {
    return !_impl->options.tls.caFile.empty();
}

}  // namespace mongo
