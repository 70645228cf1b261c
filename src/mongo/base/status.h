// Status and StatusWith<T>: the error-returning style of the library layers
// (bson, bson/column, storage, IDL parsing). A Status is OK or carries an
// ErrorCodes::Error with a reason; StatusWith<T> carries a value or a Status.
#pragma once

#include <memory>
#include <optional>
#include <ostream>
#include <string>
#include <utility>

#include "mongo/base/string_data.h"
#include "mongo/idl/error_codes_gen.h"

namespace mongo {

class [[nodiscard]] Status {
public:
    static Status OK() {
        return Status();
    }

    Status() = default;
    Status(ErrorCodes::Error code, std::string reason);

    bool isOK() const {
        return !_error;
    }
    ErrorCodes::Error code() const {
        return _error ? _error->code : ErrorCodes::OK;
    }
    std::string codeString() const {
        return ErrorCodes::errorString(code());
    }
    const std::string& reason() const;
    std::string toString() const;

    /** Explicitly discards the status (where an error is acceptable). */
    void ignore() const {}

    /** A copy of this status whose reason is prefixed with `context`. */
    Status withContext(StringData context) const;

    bool operator==(const Status& o) const {
        return code() == o.code();
    }
    bool operator==(ErrorCodes::Error c) const {
        return code() == c;
    }

private:
    struct ErrorInfo {
        ErrorCodes::Error code;
        std::string reason;
    };
    std::shared_ptr<const ErrorInfo> _error;
};

std::ostream& operator<<(std::ostream& os, const Status& s);

/** Ends the process: a StatusWith was built from an OK status (see StatusWith(Status)). */
[[noreturn]] void statusWithFromOkStatus();

template <typename T>
class [[nodiscard]] StatusWith {
public:
    StatusWith(T value) : _status(Status::OK()), _value(std::move(value)) {}  // NOLINT
    // A StatusWith holds a value or an error: built from an OK status is a programming error
    // (an invariant, as upstream), never quietly another error.
    StatusWith(Status status) : _status(std::move(status)) {  // NOLINT
        if (_status.isOK())
            statusWithFromOkStatus();
    }
    StatusWith(ErrorCodes::Error code, std::string reason) : _status(code, std::move(reason)) {}

    bool isOK() const {
        return _status.isOK();
    }
    const Status& getStatus() const {
        return _status;
    }
    T& getValue() & {
        return *_value;
    }
    const T& getValue() const& {
        return *_value;
    }
    T&& getValue() && {
        return std::move(*_value);
    }

private:
    Status _status;
    std::optional<T> _value;
};

}  // namespace mongo
