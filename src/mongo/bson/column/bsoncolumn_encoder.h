// Internal to bson/column: EncodingStream, the regular-mode encoder of one value stream
// (spec §A.7). The whole column's regular stream and each leaf stream of an interleaved
// section are EncodingStreams; each writes literals and Simple-8b runs into its own buffer
// and (optionally) records its units for the interleaved merge (§A.8.4).
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "mongo/bson/bsontypes.h"
#include "mongo/bson/column/simple8b.h"

namespace mongo::bsoncolumn {

/** A value to encode: type plus value bytes (no field name). */
struct Val {
    BSONType type;
    const char* data;
    size_t len;
};

/** One unit written by a stream: its bytes in the stream buffer and its value count. */
struct Unit {
    size_t offset;
    size_t length;
    int64_t values;
};

class EncodingStream {
public:
    EncodingStream();
    EncodingStream(const EncodingStream& o);
    EncodingStream& operator=(const EncodingStream& o);

    /** §A.7.3: appends a value (literal, zero delta or delta). */
    void append(const Val& v);
    /** Appends a missing value. */
    void skip();
    /** Writes pending words and closes the open control (what finalize needs). */
    void flush();
    /**
     * The bytes flush() would leave from offset `from` on, without copying (or changing)
     * the bytes before it. REQUIRES: from <= buf().size(), from <= openControl() when a
     * control is open, and no recorded units (regular columns only).
     */
    std::string flushedTail(size_t from) const;
    /** Treats `v` as the previous value without writing it (interleaved stream start). */
    void initFromLeaf(const Val& v);

    std::string& buf() {
        return _buf;
    }
    const std::string& buf() const {
        return _buf;
    }
    /** Absolute offset of the open control byte, or -1. */
    long openControl() const {
        return _openControl;
    }
    std::vector<Unit>& units() {
        return _units;
    }
    void setRecordUnits(bool on) {
        _recordUnits = on;
    }
    /** Resets to the fresh state (previous value EOO) keeping the buffer. */
    void resetState();

private:
    /** A copy whose buffer starts at `from` of `o`'s (offsets rebased). */
    EncodingStream(const EncodingStream& o, size_t from);

    static void _onWord(void* ctx, uint64_t word);
    void _writeWord(uint64_t w);
    void _closeControl();
    void _writeLiteral();
    void _resetEncoder();
    void _flushPacker();
    bool _appendDelta(const Val& v);
    bool _appendDouble(double v, double previous);
    bool _tryRescalePending(int64_t x, int s);
    void _rebind();
    void _setPrev(const Val& v);
    BSONType _prevType() const {
        return BSONType(int8_t(_prev[0]));
    }

    std::string _buf;
    std::string _prev;  // type byte + value bytes; "\0" = EOO
    Simple8bBuilder<uint64_t> _p64;
    Simple8bBuilder<uint128_t> _p128;
    bool _is128 = false;
    bool _isDouble = false;
    int64_t _prevDelta = 0;
    int64_t _base = 0;
    int _scale = 5;
    double _lastBlockValue = 0.0;
    std::optional<uint128_t> _base128;
    long _openControl = -1;
    int _openWords = 0;
    int64_t _openValues = 0;
    int64_t _wordsWritten = 0;
    bool _recordUnits = false;
    std::vector<Unit> _units;
};

}  // namespace mongo::bsoncolumn
