// InterleavedSchema: the reference object of an interleaved section (spec §A.8), flattened
// once so that each appended object is checked (§A.8.6 compatibility walk) and split into
// its per-leaf values in one pass, without building BSONElements or calling back per leaf.
// Owned by BSONColumnBuilder while it appends to the streams of a section; the node names
// point into the reference object's bytes, which the builder keeps alive.
//
// Thread safety: none; one owner.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "mongo/bson/bsonobj.h"
#include "mongo/bson/column/bsoncolumn_encoder.h"

namespace mongo::bsoncolumn {

class InterleavedSchema {
public:
    /** Flattens `ref`, which must outlive the schema (or until the next build()). */
    void build(const BSONObj& ref);
    void clear();

    /** Number of leaves (streams) of the reference. */
    size_t leafCount() const {
        return _leafCount;
    }
    /** True if the reference contains an empty object or array at any depth. */
    bool anyEmpty() const {
        return _anyEmpty;
    }

    /**
     * §A.8.6: true if `obj` is compatible with the reference. Then `leaves` holds one value per
     * reference leaf in depth-first order, type kEOO for a missing one. On false `leaves` is
     * unspecified. Cost: O(size of obj + nodes of the reference).
     */
    bool match(const BSONObj& obj, std::vector<Val>* leaves) const;

private:
    struct Node {
        const char* name;
        uint32_t nameLen;
        BSONType type;
        bool subdoc;
        bool empty;          // subdoc with no elements
        bool containsEmpty;  // subdoc that is, or contains, an empty subdoc
        uint32_t end;        // index one past this node's subtree
        uint32_t leaf;       // first leaf index of the subtree (the leaf itself for scalars)
        uint32_t leafEnd;    // one past the last leaf index of the subtree
    };

    void _add(const BSONObj& o);
    bool _match(size_t first, size_t last, const char*& p, Val* leaves) const;

    std::vector<Node> _nodes;
    size_t _leafCount = 0;
    bool _anyEmpty = false;
};

}  // namespace mongo::bsoncolumn
