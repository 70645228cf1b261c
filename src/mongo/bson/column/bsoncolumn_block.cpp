// Block decoding of scalar columns into contiguous arrays (BSONColumn::decodeScalars).
// Only regular-mode columns of int32/int64/bool/date/timestamp or of doubles qualify.
#include <cstring>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

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

/**
 * Decoder state across units, and the output arrays. The arrays only grow: a ScalarColumn
 * reused for the next column keeps its capacity, and nothing is zero-filled per decode
 * except the `present` words in use (`zeroedWords`).
 */
struct BlockState {
    ScalarColumn* out;
    size_t n = 0;
    size_t zeroedWords = 0;  // present[0, zeroedWords) were cleared by this decode
    BSONType type = BSONType::kEOO;
    int64_t base = 0;
    int64_t delta = 0;
    int scale = bsoncolumn::kScaleRaw;
    uint64_t lastSlot = 0;
    bool smallIntegers = true;  // doubles: ScalarColumn::smallIntegers so far

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
        const size_t words = (need + 63) / 64;
        if (words > zeroedWords) {
            if (out->present.size() < words)
                out->present.resize(std::max(words, out->present.size() * 2));
            std::memset(out->present.data() + zeroedWords, 0,
                        (words - zeroedWords) * sizeof(uint64_t));
            zeroedWords = words;
        }
        return true;
    }
    void setPresent(size_t i) {
        out->present[i >> 6] |= uint64_t(1) << (i & 63);
    }
    /** Marks [from, to) present, a word at a time. */
    void setPresentRange(size_t from, size_t to) {
        uint64_t* p = out->present.data();
        while (from < to) {
            const size_t w = from >> 6, lo = from & 63;
            const size_t hi = std::min<size_t>(64, lo + (to - from));
            const uint64_t bits =
                (hi == 64 ? ~uint64_t(0) : ((uint64_t(1) << hi) - 1)) & (~uint64_t(0) << lo);
            p[w] |= bits;
            from += hi - lo;
        }
    }
};

enum class Conv { kRaw, kInt32, kBool };

/** The value of an integer-like column of type `t` whose running base is `base`. */
inline int64_t intValue(BSONType t, int64_t base) {
    return t == BSONType::kNumberInt ? int64_t(int32_t(uint32_t(uint64_t(base))))
                                     : (t == BSONType::kBool ? int64_t(base != 0) : base);
}

/** True when some slot of the run is not missing. */
inline bool presentIn(const uint64_t* slots, size_t count) {
    for (size_t i = 0; i < count; ++i)
        if (slots[i] != ~uint64_t(0))
            return true;
    return false;
}

/** The most slots applySlots() takes at once (an RLE word is applied in such chunks). */
constexpr size_t kApplyChunk = 240;
/** ScalarColumn::smallIntegers' bound: |value| <= 2^30. */
constexpr int64_t kSmallIntegerLimit = int64_t(1) << 30;

bool isSmallInteger(double v) {
    return v >= -double(kSmallIntegerLimit) && v <= double(kSmallIntegerLimit) &&
           v == double(int64_t(v));
}

/**
 * out[i] = scaled[i] / m, exactly as double(scaled[i]) / m. int64 -> double has no packed
 * instruction before AVX-512, which keeps such a loop scalar. For |x| < 2^51, x + bits(1.5 *
 * 2^52) is the bit pattern of the double 1.5 * 2^52 + x, exactly: subtracting 1.5 * 2^52 gives
 * double(x) with packed arithmetic, two values at a time (SSE2); so do the divisions (none
 * when m is 1). `smallIntegers` (scale 0 only): cleared when a value is outside [-2^30, 2^30).
 */
void convertScaled(const int64_t* scaled, size_t count, double m, double* out,
                   bool* smallIntegers) {
    constexpr int64_t kMagicBits = 0x4338000000000000LL;
    constexpr double kMagic = 6755399441055744.0;  // 1.5 * 2^52
    uint64_t outside51 = 0, outside30 = 0;
    for (size_t i = 0; i < count; ++i) {
        // In unsigned arithmetic: a value near the int64 limits wraps (to "outside").
        outside51 |= (uint64_t(scaled[i]) + (uint64_t(1) << 51)) >> 52;
        outside30 |= (uint64_t(scaled[i]) + uint64_t(kSmallIntegerLimit)) >> 31;
    }
    if (smallIntegers && outside30)
        *smallIntegers = false;
    if (outside51) {
        for (size_t i = 0; i < count; ++i)
            out[i] = m == 1.0 ? double(scaled[i]) : double(scaled[i]) / m;
        return;
    }
    size_t i = 0;
#if defined(__SSE2__)
    const __m128i magicBits = _mm_set1_epi64x(kMagicBits);
    const __m128d magic = _mm_set1_pd(kMagic), divisor = _mm_set1_pd(m);
    if (m == 1.0) {
        for (; i + 2 <= count; i += 2) {
            __m128i x = _mm_loadu_si128(reinterpret_cast<const __m128i*>(scaled + i));
            _mm_storeu_pd(out + i,
                          _mm_sub_pd(_mm_castsi128_pd(_mm_add_epi64(x, magicBits)), magic));
        }
    } else {
        for (; i + 2 <= count; i += 2) {
            __m128i x = _mm_loadu_si128(reinterpret_cast<const __m128i*>(scaled + i));
            __m128d d = _mm_sub_pd(_mm_castsi128_pd(_mm_add_epi64(x, magicBits)), magic);
            _mm_storeu_pd(out + i, _mm_div_pd(d, divisor));
        }
    }
#endif
    for (; i < count; ++i) {
        double d;
        const int64_t bits = scaled[i] + kMagicBits;
        std::memcpy(&d, &bits, sizeof d);
        out[i] = m == 1.0 ? d - kMagic : (d - kMagic) / m;
    }
}

// Applies `count` raw slots to the state (room reserved). Dod: delta-of-delta types. Dbl:
// doubles. The running base/delta stay in registers; the presence bits are set in bulk when
// no slot of the run is missing (the common case).
template <bool Dod, bool Dbl, Conv C>
inline void applySlots(BlockState& st, const uint64_t* slots, size_t count) {
    const size_t n0 = st.n;
    int64_t base = st.base, delta = st.delta;
    bool anyMissing = false;
    // Doubles: the scaled integers first, then one conversion loop the compiler vectorises
    // (a division per value is the cost of a scaled double column).
    int64_t scaled[kApplyChunk];
    int64_t* ints = Dbl ? scaled : st.out->ints.data() + n0;
    for (size_t i = 0; i < count; ++i) {
        const uint64_t s = slots[i];
        if (s == ~uint64_t(0)) {
            anyMissing = true;
            if constexpr (Dbl)
                ints[i] = 0;
            continue;
        }
        const uint64_t d = uint64_t(bsoncolumn::unzigzag(s));
        if constexpr (Dod) {
            delta = int64_t(uint64_t(delta) + d);
            base = int64_t(uint64_t(base) + uint64_t(delta));
        } else {
            base = int64_t(uint64_t(base) + d);
        }
        if constexpr (C == Conv::kInt32)
            ints[i] = int64_t(int32_t(uint32_t(uint64_t(base))));
        else if constexpr (C == Conv::kBool)
            ints[i] = int64_t(base != 0);
        else
            ints[i] = base;
    }
    if constexpr (Dbl) {
        double* out = st.out->doubles.data() + n0;
        if (st.scale == bsoncolumn::kScaleRaw) {
            for (size_t i = 0; i < count; ++i)
                out[i] = bsoncolumn::bitsDouble(scaled[i]);
        } else {
            convertScaled(scaled, count, bsoncolumn::kScaleMultiplier[st.scale], out,
                          st.scale == 0 ? &st.smallIntegers : nullptr);
        }
    }
    if constexpr (Dbl) {
        if (st.scale != 0 && (!anyMissing || presentIn(slots, count)))
            st.smallIntegers = false;  // a fraction or a raw double: not known to be integral
    }
    st.base = base;
    st.delta = delta;
    st.n = n0 + count;
    if (!anyMissing) {
        st.setPresentRange(n0, n0 + count);
        return;
    }
    for (size_t i = 0; i < count; ++i)
        if (slots[i] != ~uint64_t(0))
            st.setPresent(n0 + i);
}

void applyDispatch(BlockState& st, const uint64_t* slots, size_t count) {
    switch (st.type) {
        case BSONType::kEOO:  // no literal yet: every slot must be missing
            st.n += count;
            return;
        case BSONType::kNumberDouble:
            applySlots<false, true, Conv::kRaw>(st, slots, count);
            return;
        case BSONType::kDate:
        case BSONType::kTimestamp:
            applySlots<true, false, Conv::kRaw>(st, slots, count);
            return;
        case BSONType::kNumberInt:
            applySlots<false, false, Conv::kInt32>(st, slots, count);
            return;
        case BSONType::kBool:
            applySlots<false, false, Conv::kBool>(st, slots, count);
            return;
        default:
            applySlots<false, false, Conv::kRaw>(st, slots, count);
            return;
    }
}

/**
 * `count` slots of zigzag 0 (an RLE word repeating a zero delta, as regular time steps and
 * unchanged values make): the same state as applyDispatch() over them, without the per-slot
 * work. False when the caller must take applyDispatch() (no literal yet).
 */
bool applyZeroRun(BlockState& st, size_t count) {
    const size_t n0 = st.n;
    switch (st.type) {
        case BSONType::kEOO:
            return false;
        case BSONType::kDate:
        case BSONType::kTimestamp: {
            int64_t* out = st.out->ints.data() + n0;
            const uint64_t base = uint64_t(st.base), delta = uint64_t(st.delta);
            for (size_t i = 0; i < count; ++i)
                out[i] = int64_t(base + delta * uint64_t(i + 1));
            st.base = int64_t(base + delta * uint64_t(count));
            break;
        }
        case BSONType::kNumberDouble: {
            const double v = bsoncolumn::decodeDouble(st.base, st.scale);
            if (st.scale != 0 || !isSmallInteger(v))
                st.smallIntegers = false;
            std::fill(st.out->doubles.data() + n0, st.out->doubles.data() + n0 + count, v);
            break;
        }
        default: {
            const int64_t v = intValue(st.type, st.base);
            std::fill(st.out->ints.data() + n0, st.out->ints.data() + n0 + count, v);
            break;
        }
    }
    st.n = n0 + count;
    st.setPresentRange(n0, n0 + count);
    return true;
}

Status decodeRun(BlockState& st, const char* words, int nWords, Kind kind) {
    // The slots of consecutive Simple-8b words are applied together, up to kApplyChunk at a
    // time: a word holds only 7-12 slots for typical deltas, and applySlots() has a fixed cost
    // per call (its setup and presence bits) that more slots share.
    uint64_t pending[kApplyChunk];
    size_t np = 0;
    auto flush = [&] {
        if (np) {
            applyDispatch(st, pending, np);
            np = 0;
        }
    };
    uint64_t rle[kApplyChunk];
    bool rleFilled = false;
    uint64_t rleSlot = 0;
    for (int w = 0; w < nWords; ++w) {
        const uint64_t word = readLE<uint64_t>(words + 8 * w);
        if ((word & 0xF) == simple8b::kRleSelector) {
            flush();
            int count = simple8b::valueCount(word);
            if (!st.reserve(size_t(count), kind))
                return tooManyPositions();
            if (st.lastSlot == 0 && applyZeroRun(st, size_t(count)))
                continue;
            if (!rleFilled || rleSlot != st.lastSlot) {
                std::fill(rle, rle + kApplyChunk, st.lastSlot);
                rleFilled = true;
                rleSlot = st.lastSlot;
            }
            for (size_t left = size_t(count); left > 0;) {
                const size_t k = std::min(left, kApplyChunk);
                applyDispatch(st, rle, k);
                left -= k;
            }
            continue;
        }
        if (np + simple8b::kMaxValuesPerWord > kApplyChunk)
            flush();
        const int count = simple8b::decodeWord<uint64_t>(word, pending + np);
        if (count < 0)
            return invalidColumn("invalid Simple-8b selector");
        if (!st.reserve(np + size_t(count), kind))  // st.n does not count the pending slots
            return tooManyPositions();
        if (count > 0) {
            np += size_t(count);
            st.lastSlot = pending[np - 1];
        }
    }
    flush();
    return Status::OK();
}

}  // namespace

Status BSONColumn::decodeScalars(ScalarColumn* out) const {
    // Keep the arrays: callers reuse one ScalarColumn per column (see BlockState).
    out->type = BSONType::kEOO;
    out->size = 0;
    out->smallIntegers = false;
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
            if (kind == Kind::kDouble) {
                out->doubles[st.n] = readLE<double>(v);
                if (!isSmallInteger(out->doubles[st.n]))
                    st.smallIntegers = false;
            } else
                out->ints[st.n] = intValue(t, st.base);
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
    out->smallIntegers = kind == Kind::kDouble && st.smallIntegers;
    if (!st.reserve(0, kind == Kind::kNone ? Kind::kInt : kind))  // an all-missing column
        return tooManyPositions();
    return Status::OK();
}

}  // namespace mongo
