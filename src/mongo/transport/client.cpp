#include "mongo/transport/client.h"

namespace mongo {

namespace {
thread_local Client* tlCurrentClient = nullptr;
}  // namespace

Client::Client(std::int64_t connectionId, std::string remote, std::string local)
    : _connectionId(connectionId), _remote(std::move(remote)), _local(std::move(local)) {}

std::string Client::desc() const {
    return "conn" + std::to_string(_connectionId);
}

bool Client::setClientMetadata(const BSONObj& metadata) {
    std::lock_guard lk(_mutex);
    if (_hasMetadata)
        return false;
    _metadata = metadata.getOwned();
    _hasMetadata = true;
    return true;
}

BSONObj Client::clientMetadata() const {
    std::lock_guard lk(_mutex);
    return _metadata;
}

bool Client::hasClientMetadata() const {
    std::lock_guard lk(_mutex);
    return _hasMetadata;
}

Client* Client::getCurrent() {
    return tlCurrentClient;
}

void Client::setCurrent(Client* client) {
    tlCurrentClient = client;
}

}  // namespace mongo
