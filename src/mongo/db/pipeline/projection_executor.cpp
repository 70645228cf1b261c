#include "mongo/db/pipeline/projection_executor.h"

#include "mongo/db/matcher/path.h"
#include "mongo/db/pipeline/document_path.h"
#include "mongo/util/assert_util.h"

namespace mongo {

namespace {
/** A sub-object of a projection is a nested projection unless it is an expression ({$op: ...});
 * DBRef field names ($ref, $id, $db) are fields, not operators. */
bool startsNestedProjection(const BSONObj& o) {
    StringData first = o.firstElementFieldNameStringData();
    return !first.starts_with("$") || isDBRefFieldName(first);
}
}  // namespace

struct ProjectionExecutor::Node {
    enum class Action { kInclude, kExclude, kCompute, kSub };
    struct Child {
        std::string name;
        Action action;
        ExprPtr expr;
        std::unique_ptr<Node> sub;
    };
    std::vector<Child> children;
    bool hasComputed = false;  // some descendant is computed

    Child* find(StringData name) {
        for (auto& c : children)
            if (c.name == name)
                return &c;
        return nullptr;
    }
    const Child* find(StringData name) const {
        return const_cast<Node*>(this)->find(name);
    }
};

namespace {

using Node = ProjectionExecutor::Node;
using Action = Node::Action;
using FieldList = std::vector<std::pair<StringData, Value>>;

void setField(FieldList* fields, StringData name, Value v) {
    for (auto& f : *fields) {
        if (f.first == name) {
            f.second = std::move(v);
            return;
        }
    }
    if (!v.missing())
        fields->emplace_back(name, std::move(v));
}

BSONObj build(const FieldList& fields) {
    BSONObjBuilder b;
    for (const auto& [name, v] : fields)
        v.addToBsonObj(&b, name);
    return b.obj();
}

void markComputed(Node* root, const std::vector<std::string>& parts) {
    root->hasComputed = true;
    Node* cur = root;
    for (size_t i = 0; i + 1 < parts.size(); ++i) {
        cur = cur->find(parts[i])->sub.get();
        cur->hasComputed = true;
    }
}

void insertPath(Node* root, StringData dotted, Action action, ExprPtr expr) {
    std::vector<std::string> parts = splitFieldPath(dotted);
    Node* cur = root;
    for (size_t i = 0; i + 1 < parts.size(); ++i) {
        Node::Child* c = cur->find(parts[i]);
        if (!c) {
            cur->children.push_back({parts[i], Action::kSub, nullptr, std::make_unique<Node>()});
            c = &cur->children.back();
        }
        // A path through a field already projected or computed (x, then x.b): 31249, as the
        // find projection (query/projection.cpp) and upstream.
        if (c->action != Action::kSub) {
            std::string rest;
            for (size_t j = i + 1; j < parts.size(); ++j)
                rest += (rest.empty() ? "" : ".") + parts[j];
            uasserted(31249, "Invalid $project :: caused by :: Path collision at " +
                                 std::string(dotted) + " remaining portion " + rest);
        }
        cur = c->sub.get();
    }
    Node::Child* existing = cur->find(parts.back());
    // The field itself already there (x.b, then x; or x twice): 31250.
    uassert(31250, "Invalid $project :: caused by :: Path collision at " + std::string(dotted),
            !existing);
    cur->children.push_back({parts.back(), action, std::move(expr), nullptr});
    if (action == Action::kCompute)
        markComputed(root, parts);
}

BSONObj applyNode(const Node& node, ProjectionExecutor::Kind kind, const BSONObj& in,
                  const BSONObj& root, Variables* vars);

/** Applies `node` to an array value found on the path. */
Value applyToArray(const Node& node, ProjectionExecutor::Kind kind, const BSONElement& arr,
                   const BSONObj& root, Variables* vars) {
    std::vector<Value> out;
    for (auto e : arr.Obj()) {
        if (e.type() == BSONType::kObject) {
            out.push_back(Value(applyNode(node, kind, e.Obj(), root, vars)));
        } else if (e.type() == BSONType::kArray) {
            out.push_back(applyToArray(node, kind, e, root, vars));
        } else if (kind == ProjectionExecutor::Kind::kExclusion) {
            out.push_back(Value(e));
        } else if (node.hasComputed) {
            out.push_back(Value(applyNode(node, kind, BSONObj(), root, vars)));
        }
    }
    return Value(out);
}

BSONObj applyNode(const Node& node, ProjectionExecutor::Kind kind, const BSONObj& in,
                  const BSONObj& root, Variables* vars) {
    using Kind = ProjectionExecutor::Kind;
    FieldList fields;
    for (auto e : in) {
        StringData name = e.fieldNameStringData();
        const Node::Child* c = node.find(name);
        if (!c) {
            if (kind != Kind::kInclusion)
                fields.emplace_back(name, Value(e));
            continue;
        }
        switch (c->action) {
            case Action::kInclude:
                fields.emplace_back(name, Value(e));
                break;
            case Action::kExclude:
                break;
            case Action::kCompute:
                if (kind == Kind::kAddFields)
                    fields.emplace_back(name, Value(e));  // replaced below, in place
                break;
            case Action::kSub:
                if (e.type() == BSONType::kObject)
                    fields.emplace_back(name, Value(applyNode(*c->sub, kind, e.Obj(), root, vars)));
                else if (e.type() == BSONType::kArray)
                    fields.emplace_back(name, applyToArray(*c->sub, kind, e, root, vars));
                else if (kind == Kind::kExclusion)
                    fields.emplace_back(name, Value(e));
                else if (kind == Kind::kAddFields)
                    fields.emplace_back(name,
                                        Value(applyNode(*c->sub, kind, BSONObj(), root, vars)));
                break;
        }
    }
    if (!node.hasComputed)
        return build(fields);
    for (const auto& c : node.children) {
        if (c.action == Action::kCompute) {
            setField(&fields, c.name, c.expr->evaluate(root, vars));
        } else if (c.action == Action::kSub && c.sub->hasComputed) {
            bool present = false;
            for (const auto& f : fields)
                present = present || f.first == c.name;
            if (!present)
                setField(&fields, c.name, Value(applyNode(*c.sub, kind, BSONObj(), root, vars)));
        }
    }
    // Remove fields set to missing ($$REMOVE).
    FieldList kept;
    kept.reserve(fields.size());
    for (auto& f : fields)
        if (!f.second.missing())
            kept.push_back(std::move(f));
    return build(kept);
}

void serializeNode(const Node& node, BSONObjBuilder* b) {
    for (const auto& c : node.children)
        if (c.action == Action::kInclude || c.action == Action::kExclude)
            b->append(c.name, c.action == Action::kInclude);
    for (const auto& c : node.children) {
        if (c.action == Action::kCompute) {
            c.expr->serialize(b, c.name);
        } else if (c.action == Action::kSub) {
            BSONObjBuilder sub(b->subobjStart(c.name));
            serializeNode(*c.sub, &sub);
        }
    }
}

void collectTopLevel(const Node& node, std::vector<std::string>* out) {
    for (const auto& c : node.children)
        out->push_back(c.name);
}

}  // namespace

ProjectionExecutor::ProjectionExecutor(Kind kind, std::unique_ptr<Node> root)
    : _kind(kind), _root(std::move(root)) {}
ProjectionExecutor::~ProjectionExecutor() = default;

BSONObj ProjectionExecutor::apply(const BSONObj& doc, Variables* vars) const {
    return applyNode(*_root, _kind, doc, doc, vars);
}

void ProjectionExecutor::serialize(BSONObjBuilder* b) const {
    serializeNode(*_root, b);
    if (_kind == Kind::kExclusion && !_root->find("_id"))
        b->append("_id", true);
}

std::vector<std::string> ProjectionExecutor::modifiedTopLevelFields() const {
    std::vector<std::string> out;
    collectTopLevel(*_root, &out);
    return out;
}

namespace {

struct ProjectParseState {
    ExpressionContext* expCtx;
    VariablesParseState vps;
    bool sawInclusion = false;  // include or compute (not _id)
    bool sawExclusion = false;  // exclude (not _id)
    bool sawMeta = false;       // {$meta: ...} (not _id): inclusion unless something is excluded
    bool idExcluded = false;
    bool idSpecified = false;
    struct Entry {
        std::string path;
        Action action;
        ExprPtr expr;
    };
    std::vector<Entry> entries;
};

ExprPtr parseProjectedExpression(ProjectParseState* st, const BSONElement& e) {
    return Expression::parseProjectedOperand(st->expCtx, e, st->vps);
}

void parseProjectFields(ProjectParseState* st, const BSONObj& spec, const std::string& prefix) {
    for (auto e : spec) {
        StringData name = e.fieldNameStringData();
        std::string path = prefix.empty() ? std::string(name) : prefix + "." + std::string(name);
        bool isId = path == "_id";
        if (e.isNumber() || e.isBoolean()) {
            bool include = e.trueValue();
            if (isId) {
                st->idSpecified = true;
                st->idExcluded = !include;
                st->entries.push_back(
                    {path, include ? Action::kInclude : Action::kExclude, nullptr});
                continue;
            }
            if (include) {
                uassert(31253,
                        "Invalid $project :: caused by :: Cannot do inclusion on field " + path +
                            " in exclusion projection",
                        !st->sawExclusion);
                st->sawInclusion = true;
                st->entries.push_back({path, Action::kInclude, nullptr});
            } else {
                uassert(31254,
                        "Invalid $project :: caused by :: Cannot do exclusion on field " + path +
                            " in inclusion projection",
                        !st->sawInclusion);
                st->sawExclusion = true;
                st->entries.push_back({path, Action::kExclude, nullptr});
            }
            continue;
        }
        if (e.type() == BSONType::kObject && !e.Obj().isEmpty() &&
            startsNestedProjection(e.Obj())) {
            parseProjectFields(st, e.Obj(), path);
            continue;
        }
        uassert(51270,
                "Invalid $project :: caused by :: An empty sub-projection is not a valid value. "
                "Found empty object at path",
                !(e.type() == BSONType::kObject && e.Obj().isEmpty()));
        // {$meta: ...} is allowed in an exclusion projection too (added to what it keeps).
        const bool isMeta = e.type() == BSONType::kObject && e.Obj().nFields() == 1 &&
                            e.Obj().firstElementFieldNameStringData() == "$meta";
        uassert(31252,
                "Invalid $project :: caused by :: Cannot use expression other than $meta in "
                "exclusion projection",
                isMeta || !st->sawExclusion);
        if (isId)
            st->idSpecified = true;
        else if (isMeta)
            st->sawMeta = true;
        else
            st->sawInclusion = true;
        st->entries.push_back({path, Action::kCompute, parseProjectedExpression(st, e)});
    }
}

}  // namespace

std::unique_ptr<ProjectionExecutor> ProjectionExecutor::parseProject(ExpressionContext* expCtx,
                                                                     const BSONObj& spec) {
    uassert(
        40177,
        "Invalid $project :: caused by :: projection specification must have at least one field",
        !spec.isEmpty());
    ProjectParseState st{expCtx, expCtx->makeParseState()};
    parseProjectFields(&st, spec, "");
    Kind kind =
        st.sawInclusion || (st.sawMeta && !st.sawExclusion) ? Kind::kInclusion : Kind::kExclusion;
    if (!st.sawInclusion && !st.sawExclusion && !st.sawMeta) {
        // Only _id was given: {_id: 0} excludes it, {_id: 1} keeps only it.
        bool idIncluded = false;
        for (const auto& en : st.entries)
            idIncluded = idIncluded || en.action != Action::kExclude;
        kind = idIncluded ? Kind::kInclusion : Kind::kExclusion;
    }
    auto root = std::make_unique<Node>();
    if (kind == Kind::kInclusion && !st.idSpecified)
        root->children.push_back({"_id", Action::kInclude, nullptr, nullptr});
    for (auto& en : st.entries) {
        Action a = en.action;
        if (kind == Kind::kExclusion && a == Action::kInclude)
            continue;  // {_id: 1} in an exclusion projection
        if (kind == Kind::kInclusion && a == Action::kExclude && en.path != "_id")
            continue;
        insertPath(root.get(), en.path, a, std::move(en.expr));
    }
    return std::make_unique<ProjectionExecutor>(kind, std::move(root));
}

std::unique_ptr<ProjectionExecutor> ProjectionExecutor::parseAddFields(ExpressionContext* expCtx,
                                                                       const BSONObj& spec,
                                                                       StringData stageName) {
    auto root = std::make_unique<Node>();
    auto vps = expCtx->makeParseState();
    std::function<void(const BSONObj&, const std::string&)> walk = [&](const BSONObj& obj,
                                                                       const std::string& prefix) {
        for (auto e : obj) {
            std::string path = prefix.empty() ? std::string(e.fieldNameStringData())
                                              : prefix + "." + std::string(e.fieldNameStringData());
            if (e.type() == BSONType::kObject && !e.Obj().isEmpty() &&
                startsNestedProjection(e.Obj())) {
                walk(e.Obj(), path);
                continue;
            }
            insertPath(root.get(), path, Action::kCompute,
                       Expression::parseOperand(expCtx, e, vps));
        }
    };
    walk(spec, "");
    return std::make_unique<ProjectionExecutor>(Kind::kAddFields, std::move(root));
}

std::unique_ptr<ProjectionExecutor> ProjectionExecutor::makeExclusion(
    const std::vector<std::string>& paths) {
    auto root = std::make_unique<Node>();
    for (const auto& p : paths)
        insertPath(root.get(), p, Action::kExclude, nullptr);
    return std::make_unique<ProjectionExecutor>(Kind::kExclusion, std::move(root));
}

}  // namespace mongo
