// BSONObj: a BSON document. It either owns its buffer (shared, immutable,
// reference counted) or views bytes owned by someone else; getOwned() makes an
// owning copy when needed. Iteration yields BSONElements in storage order.
//
// Thread safety: a BSONObj is immutable; copies may be used from any thread.
#pragma once

#include <cstddef>
#include <iterator>
#include <memory>
#include <string>
#include <vector>

#include "mongo/base/status.h"
#include "mongo/base/string_data.h"
#include "mongo/bson/bsonelement.h"

namespace mongo {

/** Maximum size of a user document (16 MiB) and of an internal one (+16 KiB). */
constexpr int BSONObjMaxUserSize = 16 * 1024 * 1024;
constexpr int BSONObjMaxInternalSize = BSONObjMaxUserSize + 16 * 1024;

class BSONObj {
public:
    /** The empty document {}. */
    BSONObj();
    /** Views `data` (not owned). The caller guarantees it is a valid BSON document. */
    explicit BSONObj(const char* data) : _data(data) {}
    /** Shares ownership of `holder`, whose bytes start at `data`. */
    BSONObj(std::shared_ptr<const char[]> holder, const char* data)
        : _data(data), _holder(std::move(holder)) {}

    /** An owning copy of `len` bytes at `data` (validated by the caller). */
    static BSONObj copyFrom(const char* data, int len);

    const char* objdata() const {
        return _data;
    }
    int objsize() const {
        return readLE<std::int32_t>(_data);
    }
    bool isEmpty() const {
        return objsize() <= 5;
    }
    bool isOwned() const {
        return static_cast<bool>(_holder);
    }
    BSONObj getOwned() const;
    BSONObj copy() const;
    const std::shared_ptr<const char[]>& sharedBuffer() const {
        return _holder;
    }

    int nFields() const;
    /** The first element named `name`, or EOO. O(n). */
    BSONElement getField(StringData name) const;
    BSONElement operator[](StringData name) const {
        return getField(name);
    }
    bool hasField(StringData name) const {
        return !getField(name).eoo();
    }
    /** Follows a dotted path through sub-objects (not through arrays); EOO if absent. */
    BSONElement getFieldDotted(StringData path) const;
    BSONElement firstElement() const {
        return BSONElement(_data + 4);
    }
    StringData firstElementFieldNameStringData() const {
        return firstElement().fieldNameStringData();
    }

    /** The document without the fields named in `names`. */
    BSONObj removeField(StringData name) const;
    /** Field names in order. */
    std::vector<std::string> getFieldNames() const;

    /** Shell-like text, e.g. `{ a: 1, b: "x" }`. */
    std::string toString() const;
    /** Relaxed extended JSON (via libbson). */
    std::string jsonString() const;

    /** Canonical BSON comparison (see bson_comparator.h); field names count when
     * `considerFieldName`. */
    int woCompare(const BSONObj& other, bool considerFieldName = true) const;
    bool binaryEqual(const BSONObj& o) const {
        return objsize() == o.objsize() && std::memcmp(_data, o._data, objsize()) == 0;
    }

    class iterator {
    public:
        using iterator_category = std::forward_iterator_tag;
        using value_type = BSONElement;
        using difference_type = std::ptrdiff_t;
        using pointer = void;
        using reference = BSONElement;

        iterator() = default;
        iterator(const char* pos, const char* end) : _pos(pos), _end(end) {
            if (!atEnd())
                _cur = BSONElement(_pos);
        }
        // The current element is read once (its name's length and its value's size), not
        // once for operator*() and again for operator++().
        BSONElement operator*() const {
            return _cur;
        }
        iterator& operator++() {
            _pos += _cur.size();
            _cur = atEnd() ? BSONElement() : BSONElement(_pos);
            return *this;
        }
        bool operator==(const iterator& o) const {
            return _pos == o._pos || (atEnd() && o.atEnd());
        }
        bool more() const {
            return !atEnd();
        }
        BSONElement next() {
            BSONElement e = _cur;
            ++*this;
            return e;
        }

    private:
        bool atEnd() const {
            return _pos == nullptr || _pos >= _end || *_pos == 0;
        }
        const char* _pos = nullptr;
        const char* _end = nullptr;
        BSONElement _cur;
    };
    iterator begin() const {
        return iterator(_data + 4, _data + objsize() - 1);
    }
    iterator end() const {
        return iterator();
    }

private:
    const char* _data;
    std::shared_ptr<const char[]> _holder;
};

using BSONObjIterator = BSONObj::iterator;

/** A BSONObj whose field names are "0", "1", ... */
class BSONArray : public BSONObj {
public:
    BSONArray() = default;
    explicit BSONArray(const BSONObj& o) : BSONObj(o) {}
};

/**
 * Validates that `len` bytes at `data` form one well-formed BSON document: lengths, type
 * bytes, string terminators, and UTF-8 of keys (InvalidBSON 22 otherwise), and nesting of at
 * most 200 levels, upstream's limit on anything received (Overflow 15 past it).
 */
/** kAnyByte: a bool's byte may be anything (BSONColumn carries such values verbatim). */
enum class BSONBoolBytes { kStrict, kAnyByte };
Status validateBSON(const char* data, std::size_t len,
                    BSONBoolBytes bools = BSONBoolBytes::kStrict);

/**
 * The deepest nesting of objects and arrays in `obj` (1 for a document without sub-documents),
 * looking no deeper than `cap` + 1 levels: a result above `cap` means "too deep". Reads at
 * most the whole document, so it costs no more than copying it.
 */
int bsonNestingDepth(const BSONObj& obj, int cap);

std::ostream& operator<<(std::ostream& os, const BSONObj& o);
std::ostream& operator<<(std::ostream& os, const BSONElement& e);

}  // namespace mongo
