// Structured JSON logging in upstream's line shape:
//   {"t":{"$date":"2024-01-01T00:00:00.000+00:00"},"s":"I","c":"NETWORK","id":23016,
//    "ctx":"listener","msg":"Waiting for connections","attr":{"port":27017}}
//
//   LOGV2(23016, "Waiting for connections", BSON("port" << port));
//   LOGV2_WARNING(1234, "Something odd");
//   LOGV2_OPTIONS(4615611, logv2::Component::kStorage, "msg", BSON(...));
//
// Thread safety: all functions may be called from any thread.
#pragma once

#include <string>
#include <vector>

#include "mongo/base/string_data.h"
#include "mongo/bson/bsonobj.h"

namespace mongo::logv2 {

enum class Severity { kFatal, kError, kWarning, kInfo, kDebug1, kDebug2, kDebug3 };

enum class Component {
    kDefault,
    kAccessControl,
    kCommand,
    kControl,
    kExecutor,
    kIndex,
    kNetwork,
    kQuery,
    kReplication,
    kStorage,
    kTimeseries,
    kWrite,
    kFTDC,
};

/** Upstream's component names ("-", "NETWORK", "STORAGE", ...). */
StringData componentName(Component c);

void log(Severity s, Component c, int id, StringData msg, const BSONObj& attr = BSONObj());

/** Where lines go: a file (appended), or stdout when `path` is empty. */
Status setLogDestination(const std::string& path);
/** Suppresses informational lines (--quiet). */
void setQuiet(bool quiet);
/** Debug verbosity (0 = none); lines above it are dropped. */
void setVerbosity(int level);
int verbosity();

/** Names the current thread for the "ctx" field. */
void setThreadName(StringData name);
const std::string& getThreadName();

/** The most recent lines (for getLog "global"), newest last, at most 1024. */
std::vector<std::string> recentLines();
/** Warnings logged during start-up (for getLog "startupWarnings"). */
std::vector<std::string> startupWarnings();
void markStartupComplete();

}  // namespace mongo::logv2

#define LOGV2_IMPL(SEV, COMP, ID, MSG, ...) \
    ::mongo::logv2::log(SEV, COMP, ID, MSG __VA_OPT__(, ) __VA_ARGS__)

#define LOGV2(ID, MSG, ...)                                                              \
    LOGV2_IMPL(::mongo::logv2::Severity::kInfo, ::mongo::logv2::Component::kDefault, ID, \
               MSG __VA_OPT__(, ) __VA_ARGS__)
#define LOGV2_OPTIONS(ID, COMP, MSG, ...) \
    LOGV2_IMPL(::mongo::logv2::Severity::kInfo, COMP, ID, MSG __VA_OPT__(, ) __VA_ARGS__)
#define LOGV2_WARNING(ID, MSG, ...)                                                         \
    LOGV2_IMPL(::mongo::logv2::Severity::kWarning, ::mongo::logv2::Component::kDefault, ID, \
               MSG __VA_OPT__(, ) __VA_ARGS__)
#define LOGV2_ERROR(ID, MSG, ...)                                                         \
    LOGV2_IMPL(::mongo::logv2::Severity::kError, ::mongo::logv2::Component::kDefault, ID, \
               MSG __VA_OPT__(, ) __VA_ARGS__)
#define LOGV2_FATAL_NOTRACE(ID, MSG, ...)                                                 \
    LOGV2_IMPL(::mongo::logv2::Severity::kFatal, ::mongo::logv2::Component::kDefault, ID, \
               MSG __VA_OPT__(, ) __VA_ARGS__)
#define LOGV2_DEBUG(ID, LEVEL, MSG, ...)                                                         \
    do {                                                                                         \
        if (::mongo::logv2::verbosity() >= (LEVEL))                                              \
            LOGV2_IMPL(static_cast<::mongo::logv2::Severity>(                                    \
                           static_cast<int>(::mongo::logv2::Severity::kInfo) + (LEVEL)),         \
                       ::mongo::logv2::Component::kDefault, ID, MSG __VA_OPT__(, ) __VA_ARGS__); \
    } while (false)
