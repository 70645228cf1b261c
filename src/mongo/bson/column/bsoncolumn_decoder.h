// Internal to bson/column: the streaming decoder behind BSONColumn::Iterator. One
// DecodingStream decodes one value stream (the regular stream, or one leaf stream of an
// interleaved section); ColumnDecoder walks units and rebuilds interleaved objects.
// Spec: §A.9 (decoder and validation rules), §A.8.2-A.8.3 (interleaved sections).
#pragma once

#include <string>
#include <vector>

#include "mongo/base/status.h"
#include "mongo/bson/bsontypes.h"
#include "mongo/bson/column/simple8b.h"

namespace mongo::bsoncolumn {

/**
 * Size of the literal unit at `p` (type byte, empty name, value), or -1 if it is malformed or
 * runs past `end`. Objects, arrays and code-with-scope are fully validated.
 */
int literalSize(const char* p, const char* end);

Status invalidColumn(const char* why);
/** ExceededMemoryLimit: the column decodes to more than BSONColumn::kMaxPositions values. */
Status tooManyPositions();

/** Decoding state of one value stream. */
class DecodingStream {
public:
    DecodingStream() {
        _prev.assign(1, '\0');
    }
    /** True while the current unit still has values. */
    bool hasValues() const {
        return _rleLeft > 0 || _slotIdx < _slotCount || _wordsLeft > 0;
    }
    /** Makes `value` (`len` bytes) of `type` the previous value, as a literal does. */
    void initFrom(BSONType type, const char* value, size_t len);
    /**
     * Reads the unit at `pos` (a literal or a Simple-8b control; the caller handles 00 and
     * interleaved starts), advances `pos` and yields the unit's first value.
     */
    Status readUnit(const char*& pos, const char* end, bool* missing);
    /** The next value of the current unit (requires hasValues()). */
    Status nextValue(bool* missing);
    /** The previous value as an element with an empty name: type, 00, value bytes. */
    const std::string& prev() const {
        return _prev;
    }
    BSONType type() const {
        return BSONType(int8_t(_prev[0]));
    }

private:
    Status _materialize(uint128_t slot, bool* missing);
    void _setValue(const char* v, size_t len) {
        _prev.resize(2);
        _prev.append(v, len);
    }

    std::string _prev;  // "T\0V"; T = 0 until the first literal
    int64_t _base = 0;
    int64_t _delta = 0;
    int _scale = 5;
    uint128_t _base128 = 0;
    bool _is128 = false;
    // Current Simple-8b run.
    const char* _words = nullptr;
    int _wordsLeft = 0;
    simple8b::WordLayout _layout;
    int _slotCount = 0;
    int _slotIdx = 0;
    int _rleLeft = 0;
    uint128_t _lastSlot = 0;  // RLE previous value; missingValue<uint128_t>() when missing
};

/** Walks the units of a column; produces one position per next(). */
class ColumnDecoder {
public:
    ColumnDecoder(const char* data, size_t size);

    /** False at the end or on error (see status()). */
    bool next();
    bool missing() const {
        return _missing;
    }
    /** The current value as "T\0V" bytes (valid until next()); nullptr when missing. */
    const char* current() const {
        return _cur;
    }
    const Status& status() const {
        return _status;
    }

private:
    // One step of the plan that rebuilds an interleaved object from the reference.
    struct PlanStep {
        enum Kind : uint8_t { kLeaf, kOpen, kClose } kind;
        BSONType type;     // kOpen: object or array
        bool refEmpty;     // kOpen: the reference sub-document is empty
        std::string name;  // kLeaf, kOpen
        int stream;        // kLeaf
    };

    Status _step();
    Status _beginSection(uint8_t control);
    Status _nextObject(bool* sectionEnded);
    Status _buildPlan(const char* obj, bool descendArrays, int depth);
    void _fail(Status s);

    const char* _pos;
    const char* _end;
    DecodingStream _regular;
    bool _inSection = false;
    bool _sectionHasValue = false;
    BSONType _rootType = BSONType::kObject;
    std::vector<DecodingStream> _streams;
    std::vector<bool> _streamMissing;
    std::vector<PlanStep> _plan;
    std::string _obj;  // the rebuilt object, as "T\0<document>"
    const char* _cur = nullptr;
    bool _missing = false;
    bool _done = false;
    Status _status = Status::OK();
};

}  // namespace mongo::bsoncolumn
