// decompress_bsoncolumn: the legacy shell's decompressBSONColumn() (buildscripts/legacy_shell)
// through this server's own decoder. Reads one BSON document {c: BinData(7, ...)} on stdin and
// writes {"0": v0, "1": v1, ...} (missing positions left out, as in an uncompressed v1 bucket's
// data field) on stdout; on bad input prints the error and exits 1.
//
//   printf '<bson>' | build/opt/tools/decompress_bsoncolumn > out.bson

#include <cstdio>
#include <iostream>
#include <iterator>
#include <string>

#include "mongo/bson/bsonobj.h"
#include "mongo/bson/bsonobjbuilder.h"
#include "mongo/bson/column/bsoncolumn.h"

int main() {
    using namespace mongo;
    std::string in((std::istreambuf_iterator<char>(std::cin)), std::istreambuf_iterator<char>());
    if (in.size() < 5 || in.size() > 64 * 1024 * 1024) {
        std::cerr << "decompress_bsoncolumn: expected one BSON document on stdin\n";
        return 1;
    }
    int32_t len;
    memcpy(&len, in.data(), 4);
    if (len < 5 || static_cast<size_t>(len) != in.size() || in.back() != '\0') {
        std::cerr << "decompress_bsoncolumn: the input is not one BSON document\n";
        return 1;
    }
    Status valid = validateBSON(in.data(), in.size());
    if (!valid.isOK()) {
        std::cerr << "decompress_bsoncolumn: " << valid.toString() << "\n";
        return 1;
    }
    BSONObj doc(in.data());
    BSONElement e = doc.firstElement();
    if (e.type() != BSONType::kBinData || e.binDataType() != BinDataType::Column) {
        std::cerr << "decompressBSONColumn() takes one argument, the BSONColumn BinData element\n";
        return 1;
    }
    auto decoded = BSONColumn(e).decompress();
    if (!decoded.isOK()) {
        std::cerr << "decompress_bsoncolumn: " << decoded.getStatus().toString() << "\n";
        return 1;
    }
    BSONObjBuilder out;
    const DecodedColumn& col = decoded.getValue();
    for (size_t i = 0; i < col.size(); ++i) {
        if (!col.missing(i))
            out.appendAs(col[i], std::to_string(i));
    }
    BSONObj result = out.obj();
    fwrite(result.objdata(), 1, result.objsize(), stdout);
    return 0;
}
