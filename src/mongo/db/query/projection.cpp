#include "mongo/db/query/projection.h"

#include <algorithm>
#include <optional>

#include "mongo/bson/bsonobjbuilder.h"
#include "mongo/db/matcher/expression_parser.h"
#include "mongo/db/matcher/path.h"

namespace mongo {

struct Projection::Node {
    enum class Kind { kInterior, kInclude, kExclude, kSlice, kElemMatch, kPositional, kComputed };
    Kind kind = Kind::kInterior;
    std::vector<std::pair<std::string, std::unique_ptr<Node>>> children;
    long long skip = 0;
    std::optional<long long> limit;  // $slice: [skip, limit] or the single number in `skip`
    std::unique_ptr<MatchExpression> elemMatch;
    BSONElement value;  // computed: literal value or "$path" string (views _spec)
    std::unique_ptr<ProjectionExpression> expr;  // computed, when an expression parser was given

    Node* child(StringData name) const {
        for (const auto& [n, c] : children)
            if (n == name)
                return c.get();
        return nullptr;
    }
};

namespace {

using Node = Projection::Node;
using Kind = Node::Kind;

Status err(int code, std::string msg) {
    return Status(ErrorCodes::Error(code), std::move(msg));
}

Status insertPath(Node* root, const std::string& path, std::unique_ptr<Node> leaf) {
    FieldPath fp(path);
    Node* cur = root;
    for (size_t i = 0; i < fp.numParts(); ++i) {
        StringData part = fp.part(i);
        Node* next = cur->child(part);
        bool last = i + 1 == fp.numParts();
        if (last) {
            if (next)
                return err(31250, "Path collision at " + path);
            cur->children.emplace_back(std::string(part), std::move(leaf));
            return Status::OK();
        }
        if (next && next->kind != Kind::kInterior) {
            std::string rest;
            for (size_t j = i + 1; j < fp.numParts(); ++j)
                rest += (rest.empty() ? "" : ".") + std::string(fp.part(j));
            return err(31249, "Path collision at " + path + " remaining portion " + rest);
        }
        if (!next) {
            cur->children.emplace_back(std::string(part), std::make_unique<Node>());
            next = cur->children.back().second.get();
        }
        cur = next;
    }
    return Status::OK();
}

Status parseSlice(const BSONElement& arg, Node* leaf) {
    if (arg.isNumber()) {
        leaf->skip = arg.numberLong();
        return Status::OK();
    }
    if (arg.type() != BSONType::kArray)
        return err(28667, "$slice only supports numbers and [skip, limit] arrays");
    std::vector<BSONElement> v = arg.Array();
    if (v.size() != 2)
        return err(28724, "$slice array wrong size");
    if (!v[0].isNumber() || !v[1].isNumber())
        return err(28667, "$slice only supports numbers and [skip, limit] arrays");
    if (v[1].numberLong() <= 0)
        return err(28724, "$slice limit must be positive");
    leaf->skip = v[0].numberLong();
    leaf->limit = v[1].numberLong();
    return Status::OK();
}

void appendSliced(BSONObjBuilder* out, StringData name, const BSONElement& arr, const Node& n) {
    std::vector<BSONElement> els = arr.Array();
    long long size = static_cast<long long>(els.size());
    long long from, count;
    if (!n.limit) {
        if (n.skip >= 0) {
            from = 0;
            count = n.skip;
        } else {
            from = std::max(0LL, size + n.skip);
            count = size;
        }
    } else {
        from = n.skip >= 0 ? std::min(n.skip, size) : std::max(0LL, size + n.skip);
        count = *n.limit;
    }
    BSONArrayBuilder b(out->subarrayStart(name));
    for (long long i = from; i < size && i - from < count; ++i)
        b.append(els[i]);
}

class Applier {
public:
    Applier(Projection::Type type, const MatchDetails* details) : _type(type), _details(details) {}

    void applyObject(const BSONObj& obj, const Node& node, BSONObjBuilder* out, bool top,
                     bool includeId) {
        for (BSONElement e : obj) {
            StringData name = e.fieldNameStringData();
            const Node* c = node.child(name);
            if (!c) {
                if (_type == Projection::Type::kExclusion || (top && includeId && name == "_id"))
                    out->append(e);
                continue;
            }
            applyField(e, *c, out);
        }
        const BSONObj& root = rootDoc ? *rootDoc : obj;
        appendComputed(root, node, out);
        // Computed fields under a path the document lacks create that path.
        for (const auto& [name, c] : node.children) {
            if (c->kind == Kind::kInterior && hasComputed(*c) && obj.getField(name).eoo()) {
                BSONObjBuilder sub(out->subobjStart(name));
                appendComputedOnly(root, *c, &sub);
            }
        }
    }

private:
    void applyField(const BSONElement& e, const Node& c, BSONObjBuilder* out) {
        StringData name = e.fieldNameStringData();
        switch (c.kind) {
            case Kind::kInclude:
                out->append(e);
                return;
            case Kind::kExclude:
            case Kind::kElemMatch:
            case Kind::kComputed:
                return;  // dropped, or appended after the document's own fields
            case Kind::kPositional:
                applyPositional(e, out);
                return;
            case Kind::kSlice:
                // $slice goes one array level deep: within an array of arrays it is left alone.
                if (e.type() == BSONType::kArray && _nestedArrayDepth == 0)
                    appendSliced(out, name, e, c);
                else
                    out->append(e);
                return;
            case Kind::kInterior:
                if (e.type() == BSONType::kArray && !_positionalDone && hasPositional(c)) {
                    applyPositionalAt(e, c, out);
                    return;
                }
                if (e.type() == BSONType::kObject) {
                    BSONObjBuilder sub(out->subobjStart(name));
                    applyObject(e.Obj(), c, &sub, false, false);
                } else if (e.type() == BSONType::kArray) {
                    BSONArrayBuilder arr(out->subarrayStart(name));
                    applyArray(e.Obj(), c, &arr);
                } else if (_type == Projection::Type::kExclusion) {
                    out->append(e);
                } else if (hasComputed(c)) {
                    // A scalar on the path of a computed field is replaced by an object.
                    BSONObjBuilder sub(out->subobjStart(name));
                    appendComputedOnly(*rootDoc, c, &sub);
                }
                return;
        }
    }

    static bool hasComputed(const Node& n) {
        for (const auto& [name, c] : n.children)
            if (c->kind == Kind::kComputed || (c->kind == Kind::kInterior && hasComputed(*c)))
                return true;
        return false;
    }

    void appendComputedOnly(const BSONObj& root, const Node& node, BSONObjBuilder* out) {
        appendComputed(root, node, out);
        for (const auto& [name, c] : node.children) {
            if (c->kind == Kind::kInterior && hasComputed(*c)) {
                BSONObjBuilder sub(out->subobjStart(name));
                appendComputedOnly(root, *c, &sub);
            }
        }
    }

    static bool hasPositional(const Node& n) {
        for (const auto& [name, c] : n.children)
            if (c->kind == Kind::kPositional || (c->kind == Kind::kInterior && hasPositional(*c)))
                return true;
        return false;
    }

    /**
     * The array element at the position the query matched: eoo when the query recorded none
     * (status 51246) or the array is shorter (51247).
     */
    BSONElement matchedElement(const BSONElement& arr) {
        if (!_details || !_details->hasElemMatchKey()) {
            status = err(51246,
                         "positional operator '.$' couldn't find a matching element in the array");
            return BSONElement();
        }
        BSONElement el = arr.Obj().getField(_details->elemMatchKey());
        if (el.eoo())  // the position the query matched is past this (parallel) array's end
            status = err(51247, "positional operator element mismatch");
        return el;
    }

    /**
     * "a.b.$" applies to the first array on the path (here `arr`, interior node `node`): its
     * matched element alone is kept, and the rest of the path is included from it.
     */
    void applyPositionalAt(const BSONElement& arr, const Node& node, BSONObjBuilder* out) {
        BSONElement el = matchedElement(arr);
        if (el.eoo())
            return;
        BSONArrayBuilder sub(out->subarrayStart(arr.fieldNameStringData()));
        _positionalDone = true;
        if (el.type() == BSONType::kObject) {
            BSONObjBuilder o(sub.subobjStart());
            applyObject(el.Obj(), node, &o, false, false);
        } else if (el.type() == BSONType::kArray) {
            BSONArrayBuilder a(sub.subarrayStart());
            applyArray(el.Obj(), node, &a);
        }
        _positionalDone = false;
    }

    void applyPositional(const BSONElement& e, BSONObjBuilder* out) {
        if (e.type() != BSONType::kArray || _positionalDone) {
            out->append(e);
            return;
        }
        BSONElement el = matchedElement(e);
        if (el.eoo())
            return;
        BSONArrayBuilder arr(out->subarrayStart(e.fieldNameStringData()));
        arr.append(el);
    }

    void appendComputed(const BSONObj& doc, const Node& node, BSONObjBuilder* out) {
        for (const auto& [name, c] : node.children) {
            if (c->kind != Kind::kComputed)
                continue;
            if (c->expr) {
                c->expr->appendValue(doc, name, out);
                continue;
            }
            StringData v =
                c->value.type() == BSONType::kString ? c->value.valueStringData() : StringData();
            if (!v.empty() && v[0] == '$') {
                BSONElement src = doc.getFieldDotted(v.substr(1));
                if (!src.eoo())
                    out->appendAs(src, name);
            } else {
                out->appendAs(c->value, name);
            }
        }
    }

public:
    Status status = Status::OK();
    const BSONObj* rootDoc = nullptr;

private:
    void applyArray(const BSONObj& arr, const Node& node, BSONArrayBuilder* out) {
        for (BSONElement el : arr) {
            if (el.type() == BSONType::kObject) {
                BSONObjBuilder sub(out->subobjStart());
                applyObject(el.Obj(), node, &sub, false, false);
            } else if (el.type() == BSONType::kArray) {
                BSONArrayBuilder sub(out->subarrayStart());
                ++_nestedArrayDepth;
                applyArray(el.Obj(), node, &sub);
                --_nestedArrayDepth;
            } else if (_type == Projection::Type::kExclusion) {
                out->append(el);
            } else if (hasComputed(node)) {
                // As a scalar on the path outside arrays: replaced by the computed fields.
                BSONObjBuilder sub(out->subobjStart());
                appendComputedOnly(*rootDoc, node, &sub);
            }
        }
    }

    Projection::Type _type;
    const MatchDetails* _details;
    int _nestedArrayDepth = 0;     // arrays within arrays being walked (see kSlice)
    bool _positionalDone = false;  // inside the element a positional projection kept
};

}  // namespace

Projection::Projection() : _root(std::make_unique<Node>()) {}
Projection::~Projection() = default;
Projection::Projection(Projection&&) noexcept = default;
Projection& Projection::operator=(Projection&&) noexcept = default;

namespace {
struct ParseState {
    Node* root = nullptr;
    const ProjectionExpressionParser* parseExpression = nullptr;
    std::optional<Projection::Type> type;
    std::optional<bool> idInclusion;
    std::string positional;
    std::vector<std::pair<std::string, Node*>> elemMatches;
    std::vector<std::pair<std::string, Node*>> computed;
    std::vector<std::string> metaNames;
};

Status setType(ParseState* st, Projection::Type t, const std::string& path) {
    if (st->type && *st->type != t) {
        return t == Projection::Type::kExclusion
                   ? err(31254, "Cannot do exclusion on field " + path + " in inclusion projection")
                   : err(31253,
                         "Cannot do inclusion on field " + path + " in exclusion projection");
    }
    st->type = t;
    return Status::OK();
}

/** A computed field at `path`: compiled by the expression parser when there is one. */
Status addComputed(ParseState* st, const std::string& path, const BSONElement& e,
                   std::unique_ptr<Node> leaf) {
    if (st->type == Projection::Type::kExclusion)
        return err(31252, "Cannot use expression other than $meta in exclusion projection");
    Status s = setType(st, Projection::Type::kInclusion, path);
    if (!s.isOK())
        return s;
    leaf->kind = Kind::kComputed;
    leaf->value = e;
    if (*st->parseExpression) {
        auto expr = (*st->parseExpression)(e);
        if (!expr.isOK())
            return expr.getStatus();
        leaf->expr = std::move(expr.getValue());
    }
    st->computed.emplace_back(path, leaf.get());
    return insertPath(st->root, path, std::move(leaf));
}

/**
 * {$meta: "<name>"} at `path`: a computed field that is allowed in inclusion and exclusion
 * projections alike and makes the projection neither.
 */
Status addMeta(ParseState* st, const std::string& path, const BSONElement& e,
               std::unique_ptr<Node> leaf) {
    leaf->kind = Kind::kComputed;
    leaf->value = e;
    auto expr = (*st->parseExpression)(e);
    if (!expr.isOK())
        return expr.getStatus();
    leaf->expr = std::move(expr.getValue());
    st->metaNames.push_back(std::string(e.Obj().firstElement().valueStringData()));
    st->computed.emplace_back(path, leaf.get());
    return insertPath(st->root, path, std::move(leaf));
}

Status parseElement(ParseState* st, const std::string& path, const BSONElement& e) {
    auto leaf = std::make_unique<Node>();
    if (path.size() >= 2 && path.compare(path.size() - 2, 2, ".$") == 0) {
        if (!st->positional.empty())
            return err(31276, "Cannot specify more than one positional projection per query.");
        if (!e.isNumber() && !e.isBoolean())
            return err(31271,
                       "positional projection cannot be used with an expression or sub object");
        if (!e.trueValue())
            return err(31395, "positional projection cannot be used with exclusion");
        std::string base = path.substr(0, path.size() - 2);
        if (base.empty())
            return err(5392900, "Expected a non-empty path before the positional operator");
        st->positional = base;
        Status s = setType(st, Projection::Type::kInclusion, path);
        if (!s.isOK())
            return s;
        leaf->kind = Kind::kPositional;
        return insertPath(st->root, base, std::move(leaf));
    }
    if (e.isNumber() || e.isBoolean()) {
        bool include = e.trueValue();
        if (path == "_id") {
            st->idInclusion = include;
            leaf->kind = include ? Kind::kInclude : Kind::kExclude;
            return insertPath(st->root, path, std::move(leaf));
        }
        Status s = setType(
            st, include ? Projection::Type::kInclusion : Projection::Type::kExclusion, path);
        if (!s.isOK())
            return s;
        leaf->kind = include ? Kind::kInclude : Kind::kExclude;
        return insertPath(st->root, path, std::move(leaf));
    }
    if (e.type() == BSONType::kObject) {
        BSONObj o = e.Obj();
        if (o.isEmpty())
            return err(51270,
                       "An empty sub-projection is not a valid value. Found empty object at path");
        StringData first = o.firstElementFieldNameStringData();
        if (first == "$slice") {
            leaf->kind = Kind::kSlice;
            Status s = parseSlice(o.firstElement(), leaf.get());
            if (!s.isOK())
                return s;
            return insertPath(st->root, path, std::move(leaf));
        }
        if (first == "$elemMatch") {
            if (path.find('.') != std::string::npos)
                return err(31275, "Cannot use $elemMatch projection on a nested field.");
            BSONElement spec = o.firstElement();
            if (spec.type() != BSONType::kObject)
                return err(ErrorCodes::BadValue, "elemMatch: Invalid argument, object required.");
            BSONObjBuilder fb;
            {
                BSONObjBuilder inner(fb.subobjStart(path));
                inner.append(spec);
            }
            auto m = parseMatchExpression(fb.obj());
            if (!m.isOK())
                return m.getStatus();
            leaf->kind = Kind::kElemMatch;
            leaf->elemMatch = std::move(m.getValue());
            st->elemMatches.emplace_back(path, leaf.get());
            return insertPath(st->root, path, std::move(leaf));
        }
        if (!first.empty() && first[0] == '$' && !isDBRefFieldName(first)) {
            if (!*st->parseExpression)
                return err(ErrorCodes::BadValue, "Unsupported projection option: " + e.toString() +
                                                     " (not supported in find projections)");
            if (first == "$meta" && o.nFields() == 1)
                return addMeta(st, path, e, std::move(leaf));
            return addComputed(st, path, e, std::move(leaf));
        }
        for (BSONElement sub : o) {
            Status s = parseElement(st, path + "." + std::string(sub.fieldNameStringData()), sub);
            if (!s.isOK())
                return s;
        }
        return Status::OK();
    }
    // Literal, "$path" or "$$var": a computed field.
    return addComputed(st, path, e, std::move(leaf));
}
}  // namespace

StatusWith<Projection> Projection::parse(const BSONObj& spec,
                                         const ProjectionExpressionParser& parseExpression) {
    Projection p;
    p._spec = spec.getOwned();
    ParseState st;
    st.root = p._root.get();
    st.parseExpression = &parseExpression;
    for (BSONElement e : p._spec) {
        StringData name = e.fieldNameStringData();
        if (name.empty() || (name[0] == '$' && !isDBRefFieldName(name)))
            return Status(
                ErrorCodes::BadValue,
                "projection field names may not be empty or start with '$': " + e.toString());
        Status s = parseElement(&st, std::string(name), e);
        if (!s.isOK())
            return s;
    }
    if (!st.positional.empty() && !st.elemMatches.empty())
        return err(31255, "Cannot specify positional operator and $elemMatch.");
    if (st.type)
        p._type = *st.type;
    else if (!st.elemMatches.empty())
        p._type = Type::kInclusion;  // {a: {$elemMatch: ...}} alone keeps only _id and a
    else
        p._type = st.idInclusion.value_or(false) ? Type::kInclusion : Type::kExclusion;
    p._includeId = st.idInclusion.value_or(true);
    p._positionalPath = st.positional;
    p._metaNames = std::move(st.metaNames);
    return p;
}

StatusWith<BSONObj> Projection::apply(const BSONObj& doc, const MatchDetails* details) const {
    Applier a(_type, details);
    a.rootDoc = &doc;
    BSONObjBuilder b;
    a.applyObject(doc, *_root, &b, true, _includeId);
    if (!a.status.isOK())
        return a.status;
    // $elemMatch results (top-level fields only) come after the other fields.
    for (const auto& [name, c] : _root->children) {
        if (c->kind != Kind::kElemMatch)
            continue;
        MatchDetails d;
        d.requestElemMatchKey();
        if (c->elemMatch->matchesBSON(doc, &d) && d.hasElemMatchKey()) {
            BSONElement el = doc.getField(name).Obj().getField(d.elemMatchKey());
            BSONArrayBuilder ab(b.subarrayStart(name));
            ab.append(el);
        }
    }
    return b.obj();
}

}  // namespace mongo
