// Optional structured details that travel with an error to the reply builder,
// e.g. DuplicateKey's keyPattern/keyValue. The dispatcher appends them to the
// {ok: 0, errmsg, code, codeName} reply; writeErrors append them to the entry.
#pragma once

#include <memory>

namespace mongo {

class BSONObjBuilder;

class ErrorExtraInfo {
public:
    virtual ~ErrorExtraInfo() = default;
    /** Appends the extra fields to a reply or writeError entry being built. */
    virtual void serialize(BSONObjBuilder* bob) const = 0;
};

}  // namespace mongo
