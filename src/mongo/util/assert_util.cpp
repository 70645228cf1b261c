#include "mongo/util/assert_util.h"

#include <cstdio>
#include <cstdlib>

namespace mongo {

void uasserted(int code, const std::string& msg) {
    throw AssertionException(Status(static_cast<ErrorCodes::Error>(code), msg));
}

void uassertedWithInfo(Status status, std::shared_ptr<const ErrorExtraInfo> extra) {
    throw AssertionException(std::move(status), std::move(extra));
}

void invariantFailed(const char* expr, const char* file, unsigned line) {
    std::fprintf(stderr, "Invariant failure %s %s:%u\n", expr, file, line);
    std::fflush(stderr);
    std::abort();
}

void invariantFailedWithMsg(const char* expr, const std::string& msg, const char* file,
                            unsigned line) {
    std::fprintf(stderr, "Invariant failure %s (%s) %s:%u\n", expr, msg.c_str(), file, line);
    std::fflush(stderr);
    std::abort();
}

}  // namespace mongo
