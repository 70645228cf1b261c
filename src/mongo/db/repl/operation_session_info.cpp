#include "mongo/db/repl/operation_session_info.h"

#include "mongo/db/repl/replication_coordinator.h"
#include "mongo/util/assert_util.h"

namespace mongo {
namespace repl {

bool isRetryableWriteCommand(StringData name) {
    return name == "insert" || name == "update" || name == "delete" || name == "findAndModify" ||
           name == "findandmodify";
}

OperationSessionInfo parseOperationSessionInfo(StringData commandName, const BSONObj& body) {
    OperationSessionInfo osi;
    BSONElement lsid = body["lsid"];
    if (!lsid.eoo()) {
        uassert(ErrorCodes::TypeMismatch,
                "BSON field 'OperationSessionInfo.lsid' is the wrong type '" +
                    std::string(typeName(lsid.type())) + "', expected type 'object'",
                lsid.type() == BSONType::kObject);
        BSONElement id = lsid.embeddedObject()["id"];
        uassert(ErrorCodes::IDLFailedToParse,
                "BSON field 'OperationSessionInfo.lsid.id' is missing but a required field",
                !id.eoo());
        uassert(ErrorCodes::TypeMismatch,
                "BSON field 'OperationSessionInfo.lsid.id' is the wrong type, expected type "
                "'binData' (UUID)",
                id.type() == BSONType::kBinData && id.binDataType() == BinDataType::newUUID);
        osi.lsid = lsid.embeddedObject().getOwned();
    }
    BSONElement txn = body["txnNumber"];
    if (txn.eoo())
        return osi;
    uassert(ErrorCodes::TypeMismatch,
            "BSON field 'OperationSessionInfo.txnNumber' is the wrong type '" +
                std::string(typeName(txn.type())) + "', expected type 'long'",
            txn.type() == BSONType::kNumberLong || txn.type() == BSONType::kNumberInt);
    uassert(ErrorCodes::InvalidOptions,
            "Transaction number requires a session ID to also be specified", !osi.lsid.isEmpty());
    uassert(ErrorCodes::IllegalOperation,
            "Transaction numbers are only allowed on a replica set member or mongos",
            ReplicationCoordinator::get()->isReplEnabled());
    uassert(ErrorCodes::BadValue, "Transaction number cannot be negative", txn.numberLong() >= 0);
    const bool inTransaction = !body["autocommit"].eoo() || body["startTransaction"].trueValue();
    uassert(50768,
            "txnNumber may only be provided for multi-document transactions and retryable write "
            "commands. autocommit:false was not provided, and " +
                std::string(commandName) + " is not a retryable write command.",
            inTransaction || isRetryableWriteCommand(commandName));
    osi.txnNumber = txn.numberLong();
    return osi;
}

}  // namespace repl
}  // namespace mongo
