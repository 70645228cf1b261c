// NamespaceString: "<db>.<collection>" with upstream's validity rules for database
// and collection names, and the classification helpers (system.buckets.*, views,
// oplog) that commands and the catalog need.
#pragma once

#include <string>

#include "mongo/base/status.h"
#include "mongo/base/string_data.h"

namespace mongo {

class NamespaceString {
public:
    static constexpr StringData kSystemBucketsPrefix = "system.buckets.";
    static constexpr int kMaxNsLength = 255;
    static constexpr int kMaxDatabaseNameLength = 63;

    NamespaceString() = default;
    NamespaceString(StringData db, StringData coll);
    /** Splits "db.coll" at the first dot. */
    static NamespaceString fromFullName(StringData ns);

    const std::string& db() const {
        return _db;
    }
    const std::string& coll() const {
        return _coll;
    }
    std::string ns() const {
        return _coll.empty() ? _db : _db + "." + _coll;
    }
    std::string toString() const {
        return ns();
    }
    bool isEmpty() const {
        return _db.empty();
    }
    bool isCommand() const {
        return _coll == "$cmd";
    }
    bool isSystem() const {
        return _coll.rfind("system.", 0) == 0;
    }
    bool isTimeseriesBucketsCollection() const {
        return _coll.rfind(kSystemBucketsPrefix, 0) == 0;
    }
    bool isSystemDotViews() const {
        return _coll == "system.views";
    }
    bool isOplog() const {
        return _db == "local" && _coll == "oplog.rs";
    }
    /** db.system.buckets.<coll> for a user namespace. */
    NamespaceString makeTimeseriesBucketsNamespace() const {
        return NamespaceString(_db, std::string(kSystemBucketsPrefix) + _coll);
    }
    /** db.<coll> for a db.system.buckets.<coll> namespace. */
    NamespaceString getTimeseriesViewNamespace() const {
        return NamespaceString(_db, _coll.substr(kSystemBucketsPrefix.size()));
    }

    /** InvalidNamespace unless `db` is a valid database name. */
    static Status validateDatabaseName(StringData db);
    /** InvalidNamespace unless this is a valid collection namespace. */
    Status validateCollectionName() const;
    /** True when users may create/write this collection (not system.* except allowed ones). */
    bool isNormalCollection() const;

    auto operator<=>(const NamespaceString&) const = default;

private:
    std::string _db;
    std::string _coll;
};

}  // namespace mongo
