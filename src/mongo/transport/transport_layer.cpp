// Asio lives only in this file. See transport_layer.h for the model.
#include "mongo/transport/transport_layer.h"

#include <poll.h>
#include <sys/socket.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstring>
#include <map>
#include <mutex>
#include <thread>

#include <boost/asio.hpp>

#include "mongo/bson/bsonobjbuilder.h"
#include "mongo/rpc/message.h"
#include "mongo/transport/client.h"
#include "mongo/transport/service_entry_point.h"
#include "mongo/logv2/log.h"

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

}  // namespace

struct TransportLayer::Impl : std::enable_shared_from_this<Impl> {
    Options options;
    ServiceEntryPoint* sep;

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
    void doAccept(tcp::acceptor& acceptor);
    void onAccept(tcp::socket socket);
    void runSession(tcp::socket& socket, std::int64_t id, const std::string& remote,
                    const std::string& local);
    bool serveOne(tcp::socket& socket, Client& client);
    void endSession(std::int64_t id, const std::string& remote);
    void pollBusySessions();
    void shutdown();
};

Status TransportLayer::Impl::setup() {
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
    try {
        sep->onClientConnect(*client);
        while (serveOne(socket, *client)) {
        }
    } catch (const std::exception& ex) {
        LOGV2_OPTIONS(22990, kNetwork, "Uncaught exception in request handler; ending connection",
                      BSON("error" << ex.what() << "remote" << remote << "connectionId" << id));
    } catch (...) {
        LOGV2_OPTIONS(22990, kNetwork, "Uncaught exception in request handler; ending connection",
                      BSON("error" << "unknown exception" << "remote" << remote
                                   << "connectionId" << id));
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

// Reads one request, handles it and writes the reply. Returns false to end the session.
bool TransportLayer::Impl::serveOne(tcp::socket& socket, Client& client) {
    boost::system::error_code ec;
    char header[kMsgHeaderSize];
    asio::read(socket, asio::buffer(header, sizeof(header)), ec);
    if (ec)
        return false;  // EOF or reset: a normal end
    std::int32_t len;
    std::memcpy(&len, header, sizeof(len));
    if (len < kMsgHeaderSize || len > kMaxMessageSizeBytes) {
        LOGV2_OPTIONS(22988, kNetwork,
                      "Error receiving request from client. Ending connection from remote",
                      BSON("error" << ("ProtocolError: recv(): message msgLen " +
                                       std::to_string(len) + " is invalid. Min " +
                                       std::to_string(kMsgHeaderSize) + " Max: " +
                                       std::to_string(kMaxMessageSizeBytes))
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
        busy[client.connectionId()] = {socket.native_handle(), &client};
    }
    BusyGuard busyGuard{this, client.connectionId()};
    DbResponse response = sep->handleRequest(client, request);
    if (client.isDisconnected())
        return false;  // the peer hung up while the request ran: nobody reads the reply
    if (!response.response.empty()) {
        response.response.setResponseToMsgId(request.getId());
        asio::write(socket,
                    asio::buffer(response.response.buf(), response.response.getLen()), ec);
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

}  // namespace mongo
