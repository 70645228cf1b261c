// ModifierOp: one parsed update modifier applied to one path ({$inc: {a: 1}} gives
// one op for `a`). Internal to the update driver (update_driver.h).
#pragma once

#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "mongo/base/status.h"
#include "mongo/bson/bsonobj.h"
#include "mongo/db/matcher/expression.h"
#include "mongo/db/matcher/expression_leaf.h"
#include "mongo/db/matcher/path.h"
#include "mongo/db/query/sort_pattern.h"
#include "mongo/db/update/mutable_node.h"
#include "mongo/util/time_support.h"

namespace mongo {

struct UpdateApplyParams;

/** What an op sees while applying. */
struct ModifierApplyContext {
    const BSONObj* preDoc = nullptr;
    const UpdateApplyParams* params = nullptr;
    const std::map<std::string, std::unique_ptr<MatchExpression>>* arrayFilters = nullptr;
    Date_t now;
    /** "{_id: 1}" for error messages. */
    std::string docId() const;
};

class ModifierOp {
public:
    enum class Kind {
        kSet,
        kUnset,
        kInc,
        kMul,
        kMin,
        kMax,
        kRename,
        kSetOnInsert,
        kCurrentDate,
        kPush,
        kAddToSet,
        kPop,
        kPull,
        kPullAll,
        kBit,
    };

    /** Maps "$set" etc. to a kind; false for an unknown modifier. */
    static bool kindFromName(StringData name, Kind* out);

    /** Parses the op for `field` (name = path, value = argument). */
    static StatusWith<std::unique_ptr<ModifierOp>> parse(Kind kind, StringData opName,
                                                         const BSONElement& field);

    Status apply(MutableNode* root, const ModifierApplyContext& ctx) const;

    Kind kind() const {
        return _kind;
    }
    const FieldPath& path() const {
        return _path;
    }
    /**
     * Strings compare with `collator` ($min/$max, $addToSet, $pull, $pullAll, $push's
     * $sort); null: binary order. Not owned; must outlive apply().
     */
    void setCollator(const CollatorInterface* collator);

    /** The $rename destination (empty otherwise). */
    const FieldPath& renameTo() const {
        return _to;
    }

private:
    Status applyRename(MutableNode* root, const ModifierApplyContext& ctx) const;
    Status applyLeaf(MutableNode* container, const std::string& name, MutableNode* existing,
                     const ModifierApplyContext& ctx) const;
    Status applyArith(MutableNode* container, const std::string& name, MutableNode* existing,
                      const ModifierApplyContext& ctx) const;
    Status applyPush(MutableNode* container, const std::string& name, MutableNode* existing,
                     const ModifierApplyContext& ctx) const;
    Status applyAddToSet(MutableNode* container, const std::string& name, MutableNode* existing,
                         const ModifierApplyContext& ctx) const;
    Status applyPull(MutableNode* existing, const ModifierApplyContext& ctx) const;
    Status applyBit(MutableNode* container, const std::string& name, MutableNode* existing,
                    const ModifierApplyContext& ctx) const;
    bool pullMatches(const BSONElement& e) const;
    bool createsPath() const;

    Kind _kind = Kind::kSet;
    std::string _opName;
    FieldPath _path;
    FieldPath _to;
    BSONElement _arg;  // a view into the driver's spec
    // $push / $addToSet
    std::vector<BSONElement> _each;
    std::optional<long long> _slice;
    std::optional<long long> _position;
    std::optional<int> _sortDirection;        // sort whole elements
    std::optional<SortPattern> _sortPattern;  // sort by fields
    // $pull
    std::unique_ptr<MatchExpression> _pullMatcher;
    bool _pullMatcherOnValues = false;
    std::shared_ptr<RegexMatcher> _pullRegex;
    // $currentDate
    bool _timestamp = false;
    const CollatorInterface* _collator = nullptr;
};

}  // namespace mongo
