#include "mongo/base/status.h"

#include "mongo/util/assert_util.h"

namespace mongo {

namespace {
const std::string kEmpty;
}

Status::Status(ErrorCodes::Error code, std::string reason) {
    if (code != ErrorCodes::OK)
        _error = std::make_shared<const ErrorInfo>(ErrorInfo{code, std::move(reason)});
}

const std::string& Status::reason() const {
    return _error ? _error->reason : kEmpty;
}

std::string Status::toString() const {
    if (isOK())
        return "OK";
    return codeString() + ": " + reason();
}

Status Status::withContext(StringData context) const {
    if (isOK())
        return *this;
    return Status(code(), std::string(context) + " :: caused by :: " + reason());
}

std::ostream& operator<<(std::ostream& os, const Status& s) {
    return os << s.toString();
}

void statusWithFromOkStatus() {
    invariantFailedWithMsg("!status.isOK()", "StatusWith built from an OK status", __FILE__,
                           __LINE__);
}

}  // namespace mongo
