// WriteConflictException: thrown by storage operations when WiredTiger reports
// WT_ROLLBACK (another transaction changed the same key). It never reaches a
// client: writeConflictRetry() catches it, lets the WriteUnitOfWork roll back,
// abandons the snapshot, backs off and runs the operation again.
//
//   writeConflictRetry(ru, "insert", [&] {
//       WriteUnitOfWork wuow(ru);
//       uassertStatusOK(rs->insertRecord(ru, data, len));
//       wuow.commit();
//   });
#pragma once

#include <string>
#include <utility>

#include "mongo/base/string_data.h"
#include "mongo/db/storage/recovery_unit.h"
#include "mongo/util/assert_util.h"

namespace mongo {

class WriteConflictException : public DBException {
public:
    explicit WriteConflictException(StringData context = "");
};

/** Throws WriteConflictException. */
[[noreturn]] void throwWriteConflictException(StringData context);

/** Sleeps a little, longer as `attempt` grows; logs every so often. */
void logWriteConflictAndBackoff(int attempt, StringData opName);

/**
 * Runs `f` until it does not throw WriteConflictException and returns its result.
 * If `ru` is already inside a WriteUnitOfWork when called, the exception is
 * rethrown instead (only the outermost unit of work can be retried).
 * Other exceptions propagate unchanged.
 */
template <typename F>
auto writeConflictRetry(RecoveryUnit* ru, StringData opName, F&& f) -> decltype(f()) {
    if (ru->inUnitOfWork())
        return f();
    for (int attempt = 0;; ++attempt) {
        try {
            return f();
        } catch (const WriteConflictException&) {
            ru->abandonSnapshot();
            logWriteConflictAndBackoff(attempt, opName);
        }
    }
}

}  // namespace mongo
