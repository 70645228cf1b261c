#include "mongo/db/storage/recovery_unit.h"

#include "mongo/util/assert_util.h"

namespace mongo {

WriteUnitOfWork::WriteUnitOfWork(RecoveryUnit* ru) : _ru(ru), _toplevel(ru->wuowNesting == 0) {
    if (_toplevel)
        _ru->beginUnitOfWork();
    ++_ru->wuowNesting;
}

WriteUnitOfWork::~WriteUnitOfWork() {
    if (_committed)
        return;
    --_ru->wuowNesting;
    if (_toplevel)
        _ru->abortUnitOfWork();
}

void WriteUnitOfWork::commit() {
    invariant(!_committed);
    _committed = true;
    --_ru->wuowNesting;
    if (_toplevel) {
        try {
            _ru->commitUnitOfWork();
        } catch (...) {
            // commitUnitOfWork already rolled back; nothing more to undo.
            throw;
        }
    }
}

}  // namespace mongo
