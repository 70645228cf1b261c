#include "mongo/db/namespace_string.h"

namespace mongo {

NamespaceString::NamespaceString(StringData db, StringData coll) : _db(db), _coll(coll) {}

NamespaceString NamespaceString::fromFullName(StringData ns) {
    auto dot = ns.find('.');
    if (dot == StringData::npos)
        return NamespaceString(ns, "");
    return NamespaceString(ns.substr(0, dot), ns.substr(dot + 1));
}

Status NamespaceString::validateDatabaseName(StringData db) {
    if (db.empty())
        return Status(ErrorCodes::InvalidNamespace, "Invalid database name: ''");
    if (db.size() > static_cast<size_t>(kMaxDatabaseNameLength))
        return Status(ErrorCodes::InvalidNamespace,
                      "db name must be at most 63 characters, found: " + std::to_string(db.size()));
    for (char c : db) {
        if (c == '/' || c == '\\' || c == '.' || c == ' ' || c == '"' || c == '$' || c == '\0')
            return Status(ErrorCodes::InvalidNamespace,
                          "Invalid namespace specified '" + std::string(db) + "'");
    }
    return Status::OK();
}

Status NamespaceString::validateCollectionName() const {
    Status s = validateDatabaseName(_db);
    if (!s.isOK())
        return s;
    if (_coll.empty())
        return Status(ErrorCodes::InvalidNamespace, "Invalid namespace specified '" + ns() + "'");
    if (_coll.find('\0') != std::string::npos || _coll[0] == '.' ||
        (_coll.find('$') != std::string::npos && _coll != "$cmd" &&
         _coll.rfind("oplog.$main", 0) != 0))
        return Status(ErrorCodes::InvalidNamespace, "Invalid collection name: " + _coll);
    if (ns().size() > static_cast<size_t>(kMaxNsLength))
        return Status(ErrorCodes::InvalidNamespace,
                      "Fully qualified namespace is too long. Namespace: " + ns() + " Max: 255");
    return Status::OK();
}

bool NamespaceString::isNormalCollection() const {
    return !isSystem() || isTimeseriesBucketsCollection() || _coll == "system.js" ||
           _coll == "system.profile";
}

}  // namespace mongo
