// The one place that maps WiredTiger return codes to Status, and the RAII owners
// of WT_SESSION / WT_CURSOR. Raw WT_* calls live only in this folder.
#pragma once

#include <wiredtiger.h>

#include <string>
#include <string_view>

#include "mongo/base/status.h"
#include "mongo/base/string_data.h"

namespace mongo {

/**
 * OK for 0. WT_ROLLBACK -> WriteConflict (112), WT_DUPLICATE_KEY -> DuplicateKey
 * (11000), WT_NOTFOUND -> NoSuchKey (4), ENOSPC -> OutOfDiskSpace (14031),
 * EBUSY -> LockBusy (46), EINVAL -> BadValue (2), others -> UnknownError (8).
 * The reason carries `context` and WiredTiger's message (via `s` when not null).
 */
Status wtRCToStatus(int rc, WT_SESSION* s, StringData context);

/** Throws WriteConflictException for WT_ROLLBACK; otherwise returns wtRCToStatus(). */
Status wtRCToStatusOrThrowWCE(int rc, WT_SESSION* s, StringData context);

/** Owns an open WT_SESSION (closed in the destructor). */
class WtSession {
public:
    WtSession() = default;
    explicit WtSession(WT_SESSION* s) : _s(s) {}
    ~WtSession() {
        reset();
    }
    WtSession(WtSession&& o) noexcept : _s(o.release()) {}
    WtSession& operator=(WtSession&& o) noexcept {
        if (this != &o) {
            reset();
            _s = o.release();
        }
        return *this;
    }
    /** Opens a session with isolation=snapshot. */
    static StatusWith<WtSession> open(WT_CONNECTION* conn);
    WT_SESSION* get() const {
        return _s;
    }
    WT_SESSION* operator->() const {
        return _s;
    }
    WT_SESSION* release() {
        WT_SESSION* s = _s;
        _s = nullptr;
        return s;
    }
    void reset();

private:
    WT_SESSION* _s = nullptr;
};

/** Owns an open WT_CURSOR (closed, i.e. returned to the session's cache, in the destructor). */
class WtCursor {
public:
    WtCursor() = default;
    explicit WtCursor(WT_CURSOR* c) : _c(c) {}
    ~WtCursor() {
        reset();
    }
    WtCursor(WtCursor&& o) noexcept : _c(o._c) {
        o._c = nullptr;
    }
    WtCursor& operator=(WtCursor&& o) noexcept {
        if (this != &o) {
            reset();
            _c = o._c;
            o._c = nullptr;
        }
        return *this;
    }
    /** Opens `uri` on `s` with `config` (may be null). */
    static StatusWith<WtCursor> open(WT_SESSION* s, StringData uri, const char* config);
    WT_CURSOR* get() const {
        return _c;
    }
    WT_CURSOR* operator->() const {
        return _c;
    }
    explicit operator bool() const {
        return _c != nullptr;
    }
    void reset();

private:
    WT_CURSOR* _c = nullptr;
};

/** A WT_ITEM viewing `bytes`. */
inline WT_ITEM makeItem(std::string_view bytes) {
    WT_ITEM i{};
    i.data = bytes.data();
    i.size = bytes.size();
    return i;
}

/** "table:<ident>". */
std::string identToUri(StringData ident);

}  // namespace mongo
