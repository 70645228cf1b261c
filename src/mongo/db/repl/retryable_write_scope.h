// RetryableWriteScope: tells the oplog writer (OpObserverImpl) that the writes the calling
// thread makes now execute statements of retryable writes. Each CRUD oplog entry logged
// while a scope is open is stamped with {lsid, txnNumber, stmtId, prevOpTime} and the
// session's config.transactions record is written in the same unit of work.
//
//   RetryableWriteScope scope({{session, txnNumber, {stmtId}}});
//   performUpdate(...);   // the 'u' entry carries stmtId
//
// Thread safety: a scope belongs to the thread that opened it (thread-local); scopes do
// not nest. The scope must outlive the units of work of the writes it covers.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "mongo/bson/bsonobj.h"
#include "mongo/db/repl/oplog.h"

namespace mongo {

class OperationContext;

namespace repl {

class RetryableSession;

class RetryableWriteScope {
public:
    /** The statements of one session covered by the scope. */
    struct Owner {
        RetryableSession* session;
        long long txnNumber;
        std::vector<int> stmtIds;
    };
    enum class Mode {
        // Entry k gets stmtIds[k] of the first owner (inserts of a batch, one statement).
        kOnePerEntry,
        // The first entry gets every owner's statements (a time-series bucket write holds
        // several measurements): the first owner's on the entry, each further owner's on a
        // no-op entry of its own logged right after it.
        kAllOnFirstEntry,
    };
    /** findAndModify: which document image the entry needs (config.image_collection). */
    enum class Image { kNone, kPreImage, kPostImage };

    explicit RetryableWriteScope(std::vector<Owner> owners, Mode mode = Mode::kOnePerEntry);
    ~RetryableWriteScope();
    RetryableWriteScope(const RetryableWriteScope&) = delete;
    RetryableWriteScope& operator=(const RetryableWriteScope&) = delete;

    /** The scope open on this thread, or null. */
    static RetryableWriteScope* current();

    /** The image kind to store with the next entry (findAndModify). */
    void setImage(Image kind) {
        _image = kind;
    }

    /**
     * Logs `params` stamped with the next statement(s) and records them in the transaction
     * table. With setImage(), stores the pre- or post-image given (null: the entry has
     * none, e.g. an upsert's insert). Evaluates the onPrimaryTransactionalWrite fail point
     * once per unit of work. REQUIRES: in a unit of work.
     */
    OpTime logStamped(OperationContext* opCtx, OplogEntryParams params, const BSONObj* preImage,
                      const BSONObj* postImage);

private:
    /** Progress within the current unit of work (reset when it commits or rolls back). */
    struct Progress {
        size_t next = 0;         // entries logged
        bool allLogged = false;  // kAllOnFirstEntry: done
    };

    std::vector<Owner> _owners;
    Mode _mode;
    Image _image = Image::kNone;
    std::shared_ptr<Progress> _progress = std::make_shared<Progress>();
};

}  // namespace repl
}  // namespace mongo
