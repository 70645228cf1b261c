// MutableNode: a small editable document tree used while applying update
// operators. Objects and arrays are expanded lazily from the BSON they came from;
// untouched sub-trees stay views of the original bytes, which the caller keeps
// alive until toObject() has been called.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "mongo/bson/bsonobj.h"
#include "mongo/bson/bsonobjbuilder.h"

namespace mongo {

class MutableNode {
public:
    enum class Kind { kValue, kObject, kArray };

    /** A node for the value of `e` (a view; expanded on first structural access). */
    static std::unique_ptr<MutableNode> view(const BSONElement& e);
    /** A node owning a copy of the value of `e`. */
    static std::unique_ptr<MutableNode> copyOf(const BSONElement& e);
    static std::unique_ptr<MutableNode> emptyObject();
    static std::unique_ptr<MutableNode> emptyArray();
    static std::unique_ptr<MutableNode> null();
    /** The root of a document (a view of `doc`). */
    static std::unique_ptr<MutableNode> root(const BSONObj& doc);

    /** The BSON type of this node's value. */
    BSONType type() const;
    bool isObject() const {
        return type() == BSONType::kObject;
    }
    bool isArray() const {
        return type() == BSONType::kArray;
    }

    /** The value as an element named "" (serialises expanded nodes; valid while this lives). */
    BSONElement element() const;

    // Object access (expands). Field order is preserved; new fields go last.
    MutableNode* field(StringData name);
    MutableNode* addField(StringData name, std::unique_ptr<MutableNode> v);
    void setField(StringData name, std::unique_ptr<MutableNode> v);  // in place or appended
    bool removeField(StringData name);
    std::vector<std::pair<std::string, std::unique_ptr<MutableNode>>>& fields();

    // Array access (expands).
    std::vector<std::unique_ptr<MutableNode>>& elems();

    void appendTo(BSONObjBuilder* b, StringData name) const;
    void appendTo(BSONArrayBuilder* b) const;
    /** The object this node holds (kObject or an object value). */
    BSONObj toObject() const;

private:
    void expand();

    Kind _kind = Kind::kValue;
    BSONElement _value;
    BSONObj _holder;  // owns _value's bytes when the value was copied or computed
    mutable BSONObj _cache;
    std::vector<std::pair<std::string, std::unique_ptr<MutableNode>>> _fields;
    std::vector<std::unique_ptr<MutableNode>> _elems;
};

}  // namespace mongo
