// libFuzzer target: arbitrary bytes decoded as a KeyString with arbitrary TypeBits and
// Ordering (layout: README.md in this folder). Decoding must fail with InvalidBSON or
// succeed; a success must be valid BSON and a fixpoint of encode-then-decode:
//   obj = decode(key, ord, tb)  =>  (k2, tb2) = encode(ord, obj),
//                                   decode(k2, ord, tb2) is binary-equal to obj,
//                                   and encode(ord, that) gives k2 and tb2 again.
// (The input key itself need not be canonical, so k2 == key is not required.)
// Input: 4 bytes ordering bits, 1 byte TypeBits length n, n bytes TypeBits, the key.
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>

#include "mongo/bson/bsonobjbuilder.h"
#include "mongo/db/storage/key_string.h"

namespace {

void check(bool cond, const char* what) {
    if (!cond) {
        std::fprintf(stderr, "key_string_fuzzer: invariant failed: %s\n", what);
        std::abort();
    }
}

mongo::Ordering orderingFromBits(std::uint32_t bits) {
    mongo::BSONObjBuilder kp;
    for (int i = 0; i < 32; ++i)
        kp.append(std::to_string(i), (bits >> i) & 1u ? -1 : 1);
    return mongo::Ordering::make(kp.obj());
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    using namespace mongo;
    if (size < 5 || size > 1 << 16)
        return 0;
    std::uint32_t bits = data[0] | data[1] << 8 | data[2] << 16 | std::uint32_t(data[3]) << 24;
    std::size_t tbLen = data[4];
    if (5 + tbLen > size)
        return 0;
    Ordering ord = orderingFromBits(bits);
    check(ord.bits() == bits, "Ordering::make keeps the direction bits");
    key_string::TypeBits tb(reinterpret_cast<const char*>(data) + 5, tbLen);
    std::string_view key(reinterpret_cast<const char*>(data) + 5 + tbLen, size - 5 - tbLen);

    auto decoded = key_string::toBsonSafe(key, ord, tb);
    if (!decoded.isOK()) {
        check(decoded.getStatus().code() == ErrorCodes::InvalidBSON, "failure is InvalidBSON");
        return 0;
    }
    const BSONObj& obj = decoded.getValue();
    check(validateBSON(obj.objdata(), obj.objsize()).isOK(), "decoded BSON is valid");

    key_string::Builder first(ord, obj);
    auto again = key_string::toBsonSafe(first.getView(), ord, first.getTypeBits());
    check(again.isOK(), "re-encoded key decodes");
    check(again.getValue().binaryEqual(obj), "decode(encode(decoded)) == decoded");
    key_string::Builder second(ord, again.getValue());
    check(second.getBuffer() == first.getBuffer(), "encoding is deterministic");
    check(second.getTypeBits() == first.getTypeBits(), "type bits are deterministic");
    return 0;
}
