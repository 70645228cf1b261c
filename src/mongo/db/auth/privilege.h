// Resource patterns, privileges (pattern + actions) and the match rule of a privilege
// check. A "normal" collection is one whose name does not start with "system.";
// time-series buckets (system.buckets.*) are matched only by system_buckets patterns.
#pragma once

#include <string>
#include <vector>

#include "mongo/base/status.h"
#include "mongo/bson/bsonobj.h"
#include "mongo/bson/bsonobjbuilder.h"
#include "mongo/db/auth/action_type.h"

namespace mongo::auth {

/** What a command acts on: the cluster, a database, or one namespace. */
struct ResourceTarget {
    enum class Kind { kCluster, kDatabase, kNamespace };
    Kind kind = Kind::kCluster;
    std::string db;
    std::string coll;

    static ResourceTarget cluster() {
        return {Kind::kCluster, "", ""};
    }
    static ResourceTarget database(std::string db) {
        return {Kind::kDatabase, std::move(db), ""};
    }
    static ResourceTarget ns(std::string db, std::string coll) {
        return {Kind::kNamespace, std::move(db), std::move(coll)};
    }
};

class ResourcePattern {
public:
    enum class Kind {
        kCluster,             // {cluster: true}
        kAnyResource,         // {anyResource: true}
        kAnyNormal,           // {db: "", collection: ""}
        kDatabase,            // {db: "d", collection: ""}
        kCollectionInAnyDb,   // {db: "", collection: "c"}
        kExactNamespace,      // {db: "d", collection: "c"}
        kAnySystemBuckets,    // {system_buckets: ""} or {db: "", system_buckets: ""}
        kSystemBucketsInDb,   // {db: "d", system_buckets: ""}
        kSystemBucketsAnyDb,  // {db: "", system_buckets: "c"} or {system_buckets: "c"}
        kExactSystemBuckets,  // {db: "d", system_buckets: "c"}
    };
    ResourcePattern() = default;
    ResourcePattern(Kind kind, std::string db = "", std::string coll = "")
        : _kind(kind), _db(std::move(db)), _coll(std::move(coll)) {}

    static ResourcePattern forDatabase(std::string db) {
        return {Kind::kDatabase, std::move(db)};
    }
    static ResourcePattern forNamespace(std::string db, std::string coll) {
        return {Kind::kExactNamespace, std::move(db), std::move(coll)};
    }

    /** BadValue for a document that is none of the forms above. */
    static StatusWith<ResourcePattern> parse(const BSONObj& obj);
    BSONObj toBSON() const;

    bool matches(const ResourceTarget& target) const;
    bool operator==(const ResourcePattern& o) const {
        return _kind == o._kind && _db == o._db && _coll == o._coll;
    }
    Kind kind() const {
        return _kind;
    }

private:
    Kind _kind = Kind::kCluster;
    std::string _db;
    std::string _coll;
};

struct Privilege {
    ResourcePattern resource;
    ActionSet actions;

    /** {resource: {...}, actions: [...]}; BadValue on an unknown action or resource. */
    static StatusWith<Privilege> parse(const BSONObj& obj);
    BSONObj toBSON() const;
};

/** Adds `p` to `privileges`, merging its actions into an entry with the same resource. */
void addPrivilege(std::vector<Privilege>* privileges, const Privilege& p);
/** Removes `p`'s actions from the entry with the same resource (dropping it when empty). */
void removePrivilege(std::vector<Privilege>* privileges, const Privilege& p);

/** True when the union of the actions of the privileges matching `target` holds `needed`. */
bool isAuthorized(const std::vector<Privilege>& privileges, const ResourceTarget& target,
                  const ActionSet& needed);

}  // namespace mongo::auth
