// libFuzzer target: decodes arbitrary bytes as a BSONColumn. Decoding must never crash or
// over-read; a failure must be InvalidBSONColumn. When decoding succeeds, the values are
// re-encoded, and the re-encoding must decode to the same values and re-encode to itself.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>

#include "mongo/bson/column/bsoncolumn.h"
#include "mongo/bson/column/bsoncolumnbuilder.h"

namespace {

void check(bool cond) {
    if (!cond)
        std::abort();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    using namespace mongo;
    // Copy so that any over-read past the input is caught by the sanitizer.
    std::string input(reinterpret_cast<const char*>(data), size);
    auto dec = BSONColumn(input.data(), input.size()).decompress();
    if (!dec.isOK()) {
        check(dec.getStatus().code() == ErrorCodes::InvalidBSONColumn);
        return 0;
    }
    ScalarColumn sc;
    Status blockStatus = BSONColumn(input.data(), input.size()).decodeScalars(&sc);
    check(blockStatus.isOK() || blockStatus.code() == ErrorCodes::TypeMismatch);
    const DecodedColumn& col = dec.getValue();
    if (blockStatus.isOK())
        check(sc.size == col.size());

    BSONColumnBuilder builder;
    for (size_t i = 0; i < col.size(); ++i)
        builder.append(col[i]);
    const std::string encoded = builder.finalize();
    auto again = BSONColumn(encoded.data(), encoded.size()).decompress();
    check(again.isOK());
    const DecodedColumn& col2 = again.getValue();
    check(col2.size() == col.size());
    BSONColumnBuilder builder2;
    for (size_t i = 0; i < col.size(); ++i) {
        check(col.missing(i) == col2.missing(i));
        if (!col.missing(i))
            check(col[i].binaryEqualValues(col2[i]));
        builder2.append(col2[i]);
    }
    check(builder2.finalize() == encoded);
    return 0;
}
