#include "mongo/db/pipeline/bucket_unpacker.h"

#include <charconv>
#include <limits>

#include "mongo/bson/bsonobjbuilder.h"
#include "mongo/db/timeseries/timeseries_constants.h"
#include "mongo/util/assert_util.h"

namespace mongo {

namespace {

/**
 * The one BSON type of every value of a column that decodeScalars() accepted, or EOO when
 * its literals mix types (int32 and int64, say). Walks the control bytes only: O(blocks).
 * REQUIRES: decodeScalars() succeeded on `col` (the layout is valid).
 */
BSONType singleScalarType(const BSONColumn& col) {
    const char* pos = col.data();
    const char* end = pos + col.size();
    BSONType type = BSONType::kEOO;
    while (pos < end && *pos != 0) {
        const uint8_t c = uint8_t(*pos);
        if (c == 0x01 || c == 0x10 || c == 0x12 || c == 0x09 || c == 0x11 || c == 0x08) {
            BSONType t = BSONType(int8_t(c));
            if (type != BSONType::kEOO && t != type)
                return BSONType::kEOO;
            type = t;
            // type byte, empty field name, value
            pos += 2 + (t == BSONType::kNumberInt ? 4 : t == BSONType::kBool ? 1 : 8);
        } else {
            pos += 1 + 8 * ((c & 0xF) + 1);  // Simple-8b block
        }
    }
    return type;
}

}  // namespace

void BucketUnpacker::Column::appendTo(BSONObjBuilder* b, size_t i) const {
    if (!scalar) {
        BSONElement v = at(i);
        if (!v.eoo())
            b->appendAs(v, name);
        return;
    }
    appendScalarValue(b, name, *scalar, scalarType, i);
}

void appendScalarValue(BSONObjBuilder* b, StringData name, const ScalarColumn& scalar,
                       BSONType type, size_t i) {
    if (i >= scalar.size || !scalar.isPresent(i))
        return;
    switch (type) {
        case BSONType::kNumberDouble:
            b->append(name, scalar.doubles[i]);
            return;
        case BSONType::kNumberInt:
            b->append(name, static_cast<int>(scalar.ints[i]));
            return;
        case BSONType::kNumberLong:
            b->append(name, static_cast<long long>(scalar.ints[i]));
            return;
        case BSONType::kDate:
            b->appendDate(name, Date_t::fromMillisSinceEpoch(scalar.ints[i]));
            return;
        case BSONType::kBool:
            b->appendBool(name, scalar.ints[i] != 0);
            return;
        case BSONType::kTimestamp:
            b->appendTimestamp(name, static_cast<unsigned long long>(scalar.ints[i]));
            return;
        default:
            invariant(false);
    }
}

BucketUnpacker::ColumnAccess BucketUnpacker::column(StringData name) {
    ColumnAccess out;
    for (auto& c : _columns) {
        if (c.name != name)
            continue;
        decode(c);
        if (c.scalar) {
            out.state = ColumnAccess::State::kScalar;
            out.type = c.scalarType;
            out.scalar = &*c.scalar;
        } else {
            out.state = ColumnAccess::State::kOther;
        }
        return out;
    }
    return out;
}

BSONElement BucketUnpacker::Column::at(size_t i) const {
    if (decoded)
        return i < decoded->size() ? (*decoded)[i] : BSONElement();
    return i < values.size() ? values[i] : BSONElement();
}

void BucketUnpacker::reset(BSONObj bucket) {
    _bucket = bucket.getOwned();
    for (auto& c : _columns)
        if (c.scalar)
            _spare.push_back(std::move(*c.scalar));  // keeps the arrays' capacity
    _columns.clear();
    _next = 0;
    _count = 0;
    // One pass over the top level and one over control/data (first occurrence wins).
    BSONElement data, controlElem;
    _meta = BSONElement();
    for (auto e : _bucket) {
        StringData name = e.fieldNameStringData();
        if (name == timeseries::kBucketDataFieldName && data.eoo())
            data = e;
        else if (name == timeseries::kBucketMetaFieldName && _meta.eoo())
            _meta = e;
        else if (name == timeseries::kBucketControlFieldName && controlElem.eoo())
            controlElem = e;
    }
    uassert(5346509,
            "The $_internalUnpackBucket stage requires a data region to be present in the bucket",
            data.type() == BSONType::kObject && !data.embeddedObject().isEmpty());
    BSONElement versionElem, count;
    if (controlElem.type() == BSONType::kObject) {
        for (auto e : controlElem.embeddedObject()) {
            StringData name = e.fieldNameStringData();
            if (name == timeseries::kBucketControlVersionFieldName && versionElem.eoo())
                versionElem = e;
            else if (name == timeseries::kBucketControlCountFieldName && count.eoo())
                count = e;
        }
    }
    int version = versionElem.numberInt();
    BSONObj dataObj = data.embeddedObject();

    // With an include list, stop once the time column and every listed data column are
    // found: the columns not read are not even touched (each is its own cache line).
    size_t wanted = std::numeric_limits<size_t>::max();
    if (_spec.behavior == BucketSpec::Behavior::kInclude) {
        wanted = _spec.fieldSet.size() - _spec.fieldSet.count(_spec.timeField);
        if (_spec.metaField)
            wanted -= _spec.fieldSet.count(*_spec.metaField);
    }
    BSONElement timeCol;
    _dataColumns.clear();
    for (auto col : dataObj) {
        StringData name = col.fieldNameStringData();
        if (name == _spec.timeField) {
            if (timeCol.eoo())
                timeCol = col;
        } else if (_spec.metaField && name == *_spec.metaField) {
            continue;  // a data field cannot shadow the meta field
        } else if (_spec.includes(name)) {
            _dataColumns.push_back(col);
        }
        if (!timeCol.eoo() && _dataColumns.size() >= wanted)
            break;
    }
    uassert(ErrorCodes::BadValue,
            "Time field '" + _spec.timeField + "' is missing from the bucket's data region",
            !timeCol.eoo());
    if (version >= 2) {
        if (count.isNumber()) {
            // A bucket written directly may claim any count: more than a column can decode to
            // would only make up empty measurements.
            uassert(ErrorCodes::BadValue,
                    "bucket control.count must be between 0 and " +
                        std::to_string(BSONColumn::kMaxPositions),
                    count.numberLong() >= 0 &&
                        count.numberLong() <= static_cast<long long>(BSONColumn::kMaxPositions));
            _count = static_cast<size_t>(count.numberLong());
        } else {
            _count = uassertStatusOK(BSONColumn(timeCol).count());
        }
    } else {
        uassert(ErrorCodes::BadValue, "v1 bucket data columns must be objects",
                timeCol.type() == BSONType::kObject);
        _count = static_cast<size_t>(timeCol.embeddedObject().nFields());
    }

    _version = version;
    _positions = 0;
    _allReady = false;
    auto addColumn = [&](const BSONElement& col, bool isTime) {
        Column c;
        c.name = std::string(col.fieldNameStringData());
        c.isTime = isTime;
        c.raw = col;
        _columns.push_back(std::move(c));
    };
    if (_spec.includes(_spec.timeField))
        addColumn(timeCol, true);
    for (const auto& col : _dataColumns)
        addColumn(col, false);
}

void BucketUnpacker::decode(Column& c) {
    if (c.ready)
        return;
    c.ready = true;
    const BSONElement& col = c.raw;
    if (_version >= 2) {
        uassert(ErrorCodes::InvalidBSONColumn, "compressed bucket column is not BinData(7)",
                col.type() == BSONType::kBinData && col.binDataType() == BinDataType::Column);
        BSONColumn column(col);
        ScalarColumn scalar;
        if (!_spare.empty()) {
            scalar = std::move(_spare.back());
            _spare.pop_back();
        }
        Status s = column.decodeScalars(&scalar);
        BSONType t = s.isOK() ? singleScalarType(column) : BSONType::kEOO;
        if (t != BSONType::kEOO) {
            _positions += scalar.size;
            c.scalar = std::move(scalar);
            c.scalarType = t;
        } else {
            _spare.push_back(std::move(scalar));
            c.decoded = uassertStatusOK(column.decompress());
            _positions += c.decoded->size();
        }
        // Each column is bounded by the decoder; all of a bucket's together by this.
        uassert(ErrorCodes::ExceededMemoryLimit,
                "bucket decodes to more than " + std::to_string(2 * BSONColumn::kMaxPositions) +
                    " values",
                _positions <= 2 * BSONColumn::kMaxPositions);
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
}

BSONObj BucketUnpacker::getNext() {
    invariant(hasNext());
    if (!_allReady) {
        for (auto& c : _columns)
            decode(c);
        _allReady = true;
    }
    size_t i = _next++;
    // Measurements of a bucket are nearly the same size: one allocation, no regrowth.
    BSONObjBuilder b(_measurementBytes);
    auto appendMeta = [&] {
        if (_spec.metaField && !_meta.eoo() && _spec.includes(*_spec.metaField))
            b.appendAs(_meta, *_spec.metaField);
    };
    // Time (when unpacked) first, then meta, then the data columns: a projection that
    // drops the time field keeps the others in the same relative order.
    if (_columns.empty() || !_columns.front().isTime)
        appendMeta();
    for (const auto& col : _columns) {
        col.appendTo(&b, i);
        if (col.isTime)
            appendMeta();
    }
    for (const auto& f : _spec.computedMetaProjFields) {
        BSONElement e = _bucket[f];
        if (!e.eoo())
            b.append(e);
    }
    BSONObj out = b.obj();
    _measurementBytes = std::max(256, out.objsize() + 16);
    return out;
}

}  // namespace mongo
