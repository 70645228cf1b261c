#include "mongo/db/update/mutable_node.h"

namespace mongo {

std::unique_ptr<MutableNode> MutableNode::view(const BSONElement& e) {
    auto n = std::make_unique<MutableNode>();
    n->_value = e;
    return n;
}

std::unique_ptr<MutableNode> MutableNode::copyOf(const BSONElement& e) {
    auto n = std::make_unique<MutableNode>();
    BSONObjBuilder b;
    b.appendAs(e, "");
    n->_holder = b.obj();
    n->_value = n->_holder.firstElement();
    return n;
}

std::unique_ptr<MutableNode> MutableNode::emptyObject() {
    auto n = std::make_unique<MutableNode>();
    n->_kind = Kind::kObject;
    return n;
}

std::unique_ptr<MutableNode> MutableNode::emptyArray() {
    auto n = std::make_unique<MutableNode>();
    n->_kind = Kind::kArray;
    return n;
}

std::unique_ptr<MutableNode> MutableNode::null() {
    static const BSONObj kNull = [] {
        BSONObjBuilder b;
        b.appendNull("");
        return b.obj();
    }();
    return view(kNull.firstElement());
}

std::unique_ptr<MutableNode> MutableNode::root(const BSONObj& doc) {
    auto n = std::make_unique<MutableNode>();
    n->_kind = Kind::kObject;
    for (BSONElement e : doc)
        n->_fields.emplace_back(std::string(e.fieldNameStringData()), view(e));
    return n;
}

BSONType MutableNode::type() const {
    switch (_kind) {
        case Kind::kObject:
            return BSONType::kObject;
        case Kind::kArray:
            return BSONType::kArray;
        default:
            return _value.type();
    }
}

void MutableNode::expand() {
    if (_kind != Kind::kValue)
        return;
    if (_value.type() == BSONType::kObject) {
        _kind = Kind::kObject;
        for (BSONElement e : _value.Obj())
            _fields.emplace_back(std::string(e.fieldNameStringData()), view(e));
    } else if (_value.type() == BSONType::kArray) {
        _kind = Kind::kArray;
        for (BSONElement e : _value.Obj())
            _elems.push_back(view(e));
    }
}

BSONElement MutableNode::element() const {
    if (_kind == Kind::kValue)
        return _value;
    BSONObjBuilder b;
    appendTo(&b, "");
    _cache = b.obj();
    return _cache.firstElement();
}

MutableNode* MutableNode::field(StringData name) {
    expand();
    for (auto& [n, v] : _fields)
        if (n == name)
            return v.get();
    return nullptr;
}

MutableNode* MutableNode::addField(StringData name, std::unique_ptr<MutableNode> v) {
    expand();
    _fields.emplace_back(std::string(name), std::move(v));
    return _fields.back().second.get();
}

void MutableNode::setField(StringData name, std::unique_ptr<MutableNode> v) {
    expand();
    for (auto& [n, cur] : _fields) {
        if (n == name) {
            cur = std::move(v);
            return;
        }
    }
    _fields.emplace_back(std::string(name), std::move(v));
}

bool MutableNode::removeField(StringData name) {
    expand();
    for (auto it = _fields.begin(); it != _fields.end(); ++it) {
        if (it->first == name) {
            _fields.erase(it);
            return true;
        }
    }
    return false;
}

std::vector<std::pair<std::string, std::unique_ptr<MutableNode>>>& MutableNode::fields() {
    expand();
    return _fields;
}

std::vector<std::unique_ptr<MutableNode>>& MutableNode::elems() {
    expand();
    return _elems;
}

void MutableNode::appendTo(BSONObjBuilder* b, StringData name) const {
    switch (_kind) {
        case Kind::kValue:
            b->appendAs(_value, name);
            return;
        case Kind::kObject: {
            BSONObjBuilder sub(b->subobjStart(name));
            for (const auto& [n, v] : _fields)
                v->appendTo(&sub, n);
            return;
        }
        case Kind::kArray: {
            BSONArrayBuilder sub(b->subarrayStart(name));
            for (const auto& v : _elems)
                v->appendTo(&sub);
            return;
        }
    }
}

void MutableNode::appendTo(BSONArrayBuilder* b) const {
    switch (_kind) {
        case Kind::kValue:
            b->append(_value);
            return;
        case Kind::kObject: {
            BSONObjBuilder sub(b->subobjStart());
            for (const auto& [n, v] : _fields)
                v->appendTo(&sub, n);
            return;
        }
        case Kind::kArray: {
            BSONArrayBuilder sub(b->subarrayStart());
            for (const auto& v : _elems)
                v->appendTo(&sub);
            return;
        }
    }
}

BSONObj MutableNode::toObject() const {
    if (_kind == Kind::kValue)
        return _value.type() == BSONType::kObject ? _value.Obj() : BSONObj();
    BSONObjBuilder b;
    for (const auto& [n, v] : _fields)
        v->appendTo(&b, n);
    return b.obj();
}

}  // namespace mongo
