#include "mongo/db/pipeline/bucket_unpacker.h"

#include <charconv>

#include "mongo/bson/bsonobjbuilder.h"
#include "mongo/util/assert_util.h"

namespace mongo {

BSONElement BucketUnpacker::Column::at(size_t i) const {
    if (decoded)
        return i < decoded->size() ? (*decoded)[i] : BSONElement();
    return i < values.size() ? values[i] : BSONElement();
}

void BucketUnpacker::reset(BSONObj bucket) {
    _bucket = bucket.getOwned();
    _columns.clear();
    _next = 0;
    _count = 0;
    BSONElement data = _bucket["data"];
    uassert(5346509,
            "The $_internalUnpackBucket stage requires a data region to be present in the bucket",
            data.type() == BSONType::kObject && !data.embeddedObject().isEmpty());
    _meta = _bucket["meta"];
    BSONObj control = _bucket["control"].type() == BSONType::kObject
        ? _bucket["control"].embeddedObject()
        : BSONObj();
    int version = control["version"].numberInt();
    BSONObj dataObj = data.embeddedObject();

    BSONElement timeCol = dataObj[_spec.timeField];
    uassert(ErrorCodes::BadValue,
            "Time field '" + _spec.timeField + "' is missing from the bucket's data region",
            !timeCol.eoo());
    if (version >= 2) {
        BSONElement count = control["count"];
        if (count.isNumber()) {
            _count = static_cast<size_t>(count.numberLong());
        } else {
            _count = uassertStatusOK(BSONColumn(timeCol).count());
        }
    } else {
        uassert(ErrorCodes::BadValue, "v1 bucket data columns must be objects",
                timeCol.type() == BSONType::kObject);
        _count = static_cast<size_t>(timeCol.embeddedObject().nFields());
    }

    auto addColumn = [&](const BSONElement& col, bool isTime) {
        Column c;
        c.name = std::string(col.fieldNameStringData());
        c.isTime = isTime;
        if (version >= 2) {
            uassert(ErrorCodes::InvalidBSONColumn, "compressed bucket column is not BinData(7)",
                    col.type() == BSONType::kBinData && col.binDataType() == BinDataType::Column);
            c.decoded = uassertStatusOK(BSONColumn(col).decompress());
        } else {
            uassert(ErrorCodes::BadValue, "v1 bucket data columns must be objects",
                    col.type() == BSONType::kObject);
            c.values.assign(_count, BSONElement());
            for (auto e : col.embeddedObject()) {
                StringData key = e.fieldNameStringData();
                size_t idx = 0;
                auto r = std::from_chars(key.data(), key.data() + key.size(), idx);
                if (r.ec == std::errc() && r.ptr == key.data() + key.size() && idx < _count)
                    c.values[idx] = e;
            }
        }
        _columns.push_back(std::move(c));
    };
    if (_spec.includes(_spec.timeField))
        addColumn(timeCol, true);
    for (auto col : dataObj) {
        StringData name = col.fieldNameStringData();
        if (name == _spec.timeField || !_spec.includes(name))
            continue;
        if (_spec.metaField && name == *_spec.metaField)
            continue;  // a data field cannot shadow the meta field
        addColumn(col, false);
    }
}

BSONObj BucketUnpacker::getNext() {
    invariant(hasNext());
    size_t i = _next++;
    BSONObjBuilder b(256);
    bool metaDone = false;
    auto appendMeta = [&] {
        metaDone = true;
        if (_spec.metaField && !_meta.eoo() && _spec.includes(*_spec.metaField))
            b.appendAs(_meta, *_spec.metaField);
    };
    for (const auto& col : _columns) {
        BSONElement v = col.at(i);
        if (!v.eoo())
            b.appendAs(v, col.name);
        if (col.isTime)
            appendMeta();
    }
    if (!metaDone)
        appendMeta();
    for (const auto& f : _spec.computedMetaProjFields) {
        BSONElement e = _bucket[f];
        if (!e.eoo())
            b.append(e);
    }
    return b.obj();
}

}  // namespace mongo
