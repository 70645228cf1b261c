#include "mongo/db/query/collation/collator_icu.h"

#include <algorithm>

#include <unicode/ucol.h>
#include <unicode/ustring.h>

#include "mongo/util/assert_util.h"

namespace mongo {

namespace {

constexpr size_t kInlineUnits = 128;

/**
 * `s` converted to UTF-16 with every maximal ill-formed subsequence replaced by
 * U+FFFD, so compare() and appendComparisonKey() see the same code points for any
 * input bytes. Short strings stay in an inline buffer.
 */
class Utf16Buffer {
public:
    explicit Utf16Buffer(StringData s) {
        // A UTF-8 sequence never yields more UTF-16 units than it has bytes.
        UChar* dest = _inline;
        if (s.size() > kInlineUnits) {
            _heap.reset(new UChar[s.size()]);
            dest = _heap.get();
        }
        UErrorCode status = U_ZERO_ERROR;
        int32_t length = 0;
        u_strFromUTF8WithSub(dest, static_cast<int32_t>(std::max<size_t>(s.size(), 1)), &length,
                             s.data(), static_cast<int32_t>(s.size()), 0xFFFD, nullptr, &status);
        invariant(U_SUCCESS(status) || status == U_STRING_NOT_TERMINATED_WARNING);
        _data = dest;
        _length = length;
    }

    const UChar* data() const {
        return _data;
    }
    int32_t length() const {
        return _length;
    }

private:
    UChar _inline[kInlineUnits];
    std::unique_ptr<UChar[]> _heap;
    const UChar* _data = nullptr;
    int32_t _length = 0;
};

/** True when `s` is well-formed UTF-8 (no overlong forms, surrogates or values past U+10FFFF). */
bool isWellFormedUtf8(StringData s) {
    const auto* p = reinterpret_cast<const unsigned char*>(s.data());
    const auto* end = p + s.size();
    while (p < end) {
        const unsigned char c = *p;
        if (c < 0x80) {
            ++p;
            continue;
        }
        int extra;
        unsigned char lo = 0x80, hi = 0xBF;  // allowed range of the second byte
        if (c >= 0xC2 && c <= 0xDF) {
            extra = 1;
        } else if (c >= 0xE0 && c <= 0xEF) {
            extra = 2;
            if (c == 0xE0)
                lo = 0xA0;
            else if (c == 0xED)
                hi = 0x9F;
        } else if (c >= 0xF0 && c <= 0xF4) {
            extra = 3;
            if (c == 0xF0)
                lo = 0x90;
            else if (c == 0xF4)
                hi = 0x8F;
        } else {
            return false;
        }
        if (end - p <= extra || p[1] < lo || p[1] > hi)
            return false;
        for (int i = 2; i <= extra; ++i)
            if (p[i] < 0x80 || p[i] > 0xBF)
                return false;
        p += extra + 1;
    }
    return true;
}

int toSign(UCollationResult r) {
    return r == UCOL_LESS ? -1 : (r == UCOL_GREATER ? 1 : 0);
}

}  // namespace

void CollatorICU::UCollatorDeleter::operator()(UCollator* c) const {
    ucol_close(c);
}

CollatorICU::CollatorICU(BSONObj fullSpec, UCollatorPtr collator)
    : CollatorInterface(std::move(fullSpec)), _collator(std::move(collator)) {
    invariant(_collator);
}

int CollatorICU::compare(StringData l, StringData r) const {
    if (isWellFormedUtf8(l) && isWellFormedUtf8(r)) {
        // Same code points as the UTF-16 path below, without the conversion.
        UErrorCode status = U_ZERO_ERROR;
        UCollationResult res =
            ucol_strcollUTF8(_collator.get(), l.data(), static_cast<int32_t>(l.size()), r.data(),
                             static_cast<int32_t>(r.size()), &status);
        if (U_SUCCESS(status))
            return toSign(res);
    }
    Utf16Buffer l16(l), r16(r);
    return toSign(
        ucol_strcoll(_collator.get(), l16.data(), l16.length(), r16.data(), r16.length()));
}

void CollatorICU::appendComparisonKey(StringData s, std::string* out) const {
    Utf16Buffer s16(s);
    const size_t start = out->size();
    // Sort keys usually take a few bytes per character; grow once if that is short.
    size_t capacity = static_cast<size_t>(s16.length()) * 4 + 16;
    for (;;) {
        out->resize(start + capacity);
        int32_t needed = ucol_getSortKey(_collator.get(), s16.data(), s16.length(),
                                         reinterpret_cast<uint8_t*>(&(*out)[start]),
                                         static_cast<int32_t>(capacity));
        invariant(needed > 0);
        if (static_cast<size_t>(needed) <= capacity) {
            out->resize(start + static_cast<size_t>(needed) - 1);  // drop the 0x00
            return;
        }
        capacity = static_cast<size_t>(needed);
    }
}

std::unique_ptr<CollatorInterface> CollatorICU::clone() const {
    UErrorCode status = U_ZERO_ERROR;
    UCollatorPtr copy(ucol_clone(_collator.get(), &status));
    invariant(U_SUCCESS(status) && copy);
    return std::make_unique<CollatorICU>(getSpec(), std::move(copy));
}

}  // namespace mongo
