// BSONColumn: iteration and whole-column decoding over bsoncolumn::ColumnDecoder.
#include "mongo/bson/column/bsoncolumn.h"

#include "mongo/bson/column/bsoncolumn_decoder.h"

namespace mongo {

BSONColumn::BSONColumn(const BSONElement& binData) : _data(nullptr), _size(0) {
    if (binData.type() == BSONType::kBinData) {
        int len = 0;
        _data = binData.binData(len);
        _size = size_t(len);
    }
}

BSONColumn::Iterator::Iterator(const char* data, size_t size)
    : _impl(std::make_unique<bsoncolumn::ColumnDecoder>(data, size)) {}
BSONColumn::Iterator::~Iterator() = default;
BSONColumn::Iterator::Iterator(Iterator&&) noexcept = default;
BSONColumn::Iterator& BSONColumn::Iterator::operator=(Iterator&&) noexcept = default;

bool BSONColumn::Iterator::next() {
    return _impl->next();
}
bool BSONColumn::Iterator::missing() const {
    return _impl->missing();
}
BSONElement BSONColumn::Iterator::value() const {
    return _impl->current() ? BSONElement(_impl->current(), 1) : BSONElement();
}
const Status& BSONColumn::Iterator::status() const {
    return _impl->status();
}

using bsoncolumn::tooManyPositions;

StatusWith<DecodedColumn> BSONColumn::decompress() const {
    DecodedColumn out;
    bsoncolumn::ColumnDecoder dec(_data, _size);
    while (dec.next()) {
        if (out._offsets.size() >= kMaxPositions)
            return tooManyPositions();
        if (dec.missing()) {
            out._offsets.push_back(-1);
            continue;
        }
        const BSONElement e(dec.current(), 1);
        out._offsets.push_back(int64_t(out._buf.size()));
        out._buf.append(dec.current(), size_t(e.size()));
    }
    if (!dec.status().isOK())
        return dec.status();
    return out;
}

Status BSONColumn::validate() const {
    return count().getStatus().isOK() ? Status::OK() : count().getStatus();
}

StatusWith<size_t> BSONColumn::count() const {
    bsoncolumn::ColumnDecoder dec(_data, _size);
    size_t n = 0;
    while (dec.next()) {
        if (++n > kMaxPositions)
            return tooManyPositions();
    }
    if (!dec.status().isOK())
        return dec.status();
    return n;
}

}  // namespace mongo
