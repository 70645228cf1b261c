// Exceptions and assertion macros for command and pipeline code.
//
// uassert(code, msg, cond)   user error: throws AssertionException with `code`.
// uassertStatusOK(status)    throws if `status` is not OK; returns the value of a StatusWith.
// invariant(cond)            logic bug: logs and aborts the process.
// The command dispatcher is the single place that catches DBException and turns
// it into {ok: 0, errmsg, code, codeName}.
#pragma once

#include <memory>
#include <stdexcept>
#include <string>

#include "mongo/base/error_extra_info.h"
#include "mongo/base/status.h"

namespace mongo {

class DBException : public std::exception {
public:
    explicit DBException(Status status, std::shared_ptr<const ErrorExtraInfo> extra = nullptr)
        : _status(std::move(status)), _extra(std::move(extra)), _what(_status.toString()) {}

    const Status& toStatus() const {
        return _status;
    }
    ErrorCodes::Error code() const {
        return _status.code();
    }
    const std::string& reason() const {
        return _status.reason();
    }
    const ErrorExtraInfo* extraInfo() const {
        return _extra.get();
    }
    std::shared_ptr<const ErrorExtraInfo> sharedExtraInfo() const {
        return _extra;
    }
    const char* what() const noexcept override {
        return _what.c_str();
    }

private:
    Status _status;
    std::shared_ptr<const ErrorExtraInfo> _extra;
    std::string _what;
};

class AssertionException : public DBException {
public:
    using DBException::DBException;
};

[[noreturn]] void uasserted(int code, const std::string& msg);
[[noreturn]] void uassertedWithInfo(Status status, std::shared_ptr<const ErrorExtraInfo> extra);
[[noreturn]] void invariantFailed(const char* expr, const char* file, unsigned line);
[[noreturn]] void invariantFailedWithMsg(const char* expr, const std::string& msg, const char* file,
                                         unsigned line);

inline void uassertStatusOK(const Status& s) {
    if (!s.isOK())
        throw AssertionException(s);
}

template <typename T>
T uassertStatusOK(StatusWith<T> sw) {
    if (!sw.isOK())
        throw AssertionException(sw.getStatus());
    return std::move(sw.getValue());
}

#define uassert(code, msg, expr)               \
    do {                                       \
        if (!(expr)) [[unlikely]]              \
            ::mongo::uasserted((code), (msg)); \
    } while (false)

#define massert uassert

#define invariant(expr)                                          \
    do {                                                         \
        if (!(expr)) [[unlikely]]                                \
            ::mongo::invariantFailed(#expr, __FILE__, __LINE__); \
    } while (false)

#define invariantWithMsg(expr, msg)                                            \
    do {                                                                       \
        if (!(expr)) [[unlikely]]                                              \
            ::mongo::invariantFailedWithMsg(#expr, (msg), __FILE__, __LINE__); \
    } while (false)

#define MONGO_UNREACHABLE ::mongo::invariantFailed("unreachable", __FILE__, __LINE__)

}  // namespace mongo
