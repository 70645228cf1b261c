#include "mongo/db/logical_session_cache.h"

#include "mongo/bson/bsonobjbuilder.h"
#include "mongo/db/repl/transaction_table.h"
#include "mongo/idl/server_parameters_gen.h"
#include "mongo/util/assert_util.h"

namespace mongo {

LogicalSessionCache& LogicalSessionCache::get() {
    static LogicalSessionCache instance;
    return instance;
}

std::string LogicalSessionCache::keyOf(const BSONObj& lsid) {
    BSONElement id = lsid["id"];
    if (id.type() == BSONType::kBinData) {
        int len = 0;
        const char* data = id.binData(len);
        return std::string(data, static_cast<size_t>(len));
    }
    return std::string(lsid.objdata(), static_cast<size_t>(lsid.objsize()));
}

void LogicalSessionCache::vivify(const BSONObj& lsid, Date_t now, long long maxSessions) {
    std::string key = keyOf(lsid);
    std::lock_guard<std::mutex> lk(_mutex);
    auto it = _sessions.find(key);
    if (it != _sessions.end()) {
        it->second.lastUse = now;
        return;
    }
    uassert(ErrorCodes::TooManyLogicalSessions,
            "Unable to add session into the cache because the number of active sessions is too "
            "high",
            static_cast<long long>(_sessions.size()) < maxSessions);
    _sessions.emplace(std::move(key), Record{lsid.getOwned(), now});
}

size_t LogicalSessionCache::endSessions(const std::vector<BSONObj>& lsids) {
    std::lock_guard<std::mutex> lk(_mutex);
    size_t n = 0;
    for (const auto& l : lsids)
        n += _sessions.erase(keyOf(l));
    return n;
}

std::vector<BSONObj> LogicalSessionCache::endAll() {
    std::lock_guard<std::mutex> lk(_mutex);
    std::vector<BSONObj> out;
    out.reserve(_sessions.size());
    for (auto& [key, rec] : _sessions)
        out.push_back(rec.lsid);
    _sessions.clear();
    return out;
}

std::vector<BSONObj> LogicalSessionCache::reapExpired(Date_t now,
                                                      std::chrono::milliseconds timeout) {
    std::lock_guard<std::mutex> lk(_mutex);
    std::vector<BSONObj> out;
    for (auto it = _sessions.begin(); it != _sessions.end();) {
        if (it->second.lastUse + timeout < now) {
            out.push_back(it->second.lsid);
            it = _sessions.erase(it);
        } else {
            ++it;
        }
    }
    return out;
}

bool LogicalSessionCache::contains(const BSONObj& lsid) const {
    std::lock_guard<std::mutex> lk(_mutex);
    return _sessions.count(keyOf(lsid)) > 0;
}

size_t LogicalSessionCache::size() const {
    std::lock_guard<std::mutex> lk(_mutex);
    return _sessions.size();
}

size_t reapExpiredSessions(Date_t now) {
    auto expired = LogicalSessionCache::get().reapExpired(
        now, std::chrono::minutes(gLocalLogicalSessionTimeoutMinutes.load()));
    if (!expired.empty())
        repl::TransactionTable::get()->forgetSessions(expired);
    return expired.size();
}

std::vector<BSONObj> parseSessionIds(StringData cmdName, const BSONElement& e) {
    uassert(ErrorCodes::TypeMismatch,
            "BSON field '" + std::string(cmdName) + "' is the wrong type '" +
                std::string(typeName(e.type())) + "', expected type 'array'",
            e.type() == BSONType::kArray);
    std::vector<BSONObj> out;
    for (auto el : e.embeddedObject()) {
        uassert(ErrorCodes::TypeMismatch,
                "BSON field '" + std::string(cmdName) + "' is the wrong type '" +
                    std::string(typeName(el.type())) + "', expected type 'object'",
                el.type() == BSONType::kObject);
        BSONObj lsid = el.embeddedObject();
        BSONElement id = lsid["id"];
        uassert(40414, "BSON field 'LogicalSessionFromClient.id' is missing but a required field",
                !id.eoo());
        uassert(ErrorCodes::TypeMismatch,
                "BSON field 'LogicalSessionFromClient.id' is the wrong type '" +
                    std::string(typeName(id.type())) + "', expected type 'binData'",
                id.type() == BSONType::kBinData && id.binDataType() == newUUID);
        for (auto f : lsid) {
            StringData n = f.fieldNameStringData();
            uassert(
                40415,
                "BSON field 'LogicalSessionFromClient." + std::string(n) + "' is an unknown field.",
                n == "id" || n == "uid");
        }
        out.push_back(lsid.getOwned());
    }
    return out;
}

}  // namespace mongo
