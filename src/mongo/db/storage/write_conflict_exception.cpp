#include "mongo/db/storage/write_conflict_exception.h"

#include <algorithm>
#include <chrono>
#include <string>
#include <thread>

#include "mongo/bson/bsonobjbuilder.h"
#include "mongo/logv2/log.h"

namespace mongo {

WriteConflictException::WriteConflictException(StringData context)
    : DBException(Status(ErrorCodes::WriteConflict,
                         context.empty()
                             ? std::string("WriteConflict error: this operation conflicted with "
                                           "another operation. Please retry your operation or "
                                           "multi-document transaction.")
                             : "WriteConflict error during " + std::string(context))) {}

void throwWriteConflictException(StringData context) {
    throw WriteConflictException(context);
}

void logWriteConflictAndBackoff(int attempt, StringData opName) {
    if (attempt > 0 && attempt % 1000 == 0)
        LOGV2_OPTIONS(20478, logv2::Component::kStorage, "Caught WriteConflictException",
                      BSON("operation" << opName << "attempts" << attempt));
    if (attempt < 4)
        return;  // retry immediately a few times
    if (attempt < 10) {
        std::this_thread::yield();
        return;
    }
    int ms = std::min(attempt / 10, 100);
    std::this_thread::sleep_for(std::chrono::milliseconds(ms));
}

}  // namespace mongo
