#include "mongo/db/storage/wiredtiger/wiredtiger_util.h"

#include <cerrno>

#include "mongo/db/storage/write_conflict_exception.h"
#include "mongo/util/assert_util.h"

namespace mongo {

Status wtRCToStatus(int rc, WT_SESSION* s, StringData context) {
    if (rc == 0)
        return Status::OK();
    const char* msg = s ? s->strerror(s, rc) : wiredtiger_strerror(rc);
    std::string reason(context);
    if (!reason.empty())
        reason += ": ";
    reason += msg ? msg : "unknown WiredTiger error";
    switch (rc) {
        case WT_ROLLBACK:
            return Status(ErrorCodes::WriteConflict, reason);
        case WT_DUPLICATE_KEY:
            return Status(ErrorCodes::DuplicateKey, reason);
        case WT_NOTFOUND:
            return Status(ErrorCodes::NoSuchKey, reason);
        case ENOSPC:
            return Status(ErrorCodes::OutOfDiskSpace, reason);
        case EBUSY:
            return Status(ErrorCodes::LockBusy, reason);
        case EINVAL:
            return Status(ErrorCodes::BadValue, reason);
        default:
            return Status(ErrorCodes::UnknownError,
                          reason + " (WiredTiger code " + std::to_string(rc) + ")");
    }
}

Status wtRCToStatusOrThrowWCE(int rc, WT_SESSION* s, StringData context) {
    if (rc == WT_ROLLBACK)
        throwWriteConflictException(context);
    return wtRCToStatus(rc, s, context);
}

StatusWith<WtSession> WtSession::open(WT_CONNECTION* conn) {
    WT_SESSION* s = nullptr;
    int rc = conn->open_session(conn, nullptr, "isolation=snapshot", &s);
    if (rc != 0)
        return wtRCToStatus(rc, nullptr, "open_session");
    return WtSession(s);
}

void WtSession::reset() {
    if (_s) {
        _s->close(_s, nullptr);
        _s = nullptr;
    }
}

StatusWith<WtCursor> WtCursor::open(WT_SESSION* s, StringData uri, const char* config) {
    WT_CURSOR* c = nullptr;
    std::string u(uri);
    int rc = s->open_cursor(s, u.c_str(), nullptr, config, &c);
    if (rc != 0)
        return wtRCToStatus(rc, s, "open_cursor " + u);
    return WtCursor(c);
}

void WtCursor::reset() {
    if (_c) {
        _c->close(_c);
        _c = nullptr;
    }
}

std::string identToUri(StringData ident) {
    return "table:" + std::string(ident);
}

}  // namespace mongo
