#include "mongo/db/update/update_driver.h"

#include <algorithm>
#include <cctype>
#include <set>

#include "mongo/bson/bsonobjbuilder.h"
#include "mongo/db/matcher/expression_parser.h"
#include "mongo/db/update/document_diff.h"
#include "mongo/db/update/modifier_op.h"
#include "mongo/db/update/mutable_node.h"
#include "mongo/util/assert_util.h"

namespace mongo {

UpdateDriver::UpdateDriver() = default;
UpdateDriver::~UpdateDriver() = default;
UpdateDriver::UpdateDriver(UpdateDriver&&) noexcept = default;
UpdateDriver& UpdateDriver::operator=(UpdateDriver&&) noexcept = default;

namespace {

Status failedToParse(std::string msg) {
    return Status(ErrorCodes::FailedToParse, std::move(msg));
}

bool isLowerAlnumIdentifier(StringData id) {
    if (id.empty() || !(id[0] >= 'a' && id[0] <= 'z'))
        return false;
    for (char c : id)
        if (!std::isalnum(static_cast<unsigned char>(c)))
            return false;
    return true;
}

/** The first path component of every leaf of `e` (array filter identifiers). */
void collectTopComponents(const MatchExpression* e, std::vector<std::string>* out) {
    if (!e)
        return;
    const std::string& p = e->path();
    if (!p.empty()) {
        out->push_back(p.substr(0, p.find('.')));
        return;
    }
    for (size_t i = 0; i < e->numChildren(); ++i)
        collectTopComponents(e->getChild(i), out);
}

bool isPrefixOrEqual(const FieldPath& a, const FieldPath& b) {
    if (a.numParts() > b.numParts())
        return false;
    for (size_t i = 0; i < a.numParts(); ++i)
        if (a.part(i) != b.part(i))
            return false;
    return true;
}

}  // namespace

StatusWith<UpdateDriver> UpdateDriver::parseElement(const BSONElement& u,
                                                    const std::vector<BSONObj>& arrayFilters) {
    if (u.type() == BSONType::kArray)
        return Status(ErrorCodes::NotImplemented,
                      "a pipeline-style update is parsed by the pipeline layer "
                      "(update_pipeline.h), then given to UpdateDriver::forPipeline");
    if (u.type() != BSONType::kObject)
        return Status(ErrorCodes::FailedToParse,
                      "Update argument must be either an object or an array");
    return parse(u.Obj(), arrayFilters);
}

StatusWith<UpdateDriver> UpdateDriver::parse(const BSONObj& update,
                                             const std::vector<BSONObj>& arrayFilters) {
    UpdateDriver d;
    d._spec = update.getOwned();
    StringData first = d._spec.isEmpty() ? StringData() : d._spec.firstElementFieldNameStringData();
    d._replacement = first.empty() || first[0] != '$';
    if (d._replacement) {
        for (BSONElement e : d._spec) {
            StringData n = e.fieldNameStringData();
            if (!n.empty() && n[0] == '$')
                return Status(ErrorCodes::DollarPrefixedFieldName,
                              "The dollar ($) prefixed field '" + std::string(n) + "' in '" +
                                  std::string(n) +
                                  "' is not allowed in the context of an update's replacement "
                                  "document. Consider using an aggregation pipeline with "
                                  "$replaceWith.");
        }
        if (!arrayFilters.empty())
            return failedToParse("arrayFilters may not be specified for a replacement update");
        return d;
    }
    Status s = d.parseArrayFilters(arrayFilters);
    if (!s.isOK())
        return s;
    s = d.parseModifiers();
    if (!s.isOK())
        return s;
    s = d.checkConflictsAndIdentifiers();
    if (!s.isOK())
        return s;
    return d;
}

UpdateDriver UpdateDriver::forPipeline(const std::vector<BSONObj>& stages,
                                       std::shared_ptr<const UpdatePipelineTransform> transform) {
    UpdateDriver d;
    BSONArrayBuilder b;
    for (const BSONObj& stage : stages)
        b.append(stage);
    d._spec = b.arr();
    d._pipeline = std::move(transform);
    return d;
}

Status UpdateDriver::parseArrayFilters(const std::vector<BSONObj>& filters) {
    for (const BSONObj& f : filters) {
        BSONObj owned = f.getOwned();
        _arrayFilterSpecs.push_back(owned);
        auto m = parseMatchExpression(owned);
        if (!m.isOK())
            return m.getStatus().withContext("Error parsing array filter");
        std::vector<std::string> tops;
        collectTopComponents(m.getValue().get(), &tops);
        if (tops.empty())
            return failedToParse(
                "Cannot use an expression without a top-level field name in "
                "arrayFilters");
        for (const auto& t : tops)
            if (t != tops[0])
                return failedToParse(
                    "Error parsing array filter :: caused by :: Expected a single "
                    "top-level field name, found '" +
                    tops[0] + "' and '" + t + "'");
        if (!isLowerAlnumIdentifier(tops[0]))
            return Status(ErrorCodes::BadValue,
                          "Error parsing array filter :: caused by :: The top-level field name "
                          "must be an alphanumeric string beginning with a lowercase letter, "
                          "found '" +
                              tops[0] + "'");
        if (_arrayFilters.count(tops[0]))
            return failedToParse(
                "Found multiple array filters with the same top-level field "
                "name " +
                tops[0]);
        _arrayFilters[tops[0]] = std::move(m.getValue());
    }
    return Status::OK();
}

Status UpdateDriver::parseModifiers() {
    for (BSONElement opElem : _spec) {
        StringData opName = opElem.fieldNameStringData();
        ModifierOp::Kind kind;
        if (opName.empty() || opName[0] != '$' || !ModifierOp::kindFromName(opName, &kind))
            return failedToParse("Unknown modifier: " + std::string(opName) +
                                 ". Expected a valid update modifier or pipeline-style update "
                                 "specified as an array");
        if (opElem.type() != BSONType::kObject)
            return failedToParse("Modifiers operate on fields but we found type " +
                                 std::string(typeName(opElem.type())) +
                                 " instead. For example: {$mod: {<field>: ...}} not {" +
                                 std::string(opName) + ": " + opElem.toString(false) + "}");
        for (BSONElement field : opElem.Obj()) {
            auto op = ModifierOp::parse(kind, opName, field);
            if (!op.isOK())
                return op.getStatus();
            for (const auto& c : op.getValue()->path().parts())
                if (c == "$")
                    _positional = true;
            _ops.push_back(std::move(op.getValue()));
        }
    }
    auto target = [](const ModifierOp& op) -> const FieldPath& {
        return op.kind() == ModifierOp::Kind::kRename ? op.renameTo() : op.path();
    };
    // Field order, except that two numeric parts (array indexes) compare as numbers: "a.9"
    // before "a.10", so that padding an array for one leaves the other to create its element.
    auto isIndex = [](const std::string& p) {
        return !p.empty() &&
               std::all_of(p.begin(), p.end(), [](char c) { return c >= '0' && c <= '9'; });
    };
    auto partLess = [&](const std::string& x, const std::string& y) {
        if (isIndex(x) && isIndex(y)) {
            const size_t zx = std::min(x.find_first_not_of('0'), x.size());
            const size_t zy = std::min(y.find_first_not_of('0'), y.size());
            const size_t lx = x.size() - zx, ly = y.size() - zy;
            if (lx != ly)
                return lx < ly;
            if (int c = x.compare(zx, lx, y, zy, ly); c != 0)
                return c < 0;
        }
        return x < y;
    };
    std::stable_sort(_ops.begin(), _ops.end(), [&](const auto& a, const auto& b) {
        const auto& pa = target(*a).parts();
        const auto& pb = target(*b).parts();
        return std::lexicographical_compare(pa.begin(), pa.end(), pb.begin(), pb.end(), partLess);
    });
    // The objects whose $id/$ref/$db field a path sets: checked to stay DBRefs after applying.
    for (const auto& op : _ops) {
        const auto& parts = op->path().parts();
        for (size_t i = 1; i < parts.size(); ++i) {
            if (parts[i] == "$id" || parts[i] == "$ref" || parts[i] == "$db") {
                _dbRefParents.emplace_back(parts.begin(), parts.begin() + i);
                break;
            }
        }
    }
    return Status::OK();
}

Status UpdateDriver::checkConflictsAndIdentifiers() {
    std::vector<const FieldPath*> paths;
    for (const auto& op : _ops) {
        paths.push_back(&op->path());
        if (op->kind() == ModifierOp::Kind::kRename)
            paths.push_back(&op->renameTo());
    }
    for (size_t i = 0; i < paths.size(); ++i) {
        for (size_t j = 0; j < i; ++j) {
            const FieldPath* shorter =
                paths[i]->numParts() <= paths[j]->numParts() ? paths[i] : paths[j];
            const FieldPath* longer = shorter == paths[i] ? paths[j] : paths[i];
            if (isPrefixOrEqual(*shorter, *longer))
                return Status(ErrorCodes::ConflictingUpdateOperators,
                              "Updating the path '" + paths[i]->dotted() +
                                  "' would create a conflict at '" + shorter->dotted() + "'");
        }
    }
    std::set<std::string> used;
    for (const FieldPath* p : paths) {
        for (const auto& c : p->parts()) {
            if (c.size() > 3 && c[0] == '$' && c[1] == '[') {
                std::string id = c.substr(2, c.size() - 3);
                if (!_arrayFilters.count(id))
                    return Status(ErrorCodes::BadValue, "No array filter found for identifier '" +
                                                            id + "' in path '" + p->dotted() + "'");
                used.insert(id);
            }
        }
    }
    for (const auto& [id, f] : _arrayFilters)
        if (!used.count(id))
            return failedToParse("The array filter for identifier '" + id +
                                 "' was not used in the update " + _spec.toString());
    return Status::OK();
}

bool UpdateDriver::modifiesId() const {
    if (_pipeline)
        return true;  // it may: only its output says
    if (_replacement)
        return _spec.hasField("_id");
    for (const auto& op : _ops) {
        if (op->path().part(0) == "_id")
            return true;
        if (op->kind() == ModifierOp::Kind::kRename && op->renameTo().part(0) == "_id")
            return true;
    }
    return false;
}

namespace {
/**
 * An object holding $ref, $id or $db must be a DBRef: {$ref: <string>, $id: <any>, $db:
 * <string>?, ...}, as upstream's storage validation requires (55 InvalidDBRef).
 */
Status checkDBRef(const BSONObj& obj) {
    auto bad = [](const std::string& m) { return Status(ErrorCodes::InvalidDBRef, m); };
    std::vector<BSONElement> fields;
    for (auto e : obj) {
        fields.push_back(e);
        if (fields.size() == 3)
            break;
    }
    auto field = [&](size_t i) { return i < fields.size() ? fields[i] : BSONElement(); };
    BSONElement ref = field(0);
    if (ref.fieldNameStringData() != "$ref")
        return bad("The DBRef $ref field must be the first field of the object");
    if (ref.type() != BSONType::kString)
        return bad("The DBRef $ref field must be a String, not a " +
                   std::string(typeName(ref.type())));
    if (field(1).fieldNameStringData() != "$id")
        return bad("The DBRef $ref field must be followed by a $id field");
    if (BSONElement db = field(2); !db.eoo()) {
        if (db.fieldNameStringData() == "$db" && db.type() != BSONType::kString)
            return bad("The DBRef $db field must be a String, not a " +
                       std::string(typeName(db.type())));
    }
    return Status::OK();
}

/** The objects at `parents` (paths into `doc`) that hold a DBRef field are valid DBRefs. */
Status checkDBRefParents(const std::vector<std::vector<std::string>>& parents, const BSONObj& doc) {
    for (const auto& path : parents) {
        BSONObj parent = doc;
        bool found = true;
        for (size_t j = 0; j < path.size() && found; ++j) {
            BSONElement e = parent[path[j]];
            found = e.type() == BSONType::kObject || e.type() == BSONType::kArray;
            if (found)
                parent = e.Obj();
        }
        if (found &&
            (parent.hasField("$ref") || parent.hasField("$id") || parent.hasField("$db"))) {
            Status s = checkDBRef(parent);
            if (!s.isOK())
                return s;
        }
    }
    return Status::OK();
}

Status checkIdType(const BSONObj& doc) {
    BSONElement id = doc["_id"];
    if (id.type() == BSONType::kArray || id.type() == BSONType::kRegEx ||
        id.type() == BSONType::kUndefined)
        return Status(ErrorCodes::InvalidIdField,
                      "The '_id' value cannot be of type " + std::string(typeName(id.type())));
    return Status::OK();
}
}  // namespace

void UpdateDriver::setCollator(const CollatorInterface* collator) {
    for (auto& op : _ops)
        op->setCollator(collator);
    for (auto& [id, filter] : _arrayFilters)
        filter->setCollator(collator);
}

StatusWith<BSONObj> UpdateDriver::replacementFor(const BSONObj& pre,
                                                 const UpdateApplyParams& params) const {
    BSONObj replacement = _spec;
    if (_pipeline) {
        try {
            replacement = _pipeline->transform(pre);
        } catch (const DBException& ex) {
            return ex.toStatus();
        }
    }
    BSONElement oldId = pre["_id"];
    BSONElement newId = replacement["_id"];
    if (!params.isInsert && !params.idIsMutable && !oldId.eoo() && !newId.eoo() &&
        !oldId.binaryEqualValues(newId))
        return Status(ErrorCodes::ImmutableField,
                      "After applying the update, the (immutable) field '_id' was found to "
                      "have been altered to _id: " +
                          newId.toString(false));
    if (oldId.eoo() || !newId.eoo())
        return replacement;
    BSONObjBuilder b;
    b.append(oldId);
    b.appendElements(replacement);
    return b.obj();
}

StatusWith<UpdateResult> UpdateDriver::apply(const BSONObj& pre,
                                             const UpdateApplyParams& params) const {
    UpdateResult r;
    BSONElement oldId = pre["_id"];
    if (_replacement || _pipeline) {
        auto doc = replacementFor(pre, params);
        if (!doc.isOK())
            return doc.getStatus();
        r.newDoc = std::move(doc.getValue());
    } else {
        auto root = MutableNode::root(pre);
        ModifierApplyContext ctx;
        ctx.preDoc = &pre;
        ctx.params = &params;
        ctx.arrayFilters = &_arrayFilters;
        ctx.now = Date_t::now();
        // Limits met while applying (CannotBackfillArray, a buffer past its cap) arrive as
        // exceptions from deep in the tree; this function reports them as its Status.
        try {
            for (const auto& op : _ops) {
                Status s = op->apply(root.get(), ctx);
                if (!s.isOK())
                    return s;
            }
            r.newDoc = root->toObject();
        } catch (const DBException& ex) {
            return ex.toStatus();
        }
        if (!_dbRefParents.empty())
            if (Status s = checkDBRefParents(_dbRefParents, r.newDoc); !s.isOK())
                return s;
        if (!params.isInsert && !params.idIsMutable && !oldId.eoo()) {
            BSONElement newId = r.newDoc["_id"];
            if (newId.eoo() || !oldId.binaryEqualValues(newId) || oldId.type() != newId.type())
                return Status(ErrorCodes::ImmutableField,
                              "Performing an update on the path '_id' would modify the immutable "
                              "field '_id'");
        }
    }
    Status s = checkIdType(r.newDoc);
    if (!s.isOK())
        return s;
    if (r.newDoc.objsize() > BSONObjMaxUserSize)
        return Status(ErrorCodes::BSONObjectTooLarge,
                      "Resulting document after update is larger than 16777216");
    // A replacement is a no-op only when the document is the replacement as given: upstream
    // replaces {_id: 0} by {} (and validates it) although the result is the same document.
    r.changed = _replacement && !_pipeline ? !pre.binaryEqual(_spec) : !r.newDoc.binaryEqual(pre);
    if (params.computeDiff && r.changed)
        r.diff = doc_diff::makeUpdateOplogObject(doc_diff::computeDiff(pre, r.newDoc));
    return r;
}

namespace {
/** Collects $eq predicates of `e` (through $and) into `out` as (path, value). */
void collectEqualities(const MatchExpression* e,
                       std::vector<std::pair<std::string, BSONElement>>* out,
                       std::vector<BSONObj>* holders) {
    using MT = MatchExpression::MatchType;
    if (e->matchType() == MT::kAnd) {
        for (size_t i = 0; i < e->numChildren(); ++i)
            collectEqualities(e->getChild(i), out, holders);
        return;
    }
    if (e->matchType() == MT::kEq) {
        BSONObj o = e->serialize();
        holders->push_back(o);
        BSONElement v = o.firstElement().Obj().firstElement();
        out->emplace_back(e->path(), v);
    }
}
}  // namespace

StatusWith<BSONObj> UpdateDriver::seedUpsertDocument(const BSONObj& query) const {
    auto m = parseMatchExpression(query);
    if (!m.isOK())
        return m.getStatus();
    std::vector<std::pair<std::string, BSONElement>> eqs;
    std::vector<BSONObj> holders;
    collectEqualities(m.getValue().get(), &eqs, &holders);
    if (_replacement) {
        BSONObjBuilder b;
        BSONElement id = _spec["_id"];
        if (id.eoo()) {
            for (const auto& [p, v] : eqs) {
                if (p == "_id") {
                    b.appendAs(v, "_id");
                    break;
                }
            }
        }
        b.appendElements(_spec);
        return b.obj();
    }
    // Reject overlapping equality paths.
    for (size_t i = 0; i < eqs.size(); ++i) {
        for (size_t j = 0; j < i; ++j) {
            FieldPath a(eqs[i].first), b(eqs[j].first);
            if (a.dotted() == b.dotted())
                return Status(
                    ErrorCodes::NotSingleValueField,
                    "cannot infer query fields to set, path '" + a.dotted() + "' is matched twice");
            if (isPrefixOrEqual(a, b) || isPrefixOrEqual(b, a))
                return Status(ErrorCodes::NotSingleValueField,
                              "cannot infer query fields to set, both paths '" + b.dotted() +
                                  "' and '" + a.dotted() + "' are matched");
        }
    }
    std::stable_sort(eqs.begin(), eqs.end(), [](const auto& a, const auto& b) {
        bool ai = FieldPath(a.first).part(0) == "_id", bi = FieldPath(b.first).part(0) == "_id";
        return ai && !bi;
    });
    auto root = MutableNode::emptyObject();
    for (const auto& [p, v] : eqs) {
        FieldPath fp(p);
        bool skip = false;
        for (const auto& c : fp.parts())
            if (c.empty() || c[0] == '$')
                skip = true;
        if (skip)
            continue;
        MutableNode* cur = root.get();
        for (size_t i = 0; i + 1 < fp.numParts() && cur; ++i) {
            MutableNode* next = cur->field(fp.part(i));
            if (!next)
                next = cur->addField(fp.part(i), MutableNode::emptyObject());
            cur = next->isObject() ? next : nullptr;
        }
        if (cur)
            cur->setField(fp.part(fp.numParts() - 1), MutableNode::copyOf(v));
    }
    return root->toObject();
}

StatusWith<BSONObj> UpdateDriver::produceUpsertDocument(const BSONObj& query,
                                                        const UpdateApplyParams& params) const {
    auto seed = seedUpsertDocument(query);
    if (!seed.isOK())
        return seed;
    if (_replacement)
        return seed;
    BSONObj doc;
    if (_suppliedUpsert) {
        doc = *_suppliedUpsert;
        if (doc["_id"].eoo() && !seed.getValue()["_id"].eoo()) {
            BSONObjBuilder b;
            b.append(seed.getValue()["_id"]);
            b.appendElements(doc);
            return b.obj();
        }
    } else {
        UpdateApplyParams p = params;
        p.isInsert = true;
        p.computeDiff = false;
        auto r = apply(seed.getValue(), p);
        if (!r.isOK())
            return r.getStatus();
        doc = r.getValue().newDoc;
        // The _id the query's equalities give is immutable for the insert too (upstream's).
        BSONElement seedId = seed.getValue()["_id"];
        BSONElement newId = doc["_id"];
        if (!seedId.eoo() &&
            (newId.eoo() || seedId.type() != newId.type() || !seedId.binaryEqualValues(newId)))
            return Status(ErrorCodes::ImmutableField,
                          "After applying the update, the (immutable) field '_id' was found to "
                          "have been altered to _id: " +
                              (newId.eoo() ? std::string("missing") : newId.toString(false)));
    }
    BSONElement id = doc["_id"];
    if (id.eoo() || doc.firstElementFieldNameStringData() == "_id")
        return doc;
    BSONObjBuilder b;
    b.append(id);
    for (BSONElement e : doc)
        if (e.fieldNameStringData() != "_id")
            b.append(e);
    return b.obj();
}

}  // namespace mongo
