// LogicalSessionCache: the logical sessions (lsid) this mongod has seen, with their last use,
// as upstream's local session cache. Every command that carries an lsid, startSession and
// refreshSessions mark a session used ("vivify"); endSessions and killSessions remove it;
// sessions idle longer than localLogicalSessionTimeoutMinutes are reaped by the periodic
// job (mongod_main's cursor monitor), which also drops their in-memory retryable-write state
// (TransactionTable); config.transactions keeps the persisted records.
//
// Thread safety: all methods may be called from any thread (one mutex).
#pragma once

#include <chrono>
#include <map>
#include <mutex>
#include <string>
#include <vector>

#include "mongo/bson/bsonobj.h"
#include "mongo/util/time_support.h"

namespace mongo {

class LogicalSessionCache {
public:
    static LogicalSessionCache& get();

    /**
     * Records a use of `lsid` at `now`, adding it if new. TooManyLogicalSessions 261 when
     * adding would pass `maxSessions`.
     */
    void vivify(const BSONObj& lsid, Date_t now, long long maxSessions);
    /** Removes the sessions; returns how many were present. */
    size_t endSessions(const std::vector<BSONObj>& lsids);
    /** Removes every session; returns their lsids. */
    std::vector<BSONObj> endAll();
    /** Removes the sessions last used before `now - timeout`; returns their lsids. */
    std::vector<BSONObj> reapExpired(Date_t now, std::chrono::milliseconds timeout);
    bool contains(const BSONObj& lsid) const;
    size_t size() const;

    /** The key of `lsid` in the cache: its `id` field (a UUID), or the whole lsid. */
    static std::string keyOf(const BSONObj& lsid);

private:
    struct Record {
        BSONObj lsid;
        Date_t lastUse;
    };
    mutable std::mutex _mutex;
    std::map<std::string, Record> _sessions;
};

/**
 * The periodic job: reaps the sessions idle past localLogicalSessionTimeoutMinutes and drops
 * their in-memory retryable-write state. Returns how many were reaped.
 */
size_t reapExpiredSessions(Date_t now);

/**
 * Parses the lsids of endSessions/refreshSessions/killSessions (`cmdName` is the field):
 * an array of {id: UUID, uid?: BinData}. TypeMismatch 14 for a non-array or a non-object
 * element, 40414 for an element without id, TypeMismatch for an id that is not a UUID.
 */
std::vector<BSONObj> parseSessionIds(StringData cmdName, const BSONElement& e);

}  // namespace mongo
