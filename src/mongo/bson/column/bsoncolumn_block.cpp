// Block decoding of scalar columns into contiguous arrays (BSONColumn::decodeScalars).
// Only regular-mode columns of int32/int64/bool/date/timestamp or of doubles qualify.
#include <cstring>

#include "mongo/bson/column/bsoncolumn.h"
#include "mongo/bson/column/bsoncolumn_decoder.h"
#include "mongo/bson/column/bsoncolumn_util.h"

namespace mongo {
namespace {

using bsoncolumn::invalidColumn;
using bsoncolumn::tooManyPositions;

Status notScalar() {
    return Status(ErrorCodes::TypeMismatch, "BSONColumn is not a single-kind scalar column");
}

enum class Kind { kNone, kInt, kDouble };

Kind kindOf(BSONType t) {
    switch (t) {
        case BSONType::kNumberInt:
        case BSONType::kNumberLong:
        case BSONType::kBool:
        case BSONType::kDate:
        case BSONType::kTimestamp:
            return Kind::kInt;
        case BSONType::kNumberDouble:
            return Kind::kDouble;
        default:
            return Kind::kNone;
    }
}

/** Decoder state across units, and the output arrays. */
struct BlockState {
    ScalarColumn* out;
    size_t n = 0;
    BSONType type = BSONType::kEOO;
    int64_t base = 0;
    int64_t delta = 0;
    int scale = bsoncolumn::kScaleRaw;
    uint64_t lastSlot = 0;

    /** Makes room for `extra` more positions; false past BSONColumn::kMaxPositions. */
    [[nodiscard]] bool reserve(size_t extra, Kind kind) {
        const size_t need = n + extra;
        if (need > BSONColumn::kMaxPositions)
            return false;
        if (kind == Kind::kDouble) {
            if (out->doubles.size() < need)
                out->doubles.resize(std::max(need, out->doubles.size() * 2));
        } else if (out->ints.size() < need) {
            out->ints.resize(std::max(need, out->ints.size() * 2));
        }
        if (out->present.size() * 64 < need)
            out->present.resize(std::max((need + 63) / 64, out->present.size() * 2), 0);
        return true;
    }
    void setPresent(size_t i) {
        out->present[i >> 6] |= uint64_t(1) << (i & 63);
    }
};

// Applies raw slots to the state. Dod: delta-of-delta types. Dbl: doubles.
template <bool Dod, bool Dbl>
inline void applySlots(BlockState& st, const uint64_t* slots, size_t count, bool noLiteral) {
    int64_t* ints = Dbl ? nullptr : st.out->ints.data();
    double* dbls = Dbl ? st.out->doubles.data() : nullptr;
    int64_t base = st.base, delta = st.delta;
    const bool isInt32 = st.type == BSONType::kNumberInt;
    const bool isBool = st.type == BSONType::kBool;
    for (size_t i = 0; i < count; ++i) {
        const uint64_t s = slots[i];
        const size_t idx = st.n++;
        if (s == ~uint64_t(0) || noLiteral)
            continue;
        const uint64_t d = uint64_t(bsoncolumn::unzigzag(s));
        if constexpr (Dod) {
            delta = int64_t(uint64_t(delta) + d);
            base = int64_t(uint64_t(base) + uint64_t(delta));
        } else {
            base = int64_t(uint64_t(base) + d);
        }
        st.setPresent(idx);
        if constexpr (Dbl) {
            dbls[idx] = bsoncolumn::decodeDouble(base, st.scale);
        } else {
            ints[idx] = isInt32 ? int64_t(int32_t(uint32_t(uint64_t(base))))
                                : (isBool ? int64_t(base != 0) : base);
        }
    }
    st.base = base;
    st.delta = delta;
}

void applyDispatch(BlockState& st, const uint64_t* slots, size_t count) {
    const bool noLiteral = st.type == BSONType::kEOO;
    if (st.type == BSONType::kNumberDouble)
        applySlots<false, true>(st, slots, count, noLiteral);
    else if (st.type == BSONType::kDate || st.type == BSONType::kTimestamp)
        applySlots<true, false>(st, slots, count, noLiteral);
    else
        applySlots<false, false>(st, slots, count, noLiteral);
}

Status decodeRun(BlockState& st, const char* words, int nWords, Kind kind) {
    uint64_t slots[simple8b::kMaxValuesPerWord];
    uint64_t rle[240];
    for (int w = 0; w < nWords; ++w) {
        const uint64_t word = readLE<uint64_t>(words + 8 * w);
        if ((word & 0xF) == simple8b::kRleSelector) {
            int count = simple8b::valueCount(word);
            if (!st.reserve(size_t(count), kind))
                return tooManyPositions();
            for (int i = 0; i < 240; ++i)
                rle[i] = st.lastSlot;
            for (; count > 0; count -= 240)
                applyDispatch(st, rle, size_t(std::min(count, 240)));
            continue;
        }
        const int count = simple8b::decodeWord<uint64_t>(word, slots);
        if (count < 0)
            return invalidColumn("invalid Simple-8b selector");
        if (!st.reserve(size_t(count), kind))
            return tooManyPositions();
        applyDispatch(st, slots, size_t(count));
        st.lastSlot = slots[count - 1];
    }
    return Status::OK();
}

}  // namespace

Status BSONColumn::decodeScalars(ScalarColumn* out) const {
    // Empty, but keep the vectors' capacity: callers reuse one ScalarColumn per column.
    out->type = BSONType::kEOO;
    out->size = 0;
    out->ints.clear();
    out->doubles.clear();
    out->present.clear();
    BlockState st{out};
    Kind kind = Kind::kNone;
    const char* pos = _data;
    const char* end = _data + _size;
    for (;;) {
        if (pos >= end)
            return invalidColumn("missing terminating 00");
        const uint8_t c = uint8_t(*pos);
        if (c == 0) {
            if (pos + 1 != end)
                return invalidColumn("bytes after the terminating 00");
            break;
        }
        if (bsoncolumn::isInterleavedStart(c))
            return notScalar();
        if (bsoncolumn::isLiteralControl(c)) {
            const int n = bsoncolumn::literalSize(pos, end);
            if (n < 0)
                return invalidColumn("malformed literal");
            const BSONType t = BSONType(int8_t(c));
            const Kind k = kindOf(t);
            if (k == Kind::kNone || (kind != Kind::kNone && k != kind))
                return notScalar();
            if (kind == Kind::kNone)
                out->type = t;
            kind = k;
            const char* v = pos + 2;
            st.type = t;
            st.delta = 0;
            st.lastSlot = 0;
            st.scale = bsoncolumn::kScaleRaw;
            st.base = t == BSONType::kNumberInt ? readLE<int32_t>(v)
                      : t == BSONType::kBool    ? int64_t(uint8_t(*v))
                                                : readLE<int64_t>(v);
            if (!st.reserve(1, kind))
                return tooManyPositions();
            st.setPresent(st.n);
            if (kind == Kind::kDouble)
                out->doubles[st.n] = readLE<double>(v);
            else
                out->ints[st.n] = t == BSONType::kBool ? int64_t(st.base != 0) : st.base;
            ++st.n;
            pos += n;
            continue;
        }
        const int scale = bsoncolumn::scaleIndexForControl(c);
        if (scale < 0)
            return invalidColumn("invalid control byte");
        const int nWords = (c & 0xF) + 1;
        if (end - pos - 1 <= 8 * nWords)
            return invalidColumn("Simple-8b run overflows the buffer");
        if (st.type == BSONType::kNumberDouble) {
            // st.base holds the scaled integer of the last double; rebase it to this scale.
            const double last = bsoncolumn::decodeDouble(st.base, st.scale);
            auto r = bsoncolumn::encodeDouble(last, scale);
            if (!r)
                return invalidColumn("double does not encode at the control's scale");
            st.base = *r;
            st.scale = scale;
        } else if (scale != bsoncolumn::kScaleRaw) {
            return invalidColumn("scaled control for a non-double stream");
        }
        Status s = decodeRun(st, pos + 1, nWords, kind == Kind::kNone ? Kind::kInt : kind);
        if (!s.isOK())
            return s;
        pos += 1 + 8 * nWords;
    }
    out->size = st.n;
    out->ints.resize(kind == Kind::kDouble ? 0 : st.n);
    out->doubles.resize(kind == Kind::kDouble ? st.n : 0);
    out->present.resize((st.n + 63) / 64);
    return Status::OK();
}

}  // namespace mongo
