#include "mongo/db/auth/privilege.h"

#include "mongo/db/namespace_string.h"

namespace mongo::auth {
namespace {

constexpr StringData kSystemPrefix = "system.";
constexpr StringData kBucketsPrefix = NamespaceString::kSystemBucketsPrefix;

bool startsWith(StringData s, StringData prefix) {
    return s.substr(0, prefix.size()) == prefix;
}

bool isNormal(StringData coll) {
    return !startsWith(coll, kSystemPrefix);
}

bool isBuckets(StringData coll) {
    return startsWith(coll, kBucketsPrefix);
}

StringData bucketsName(StringData coll) {
    return coll.substr(kBucketsPrefix.size());
}

Status badResource(const BSONObj& obj) {
    return Status(ErrorCodes::BadValue, "Unrecognized resource pattern: " + obj.toString());
}

}  // namespace

StatusWith<ResourcePattern> ResourcePattern::parse(const BSONObj& obj) {
    BSONElement cluster = obj["cluster"], any = obj["anyResource"], db = obj["db"],
                coll = obj["collection"], buckets = obj["system_buckets"];
    size_t n = obj.nFields();
    if (!cluster.eoo()) {
        if (n != 1 || !cluster.trueValue())
            return badResource(obj);
        return ResourcePattern(Kind::kCluster);
    }
    if (!any.eoo()) {
        if (n != 1 || !any.trueValue())
            return badResource(obj);
        return ResourcePattern(Kind::kAnyResource);
    }
    if (!buckets.eoo()) {
        if (buckets.type() != BSONType::kString || (!db.eoo() && db.type() != BSONType::kString) ||
            n != (db.eoo() ? 1u : 2u))
            return badResource(obj);
        std::string d = db.eoo() ? "" : std::string(db.valueStringData());
        std::string c(buckets.valueStringData());
        if (d.empty())
            return ResourcePattern(c.empty() ? Kind::kAnySystemBuckets : Kind::kSystemBucketsAnyDb,
                                   "", c);
        return ResourcePattern(c.empty() ? Kind::kSystemBucketsInDb : Kind::kExactSystemBuckets, d,
                               c);
    }
    if (db.type() != BSONType::kString || coll.type() != BSONType::kString || n != 2)
        return badResource(obj);
    std::string d(db.valueStringData()), c(coll.valueStringData());
    if (d.empty())
        return ResourcePattern(c.empty() ? Kind::kAnyNormal : Kind::kCollectionInAnyDb, "", c);
    return ResourcePattern(c.empty() ? Kind::kDatabase : Kind::kExactNamespace, d, c);
}

BSONObj ResourcePattern::toBSON() const {
    switch (_kind) {
        case Kind::kCluster:
            return BSON("cluster" << true);
        case Kind::kAnyResource:
            return BSON("anyResource" << true);
        case Kind::kAnyNormal:
        case Kind::kDatabase:
        case Kind::kCollectionInAnyDb:
        case Kind::kExactNamespace:
            return BSON("db" << _db << "collection" << _coll);
        case Kind::kAnySystemBuckets:
        case Kind::kSystemBucketsAnyDb:
            return BSON("system_buckets" << _coll);
        case Kind::kSystemBucketsInDb:
        case Kind::kExactSystemBuckets:
            return BSON("db" << _db << "system_buckets" << _coll);
    }
    return BSONObj();
}

bool ResourcePattern::matches(const ResourceTarget& t) const {
    using TK = ResourceTarget::Kind;
    switch (_kind) {
        case Kind::kAnyResource:
            return true;
        case Kind::kCluster:
            return t.kind == TK::kCluster;
        case Kind::kAnyNormal:
            return t.kind == TK::kDatabase || (t.kind == TK::kNamespace && isNormal(t.coll));
        case Kind::kDatabase:
            return t.db == _db &&
                   (t.kind == TK::kDatabase || (t.kind == TK::kNamespace && isNormal(t.coll)));
        case Kind::kCollectionInAnyDb:
            return t.kind == TK::kNamespace && t.coll == _coll;
        case Kind::kExactNamespace:
            return t.kind == TK::kNamespace && t.db == _db && t.coll == _coll;
        case Kind::kAnySystemBuckets:
            return t.kind == TK::kNamespace && isBuckets(t.coll);
        case Kind::kSystemBucketsInDb:
            return t.kind == TK::kNamespace && t.db == _db && isBuckets(t.coll);
        case Kind::kSystemBucketsAnyDb:
            return t.kind == TK::kNamespace && isBuckets(t.coll) && bucketsName(t.coll) == _coll;
        case Kind::kExactSystemBuckets:
            return t.kind == TK::kNamespace && t.db == _db && isBuckets(t.coll) &&
                   bucketsName(t.coll) == _coll;
    }
    return false;
}

StatusWith<Privilege> Privilege::parse(const BSONObj& obj) {
    BSONElement res = obj["resource"], actions = obj["actions"];
    if (res.type() != BSONType::kObject || actions.type() != BSONType::kArray)
        return Status(ErrorCodes::BadValue,
                      "A privilege must have a 'resource' object and an 'actions' array");
    auto pattern = ResourcePattern::parse(res.embeddedObject());
    if (!pattern.isOK())
        return pattern.getStatus();
    Privilege p{pattern.getValue(), {}};
    for (auto a : actions.embeddedObject()) {
        if (a.type() != BSONType::kString)
            return Status(ErrorCodes::BadValue, "Privilege actions must be strings");
        auto action = parseActionName(a.valueStringData());
        if (!action)
            return Status(ErrorCodes::BadValue, "Unrecognized action privilege string: " +
                                                    std::string(a.valueStringData()));
        p.actions.add(*action);
    }
    if (p.actions.empty())
        return Status(ErrorCodes::BadValue, "Privileges must have at least one action");
    return p;
}

BSONObj Privilege::toBSON() const {
    BSONObjBuilder b;
    b.append("resource", resource.toBSON());
    BSONArrayBuilder arr(b.subarrayStart("actions"));
    for (const auto& n : actions.names())
        arr.append(n);
    arr.done();
    return b.obj();
}

void addPrivilege(std::vector<Privilege>* privileges, const Privilege& p) {
    for (auto& existing : *privileges) {
        if (existing.resource == p.resource) {
            existing.actions.add(p.actions);
            return;
        }
    }
    privileges->push_back(p);
}

void removePrivilege(std::vector<Privilege>* privileges, const Privilege& p) {
    for (auto it = privileges->begin(); it != privileges->end(); ++it) {
        if (it->resource == p.resource) {
            it->actions.remove(p.actions);
            if (it->actions.empty())
                privileges->erase(it);
            return;
        }
    }
}

bool isAuthorized(const std::vector<Privilege>& privileges, const ResourceTarget& target,
                  const ActionSet& needed) {
    ActionSet have;
    for (const auto& p : privileges) {
        if (p.resource.matches(target)) {
            have.add(p.actions);
            if (have.containsAll(needed))
                return true;
        }
    }
    return needed.empty();
}

}  // namespace mongo::auth
