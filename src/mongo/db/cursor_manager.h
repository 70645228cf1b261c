// CursorManager: the open cursors of find/aggregate/listX commands, each with
// its executor and its own RecoveryUnit (so a getMore continues on the same
// storage snapshot). A getMore checks a cursor out for exclusive use and checks
// it back in; killCursors and collection drops kill cursors (a checked-out
// cursor dies when it is checked back in). Idle cursors time out after
// cursorTimeoutMillis (10 minutes) unless created with noCursorTimeout.
//
// Thread safety: all methods may be called concurrently.
#pragma once

#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "mongo/base/status.h"
#include "mongo/bson/bsonobj.h"
#include "mongo/db/api_parameters.h"
#include "mongo/db/namespace_string.h"
#include "mongo/db/storage/record_id.h"
#include "mongo/util/time_support.h"

namespace mongo {

class OperationContext;
class PlanExecutor;

class RecoveryUnit;

/** Produces a cursor's documents; wraps a PlanExecutor or a pre-built list. */
class CursorSource {
public:
    virtual ~CursorSource() = default;
    virtual bool next(OperationContext* opCtx, BSONObj* out) = 0;
    /** The record the last next() returned, when the source reads records (resume tokens). */
    virtual std::optional<RecordId> lastRecordId() const {
        return std::nullopt;
    }
    /**
     * True when a tailable source will return nothing more, inserts or not (its limit is
     * reached): the cursor then closes instead of waiting for data.
     */
    virtual bool finished() const {
        return false;
    }
};

struct ClientCursor {
    long long id = 0;
    NamespaceString nss;
    std::unique_ptr<CursorSource> source;
    std::unique_ptr<RecoveryUnit> ru;
    Date_t createdDate = Date_t::now();
    Date_t lastUsed = Date_t::now();
    long long nBatchesReturned = 0;
    std::string planSummary;  // "" when the source is not a plan
    bool noCursorTimeout = false;
    bool tailable = false;
    bool awaitData = false;
    bool killed = false;
    long long nReturned = 0;
    BSONObj originatingCommand;
    /** The API parameters of the command that made the cursor; its getMores must repeat them. */
    APIParameters apiParameters;
    /** A document read but not yet returned (did not fit the previous batch). */
    std::optional<BSONObj> stash;
    std::optional<RecordId> stashRecordId;
    /**
     * $_requestResumeToken: each reply carries postBatchResumeToken {$recordId: <the last
     * record returned, null before any>}, as BinData for a clustered collection.
     */
    bool requestResumeToken = false;
    /** showRecordId: each returned document gains $recordId (same encoding as the token). */
    bool showRecordId = false;
    bool clusteredRecordIds = false;
    std::optional<RecordId> lastReturnedRecordId;
};

class CursorManager {
public:
    /** Takes ownership; returns the new cursor id (non-zero). */
    long long registerCursor(std::unique_ptr<ClientCursor> cursor);
    /**
     * Takes the cursor out for a getMore. CursorNotFound 43 if unknown; Unauthorized 13
     * if it belongs to another namespace; CursorInUse 143 if already checked out.
     */
    StatusWith<std::unique_ptr<ClientCursor>> checkOut(long long id, const NamespaceString& nss);
    /** Returns a cursor after a getMore; a cursor killed meanwhile is destroyed. */
    void checkIn(std::unique_ptr<ClientCursor> cursor);
    /** True if the cursor existed. */
    bool kill(long long id);
    void killForNamespace(const NamespaceString& nss);
    /** Destroys every idle cursor (shutdown). */
    void killAll();
    /** Kills idle cursors older than `timeoutMillis`; returns how many. */
    int timeoutCursors(long long timeoutMillis);
    size_t numOpen() const;
    /** Open cursors created with noCursorTimeout (serverStatus metrics.cursor.open.noTimeout). */
    size_t numOpenNoTimeout() const;
    /** Calls `fn` on each idle (not checked-out) cursor, under the manager's mutex. */
    void forEachIdle(const std::function<void(const ClientCursor&)>& fn) const;
    long long totalOpened() const {
        return _totalOpened;
    }
    long long totalTimedOut() const {
        return _timedOut;
    }

private:
    mutable std::mutex _mutex;
    std::map<long long, std::unique_ptr<ClientCursor>> _idle;
    struct Pinned {
        NamespaceString nss;
        bool noCursorTimeout = false;
    };
    std::map<long long, Pinned> _pinned;  // checked out
    std::vector<long long> _killPending;
    long long _totalOpened = 0;
    long long _timedOut = 0;
};

}  // namespace mongo
