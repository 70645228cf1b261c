// The session fields of a command (`lsid`, `txnNumber`) and upstream's checks on them.
// A `txnNumber` outside a multi-document transaction makes the command a retryable write
// (transaction_table.h); only replica-set members accept one.
#pragma once

#include <optional>

#include "mongo/bson/bsonobj.h"

namespace mongo {
namespace repl {

struct OperationSessionInfo {
    BSONObj lsid;  // empty when the command has none
    std::optional<long long> txnNumber;

    bool isRetryableWrite() const {
        return txnNumber.has_value();
    }
};

/** True for the commands whose statements are retryable writes (insert, update, ...). */
bool isRetryableWriteCommand(StringData commandName);

/**
 * Parses and checks `lsid`/`txnNumber` of `body` (throws): TypeMismatch 14 for a wrong
 * type, InvalidOptions 72 for a txnNumber without lsid, BadValue 2 for a negative one,
 * IllegalOperation 20 on a standalone, 50768 when the command is not a retryable write
 * and no multi-document transaction (autocommit) was asked for.
 */
OperationSessionInfo parseOperationSessionInfo(StringData commandName, const BSONObj& body);

}  // namespace repl
}  // namespace mongo
