// RecoveryUnit: one storage session (a WiredTiger session taken from the engine's
// session cache) plus its current transaction. Reads open a snapshot lazily and
// keep it until abandonSnapshot() or the end of a unit of work; writes must
// happen inside a WriteUnitOfWork and become visible/durable only at commit.
//
// Thread safety: a RecoveryUnit is used by one thread at a time.
#pragma once

#include <functional>
#include <memory>

#include "mongo/base/status.h"

namespace mongo {

class RecoveryUnit {
public:
    virtual ~RecoveryUnit() = default;

    /**
     * Starts a unit of work; the transaction itself starts lazily (or continues the
     * read snapshot already open). REQUIRES: not already in a unit of work.
     */
    virtual void beginUnitOfWork() = 0;
    /**
     * Commits the transaction and runs the registered onCommit handlers in order.
     * Throws WriteConflictException if WiredTiger refuses the commit with WT_ROLLBACK.
     */
    virtual void commitUnitOfWork() = 0;
    /** Rolls the transaction back and runs the onRollback handlers in reverse order. */
    virtual void abortUnitOfWork() = 0;
    virtual bool inUnitOfWork() const = 0;

    /**
     * Ends the read snapshot (outside a unit of work): the next read sees the
     * latest committed data. Inside a unit of work it is a no-op.
     */
    virtual void abandonSnapshot() = 0;

    /** Flushes the journal to disk (log_flush sync=on): used for {j: true}. */
    virtual Status waitUntilDurable() = 0;

    /**
     * Registers handlers run after commit or after rollback of the current unit
     * of work (either may be empty). REQUIRES: inUnitOfWork().
     */
    virtual void onCommitOrRollback(std::function<void()> onCommit,
                                    std::function<void()> onRollback) = 0;
    void onCommit(std::function<void()> f) {
        onCommitOrRollback(std::move(f), nullptr);
    }
    void onRollback(std::function<void()> f) {
        onCommitOrRollback(nullptr, std::move(f));
    }

    /** Nesting depth managed by WriteUnitOfWork; 0 when not in a unit of work. */
    int wuowNesting = 0;
};

/**
 * RAII unit of work. The outermost one begins and commits the transaction;
 * nested ones only count. Destroying the outermost without commit() aborts.
 * A nested one destroyed without commit() leaves the abort to the outermost
 * (it is normally unwinding an exception).
 */
class WriteUnitOfWork {
public:
    explicit WriteUnitOfWork(RecoveryUnit* ru);
    ~WriteUnitOfWork();
    WriteUnitOfWork(const WriteUnitOfWork&) = delete;
    WriteUnitOfWork& operator=(const WriteUnitOfWork&) = delete;

    /** Commits (outermost) or marks this level done (nested). May throw WriteConflictException. */
    void commit();

private:
    RecoveryUnit* _ru;
    bool _toplevel;
    bool _committed = false;
};

}  // namespace mongo
